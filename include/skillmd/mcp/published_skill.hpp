// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_MCP_PUBLISHED_SKILL_HPP
#define SKILLMD_MCP_PUBLISHED_SKILL_HPP

// A skill as an MCP server's `skills/list` published it: its URI, frontmatter and files,
// each with the digest and size every read is checked against (mcp/source.hpp).

#include <boost/json/object.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace skillmd::mcp {

/// One file a listing published: its URI, path below the skill, digest and size.
struct published_file
{
    std::string uri;
    std::string path;
    std::string hex;
    std::uint64_t size = 0;
};

/// One skill a listing published.
struct published_skill
{
    std::string path;                 ///< the `<skill-path>` of its URI
    std::string uri;                  ///< its SKILL.md
    std::vector<published_file> files; ///< SKILL.md first
    boost::json::object frontmatter;   ///< as the entry gave it
};

} // namespace skillmd::mcp

#endif
