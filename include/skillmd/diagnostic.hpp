// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_DIAGNOSTIC_HPP
#define SKILLMD_DIAGNOSTIC_HPP

#include <skillmd/config.hpp>
#include <skillmd/detail/json.hpp>

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

/// `file:line:column: severity: [code] message`, the format compilers and editors understand.
inline std::string to_text(diagnostic const& d)
{
    std::string out = d.file;
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
    out += d.message;
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
