// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_PACKAGES_UMBRELLA_HPP
#define SKILLMD_PACKAGES_UMBRELLA_HPP

// Skills that come from somewhere: install, pin, verify and update them from git, Agent
// Plugins packages, discovery indexes and SKILL.md URLs; publish and pack your own. The
// layer writes the folders a directory tier reads. Link skillmd::packages (libarchive,
// OpenSSL, and skillmd::net for downloads; git is run as a program).

#include <skillmd/packages/archive.hpp>
#include <skillmd/packages/artifact.hpp>
#include <skillmd/packages/discovery_index.hpp>
#include <skillmd/packages/fetch.hpp>
#include <skillmd/packages/fetch_package.hpp>
#include <skillmd/packages/git.hpp>
#include <skillmd/packages/install_folder.hpp>
#include <skillmd/packages/limits.hpp>
#include <skillmd/packages/lock_file.hpp>
#include <skillmd/packages/operations.hpp>
#include <skillmd/packages/plugin_manifest.hpp>
#include <skillmd/packages/publish.hpp>
#include <skillmd/packages/source_spec.hpp>

#endif
