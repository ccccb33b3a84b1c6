// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_MODEL_NAMES_HPP
#define SKILLMD_MODEL_NAMES_HPP

// The rules for command names, in one place: what may name a skill before any lookup
// (a typed `/name`, a tool call, a registry key taken from `name:`), the characters no
// folder or `name:` may hold in any dialect, and sven's sanitiser for TUI commands. The
// frontmatter `name` field's own rules, which differ by dialect, are checked as it is
// read (validation/impl/metadata_reader.hpp).

#include <skillmd/config.hpp>
#include <skillmd/detail/hex.hpp>
#include <skillmd/detail/utf8.hpp>

#include <algorithm>
#include <optional>
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

/// What keeps a name from naming a skill in any dialect (name_fault).
enum class name_fault_kind : unsigned char {
    reserved,    ///< `@` or `:` (or a character that looks like one)
    white_space, ///< white space at a segment's end, or any but the plain space inside
    hidden,      ///< a control or invisible formatting character
};

struct name_fault
{
    name_fault_kind kind;
    std::string why; ///< "holds `@`, which ...": follows "the name `x` " or "the path `x` "
};

namespace detail {

/// The character a look-alike of `@` or `:` passes for (Unicode's confusables of each,
/// less the visarga signs that belong inside Devanagari and Gujarati words), or 0.
inline constexpr char reserved_look_alike(char32_t c) noexcept
{
    if (c == 0xff20 || c == 0xfe6b) return '@';
    switch (c) {
    case 0x02d0: case 0x02f8: case 0x0589: case 0x05c3: case 0x0703: case 0x0704: case 0x16ec: case 0x1803:
    case 0x1809: case 0x205a: case 0x2236: case 0xa4fd: case 0xa789: case 0xfe13: case 0xfe30: case 0xfe55: case 0xff1a:
        return ':';
    default: return 0;
    }
}

} // namespace detail

/** Why `name` (a folder's path below its tier, or a `name:`) can name no skill in any
    dialect, or nothing. A name is what a user types, a rule names and a model is shown:
    - `@` belongs to the qualified `name@tier` and `:` to a plugin skill's `plugin:name`;
      a name holding either, or a character that looks like one, would answer for another
      tier's or plugin's skill, or slip past a rule naming it;
    - white space at either end of a `/`-separated segment, or any white space but U+0020
      inside, makes two names that look the same (`deploy` and `deploy\u00a0`);
    - a control or invisible formatting character (detail::is_hidden_code_point) shows as
      nothing at all.
    Bytes that are not UTF-8 are left to the checks of text.
*/
inline std::optional<name_fault> find_name_fault(std::string_view name)
{
    using detail::code_point_label;
    std::size_t segment_start = 0;
    for (std::size_t i = 0; i < name.size();) {
        std::size_t const n = std::max<std::size_t>(1, detail::utf8_sequence_length(name, i));
        char32_t const c = n == 1 ? static_cast<unsigned char>(name[i]) : detail::utf8_decode(name.data() + i, n);
        std::size_t const next = i + n;
        if (c == '@' || c == ':')
            return name_fault{name_fault_kind::reserved,
                              std::string("holds `") + static_cast<char>(c) + "`, which only " +
                                  (c == '@' ? "a qualified `name@tier`" : "a plugin skill's `plugin:name`") + " may"};
        if (char const like = detail::reserved_look_alike(c))
            return name_fault{name_fault_kind::reserved, "holds " + code_point_label(c) + ", which looks like `" + like +
                                                             "`: a name must not pass for a qualified or plugin name"};
        if (detail::is_white_space(c)) {
            bool const at_edge = i == segment_start || next == name.size() || name[next] == '/';
            if (at_edge || c != ' ')
                return name_fault{name_fault_kind::white_space,
                                  at_edge ? "begins or ends with white space (" + code_point_label(c) + ")"
                                          : "holds " + code_point_label(c) + ", white space other than a plain space"};
        }
        if (n > 1 && detail::is_hidden_code_point(c))
            return name_fault{name_fault_kind::hidden, "holds the invisible or control character " + code_point_label(c)};
        if (c < 0x20 || c == 0x7f)
            return name_fault{name_fault_kind::hidden, "holds the control character " + code_point_label(c)};
        if (c == '/') segment_start = next;
        i = next;
    }
    return std::nullopt;
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
