// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_INVOKE_INVOCATION_HPP
#define SKILLMD_INVOKE_INVOCATION_HPP

// Invocation: name or `/command` -> validation with Claude Code's error codes and
// Pegasus's caller rules -> permission decision -> the body read now, arguments
// substituted -> the rendered content and what the agent must do with it (inline, or
// a fork with agent and model; the tools the skill allows).

#include <skillmd/invoke/invocation_result.hpp>
#include <skillmd/invoke/impl/invocation.hpp>
#include <skillmd/invoke/arguments.hpp>
#include <skillmd/invoke/content.hpp>
#include <skillmd/detail/read_file.hpp>
#include <skillmd/detail/trim.hpp>
#include <skillmd/invoke/permissions.hpp>
#include <skillmd/storage/registry.hpp>
#include <skillmd/invoke/slash.hpp>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace skillmd {

/** Checks permission rules before they are used: a rule that is not Claude Code's syntax
    is an error (`permission-rule-invalid`); one that matches no skill of `snap` is a
    warning (`permission-rule-unmatched`), with the skill it probably meant when only
    case tells them apart (`COMMIT` for `commit`).
*/
inline std::vector<diagnostic> check_permission_rules(permission_rules const& rules, snapshot const& snap,
                                                      bool match_sanitized = false)
{
    std::vector<diagnostic> out;
    auto check = [&](std::string const& rule, std::string_view kind) {
        std::string const shown = "`" + skillmd::detail::clean_line(rule) + "`";
        if (auto why = rule_problem(rule); !why.empty()) {
            out.push_back({std::string(codes::permission_rule_invalid), severity::error, std::string(kind), 0, 0, shown + ": " + why});
            return;
        }
        // The spellings decide() matches (detail::rule_spellings), without resolving each
        // one: a rule the resolver takes to a skill, or one that matches a spelling some
        // skill bears. One pass over the skills per rule.
        if (!rule.ends_with(":*") && detail::find_skill(snap, rule, match_sanitized)) return;
        std::string const lowered = skillmd::detail::ascii_lower(rule);
        std::string near;
        for (auto const* list : {&snap.skills(), &snap.shadowed()})
            for (auto const& r : *list) {
                std::string const tier(r.tier.view()), base(r.command.substr(0, r.command.rfind('@')));
                std::string const name(r.meta.name.view());
                for (std::string const& n : {std::string(r.command.view()), base, base + "@" + tier, name, name + "@" + tier,
                                             r.meta.label ? std::string(*r.meta.label) : std::string()}) {
                    if (n.empty()) continue;
                    if (permission_rules::matches(rule, n)) return;
                    if (match_sanitized && permission_rules::matches(rule, sanitize_command(n))) return;
                }
                if (match_sanitized && kind == "deny rule" && rule.ends_with(":*") &&
                    detail::sanitized_prefix_reaches(std::string_view(rule).substr(0, rule.size() - 2), sanitize_command(r.command)))
                    return;
                std::string const cmd = skillmd::detail::ascii_lower(r.command);
                if (near.empty() && (cmd == lowered || permission_rules::matches(lowered, cmd))) near = r.command;
            }
        out.push_back({std::string(codes::permission_rule_unmatched), severity::warning, std::string(kind), 0, 0,
                       shown + " matches no skill now" +
                           (near.empty() ? std::string() : "; names are case-sensitive: did you mean `" + near + "`?")});
    };
    for (auto const& r : rules.deny) check(r, "deny rule");
    for (auto const& r : rules.allow) check(r, "allow rule");
    return out;
}


/** Invokes a skill.

    `name_or_command` is a name (`commit`, `/commit`) or a whole typed command
    (`/commit fix the build`), whose rest is put before `args`. The user may invoke what
    is user-invocable, the model what is model-invocable (Pegasus's matrix, sven's
    `user_invocable_only`). Deny rules bind both; for the model, allow rules allow and
    anything else asks; a user's typed command is its own consent.
*/
template <class Registry, content_format Format>
invocation invoke_unguarded(Registry const& reg, std::string_view name_or_command, std::string_view args, caller who,
                            invoke_options const& opts, Format const& fmt)
{
    invocation inv;
    inv.who = who;
    inv.snapshot = reg.snapshot();
    auto const& snap = *inv.snapshot;
    auto const refuse = [&](detail::refusal no) {
        inv.not_a_skill = no.not_a_skill;
        return detail::fail(std::move(inv), no.code, std::move(no.message));
    };

    detail::invoke_request const q = detail::read_request(name_or_command, args);
    if (auto no = detail::check_format(q, who, opts)) return refuse(std::move(*no));
    inv.command = q.name;
    for (auto const& b : opts.builtin_commands)
        if (b == q.name) return refuse({invoke_error::not_prompt, "Skill " + q.shown + " is not a prompt-based skill"});
    skill_record const* r = detail::find_skill(snap, q.name, opts.match_sanitized);
    if (!r) return refuse({invoke_error::unknown_skill, detail::with_name(opts.unknown_skill_message, q.shown),
                           q.typed || who == caller::user});
    inv.record = r;
    bool const winner = r->shadowed_by.empty();
    inv.command = winner ? r->command.str() : r->qualified(); // a shadowed skill is named with its tier everywhere
    if (auto no = detail::check_caller(*r, q, who, opts)) return refuse(std::move(*no));

    auto const names = detail::rule_spellings(snap, *r, opts.permissions, opts.match_sanitized, q.name); // rules see the record
    inv.permission = opts.permissions.decide(names.answers, names.carries, inv.command);
    if (inv.permission.behavior == permission::deny) {
        std::string why = inv.permission.message; // read before `inv` is moved into the call
        return detail::fail(std::move(inv), invoke_error::permission_denied, std::move(why));
    }
    if (who == caller::user) inv.permission = {permission::allow, "", ""};
    else if (inv.permission.behavior == permission::ask && !opts.approval_step)
        inv.permission = {permission::allow, "", ""}; // the system has no approval step

    std::string why;
    auto text = reg.text(*r, &why); // read once: the body, and the whole file for formats that show it
    if (!text) return detail::fail(std::move(inv), invoke_error::load_failed, "Could not load skill: " + q.shown + (why.empty() ? "" : ": " + why));
    auto& ls = inv.loaded;
    ls.command = inv.command;
    detail::fill_loaded(ls, reg, snap, *r, *text, q, who, opts);

    auto vars = opts.variables;
    vars.emplace("SKILL_DIR", ls.base_directory);
    vars.emplace("CLAUDE_SKILL_DIR", ls.base_directory);
    auto policy = opts.substitution;
    if (policy.exact_replace_all && policy.text_before.empty())
        policy.text_before = "Base directory for this skill: " + ls.base_directory + "\n\n";
    inv.substitution = substitute(ls.body, q.args, to_owned(r->meta.arguments), vars, policy);
    if (inv.substitution.too_long)
        return detail::fail(std::move(inv), invoke_error::content_too_long,
                            "The content of skill " + q.shown + " with these arguments would exceed " +
                                std::to_string(policy.max_output_bytes) + " bytes");
    ls.content = inv.substitution.text;

    inv.mode = r->meta.context;
    if (inv.mode == context_mode::fork) inv.agent = r->meta.agent ? r->meta.agent.owned() : opts.default_fork_agent;
    if (r->meta.model && *r->meta.model != "inherit") inv.model = r->meta.model.owned();
    inv.allowed_tools = to_owned(r->meta.allowed_tools);
    inv.content = fmt.render(ls);
    return inv;
}

/// The same, with running out of memory turned into error 12: nothing is thrown.
template <class Registry, content_format Format = content_formats::pegasus>
invocation invoke(Registry const& reg, std::string_view name_or_command, std::string_view args, caller who,
                  invoke_options const& opts = {}, Format const& fmt = {})
{
    try {
        return invoke_unguarded(reg, name_or_command, args, who, opts, fmt);
    } catch (std::bad_alloc const&) {
        invocation inv;
        inv.who = who;
        inv.error = invoke_error::out_of_memory;
        try {
            inv.message = "Could not load skill: out of memory";
        } catch (...) {
        }
        return inv;
    }
}

} // namespace skillmd

#endif
