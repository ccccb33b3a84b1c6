// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_PRESETS_HPP
#define SKILLMD_PRESETS_HPP

// Presets: each seed system as a ready registry type with its documented tiers,
// layout, dialect and collision rule. They use the X3 parser, so this header pulls
// in the grammar; code that only reads snapshots can include registry.hpp alone.

#include <skillmd/dedup.hpp>
#include <skillmd/dialect.hpp>
#include <skillmd/frontmatter/x3_parser.hpp>
#include <skillmd/registry.hpp>
#include <skillmd/sources/directory_source.hpp>
#include <skillmd/sources/plugin_source.hpp>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>

namespace skillmd::presets {

/// Where a preset looks. Empty members take defaults: `home` from $HOME, `project`
/// from the current directory. `overrides` replaces a tier's directory by its label
/// (the command line's `--dir TIER=PATH`).
struct locations
{
    std::filesystem::path home;
    std::filesystem::path project;
    std::filesystem::path managed;    ///< seed 001's managed (policy) settings directory
    std::map<std::string, std::filesystem::path> overrides;

    std::filesystem::path home_dir() const
    {
        if (!home.empty()) return home;
        char const* h = std::getenv("HOME");
        return h ? h : "/";
    }
    std::filesystem::path project_dir() const { return project.empty() ? std::filesystem::current_path() : project; }
    std::string tier(std::string const& label, std::filesystem::path const& fallback) const
    {
        auto const it = overrides.find(label);
        return (it != overrides.end() ? it->second : fallback).string();
    }
};

inline registry_options options_for(dialect d, validation_mode mode = validation_mode::lenient)
{
    registry_options o;
    o.dialect = std::move(d);
    o.mode = mode;
    return o;
}

using parser = frontmatter::x3_parser;

//------------------------------------------------------------------------------
/// Seed 000 ("pegasus"): builtin `skills/` and user `data/skills/`; the user tier wins.
using pegasus = basic_registry<parser, highest_tier_wins, directory_source, directory_source>;
inline constexpr char const* pegasus_tiers[] = {"builtin", "user"};

inline pegasus make_pegasus(locations const& at = {}, validation_mode mode = validation_mode::lenient)
{
    auto const p = at.project_dir();
    return pegasus(parser{parse_options_for(dialects::pegasus(), mode)}, options_for(dialects::pegasus(), mode),
                   directory_source("builtin", at.tier("builtin", p / "skills")),
                   directory_source("user", at.tier("user", p / "data" / "skills")));
}

//------------------------------------------------------------------------------
/// Seed 001 (Claude Code as reverse-engineered): managed > user > project, the first
/// tier wins, and the same file reached twice (a symlink) collapses silently.
using claude_code = basic_registry<parser, first_tier_wins, directory_source, directory_source, directory_source>;
inline constexpr char const* claude_code_tiers[] = {"managed", "user", "project"};

inline claude_code make_claude_code(locations const& at = {}, validation_mode mode = validation_mode::lenient)
{
    auto const managed = at.managed.empty() ? std::filesystem::path("/etc/claude-code") : at.managed;
    return claude_code(parser{parse_options_for(dialects::claude_code(), mode)},
                       options_for(dialects::claude_code(), mode),
                       directory_source("managed", at.tier("managed", managed / ".claude" / "skills")),
                       directory_source("user", at.tier("user", at.home_dir() / ".claude" / "skills")),
                       directory_source("project", at.tier("project", at.project_dir() / ".claude" / "skills")));
}

//------------------------------------------------------------------------------
/// Seed 002 ("mycode"): user, project, then plugins; a later source replaces an earlier
/// skill of the same name. Plugin skills are named `plugin:name`.
using mycode = basic_registry<parser, highest_tier_wins, directory_source, directory_source,
                              plugin_source<directory_source>>;
inline constexpr char const* mycode_tiers[] = {"user", "project", "plugin"};

inline mycode make_mycode(locations const& at = {}, std::string plugin_name = "plugin",
                          validation_mode mode = validation_mode::lenient)
{
    return mycode(parser{parse_options_for(dialects::mycode(), mode)}, options_for(dialects::mycode(), mode),
                  directory_source("user", at.tier("user", at.home_dir() / ".mycode" / "skills")),
                  directory_source("project", at.tier("project", at.project_dir() / ".mycode" / "skills")),
                  plugin_source<directory_source>(
                      std::move(plugin_name),
                      directory_source("plugin", at.tier("plugin", at.home_dir() / ".mycode" / "plugins" / "skills"))));
}

//------------------------------------------------------------------------------
/// Seed 004 ("sven"): six nested roots by increasing precedence; the command is the
/// path; no depth limit to speak of; 256 KB per file.
using sven = basic_registry<parser, highest_tier_wins, directory_source, directory_source, directory_source,
                            directory_source, directory_source, directory_source>;
inline constexpr char const* sven_tiers[] = {"user-sven", "user-agents", "user-claude",
                                             "project-agents", "project-claude", "project-sven"};

inline directory_options sven_layout()
{
    directory_options o;
    o.layout = layout::nested;
    o.max_depth = 64;
    o.max_directories = 100000;
    return o;
}

inline sven make_sven(locations const& at = {}, validation_mode mode = validation_mode::lenient)
{
    auto const h = at.home_dir(), p = at.project_dir();
    auto const o = sven_layout();
    return sven(parser{parse_options_for(dialects::sven(), mode)}, options_for(dialects::sven(), mode),
                directory_source("user-sven", at.tier("user-sven", h / ".sven" / "skills"), o),
                directory_source("user-agents", at.tier("user-agents", h / ".agents" / "skills"), o),
                directory_source("user-claude", at.tier("user-claude", h / ".claude" / "skills"), o),
                directory_source("project-agents", at.tier("project-agents", p / ".agents" / "skills"), o),
                directory_source("project-claude", at.tier("project-claude", p / ".claude" / "skills"), o),
                directory_source("project-sven", at.tier("project-sven", p / ".sven" / "skills"), o));
}

//------------------------------------------------------------------------------
/// The Agent Skills specification's client guide: user `~/.agents/skills` and project
/// `.agents/skills`, project overriding user; directories searched like Codex (depth
/// 6, 2,000 directories per root); lenient loading.
using agent_skills = basic_registry<parser, highest_tier_wins, directory_source, directory_source>;
inline constexpr char const* agent_skills_tiers[] = {"user", "project"};

inline agent_skills make_agent_skills(locations const& at = {}, validation_mode mode = validation_mode::lenient)
{
    directory_options o;
    o.layout = layout::nested;
    return agent_skills(parser{parse_options_for(dialects::agent_skills(), mode)},
                        options_for(dialects::agent_skills(), mode),
                        directory_source("user", at.tier("user", at.home_dir() / ".agents" / "skills"), o),
                        directory_source("project", at.tier("project", at.project_dir() / ".agents" / "skills"), o));
}

} // namespace skillmd::presets

#endif
