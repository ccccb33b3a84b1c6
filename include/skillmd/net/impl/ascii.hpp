// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_NET_IMPL_ASCII_HPP
#define SKILLMD_NET_IMPL_ASCII_HPP

// HTTP's names (header names, schemes, host names) are compared ASCII case aside; the
// locale has no say in it.

#include <algorithm>
#include <string_view>

namespace skillmd::net::detail {

constexpr char ascii_lower(char c) noexcept
{
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

constexpr bool iequals(std::string_view a, std::string_view b) noexcept
{
    return a.size() == b.size() &&
           std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) { return ascii_lower(x) == ascii_lower(y); });
}

constexpr bool istarts_with(std::string_view s, std::string_view prefix) noexcept
{
    return s.size() >= prefix.size() && iequals(s.substr(0, prefix.size()), prefix);
}

} // namespace skillmd::net::detail

#endif
