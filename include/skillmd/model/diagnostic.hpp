// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_MODEL_DIAGNOSTIC_HPP
#define SKILLMD_MODEL_DIAGNOSTIC_HPP

#include <skillmd/config.hpp>
#include <skillmd/detail/json.hpp>
#include <skillmd/model/impl/terminal_safe.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace skillmd {

enum class severity : std::uint8_t { info, warning, error };

inline constexpr std::string_view to_string(severity s) noexcept
{
    switch (s) {
    case severity::info: return "info";
    case severity::warning: return "warning";
    case severity::error: return "error";
    }
    return "error";
}

/// Stable diagnostic codes. Tools and tests match on these, so they never change meaning.
namespace codes {
// Reading the file and finding the frontmatter.
inline constexpr std::string_view io_error = "io-error";                         ///< the file could not be read
inline constexpr std::string_view frontmatter_missing = "frontmatter-missing";   ///< no `---` block at the start
inline constexpr std::string_view frontmatter_unclosed = "frontmatter-unclosed"; ///< a `---` block without its closing line
inline constexpr std::string_view frontmatter_too_large = "frontmatter-too-large"; ///< the block is over the parser's size limit
inline constexpr std::string_view utf8_invalid = "utf8-invalid";                 ///< bytes that are not UTF-8 (or UTF-16)
inline constexpr std::string_view body_not_text = "body-not-text";               ///< NUL or control characters in the body
inline constexpr std::string_view body_hidden_content = "body-hidden-content";   ///< invisible characters (bidi overrides, zero-width) in the body
// The YAML subset.
inline constexpr std::string_view yaml_control_character = "yaml-control-character"; ///< a character YAML does not allow
inline constexpr std::string_view yaml_syntax = "yaml-syntax";                   ///< not YAML at all
inline constexpr std::string_view yaml_indentation = "yaml-indentation";         ///< a line indented where it cannot be
inline constexpr std::string_view yaml_tab_indentation = "yaml-tab-indentation"; ///< a tab used to indent
inline constexpr std::string_view yaml_unterminated = "yaml-unterminated";       ///< a quote or bracket never closed
inline constexpr std::string_view yaml_escape = "yaml-escape";                   ///< a bad escape in a double-quoted scalar
inline constexpr std::string_view yaml_anchor = "yaml-anchor";                   ///< `&anchor`: outside the subset
inline constexpr std::string_view yaml_alias = "yaml-alias";                     ///< `*alias`: outside the subset
inline constexpr std::string_view yaml_tag = "yaml-tag";                         ///< `!tag`: outside the subset
inline constexpr std::string_view yaml_merge_key = "yaml-merge-key";             ///< `<<`: outside the subset
inline constexpr std::string_view yaml_directive = "yaml-directive";             ///< `%YAML`, `%TAG`: outside the subset
inline constexpr std::string_view yaml_multiple_documents = "yaml-multiple-documents"; ///< a second document in the block
inline constexpr std::string_view yaml_complex_key = "yaml-complex-key";         ///< `? key` or a collection as a key
inline constexpr std::string_view yaml_duplicate_key = "yaml-duplicate-key";     ///< a key twice in one mapping
inline constexpr std::string_view yaml_reserved_indicator = "yaml-reserved-indicator"; ///< a value starting with `@`, a backquote or `%`
inline constexpr std::string_view yaml_colon_in_plain = "yaml-colon-in-plain";   ///< `key: a: b`, read as `a: b` when recovering (a warning)
inline constexpr std::string_view yaml_unsupported = "yaml-unsupported";         ///< valid YAML the subset leaves out
inline constexpr std::string_view yaml_depth_limit = "yaml-depth-limit";         ///< nesting past the parser's limit
inline constexpr std::string_view yaml_flow_collection = "yaml-flow-collection"; ///< `[ ]` or `{ }` where the dialect's strict mode refuses them
inline constexpr std::string_view yaml_invalid = "yaml-invalid";                 ///< the reference validator's rule id for every YAML code above (a `rule`, never a `code`)
// The fields (names from the dialect; many carry the reference validator's rule id).
inline constexpr std::string_view frontmatter_not_mapping = "frontmatter-not-mapping"; ///< the block is a list or a scalar
inline constexpr std::string_view unexpected_field = "unexpected-field";         ///< a key the dialect does not know
inline constexpr std::string_view field_not_string = "field-not-string";         ///< a field that must be text is not
inline constexpr std::string_view field_not_boolean = "field-not-boolean";       ///< a field that must be true or false is not
inline constexpr std::string_view field_not_list = "field-not-list";             ///< a field that must be a list is not
inline constexpr std::string_view field_not_mapping = "field-not-mapping";       ///< a field that must be a mapping is not
inline constexpr std::string_view field_bad_value = "field-bad-value";           ///< a value outside the field's choices
inline constexpr std::string_view metadata_not_string = "metadata-not-string";   ///< a `metadata` value that is not text
inline constexpr std::string_view name_missing = "name-missing";                 ///< no `name` where the dialect wants one
inline constexpr std::string_view name_empty = "name-empty";                     ///< `name:` with nothing
inline constexpr std::string_view name_too_long = "name-too-long";               ///< over the dialect's length
inline constexpr std::string_view name_not_lowercase = "name-not-lowercase";     ///< upper case where names are lower case
inline constexpr std::string_view name_invalid_character = "name-invalid-character"; ///< a character names may not hold
inline constexpr std::string_view name_edge_hyphen = "name-edge-hyphen";         ///< a name starting or ending with `-`
inline constexpr std::string_view name_double_hyphen = "name-double-hyphen";     ///< `--` in a name
inline constexpr std::string_view name_format = "name-format";                   ///< not lowercase letters, digits and `-` (the dialect's form)
inline constexpr std::string_view name_directory_mismatch = "name-directory-mismatch"; ///< the name is not the folder's
inline constexpr std::string_view name_unsafe_path = "name-unsafe-path";         ///< a name holding a path separator or `..`
inline constexpr std::string_view name_reserved_character = "name-reserved-character"; ///< `@` or `:` in a folder or `name:` (only `name@tier` and `plugin:name` hold them)
inline constexpr std::string_view name_invisible_character = "name-invisible-character"; ///< a control or invisible formatting character in a folder or `name:`
inline constexpr std::string_view name_white_space = "name-white-space";             ///< white space at a name's ends, or other than a plain space inside
inline constexpr std::string_view description_missing = "description-missing";   ///< no description where one is required
inline constexpr std::string_view description_empty = "description-empty";       ///< `description:` with nothing
inline constexpr std::string_view description_too_long = "description-too-long"; ///< over the dialect's length
inline constexpr std::string_view compatibility_not_string = "compatibility-not-string"; ///< `compatibility` that is not text
inline constexpr std::string_view compatibility_too_long = "compatibility-too-long"; ///< over 500 characters
inline constexpr std::string_view triggers_missing = "triggers-missing";         ///< no trigger phrases where the dialect wants them
// Storage: discovery, the registry, the database tier.
inline constexpr std::string_view discovery = "discovery";                       ///< a folder or file the walk could not use (bounds, odd names, errors)
inline constexpr std::string_view discovery_loop = "discovery-loop";             ///< a folder reached a second time (a loop or a second link); skipped
inline constexpr std::string_view skill_outside_root = "skill-outside-root";     ///< a link leading out of the tier's folders; not followed
inline constexpr std::string_view skill_unreadable = "skill-unreadable";         ///< a candidate whose file cannot be read
inline constexpr std::string_view skill_shadowed = "skill-shadowed";             ///< another tier's skill of the same name won
inline constexpr std::string_view skill_confusable = "skill-confusable";         ///< two names a reader cannot tell apart
inline constexpr std::string_view skill_duplicate = "skill-duplicate";               ///< one name twice in one tier, both kept (Codex): `name@tier` names the first
inline constexpr std::string_view requirements_unmet = "requirements-unmet";     ///< hidden: a required program or variable is missing
inline constexpr std::string_view seeding = "seeding";                           ///< copying the shipped skills on first start
inline constexpr std::string_view database = "database";                         ///< the database tier could not be used
inline constexpr std::string_view database_cache = "database-cache";             ///< the local copy of a database tier could not be read or written
inline constexpr std::string_view skill_disabled = "skill-disabled";             ///< turned off by an override ("off")
inline constexpr std::string_view override_invalid = "override-invalid";         ///< a settings file or override line that cannot be used
inline constexpr std::string_view lint_no_skills = "lint-no-skills";             ///< `skillmd lint` found no skill to check
// Authoring: portability and `fmt`.
inline constexpr std::string_view portability_yaml = "portability-yaml";           ///< strict YAML refuses what lenient readers take
inline constexpr std::string_view portability_line_parser = "portability-line-parser"; ///< Claude Code's line parser reads a field differently
inline constexpr std::string_view portability_validator = "portability-validator"; ///< the reference validator refuses the skill for a rule
inline constexpr std::string_view fmt_unfixable = "fmt-unfixable";                 ///< a difference no edit can remove safely
inline constexpr std::string_view fmt_unsafe = "fmt-unsafe";                       ///< left untouched: too many edits, or the edits would change what the file says
// Authoring: `explain`'s reasons (explain_reason::code), why a skill is where it is.
inline constexpr std::string_view not_loaded = "not-loaded";                     ///< the skill's file could not be loaded (the diagnostic follows)
inline constexpr std::string_view shadowed = "shadowed";                         ///< another tier's skill of the same name won
inline constexpr std::string_view requirement = "requirement";                   ///< hidden: a requirement was unmet
inline constexpr std::string_view hidden_flag = "hidden-flag";                   ///< a frontmatter flag hides it from the model or from `/`
inline constexpr std::string_view override = "override";                         ///< an override line turned it off, on or changed how it is listed
inline constexpr std::string_view undocumented = "undocumented";                 ///< not listed: no description where the system needs one
inline constexpr std::string_view budget_omitted = "budget-omitted";             ///< left out of the listing: the budget was spent
inline constexpr std::string_view budget_shortened = "budget-shortened";         ///< listed with its description cut to fit the budget
// Invocation.
inline constexpr std::string_view permission_rule_invalid = "permission-rule-invalid";   ///< a permission rule that can match nothing
inline constexpr std::string_view permission_rule_unmatched = "permission-rule-unmatched"; ///< a permission rule that matches nothing now
} // namespace codes

/** A problem found in an input, reported as a value rather than thrown.

    Lines and columns are 1-based; columns count Unicode code points, as editors do.
    A line of 0 means the problem concerns the whole file.
*/
struct diagnostic
{
    std::string code;          ///< stable identifier, e.g. "yaml-anchor"
    skillmd::severity severity = severity::error;
    std::string file;          ///< origin as given by the caller (usually a path)
    std::uint32_t line = 0;
    std::uint32_t column = 0;
    std::string message;       ///< says what is wrong and how to fix it
    std::string rule = {};     ///< the Agent Skills reference validator's rule id, when it has one
};

/// `file:line:column: severity: [code] message`, the format compilers and editors
/// understand; file and message are escaped for a terminal (`detail::terminal_safe`).
inline std::string to_text(diagnostic const& d)
{
    std::string out = detail::terminal_safe(d.file);
    if (d.line != 0) {
        out += ':';
        out += std::to_string(d.line);
        out += ':';
        out += std::to_string(d.column);
    }
    out += ": ";
    out += to_string(d.severity);
    out += ": [";
    out += d.code;
    out += "] ";
    out += detail::terminal_safe(d.message);
    return out;
}

/// One JSON object; `with_file` adds the "file" member and `with_rule` the "rule" member.
inline void write_json(std::string& out, diagnostic const& d, bool with_file = false, bool with_rule = false)
{
    out += '{';
    if (with_file) {
        out += "\"file\": ";
        detail::json_quote(out, d.file);
        out += ", ";
    }
    out += "\"line\": ";
    out += std::to_string(d.line);
    out += ", \"column\": ";
    out += std::to_string(d.column);
    out += ", \"severity\": ";
    detail::json_quote(out, to_string(d.severity));
    out += ", \"code\": ";
    detail::json_quote(out, d.code);
    if (with_rule) {
        out += ", \"rule\": ";
        detail::json_quote(out, d.rule);
    }
    out += ", \"message\": ";
    detail::json_quote(out, d.message);
    out += '}';
}

inline bool has_error(std::vector<diagnostic> const& ds) noexcept
{
    for (auto const& d : ds)
        if (d.severity == severity::error) return true;
    return false;
}

} // namespace skillmd

#endif
