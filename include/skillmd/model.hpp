// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_MODEL_HPP
#define SKILLMD_MODEL_HPP

// The skill model: the typed record, diagnostics and their codes, dialects (which keys
// mean what), typed reading and validation. No X3.

#include <skillmd/model/skill.hpp>
#include <skillmd/model/diagnostic.hpp>
#include <skillmd/model/dialect.hpp>
#include <skillmd/model/read_skill.hpp>
#include <skillmd/model/names.hpp>

#endif
