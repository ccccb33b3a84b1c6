// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_INVOKE_IMPL_SKILL_TOOL_TEXT_HPP
#define SKILLMD_INVOKE_IMPL_SKILL_TOOL_TEXT_HPP

// What each skill tool is called and says of itself and of its skill parameter, for
// tool_definition (invoke/tools.hpp).

#include <skillmd/invoke/skill_tool.hpp>

#include <string_view>

namespace skillmd {

namespace detail {

/// What a skill tool is called and says of itself and of its skill parameter.
struct skill_tool_text
{
    std::string_view tool, description, key, key_description;
};

inline skill_tool_text skill_tool_text_of(skill_tool kind)
{
    std::string_view tool, description, key, key_description;
    switch (kind) {
    case skill_tool::use_skill:
        tool = "use_skill";
        description = "Invoke a skill by name. Use when a task matches an available skill.";
        key = "skill";
        key_description = "Skill name";
        break;
    case skill_tool::load_skill:
        tool = "load_skill";
        description = "Load the full instructions for a skill by name.";
        key = "name";
        key_description = "The skill's name (its command)";
        break;
    case skill_tool::skill:
        tool = "Skill";
        description = "Execute a skill within the main conversation.";
        key = "skill";
        key_description = "The skill name (no arguments). E.g., \"pdf\" or \"xlsx\"";
        break;
    case skill_tool::skill_with_args:
        tool = "Skill";
        description = "Execute a skill within the main conversation.\n\n"
                      "Skills are specialized capabilities that provide domain expertise.\n"
                      "When the task matches a skill's purpose, invoke it to leverage\n"
                      "specialized knowledge and workflows.\n\n"
                      "Parameters:\n"
                      "- skill: The skill name (e.g., \"test-plan-generator\")\n"
                      "- args: Optional arguments (e.g., \"--release 2.0.0\")\n\n"
                      "Available skills are loaded from:\n"
                      "- ~/.mycode/skills/\n"
                      "- Project .mycode/skills/\n"
                      "- Installed plugins\n\n"
                      "Use this when the current task aligns with an available skill.\n";
        key = "skill";
        key_description = "The skill name";
        break;
    case skill_tool::activate_skill:
        tool = "activate_skill";
        description = "Activate a skill by name: returns its instructions and the files it holds.";
        key = "name";
        key_description = "The skill's name";
        break;
    case skill_tool::skill_lowercase:
        tool = "skill";
        description = "Load a skill's instructions by name when a task fits its description.";
        key = "name";
        key_description = "The skill's name";
        break;
    }
    return {tool, description, key, key_description};
}

} // namespace detail

} // namespace skillmd

#endif
