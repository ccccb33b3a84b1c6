// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_MCP_SKILL_LISTING_HPP
#define SKILLMD_MCP_SKILL_LISTING_HPP

// What belongs to a skill (skill_listing, made by list_skill in mcp/digest.hpp) and the
// rules and limits its listing follows.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace skillmd::mcp {

/// The extension's limits on one skill: files listed, and their bytes in all.
inline constexpr std::size_t max_skill_files = 512;
inline constexpr std::uint64_t max_skill_bytes = 16ull * 1024 * 1024;

/// The deepest folder below a skill's own that its listing goes into.
inline constexpr std::size_t max_skill_depth = 16;

/// A file of a skill by path and size, before it is digested.
struct listed_file
{
    std::string path; ///< below the skill's folder, `/`-separated
    std::uint64_t size = 0;
};

/** What belongs to a skill: every regular file below its folder, or why the list is not
    complete. Links that stay inside are followed (a file reached two ways is listed
    under both), links that leave are not part of the skill, and neither is version
    control data (`.git`): each such entry is named in `excluded`. A folder deeper than
    max_skill_depth, more than max_skill_files files or folders, or a folder that cannot
    be read makes the list incomplete (`error`): nothing is left out in silence.
*/
struct skill_listing
{
    std::vector<listed_file> files; ///< sorted by path
    std::vector<std::string> excluded; ///< `path: why`, for what the rules leave out
    std::string error;
    bool complete() const noexcept { return error.empty(); }
};

/// True when `rel` (a plain relative path) may name a file of a skill under the listing's
/// rules: no `.git` component and no deeper than max_skill_depth folders.
inline bool within_listing_rules(std::string_view rel) noexcept
{
    std::size_t folders = 0, pos = 0;
    while (true) {
        auto const slash = rel.find('/', pos);
        auto const part = rel.substr(pos, slash == std::string_view::npos ? std::string_view::npos : slash - pos);
        if (part == ".git") return false;
        if (slash == std::string_view::npos) return folders <= max_skill_depth;
        ++folders;
        pos = slash + 1;
    }
}

} // namespace skillmd::mcp

#endif
