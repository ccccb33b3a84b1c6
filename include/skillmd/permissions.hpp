// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_PERMISSIONS_HPP
#define SKILLMD_PERMISSIONS_HPP

// Permission rules for invoking skills (SPEC 6.6, seed 001's Skill tool): deny rules
// first, then allow rules, else ask. A rule is a skill name, or `prefix:*`, which
// matches every name that starts with `prefix` (seed 001's rule, to the letter: the
// text before `:*` is the prefix). Nothing else is a wildcard: `my-*` is a name.

#include <skillmd/config.hpp>

#include <cstdint>
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
    std::string message; ///< seed 001's text for deny and ask
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

    permission_decision decide(std::string_view name) const
    {
        for (auto const& r : deny)
            if (matches(r, name)) return {permission::deny, r, "Skill execution blocked by permission rules"};
        for (auto const& r : allow)
            if (matches(r, name)) return {permission::allow, r, ""};
        return {permission::ask, "", "Execute skill: " + std::string(name)};
    }
};

} // namespace skillmd

#endif
