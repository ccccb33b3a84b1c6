// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_INVOKE_SKILL_TOOL_HPP
#define SKILLMD_INVOKE_SKILL_TOOL_HPP

// Which tool a system's model calls to ask for a skill, and the tool's name. Its JSON
// schema is in invoke/tools.hpp (Boost.JSON); this header needs nothing.

#include <cstdint>
#include <string_view>

namespace skillmd {

enum class skill_tool : std::uint8_t {
    use_skill,  ///< Pegasus: `use_skill({skill, args?})`
    load_skill, ///< koshi and sven: `load_skill({name})`
    skill,      ///< Claude Code: `Skill({skill})`, the name alone
    skill_with_args, ///< mycode: `Skill({skill, args?})`, with the document's whole description
    activate_skill,  ///< Gemini CLI: `activate_skill({name})`
    skill_lowercase, ///< opencode: `skill({name})`
};

/// The name the model calls the tool by.
inline constexpr std::string_view tool_name(skill_tool kind) noexcept
{
    switch (kind) {
    case skill_tool::use_skill: return "use_skill";
    case skill_tool::load_skill: return "load_skill";
    case skill_tool::skill:
    case skill_tool::skill_with_args: return "Skill";
    case skill_tool::activate_skill: return "activate_skill";
    case skill_tool::skill_lowercase: return "skill";
    }
    return "Skill";
}

} // namespace skillmd

#endif
