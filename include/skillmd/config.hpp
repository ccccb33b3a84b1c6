// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_CONFIG_HPP
#define SKILLMD_CONFIG_HPP

#define SKILLMD_VERSION_MAJOR 0
#define SKILLMD_VERSION_MINOR 1
#define SKILLMD_VERSION_PATCH 0

#if __cplusplus < 202002L && !defined(_MSVC_LANG)
#  error "skillmd needs C++20"
#endif

#endif
