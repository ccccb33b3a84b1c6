// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_PACKAGES_SOURCE_SPEC_HPP
#define SKILLMD_PACKAGES_SOURCE_SPEC_HPP

// What `skillmd install SOURCE` names, read into a package_origin. The forms:
//   git+URL[#REF[:SUBFOLDER]]   git+https://, git+http://, git+file://, git://, ssh
//   URL.git[#REF[:SUBFOLDER]]   and git://HOST/... with or without .git
//   PATH#REF[:SUBFOLDER]        a local repository at a branch, tag or commit
//   https://HOST[/...]/index.json[#SKILL]  a discovery index (or https://HOST: its well-known one)
//   https://.../SKILL.md        one skill as one file
//   URL or PATH ending .tar.gz, .tgz or .zip   an archive (an Agent Plugins package or one skill)
//   PATH                        a folder: a plugin (plugin.json), one skill (SKILL.md) or skills/
// `#REF:SUBFOLDER` follows the form docker build gives git contexts.

#include <skillmd/packages/lock_file.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace skillmd::packages {

inline constexpr std::string_view well_known_index = "/.well-known/agent-skills/index.json";

namespace detail {

/// True when `s` ends with `tail`, ASCII case aside.
inline bool ends_with_ci(std::string_view s, std::string_view tail)
{
    if (s.size() < tail.size()) return false;
    auto const lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    for (std::size_t i = 0; i < tail.size(); ++i)
        if (lower(s[s.size() - tail.size() + i]) != lower(tail[i])) return false;
    return true;
}

inline bool is_archive_name(std::string_view s)
{
    return ends_with_ci(s, ".tar.gz") || ends_with_ci(s, ".tgz") || ends_with_ci(s, ".zip");
}

/// Splits `#REF[:SUBFOLDER]` off a git source.
inline void split_git_fragment(std::string& location, package_origin& o)
{
    auto const hash = location.find('#');
    if (hash == std::string::npos) return;
    std::string fragment = location.substr(hash + 1);
    location.erase(hash);
    auto const colon = fragment.find(':');
    o.ref = fragment.substr(0, colon);
    if (colon != std::string::npos) o.path = fragment.substr(colon + 1);
}

} // namespace detail

/** Reads SOURCE as above. Paths become absolute (from the current folder). Nothing, and
    `why`, for what it cannot be: an empty source, an option-like one (`-...`), a URL
    scheme it does not fetch, a subfolder that is not a plain relative path.
*/
inline std::optional<package_origin> parse_source(std::string_view given, std::string& why)
{
    std::string s(given);
    if (s.empty() || s.front() == '-') {
        why = "a source is a URL or a path, not \"" + s + "\"";
        return std::nullopt;
    }
    for (char const c : s)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
            why = "a source holds a control character";
            return std::nullopt;
        }
    package_origin o;
    auto const is_url = [](std::string_view x) { return x.find("://") != std::string_view::npos; };
    if (s.starts_with("git+")) {
        o.type = "git";
        o.location = s.substr(4);
        detail::split_git_fragment(o.location, o);
    } else if (s.starts_with("git://") || s.starts_with("ssh://") ||
               ((s.starts_with("https://") || s.starts_with("http://") || s.starts_with("file://")) &&
                detail::ends_with_ci(s.substr(0, s.find('#')), ".git"))) {
        o.type = "git";
        o.location = s;
        detail::split_git_fragment(o.location, o);
    } else if (s.starts_with("https://") || s.starts_with("http://")) {
        std::string url = s;
        std::string fragment;
        if (auto const hash = url.find('#'); hash != std::string::npos) {
            fragment = url.substr(hash + 1);
            url.erase(hash);
        }
        std::string const path = url.substr(0, url.find('?'));
        if (detail::ends_with_ci(path, "/SKILL.md")) {
            o.type = "skill-md";
        } else if (detail::is_archive_name(path)) {
            o.type = "archive";
            o.path = fragment;
            fragment.clear();
        } else {
            o.type = "index";
            // A site, or a folder of one: its well-known index.
            auto const after_scheme = url.find("://") + 3;
            if (url.find('/', after_scheme) == std::string::npos) url += well_known_index;
            else if (url.ends_with("/.well-known/agent-skills/") || url.ends_with("/.well-known/agent-skills")) {
                url.erase(url.rfind("/.well-known/agent-skills"));
                url += well_known_index;
            } else if (url.ends_with("/")) {
                url.pop_back();
                url += well_known_index;
            }
            o.path = fragment;
            fragment.clear();
        }
        if (!fragment.empty()) {
            why = "only a git, archive or index source takes a #fragment";
            return std::nullopt;
        }
        o.location = url;
    } else if (is_url(s)) {
        why = "not a scheme skillmd installs from (https://, http:// to this machine, git://, ssh://, file:// with .git or git+)";
        return std::nullopt;
    } else {
        // A path: the first `#` marks a git reference (or an archive's subfolder), unless
        // the whole of it names something that exists.
        std::string path = s;
        std::string fragment;
        std::error_code exists_ec;
        if (auto const hash = s.find('#'); hash != std::string::npos && !std::filesystem::exists(s, exists_ec)) {
            path = s.substr(0, hash);
            fragment = s.substr(hash + 1);
            if (fragment.empty()) {
                why = "a '#' in a path must be followed by a branch, tag or commit, or by :SUBFOLDER";
                return std::nullopt;
            }
        }
        std::error_code ec;
        auto absolute = std::filesystem::absolute(path, ec);
        if (ec) {
            why = "cannot make " + path + " absolute: " + ec.message();
            return std::nullopt;
        }
        // One spelling per folder: runs of `/` made one, `.` and `..` resolved, no `/` at the end.
        std::string collapsed;
        for (char const c : absolute.string())
            if (c != '/' || collapsed.empty() || collapsed.back() != '/') collapsed += c;
        o.location = std::filesystem::path(collapsed).lexically_normal().string();
        while (o.location.size() > 1 && o.location.ends_with('/')) o.location.pop_back();
        // The kind comes from the path as it is kept (`x.tgz/.` is `x.tgz`).
        if (!fragment.empty() && detail::is_archive_name(o.location)) {
            o.type = "archive";
            o.path = fragment;
        } else if (!fragment.empty()) {
            o.type = "git";
            o.location = "file://" + o.location;
            o.location += '#' + fragment;
            detail::split_git_fragment(o.location, o);
        } else {
            o.type = detail::is_archive_name(o.location) ? "archive" : "folder";
        }
    }
    // Credentials in a URL would be written into the lock (often committed) and printed:
    // git's credential helpers and ssh keys are the places for them.
    if (o.location.starts_with("https://") || o.location.starts_with("http://")) {
        auto const rest = std::string_view(o.location).substr(o.location.find("://") + 3);
        if (rest.substr(0, rest.find_first_of("/?#")).find('@') != std::string_view::npos) {
            why = "a URL with user information (a name or token before '@') is refused: use git's credential helper";
            return std::nullopt;
        }
    }
    if (o.type == "git") {
        if (o.location.empty() || o.location.front() == '-' || o.location.starts_with("ext::")) {
            why = "not a git URL: " + o.location;
            return std::nullopt;
        }
        if (o.ref.starts_with('-')) {
            why = "a git reference cannot start with '-'";
            return std::nullopt;
        }
    }
    if (!o.path.empty() && o.type != "index" && !skillmd::detail::plain_relative_path(o.path)) {
        why = "the subfolder \"" + o.path + "\" is not a plain relative path";
        return std::nullopt;
    }
    return o;
}

/// The origin written back as a SOURCE that parse_source() reads to the same origin.
inline std::string source_text(package_origin const& o)
{
    if (o.type == "git") {
        std::string s = o.location.starts_with("git://") || o.location.starts_with("ssh://") ? o.location : "git+" + o.location;
        if (!o.ref.empty() || !o.path.empty()) s += "#" + o.ref + (o.path.empty() ? "" : ":" + o.path);
        return s;
    }
    if ((o.type == "index" || o.type == "archive") && !o.path.empty()) return o.location + "#" + o.path;
    return o.location;
}

} // namespace skillmd::packages

#endif
