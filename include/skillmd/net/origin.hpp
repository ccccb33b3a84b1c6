// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_NET_ORIGIN_HPP
#define SKILLMD_NET_ORIGIN_HPP

// The checks that keep web pages away from a server on this machine. A page of any site
// can make the browser send requests to 127.0.0.1, and with DNS rebinding its own host
// name can even resolve there, which makes the server the page's own origin. Two headers
// give it away: the Origin the browser adds (to every POST, and to any cross-origin
// request), and the Host, which names the attacker's domain after a rebinding (and is
// the only sign of it on a same-origin GET, which carries no Origin). So an origin must
// be, character for character, what a browser sends for a loopback page or one the server
// was told to allow, and a Host must name a loopback host, the address listened on or an
// allowed name. Parsing is strict on purpose: a prefix match would let
// `http://localhost.evil.com` or `http://localhost@evil.com` through.

#include <skillmd/config.hpp>
#include <skillmd/net/impl/ascii.hpp>

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace skillmd::net {

namespace detail {

/// `host[:port]` as in a Host header or an origin: a name of letters, digits, `-` and
/// `.`, or an IPv6 address in brackets, then an optional port 1-65535 without leading
/// zeros. The name, or none when `authority` is anything else (user info, a path, spaces).
constexpr std::optional<std::string_view> host_name(std::string_view authority) noexcept
{
    auto const is_name_char = [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.';
    };
    auto const is_v6_char = [](char c) {
        return (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') || (c >= '0' && c <= '9') || c == ':' || c == '.';
    };
    std::string_view name, port;
    if (!authority.empty() && authority.front() == '[') {
        auto const close = authority.find(']');
        if (close == std::string_view::npos || close < 3) return std::nullopt;
        name = authority.substr(0, close + 1);
        port = authority.substr(close + 1);
        if (!std::all_of(name.begin() + 1, name.end() - 1, is_v6_char)) return std::nullopt;
    } else {
        auto const colon = authority.find(':');
        name = authority.substr(0, colon);
        port = colon == std::string_view::npos ? std::string_view() : authority.substr(colon);
        if (name.empty() || !std::all_of(name.begin(), name.end(), is_name_char)) return std::nullopt;
    }
    if (port.empty()) return name;
    if (port.front() != ':') return std::nullopt; // `[::1]x80`
    port.remove_prefix(1);
    if (port.empty() || port.size() > 5 || port.front() == '0') return std::nullopt;
    unsigned value = 0;
    for (char const c : port) {
        if (c < '0' || c > '9') return std::nullopt;
        value = value * 10 + static_cast<unsigned>(c - '0');
    }
    if (value > 65535) return std::nullopt;
    return name;
}

} // namespace detail

/// True for `localhost`, `127.0.0.1` or `[::1]` with an optional port (as host_name
/// reads it), ASCII case aside: a Host header or an origin's host on this machine.
constexpr bool is_loopback_host(std::string_view authority) noexcept
{
    auto const name = detail::host_name(authority);
    return name && (detail::iequals(*name, "localhost") || *name == "127.0.0.1" || *name == "[::1]");
}

/// True for `http` or `https` followed by a loopback host (is_loopback_host), and
/// nothing else: no path, no user info, no trailing dot, the scheme's case aside.
constexpr bool is_loopback_origin(std::string_view origin) noexcept
{
    for (std::string_view const scheme : {"http://", "https://"})
        if (detail::istarts_with(origin, scheme)) return is_loopback_host(origin.substr(scheme.size()));
    return false;
}

/// Whether a request carrying this `Origin` may go on: a loopback origin when `loopback`
/// is on, or one of `allowed` as a whole (ASCII case aside). `null`, the origin of files,
/// sandboxes and redirects, passes only when listed.
inline bool origin_allowed(std::string_view origin, std::vector<std::string> const& allowed, bool loopback) noexcept
{
    if (loopback && is_loopback_origin(origin)) return true;
    return std::any_of(allowed.begin(), allowed.end(), [&](std::string const& a) { return detail::iequals(a, origin); });
}

/// Whether a request with this `Host` may go on: a loopback host, the address the server
/// listens on (`listened`, empty when it listens on every address), or a name among
/// `allowed`, each with any port, ASCII case aside.
inline bool host_allowed(std::string_view host, std::vector<std::string> const& allowed, std::string_view listened) noexcept
{
    if (is_loopback_host(host)) return true;
    auto const name = detail::host_name(host);
    if (!name) return false;
    if (!listened.empty() && detail::iequals(*name, listened)) return true;
    return std::any_of(allowed.begin(), allowed.end(), [&](std::string const& a) { return detail::iequals(a, *name); });
}

} // namespace skillmd::net

#endif
