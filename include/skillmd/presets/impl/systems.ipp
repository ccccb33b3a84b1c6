// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_PRESETS_IMPL_SYSTEMS_IPP
#define SKILLMD_PRESETS_IMPL_SYSTEMS_IPP

// The make_* functions of the presets: each system's tier directories, settings and
// sources, put together.

#include <skillmd/presets/systems.hpp>

#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace skillmd::presets {

SKILLMD_DECL pegasus make_pegasus(locations const& at, validation_mode mode)
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

SKILLMD_DECL claude_code make_claude_code(locations const& at, validation_mode mode)
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

SKILLMD_DECL mycode make_mycode(locations const& at, std::string plugin_name,
                              validation_mode mode)
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

SKILLMD_DECL sven make_sven(locations const& at, validation_mode mode)
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

SKILLMD_DECL agent_skills make_agent_skills(locations const& at, validation_mode mode)
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
