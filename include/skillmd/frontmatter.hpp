// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_FRONTMATTER_HPP
#define SKILLMD_FRONTMATTER_HPP

// The frontmatter parsers: fences and body, the document tree, the parser concept, the
// X3 grammar's parser and the line parser. This umbrella pulls in X3; the parts that
// do not parse (split, document, parse_result, line_parser) can be included alone.

#include <skillmd/frontmatter/split.hpp>
#include <skillmd/frontmatter/document.hpp>
#include <skillmd/frontmatter/parse_result.hpp>
#include <skillmd/frontmatter/line_parser.hpp>
#include <skillmd/frontmatter/x3_parser.hpp>
#include <skillmd/frontmatter/scalar_json.hpp>
#include <skillmd/frontmatter/grammar.hpp>

#endif
