// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_SKILLMD_HPP
#define SKILLMD_SKILLMD_HPP

// Everything but the database tiers (SQLite, PostgreSQL), skills over MCP
// (skillmd/mcp.hpp, OpenSSL) and the HTTP server (skillmd/net.hpp), including the X3
// frontmatter grammar. Each layer has its own umbrella (model, frontmatter, storage,
// index, invoke, triggers, presets, authoring); a translation unit that does not parse
// can include the ones it uses and stay fast to compile.

#include <skillmd/config.hpp>
#include <skillmd/model.hpp>
#include <skillmd/validation.hpp>
#include <skillmd/frontmatter.hpp>
#include <skillmd/storage.hpp>
#include <skillmd/index.hpp>
#include <skillmd/invoke.hpp>
#include <skillmd/triggers.hpp>
#include <skillmd/system.hpp>
#include <skillmd/presets.hpp>
#include <skillmd/authoring.hpp>

#endif
