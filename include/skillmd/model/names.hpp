// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_MODEL_NAMES_HPP
#define SKILLMD_MODEL_NAMES_HPP

// The rules for command names, in one place: what may name a skill before any lookup
// (a typed `/name`, a tool call, a registry key taken from `name:`), and sven's
// sanitiser for TUI commands. The frontmatter `name` field's own rules, which differ by
// dialect, are checked in read_skill.hpp.

#include <skillmd/config.hpp>

#include <algorithm>
#include <string>
#include <string_view>

namespace skillmd {

/// True when `name` can name a skill: not empty, no white space or control
/// characters, no backslash, and `/`-separated segments that are neither empty nor
/// `.` or `..` (so `../x`, `a//b` and `/etc/passwd` tricks never reach a lookup).
inline bool valid_command_name(std::string_view name) noexcept
{
    if (name.empty()) return false;
    for (char c : name) {
        auto const u = static_cast<unsigned char>(c);
        if (u <= 0x20 || u == 0x7f || c == '\\') return false;
    }
    std::size_t pos = 0;
    while (true) {
        auto const slash = name.find('/', pos);
        std::string_view const seg = name.substr(pos, slash == std::string_view::npos ? std::string_view::npos : slash - pos);
        if (seg.empty() || seg == "." || seg == "..") return false;
        if (slash == std::string_view::npos) return true;
        pos = slash + 1;
    }
}

/** sven's sanitiser for TUI commands: each `/`-separated segment on its own,
    uppercase lowered, every run of characters other than ASCII letters and digits
    (spaces and hyphens among them) one `_`, none at a segment's ends; `/` kept, empty
    segments dropped. `Sven Plan/Code-Review` -> `sven_plan/code_review`.
*/
inline std::string sanitize_command(std::string_view path)
{
    std::string out;
    std::size_t pos = 0;
    while (pos <= path.size()) {
        auto const slash = std::min(path.find('/', pos), path.size());
        std::string seg;
        bool gap = false;
        for (char c : path.substr(pos, slash - pos)) {
            bool const alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
            if (!alnum) {
                gap = true;
                continue;
            }
            if (gap && !seg.empty()) seg += '_';
            gap = false;
            seg += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
        }
        if (!seg.empty()) {
            if (!out.empty()) out += '/';
            out += seg;
        }
        pos = slash + 1;
    }
    return out;
}

} // namespace skillmd

#endif
