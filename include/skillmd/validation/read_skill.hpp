// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_VALIDATION_READ_SKILL_HPP
#define SKILLMD_VALIDATION_READ_SKILL_HPP

// From a frontmatter document to a typed, validated `skill_metadata`:
// field names and defaults come from a dialect, every problem is a diagnostic at
// the line and column of the value, and the rules of the Agent Skills reference
// validator carry its rule ids so tools can compare verdicts.

#include <skillmd/validation/dialect.hpp>
#include <skillmd/validation/read_result.hpp>
#include <skillmd/validation/impl/metadata_reader.hpp>
#include <skillmd/model/diagnostic.hpp>
#include <skillmd/frontmatter/document.hpp>
#include <skillmd/frontmatter/parse_result.hpp>

#include <algorithm>
#include <iterator>
#include <string_view>

namespace skillmd {

/** Reads the typed metadata of one skill from its parsed frontmatter (`doc` is null
    when the file has none) and validates it under `d` in `mode`. The result holds no
    skill when an error means it must be skipped; every problem is a diagnostic.
*/
inline read_result read_metadata(dialect const& d, validation_mode mode, frontmatter::document const* doc,
                                 skill_origin const& origin)
{
    return detail::metadata_reader(d, mode, origin).read(doc);
}

/** A whole SKILL.md: split, parse with `parser`, read and validate. Diagnostics from
    every stage come back together, sorted by position, with the reference
    validator's rule ids where they apply.
*/
template <frontmatter::frontmatter_parser Parser>
read_result read_skill(Parser const& parser, dialect const& d, validation_mode mode, std::string_view text,
                       skill_origin origin)
{
    auto file = frontmatter::read_skill_file(parser, text, origin.file, split_options_for(d, mode));
    for (auto& diag : file.diagnostics)
        if (diag.rule.empty()) diag.rule = spec_rule_for(diag.code);
    bool const refused = has_error(file.diagnostics);
    if (!refused) origin.body = text.substr(std::min(file.body_offset, text.size()));
    // Initialized from the reader's result itself: no move of a whole skill_metadata.
    read_result r = refused ? read_result{} : read_metadata(d, mode, file.frontmatter ? &*file.frontmatter : nullptr, origin);
    r.diagnostics.insert(r.diagnostics.begin(), std::make_move_iterator(file.diagnostics.begin()),
                         std::make_move_iterator(file.diagnostics.end()));
    std::stable_sort(r.diagnostics.begin(), r.diagnostics.end(), [](diagnostic const& a, diagnostic const& b) {
        return a.line != b.line ? a.line < b.line : a.column < b.column;
    });
    if (refused) r.skill.reset();
    r.body_offset = file.body_offset;
    return r;
}

} // namespace skillmd

#endif
