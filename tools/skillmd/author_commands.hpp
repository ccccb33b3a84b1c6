// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
//
// `skillmd explain`, `skillmd lint --portability` and `skillmd fmt`: the command line's
// side of skillmd/authoring/{explain,portability}.hpp, and the settings files that carry
// operators' overrides.
#ifndef SKILLMD_EXAMPLES_AUTHOR_COMMANDS_HPP
#define SKILLMD_EXAMPLES_AUTHOR_COMMANDS_HPP

#include "json_output.hpp"

#include <skillmd/packages/operations.hpp>
#include <skillmd/authoring/explain.hpp>
#include <skillmd/authoring/portability.hpp>
#include <skillmd/detail/json.hpp>
#include <skillmd/detail/prompt_text.hpp>
#include <skillmd/detail/read_file.hpp>
#include <skillmd/storage/overrides.hpp>

#include <boost/json/serialize.hpp>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace cli {

/// The bytes of each settings file, in order, or why it cannot be read.
struct settings_texts
{
    std::vector<std::optional<std::string>> bytes;
    std::vector<std::string> why;
    bool operator==(settings_texts const&) const = default;
};

inline settings_texts read_settings_texts(std::vector<std::pair<std::string, std::string>> const& files)
{
    settings_texts t;
    for (auto const& f : files) {
        t.why.emplace_back();
        t.bytes.push_back(skillmd::detail::read_file(f.second, t.why.back(), 1024 * 1024)); // a settings file is small: 1 MiB is its bound
    }
    return t;
}

/// The override layers of `--user-settings` and `--project-settings` from their bytes, in
/// that order (the project's win); path keys are taken from the folder the settings file
/// is in. Diagnostics on stderr; false when one is an error.
inline bool settings_rules(std::vector<std::pair<std::string, std::string>> const& files, settings_texts const& t, skillmd::overrides& out)
{
    bool ok = true;
    for (std::size_t i = 0; i < files.size(); ++i) {
        auto const& [label, file] = files[i];
        std::vector<skillmd::diagnostic> ds;
        if (!t.bytes[i]) {
            ds.push_back({std::string(skillmd::codes::override_invalid), skillmd::severity::error, file, 0, 0, "cannot read the settings: " + t.why[i]});
        } else {
            auto const base = std::filesystem::absolute(std::filesystem::path(file)).parent_path();
            out.add(skillmd::read_override_layer(*t.bytes[i], label, file, base, ds));
        }
        for (auto const& d : ds) std::cerr << to_text(d) << "\n";
        ok = ok && !skillmd::has_error(ds);
    }
    return ok;
}

/// The settings files of a command, read at its start and, for one that serves until
/// stopped (`mcp`), again before each refresh: an edit is in force from that refresh on,
/// as a fresh start would read it. Files that hold an error then leave the rules in force
/// as they were, and say so once.
class settings_follower
{
public:
    explicit settings_follower(std::vector<std::pair<std::string, std::string>> files) : files_(std::move(files)) {}

    /// The rules at the start into `out`; false when the files hold an error.
    bool start(skillmd::overrides& out)
    {
        seen_ = read_settings_texts(files_);
        return settings_rules(files_, seen_, out);
    }

    /// Reads the files again and, when their bytes changed, puts their rules in force at
    /// `reg`'s next refresh (set_overrides, which places again only the skills a changed
    /// rule names).
    template <class Registry>
    void follow(Registry& reg)
    {
        if (files_.empty()) return;
        auto now = read_settings_texts(files_);
        if (now == seen_) return;
        seen_ = std::move(now);
        skillmd::overrides rules;
        if (settings_rules(files_, seen_, rules)) reg.set_overrides(std::move(rules));
        else std::cerr << "skillmd: the settings changed and hold an error; the rules read before are still in force\n";
    }

private:
    std::vector<std::pair<std::string, std::string>> files_;
    settings_texts seen_;
};

/// For each skill (or the one named): where it stands in the index, who may invoke it, why.
template <class System>
int cmd_explain(System const& agent, std::vector<std::string> const& names, bool json)
{
    auto const all = skillmd::explain(agent, names.empty() ? std::string_view() : std::string_view(names.front()));
    // An installed skill says where it came from and whether its files are still those installed.
    auto const installed = [](std::string const& path) -> std::optional<boost::json::object> {
        auto const p = skillmd::packages::provenance_of(path);
        if (!p) return std::nullopt;
        std::string const at = !p->skill.revision.empty() ? p->skill.revision : !p->skill.version.empty() ? p->skill.version : p->skill.digest;
        boost::json::array faults;
        for (auto const& f : p->faults) faults.push_back(boost::json::object{{"path", f.path}, {"state", f.what}});
        return boost::json::object{{"source", skillmd::packages::source_text(p->skill.source)}, {"installed", at},
                                   {"verified", p->verified}, {"faults", std::move(faults)}};
    };
    if (json) {
        auto rows = skillmd::to_json(all);
        for (auto& row : rows)
            if (auto* o = row.if_object(); o && o->contains("path") && (*o)["path"].is_string())
                if (auto p = installed(std::string((*o)["path"].as_string()))) (*o)["installed"] = std::move(*p);
        std::string out = json_lines(rows); // one line per skill file
        std::fwrite(out.data(), 1, out.size(), stdout);
    } else {
        std::string out;
        auto safe = [](std::string_view s) { return skillmd::detail::terminal_safe(s); };
        for (auto const& e : all) {
            out += safe(e.command);
            if (!e.tier.empty()) out += " [" + safe(e.tier) + "]";
            out += "  " + safe(e.path) + "\n";
            out += "  index: " + e.index + "; model may invoke: " + (e.model_invocable ? "yes" : "no") +
                   "; user may invoke: " + (e.user_invocable ? "yes" : "no") + "\n";
            for (auto const& r : e.reasons) {
                out += "  - " + r.code;
                if (r.line) out += " (line " + std::to_string(r.line) + ", column " + std::to_string(r.column) + ")";
                out += ": " + safe(r.text) + "\n";
            }
            if (auto const p = installed(e.path)) {
                out += "  installed from " + safe(std::string(p->at("source").as_string()));
                if (auto const& at = p->at("installed").as_string(); !at.empty()) out += " (" + safe(std::string(at)) + ")";
                // The lock is the install folder's own record: it says where the skill was
                // installed from, and the files show whether they are still those installed.
                out += p->at("verified").as_bool() ? "; its files match skills-lock.json\n"
                                                  : "; its files changed since (skillmd verify says which)\n";
            }
        }
        std::fwrite(out.data(), 1, out.size(), stdout);
    }
    std::fflush(stdout);
    if (!names.empty() && all.empty()) {
        std::cerr << "skillmd: no skill or skill file is called " << skillmd::detail::terminal_safe(names.front()) << "\n";
        return 1;
    }
    return 0;
}

/// Writes `text` over `path` atomically: a temporary file beside it, synced, then renamed,
/// with the original's permission bits. False (and `why`) when any step fails.
inline bool replace_file(std::filesystem::path const& path, std::string const& text, std::string& why)
{
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
        why = "not a regular file (a link is fixed where it leads)";
        return false;
    }
    std::string tmp = (path.parent_path() / ".SKILL.md.fmt-XXXXXX").string();
    int const fd = ::mkstemp(tmp.data());
    if (fd < 0) {
        why = std::string("cannot create a temporary file: ") + std::strerror(errno);
        return false;
    }
    bool ok = ::fchmod(fd, st.st_mode & 07777) == 0;
    std::size_t done = 0;
    while (ok && done < text.size()) {
        ssize_t const n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        ok = n > 0;
        if (ok) done += static_cast<std::size_t>(n);
    }
    ok = ok && ::fsync(fd) == 0;
    ok = ::close(fd) == 0 && ok;
    if (!ok || ::rename(tmp.c_str(), path.c_str()) != 0) {
        why = std::string("cannot write: ") + std::strerror(errno);
        ::unlink(tmp.c_str());
        return false;
    }
    return true;
}

/// `skillmd fmt`: for each file, the edits that make every reading agree; `fix` writes them.
/// Exit 1 when (check) some file would change or (both) some file cannot be fixed safely.
/// `fmt` over files read the loader's way (inside their tier, within its size bound):
/// each file is fixed whole or left untouched with the reason. With `json`, one object per
/// file on stdout: {"file","status","edits":[{"line","edit"}],"notes":[diagnostic...]};
/// status is clean, to-fix (--check), fixed (--fix) or untouched.
struct fmt_run
{
    bool fix = false;
    bool json = false;
    std::size_t files = 0, changed = 0, refused = 0, unfixable = 0;
    std::string out;

    /// One file whose text the source read (`text`), or why it could not (`why`).
    void one(std::string const& file, std::optional<std::string> const& text, std::string const& why)
    {
        ++files;
        if (!text) {
            ++refused;
            return report(file, "untouched", {}, {{std::string(skillmd::codes::io_error), skillmd::severity::error, file, 0, 0,
                                                  "cannot read the file: " + why}});
        }
        auto r = skillmd::fix_portability(*text, file);
        refused += r.refused;
        unfixable += !r.notes.empty() && !r.refused;
        if (!r.changed) return report(file, r.refused ? "untouched" : "clean", {}, r.notes);
        std::string write_error;
        if (fix && !replace_file(file, r.text, write_error)) {
            ++refused; // not counted as fixed
            r.notes.push_back({std::string(skillmd::codes::io_error), skillmd::severity::error, file, 0, 0, write_error});
            return report(file, "untouched", {}, r.notes);
        }
        ++changed;
        report(file, fix ? "fixed" : "to-fix", r.edits, r.notes);
    }

    /// What was (or would be) done to one file: text (edits on stdout, notes on stderr) or JSON.
    void report(std::string const& file, std::string_view status, std::vector<std::string> const& edits,
                std::vector<skillmd::diagnostic> const& notes)
    {
        if (!json) {
            for (auto const& d : notes) std::cerr << to_text(d) << "\n";
            for (auto const& e : edits) out += skillmd::detail::terminal_safe(file) + ":" + skillmd::detail::terminal_safe(e) + "\n";
            return;
        }
        out += "{\"file\":";
        skillmd::detail::json_quote(out, file);
        out += ",\"status\":";
        skillmd::detail::json_quote(out, status);
        out += ",\"edits\":[";
        for (std::size_t k = 0; k < edits.size(); ++k) {
            auto colon = edits[k].find(": "); // every edit is "LINE: what was done"
            if (colon == 0 || edits[k].find_first_not_of("0123456789") != colon) colon = std::string::npos;
            out += k ? ",{\"line\":" : "{\"line\":";
            out += colon == std::string::npos ? std::string("0") : edits[k].substr(0, colon);
            out += ",\"edit\":";
            skillmd::detail::json_quote(out, colon == std::string::npos ? edits[k] : edits[k].substr(colon + 2));
            out += '}';
        }
        out += "],\"notes\":";
        write_diagnostics(out, notes);
        out += "}\n";
    }

    /// Prints the edits; false when stdout could not take them.
    int finish() const
    {
        bool const written = std::fwrite(out.data(), 1, out.size(), stdout) == out.size() && std::fflush(stdout) == 0;
        std::cerr << files << " file(s): " << changed << (fix ? " fixed" : " to fix") << ", " << refused
                  << " left untouched (unsafe, unreadable or too large), " << unfixable << " with differences no edit removes\n";
        if (!written) {
            std::cerr << "skillmd: cannot write to standard output: " << std::strerror(errno) << "\n";
            return 1;
        }
        return refused || (!fix && changed) ? 1 : 0;
    }
};

} // namespace cli

#endif
