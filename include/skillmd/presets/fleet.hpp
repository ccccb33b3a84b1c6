// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_PRESETS_FLEET_HPP
#define SKILLMD_PRESETS_FLEET_HPP

// fleet: koshi's design (Markdown file skills that win over agent-created ones, trigger
// phrases, the same tools and formats) with the agent-created skills in a shared
// PostgreSQL namespace instead of a SQLite file, so every agent of a team, on any
// machine, sees what one of them writes. A local snapshot file (0600, in folders made
// 0700) lets an agent start while the server is down. Needs `skillmd::postgres`.

#include <skillmd/impl/system.hpp> // its own system type: built here in every mode
#include <skillmd/presets/database_tools.hpp>
#include <skillmd/presets/systems.hpp>
#include <skillmd/storage/sources/postgres_source.hpp>

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>

namespace skillmd::presets {

using fleet_registry = basic_registry<parser, files_win_over_database<first_tier_wins>, directory_source, postgres_source>;
/// fleet: koshi's index, content and tools over files plus a shared PostgreSQL namespace.
using fleet = basic_system<fleet_registry, index_formats::koshi, content_formats::koshi>;
inline constexpr char const* fleet_tiers[] = {"user", "db"};

/// True for a `--db` value that names a PostgreSQL server rather than a SQLite file.
inline bool is_postgres_url(std::string_view db)
{
    return db.starts_with("postgresql://") || db.starts_with("postgres://") || db.find("host=") != std::string_view::npos ||
           db.find("dbname=") != std::string_view::npos;
}

/// `~/.cache/skillmd/fleet-NAMESPACE-HASH.json` ($XDG_CACHE_HOME honoured), or the `cache`
/// override; the hash tells servers apart.
inline std::filesystem::path fleet_cache(locations const& at, std::string const& conninfo, std::string const& ns)
{
    if (auto const it = at.overrides.find("cache"); it != at.overrides.end()) return it->second;
    char const* xdg = std::getenv("XDG_CACHE_HOME");
    std::filesystem::path const base = xdg && *xdg && at.home.empty() ? std::filesystem::path(xdg) : at.home_dir() / ".cache";
    std::string safe;
    for (char c : ns) safe += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_') ? c : '_';
    return base / "skillmd" / ("fleet-" + safe + "-" + std::to_string(std::hash<std::string>{}(conninfo) % 1000000007u) + ".json");
}

/** The fleet system: koshi's file tier (`~/.config/koshi/skills`, or `--dir user=`) and
    namespace `ns` of the PostgreSQL database `opts.conninfo`, with the local snapshot at
    `fleet_cache(at, ...)`. A server that cannot be reached leaves the file skills (and
    the snapshot, if any) working, reported by the `db` tier's discovery.
*/
inline fleet make_fleet(locations const& at, postgres_options opts, std::string ns = "default",
                        validation_mode mode = validation_mode::lenient)
{
    auto const dir = koshi_skills_dir(at);
    auto const cache = fleet_cache(at, opts.conninfo, ns);
    skillmd::detail::make_private_dirs(cache.parent_path()); // 0700: the snapshot holds the namespace's contents
    std::string error;
    auto store = postgres_store::open(std::move(opts), error);
    directory_options files;
    files.layout = layout::files;
    files = contained(at, {dir.string()}, files);
    return fleet(std::make_unique<fleet_registry>(options_for(dialects::koshi(), mode, at), directory_source("user", dir.string(), files),
                                                  postgres_source("db", std::move(store), std::move(ns), cache.string())),
                 [] {
                     auto s = settings_for(index_formats::policies::koshi(), skill_tool::load_skill);
                     s.invoke.approval_step = false; // koshi's tools run what the model calls
                     return s;
                 }());
}

} // namespace skillmd::presets

#endif
