// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_FRONTMATTER_GRAMMAR_HPP
#define SKILLMD_FRONTMATTER_GRAMMAR_HPP

// The interface of the X3 frontmatter grammar: rule types and the parse state the
// rules reach through the X3 context. The rule bodies are in grammar_def.hpp.

#include <skillmd/config.hpp>
#include <skillmd/frontmatter/document.hpp>
#include <skillmd/frontmatter/parse_result.hpp>

#include <boost/spirit/home/x3.hpp> // rule.hpp alone does not compile in Boost 1.81

#include <string>
#include <string_view>
#include <vector>

namespace skillmd::frontmatter::grammar {

namespace x3 = boost::spirit::x3;

/// A refusal: where, which code, and a message that says how to fix it.
struct failure
{
    char const* where = nullptr;
    std::string_view code;
    std::string message;
};

/// A warning recorded while parsing goes on.
struct note
{
    char const* where;
    std::string_view code;
    std::string message;
};

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

struct document_class;
using document_type = x3::rule<document_class, x3::unused_type>;

} // namespace skillmd::frontmatter::grammar

#endif
