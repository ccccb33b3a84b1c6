// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_FRONTMATTER_GRAMMAR_RULES_HPP
#define SKILLMD_FRONTMATTER_GRAMMAR_RULES_HPP

// The rule declarations: the start rule's type. Its definition is in rules_def.hpp.

#include <skillmd/frontmatter/grammar/config.hpp>

namespace skillmd::frontmatter::grammar {

struct document_class;
using document_type = x3::rule<document_class, x3::unused_type>;

} // namespace skillmd::frontmatter::grammar

#endif
