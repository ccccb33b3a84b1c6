// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_MODEL_SKILL_HPP
#define SKILLMD_MODEL_SKILL_HPP

#include <skillmd/config.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace skillmd {

/// Where an invoked skill runs: in the current conversation, or as a task for a sub-agent.
enum class context_mode : std::uint8_t { inline_, fork };

inline constexpr std::string_view to_string(context_mode c) noexcept
{
    return c == context_mode::fork ? "fork" : "inline";
}

/// A frontmatter key no field claims, kept as it was written.
struct unknown_field
{
    std::string key;
    std::string json;       ///< the value as JSON (every scalar a string)
    std::uint32_t line = 0; ///< where the key is
    std::uint32_t column = 0;
};

/** The typed metadata of one skill: every field the systems skillmd reproduces and the Agent Skills
    specification define. A field that the frontmatter does not give
    holds its documented default; `*_given` flags say which defaults were applied.
*/
struct skill_metadata
{
    // What an index lists comes first: building a snapshot's listing rows reads these of
    // every skill, and near each other they share cache lines.
    std::string name;                       ///< given, or the directory name / command path
    std::optional<std::string> label;       ///< display name, where the dialect makes `name` a label (Claude Code, sven)
    std::string description;                ///< given, or from the body as the dialect says
    std::optional<std::string> when_to_use; ///< Claude Code: appended to the description in listings
    std::optional<std::string> argument_hint;
    bool name_given = false;
    bool description_given = false;
    bool disable_model_invocation = false;
    bool user_invocable = true;
    bool user_invocable_only = false;       ///< sven's `sven:` block
    bool always = false;                    ///< sven's `sven:` block
    context_mode context = context_mode::inline_;

    std::optional<std::string> license;
    std::optional<std::string> compatibility;
    std::vector<std::pair<std::string, std::string>> metadata; ///< string map, in source order
    std::optional<std::string> version;
    std::optional<std::string> author;
    std::vector<std::string> tags;
    std::vector<std::string> allowed_tools; ///< `allowed-tools` or `tools`
    std::optional<std::string> agent;       ///< sub-agent type for `context: fork`
    std::optional<std::string> model;       ///< model override; `inherit` means none
    std::vector<std::string> arguments;     ///< named positional arguments (`$name`)
    std::vector<std::string> triggers;      ///< koshi trigger phrases
    std::vector<std::string> knowledge;     ///< sven knowledge documents
    std::vector<std::string> requires_bins; ///< sven's `sven:` block
    std::vector<std::string> requires_env;

    std::vector<unknown_field> unknown;     ///< keys no field claims, kept raw
};

} // namespace skillmd

#endif
