// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_PACKAGES_OPERATIONS_HPP
#define SKILLMD_PACKAGES_OPERATIONS_HPP

// What `skillmd install | remove | verify | outdated | update | list --installed` do, as
// library calls on an install folder. Changes go through install_folder's transaction;
// verify and outdated touch nothing (verify first undoes an interrupted change, when it
// can take the folder, so that it reports what the next agent will read).

#include <skillmd/packages/fetch_package.hpp>
#include <skillmd/packages/install_folder.hpp>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace skillmd::packages {

struct install_options
{
    fetch_options fetch;
    step_observer on_step; ///< progress, and where tests stop the process
};

/// What a change did, skill by skill.
struct change_report
{
    std::vector<std::string> installed, updated, unchanged, removed;
    std::vector<std::string> warnings;
    std::string error; ///< set when nothing was changed
    bool ok() const noexcept { return error.empty(); }
};

/// One fault verify() found.
struct file_fault
{
    std::string skill;
    std::string path; ///< below the skill's folder; "" for the whole skill
    std::string what; ///< "changed", "missing", "extra" or why it could not be read
};

struct verify_report
{
    std::vector<std::string> verified; ///< skills whose every file matches the lock
    std::vector<file_fault> faults;
    std::string error; ///< the lock could not be read
    bool ok() const noexcept { return error.empty() && faults.empty(); }
};

/// One row of outdated().
struct outdated_row
{
    std::string name;
    std::string source;    ///< as source_text() writes it
    std::string installed; ///< revision, version or digest
    std::string available; ///< the same upstream now ("" when it cannot be said)
    std::string state;     ///< "current", "outdated", "gone" (no longer upstream) or "error"
    std::string why;       ///< for "error"
};

namespace detail {

inline bool same_files(std::vector<mcp::file_digest> const& a, std::vector<mcp::file_digest> const& b)
{
    return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                      [](auto const& x, auto const& y) { return x.path == y.path && x.hex == y.hex && x.size == y.size; });
}

/// A fresh folder under the system's temporary folder (removed by the caller).
inline std::string temporary_folder()
{
    char const* base = std::getenv("TMPDIR");
    std::string pattern = std::string(base && *base ? base : "/tmp") + "/skillmd-XXXXXX";
    if (!::mkdtemp(pattern.data())) return {};
    return pattern;
}

struct removed_on_exit
{
    std::string path;
    ~removed_on_exit()
    {
        std::error_code ec;
        if (!path.empty()) std::filesystem::remove_all(path, ec);
    }
};

} // namespace detail

namespace detail {

/// verify()'s comparison, for a lock already read.
inline void verify_locked(std::string const& into, lock_file const& lock, verify_report& r)
{
    for (auto const& s : lock.skills) {
        std::string const dir = into + "/" + s.name;
        std::error_code ec;
        if (!std::filesystem::is_directory(std::filesystem::symlink_status(dir, ec))) {
            r.faults.push_back({s.name, "", "missing"});
            continue;
        }
        auto const m = mcp::manifest_of(dir);
        if (!m.complete()) {
            r.faults.push_back({s.name, "", m.error});
            continue;
        }
        std::size_t const before = r.faults.size();
        std::map<std::string, mcp::file_digest const*> on_disk;
        for (auto const& f : m.files) on_disk[f.path] = &f;
        for (auto const& f : s.files) {
            auto const it = on_disk.find(f.path);
            if (it == on_disk.end())
                r.faults.push_back({s.name, f.path, "missing"});
            else if (it->second->hex != f.hex || it->second->size != f.size)
                r.faults.push_back({s.name, f.path, "changed"});
            if (it != on_disk.end()) on_disk.erase(it);
        }
        for (auto const& [path, _] : on_disk) r.faults.push_back({s.name, path, "extra"});
        for (auto const& x : m.excluded) r.faults.push_back({s.name, x.substr(0, x.find(": ")), "extra"});
        if (r.faults.size() == before) r.verified.push_back(s.name);
    }
}

/// True when a skill installed from `a` may be replaced by one from `b`: the same
/// source; for an index, the whole index or one skill of it alike.
inline bool same_source(package_origin const& a, package_origin const& b)
{
    return a.type == b.type && a.location == b.location && a.ref == b.ref && (a.path == b.path || a.type == "index");
}

inline bool intact(std::vector<file_fault> const& faults, std::string const& name)
{
    return std::none_of(faults.begin(), faults.end(), [&](auto const& f) { return f.skill == name; });
}

} // namespace detail

/** Checks every installed skill's files against the lock: each file changed, missing or
    extra is a fault (and a skill folder gone is one fault). It changes nothing: an
    interrupted change is reported, and left to the next change to finish or undo.
*/
inline verify_report verify(std::string const& into)
{
    verify_report r;
    install_folder const folder(into);
    if (folder.interrupted()) {
        r.error = "a change to " + into + " was interrupted: the next install, update or remove finishes or undoes it";
        return r;
    }
    auto const lock = folder.lock(r.error);
    if (lock) detail::verify_locked(into, *lock, r);
    return r;
}

/// Where an installed skill came from, and whether its files still match the lock.
struct provenance
{
    locked_skill skill;
    bool verified = false;
    std::vector<file_fault> faults;
};

/** The provenance of the skill whose SKILL.md is at `skill_md`, when its folder is an
    entry of the lock of the folder above it (an install folder); nothing otherwise.
*/
inline std::optional<provenance> provenance_of(std::string const& skill_md)
{
    namespace fs = std::filesystem;
    fs::path const folder = fs::path(skill_md).parent_path();
    if (fs::path(skill_md).filename() != "SKILL.md" || folder.empty()) return std::nullopt;
    std::string const into = folder.parent_path().string(), name = folder.filename().string();
    std::error_code ec;
    if (into.empty() || !fs::exists(into + "/" + std::string(lock_file_name), ec)) return std::nullopt;
    std::string why;
    auto const lock = install_folder(into).lock(why);
    auto const* entry = lock ? lock->find(name) : nullptr;
    if (!entry) return std::nullopt;
    provenance p{*entry, false, {}};
    verify_report r;
    detail::verify_locked(into, lock_file{{*entry}}, r);
    p.verified = r.faults.empty();
    p.faults = std::move(r.faults);
    return p;
}

/** Installs every skill of `source` (source_spec.hpp) into `into`, or none: a skill of
    that name installed from another source, or a folder of that name skillmd did not
    install, refuses the whole install. Reinstalling from the same source updates.
*/
template <class Parser>
change_report install(Parser const& parser, std::string_view source, std::string const& into, install_options const& opts = {})
{
    change_report r;
    auto const origin = parse_source(source, r.error);
    if (!origin) return r;
    install_folder folder(into);
    if (r.error = folder.begin(); !r.error.empty()) return r;
    auto const lock = folder.lock(r.error);
    if (!lock) return r;
    auto p = fetch_package(*origin, folder.work(), opts.fetch);
    if (!p.ok()) {
        r.warnings = std::move(p.warnings);
        r.error = std::move(p.error);
        return r;
    }
    check_skills(parser, p);
    r.warnings = std::move(p.warnings);
    if (p.skills.empty()) {
        r.error = source_text(*origin) + ": no skill can be installed from it";
        return r;
    }
    if (opts.on_step) opts.on_step("fetched");
    verify_report faults;
    detail::verify_locked(into, *lock, faults);
    lock_file next = *lock;
    std::vector<std::pair<std::string, std::string>> puts;
    for (auto& s : p.skills) {
        auto const* had = lock->find(s.lock.name);
        std::error_code ec;
        if (had && !detail::same_source(had->source, s.lock.source)) {
            r.error = "\"" + s.lock.name + "\" is installed from " + source_text(had->source) + "; remove it first";
            return r;
        }
        if (!had && std::filesystem::exists(std::filesystem::symlink_status(into + "/" + s.lock.name, ec))) {
            r.error = into + "/" + s.lock.name + " exists and skillmd did not install it: not touched";
            return r;
        }
        bool const same = had && detail::same_files(had->files, s.lock.files) && detail::intact(faults.faults, s.lock.name);
        (had ? (same ? r.unchanged : r.updated) : r.installed).push_back(s.lock.name);
        if (!same) puts.emplace_back(s.lock.name, s.dir);
        next.put(std::move(s.lock));
    }
    r.error = folder.commit(puts, {}, *lock, next, opts.on_step);
    if (!r.error.empty()) r.installed.clear(), r.updated.clear(), r.unchanged.clear();
    return r;
}

/// Removes installed skills (folder and lock entry); a name not in the lock refuses all.
inline change_report remove(std::vector<std::string> const& names, std::string const& into, install_options const& opts = {})
{
    change_report r;
    install_folder folder(into);
    if (r.error = folder.begin(); !r.error.empty()) return r;
    auto const lock = folder.lock(r.error);
    if (!lock) return r;
    lock_file next = *lock;
    for (auto const& n : names)
        if (!next.erase(n)) {
            r.error = "\"" + n + "\" is not installed in " + into;
            return r;
        }
    r.error = folder.commit({}, names, *lock, next, opts.on_step);
    if (r.error.empty()) r.removed = names;
    return r;
}

/** Fetches the sources of the installed skills named (all when none is) again and
    installs what changed, recording the new revisions and digests. A skill no longer
    in its source is kept and said so.
*/
template <class Parser>
change_report update(Parser const& parser, std::vector<std::string> const& names, std::string const& into, install_options const& opts = {})
{
    change_report r;
    install_folder folder(into);
    if (r.error = folder.begin(); !r.error.empty()) return r;
    auto const lock = folder.lock(r.error);
    if (!lock) return r;
    for (auto const& n : names)
        if (!lock->find(n)) {
            r.error = "\"" + n + "\" is not installed in " + into;
            return r;
        }
    auto const wanted = [&](std::string const& n) { return names.empty() || std::find(names.begin(), names.end(), n) != names.end(); };
    std::vector<package_origin> origins;
    for (auto const& s : lock->skills)
        if (wanted(s.name) && std::find(origins.begin(), origins.end(), s.source) == origins.end()) origins.push_back(s.source);
    verify_report faults;
    detail::verify_locked(into, *lock, faults);
    lock_file next = *lock;
    std::vector<std::pair<std::string, std::string>> puts;
    for (std::size_t i = 0; i < origins.size(); ++i) {
        auto p = fetch_package(origins[i], folder.work() + "/" + std::to_string(i), opts.fetch);
        if (!p.ok()) {
            r.error = source_text(origins[i]) + ": " + p.error;
            return r;
        }
        check_skills(parser, p);
        for (auto& w : p.warnings) r.warnings.push_back(std::move(w));
        for (auto const& s : lock->skills) {
            if (!wanted(s.name) || s.source != origins[i]) continue;
            auto const it = std::find_if(p.skills.begin(), p.skills.end(), [&](auto const& f) { return f.lock.name == s.name; });
            if (it == p.skills.end()) {
                r.warnings.push_back("\"" + s.name + "\" is no longer in " + source_text(s.source) + ": kept as it is");
                continue;
            }
            bool const same = detail::intact(faults.faults, s.name) && detail::same_files(s.files, it->lock.files);
            (same ? r.unchanged : r.updated).push_back(s.name);
            if (!same) puts.emplace_back(s.name, it->dir);
            next.put(std::move(it->lock));
        }
    }
    if (opts.on_step) opts.on_step("fetched");
    r.error = folder.commit(puts, {}, *lock, next, opts.on_step);
    if (!r.error.empty()) r.updated.clear(), r.unchanged.clear();
    return r;
}

/// What changed upstream for each installed skill, touching nothing in `into`.
inline std::vector<outdated_row> outdated(std::string const& into, fetch_options const& opts, std::string& why)
{
    std::vector<outdated_row> rows;
    install_folder const folder(into);
    auto const lock = folder.lock(why);
    if (!lock) return rows;
    std::map<std::string, std::optional<fetched_package>> fetched; // by source, fetched once
    std::string const scratch = detail::temporary_folder();
    detail::removed_on_exit const cleanup{scratch};
    // One deadline for all of it, and each git source asked once.
    fetch_options timed = opts;
    if (timed.deadline == std::chrono::steady_clock::time_point::max())
        timed.deadline = std::chrono::steady_clock::now() + opts.limits.total_timeout;
    git_runner const git(opts.limits, [&](std::string& late) { return timed.time_left(late); }, opts.allow_http);
    std::map<std::pair<std::string, std::string>, std::pair<std::optional<std::string>, std::string>> heads;
    for (auto const& s : lock->skills) {
        outdated_row row{s.name, source_text(s.source), {}, {}, "current", {}};
        if (s.source.type == "git") {
            row.installed = s.revision;
            std::string error;
            bool const pinned = s.source.ref.size() == 40 && s.source.ref.find_first_not_of("0123456789abcdef") == std::string::npos;
            error = git_runner::check_url(s.source.location, opts.allow_http);
            std::optional<std::string> head;
            if (error.empty() && pinned) {
                head = s.source.ref;
            } else if (error.empty()) {
                auto const key = std::pair{s.source.location, s.source.ref};
                if (!heads.count(key)) {
                    std::string e;
                    auto h = git.remote_head(s.source.location, s.source.ref, e);
                    heads[key] = {std::move(h), std::move(e)};
                }
                head = heads[key].first;
                error = heads[key].second;
            }
            if (!head) {
                row.state = "error";
                row.why = error;
            } else {
                row.available = *head;
                if (*head != s.revision) row.state = "outdated";
            }
            rows.push_back(std::move(row));
            continue;
        }
        row.installed = !s.version.empty() ? s.version : !s.digest.empty() ? s.digest : "";
        auto& p = fetched[row.source];
        if (!p) {
            if (scratch.empty()) {
                p = fetched_package{};
                p->error = "cannot make a temporary folder";
            } else {
                p = fetch_package(s.source, scratch + "/" + std::to_string(fetched.size()), timed);
            }
        }
        if (!p->ok()) {
            row.state = "error";
            row.why = p->error;
            rows.push_back(std::move(row));
            continue;
        }
        auto const it = std::find_if(p->skills.begin(), p->skills.end(), [&](auto const& f) { return f.lock.name == s.name; });
        if (it == p->skills.end()) {
            row.state = "gone";
        } else {
            auto const m = mcp::manifest_of(it->dir);
            row.available = !it->lock.version.empty() ? it->lock.version : it->lock.digest;
            bool const same = s.digest.empty() || it->lock.digest.empty() ? m.complete() && detail::same_files(s.files, m.files)
                                                                         : s.digest == it->lock.digest;
            if (!same) row.state = "outdated";
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

} // namespace skillmd::packages

#endif
