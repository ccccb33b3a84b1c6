// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_MCP_HPP
#define SKILLMD_MCP_HPP

// Skills over MCP with the Skills extension (`io.modelcontextprotocol/skills`), both ways,
// and content digests. Needs OpenSSL's libcrypto: link skillmd::mcp.
//   skill_listing.hpp  what belongs to a skill, and the limits on it
//   digest.hpp  SHA-256 of every file of a skill, the extension's manifest, the discovery RFC's digest
//   uri.hpp     `skill://` URIs, made canonical and read strictly
//   frontmatter_json.hpp  a frontmatter as the entry's JSON object, and back
//   server.hpp  a registry served to MCP clients, one JSON-RPC message at a time (any transport)
//   http.hpp    the server behind streamable HTTP: the handler a net::http_server runs
//   revisions.hpp  the protocol revisions spoken and the extension's names, for both sides
//   client.hpp  a server connection (any transport); the JSON-RPC client over a child's stdio
//   remote.hpp  the connection to a server at an http(s):// URL (links skillmd::net too)
//   published_skill.hpp  a skill as a server's listing published it, with each file's digest and size
//   source.hpp  a tier whose skills come from an MCP server, digests verified on every read

#include <skillmd/mcp/skill_listing.hpp>
#include <skillmd/mcp/digest.hpp>
#include <skillmd/mcp/uri.hpp>
#include <skillmd/mcp/frontmatter_json.hpp>
#include <skillmd/mcp/server.hpp>
#include <skillmd/mcp/http.hpp>
#include <skillmd/mcp/revisions.hpp>
#include <skillmd/mcp/client.hpp>
#include <skillmd/mcp/remote.hpp>
#include <skillmd/mcp/published_skill.hpp>
#include <skillmd/mcp/source.hpp>

#endif
