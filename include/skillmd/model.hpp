// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_MODEL_HPP
#define SKILLMD_MODEL_HPP

// The skill model, the bottom layer: the typed record, diagnostics and their codes, the
// rules for names. Everything else (the parsers, validation, storage) builds on it; it
// includes nothing of theirs. No X3.

#include <skillmd/model/skill.hpp>
#include <skillmd/model/diagnostic.hpp>
#include <skillmd/model/names.hpp>

#endif
