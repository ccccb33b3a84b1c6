// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_AUTHORING_HPP
#define SKILLMD_AUTHORING_HPP

// Tools for skill authors: the skills table and the SKILL.md template writer. No X3.

#include <skillmd/authoring/scaffold.hpp>

#endif
