// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_DETAIL_HEX_HPP
#define SKILLMD_DETAIL_HEX_HPP

#include <cstdint>
#include <string>

namespace skillmd::detail {

/// The hexadecimal digits, lower case (escapes, digests) and upper case (messages, `%XX`).
inline constexpr char hex_lower[] = "0123456789abcdef";
inline constexpr char hex_upper[] = "0123456789ABCDEF";

/// The digit for the low four bits of `v`.
constexpr char hex_digit(std::uint32_t v, bool upper = false) noexcept
{
    return (upper ? hex_upper : hex_lower)[v & 15u];
}

/// Appends the low `digits` hexadecimal digits of `v`, most significant first.
inline void append_hex(std::string& out, std::uint32_t v, int digits, bool upper = false)
{
    for (int shift = 4 * (digits - 1); shift >= 0; shift -= 4) out += hex_digit(v >> shift, upper);
}

/// Appends byte `b` as two hexadecimal digits.
inline void append_hex_byte(std::string& out, unsigned char b, bool upper = false)
{
    out += hex_digit(b >> 4u, upper);
    out += hex_digit(b, upper);
}

/// `U+00A0`: a code point as Unicode writes it, for messages.
inline std::string code_point_label(char32_t c)
{
    std::string out = "U+";
    append_hex(out, static_cast<std::uint32_t>(c), c > 0xffff ? 5 : 4, true);
    return out;
}

} // namespace skillmd::detail

#endif
