// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_FRONTMATTER_X3_PARSER_HPP
#define SKILLMD_FRONTMATTER_X3_PARSER_HPP

#include <skillmd/frontmatter/grammar_def.hpp>
#include <skillmd/frontmatter/parse_result.hpp>
#include <skillmd/detail/line_index.hpp>

#include <string>
#include <string_view>

namespace skillmd::frontmatter {

/** The default frontmatter parser: the Spirit X3 grammar for SPEC 3.2's YAML subset.

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

    parse_result parse(std::string_view yaml, std::string_view origin, std::uint32_t first_line = 1) const
    {
        parse_result result;
        if (yaml.size() > options_.max_bytes) {
            result.diagnostics.push_back({std::string(codes::frontmatter_too_large), severity::error,
                                          std::string(origin), first_line, 1,
                                          "the frontmatter is " + std::to_string(yaml.size()) +
                                              " bytes, more than the limit of " +
                                              std::to_string(options_.max_bytes)});
            return result;
        }
        document_builder builder(yaml, first_line);
        grammar::parse_state state{options_, builder, {}, {}, {}};
        std::string_view const text = builder.text();
        char const* first = text.data();
        char const* const last = text.data() + text.size();
        bool const ok = boost::spirit::x3::parse(
            first, last, boost::spirit::x3::with<grammar::state_tag>(std::ref(state))[grammar::document]);

        if (!state.notes.empty() || !ok) {
            skillmd::detail::line_index const lines(text, first_line);
            auto at = [&](char const* p) { return lines.at(static_cast<std::size_t>(p - text.data())); };
            for (auto const& n : state.notes) {
                auto const pos = at(n.where);
                result.diagnostics.push_back({std::string(n.code), severity::warning, std::string(origin),
                                              pos.line, pos.column, n.message});
            }
            if (!ok) {
                auto const pos = at(state.error.where ? state.error.where : text.data());
                result.diagnostics.push_back(
                    {std::string(state.error.code.empty() ? codes::yaml_syntax : state.error.code), severity::error,
                     std::string(origin), pos.line, pos.column,
                     state.error.message.empty() ? "invalid YAML" : state.error.message});
                return result;
            }
        }
        result.doc = std::move(builder).finish();
        return result;
    }

private:
    parse_options options_;
};

static_assert(frontmatter_parser<x3_parser>);

} // namespace skillmd::frontmatter

#endif
