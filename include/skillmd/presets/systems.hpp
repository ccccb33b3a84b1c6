// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_PRESETS_SYSTEMS_HPP
#define SKILLMD_PRESETS_SYSTEMS_HPP

// Presets: each system skillmd reproduces as one `basic_system` type: its tiers and
// layout, dialect and mode, collision rule, index format and budget, content format,
// substitution and tool, and a `make_*` function that builds it. They use the X3 parser
// (compiled where the make_* functions are: see config.hpp for compile-once).

#include <skillmd/config.hpp>
#include <skillmd/presets/registries.hpp>
#include <skillmd/system.hpp>

#include <string>

namespace skillmd::presets {

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

/// Pegasus (Pegasus, a design document): builtin `skills/` and user `data/skills/`, the
/// user tier wins; listed as `- name: description` within 2 % of the context window;
/// the model calls `use_skill`; content as `[Skill: name]`.
using pegasus = basic_system<pegasus_registry, index_formats::pegasus, content_formats::pegasus>;
SKILLMD_DECL pegasus make_pegasus(locations const& at = {}, validation_mode mode = validation_mode::lenient);

/// Claude Code, as reverse-engineered: managed > user > project, the first tier
/// wins, the same file reached twice (a symlink) collapses silently; `- /name: description`
/// lines within 15,000 characters, stopping at the first that does not fit; the `Skill`
/// tool; content starting `Base directory for this skill: DIR`.
using claude_code = basic_system<claude_code_registry, index_formats::claude_code, content_formats::claude_code>;
SKILLMD_DECL claude_code make_claude_code(locations const& at = {}, validation_mode mode = validation_mode::lenient);

/// mycode (mycode, a proposal for a coding agent): user, project, then plugins; a later
/// source replaces an earlier skill of the same name; plugin skills are `plugin:name`.
/// Listed like Claude Code; the `Skill` tool with `args`; a "Skill Activated" message.
using mycode = basic_system<mycode_registry, index_formats::claude_code, content_formats::mycode>;
SKILLMD_DECL mycode make_mycode(locations const& at = {}, std::string plugin_name = "plugin",
                          validation_mode mode = validation_mode::lenient);

/// sven (sven, a design document): six nested roots by increasing precedence, the
/// command is the path, 256 KB per file; an `<available_skills>` XML index within 30,000
/// characters (`always` skills bypass it); `load_skill`; content with the base
/// directory, bundled files and sub-skills. `/sven_plan` finds `sven/plan`.
using sven = basic_system<sven_registry, index_formats::sven, content_formats::sven>;
SKILLMD_DECL sven make_sven(locations const& at = {}, validation_mode mode = validation_mode::lenient);

/// The Agent Skills specification's client guide: user `~/.agents/skills` and project
/// `.agents/skills`, project overriding user; directories searched like Codex (depth 6,
/// 2,000 directories per root); lenient loading; the reference tool's
/// `<available_skills>` XML; skills loaded with `load_skill`.
using agent_skills = basic_system<agent_skills_registry, index_formats::agent_skills, content_formats::agent_skills>;
SKILLMD_DECL agent_skills make_agent_skills(locations const& at = {}, validation_mode mode = validation_mode::lenient);

// Today's agents, each reproducing one released version byte for byte in its index
// (checked against captures of the real program's model request; see the README).
// Their listing prose is skillmd's own unless the caller passes the product's text
// through the format's `prose` (`make_*(at, mode, format)`).

/// Claude Code 2.1 (2.1.328): managed > user > project, the first tier wins; one level
/// of folders (`SKILL.md` in `<tier>/<name>/`); `- name: description - when_to_use`,
/// only `< >` escaped, line breaks kept, ordered by tier then name, 1,536 code points per
/// entry, 1 % of the context window; `disable-model-invocation` skills not listed.
using claude_code_2_1 = basic_system<claude_code_2_1_registry, index_formats::claude_code_2_1, content_formats::claude_code>;
SKILLMD_DECL claude_code_2_1 make_claude_code_2_1(locations const& at = {}, validation_mode mode = validation_mode::lenient,
                                                  index_formats::claude_code_2_1 format = {});

/// Codex 0.169: `.codex/skills` and `.agents/skills` of the project, `~/.codex/skills`,
/// `~/.agents/skills`, `~/.codex/skills/.system`, `/etc/codex/skills`, searched 6 levels
/// deep; every copy of a name is listed (project scope first, then name, then path), by a
/// short `rN/` path into a roots table; descriptions cut at 1,024 code points; nothing
/// escaped; 2 % of the context window, descriptions shortened before skills are dropped.
using codex_0_169 = basic_system<codex_0_169_registry, index_formats::codex_0_169, content_formats::codex_0_169>;
SKILLMD_DECL codex_0_169 make_codex_0_169(locations const& at = {}, validation_mode mode = validation_mode::lenient,
                                          index_formats::codex_0_169 format = {});

/// Gemini CLI 0.61: `~/.gemini/skills` < `~/.agents/skills` < `.gemini/skills` <
/// `.agents/skills`, the later wins with a warning per loser; `SKILL.md` one folder
/// deep; the `<available_skills>` block with text embedded raw; sorted by name (Gemini's
/// own order is the file system's, which varies); the `activate_skill` tool.
using gemini_cli_0_61 = basic_system<gemini_cli_0_61_registry, index_formats::gemini_cli_0_61, content_formats::gemini_cli_0_61>;
SKILLMD_DECL gemini_cli_0_61 make_gemini_cli_0_61(locations const& at = {}, validation_mode mode = validation_mode::lenient,
                                                  index_formats::gemini_cli_0_61 format = {});

/// opencode 1.18: `~/.claude/skills`, `~/.agents/skills`, the project's `.claude/skills`
/// and `.agents/skills`, then `~/.config/opencode/skill(s)` and `.opencode/skill(s)`,
/// any depth; a later tier wins (opencode keeps whichever copy it parsed last, which
/// varies); sorted by name as `localeCompare` sorts; name and description raw, the
/// location escaped; the `skill` tool.
using opencode_1_18 = basic_system<opencode_1_18_registry, index_formats::opencode_1_18, content_formats::agent_skills>;
SKILLMD_DECL opencode_1_18 make_opencode_1_18(locations const& at = {}, validation_mode mode = validation_mode::lenient,
                                              index_formats::opencode_1_18 format = {});

} // namespace skillmd::presets

// The preset systems, compiled once in <skillmd/src.hpp> under SKILLMD_SEPARATE_COMPILATION.
#define SKILLMD_PRESET_SYSTEMS(X) \
    X(skillmd::basic_system<skillmd::presets::pegasus_registry, skillmd::index_formats::pegasus, skillmd::content_formats::pegasus>) \
    X(skillmd::basic_system<skillmd::presets::claude_code_registry, skillmd::index_formats::claude_code, skillmd::content_formats::claude_code>) \
    X(skillmd::basic_system<skillmd::presets::mycode_registry, skillmd::index_formats::claude_code, skillmd::content_formats::mycode>) \
    X(skillmd::basic_system<skillmd::presets::sven_registry, skillmd::index_formats::sven, skillmd::content_formats::sven>) \
    X(skillmd::basic_system<skillmd::presets::agent_skills_registry, skillmd::index_formats::agent_skills, skillmd::content_formats::agent_skills>) \
    X(skillmd::basic_system<skillmd::presets::claude_code_registry, skillmd::index_formats::claude_code_2_1, skillmd::content_formats::claude_code>) \
    X(skillmd::basic_system<skillmd::presets::codex_0_169_registry, skillmd::index_formats::codex_0_169, skillmd::content_formats::codex_0_169>) \
    X(skillmd::basic_system<skillmd::presets::gemini_cli_0_61_registry, skillmd::index_formats::gemini_cli_0_61, skillmd::content_formats::gemini_cli_0_61>) \
    X(skillmd::basic_system<skillmd::presets::opencode_1_18_registry, skillmd::index_formats::opencode_1_18, skillmd::content_formats::agent_skills>)
#ifdef SKILLMD_SEPARATE_COMPILATION
SKILLMD_PRESET_SYSTEMS(SKILLMD_EXTERN_TEMPLATE)
#else
#include <skillmd/presets/impl/systems.ipp>
#endif

#endif
