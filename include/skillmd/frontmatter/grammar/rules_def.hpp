// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_FRONTMATTER_GRAMMAR_RULES_DEF_HPP
#define SKILLMD_FRONTMATTER_GRAMMAR_RULES_DEF_HPP

// The start rule's definition: the block document primitive (the reader run from the
// X3 context's parse state) followed by the end of input.

#include <skillmd/frontmatter/grammar/rules.hpp>
#include <skillmd/frontmatter/grammar/reader_input.hpp>
#include <skillmd/frontmatter/grammar/reader_blocks.hpp>
#include <skillmd/frontmatter/grammar/reader_scalars.hpp>
#include <skillmd/frontmatter/grammar/reader_block_scalars.hpp>
#include <skillmd/frontmatter/grammar/reader_flow.hpp>
#include <boost/spirit/home/x3.hpp>

namespace skillmd::frontmatter::grammar {

/// Parses a whole YAML document of the subset into the builder of the parse state.
struct block_document_parser : x3::parser<block_document_parser>
{
    using attribute_type = x3::unused_type;
    static bool const has_attribute = false;

    template <class Iterator, class Context, class RContext, class Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const& ctx, RContext&, Attribute&) const
    {
        parse_state& st = x3::get<state_tag>(ctx).get();
        detail::reader r(st, &*first, &*first + (last - first));
        if (!r.run()) return false;
        first = last;
        return true;
    }
};

inline constexpr block_document_parser block_document{};

inline constexpr document_type document = "YAML frontmatter";
inline const auto document_def = block_document >> x3::eoi;

BOOST_SPIRIT_DEFINE(document)

} // namespace skillmd::frontmatter::grammar

#endif
