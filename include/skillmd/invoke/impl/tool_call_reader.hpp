// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_INVOKE_IMPL_TOOL_CALL_READER_HPP
#define SKILLMD_INVOKE_IMPL_TOOL_CALL_READER_HPP

// How parse_tool_call (invoke/tool_calls.hpp) reads a call: each tool's shape, the
// call's input and its parameters, and the one-line refusals.

#include <skillmd/invoke/tool_call_result.hpp>
#include <skillmd/invoke/skill_tool.hpp>
#include <skillmd/invoke/tools.hpp>
#include <skillmd/detail/prompt_text.hpp>

#include <boost/json/object.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>

namespace skillmd {

namespace detail {

inline tool_call_result refuse(std::string why) { return {std::nullopt, std::move(why)}; }

/// A model-supplied string, shortened on a code point boundary and cleaned to one line
/// (the index's own helpers), so an error message stays one safe line.
inline std::string shown_in_error(std::string_view s)
{
    return skillmd::detail::clean_line(skillmd::detail::shorten(s, 64));
}

struct tool_shape
{
    std::string_view name;
    std::optional<skill_tool> skill_kind;
    std::optional<db_tool> db_kind;
    std::string_view key; ///< the skill parameter
    bool args = false;
    bool fields = false;  ///< description, triggers, content
    bool key_required = true;
};

inline std::optional<tool_shape> shape_of(std::string_view tool, skill_tool skill_variant)
{
    if (tool == "use_skill") return tool_shape{tool, skill_tool::use_skill, {}, "skill", true};
    if (tool == "load_skill") return tool_shape{tool, skill_tool::load_skill, {}, "name"};
    if (tool == "activate_skill") return tool_shape{tool, skill_tool::activate_skill, {}, "name"};
    if (tool == "skill") return tool_shape{tool, skill_tool::skill_lowercase, {}, "name"};
    if (tool == "Skill") {
        bool const args = skill_variant == skill_tool::skill_with_args;
        return tool_shape{tool, args ? skill_tool::skill_with_args : skill_tool::skill, {}, "skill", args};
    }
    if (tool == "create_skill") return tool_shape{tool, {}, db_tool::create_skill, "name", false, true};
    if (tool == "update_skill") return tool_shape{tool, {}, db_tool::update_skill, "name", false, true};
    if (tool == "delete_skill") return tool_shape{tool, {}, db_tool::delete_skill, "name"};
    if (tool == "list_skills") return tool_shape{tool, {}, db_tool::list_skills, "", false, false, false};
    return std::nullopt;
}

/// The call's parameters in `env`: its `input`, its `arguments` (an object, or JSON text
/// parsed into `parsed`), or none (an empty object). `input` is null when they are no
/// object; the reason, when the text is too long or no JSON.
inline std::optional<std::string> tool_input(boost::json::object const& env, tool_call_limits const& limits,
                                             boost::json::value& parsed, boost::json::object const*& input)
{
    static boost::json::object const empty;
    if (auto const* in = env.if_contains("input")) input = in->if_object();
    else if (auto const* a = env.if_contains("arguments")) {
        if (auto const* text = a->if_string()) {
            if (text->size() > limits.max_bytes) return "the tool call's arguments are too long";
            std::error_code ec;
            boost::json::parse_options po;
            po.max_depth = limits.max_depth;
            parsed = boost::json::parse(std::string_view(*text), ec, {}, po);
            if (ec) return "the tool call's arguments are not valid JSON: " + ec.message();
            input = parsed.if_object();
        } else {
            input = a->if_object();
        }
    } else {
        input = &empty;
    }
    return std::nullopt;
}

/// The string parameter `key` of `input` into `out`; why not, when it is no string.
inline std::optional<std::string> string_parameter(boost::json::object const& input, std::string_view key,
                                                   tool_call const& call, std::string& out)
{
    auto const& s = input.at(key);
    if (!s.is_string()) return "parameter \"" + std::string(key) + "\" of " + call.tool + " must be a string";
    out.assign(s.get_string().begin(), s.get_string().end());
    return std::nullopt;
}

/// The database tools' `triggers`, an array of strings, into `call`; why not.
inline std::optional<std::string> triggers_parameter(boost::json::value const& v, tool_call& call)
{
    auto const* arr = v.if_array();
    if (!arr) return "parameter \"triggers\" of " + call.tool + " must be an array of strings";
    call.triggers.emplace();
    for (auto const& t : *arr) {
        if (!t.is_string()) return "parameter \"triggers\" of " + call.tool + " must be an array of strings";
        call.triggers->emplace_back(t.get_string().begin(), t.get_string().end());
    }
    return std::nullopt;
}

/// One parameter `kv` of `input`, read into `call` as the tool's `shape` takes it; why
/// not, when the tool has no such parameter or it is mistyped or too long.
inline std::optional<std::string> read_parameter(boost::json::key_value_pair const& kv, boost::json::object const& input,
                                                 tool_shape const& shape, tool_call& call, tool_call_limits const& limits)
{
    std::string_view const key = kv.key();
    std::optional<std::string> bad;
    if (!shape.key.empty() && key == shape.key) {
        bad = string_parameter(input, key, call, call.skill);
        if (!bad && call.skill.size() > limits.max_name_bytes)
            bad = "parameter \"" + std::string(key) + "\" is longer than " + std::to_string(limits.max_name_bytes) + " bytes";
    } else if (shape.args && key == "args") {
        bad = string_parameter(input, key, call, call.args);
    } else if (shape.fields && (key == "description" || key == "content")) {
        std::string s;
        bad = string_parameter(input, key, call, s);
        (key == "description" ? call.description : call.content) = std::move(s);
    } else if (shape.fields && key == "triggers") {
        bad = triggers_parameter(kv.value(), call);
    } else {
        bad = call.tool + " has no parameter \"" + shown_in_error(key) + "\"";
    }
    return bad;
}

} // namespace detail

} // namespace skillmd

#endif
