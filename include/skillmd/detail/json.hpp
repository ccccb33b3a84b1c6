// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_DETAIL_JSON_HPP
#define SKILLMD_DETAIL_JSON_HPP

#include <skillmd/detail/hex.hpp>
#include <skillmd/detail/utf8.hpp>

#include <string>
#include <string_view>

namespace skillmd::detail {

/// Appends code point `cp` as JSON's `\\uXXXX` escape (a surrogate pair above U+FFFF).
inline void append_json_escape(std::string& out, char32_t cp)
{
    auto const unit = [&](char32_t u) {
        out += "\\u";
        append_hex(out, u, 4);
    };
    if (cp > 0xffff) {
        unit(0xd800 + ((cp - 0x10000) >> 10));
        unit(0xdc00 + ((cp - 0x10000) & 0x3ff));
    } else {
        unit(cp);
    }
}

/// Appends `s` as a JSON string literal. Invalid UTF-8 becomes U+FFFD so the output stays JSON.
inline void json_quote(std::string& out, std::string_view s)
{
    out += '"';
    std::size_t i = 0;
    while (i < s.size()) {
        auto const c = static_cast<unsigned char>(s[i]);
        if (c >= 0x80) {
            std::size_t const n = utf8_sequence_length(s, i);
            if (n == 0) {
                out += "\\ufffd";
                ++i;
                continue;
            }
            // Controls and invisible formatting characters are written as escapes: the
            // same text, but none of it obeyed by a terminal that shows the JSON.
            if (char32_t const cp = utf8_decode(s.data() + i, n); is_hidden_code_point(cp)) {
                append_json_escape(out, cp);
            } else {
                out.append(s.data() + i, n);
            }
            i += n;
            continue;
        }
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        default:
            if (c < 0x20 || c == 0x7f) {
                out += "\\u00";
                append_hex_byte(out, c);
            } else {
                out += static_cast<char>(c);
            }
        }
        ++i;
    }
    out += '"';
}

/// Serialised JSON (from any writer) with every raw control or invisible formatting
/// character (is_hidden_code_point; DEL too) rewritten as its `\\u` escape, and every byte
/// that is not UTF-8 (a writer of byte strings passes file names through) as U+FFFD, so
/// the result is JSON a strict reader takes. Outside strings JSON is ASCII, so only string
/// contents change.
inline std::string escape_hidden_in_json(std::string_view json)
{
    // Printable ASCII is copied in runs; only DEL and multi-byte sequences are looked at
    // (JSON writers already escape C0), so the common all-ASCII reply is one copy.
    auto const plain_run = [&](std::size_t from) {
        while (from < json.size() && static_cast<unsigned char>(json[from]) < 0x7f) ++from;
        return from;
    };
    std::size_t i = plain_run(0);
    if (i == json.size()) return std::string(json);
    std::string out;
    out.reserve(json.size() + 16);
    out.append(json.data(), i);
    while (i < json.size()) {
        auto const c = static_cast<unsigned char>(json[i]);
        std::size_t const n = c < 0x80 ? 1 : utf8_sequence_length(json, i);
        char32_t const cp = n <= 1 ? c : utf8_decode(json.data() + i, n);
        if (n == 0) out += "\\ufffd";
        else if ((n > 1 || cp == 0x7f) && is_hidden_code_point(cp)) append_json_escape(out, cp);
        else out.append(json.data() + i, n);
        i += n == 0 ? 1 : n;
        auto const end = plain_run(i);
        out.append(json.data() + i, end - i);
        i = end;
    }
    return out;
}

} // namespace skillmd::detail

#endif
