// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_FRONTMATTER_SPLIT_HPP
#define SKILLMD_FRONTMATTER_SPLIT_HPP

#include <skillmd/config.hpp>
#include <skillmd/model/diagnostic.hpp>
#include <skillmd/frontmatter/impl/body_scan.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace skillmd::frontmatter {

/// What a file without a leading `---` line means.
enum class missing_policy : std::uint8_t {
    empty_metadata, ///< no metadata, the whole file is the body (Claude Code); a warning
    error,          ///< an error, as the Agent Skills reference validator does
};

struct split_options
{
    missing_policy missing = missing_policy::empty_metadata;
};

/** Where the frontmatter and the body of a SKILL.md are.

    `frontmatter` views the text between the fence lines (fences excluded) of the
    string given to @ref split, so it lives as long as that string.
*/
struct split_result
{
    bool has_frontmatter = false;         ///< an opening and a closing fence were found
    std::string_view frontmatter;         ///< YAML text between the fences
    std::size_t frontmatter_offset = 0;   ///< byte offset of `frontmatter` in the file
    std::uint32_t frontmatter_line = 0;   ///< 1-based line of the first frontmatter line
    std::size_t body_offset = 0;          ///< byte offset of the body in the file
    std::vector<diagnostic> diagnostics;
};

/** Finds the frontmatter block of a SKILL.md.

    The block runs from a first line `---` to the next line that is exactly `---`
    (trailing blanks allowed). A UTF-8 byte order mark and CRLF line endings are
    accepted. A `---` that is not alone on its line, such as one inside a value, does
    not close the block; in YAML a `---` alone at the start of a line always ends the
    document, so no value can contain one.
*/
inline split_result split(std::string_view file, std::string_view origin, split_options opts = {})
{
    split_result r;
    std::size_t start = 0;
    if (file.substr(0, 3) == "\xEF\xBB\xBF") start = 3;
    r.body_offset = start;

    auto report = [&](std::string_view code, severity sev, std::uint32_t line, std::string msg) {
        r.diagnostics.push_back({std::string(code), sev, std::string(origin), line, line ? 1u : 0u, std::move(msg)});
    };

    std::size_t const first_end = detail::line_end(file, start);
    if (!detail::is_fence(file.substr(start, first_end - start))) {
        detail::check_body(file, start, origin, r.diagnostics);
        if (opts.missing == missing_policy::error)
            report(codes::frontmatter_missing, severity::error, 1,
                   "no frontmatter: the file must start with a line `---`, then the YAML metadata, then `---`");
        else
            report(codes::frontmatter_missing, severity::warning, 1,
                   "no frontmatter: the file is taken as a body without metadata; start it with `---` lines to add metadata");
        return r;
    }

    std::size_t pos = detail::after_break(file, first_end);
    std::uint32_t line = 2;
    std::size_t const fm_begin = pos;
    while (pos < file.size()) {
        std::size_t const end = detail::line_end(file, pos);
        if (detail::is_fence(file.substr(pos, end - pos))) {
            r.has_frontmatter = true;
            r.frontmatter = file.substr(fm_begin, pos - fm_begin);
            r.frontmatter_offset = fm_begin;
            r.frontmatter_line = 2;
            r.body_offset = detail::after_break(file, end);
            break;
        }
        pos = detail::after_break(file, end);
        ++line;
    }
    if (!r.has_frontmatter)
        report(codes::frontmatter_unclosed, severity::error, 1,
               "the frontmatter opened on this line is never closed: add a line `---` after the metadata");

    if (r.has_frontmatter) detail::check_body(file, r.body_offset, origin, r.diagnostics);
    return r;
}

} // namespace skillmd::frontmatter

#endif
