// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_INVOKE_TOOL_CALL_RESULT_HPP
#define SKILLMD_INVOKE_TOOL_CALL_RESULT_HPP

// A model's tool call as parse_tool_call (invoke/tool_calls.hpp) reads it, the result
// of the reading, and the bounds on what a model may send.

#include <skillmd/invoke/skill_tool.hpp>
#include <skillmd/invoke/tools.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace skillmd {

/// One tool call, checked against the tool's schema.
struct tool_call
{
    std::string tool;                    ///< as the model named it: `Skill`, `use_skill`, `load_skill`, `create_skill` ...
    std::optional<skill_tool> skill_kind; ///< set for the skill tools
    std::optional<db_tool> db_kind;       ///< set for koshi's database tools
    std::string skill;                   ///< the skill asked for (`skill` or `name`)
    std::string args;                    ///< `args`, when the tool has it
    std::optional<std::string> description, content; ///< database tools
    std::optional<std::vector<std::string>> triggers; ///< database tools
};

struct tool_call_result
{
    std::optional<tool_call> call;
    std::string error; ///< why the call was refused; "" when `call` is set
    bool ok() const noexcept { return call.has_value(); }
};

/// Bounds on what a model may send.
struct tool_call_limits
{
    std::size_t max_bytes = 8 * 1024 * 1024; ///< the whole call's JSON text
    std::size_t max_name_bytes = 1024;       ///< a skill name
    std::size_t max_depth = 16;              ///< JSON nesting
};

} // namespace skillmd

#endif
