// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_PRESETS_REGISTRIES_HPP
#define SKILLMD_PRESETS_REGISTRIES_HPP

// The presets' registries: where each system looks (`locations`, its tiers and their
// layout), its dialect and collision rule, as one `basic_registry` type each. The whole
// systems, with their formats and settings, are in presets/systems.hpp.

#include <skillmd/config.hpp>
#include <skillmd/storage/dedup.hpp>
#include <skillmd/validation/dialect.hpp>
#include <skillmd/frontmatter/x3_parser.hpp>
#include <skillmd/storage/registry.hpp>
#include <skillmd/storage/sources/directory_source.hpp>
#include <skillmd/storage/sources/plugin_source.hpp>

#include <cstdlib>
#include <filesystem>
#include <map>
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
    std::filesystem::path managed;    ///< Claude Code's managed (policy) settings directory
    std::map<std::string, std::filesystem::path> overrides;
    /// Folders outside the tiers that links in a tier may lead into (a dotfiles folder).
    /// Links between a preset's own tiers are always allowed; anything else is refused.
    std::vector<std::filesystem::path> allowed_roots;
    /// Operators' on/off rules (user settings, then project settings); see storage/overrides.hpp.
    skillmd::overrides skill_overrides;

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
/// The same, with the operators' overrides of `at`.
inline registry_options options_for(dialect d, validation_mode mode, locations const& at)
{
    registry_options o = options_for(std::move(d), mode);
    o.overrides = at.skill_overrides;
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

using pegasus_registry = basic_registry<parser, highest_tier_wins, directory_source, directory_source>;
inline constexpr char const* pegasus_tiers[] = {"builtin", "user"};

using claude_code_registry = basic_registry<parser, first_tier_wins, directory_source, directory_source, directory_source>;
inline constexpr char const* claude_code_tiers[] = {"managed", "user", "project"};

using mycode_registry = basic_registry<parser, highest_tier_wins, directory_source, directory_source,
                                       plugin_source<directory_source>>;
inline constexpr char const* mycode_tiers[] = {"user", "project", "plugin"};

using sven_registry = basic_registry<parser, highest_tier_wins, directory_source, directory_source, directory_source,
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

using agent_skills_registry = basic_registry<parser, highest_tier_wins, directory_source, directory_source>;
inline constexpr char const* agent_skills_tiers[] = {"user", "project"};

// Today's agents (captured versions; see presets/systems.hpp).

/// Claude Code 2.1 looks where the published-design preset looks: managed, user, project.
using claude_code_2_1_registry = claude_code_registry;

/// Codex 0.169: every copy of a name is kept. The tiers are in the order Codex collects
/// its roots (the project's config folder, the user's folders, system, admin, then the
/// project's `.agents`): the roots table numbers them so, and of one file reached
/// through two roots the first root's copy stays. The listing orders by scope instead.
using codex_0_169_registry = basic_registry<parser, keep_every_copy, directory_source, directory_source, directory_source,
                                      directory_source, directory_source, directory_source>;
inline constexpr char const* codex_0_169_tiers[] = {"project-codex", "user-codex", "user-agents", "system", "admin", "project-agents"};

/// Gemini CLI 0.61: by increasing precedence; a later tier wins, each loser a warning.
using gemini_cli_0_61_registry = basic_registry<parser, highest_tier_wins_warned, directory_source, directory_source,
                                           directory_source, directory_source>;
inline constexpr char const* gemini_cli_0_61_tiers[] = {"user-gemini", "user-agents", "project-gemini", "project-agents"};

/// opencode 1.18: in the order opencode scans them; a later tier wins.
using opencode_1_18_registry = basic_registry<parser, highest_tier_wins, directory_source, directory_source, directory_source,
                                         directory_source, directory_source, directory_source, directory_source,
                                         directory_source>;
inline constexpr char const* opencode_1_18_tiers[] = {"user-claude",          "user-agents",          "project-claude",
                                                 "project-agents",       "user-opencode-skill",  "user-opencode-skills",
                                                 "project-opencode-skill", "project-opencode-skills"};

} // namespace skillmd::presets

// The distinct preset registries, compiled once in <skillmd/src.hpp> under
// SKILLMD_SEPARATE_COMPILATION (pegasus and agent_skills share one type).
#define SKILLMD_PRESET_REGISTRIES(X) \
    X(skillmd::basic_registry<skillmd::frontmatter::x3_parser, skillmd::highest_tier_wins, skillmd::directory_source, skillmd::directory_source>) \
    X(skillmd::basic_registry<skillmd::frontmatter::x3_parser, skillmd::first_tier_wins, skillmd::directory_source, skillmd::directory_source, skillmd::directory_source>) \
    X(skillmd::basic_registry<skillmd::frontmatter::x3_parser, skillmd::highest_tier_wins, skillmd::directory_source, skillmd::directory_source, skillmd::plugin_source<skillmd::directory_source>>) \
    X(skillmd::basic_registry<skillmd::frontmatter::x3_parser, skillmd::highest_tier_wins, skillmd::directory_source, skillmd::directory_source, skillmd::directory_source, skillmd::directory_source, skillmd::directory_source, skillmd::directory_source>) \
    X(skillmd::basic_registry<skillmd::frontmatter::x3_parser, skillmd::keep_every_copy, skillmd::directory_source, skillmd::directory_source, skillmd::directory_source, skillmd::directory_source, skillmd::directory_source, skillmd::directory_source>) \
    X(skillmd::basic_registry<skillmd::frontmatter::x3_parser, skillmd::highest_tier_wins_warned, skillmd::directory_source, skillmd::directory_source, skillmd::directory_source, skillmd::directory_source>) \
    X(skillmd::basic_registry<skillmd::frontmatter::x3_parser, skillmd::highest_tier_wins, skillmd::directory_source, skillmd::directory_source, skillmd::directory_source, skillmd::directory_source, skillmd::directory_source, skillmd::directory_source, skillmd::directory_source, skillmd::directory_source>)
#ifdef SKILLMD_SEPARATE_COMPILATION
SKILLMD_PRESET_REGISTRIES(SKILLMD_EXTERN_TEMPLATE)
#endif

#endif
