// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_INVOKE_TOOLS_HPP
#define SKILLMD_INVOKE_TOOLS_HPP

// Tool definitions: the JSON schema of the tool through which a model asks
// for a skill, with the skill parameter constrained to the names it may invoke now.
// Boost.JSON values; link Boost::json.

#include <skillmd/invoke/skill_tool.hpp>
#include <skillmd/storage/registry.hpp>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace skillmd {

/// The commands the model may invoke in `snap`, in order.
inline std::vector<std::string> invocable_names(snapshot const& snap)
{
    std::vector<std::string> out;
    for (auto const* r : snap.list(visibility::model)) out.push_back(r->command.str());
    return out;
}

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

/** The tool's definition: `{"name", "description", "input_schema"}` where the schema
    is a JSON Schema object whose skill parameter is an `enum` of `names`.
*/
inline boost::json::object tool_definition(skill_tool kind, std::vector<std::string> const& names)
{
    boost::json::array allowed;
    for (auto const& n : names) allowed.emplace_back(n);
    auto const [tool, description, key, key_description] = detail::skill_tool_text_of(kind);
    boost::json::object properties;
    properties[key] = boost::json::object{{"type", "string"}, {"description", key_description}, {"enum", std::move(allowed)}};
    if (kind == skill_tool::use_skill || kind == skill_tool::skill_with_args)
        properties["args"] = boost::json::object{{"type", "string"}, {"description", "Arguments to pass to the skill"}};
    boost::json::object schema{{"type", "object"},
                               {"properties", std::move(properties)},
                               {"required", boost::json::array{key}},
                               {"additionalProperties", false}};
    return boost::json::object{{"name", tool}, {"description", description}, {"input_schema", std::move(schema)}};
}

inline boost::json::object tool_definition(skill_tool kind, snapshot const& snap)
{
    return tool_definition(kind, invocable_names(snap));
}

/// koshi's database tools.
enum class db_tool : std::uint8_t { create_skill, update_skill, delete_skill, list_skills };

/// The tool's definition, `{"name", "description", "input_schema"}`, with koshi's
/// parameters; `update_skill` requires only the name (a partial update).
inline boost::json::object tool_definition(db_tool kind)
{
    auto const str = [](std::string_view d) { return boost::json::object{{"type", "string"}, {"description", d}}; };
    boost::json::object props;
    boost::json::array required;
    std::string_view tool, description;
    auto const fields = [&] {
        props["description"] = str("One sentence: what the skill does, shown in the skill index");
        props["triggers"] = boost::json::object{{"type", "array"},
                                                {"items", boost::json::object{{"type", "string"}}},
                                                {"description", "Words or phrases that activate the skill"}};
        props["content"] = str("The Markdown instructions (no frontmatter)");
    };
    switch (kind) {
    case db_tool::create_skill:
        tool = "create_skill";
        description = "Create a new skill in the database. Fails if a file skill or a database skill with the same name exists.";
        props["name"] = str("Kebab-case name, unique across files and database");
        fields();
        required = {"name", "description", "triggers", "content"};
        break;
    case db_tool::update_skill:
        tool = "update_skill";
        description = "Update a database skill; only the fields given change. File skills cannot be changed.";
        props["name"] = str("The database skill to change");
        fields();
        required = {"name"};
        break;
    case db_tool::delete_skill:
        tool = "delete_skill";
        description = "Delete a database skill. File skills cannot be deleted.";
        props["name"] = str("The database skill to delete");
        required = {"name"};
        break;
    case db_tool::list_skills:
        tool = "list_skills";
        description = "List every skill with its metadata (name, description, triggers, tools, source), without bodies.";
        break;
    }
    boost::json::object schema{{"type", "object"},
                               {"properties", std::move(props)},
                               {"required", std::move(required)},
                               {"additionalProperties", false}};
    return boost::json::object{{"name", tool}, {"description", description}, {"input_schema", std::move(schema)}};
}

} // namespace skillmd

#endif
