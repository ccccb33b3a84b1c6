// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_MCP_REVISIONS_HPP
#define SKILLMD_MCP_REVISIONS_HPP

// The MCP protocol revisions skillmd speaks, and the names both sides of the Skills
// extension use: one list, read by the server (server.hpp) and the clients (client.hpp,
// remote.hpp) alike.

#include <string_view>

namespace skillmd::mcp {

inline constexpr std::string_view extension_id = "io.modelcontextprotocol/skills";

/// The revisions with a lifecycle: `initialize` answers in the client's revision when it
/// is one of these, else in the first.
inline constexpr std::string_view session_versions[] = {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"};
/// The stateless revisions: a request names one in `params._meta` and is answered alone.
inline constexpr std::string_view stateless_versions[] = {"2026-07-28"};
/// The `params._meta` keys of the stateless revisions.
inline constexpr std::string_view meta_version = "io.modelcontextprotocol/protocolVersion";
inline constexpr std::string_view meta_client_capabilities = "io.modelcontextprotocol/clientCapabilities";
inline constexpr std::string_view meta_server_info = "io.modelcontextprotocol/serverInfo";

} // namespace skillmd::mcp

#endif
