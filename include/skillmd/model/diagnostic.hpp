// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_MODEL_DIAGNOSTIC_HPP
#define SKILLMD_MODEL_DIAGNOSTIC_HPP

#include <skillmd/config.hpp>
#include <skillmd/detail/json.hpp>
#include <skillmd/detail/utf8.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace skillmd {

enum class severity : std::uint8_t { info, warning, error };

inline constexpr std::string_view to_string(severity s) noexcept
{
    switch (s) {
    case severity::info: return "info";
    case severity::warning: return "warning";
    case severity::error: return "error";
    }
    return "error";
}

/// Stable diagnostic codes. Tools and tests match on these, so they never change meaning.
namespace codes {
inline constexpr std::string_view io_error = "io-error";
inline constexpr std::string_view frontmatter_missing = "frontmatter-missing";
inline constexpr std::string_view frontmatter_unclosed = "frontmatter-unclosed";
inline constexpr std::string_view frontmatter_too_large = "frontmatter-too-large";
inline constexpr std::string_view utf8_invalid = "utf8-invalid";
inline constexpr std::string_view body_not_text = "body-not-text";
inline constexpr std::string_view yaml_control_character = "yaml-control-character";
inline constexpr std::string_view yaml_syntax = "yaml-syntax";
inline constexpr std::string_view yaml_indentation = "yaml-indentation";
inline constexpr std::string_view yaml_tab_indentation = "yaml-tab-indentation";
inline constexpr std::string_view yaml_unterminated = "yaml-unterminated";
inline constexpr std::string_view yaml_escape = "yaml-escape";
inline constexpr std::string_view yaml_anchor = "yaml-anchor";
inline constexpr std::string_view yaml_alias = "yaml-alias";
inline constexpr std::string_view yaml_tag = "yaml-tag";
inline constexpr std::string_view yaml_merge_key = "yaml-merge-key";
inline constexpr std::string_view yaml_directive = "yaml-directive";
inline constexpr std::string_view yaml_multiple_documents = "yaml-multiple-documents";
inline constexpr std::string_view yaml_complex_key = "yaml-complex-key";
inline constexpr std::string_view yaml_duplicate_key = "yaml-duplicate-key";
inline constexpr std::string_view yaml_reserved_indicator = "yaml-reserved-indicator";
inline constexpr std::string_view yaml_colon_in_plain = "yaml-colon-in-plain";
inline constexpr std::string_view yaml_unsupported = "yaml-unsupported";
inline constexpr std::string_view yaml_depth_limit = "yaml-depth-limit";
} // namespace codes

/** A problem found in an input, reported as a value rather than thrown.

    Lines and columns are 1-based; columns count Unicode code points, as editors do.
    A line of 0 means the problem concerns the whole file.
*/
struct diagnostic
{
    std::string code;          ///< stable identifier, e.g. "yaml-anchor"
    skillmd::severity severity = severity::error;
    std::string file;          ///< origin as given by the caller (usually a path)
    std::uint32_t line = 0;
    std::uint32_t column = 0;
    std::string message;       ///< says what is wrong and how to fix it
    std::string rule = {};     ///< the Agent Skills reference validator's rule id, when it has one
};

namespace detail {

/** `s` made safe to print on a terminal and in one line of a line-based format: control
    characters (C0, DEL, C1), line and paragraph separators and bidirectional controls
    become visible escapes (`\n`, `\x1b`, `\u202e`), bytes that are not UTF-8 become
    `\xNN`. Nothing in a file name or a value can move the cursor, retitle or clear the
    terminal, or split a line of the CLI's output.
*/
inline std::string terminal_safe(std::string_view s)
{
    static constexpr char hex[] = "0123456789abcdef";
    std::string out;
    out.reserve(s.size());
    auto byte = [&](unsigned char b) {
        out += "\\x";
        out += hex[b >> 4];
        out += hex[b & 15];
    };
    for (std::size_t i = 0; i < s.size();) {
        auto const c = static_cast<unsigned char>(s[i]);
        if (c < 0x80) {
            if (c == '\n') out += "\\n";
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
        bool const hidden = (cp >= 0x80 && cp <= 0x9f) || cp == 0x2028 || cp == 0x2029 || (cp >= 0x202a && cp <= 0x202e) ||
                            (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200e || cp == 0x200f || cp == 0x061c;
        if (hidden) {
            out += "\\u";
            for (int shift = 12; shift >= 0; shift -= 4) out += hex[(cp >> shift) & 15];
        } else {
            out.append(s.substr(i, n));
        }
        i += n;
    }
    return out;
}

} // namespace detail

/// `file:line:column: severity: [code] message`, the format compilers and editors
/// understand; file and message are escaped for a terminal (`detail::terminal_safe`).
inline std::string to_text(diagnostic const& d)
{
    std::string out = detail::terminal_safe(d.file);
    if (d.line != 0) {
        out += ':';
        out += std::to_string(d.line);
        out += ':';
        out += std::to_string(d.column);
    }
    out += ": ";
    out += to_string(d.severity);
    out += ": [";
    out += d.code;
    out += "] ";
    out += detail::terminal_safe(d.message);
    return out;
}

/// One JSON object; `with_file` adds the "file" member and `with_rule` the "rule" member.
inline void write_json(std::string& out, diagnostic const& d, bool with_file = false, bool with_rule = false)
{
    out += '{';
    if (with_file) {
        out += "\"file\": ";
        detail::json_quote(out, d.file);
        out += ", ";
    }
    out += "\"line\": ";
    out += std::to_string(d.line);
    out += ", \"column\": ";
    out += std::to_string(d.column);
    out += ", \"severity\": ";
    detail::json_quote(out, to_string(d.severity));
    out += ", \"code\": ";
    detail::json_quote(out, d.code);
    if (with_rule) {
        out += ", \"rule\": ";
        detail::json_quote(out, d.rule);
    }
    out += ", \"message\": ";
    detail::json_quote(out, d.message);
    out += '}';
}

inline bool has_error(std::vector<diagnostic> const& ds) noexcept
{
    for (auto const& d : ds)
        if (d.severity == severity::error) return true;
    return false;
}

} // namespace skillmd

#endif
