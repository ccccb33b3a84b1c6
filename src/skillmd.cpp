// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)

// The compile-once library, skillmd::compiled: the parser, the preset registries and
// systems compiled here once; programs that link it compile only declarations.
#include <skillmd/src.hpp>
