// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_FRONTMATTER_GRAMMAR_CONFIG_HPP
#define SKILLMD_FRONTMATTER_GRAMMAR_CONFIG_HPP

// The grammar's configuration: the iterator it runs over and the parse state the rules
// share, which x3_parser puts in the X3 context with `x3::with<state_tag>`.

#include <skillmd/config.hpp>
#include <skillmd/frontmatter/document.hpp>
#include <skillmd/frontmatter/grammar/error.hpp>
#include <skillmd/frontmatter/parse_result.hpp>

#include <boost/spirit/home/x3.hpp> // rule.hpp alone does not compile in Boost 1.81

#include <string>
#include <vector>

namespace skillmd::frontmatter::grammar {

namespace x3 = boost::spirit::x3;

/// The text is parsed in place, from one contiguous buffer.
using iterator_type = char const*;

/// What the rules share during one parse. Reached with `x3::get<state_tag>(ctx)`.
struct parse_state
{
    parse_options const& options;
    document_builder& out;
    std::vector<note> notes;
    failure error;             // set when the parse is refused
    std::string scratch;       // reused buffer for decoded scalars
};

struct state_tag;

} // namespace skillmd::frontmatter::grammar

#endif
