// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_INVOKE_INVOCATION_RESULT_HPP
#define SKILLMD_INVOKE_INVOCATION_RESULT_HPP

// What an invocation is asked (invoke_options) and what it gives back (invocation,
// with its status and, when it failed, Claude Code's error code).

#include <skillmd/invoke/arguments.hpp>
#include <skillmd/invoke/content.hpp>
#include <skillmd/invoke/permissions.hpp>
#include <skillmd/storage/registry.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace skillmd {

/// Why an invocation failed. 1-5 are Claude Code's Skill tool codes; 6-8 are skillmd's.
enum class invoke_error : int {
    none = 0,
    invalid_format = 1,            ///< empty name, or a name no skill can have (`..`, `//`, controls)
    unknown_skill = 2,             ///< no such skill; for a typed `/command`: not a skill
    load_failed = 3,               ///< the skill exists but its file cannot be read (or its requirements are unmet)
    model_invocation_disabled = 4, ///< `disable-model-invocation` or `user_invocable_only`, and the model asked
    not_prompt = 5,                ///< a built-in command of the agent, not a prompt skill
    user_invocation_disabled = 6,  ///< `user-invocable: false`, and the user asked
    permission_denied = 7,         ///< a deny rule matched
    arguments_too_long = 8,        ///< the arguments exceed `max_argument_bytes`
    bad_tool_call = 9,             ///< a model's tool call that is not JSON or not the tool's schema
    content_too_long = 10,         ///< substitution would pass `substitution_policy::max_output_bytes`
    shadowed_skill = 11,           ///< the model named a shadowed skill (`name@tier`) and may not
    out_of_memory = 12,            ///< memory ran out while loading or rendering the skill
};

struct invoke_options
{
    permission_rules permissions;
    substitution_policy substitution = substitution::safe();
    std::map<std::string, std::string, std::less<>> variables; ///< `${NAME}` values besides the skill's own
    std::vector<std::string> builtin_commands; ///< the agent's own commands (`help`, `clear`): code 5
    std::size_t max_argument_bytes = 64 * 1024;
    bool match_sanitized = false; ///< sven: `/sven_plan` finds `sven/plan` by its sanitised name
    std::string tool_name = "Skill"; ///< named in the code 4 message
    std::string working_directory;   ///< mycode's context ("" = the current directory)
    /// Error 2's message; `{}` stands for the name. Claude Code's by default; Pegasus says
    /// `Skill "{}" not found`, mycode `Skill not found: {}`.
    std::string unknown_skill_message = "Unknown skill: {}";
    /// The sub-agent of a `context: fork` skill that names none (Pegasus: `general`).
    std::optional<std::string> default_fork_agent;
    /// May the model invoke a skill another tier shadows (`deploy@project`)? The index
    /// never shows it, so by default only the user can.
    bool model_may_invoke_shadowed = false;
    /// Does a model's call that no rule decides wait for the user (`needs_approval`)?
    /// Claude Code asks; systems without an approval step (Pegasus, mycode, sven, koshi)
    /// run it. A deny rule denies either way.
    bool approval_step = true;
};

/// What the agent must do with an invocation. Only `run` means go.
enum class invoke_status : std::uint8_t {
    run,            ///< allowed (a rule, or the user's own typed command): deliver the content now
    needs_approval, ///< valid, but no rule decided: ask the user (`permission.message`), then `approve()`
    denied,         ///< a deny rule matched (error 7)
    failed,         ///< any other error (`error`, `message`)
};

inline constexpr std::string_view to_string(invoke_status s) noexcept
{
    switch (s) {
    case invoke_status::run: return "run";
    case invoke_status::needs_approval: return "needs_approval";
    case invoke_status::denied: return "denied";
    case invoke_status::failed: return "failed";
    }
    return "failed";
}

/// The outcome of one invocation.
struct invocation
{
    invoke_error error = invoke_error::none;
    std::string message;         ///< Claude Code's text for errors; "" on success
    bool not_a_skill = false;    ///< a typed `/command` that names no skill: treat it as a message
    std::shared_ptr<skillmd::snapshot const> snapshot; ///< keeps `record` alive
    skill_record const* record = nullptr;
    std::string command;
    skillmd::caller who = caller::model;
    permission_decision permission;
    context_mode mode = context_mode::inline_;       ///< inline: a tool result or user message; fork: a sub-agent task
    std::optional<std::string> agent;                ///< the sub-agent type for a fork
    std::optional<std::string> model;                ///< model override; `inherit` gives none
    std::vector<std::string> allowed_tools;          ///< granted while the skill runs (Claude Code's context modifier)
    loaded_skill loaded;
    substitution_result substitution;
    std::string content;                             ///< rendered by the content format

    /// Run, ask, denied or failed: the one answer to "may this skill run now?".
    invoke_status status() const noexcept
    {
        if (error == invoke_error::permission_denied) return invoke_status::denied;
        if (error != invoke_error::none) return invoke_status::failed;
        if (permission.behavior == permission::allow) return invoke_status::run;
        if (permission.behavior == permission::deny) return invoke_status::denied;
        return invoke_status::needs_approval;
    }
    bool may_run() const noexcept { return status() == invoke_status::run; }
    /// The user approved a `needs_approval` call: it may run now. Nothing else changes.
    void approve() noexcept
    {
        if (status() == invoke_status::needs_approval) permission = {permission::allow, "approved by the user", ""};
    }
};

} // namespace skillmd

#endif
