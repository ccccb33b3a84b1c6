// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_FRONTMATTER_GRAMMAR_DEF_HPP
#define SKILLMD_FRONTMATTER_GRAMMAR_DEF_HPP

// The X3 grammar for the frontmatter YAML subset, defined. YAML's block structure
// depends on indentation, which X3's combinators cannot express as a context-free rule,
// so the grammar has two layers:
//  - lexical rules written with X3 combinators (grammar/lexical.hpp);
//  - the block-structure reader (grammar/reader*.hpp), run as an X3 parser primitive:
//    it reads the parse state from the X3 context, tracks indentation and calls the
//    lexical rules; nested nodes recurse through it with a depth bound.
// Everything the subset refuses raises a `failure` naming the construct; the start rule
// (grammar/rules_def.hpp) turns it into a diagnostic, so no input is ever half-read.

#include <skillmd/frontmatter/grammar.hpp>
#include <skillmd/frontmatter/grammar/lexical.hpp>
#include <skillmd/frontmatter/grammar/reader.hpp>
#include <skillmd/frontmatter/grammar/rules_def.hpp>

#endif
