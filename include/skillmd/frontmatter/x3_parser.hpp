// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_FRONTMATTER_X3_PARSER_HPP
#define SKILLMD_FRONTMATTER_X3_PARSER_HPP

// The grammar itself is compiled where parse() is defined (frontmatter/impl/x3_parser.ipp):
// in every translation unit when header-only, once with SKILLMD_SEPARATE_COMPILATION.

#include <skillmd/config.hpp>
#include <skillmd/frontmatter/parse_result.hpp>

#include <cstdint>

#include <string>
#include <string_view>

namespace skillmd::frontmatter {

/** The default frontmatter parser: the Spirit X3 grammar for the YAML subset.

    Every construct outside the subset (anchors, aliases, tags, directives, several
    documents, tabs as indentation, duplicate keys, ...) is refused with a diagnostic
    that names it and its position: the parser never returns a wrong value.

    @par Example
    @code
    skillmd::frontmatter::x3_parser p;
    auto r = p.parse("name: pdf\ndescription: Reads PDF files\n", "SKILL.md", 2);
    if (r.ok()) std::string_view name = r.doc->root().find("name")->value();
    @endcode
*/
class x3_parser
{
public:
    x3_parser() = default;
    explicit x3_parser(parse_options opts) : options_(opts) {}

    parse_options const& options() const noexcept { return options_; }
    parse_options& options() noexcept { return options_; }

    /// Parses `yaml`, whose first line is line `first_line` of the file `origin`.
    SKILLMD_DECL parse_result parse(std::string_view yaml, std::string_view origin, std::uint32_t first_line = 1) const;

private:
    parse_options options_;
};

static_assert(frontmatter_parser<x3_parser>, "x3_parser must model frontmatter_parser");

} // namespace skillmd::frontmatter

#ifndef SKILLMD_SEPARATE_COMPILATION
#include <skillmd/frontmatter/impl/x3_parser.ipp>
#endif

#endif
