// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
//
// `skillmd explain`, `skillmd lint --portability` and `skillmd fmt`: the command line's
// side of skillmd/authoring/{explain,portability}.hpp, and the settings files that carry
// operators' overrides.
#ifndef SKILLMD_EXAMPLES_AUTHOR_COMMANDS_HPP
#define SKILLMD_EXAMPLES_AUTHOR_COMMANDS_HPP

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

/// One line of the CLI's JSON: serialised, then every control or invisible formatting
/// character in its strings escaped (`\u009b`), as its text output escapes them.
inline std::string json_line(boost::json::value const& v)
{
    return skillmd::detail::escape_hidden_in_json(boost::json::serialize(v)) + "\n";
}


/// The override layers of `--user-settings` and `--project-settings`, in that order (the
/// project's win); path keys are taken from the folder the settings file is in.
inline bool read_settings(std::vector<std::pair<std::string, std::string>> const& files, skillmd::overrides& out)
{
    bool ok = true;
    for (auto const& [label, file] : files) {
        std::string why;
        auto text = skillmd::detail::read_file(file, why, 1024 * 1024); // a settings file is small: 1 MiB is its bound
        std::vector<skillmd::diagnostic> ds;
        if (!text) {
            ds.push_back({std::string(skillmd::codes::override_invalid), skillmd::severity::error, file, 0, 0, "cannot read the settings: " + why});
        } else {
            auto const base = std::filesystem::absolute(std::filesystem::path(file)).parent_path();
            out.add(skillmd::read_override_layer(*text, label, file, base, ds));
        }
        for (auto const& d : ds) std::cerr << to_text(d) << "\n";
        ok = ok && !skillmd::has_error(ds);
    }
    return ok;
}

/// For each skill (or the one named): where it stands in the index, who may invoke it, why.
template <class System>
int cmd_explain(System const& agent, std::vector<std::string> const& names, bool json)
{
    auto const all = skillmd::explain(agent, names.empty() ? std::string_view() : std::string_view(names.front()));
    if (json) {
        std::string out = json_line(skillmd::to_json(all));
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
/// each file is fixed whole or left untouched with the reason.
struct fmt_run
{
    bool fix = false;
    std::size_t files = 0, changed = 0, refused = 0, unfixable = 0;
    std::string out;

    void refuse(std::string const& file, std::string const& why)
    {
        std::cerr << to_text(skillmd::diagnostic{std::string(skillmd::codes::io_error), skillmd::severity::error, file, 0, 0,
                                                 "cannot read the file: " + why})
                  << "\n";
        ++refused;
    }

    /// One file whose text the source read (`text`), or why it could not (`why`).
    void one(std::string const& file, std::optional<std::string> const& text, std::string const& why)
    {
        ++files;
        if (!text) return refuse(file, why);
        auto const r = skillmd::fix_portability(*text, file);
        for (auto const& d : r.notes) std::cerr << to_text(d) << "\n";
        refused += r.refused;
        unfixable += !r.notes.empty() && !r.refused;
        if (!r.changed) return;
        std::string write_error;
        if (fix && !replace_file(file, r.text, write_error)) {
            std::cerr << skillmd::detail::terminal_safe(file) << ": error: [io-error] " << write_error << "\n";
            ++refused; // not counted as fixed
            return;
        }
        ++changed;
        for (auto const& e : r.edits) out += skillmd::detail::terminal_safe(file) + ":" + skillmd::detail::terminal_safe(e) + "\n";
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
