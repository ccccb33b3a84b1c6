// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_FRONTMATTER_IMPL_X3_PARSER_IPP
#define SKILLMD_FRONTMATTER_IMPL_X3_PARSER_IPP

// x3_parser::parse: runs the X3 grammar and turns its notes and refusal into diagnostics.

#include <skillmd/frontmatter/x3_parser.hpp>
#include <skillmd/frontmatter/grammar_def.hpp>
#include <skillmd/detail/line_index.hpp>

#include <functional>
#include <string>

namespace skillmd::frontmatter {

parse_result x3_parser::parse(std::string_view yaml, std::string_view origin, std::uint32_t first_line) const
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

} // namespace skillmd::frontmatter

#endif
