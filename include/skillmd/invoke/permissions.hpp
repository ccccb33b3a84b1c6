// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_INVOKE_PERMISSIONS_HPP
#define SKILLMD_INVOKE_PERMISSIONS_HPP

// Permission rules for invoking skills: deny rules
// first, then allow rules, else ask. A rule is a skill name, or `prefix:*`, which
// matches every name that starts with `prefix` (Claude Code's rule, to the letter: the
// text before `:*` is the prefix). Nothing else is a wildcard: `my-*` is a name.

#include <skillmd/config.hpp>
#include <skillmd/model/names.hpp>

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace skillmd {

enum class permission : std::uint8_t { allow, deny, ask };

inline constexpr std::string_view to_string(permission p) noexcept
{
    return p == permission::allow ? "allow" : p == permission::deny ? "deny" : "ask";
}

struct permission_decision
{
    skillmd::permission behavior = permission::ask;
    std::string rule;    ///< the rule that decided ("" for ask)
    std::string message; ///< Claude Code's text for deny and ask
};

struct permission_rules
{
    std::vector<std::string> deny;
    std::vector<std::string> allow;

    /// True when `rule` covers `name`.
    static bool matches(std::string_view rule, std::string_view name) noexcept
    {
        if (rule == name) return true;
        if (rule.size() >= 2 && rule.ends_with(":*")) return name.starts_with(rule.substr(0, rule.size() - 2));
        return false;
    }

    /** The decision for one skill, by every spelling it bears (snapshot::names_of):
        `answers` are those that resolve to it, `carries` those it holds that resolve to
        another skill or none (its `name:` when a folder of that name exists, its bare
        command when another tier shadows it). A deny rule matching any spelling denies,
        so no other spelling reaches a denied skill; an allow rule allows only through a
        spelling that resolves to this skill, so it never reaches a different one than it
        names. `shown` is the name the ask message uses.
    */
    permission_decision decide(std::span<std::string const> answers, std::span<std::string const> carries,
                               std::string_view shown) const
    {
        auto const any = [](std::string const& rule, std::span<std::string const> names) {
            return std::any_of(names.begin(), names.end(), [&](std::string const& n) { return matches(rule, n); });
        };
        for (auto const& r : deny)
            if (any(r, answers) || any(r, carries)) return {permission::deny, r, "Skill execution blocked by permission rules"};
        for (auto const& r : allow)
            if (any(r, answers)) return {permission::allow, r, ""};
        return {permission::ask, "", "Execute skill: " + std::string(shown)};
    }

    permission_decision decide(std::string_view name) const
    {
        for (auto const& r : deny)
            if (matches(r, name)) return {permission::deny, r, "Skill execution blocked by permission rules"};
        for (auto const& r : allow)
            if (matches(r, name)) return {permission::allow, r, ""};
        return {permission::ask, "", "Execute skill: " + std::string(name)};
    }
};

/** Why `rule` is not a rule of Claude Code's syntax, or "" when it is one. A rule is a skill
    name (`deploy`, `deploy@project`, `plugin:tool`) or a prefix ending in `:*`
    (`ms-office:*`). Nothing else is a wildcard, so `my-*` and `*` would match nothing;
    blank rules and rules with surrounding spaces or control characters match nothing
    either. Each of these is refused rather than left to fail silently.
*/
inline std::string rule_problem(std::string_view rule)
{
    if (rule.empty()) return "an empty rule matches nothing";
    if (rule.front() == ' ' || rule.back() == ' ' || rule.front() == '\t' || rule.back() == '\t')
        return "spaces around a rule are part of it, so it matches nothing; remove them";
    for (char c : rule)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f || c == ' ') return "a skill name has no spaces or control characters";
    if (rule.starts_with("Skill(") && rule.ends_with(")"))
        return "write the skill's name alone (`" + std::string(rule.substr(6, rule.size() - 7)) +
               "`), not the settings form `Skill(...)`";
    std::string_view body = rule;
    if (body.size() >= 2 && body.ends_with(":*")) body.remove_suffix(2);
    if (body.find('*') != std::string_view::npos)
        return "`*` is a wildcard only at the end after a colon (`prefix:*`); `" + std::string(rule) + "` matches nothing";
    if (body.empty()) return "`:*` needs a prefix before it";
    // What no skill's name can be: a prefix starting with `/` (no name does; a typed `/x`
    // is resolved as `x` only when it is a whole rule), a name with an empty, `.` or `..`
    // segment (`deploy/`, `a//b`).
    bool const prefix = body.size() != rule.size();
    if (auto const at = body.find('@'); at != std::string_view::npos &&
        (at == 0 || at + 1 == body.size() || body.find('@', at + 1) != std::string_view::npos))
        return "`" + std::string(rule) + "` is no `name@tier` (one `@` between a name and a tier), so it matches nothing";
    if (prefix && body.front() == '/')
        return "no skill's name starts with `/`, so `" + std::string(rule) + "` matches nothing; write `" +
               std::string(rule.substr(1)) + "`";
    if (!prefix && !valid_command_name(body.front() == '/' ? body.substr(1) : body))
        return "`" + std::string(rule) + "` is no skill's name (a name has no empty, `.` or `..` part), so it matches nothing";
    return {};
}

} // namespace skillmd

#endif
