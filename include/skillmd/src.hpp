// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_SRC_HPP
#define SKILLMD_SRC_HPP

// Compile-once: include this header in exactly one .cpp of a program whose every
// translation unit defines SKILLMD_SEPARATE_COMPILATION (or link skillmd::compiled,
// which does both). It compiles here, once, what the other translation units only
// declare: the X3 parser, the preset registries and the preset systems.

#ifndef SKILLMD_SEPARATE_COMPILATION
#  error "<skillmd/src.hpp> is for SKILLMD_SEPARATE_COMPILATION builds; header-only builds need no source file"
#endif

#include <skillmd/skillmd.hpp>
#include <skillmd/detail/impl/unicode.ipp>
#include <skillmd/frontmatter/impl/x3_parser.ipp>
#include <skillmd/storage/sources/impl/directory_source.ipp>
#include <skillmd/storage/impl/registry.hpp>
#include <skillmd/impl/system.hpp>
#include <skillmd/presets/impl/systems.ipp>

SKILLMD_PRESET_REGISTRIES(SKILLMD_INSTANTIATE_TEMPLATE)
SKILLMD_PRESET_SYSTEMS(SKILLMD_INSTANTIATE_TEMPLATE)

#endif
