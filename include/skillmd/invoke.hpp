// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_INVOKE_HPP
#define SKILLMD_INVOKE_HPP

// Layer 2 of the prompt: content formats, arguments and substitution, permission
// rules, slash commands, invocation, the skill tool's schema and tool calls. No X3.

#include <skillmd/invoke/content.hpp>
#include <skillmd/invoke/substitution_result.hpp>
#include <skillmd/invoke/arguments.hpp>
#include <skillmd/invoke/permissions.hpp>
#include <skillmd/invoke/slash.hpp>
#include <skillmd/invoke/invocation_result.hpp>
#include <skillmd/invoke/invocation.hpp>
#include <skillmd/invoke/tools.hpp>
#include <skillmd/invoke/tool_call_result.hpp>
#include <skillmd/invoke/tool_calls.hpp>
#include <skillmd/invoke/observer.hpp>
#include <skillmd/invoke/skill_tool.hpp>

#endif
