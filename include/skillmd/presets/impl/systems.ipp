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
    settings.invoke.approval_step = false;
    auto const builtin = at.tier("builtin", p / "skills"), user = at.tier("user", p / "data" / "skills");
    auto const o = contained(at, {builtin, user});
    return pegasus(std::make_unique<pegasus_registry>(options_for(dialects::pegasus(), mode, at),
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
        std::make_unique<claude_code_registry>(options_for(dialects::claude_code(), mode, at),
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
                      options_for(dialects::mycode(), mode, at), directory_source("user", user, o),
                      directory_source("project", project, o),
                      plugin_source<directory_source>(std::move(plugin_name), directory_source("plugin", plugin, o))),
                  [] {
                      auto s = settings_for(index_formats::policies::claude_code(), skill_tool::skill_with_args);
                      s.invoke.unknown_skill_message = "Skill not found: {}";
                      s.invoke.approval_step = false;
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
    settings.invoke.approval_step = false;
    return sven(std::make_unique<sven_registry>(
                    options_for(dialects::sven(), mode, at), directory_source(sven_tiers[0], dirs[0], o),
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
        std::make_unique<agent_skills_registry>(options_for(dialects::agent_skills(), mode, at),
                                                directory_source("user", user, o), directory_source("project", project, o)),
        settings_for(index_formats::policies::agent_skills(), skill_tool::load_skill));
}

SKILLMD_DECL claude_code_2_1 make_claude_code_2_1(locations const& at, validation_mode mode,
                                                  index_formats::claude_code_2_1 format)
{
    auto const m = at.managed.empty() ? std::filesystem::path("/etc/claude-code") : at.managed;
    auto const managed = at.tier("managed", m / ".claude" / "skills"), user = at.tier("user", at.home_dir() / ".claude" / "skills"),
               project = at.tier("project", at.project_dir() / ".claude" / "skills");
    auto const o = contained(at, {managed, user, project});
    return claude_code_2_1(
        std::make_unique<claude_code_2_1_registry>(options_for(dialects::claude_code_2_1(), mode, at),
                                                   directory_source("managed", managed, o), directory_source("user", user, o),
                                                   directory_source("project", project, o)),
        settings_for(index_formats::policies::claude_code_2_1(), skill_tool::skill), std::move(format));
}

namespace detail {

/// A tier directory as an absolute, lexically normal path without a trailing `/`, so
/// the paths of its skills start with it (Codex's roots table depends on that).
inline std::string absolute_root(std::string const& dir)
{
    std::error_code ec;
    std::filesystem::path p = std::filesystem::absolute(dir, ec);
    if (ec) p = dir;
    std::string s = p.lexically_normal().string();
    while (s.size() > 1 && s.back() == '/') s.pop_back();
    return s;
}

} // namespace detail

SKILLMD_DECL codex_0_169 make_codex_0_169(locations const& at, validation_mode mode, index_formats::codex_0_169 format)
{
    auto const h = at.home_dir(), p = at.project_dir();
    std::filesystem::path const defaults[] = {p / ".codex" / "skills", h / ".codex" / "skills", h / ".agents" / "skills",
                                              h / ".codex" / "skills" / ".system", "/etc/codex/skills",
                                              p / ".agents" / "skills"};
    std::vector<std::string> dirs;
    for (std::size_t i = 0; i < 6; ++i) dirs.push_back(detail::absolute_root(at.tier(codex_0_169_tiers[i], defaults[i])));
    directory_options nested;
    nested.layout = layout::nested; // 6 levels, 2,000 folders per root: Codex's limits are the defaults
    auto const o = contained(at, dirs, nested);
    auto user_codex = o;
    user_codex.skip.push_back(".system"); // the system tier lives inside ~/.codex/skills
    format.roots.clear();
    for (std::size_t i = 0; i < 6; ++i) format.roots.push_back({codex_0_169_tiers[i], dirs[i]});
    auto settings = settings_for(index_formats::policies::codex_0_169(), skill_tool::load_skill);
    return codex_0_169(std::make_unique<codex_0_169_registry>(
                           options_for(dialects::codex_0_169(), mode, at), directory_source(codex_0_169_tiers[0], dirs[0], o),
                           directory_source(codex_0_169_tiers[1], dirs[1], user_codex), directory_source(codex_0_169_tiers[2], dirs[2], o),
                           directory_source(codex_0_169_tiers[3], dirs[3], o), directory_source(codex_0_169_tiers[4], dirs[4], o),
                           directory_source(codex_0_169_tiers[5], dirs[5], o)),
                       std::move(settings), std::move(format));
}

SKILLMD_DECL gemini_cli_0_61 make_gemini_cli_0_61(locations const& at, validation_mode mode,
                                                  index_formats::gemini_cli_0_61 format)
{
    auto const h = at.home_dir(), p = at.project_dir();
    std::filesystem::path const defaults[] = {h / ".gemini" / "skills", h / ".agents" / "skills", p / ".gemini" / "skills",
                                              p / ".agents" / "skills"};
    std::vector<std::string> dirs;
    for (std::size_t i = 0; i < 4; ++i) dirs.push_back(at.tier(gemini_cli_0_61_tiers[i], defaults[i]));
    auto const o = contained(at, dirs); // flat: `*/SKILL.md`, one level
    return gemini_cli_0_61(std::make_unique<gemini_cli_0_61_registry>(
                               options_for(dialects::gemini_cli_0_61(), mode, at), directory_source(gemini_cli_0_61_tiers[0], dirs[0], o),
                               directory_source(gemini_cli_0_61_tiers[1], dirs[1], o),
                               directory_source(gemini_cli_0_61_tiers[2], dirs[2], o),
                               directory_source(gemini_cli_0_61_tiers[3], dirs[3], o)),
                           settings_for(index_formats::policies::gemini_cli_0_61(), skill_tool::activate_skill),
                           std::move(format));
}

SKILLMD_DECL opencode_1_18 make_opencode_1_18(locations const& at, validation_mode mode, index_formats::opencode_1_18 format)
{
    auto const h = at.home_dir(), p = at.project_dir();
    std::filesystem::path const defaults[] = {h / ".claude" / "skills", h / ".agents" / "skills", p / ".claude" / "skills",
                                              p / ".agents" / "skills", h / ".config" / "opencode" / "skill",
                                              h / ".config" / "opencode" / "skills", p / ".opencode" / "skill",
                                              p / ".opencode" / "skills"};
    std::vector<std::string> dirs;
    for (std::size_t i = 0; i < 8; ++i) dirs.push_back(at.tier(opencode_1_18_tiers[i], defaults[i]));
    auto const o = contained(at, dirs, sven_layout()); // any depth
    return opencode_1_18(
        std::make_unique<opencode_1_18_registry>(
            options_for(dialects::opencode_1_18(), mode, at), directory_source(opencode_1_18_tiers[0], dirs[0], o),
            directory_source(opencode_1_18_tiers[1], dirs[1], o), directory_source(opencode_1_18_tiers[2], dirs[2], o),
            directory_source(opencode_1_18_tiers[3], dirs[3], o), directory_source(opencode_1_18_tiers[4], dirs[4], o),
            directory_source(opencode_1_18_tiers[5], dirs[5], o), directory_source(opencode_1_18_tiers[6], dirs[6], o),
            directory_source(opencode_1_18_tiers[7], dirs[7], o)),
        settings_for(index_formats::policies::opencode_1_18(), skill_tool::skill_lowercase), std::move(format));
}

} // namespace skillmd::presets

#endif
