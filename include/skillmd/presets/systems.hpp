// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_PRESETS_SYSTEMS_HPP
#define SKILLMD_PRESETS_SYSTEMS_HPP

// Presets: each system skillmd reproduces as one `basic_system` type: its tiers and
// layout, dialect and mode, collision rule, index format and budget, content format,
// substitution and tool. They use the X3 parser, so this header pulls in the grammar;
// code that only reads snapshots can include registry.hpp alone.

#include <skillmd/storage/dedup.hpp>
#include <skillmd/model/dialect.hpp>
#include <skillmd/frontmatter/x3_parser.hpp>
#include <skillmd/storage/registry.hpp>
#include <skillmd/storage/sources/directory_source.hpp>
#include <skillmd/storage/sources/plugin_source.hpp>
#include <skillmd/system.hpp>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

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
    /// Folders outside the tiers that links in a tier may lead into (a dotfiles folder).
    /// Links between a preset's own tiers are always allowed; anything else is refused.
    std::vector<std::filesystem::path> allowed_roots;

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

/// A tier's options: links may lead into any of the preset's `tiers` and the folders
/// `at.allowed_roots` names, nowhere else.
inline directory_options contained(locations const& at, std::vector<std::string> tiers, directory_options o = {})
{
    o.allowed_roots = std::move(tiers);
    for (auto const& r : at.allowed_roots) o.allowed_roots.push_back(r.string());
    return o;
}

/// The settings a preset starts from: its listing policy, its tool, the tool's name in
/// error 4's message.
inline system_settings settings_for(index_formats::index_policy listing, skill_tool tool)
{
    system_settings s;
    s.listing = std::move(listing);
    s.tool = tool;
    s.invoke.tool_name = std::string(tool_name(tool));
    return s;
}

//------------------------------------------------------------------------------
/// Pegasus (seed 000, a design document): builtin `skills/` and user `data/skills/`, the
/// user tier wins; listed as `- name: description` within 2 % of the context window;
/// the model calls `use_skill`; content as `[Skill: name]`.
using pegasus_registry = basic_registry<parser, highest_tier_wins, directory_source, directory_source>;
using pegasus = basic_system<pegasus_registry, index_formats::pegasus, content_formats::pegasus>;
inline constexpr char const* pegasus_tiers[] = {"builtin", "user"};

inline pegasus make_pegasus(locations const& at = {}, validation_mode mode = validation_mode::lenient)
{
    auto const p = at.project_dir();
    auto settings = settings_for(index_formats::policies::pegasus(), skill_tool::use_skill);
    settings.invoke.unknown_skill_message = "Skill \"{}\" not found";
    settings.invoke.default_fork_agent = "general"; // the field table's default for `agent`
    auto const builtin = at.tier("builtin", p / "skills"), user = at.tier("user", p / "data" / "skills");
    auto const o = contained(at, {builtin, user});
    return pegasus(std::make_unique<pegasus_registry>(options_for(dialects::pegasus(), mode),
                                                      directory_source("builtin", builtin, o), directory_source("user", user, o)),
                   std::move(settings));
}

//------------------------------------------------------------------------------
/// Claude Code as reverse-engineered (seed 001): managed > user > project, the first tier
/// wins, the same file reached twice (a symlink) collapses silently; `- /name: description`
/// lines within 15,000 characters, stopping at the first that does not fit; the `Skill`
/// tool; content starting `Base directory for this skill: DIR`.
using claude_code_registry = basic_registry<parser, first_tier_wins, directory_source, directory_source, directory_source>;
using claude_code = basic_system<claude_code_registry, index_formats::claude_code, content_formats::claude_code>;
inline constexpr char const* claude_code_tiers[] = {"managed", "user", "project"};

inline claude_code make_claude_code(locations const& at = {}, validation_mode mode = validation_mode::lenient)
{
    auto const m = at.managed.empty() ? std::filesystem::path("/etc/claude-code") : at.managed;
    auto const managed = at.tier("managed", m / ".claude" / "skills"), user = at.tier("user", at.home_dir() / ".claude" / "skills"),
               project = at.tier("project", at.project_dir() / ".claude" / "skills");
    auto const o = contained(at, {managed, user, project}); // a project may link a user skill (inode dedup)
    return claude_code(
        std::make_unique<claude_code_registry>(options_for(dialects::claude_code(), mode),
                                               directory_source("managed", managed, o), directory_source("user", user, o),
                                               directory_source("project", project, o)),
        settings_for(index_formats::policies::claude_code(), skill_tool::skill));
}

//------------------------------------------------------------------------------
/// mycode (seed 002, a proposal for a coding agent): user, project, then plugins; a later
/// source replaces an earlier skill of the same name; plugin skills are `plugin:name`.
/// Listed like Claude Code; the `Skill` tool with `args`; a "Skill Activated" message.
using mycode_registry = basic_registry<parser, highest_tier_wins, directory_source, directory_source,
                                       plugin_source<directory_source>>;
using mycode = basic_system<mycode_registry, index_formats::claude_code, content_formats::mycode>;
inline constexpr char const* mycode_tiers[] = {"user", "project", "plugin"};

inline mycode make_mycode(locations const& at = {}, std::string plugin_name = "plugin",
                          validation_mode mode = validation_mode::lenient)
{
    auto const user = at.tier("user", at.home_dir() / ".mycode" / "skills"),
               project = at.tier("project", at.project_dir() / ".mycode" / "skills"),
               plugin = at.tier("plugin", at.home_dir() / ".mycode" / "plugins" / "skills");
    auto const o = contained(at, {user, project, plugin});
    return mycode(std::make_unique<mycode_registry>(
                      options_for(dialects::mycode(), mode), directory_source("user", user, o),
                      directory_source("project", project, o),
                      plugin_source<directory_source>(std::move(plugin_name), directory_source("plugin", plugin, o))),
                  [] {
                      auto s = settings_for(index_formats::policies::claude_code(), skill_tool::skill_with_args);
                      s.invoke.unknown_skill_message = "Skill not found: {}";
                      return s;
                  }());
}

//------------------------------------------------------------------------------
/// sven (seed 004, a design document): six nested roots by increasing precedence, the
/// command is the path, 256 KB per file; an `<available_skills>` XML index within 30,000
/// characters (`always` skills bypass it); `load_skill`; content with the base
/// directory, bundled files and sub-skills. `/sven_plan` finds `sven/plan`.
using sven_registry = basic_registry<parser, highest_tier_wins, directory_source, directory_source, directory_source,
                                     directory_source, directory_source, directory_source>;
using sven = basic_system<sven_registry, index_formats::sven, content_formats::sven>;
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
    std::vector<std::string> dirs;
    std::filesystem::path const defaults[] = {h / ".sven", h / ".agents", h / ".claude", p / ".agents", p / ".claude", p / ".sven"};
    for (std::size_t i = 0; i < 6; ++i) dirs.push_back(at.tier(sven_tiers[i], defaults[i] / "skills"));
    auto const o = contained(at, dirs, sven_layout());
    auto settings = settings_for(index_formats::policies::sven(), skill_tool::load_skill);
    settings.invoke.match_sanitized = true;
    return sven(std::make_unique<sven_registry>(
                    options_for(dialects::sven(), mode), directory_source(sven_tiers[0], dirs[0], o),
                    directory_source(sven_tiers[1], dirs[1], o), directory_source(sven_tiers[2], dirs[2], o),
                    directory_source(sven_tiers[3], dirs[3], o), directory_source(sven_tiers[4], dirs[4], o),
                    directory_source(sven_tiers[5], dirs[5], o)),
                std::move(settings));
}

//------------------------------------------------------------------------------
/// The Agent Skills specification's client guide: user `~/.agents/skills` and project
/// `.agents/skills`, project overriding user; directories searched like Codex (depth 6,
/// 2,000 directories per root); lenient loading; the reference tool's
/// `<available_skills>` XML; skills loaded with `load_skill`.
using agent_skills_registry = basic_registry<parser, highest_tier_wins, directory_source, directory_source>;
using agent_skills = basic_system<agent_skills_registry, index_formats::agent_skills, content_formats::agent_skills>;
inline constexpr char const* agent_skills_tiers[] = {"user", "project"};

inline agent_skills make_agent_skills(locations const& at = {}, validation_mode mode = validation_mode::lenient)
{
    auto const user = at.tier("user", at.home_dir() / ".agents" / "skills"),
               project = at.tier("project", at.project_dir() / ".agents" / "skills");
    directory_options nested;
    nested.layout = layout::nested;
    auto const o = contained(at, {user, project}, nested);
    return agent_skills(
        std::make_unique<agent_skills_registry>(options_for(dialects::agent_skills(), mode),
                                                directory_source("user", user, o), directory_source("project", project, o)),
        settings_for(index_formats::policies::agent_skills(), skill_tool::load_skill));
}

} // namespace skillmd::presets

#endif
