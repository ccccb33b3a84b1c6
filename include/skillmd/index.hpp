// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_INDEX_HPP
#define SKILLMD_INDEX_HPP

// Layer 1 of the prompt: the index of skills for the system prompt, the index_format
// concept, budgets, and each system's format and listing policy. No X3.

#include <skillmd/index/entries.hpp>
#include <skillmd/index/render.hpp>
#include <skillmd/index/formats.hpp>

#endif
