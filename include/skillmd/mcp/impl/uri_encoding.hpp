// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_MCP_IMPL_URI_ENCODING_HPP
#define SKILLMD_MCP_IMPL_URI_ENCODING_HPP

// The bytes a `skill://` URI (mcp/uri.hpp) keeps as they are, and its percent-encoding
// both ways.

#include <skillmd/detail/hex.hpp>

#include <string>
#include <string_view>

namespace skillmd::mcp {

namespace detail {

inline bool unreserved(unsigned char c) noexcept
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' ||
           c == '~';
}

inline void encode_segment(std::string& out, std::string_view s)
{
    for (char ch : s) {
        auto const c = static_cast<unsigned char>(ch);
        if (unreserved(c)) {
            out += ch;
        } else {
            out += '%';
            skillmd::detail::append_hex_byte(out, c, true);
        }
    }
}

inline int hex_value(char c) noexcept
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

} // namespace detail

} // namespace skillmd::mcp

#endif
