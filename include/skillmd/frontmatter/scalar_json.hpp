// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_FRONTMATTER_SCALAR_JSON_HPP
#define SKILLMD_FRONTMATTER_SCALAR_JSON_HPP

// What a YAML loader makes of one scalar under the YAML 1.2 core schema, as a JSON
// value. One definition for everything that compares or carries frontmatter data typed
// the way loaders type it: the MCP entries (mcp/frontmatter_json.hpp) and the
// portability checks of `skillmd fmt` (authoring/portability.hpp).

#include <skillmd/config.hpp>
#include <skillmd/detail/hex.hpp>

#include <boost/json/string.hpp>
#include <boost/json/value.hpp>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace skillmd::frontmatter {

/// A number JSON's values cannot hold (an integer beyond 64 bits, or an infinity, which
/// Boost.JSON would write as the non-JSON `Infinity`) travels as a string: this mark,
/// then the number as JSON writes it. The MCP layer's writer puts it on the wire as a
/// bare number. The mark starts with a byte that is never part of UTF-8 text and goes
/// on with 64 random bits drawn once per process, so no string read from a file (a
/// frontmatter value is UTF-8; a file name is not always) can pass for one.
inline std::string const& number_text_mark()
{
    static std::string const mark = [] {
        std::random_device rd;
        std::string m = "\xff";
        for (int i = 0; i < 4; ++i) skillmd::detail::append_hex(m, static_cast<std::uint32_t>(rd() & 0xffffu), 4);
        return m + ':';
    }();
    return mark;
}

/// The JSON text of a number carried that way (`scalar_json`'s big integers), or "".
inline std::string_view number_text(boost::json::value const& v)
{
    auto const* s = v.if_string();
    if (s == nullptr || !std::string_view(*s).starts_with(number_text_mark()) || s->size() == number_text_mark().size()) return {};
    return std::string_view(*s).substr(number_text_mark().size());
}

namespace impl {

/// `digits` (valid in `base` 8 or 16, no leading zeros) in decimal; "" when longer than
/// `max_digits`. Nine decimal digits to a limb and seven input digits a step keep it fast
/// (a 4,096-digit number takes about 300,000 steps), and the cap keeps it bounded.
inline std::string to_decimal(std::string_view digits, unsigned base, std::size_t max_digits = 4096)
{
    if (digits.size() > max_digits) return {};
    constexpr std::uint64_t limb = 1000000000;
    std::vector<std::uint64_t> limbs{0}; // least significant first
    for (std::size_t i = 0; i < digits.size();) {
        std::uint64_t scale = 1, add = 0;
        for (int k = 0; k < 7 && i < digits.size(); ++k, ++i) { // base^7 * limb < 2^64
            char const c = digits[i];
            scale *= base;
            add = add * base + static_cast<std::uint64_t>(c >= 'a' ? c - 'a' + 10 : c >= 'A' ? c - 'A' + 10 : c - '0');
        }
        std::uint64_t carry = add;
        for (auto& l : limbs) {
            std::uint64_t const x = l * scale + carry;
            l = x % limb;
            carry = x / limb;
        }
        for (; carry; carry /= limb) limbs.push_back(carry % limb);
    }
    std::string out = std::to_string(limbs.back());
    for (auto it = limbs.rbegin() + 1; it != limbs.rend(); ++it) {
        std::string const part = std::to_string(*it);
        out.append(9 - part.size(), '0');
        out += part;
    }
    return out;
}

/// An integer of the core schema: int64, else uint64, else its digits (`number_text`).
inline boost::json::value integer(bool negative, std::string_view digits, unsigned base)
{
    std::uint64_t n = 0;
    auto const [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n, static_cast<int>(base));
    if (ec == std::errc() && end == digits.data() + digits.size()) {
        constexpr auto max = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
        if (!negative) return n <= max ? boost::json::value(static_cast<std::int64_t>(n)) : boost::json::value(n);
        if (n <= max + 1) return n == max + 1 ? std::numeric_limits<std::int64_t>::min() : -static_cast<std::int64_t>(n);
    }
    // Decimal digits are carried as they are, of any size; other bases are converted up to
    // 4,096 digits (past 10^4931), and beyond are infinite, as a double-based loader reads them.
    auto const first = digits.find_first_not_of('0');
    digits = first == std::string_view::npos ? "0" : digits.substr(first);
    std::string dec = base == 10 ? std::string(digits) : to_decimal(digits, base);
    if (dec.empty()) return negative ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
    return boost::json::string(number_text_mark() + (negative ? "-" : "") + dec);
}

} // namespace impl

/// A JSON value for a YAML scalar: plain scalars resolved by the YAML 1.2 core schema
/// (null, booleans, integers in bases 10, 8 `0o` and 16 `0x` of any size, floats with
/// `.inf` and `.nan`), every other style a string. Floats too large for a double are
/// infinite and too small zero, as loaders read them.
inline boost::json::value scalar_json(std::string_view v, bool plain)
{
    if (!plain) return boost::json::string(v);
    if (v.empty() || v == "~" || v == "null" || v == "Null" || v == "NULL") return nullptr;
    if (v == "true" || v == "True" || v == "TRUE") return true;
    if (v == "false" || v == "False" || v == "FALSE") return false;
    auto const all_of = [](std::string_view s, auto pred) { return !s.empty() && std::all_of(s.begin(), s.end(), pred); };
    auto const dec = [](char c) { return c >= '0' && c <= '9'; };
    bool const negative = v.front() == '-';
    std::string_view const unsigned_part = v.front() == '+' || v.front() == '-' ? v.substr(1) : v;
    if (all_of(unsigned_part, dec)) {
        auto const first = unsigned_part.find_first_not_of('0');
        return impl::integer(negative, first == std::string_view::npos ? "0" : unsigned_part.substr(first), 10);
    }
    if (v.size() > 2 && v.starts_with("0o") && all_of(v.substr(2), [](char c) { return c >= '0' && c <= '7'; }))
        return impl::integer(false, v.substr(2), 8);
    if (v.size() > 2 && v.starts_with("0x") &&
        all_of(v.substr(2), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }))
        return impl::integer(false, v.substr(2), 16);
    constexpr double inf = std::numeric_limits<double>::infinity();
    if (unsigned_part == ".inf" || unsigned_part == ".Inf" || unsigned_part == ".INF") return negative ? -inf : inf;
    if (v == ".nan" || v == ".NaN" || v == ".NAN") return std::numeric_limits<double>::quiet_NaN();
    // [-+]? ( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?
    std::size_t i = v.size() - unsigned_part.size(), int_digits = 0, frac_digits = 0;
    long magnitude = 0; // where the first significant digit sits: > 0 in front of the point
    bool significant = false;
    while (i < v.size() && dec(v[i])) {
        significant = significant || v[i] != '0';
        magnitude += significant;
        ++i, ++int_digits;
    }
    if (i < v.size() && v[i] == '.') {
        ++i;
        while (i < v.size() && dec(v[i])) {
            if (!significant && v[i] == '0') --magnitude;
            significant = significant || v[i] != '0';
            ++i, ++frac_digits;
        }
    }
    if (int_digits == 0 && frac_digits == 0) return boost::json::string(v);
    if (i < v.size() && (v[i] == 'e' || v[i] == 'E')) {
        ++i;
        bool const minus = i < v.size() && v[i] == '-';
        if (i < v.size() && (v[i] == '+' || v[i] == '-')) ++i;
        long exp = 0;
        std::size_t exp_digits = 0;
        for (; i < v.size() && dec(v[i]); ++i, ++exp_digits) exp = std::min(exp * 10 + (v[i] - '0'), 1L << 40);
        if (exp_digits == 0) return boost::json::string(v);
        magnitude += minus ? -exp : exp;
    }
    if (i != v.size()) return boost::json::string(v);
    double d = 0;
    std::string const t(v.front() == '+' ? v.substr(1) : v);
    auto const [end, ec] = std::from_chars(t.data(), t.data() + t.size(), d);
    if (end != t.data() + t.size()) return boost::json::string(v);
    if (ec == std::errc::result_out_of_range) return magnitude > 0 ? (negative ? -inf : inf) : (negative ? -0.0 : 0.0);
    if (ec != std::errc()) return boost::json::string(v);
    return d;
}

} // namespace skillmd::frontmatter

#endif
