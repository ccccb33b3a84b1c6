// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_VALIDATION_READ_RESULT_HPP
#define SKILLMD_VALIDATION_READ_RESULT_HPP

// What reading a skill's frontmatter takes besides the text (skill_origin) and gives
// back (read_result), and the reference validator's rule id for a parser's code.

#include <skillmd/model/diagnostic.hpp>
#include <skillmd/model/skill.hpp>

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace skillmd {

/// What is known about a skill besides its frontmatter.
struct skill_origin
{
    std::string_view file;           ///< for diagnostics
    std::string_view directory_name; ///< the folder holding SKILL.md: default name, spec name check
    std::string_view command = {};   ///< nested command path (sven); overrides the directory as default name
    std::string_view body = {};      ///< for descriptions taken from the body
};

struct read_result
{
    std::optional<skill_metadata> skill; ///< absent when the skill must be skipped
    std::vector<diagnostic> diagnostics;
    std::size_t body_offset = 0;         ///< where the body starts in the text (read_skill only)
};

/// The reference validator's rule id for a diagnostic code of the splitter or the grammar.
inline std::string_view spec_rule_for(std::string_view code)
{
    if (code == codes::frontmatter_missing || code == codes::frontmatter_unclosed) return code;
    if (code.substr(0, 5) == "yaml-" || code == codes::utf8_invalid || code == codes::frontmatter_too_large)
        return codes::yaml_invalid;
    return {};
}

} // namespace skillmd

#endif
