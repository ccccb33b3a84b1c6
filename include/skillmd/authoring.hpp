// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_AUTHORING_HPP
#define SKILLMD_AUTHORING_HPP

// Tools for skill authors: the SKILL.md template writer, why each skill is (or is not)
// listed and invocable (explain), and which systems read a skill as written
// (portability, which parses with every parser: X3 included).

#include <skillmd/authoring/scaffold.hpp>
#include <skillmd/authoring/explanation.hpp>
#include <skillmd/authoring/explain.hpp>
#include <skillmd/authoring/portability.hpp>

#endif
