// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_DETAIL_TRIM_HPP
#define SKILLMD_DETAIL_TRIM_HPP

#include <string_view>

namespace skillmd::detail {

/// The character sets the trims take: blanks within a line, blanks and line breaks, and
/// C's `isspace` (the ASCII white space). Trims over Unicode white space (JavaScript's
/// `trim`) are the line parser's own.
inline constexpr std::string_view blanks = " \t";
inline constexpr std::string_view blanks_and_breaks = " \t\r\n";
inline constexpr std::string_view ascii_white_space = " \t\r\n\v\f";

/// `s` without the characters of `set` at its start.
constexpr std::string_view trim_start(std::string_view s, std::string_view set = blanks) noexcept
{
    auto const b = s.find_first_not_of(set);
    return b == std::string_view::npos ? s.substr(s.size()) : s.substr(b);
}

/// `s` without the characters of `set` at its end.
constexpr std::string_view trim_end(std::string_view s, std::string_view set = blanks) noexcept
{
    auto const e = s.find_last_not_of(set);
    return e == std::string_view::npos ? s.substr(0, 0) : s.substr(0, e + 1);
}

/// `s` without the characters of `set` at either end.
constexpr std::string_view trim(std::string_view s, std::string_view set = blanks) noexcept
{
    return trim_end(trim_start(s, set), set);
}

/// `s` without blanks and line breaks at either end (arguments, names typed by a user).
constexpr std::string_view trim_spaces(std::string_view s) noexcept
{
    return trim(s, blanks_and_breaks);
}

} // namespace skillmd::detail

#endif
