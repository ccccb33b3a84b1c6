// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_PACKAGES_FETCH_PACKAGE_HPP
#define SKILLMD_PACKAGES_FETCH_PACKAGE_HPP

// From a source (source_spec.hpp) to skill folders in a work folder, each checked: every
// source ends as a tree without links (an archive unpacked under archive.hpp's rules, a
// git tree streamed as an archive, a local folder copied through the contained listing
// of mcp/), from which the skills are taken as Agent Plugins says (plugin.json, then
// skills/<name>/SKILL.md one level deep) or as one skill (SKILL.md at the root). Each
// skill's SKILL.md is then read with the caller's frontmatter parser under the Agent
// Skills rules; one that fails is skipped and said why, as the plugin format asks.

#include <skillmd/packages/archive.hpp>
#include <skillmd/packages/artifact.hpp>
#include <skillmd/packages/discovery_index.hpp>
#include <skillmd/packages/fetch.hpp>
#include <skillmd/packages/git.hpp>
#include <skillmd/packages/lock_file.hpp>
#include <skillmd/packages/plugin_manifest.hpp>
#include <skillmd/packages/source_spec.hpp>
#include <skillmd/mcp/digest.hpp>
#include <skillmd/validation/read_skill.hpp>
#include <skillmd/validation/dialect.hpp>
#include <skillmd/detail/read_file.hpp>
#include <skillmd/detail/utf8.hpp>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace skillmd::packages {

/// A skill ready to install: its folder in the work area, and its lock entry (files
/// filled from the folder as it stands).
struct fetched_skill
{
    std::string dir;
    locked_skill lock;
    std::string description; ///< from SKILL.md, once check_skills() read it
    std::string version;     ///< SKILL.md's `version`, if any (check_skills())
};

struct fetched_package
{
    std::vector<fetched_skill> skills;
    std::vector<std::string> warnings; ///< skipped skills and ignored fields, each said why
    std::string error;                 ///< set when nothing may be installed from it
    bool ok() const noexcept { return error.empty(); }
};

namespace detail {

/// Copies the skill folder `from` to the new folder `to` through the contained listing
/// (links that stay inside become copies, those that leave and `.git` are left out, and
/// said). "" or why not.
inline std::string copy_skill(std::string const& from, std::string const& to, std::vector<std::string>& warnings,
                              std::string const& label, std::uint64_t& used, std::uint64_t limit)
{
    std::vector<archive_member> members;
    std::vector<std::string> excluded;
    std::string why;
    if (!skill_members(from, members, why, &excluded)) return label + ": " + why;
    for (auto const& x : excluded) warnings.push_back(label + ": left out " + x);
    for (auto const& m : members) used += m.bytes.size();
    if (used > limit) return "more than " + std::to_string(limit) + " bytes in all";
    std::error_code ec;
    std::filesystem::create_directories(to, ec);
    skillmd::detail::unique_fd const root(::open(to.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (ec || !root) return "cannot make " + to;
    for (auto const& m : members)
        if (!write_new_file(root.get(), m.path, m.bytes, m.executable)) return "cannot write " + to + "/" + m.path;
    return {};
}

/// The regular file `rel` below the folder `root`, read without leaving it (a link that
/// leads out is refused), at most `limit` bytes.
inline std::optional<std::string> read_contained(std::string const& root, std::string const& rel, std::uint64_t limit, std::string& why)
{
    skillmd::detail::unique_fd const dir(::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!dir) {
        why = "cannot open " + root;
        return std::nullopt;
    }
    return mcp::detail::read_below(dir.get(), skillmd::detail::path_of_descriptor(dir.get()), rel, limit, why);
}

inline bool is_regular_below(std::string const& root, std::string const& rel)
{
    skillmd::detail::unique_fd const dir(::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!dir) return false;
    skillmd::detail::unique_fd const f(skillmd::detail::open_beneath(dir.get(), rel, O_PATH));
    struct stat st {};
    return f && ::fstat(f.get(), &st) == 0 && S_ISREG(st.st_mode);
}

inline bool is_folder_below(std::string const& root, std::string const& rel)
{
    skillmd::detail::unique_fd const dir(::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!dir) return false;
    skillmd::detail::unique_fd const f(skillmd::detail::open_beneath(dir.get(), rel, O_PATH | O_DIRECTORY));
    return static_cast<bool>(f);
}

/// The last path component of a URL or path, without `.git` (a repository's name).
inline std::string last_component(std::string s)
{
    while (!s.empty() && s.back() == '/') s.pop_back();
    s = s.substr(s.find_last_of("/:") == std::string::npos ? 0 : s.find_last_of("/:") + 1);
    if (s.ends_with(".git")) s.resize(s.size() - 4);
    return s;
}

} // namespace detail

/** Reads SKILL.md of every staged skill with `parser` under the Agent Skills rules as
    its client guide applies them (lenient: what a client loads): those with an error are dropped from `p` and said why; so is a skill whose
    folder name is not a valid skill name. Then fills each lock entry's files from the
    folder (mcp::manifest_of: SHA-256 and size of each file).
*/
template <class Parser>
void check_skills(Parser const& parser, fetched_package& p)
{
    std::vector<fetched_skill> kept;
    for (auto& s : p.skills) {
        std::string const label = "skill \"" + s.lock.name + "\"";
        if (!broken_name_rules(s.lock.name).empty()) {
            p.warnings.push_back(label + ": not a valid skill name (1 to 64 of a-z, 0-9 and '-'): skipped");
            continue;
        }
        auto m = mcp::manifest_of(s.dir);
        if (!m.complete()) {
            p.warnings.push_back(label + ": " + m.error + ": skipped");
            continue;
        }
        std::string const file = s.lock.name + "/SKILL.md";
        auto const r = read_skill(parser, dialects::agent_skills(), validation_mode::lenient, m.skill_md, skill_origin{file, s.lock.name});
        bool bad = false;
        // The folder is the name every agent calls the skill by: a `name:` that says
        // otherwise would install one skill under another's name.
        if (r.skill && r.skill->name_given && r.skill->name != s.lock.name) {
            p.warnings.push_back(label + ": its SKILL.md says `name: " + r.skill->name + "`, not the folder's name: skipped");
            bad = true;
        }
        for (auto const& f : m.files)
            if (skillmd::detail::find_invalid_utf8(f.path) != std::string::npos) {
                p.warnings.push_back(label + ": a file name that is not UTF-8: skipped");
                bad = true;
                break;
            }
        for (auto const& d : r.diagnostics)
            if (d.severity == severity::error) {
                p.warnings.push_back(label + ": line " + std::to_string(d.line) + ", column " + std::to_string(d.column) + ": " + d.message + " (" +
                                     d.code + "): skipped");
                bad = true;
            }
        if (bad || !r.skill) continue;
        s.description = r.skill->description;
        s.version = r.skill->version.value_or("");
        s.lock.files = std::move(m.files);
        kept.push_back(std::move(s));
    }
    p.skills = std::move(kept);
}

/** Fetches `o` into the empty folder `work` (which the caller removes afterwards) and
    takes its skills out into `work/stage/NAME`. Skills are not checked yet (check_skills).
*/
inline fetched_package fetch_package(package_origin const& o, std::string const& work, fetch_options opts)
{
    namespace fs = std::filesystem;
    fetched_package p;
    if (opts.deadline == std::chrono::steady_clock::time_point::max())
        opts.deadline = std::chrono::steady_clock::now() + opts.limits.total_timeout;
    std::uint64_t used = 0; // bytes this source brought so far, against limits.max_total_bytes
    auto const remaining = [&] {
        package_limits l = opts.limits;
        l.max_total_bytes = used < opts.limits.max_total_bytes ? opts.limits.max_total_bytes - used : 0;
        return l;
    };
    std::error_code ec;
    fs::create_directories(work + "/stage", ec);
    if (ec) {
        p.error = "cannot make " + work + "/stage: " + ec.message();
        return p;
    }
    locked_skill base;
    base.source = o;

    // Takes the skills out of an unpacked or local tree (`root`, then `sub` below it).
    auto const take_tree = [&](std::string root, std::string const& default_name, std::string const& sub) {
        std::string const shown = o.location + (o.path.empty() ? "" : " (" + o.path + ")");
        if (!sub.empty()) {
            if (!detail::is_folder_below(root, sub)) {
                p.error = "no folder \"" + sub + "\" in " + o.location;
                return;
            }
            root += "/" + sub;
        }
        std::vector<std::pair<std::string, std::string>> skills; // name, folder
        if (detail::is_regular_below(root, "plugin.json")) {
            std::string why;
            auto text = detail::read_contained(root, "plugin.json", 1024 * 1024, why);
            auto const m = text ? check_plugin_manifest(*text, why) : std::nullopt;
            if (!m) {
                p.error = shown + ": " + why;
                return;
            }
            for (auto const& w : m->warnings) p.warnings.push_back(w);
            if (!detail::is_folder_below(root, "skills")) {
                p.error = shown + ": the plugin \"" + m->name + "\" has no skills/ folder";
                return;
            }
        }
        if (detail::is_regular_below(root, "SKILL.md") && !detail::is_regular_below(root, "plugin.json")) {
            skills.emplace_back(default_name, root);
        } else if (detail::is_folder_below(root, "skills")) {
            for (auto const& entry : fs::directory_iterator(root + "/skills", ec)) {
                std::string const name = entry.path().filename().string();
                if (detail::is_regular_below(root, "skills/" + name + "/SKILL.md"))
                    skills.emplace_back(name, root + "/skills/" + name);
            }
        } else {
            // A folder of skill folders, as a tier holds them.
            for (auto const& entry : fs::directory_iterator(root, ec)) {
                std::string const name = entry.path().filename().string();
                if (name != ".git" && detail::is_regular_below(root, name + "/SKILL.md")) skills.emplace_back(name, root + "/" + name);
            }
            if (skills.empty()) {
                p.error = shown + ": no plugin.json, SKILL.md, skills/ folder or skill folders";
                return;
            }
        }
        std::sort(skills.begin(), skills.end());
        if (skills.empty()) p.error = shown + ": no skill in it";
        if (skills.size() > opts.limits.max_skills) {
            p.error = shown + ": more than " + std::to_string(opts.limits.max_skills) + " skills";
            return;
        }
        for (auto const& [name, dir] : skills) {
            if (!broken_name_rules(name).empty()) {
                p.warnings.push_back("skill folder \"" + name + "\": not a valid skill name: skipped");
                continue;
            }
            fetched_skill s{work + "/stage/" + name, base, {}, {}};
            s.lock.name = name;
            if (auto const why = detail::copy_skill(dir, s.dir, p.warnings, "skill \"" + name + "\"", used, opts.limits.max_total_bytes);
                !why.empty()) {
                p.error = why;
                return;
            }
            p.skills.push_back(std::move(s));
        }
    };
    auto const unpack = [&](std::string_view bytes, std::string const& into) {
        std::uint64_t written = 0;
        if (auto const why = unpack_archive(bytes, into, remaining(), &written); !why.empty()) {
            p.error = o.location + ": " + why;
            return false;
        }
        used += written;
        return true;
    };

    if (o.type == "folder") {
        if (!fs::is_directory(o.location, ec)) {
            p.error = "no folder " + o.location;
            return p;
        }
        take_tree(o.location, detail::last_component(o.path.empty() ? o.location : o.path), o.path);
    } else if (o.type == "archive") {
        std::string why;
        std::optional<std::string> bytes;
        if (o.location.find("://") != std::string::npos) {
            auto d = fetch(o.location, opts, why);
            if (d) bytes = std::move(d->bytes);
        } else {
            bytes = skillmd::detail::read_file(o.location, why, opts.limits.max_download_bytes);
        }
        if (!bytes) {
            p.error = why;
            return p;
        }
        base.digest = "sha256:" + mcp::sha256_hex(*bytes);
        if (!unpack(*bytes, work + "/tree")) return p;
        std::string name = detail::last_component(o.path.empty() ? o.location : o.path);
        for (std::string_view ext : {".tar.gz", ".tgz", ".zip"})
            if (detail::ends_with_ci(name, ext)) name.resize(name.size() - ext.size());
        take_tree(work + "/tree", name, o.path);
    } else if (o.type == "git") {
        git_runner const git(opts.limits, [&](std::string& why) { return opts.time_left(why); }, opts.allow_http);
        if (auto const why = git_runner::check_url(o.location, opts.allow_http); !why.empty()) {
            p.error = why;
            return p;
        }
        if (auto r = git.clone(o.location, o.ref, work + "/repo.git"); !r.ok()) {
            p.error = r.why;
            return p;
        }
        std::string why;
        auto const commit = git.resolve(work + "/repo.git", o.ref, why);
        if (!commit) {
            p.error = o.location + ": " + why;
            return p;
        }
        base.revision = *commit;
        auto r = git.archive(work + "/repo.git", *commit, o.path);
        if (!r.ok()) {
            p.error = o.location + ": " + (o.path.empty() ? r.why : "no folder \"" + o.path + "\" at " + o.ref + " (" + r.why + ")");
            return p;
        }
        if (!unpack(r.out, work + "/tree")) return p;
        // The subfolder is already the archive's root.
        take_tree(work + "/tree", detail::last_component(o.path.empty() ? o.location : o.path), "");
    } else if (o.type == "skill-md") {
        std::string why;
        auto d = fetch(o.location, opts, why);
        if (!d) {
            p.error = why;
            return p;
        }
        std::string url = d->url.substr(0, d->url.find('?'));
        url.resize(url.size() - std::string_view("/SKILL.md").size() * (detail::ends_with_ci(url, "/SKILL.md") ? 1 : 0));
        std::string const name = detail::last_component(url);
        fetched_skill s{work + "/stage/" + name, base, {}, {}};
        s.lock.name = name;
        s.lock.digest = "sha256:" + mcp::sha256_hex(d->bytes);
        skillmd::detail::unique_fd const stage(::open((work + "/stage").c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
        if (broken_name_rules(name).empty() && !detail::write_new_file(stage.get(), name + "/SKILL.md", d->bytes, false)) {
            p.error = "cannot write " + s.dir;
            return p;
        }
        p.skills.push_back(std::move(s));
    } else if (o.type == "index") {
        std::string why;
        auto d = fetch(o.location, opts, why);
        if (!d) {
            p.error = why;
            return p;
        }
        auto index = parse_index(d->bytes, why);
        if (!index) {
            p.error = d->url + ": " + why;
            return p;
        }
        p.warnings = index->warnings;
        std::vector<index_entry const*> chosen;
        for (auto const& e : index->skills)
            if (o.path.empty() || e.name == o.path) chosen.push_back(&e);
        if (chosen.empty()) {
            p.error = d->url + (o.path.empty() ? ": no skill listed" : ": no skill \"" + o.path + "\" listed");
            return p;
        }
        if (chosen.size() > opts.limits.max_skills) {
            p.error = d->url + ": more than " + std::to_string(opts.limits.max_skills) + " skills";
            return p;
        }
        bool const secure = net::detail::istarts_with(d->url, "https://");
        for (auto const* e : chosen) {
            std::string const url = resolve_url(d->url, e->url);
            // What an https:// index lists comes over https:// too (no plain request to
            // this machine's services on the index's word).
            if (secure && !net::detail::istarts_with(url, "https://")) {
                p.error = "skill \"" + e->name + "\": an https:// index lists " + url + ", which is not https://: refused";
                return p;
            }
            auto artifact = fetch(url, opts, why);
            if (!artifact) {
                p.error = "skill \"" + e->name + "\": " + why;
                return p;
            }
            std::string const digest = "sha256:" + mcp::sha256_hex(artifact->bytes);
            if (digest != e->digest) {
                p.error = "skill \"" + e->name + "\": the artifact's digest is not the index's " + e->digest + ": refused";
                return p;
            }
            fetched_skill s{work + "/stage/" + e->name, base, {}, {}};
            s.lock.name = e->name;
            s.lock.digest = digest;
            s.lock.version = e->version;
            s.lock.resolved_index = d->url;
            if (e->type == "skill-md") {
                used += artifact->bytes.size();
                if (used > opts.limits.max_total_bytes) {
                    p.error = d->url + ": more than " + std::to_string(opts.limits.max_total_bytes) + " bytes in all";
                    return p;
                }
                skillmd::detail::unique_fd const stage(::open((work + "/stage").c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
                if (!detail::write_new_file(stage.get(), e->name + "/SKILL.md", artifact->bytes, false)) {
                    p.error = "cannot write " + s.dir;
                    return p;
                }
            } else {
                if (!unpack(artifact->bytes, s.dir)) {
                    p.error = "skill \"" + e->name + "\": " + p.error;
                    return p;
                }
                if (!detail::is_regular_below(s.dir, "SKILL.md")) {
                    p.error = "skill \"" + e->name + "\": the archive has no SKILL.md at its root";
                    return p;
                }
            }
            p.skills.push_back(std::move(s));
        }
    } else {
        p.error = "unknown source type " + o.type;
    }
    if (!p.ok()) p.skills.clear();
    std::sort(p.skills.begin(), p.skills.end(), [](auto const& a, auto const& b) { return a.lock.name < b.lock.name; });
    return p;
}

} // namespace skillmd::packages

#endif
