// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_PACKAGES_PUBLISH_HPP
#define SKILLMD_PACKAGES_PUBLISH_HPP

// The other way round: a folder of skills published as a discovery index (schema 0.2.0)
// that any web server can serve as files, and packed as an Agent Plugins package. The
// skills are read by the same rules an install applies (fetch_package.hpp), so what is
// published installs. Archives are deterministic (archive.hpp): publishing the same
// skills again gives the same digests.

#include <skillmd/packages/archive.hpp>
#include <skillmd/packages/artifact.hpp>
#include <skillmd/packages/discovery_index.hpp>
#include <skillmd/packages/fetch_package.hpp>
#include <skillmd/packages/install_folder.hpp>
#include <skillmd/packages/operations.hpp>
#include <skillmd/packages/plugin_manifest.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace skillmd::packages {

inline constexpr std::string_view well_known_folder = ".well-known/agent-skills";

struct publish_options
{
    std::string base_url;  ///< where SITE is served (`https://example.com`): the index's URLs are absolute under it
    std::string version;   ///< when given: an immutable `v{version}/` snapshot, and versions.json
};

struct publish_report
{
    std::vector<std::string> published; ///< skill names
    std::vector<std::string> warnings;
    std::string index_path; ///< the index written
    std::string error;
    bool ok() const noexcept { return error.empty(); }
};

namespace detail {

/// Semantic versions compared by their three numbers (then as text), for versions.json.
inline bool version_less(std::string const& a, std::string const& b)
{
    auto const numbers = [](std::string const& v) {
        std::array<unsigned long, 3> n{};
        std::size_t pos = 0;
        for (auto& x : n) {
            char* end = nullptr;
            x = std::strtoul(v.c_str() + pos, &end, 10);
            pos = static_cast<std::size_t>(end - v.c_str());
            if (pos < v.size() && v[pos] == '.') ++pos;
        }
        return n;
    };
    auto const x = numbers(a), y = numbers(b);
    return x != y ? x < y : a < b;
}

/// The skills of the folder `dir`, read and checked by the rules an install applies and
/// staged below `scratch`; nothing, with `r` saying why, when there is none (`doing`:
/// what they are for, for the message).
template <class Parser>
std::optional<fetched_package> skills_to_publish(Parser const& parser, std::string const& dir, std::string const& scratch,
                                                 std::string_view doing, publish_report& r)
{
    if (scratch.empty()) {
        r.error = "cannot make a temporary folder";
        return std::nullopt;
    }
    package_origin origin;
    origin.type = "folder";
    origin.location = std::filesystem::absolute(dir).lexically_normal().string();
    auto p = fetch_package(origin, scratch + "/work", {});
    if (p.ok()) check_skills(parser, p);
    r.warnings = std::move(p.warnings);
    if (!p.ok() || p.skills.empty()) {
        r.error = p.ok() ? dir + ": no skill to " + std::string(doing) : p.error;
        return std::nullopt;
    }
    return p;
}

/// Writes `bytes` to `path`, making its folders; "" or why not.
inline std::string write_site_file(std::string const& path, std::string_view bytes)
{
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
    if (ec) return "cannot make the folder of " + path + ": " + ec.message();
    return write_durably(path, bytes);
}

} // namespace detail

/** Publishes the skills of `dir` (a folder of skill folders, a plugin, or one skill) under
    `site/.well-known/agent-skills/`: `NAME/SKILL.md` for a skill that is one file,
    `NAME.tar.gz` for one with more, and index.json listing them with their digests and
    descriptions. With a version, the artifacts and a copy of the index go to `v{version}/`
    (refused if that snapshot exists with other content: snapshots do not change), the
    top index points at them, and versions.json lists every version (`latest` first).
*/
template <class Parser>
publish_report publish(Parser const& parser, std::string const& dir, std::string const& site, publish_options const& opts)
{
    namespace fs = std::filesystem;
    publish_report r;
    if (!opts.version.empty() && (opts.version.find_first_not_of("0123456789.-+abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") !=
                                      std::string::npos || !std::isdigit(static_cast<unsigned char>(opts.version.front())))) {
        r.error = "a version is a semantic version such as 1.2.0, not \"" + opts.version + "\"";
        return r;
    }
    std::string const scratch = detail::temporary_folder();
    detail::removed_on_exit const cleanup{scratch};
    auto const p = detail::skills_to_publish(parser, dir, scratch, "publish", r);
    if (!p) return r;
    std::string why;
    std::string base = opts.base_url;
    while (base.ends_with('/')) base.pop_back();
    std::string const root = site + "/" + std::string(well_known_folder);
    std::string const sub = opts.version.empty() ? "" : "v" + opts.version + "/";
    discovery_index index;
    std::vector<std::pair<std::string, std::string>> files; // path below root, bytes
    for (auto const& s : p->skills) {
        index_entry e;
        e.name = s.lock.name;
        e.description = s.description;
        e.version = !s.version.empty() ? s.version : opts.version;
        auto artifact = artifact_of(s.dir, why);
        if (!artifact) {
            r.error = "skill \"" + s.lock.name + "\": " + why;
            return r;
        }
        e.type = artifact->type;
        std::string const path = sub + s.lock.name + (e.type == "skill-md" ? "/SKILL.md" : ".tar.gz");
        e.url = base.empty() ? path : base + "/" + std::string(well_known_folder) + "/" + path;
        e.digest = artifact->digest;
        files.emplace_back(path, std::move(artifact->bytes));
        index.skills.push_back(std::move(e));
        r.published.push_back(s.lock.name);
    }
    std::string const index_text = to_json(index);
    if (!opts.version.empty()) {
        // A snapshot is immutable: the same bytes again are fine, other bytes are refused.
        std::string const snapshot = root + "/" + sub + "index.json";
        if (fs::exists(snapshot)) {
            auto const before = skillmd::detail::read_file(snapshot, why, 64 * 1024 * 1024);
            if (!before || *before != index_text) {
                r.error = snapshot + " exists with other content: a published version does not change (publish a new version)";
                return r;
            }
        }
        files.emplace_back(sub + "index.json", index_text);
        // versions.json: every version published here, newest first as `latest`.
        std::vector<std::string> versions{opts.version};
        if (auto const old = skillmd::detail::read_file(root + "/versions.json", why, 1024 * 1024)) {
            boost::system::error_code ec;
            auto const v = boost::json::parse(*old, ec);
            if (!ec && v.is_object())
                if (auto const* list = v.as_object().if_contains("versions"); list && list->is_array())
                    for (auto const& x : list->as_array())
                        if (x.is_string()) versions.emplace_back(x.as_string());
        }
        std::sort(versions.begin(), versions.end(), detail::version_less);
        versions.erase(std::unique(versions.begin(), versions.end()), versions.end());
        boost::json::array list;
        for (auto const& v : versions) list.emplace_back(v);
        files.emplace_back("versions.json", boost::json::serialize(boost::json::object{{"latest", versions.back()}, {"versions", list}}) + "\n");
    }
    files.emplace_back("index.json", index_text);
    for (auto const& [path, bytes] : files)
        if (auto const e = detail::write_site_file(root + "/" + path, bytes); !e.empty()) {
            r.error = e;
            return r;
        }
    r.index_path = root + "/index.json";
    return r;
}

/** Packs the skills of `dir` as an Agent Plugins package at `out` (`.zip`, or `.tar.gz`
    otherwise): plugin.json (dir's own, checked, when it has one; otherwise written with
    `name`, which must be a valid plugin name) and `skills/NAME/...` for every skill that
    passes the install rules.
*/
template <class Parser>
publish_report pack(Parser const& parser, std::string const& dir, std::string const& out, std::string const& name)
{
    namespace fs = std::filesystem;
    publish_report r;
    std::string const scratch = detail::temporary_folder();
    detail::removed_on_exit const cleanup{scratch};
    auto const p = detail::skills_to_publish(parser, dir, scratch, "pack", r);
    if (!p) return r;
    std::string why;
    std::string const root = p->skills.front().lock.source.location;
    std::vector<archive_member> members;
    if (auto text = detail::is_regular_below(root, "plugin.json") ? detail::read_contained(root, "plugin.json", 1024 * 1024, why)
                        : std::nullopt) {
        if (!check_plugin_manifest(*text, why)) {
            r.error = dir + "/plugin.json: " + why;
            return r;
        }
        members.push_back({"plugin.json", std::move(*text), false});
    } else {
        std::string const plugin = name.empty() ? detail::last_component(root) : name;
        if (!is_plugin_name(plugin)) {
            r.error = "\"" + plugin + "\" is not a plugin name (1 to 64 of a-z, 0-9, '-' and '.'): give one with --name";
            return r;
        }
        members.push_back({"plugin.json", plugin_manifest_json(plugin, "", ""), false});
    }
    for (auto const& s : p->skills) {
        std::vector<archive_member> files;
        if (!skill_members(s.dir, files, why)) {
            r.error = why;
            return r;
        }
        for (auto& f : files) members.push_back({"skills/" + s.lock.name + "/" + f.path, std::move(f.bytes), f.executable});
        r.published.push_back(s.lock.name);
    }
    auto const format = detail::ends_with_ci(out, ".zip") ? archive_format::zip : archive_format::tar_gz;
    auto const bytes = pack_archive(std::move(members), format, why);
    if (bytes.empty()) {
        r.error = why;
        return r;
    }
    if (auto const e = detail::write_site_file(fs::absolute(out).string(), bytes); !e.empty()) r.error = e;
    r.index_path = out;
    return r;
}

} // namespace skillmd::packages

#endif
