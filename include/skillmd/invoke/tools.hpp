// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_INVOKE_TOOLS_HPP
#define SKILLMD_INVOKE_TOOLS_HPP

// Tool definitions: the JSON schema of the tool through which a model asks
// for a skill, with the skill parameter constrained to the names it may invoke now.
// Boost.JSON values; link Boost::json.

#include <skillmd/invoke/skill_tool.hpp>
#include <skillmd/invoke/impl/skill_tool_text.hpp>
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
