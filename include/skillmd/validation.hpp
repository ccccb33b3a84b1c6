// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_VALIDATION_HPP
#define SKILLMD_VALIDATION_HPP

// Validation, above the parsers: dialects (which keys mean what in each system) and the
// typed reading of a parsed frontmatter into a skill, with its diagnostics. No X3: a
// parser is a template parameter.

#include <skillmd/validation/dialect.hpp>
#include <skillmd/validation/name_rules.hpp>
#include <skillmd/validation/read_result.hpp>
#include <skillmd/validation/read_skill.hpp>

#endif
