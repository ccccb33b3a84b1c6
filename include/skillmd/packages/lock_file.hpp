// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_PACKAGES_LOCK_FILE_HPP
#define SKILLMD_PACKAGES_LOCK_FILE_HPP

// skills-lock.json: what an install folder holds and where each skill came from, with
// every file's SHA-256, so `verify` can tell a changed byte and `outdated` what to ask
// upstream. The format is documented in docs/packages.md; it is skillmd's own, and it
// keeps the field names the discovery draft suggests for its lock (`version`, `digest`,
// `resolvedIndex`). Read strictly: a field it does not know is an error, not a guess.

#include <skillmd/mcp/digest.hpp>
#include <skillmd/detail/json.hpp>
#include <skillmd/validation/name_rules.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace skillmd::packages {

inline constexpr std::string_view lock_file_name = "skills-lock.json";

/// Where a package came from, as the user named it (see source_spec.hpp).
struct package_origin
{
    std::string type;     ///< "git", "folder", "archive", "index" or "skill-md"
    std::string location; ///< a URL or an absolute path
    std::string ref;      ///< git: the branch, tag or commit asked for ("" for the default branch)
    std::string path;     ///< git, folder, archive: the subfolder; index: the skill asked for
    friend bool operator==(package_origin const&, package_origin const&) = default;
};

/// One installed skill.
struct locked_skill
{
    std::string name;
    package_origin source;
    std::string revision;       ///< git: the commit installed
    std::string version;        ///< index: the entry's version, when it has one
    std::string resolved_index; ///< index: the index the artifact was listed in
    std::string digest;         ///< `sha256:{hex}` of the artifact (index, SKILL.md URL, archive); "" otherwise
    std::vector<mcp::file_digest> files; ///< every file of the skill's folder, sorted by path
};

struct lock_file
{
    std::vector<locked_skill> skills; ///< sorted by name
    locked_skill const* find(std::string_view name) const
    {
        for (auto const& s : skills)
            if (s.name == name) return &s;
        return nullptr;
    }
    void put(locked_skill s)
    {
        auto const it = std::lower_bound(skills.begin(), skills.end(), s.name, [](auto const& x, auto const& n) { return x.name < n; });
        if (it != skills.end() && it->name == s.name)
            *it = std::move(s);
        else
            skills.insert(it, std::move(s));
    }
    bool erase(std::string_view name)
    {
        auto const it = std::find_if(skills.begin(), skills.end(), [&](auto const& s) { return s.name == name; });
        if (it == skills.end()) return false;
        skills.erase(it);
        return true;
    }
};

/// The lock as text: two-space indented JSON, keys in a fixed order, one line per file,
/// so that the same install gives the same bytes and a change reads well in a diff.
inline std::string to_json(lock_file const& lock)
{
    using skillmd::detail::json_quote;
    std::string out = "{\n  \"lockfileVersion\": 1,\n  \"skills\": {";
    bool first = true;
    for (auto const& s : lock.skills) {
        out += first ? "\n    " : ",\n    ";
        first = false;
        json_quote(out, s.name);
        out += ": {\n      \"source\": {\"type\": ";
        json_quote(out, s.source.type);
        out += ", \"location\": ";
        json_quote(out, s.source.location);
        if (!s.source.ref.empty()) {
            out += ", \"ref\": ";
            json_quote(out, s.source.ref);
        }
        if (!s.source.path.empty()) {
            out += ", \"path\": ";
            json_quote(out, s.source.path);
        }
        out += "},\n";
        auto const field = [&](std::string_view key, std::string const& value) {
            if (value.empty()) return;
            out += "      \"";
            out += key;
            out += "\": ";
            json_quote(out, value);
            out += ",\n";
        };
        field("revision", s.revision);
        field("version", s.version);
        field("resolvedIndex", s.resolved_index);
        field("digest", s.digest);
        out += "      \"files\": {";
        bool first_file = true;
        for (auto const& f : s.files) {
            out += first_file ? "\n        " : ",\n        ";
            first_file = false;
            json_quote(out, f.path);
            out += ": {\"sha256\": \"" + f.hex + "\", \"size\": " + std::to_string(f.size) + "}";
        }
        out += first_file ? "}\n    }" : "\n      }\n    }";
    }
    out += first ? "}\n}\n" : "\n  }\n}\n";
    return out;
}

namespace detail {

inline bool is_sha256_hex(std::string_view s)
{
    return s.size() == 64 && s.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

} // namespace detail

/// Reads a lock's text; nothing, and `why`, when it is not one this version writes.
inline std::optional<lock_file> parse_lock(std::string_view text, std::string& why)
{
    boost::system::error_code ec;
    auto const v = boost::json::parse(text, ec);
    if (ec || !v.is_object()) {
        why = "not a JSON object" + (ec ? ": " + ec.message() : std::string());
        return std::nullopt;
    }
    auto const& top = v.as_object();
    for (auto const& [k, _] : top)
        if (k != "lockfileVersion" && k != "skills") {
            why = "an unknown field \"" + std::string(k) + "\"";
            return std::nullopt;
        }
    auto const* version = top.if_contains("lockfileVersion");
    if (!version || !version->is_int64() || version->as_int64() != 1) {
        why = "lockfileVersion is not 1 (written by another version of skillmd?)";
        return std::nullopt;
    }
    auto const* skills = top.if_contains("skills");
    if (!skills || !skills->is_object()) {
        why = "no \"skills\" object";
        return std::nullopt;
    }
    auto const text_of = [](boost::json::object const& o, std::string_view key, std::string& out) {
        auto const* x = o.if_contains(key);
        if (!x) return true;
        if (!x->is_string()) return false;
        out = std::string(x->as_string());
        return true;
    };
    lock_file lock;
    for (auto const& [name, entry] : skills->as_object()) {
        std::string const where = "skill \"" + std::string(name) + "\": ";
        if (!broken_name_rules(name).empty()) {
            why = where + "not a skill name (1 to 64 of a-z, 0-9 and '-')";
            return std::nullopt;
        }
        if (!entry.is_object()) {
            why = where + "not an object";
            return std::nullopt;
        }
        auto const& o = entry.as_object();
        locked_skill s;
        s.name = std::string(name);
        for (auto const& [k, _] : o)
            if (k != "source" && k != "revision" && k != "version" && k != "resolvedIndex" && k != "digest" && k != "files") {
                why = where + "an unknown field \"" + std::string(k) + "\"";
                return std::nullopt;
            }
        auto const* src = o.if_contains("source");
        if (!src || !src->is_object()) {
            why = where + "no \"source\" object";
            return std::nullopt;
        }
        auto const& so = src->as_object();
        for (auto const& [k, _] : so)
            if (k != "type" && k != "location" && k != "ref" && k != "path") {
                why = where + "source: an unknown field \"" + std::string(k) + "\"";
                return std::nullopt;
            }
        if (!text_of(so, "type", s.source.type) || !text_of(so, "location", s.source.location) || !text_of(so, "ref", s.source.ref) ||
            !text_of(so, "path", s.source.path) || s.source.type.empty() || s.source.location.empty()) {
            why = where + "source needs \"type\" and \"location\" strings";
            return std::nullopt;
        }
        auto const& t = s.source.type;
        if (t != "git" && t != "folder" && t != "archive" && t != "index" && t != "skill-md") {
            why = where + "source type \"" + t + "\" is none of git, folder, archive, index and skill-md";
            return std::nullopt;
        }
        if (!text_of(o, "revision", s.revision) || !text_of(o, "version", s.version) || !text_of(o, "resolvedIndex", s.resolved_index) ||
            !text_of(o, "digest", s.digest)) {
            why = where + "revision, version, resolvedIndex and digest are strings";
            return std::nullopt;
        }
        if (!s.digest.empty() && !(s.digest.starts_with("sha256:") && detail::is_sha256_hex(std::string_view(s.digest).substr(7)))) {
            why = where + "digest is not sha256: and 64 lowercase hexadecimal digits";
            return std::nullopt;
        }
        auto const* files = o.if_contains("files");
        if (!files || !files->is_object()) {
            why = where + "no \"files\" object";
            return std::nullopt;
        }
        for (auto const& [path, f] : files->as_object()) {
            auto const* sum = f.is_object() ? f.as_object().if_contains("sha256") : nullptr;
            auto const* size = f.is_object() ? f.as_object().if_contains("size") : nullptr;
            if (!sum || !sum->is_string() || !detail::is_sha256_hex(sum->as_string()) || !size || !(size->is_int64() || size->is_uint64()) ||
                (size->is_int64() && size->as_int64() < 0) || f.as_object().size() != 2 || !skillmd::detail::plain_relative_path(path)) {
                why = where + "file \"" + std::string(path) + "\": needs a plain relative path, \"sha256\" (64 hexadecimal digits) and \"size\"";
                return std::nullopt;
            }
            s.files.push_back({std::string(path), std::string(sum->as_string()),
                               size->is_uint64() ? size->as_uint64() : static_cast<std::uint64_t>(size->as_int64())});
        }
        std::sort(s.files.begin(), s.files.end(), [](auto const& x, auto const& y) { return x.path < y.path; });
        lock.put(std::move(s));
    }
    return lock;
}

} // namespace skillmd::packages

#endif
