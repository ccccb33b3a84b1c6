// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_STORAGE_HPP
#define SKILLMD_STORAGE_HPP

// Storage: the source concept and the file-system sources, dedup policies, the
// registry and its snapshots, requirements gating, seeding. No X3. The database tiers
// are left out: storage/sources/sqlite_source.hpp needs SQLite (skillmd::sqlite),
// storage/sources/postgres_source.hpp needs libpq (skillmd::postgres).

#include <skillmd/storage/source.hpp>
#include <skillmd/storage/dedup.hpp>
#include <skillmd/storage/overrides.hpp>
#include <skillmd/storage/registry.hpp>
#include <skillmd/storage/requirements.hpp>
#include <skillmd/storage/seeding.hpp>
#include <skillmd/storage/sources/directory_source.hpp>
#include <skillmd/storage/sources/memory_source.hpp>
#include <skillmd/storage/sources/plugin_source.hpp>
#include <skillmd/storage/skill_record.hpp>
#include <skillmd/storage/record.hpp>
#include <skillmd/storage/packed.hpp>
#include <skillmd/storage/listing_table.hpp>
#include <skillmd/storage/db_skill.hpp>

#endif
