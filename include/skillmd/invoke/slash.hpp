// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_INVOKE_SLASH_HPP
#define SKILLMD_INVOKE_SLASH_HPP

// Slash commands: `/name rest of line` split into a command and its
// arguments, the checks a typed name must pass before it is looked up, and sven's
// command-name sanitiser.

#include <skillmd/config.hpp>

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>

namespace skillmd {

struct slash_command
{
    std::string name;      ///< without the leading `/`; may be empty (`/` alone)
    std::string arguments; ///< the rest of the line, trimmed
};

/// `/name rest` -> {name, rest}; nothing when the text does not start with `/`
/// (after leading white space): it is an ordinary message.
inline std::optional<slash_command> parse_slash(std::string_view text)
{
    auto const ws = " \t\r\n\v\f";
    auto const b = text.find_first_not_of(ws);
    if (b == std::string_view::npos || text[b] != '/') return std::nullopt;
    text.remove_prefix(b + 1);
    auto const end = std::min(text.find_first_of(ws), text.size());
    slash_command c{std::string(text.substr(0, end)), {}};
    std::string_view rest = text.substr(end);
    auto const rb = rest.find_first_not_of(ws);
    if (rb != std::string_view::npos) {
        rest.remove_prefix(rb);
        rest = rest.substr(0, rest.find_last_not_of(ws) + 1);
        c.arguments = std::string(rest);
    }
    return c;
}

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
