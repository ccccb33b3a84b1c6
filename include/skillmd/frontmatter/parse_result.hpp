// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_FRONTMATTER_PARSE_RESULT_HPP
#define SKILLMD_FRONTMATTER_PARSE_RESULT_HPP

#include <skillmd/config.hpp>
#include <skillmd/model/diagnostic.hpp>
#include <skillmd/frontmatter/document.hpp>
#include <skillmd/frontmatter/split.hpp>

#include <concepts>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace skillmd::frontmatter {

/// Limits and recovery switches shared by the frontmatter parsers.
struct parse_options
{
    std::uint32_t max_depth = 64;          ///< nesting deeper than this is refused
    std::size_t max_bytes = 256 * 1024;    ///< larger frontmatter is refused unread
    /// `description: Use when: x` is invalid YAML; when set, the value becomes the rest
    /// of the line with a warning, as the Agent Skills client guide recommends.
    bool recover_colon_in_plain = false;
};

/// The outcome of parsing one frontmatter block.
struct parse_result
{
    std::optional<document> doc;           ///< absent when the input was refused
    std::vector<diagnostic> diagnostics;   ///< warnings even on success
    bool ok() const noexcept { return doc.has_value(); }
};

/** A frontmatter parser policy: YAML text in, document tree and diagnostics out.

    @par Exemplar
    @code
    struct my_parser
    {
        skillmd::frontmatter::parse_result
        parse(std::string_view yaml, std::string_view origin, std::uint32_t first_line) const;
    };
    @endcode

    `first_line` is the file line on which `yaml` starts, so that positions refer to
    the file. Bad input is reported in `diagnostics`, never thrown.

    @par Models
    @li @ref x3_parser (the Spirit X3 grammar, the default)
*/
template <class T>
concept frontmatter_parser =
    requires(T const& p, std::string_view text, std::string_view origin, std::uint32_t line) {
        { p.parse(text, origin, line) } -> std::same_as<parse_result>;
    };

/// A whole SKILL.md read by a frontmatter parser: metadata tree, body offset, diagnostics.
struct skill_file
{
    std::optional<document> frontmatter; ///< absent when missing or refused
    std::size_t body_offset = 0;
    std::vector<diagnostic> diagnostics;
};

/// Splits `text` and parses its frontmatter with `parser`.
template <frontmatter_parser Parser>
skill_file read_skill_file(Parser const& parser, std::string_view text, std::string_view origin,
                           split_options opts = {})
{
    skill_file out;
    // A parser that finds its block its own way (Claude Code's line parser) says so with a
    // `split` member; the others share the splitter.
    split_result s;
    if constexpr (requires { parser.split(text, origin, opts); }) {
        s = parser.split(text, origin, opts);
        // Whatever finds the block, the body must be text (the shared splitter checks its own).
        detail::check_body(text, s.has_frontmatter ? s.body_offset : 0, origin, s.diagnostics);
    } else {
        s = split(text, origin, opts);
    }
    out.body_offset = s.body_offset;
    out.diagnostics = std::move(s.diagnostics);
    if (s.has_frontmatter) {
        parse_result p = parser.parse(s.frontmatter, origin, s.frontmatter_line);
        out.frontmatter = std::move(p.doc);
        out.diagnostics.insert(out.diagnostics.begin(), std::make_move_iterator(p.diagnostics.begin()),
                               std::make_move_iterator(p.diagnostics.end()));
    }
    return out;
}

} // namespace skillmd::frontmatter

#endif
