// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_FRONTMATTER_GRAMMAR_ERROR_HPP
#define SKILLMD_FRONTMATTER_GRAMMAR_ERROR_HPP

// Error handling: the grammar never backtracks out of a refusal. The reader records a
// `failure` (where, which code, how to fix it) in the parse state and returns up to the
// start rule, which fails, and records `note`s for warnings while parsing goes on; x3_parser turns
// both into diagnostics with line and column.

#include <string>
#include <string_view>

namespace skillmd::frontmatter::grammar {

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

} // namespace skillmd::frontmatter::grammar

#endif
