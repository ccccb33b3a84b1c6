// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_VALIDATION_DIALECT_HPP
#define SKILLMD_VALIDATION_DIALECT_HPP

#include <skillmd/config.hpp>
#include <skillmd/frontmatter/parse_result.hpp>
#include <skillmd/frontmatter/split.hpp>

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace skillmd {

/// The fields of `skill_metadata` a frontmatter key can fill (at most 64: a reader keeps
/// the fields it has seen in one 64-bit set; keep `user_invocable_only` last).
enum class field : std::uint8_t {
    name, description, when_to_use, license, compatibility, metadata, version, author, tags,
    allowed_tools, disable_model_invocation, user_invocable, context, agent, model, argument_hint,
    arguments, triggers, knowledge, sven_block, always, requires_bins, requires_env, user_invocable_only,
};

/// A frontmatter key and the field it fills; several keys may fill one field (aliases).
struct field_key
{
    std::string_view key;
    skillmd::field field;
};

enum class unknown_keys : std::uint8_t { error, warning, ignore };

/// Where a missing description comes from.
enum class description_default : std::uint8_t {
    none,            ///< a missing description stays empty (and is reported if required)
    first_paragraph, ///< the body's first paragraph (Pegasus)
    first_heading,   ///< the body's first heading, or "Skill" (Claude Code)
};

/// Which rule a name must follow.
enum class name_rule : std::uint8_t {
    none,             ///< any text (it is a label, or the system does not check)
    agent_skills,     ///< the specification: NFKC, Unicode lowercase letters, digits, `-`, 1-64
    lowercase_hyphen, ///< ASCII `a-z`, `0-9` and `-`, at most 64 (Pegasus and koshi)
};

/// How hard validation is: strict follows the dialect's document to the letter;
/// lenient follows the Agent Skills client guide (load with warnings where it can).
enum class validation_mode : std::uint8_t { strict, lenient };

/** A dialect: the frontmatter vocabulary and rules of one skill system.

    It decides which keys fill which fields (and aliases), what is done with keys it
    does not know, where defaults come from, and which rules names and descriptions
    follow. The shipped dialects are in `skillmd::dialects`; a user writes another by
    filling this struct.
*/
struct dialect
{
    std::string_view id = {};                   ///< command-line name, e.g. "agent-skills"
    std::vector<field_key> keys = {};           ///< top-level keys
    std::vector<field_key> sven_keys = {};      ///< keys inside a `sven:` block
    skillmd::unknown_keys unknown = unknown_keys::warning;
    skillmd::description_default description_from = description_default::none;
    skillmd::name_rule names = name_rule::none;
    bool name_is_label = false;                 ///< `name:` is a display label; the command is the directory
    bool name_matches_directory = false;        ///< the specification's rule
    bool name_required = false;
    bool description_required = false;
    bool triggers_required = false;
    bool spec_yaml = false;                     ///< strict mode refuses flow collections, as strictyaml does
    frontmatter::missing_policy missing = frontmatter::missing_policy::empty_metadata;
    std::size_t max_name = 64;
    std::size_t max_description = 1024;
    std::size_t max_compatibility = 500;
    bool find_by_label = false;                 ///< a lookup by the label finds the skill (Claude Code's user-facing name)
    bool command_from_name = false;             ///< the frontmatter `name` is the command (mycode's registry key)

    std::optional<skillmd::field> field_of(std::string_view key) const
    {
        for (auto const& k : keys)
            if (k.key == key) return k.field;
        return std::nullopt;
    }
    std::optional<skillmd::field> sven_field_of(std::string_view key) const
    {
        for (auto const& k : sven_keys)
            if (k.key == key) return k.field;
        return std::nullopt;
    }
};

namespace dialects {

/// The Agent Skills specification, as its reference validator (skills-ref) checks it:
/// six fields, any other key an error, a required lowercase name equal to the directory.
inline dialect agent_skills()
{
    return {.id = "agent-skills",
            .keys = {{"name", field::name}, {"description", field::description}, {"license", field::license},
                     {"compatibility", field::compatibility}, {"metadata", field::metadata},
                     {"allowed-tools", field::allowed_tools}},
            .unknown = unknown_keys::error,
            .names = name_rule::agent_skills,
            .name_matches_directory = true,
            .name_required = true,
            .description_required = true,
            .spec_yaml = true,
            .missing = frontmatter::missing_policy::error};
}

/// Pegasus ("pegasus"): name defaults to the directory (lowercase and hyphens, at most 64),
/// description to the body's first paragraph.
inline dialect pegasus()
{
    return {.id = "pegasus",
            .keys = {{"name", field::name}, {"description", field::description},
                     {"disable-model-invocation", field::disable_model_invocation},
                     {"user-invocable", field::user_invocable}, {"allowed-tools", field::allowed_tools},
                     {"context", field::context}, {"agent", field::agent}, {"model", field::model},
                     {"argument-hint", field::argument_hint}, {"license", field::license},
                     {"compatibility", field::compatibility}, {"metadata", field::metadata}},
            .description_from = description_default::first_paragraph,
            .names = name_rule::lowercase_hyphen};
}

/// Claude Code, as reverse-engineered, plus the fields Claude Code documents:
/// the command is the directory name, `name:` only a label; description from the first
/// heading; unknown keys ignored, as Claude Code does.
inline dialect claude_code()
{
    return {.id = "claude-code",
            .keys = {{"name", field::name}, {"description", field::description},
                     {"when_to_use", field::when_to_use}, {"allowed-tools", field::allowed_tools},
                     {"model", field::model}, {"disable-model-invocation", field::disable_model_invocation},
                     {"user-invocable", field::user_invocable}, {"user_invocable", field::user_invocable},
                     {"argument-hint", field::argument_hint}, {"arguments", field::arguments},
                     {"version", field::version}, {"context", field::context}, {"agent", field::agent},
                     {"license", field::license}, {"compatibility", field::compatibility},
                     {"metadata", field::metadata}},
            .unknown = unknown_keys::ignore,
            .description_from = description_default::first_heading,
            .name_is_label = true,
            .find_by_label = true};
}

/// mycode ("mycode"): name, description, allowed-tools, and version/author/tags metadata;
/// skills are keyed by their `name` (the folder's name when there is none).
inline dialect mycode()
{
    return {.id = "mycode",
            .keys = {{"name", field::name}, {"description", field::description},
                     {"allowed-tools", field::allowed_tools}, {"version", field::version},
                     {"author", field::author}, {"tags", field::tags}, {"license", field::license},
                     {"compatibility", field::compatibility}, {"metadata", field::metadata}},
            .description_required = true,
            .command_from_name = true};
}

/// koshi ("koshi"): kebab-case name, one-sentence description and trigger phrases,
/// all required; `tools` for the sub-agent's tool scope.
inline dialect koshi()
{
    return {.id = "koshi",
            .keys = {{"name", field::name}, {"description", field::description},
                     {"triggers", field::triggers}, {"tools", field::allowed_tools},
                     {"allowed-tools", field::allowed_tools}, {"model", field::model}},
            .names = name_rule::lowercase_hyphen,
            .name_required = true,
            .description_required = true,
            .triggers_required = true};
}

/// sven ("sven"): only the description is required; `name:` is a label (the command
/// is the path); the `sven:` block gates and pins skills; `knowledge:` lists documents.
inline dialect sven()
{
    return {.id = "sven",
            .keys = {{"name", field::name}, {"description", field::description}, {"version", field::version},
                     {"sven", field::sven_block}, {"knowledge", field::knowledge}},
            .sven_keys = {{"always", field::always}, {"requires_bins", field::requires_bins},
                          {"requires_env", field::requires_env},
                          {"user_invocable_only", field::user_invocable_only}},
            .name_is_label = true,
            .description_required = true};
}

/// Claude Code 2.1 ("claude-code-2.1"): Claude Code's fields, and a missing description
/// taken from the body's first paragraph, as the 2.1 documentation says.
inline dialect claude_code_2_1()
{
    dialect d = claude_code();
    d.id = "claude-code-2.1";
    d.description_from = description_default::first_paragraph;
    return d;
}

/// Codex 0.169 ("codex-0.169"): `name` (the folder's name when missing; the `$name` a user types)
/// and a required description; every other key ignored, as Codex ignores it.
inline dialect codex_0_169()
{
    return {.id = "codex-0.169",
            .keys = {{"name", field::name}, {"description", field::description}, {"metadata", field::metadata}},
            .unknown = unknown_keys::ignore,
            .description_required = true,
            .command_from_name = true};
}

/// Gemini CLI 0.61 ("gemini-cli-0.61"): only `name` and `description`, both required (Gemini
/// skips a file without them); other keys ignored.
inline dialect gemini_cli_0_61()
{
    return {.id = "gemini-cli-0.61",
            .keys = {{"name", field::name}, {"description", field::description}},
            .unknown = unknown_keys::ignore,
            .name_required = true,
            .description_required = true,
            .command_from_name = true};
}

/// opencode 1.18 ("opencode-1.18"): `name` and `description`, both required (opencode skips a
/// skill without either), plus the specification's optional fields; others ignored.
inline dialect opencode_1_18()
{
    return {.id = "opencode-1.18",
            .keys = {{"name", field::name}, {"description", field::description}, {"license", field::license},
                     {"compatibility", field::compatibility}, {"metadata", field::metadata}},
            .unknown = unknown_keys::ignore,
            .name_required = true,
            .description_required = true,
            .command_from_name = true};
}

/// Every shipped dialect, for lookups by command-line name.
inline std::vector<dialect> all()
{
    return {agent_skills(), pegasus(), claude_code(), mycode(), koshi(), sven(), claude_code_2_1(), codex_0_169(),
            gemini_cli_0_61(), opencode_1_18()};
}

inline std::optional<dialect> find(std::string_view id)
{
    for (auto& d : all())
        if (d.id == id) return d;
    return std::nullopt;
}

} // namespace dialects

/// Options that a dialect and a mode imply for splitting and parsing.
inline frontmatter::split_options split_options_for(dialect const& d, validation_mode mode)
{
    return {mode == validation_mode::strict ? d.missing : frontmatter::missing_policy::empty_metadata};
}
inline frontmatter::parse_options parse_options_for(dialect const&, validation_mode mode)
{
    frontmatter::parse_options o;
    o.recover_colon_in_plain = mode == validation_mode::lenient; // the client guide's retry
    return o;
}

} // namespace skillmd

#endif
