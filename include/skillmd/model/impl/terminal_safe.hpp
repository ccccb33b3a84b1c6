// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_MODEL_IMPL_TERMINAL_SAFE_HPP
#define SKILLMD_MODEL_IMPL_TERMINAL_SAFE_HPP

// terminal_safe: text escaped so it prints as one safe line, for to_text
// (model/diagnostic.hpp) and whatever else shows a file's text on a terminal.

#include <skillmd/detail/hex.hpp>
#include <skillmd/detail/utf8.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace skillmd {

namespace detail {

/** `s` made safe to print on a terminal and in one line of a line-based format: control
    characters (C0, DEL, C1), line and paragraph separators, bidirectional controls and
    every other invisible formatting character (detail::is_hidden_code_point) become
    visible escapes (`\n`, `\x1b`, `\u202e`, `\U000e0041`), bytes that are not UTF-8 become
    `\xNN`. Nothing in a file name or a value can move the cursor, retitle or clear the
    terminal, or split a line of the CLI's output. With `keep_lines`, for whole texts
    (a skill's content), line feeds and tabs stay as they are.
*/
inline std::string terminal_safe(std::string_view s, bool keep_lines = false)
{
    std::string out;
    out.reserve(s.size());
    auto byte = [&](unsigned char b) {
        out += "\\x";
        append_hex_byte(out, b);
    };
    for (std::size_t i = 0; i < s.size();) {
        auto const c = static_cast<unsigned char>(s[i]);
        if (c < 0x80) {
            if (keep_lines && (c == '\n' || c == '\t')) out += static_cast<char>(c);
            else if (c == '\n') out += "\\n";
            else if (c == '\t') out += "\\t";
            else if (c == '\r') out += "\\r";
            else if (c < 0x20 || c == 0x7f) byte(c);
            else out += static_cast<char>(c);
            ++i;
            continue;
        }
        std::size_t const n = utf8_sequence_length(s, i);
        if (n == 0) {
            byte(c);
            ++i;
            continue;
        }
        char32_t const cp = utf8_decode(s.data() + i, n);
        if (is_hidden_code_point(cp)) {
            out += cp > 0xffff ? "\\U" : "\\u";
            append_hex(out, cp, cp > 0xffff ? 8 : 4);
        } else {
            out.append(s.substr(i, n));
        }
        i += n;
    }
    return out;
}

} // namespace detail

} // namespace skillmd

#endif
