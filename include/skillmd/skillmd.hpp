// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_SKILLMD_HPP
#define SKILLMD_SKILLMD_HPP

// Everything, including the X3 frontmatter grammar. Translation units that only hold
// or format skills can include the narrower headers and stay fast to compile.

#include <skillmd/arguments.hpp>
#include <skillmd/authoring.hpp>
#include <skillmd/config.hpp>
#include <skillmd/content.hpp>
#include <skillmd/diagnostic.hpp>
#include <skillmd/dialect.hpp>
#include <skillmd/frontmatter/document.hpp>
#include <skillmd/frontmatter/line_parser.hpp>
#include <skillmd/frontmatter/parse_result.hpp>
#include <skillmd/frontmatter/split.hpp>
#include <skillmd/frontmatter/x3_parser.hpp>
#include <skillmd/dedup.hpp>
#include <skillmd/index.hpp>
#include <skillmd/index_formats.hpp>
#include <skillmd/invoke.hpp>
#include <skillmd/permissions.hpp>
#include <skillmd/presets.hpp>
#include <skillmd/read_skill.hpp>
#include <skillmd/registry.hpp>
#include <skillmd/requirements.hpp>
#include <skillmd/seeding.hpp>
#include <skillmd/skill.hpp>
#include <skillmd/slash.hpp>
#include <skillmd/system.hpp>
#include <skillmd/source.hpp>
#include <skillmd/sources/directory_source.hpp>
#include <skillmd/sources/memory_source.hpp>
#include <skillmd/sources/plugin_source.hpp>
#include <skillmd/tool_calls.hpp>
#include <skillmd/tools.hpp>
#include <skillmd/trigger_index.hpp>
#include <skillmd/triggers.hpp>

#endif
