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

// Compile-once (opt-in). Define SKILLMD_SEPARATE_COMPILATION in every translation unit
// of a program (the CMake target skillmd::compiled does) and include <skillmd/src.hpp>
// in exactly one .cpp: the parser, the registries and the systems of the presets are
// then compiled there, and every other translation unit compiles only declarations.
// Without it, skillmd is header-only: SKILLMD_DECL makes the out-of-line functions inline.
#ifdef SKILLMD_SEPARATE_COMPILATION
#  define SKILLMD_DECL
#else
#  define SKILLMD_DECL inline
#endif

// `X(...)` once per type in a list: the explicit instantiations of a list of preset types.
#define SKILLMD_EXTERN_TEMPLATE(...) extern template class __VA_ARGS__;
#define SKILLMD_INSTANTIATE_TEMPLATE(...) template class __VA_ARGS__;

#endif
