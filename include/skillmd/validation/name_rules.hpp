// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_VALIDATION_NAME_RULES_HPP
#define SKILLMD_VALIDATION_NAME_RULES_HPP

// The Agent Skills specification's rules for a skill's `name`, in one place: the
// specification's dialect reports each rule a name breaks, and the MCP server serves
// only skills whose names break none (the Skills extension requires it).

#include <skillmd/detail/unicode.hpp>
#include <skillmd/detail/utf8.hpp>
#include <skillmd/model/diagnostic.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace skillmd {

/// One rule a name breaks: its diagnostic code and what to tell the author.
struct broken_name_rule
{
    std::string_view code;
    std::string message;
};

namespace detail {
/// A name cut to 60 bytes and quoted, for messages.
inline std::string quote_short(std::string_view s)
{
    std::string r = "`";
    r += s.size() <= 60 ? s : s.substr(0, 57);
    if (s.size() > 60) r += "...";
    return r + "`";
}
} // namespace detail

/// Every rule of the specification `name` breaks, read as its reference validator reads
/// it (white space stripped, NFKC): at most `max_name` characters, lowercase, letters,
/// digits and `-` only, no `-` at either end, no `--`. Empty when it follows them all.
inline std::vector<broken_name_rule> broken_name_rules(std::string_view given, std::size_t max_name = 64)
{
    std::vector<broken_name_rule> out;
    std::string const name = detail::nfkc(detail::strip(given));
    std::size_t const n = detail::utf8_length(name);
    if (n > max_name)
        out.push_back({codes::name_too_long, "name " + detail::quote_short(name) + " is " + std::to_string(n) +
                                                 " characters; the limit is " + std::to_string(max_name)});
    if (name != detail::to_lower(name))
        out.push_back({codes::name_not_lowercase,
                       "name " + detail::quote_short(name) + " must be lowercase; write " + detail::quote_short(detail::to_lower(name))});
    if (!name.empty() && (name.front() == '-' || name.back() == '-'))
        out.push_back({codes::name_edge_hyphen, "a name cannot start or end with `-`"});
    if (name.find("--") != std::string::npos) out.push_back({codes::name_double_hyphen, "a name cannot contain `--`"});
    bool bad = false;
    detail::for_each_code_point(name, [&](char32_t c, std::size_t) { bad = bad || !(c == '-' || detail::is_alnum(c)); });
    if (bad)
        out.push_back({codes::name_invalid_character, "name " + detail::quote_short(name) + " may hold only letters, digits and `-`"});
    return out;
}

} // namespace skillmd

#endif
