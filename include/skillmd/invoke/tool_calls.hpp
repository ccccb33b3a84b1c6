// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_INVOKE_TOOL_CALLS_HPP
#define SKILLMD_INVOKE_TOOL_CALLS_HPP

// Tool-call routing: a model's tool call (JSON) in, a checked request out; invocations
// and index results out as JSON. Boost.JSON does the parsing and the quoting. Nothing
// here throws: a bad call is an error string, and model text is hostile input.

#include <skillmd/index/render.hpp>
#include <skillmd/invoke/invocation.hpp>
#include <skillmd/invoke/tools.hpp>
#include <skillmd/invoke/tool_call_result.hpp>
#include <skillmd/invoke/impl/tool_call_reader.hpp>

#include <boost/json/object.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace skillmd {

/** Reads a tool call that is already JSON. Accepted envelopes: `{"name", "input"}`
    (Anthropic's tool_use block), `{"name", "arguments"}` with `arguments` an object or
    a JSON string (OpenAI function calls, MCP `tools/call`), and `{"function": {...}}`.
    `Skill` takes `args` only when `skill_variant` is `skill_with_args` (mycode);
    Claude Code's has `skill` alone. Unknown parameters, missing or mistyped ones, unknown
    tools and over-long names are refused.
*/
inline tool_call_result parse_tool_call(boost::json::value const& v, skill_tool skill_variant = skill_tool::skill,
                                        tool_call_limits const& limits = {})
{
    auto const* env = v.if_object();
    if (!env) return detail::refuse("a tool call must be a JSON object");
    if (auto const* f = env->if_contains("function"); f && f->is_object() && !env->contains("name"))
        return parse_tool_call(*f, skill_variant, limits);
    auto const* name = env->if_contains("name");
    if (!name || !name->is_string()) return detail::refuse("a tool call needs the tool's \"name\" as a string");
    std::string_view const tool(name->get_string());
    auto const shape = detail::shape_of(tool, skill_variant);
    if (!shape) return detail::refuse("unknown tool \"" + detail::shown_in_error(tool) + "\"");

    boost::json::value parsed_arguments; // when `arguments` is a JSON string
    boost::json::object const* input = nullptr;
    if (auto bad = detail::tool_input(*env, limits, parsed_arguments, input)) return detail::refuse(std::move(*bad));
    if (!input) return detail::refuse("the input of " + std::string(tool) + " must be a JSON object");

    tool_call call;
    call.tool = std::string(tool);
    call.skill_kind = shape->skill_kind;
    call.db_kind = shape->db_kind;
    for (auto const& kv : *input)
        if (auto bad = detail::read_parameter(kv, *input, *shape, call, limits)) return detail::refuse(std::move(*bad));
    if (shape->key_required && !input->contains(shape->key))
        return detail::refuse(call.tool + " needs the parameter \"" + std::string(shape->key) + "\"");
    if (call.db_kind == db_tool::create_skill && (!call.description || !call.content || !call.triggers))
        return detail::refuse("create_skill needs \"description\", \"triggers\" and \"content\"");
    return {std::move(call), {}};
}

/// Reads a tool call from its JSON text (at most `limits.max_bytes`).
inline tool_call_result parse_tool_call(std::string_view json, skill_tool skill_variant = skill_tool::skill,
                                        tool_call_limits const& limits = {})
{
    if (json.size() > limits.max_bytes)
        return detail::refuse("the tool call is " + std::to_string(json.size()) + " bytes; the limit is " +
                              std::to_string(limits.max_bytes));
    std::error_code ec;
    boost::json::parse_options po;
    po.max_depth = limits.max_depth;
    auto const v = boost::json::parse(json, ec, {}, po);
    if (ec) return detail::refuse("the tool call is not valid JSON: " + ec.message());
    return parse_tool_call(v, skill_variant, limits);
}

inline tool_call_result parse_tool_call(char const* json, skill_tool skill_variant = skill_tool::skill,
                                        tool_call_limits const& limits = {})
{
    return parse_tool_call(std::string_view(json), skill_variant, limits);
}

/// A list of strings as a JSON array.
inline boost::json::array to_json(std::vector<std::string> const& items)
{
    boost::json::array a;
    a.reserve(items.size());
    for (auto const& s : items) a.emplace_back(s);
    return a;
}

/** An invocation as JSON: `status` (run, needs_approval, denied, failed), `error_code`,
    `message`, `not_a_skill`, `command`, `tier`, `caller`, `mode`, `agent`, `model`,
    `allowed_tools`, `permission` (null when validation failed before the rules were
    asked), `permission_message`, `arguments`, `content`.
*/
inline boost::json::object to_json(invocation const& inv)
{
    boost::json::object o;
    o["status"] = to_string(inv.status());
    o["error_code"] = static_cast<int>(inv.error);
    o["message"] = inv.message;
    o["not_a_skill"] = inv.not_a_skill;
    o["command"] = inv.command;
    o["tier"] = inv.record ? boost::json::value(inv.record->tier.view()) : boost::json::value(nullptr);
    o["caller"] = to_string(inv.who);
    o["mode"] = to_string(inv.mode);
    o["agent"] = inv.agent ? boost::json::value(*inv.agent) : boost::json::value(nullptr);
    o["model"] = inv.model ? boost::json::value(*inv.model) : boost::json::value(nullptr);
    o["allowed_tools"] = to_json(inv.allowed_tools);
    bool const decided = inv.error == invoke_error::none || inv.error == invoke_error::permission_denied;
    o["permission"] = decided ? boost::json::value(to_string(inv.permission.behavior)) : boost::json::value(nullptr);
    o["permission_message"] = decided ? inv.permission.message : std::string();
    o["arguments"] = inv.loaded.arguments;
    o["content"] = inv.content;
    return o;
}

/// An index result as JSON: `format`, `budget` (null: none), `used`, `listed`,
/// `shortened`, `omitted`, `text`.
inline boost::json::object to_json(index_result const& r, std::string_view format)
{
    boost::json::object o;
    o["format"] = format;
    o["budget"] = r.budget == index_summary::unlimited ? boost::json::value(nullptr) : boost::json::value(r.budget);
    o["used"] = r.used;
    o["listed"] = to_json(r.listed);
    o["shortened"] = to_json(r.shortened);
    o["omitted"] = to_json(r.omitted);
    o["text"] = r.text;
    return o;
}

/// The result a model gets back for its call: the content to follow, or the error.
inline boost::json::object tool_result_json(invocation const& inv)
{
    boost::json::object o;
    o["status"] = to_string(inv.status());
    if (inv.status() == invoke_status::run) o["content"] = inv.content;
    else if (inv.status() == invoke_status::needs_approval) o["message"] = inv.permission.message;
    else {
        o["error_code"] = static_cast<int>(inv.error);
        o["message"] = inv.message;
    }
    return o;
}

} // namespace skillmd

#endif
