// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_FRONTMATTER_GRAMMAR_HPP
#define SKILLMD_FRONTMATTER_GRAMMAR_HPP

// The interface of the X3 frontmatter grammar, in X3's file roles: configuration
// (grammar/config.hpp), error handling (grammar/error.hpp), rule declarations
// (grammar/rules.hpp). The definitions are in grammar_def.hpp.

#include <skillmd/frontmatter/grammar/config.hpp>
#include <skillmd/frontmatter/grammar/error.hpp>
#include <skillmd/frontmatter/grammar/rules.hpp>

#endif
