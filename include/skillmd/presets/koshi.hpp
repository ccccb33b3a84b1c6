// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_PRESETS_KOSHI_HPP
#define SKILLMD_PRESETS_KOSHI_HPP

// koshi ("koshi"): `*.md` file skills in the user's config directory (seeded from the
// shipped skills on first start) plus agent-created skills in SQLite; a file wins a
// name collision; trigger phrases pull the full skill into an `## Active Skills`
// section. Needs `skillmd::sqlite`.

#include <skillmd/invoke/content.hpp>
#include <skillmd/impl/system.hpp> // its own system type: built here in every mode
#include <skillmd/presets/systems.hpp>
#include <skillmd/storage/seeding.hpp>
#include <skillmd/presets/database_tools.hpp>
#include <skillmd/storage/sources/sqlite_source.hpp>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace skillmd::presets {

using koshi_registry = basic_registry<parser, files_win_over_database<first_tier_wins>, directory_source, sqlite_source>;
/// koshi (koshi, an agent's skill notes): a Markdown `## Available Skills` index (the
/// document sets no budget; the preset's policy adds one), `load_skill`, and Active Skills
/// pulled in by trigger phrases.
using koshi = basic_system<koshi_registry, index_formats::koshi, content_formats::koshi>;
inline constexpr char const* koshi_tiers[] = {"user", "db"};

/// `~/.local/share/koshi/skills.db` ($XDG_DATA_HOME honoured), or the `db` override.
inline std::filesystem::path koshi_database(locations const& at)
{
    if (auto const it = at.overrides.find("db"); it != at.overrides.end()) return it->second;
    char const* xdg = std::getenv("XDG_DATA_HOME");
    std::filesystem::path const base = xdg && *xdg && at.home.empty() ? std::filesystem::path(xdg) : at.home_dir() / ".local" / "share";
    return base / "koshi" / "skills.db";
}

/// Opens (creating if needed) the koshi database; on failure a null store and `error`.
inline std::shared_ptr<sqlite_store> open_koshi_database(locations const& at, std::string& error)
{
    auto const path = koshi_database(at);
    std::error_code ec;
    if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
    return sqlite_store::open(path.string(), error);
}

/** The koshi registry. When `shipped` is given and the skills directory does not exist
    yet, it is first created as a copy of `shipped` (seeding; `seeded` tells). A
    database that cannot be opened leaves the file skills working and is reported by
    the `db` tier's discovery.
*/
inline koshi make_koshi(locations const& at = {}, std::filesystem::path const& shipped = {},
                        validation_mode mode = validation_mode::lenient, std::vector<diagnostic>* seeded = nullptr)
{
    auto const dir = koshi_skills_dir(at);
    if (!shipped.empty()) {
        std::vector<diagnostic> ds;
        seed_directory(dir, shipped, ds);
        if (seeded) *seeded = std::move(ds);
    }
    std::string error;
    auto store = open_koshi_database(at, error);
    directory_options files;
    files.layout = layout::files;
    files = contained(at, {dir.string()}, files);
    return koshi(std::make_unique<koshi_registry>(options_for(dialects::koshi(), mode, at),
                                                  directory_source("user", dir.string(), files),
                                                  sqlite_source("db", std::move(store), error)),
                 [] {
                     auto s = settings_for(index_formats::policies::koshi(), skill_tool::load_skill);
                     s.invoke.approval_step = false; // koshi's tools run what the model calls
                     return s;
                 }());
}

} // namespace skillmd::presets

#endif
