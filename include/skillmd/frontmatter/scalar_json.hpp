// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_FRONTMATTER_SCALAR_JSON_HPP
#define SKILLMD_FRONTMATTER_SCALAR_JSON_HPP

// What a YAML loader makes of one scalar under the YAML 1.2 core schema, as a JSON
// value. One definition for everything that compares or carries frontmatter data typed
// the way loaders type it: the MCP entries (mcp/frontmatter_json.hpp) and the
// portability checks of `skillmd fmt` (authoring/portability.hpp).

#include <skillmd/config.hpp>

#include <boost/json/string.hpp>
#include <boost/json/value.hpp>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>

namespace skillmd::frontmatter {

/// A JSON value for a YAML scalar: plain scalars resolved by the YAML 1.2 core schema
/// (null, booleans, integers and floats; infinities and NaN stay text, JSON has none),
/// every other style a string.
inline boost::json::value scalar_json(std::string_view v, bool plain)
{
    if (!plain) return boost::json::string(v);
    if (v.empty() || v == "~" || v == "null" || v == "Null" || v == "NULL") return nullptr;
    if (v == "true" || v == "True" || v == "TRUE") return true;
    if (v == "false" || v == "False" || v == "FALSE") return false;
    std::string_view digits = v;
    if (digits.front() == '+' || digits.front() == '-') digits.remove_prefix(1);
    bool const all_digits = !digits.empty() && std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (all_digits) {
        std::int64_t n = 0;
        std::string_view const t = v.front() == '+' ? v.substr(1) : v;
        if (auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), n); ec == std::errc() && end == t.data() + t.size())
            return n;
    }
    if (v.starts_with("0x") && v.size() > 2) {
        std::uint64_t n = 0;
        if (auto [end, ec] = std::from_chars(v.data() + 2, v.data() + v.size(), n, 16); ec == std::errc() && end == v.data() + v.size())
            return n;
    }
    // [-+]? ( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?
    {
        std::size_t i = v.front() == '+' || v.front() == '-' ? 1 : 0, int_digits = 0, frac_digits = 0;
        while (i < v.size() && v[i] >= '0' && v[i] <= '9') ++i, ++int_digits;
        bool dot = false;
        if (i < v.size() && v[i] == '.') {
            dot = true;
            ++i;
            while (i < v.size() && v[i] >= '0' && v[i] <= '9') ++i, ++frac_digits;
        }
        bool ok = int_digits > 0 || frac_digits > 0;
        if (ok && i < v.size() && (v[i] == 'e' || v[i] == 'E')) {
            ++i;
            if (i < v.size() && (v[i] == '+' || v[i] == '-')) ++i;
            std::size_t exp = 0;
            while (i < v.size() && v[i] >= '0' && v[i] <= '9') ++i, ++exp;
            ok = exp > 0;
        } else if (ok && !dot) {
            ok = false; // digits alone were handled above (too large for an integer: text)
        }
        if (ok && i == v.size()) {
            double d = 0;
            std::string const t(v.front() == '+' ? v.substr(1) : v);
            if (auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), d); ec == std::errc() && end == t.data() + t.size())
                return d;
        }
    }
    return boost::json::string(v);
}

} // namespace skillmd::frontmatter

#endif
