// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_INVOKE_SLASH_HPP
#define SKILLMD_INVOKE_SLASH_HPP

// Slash commands: `/name rest of line` split into a command and its
// arguments. The checks a name must pass and sven's sanitiser are in model/names.hpp.

#include <skillmd/config.hpp>
#include <skillmd/model/names.hpp>

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>

namespace skillmd {

struct slash_command
{
    std::string name;      ///< without the leading `/`; may be empty (`/` alone)
    std::string arguments; ///< the rest of the line, trimmed
};

/// `/name rest` -> {name, rest}; nothing when the text does not start with `/`
/// (after leading white space): it is an ordinary message.
inline std::optional<slash_command> parse_slash(std::string_view text)
{
    auto const ws = " \t\r\n\v\f";
    auto const b = text.find_first_not_of(ws);
    if (b == std::string_view::npos || text[b] != '/') return std::nullopt;
    text.remove_prefix(b + 1);
    auto const end = std::min(text.find_first_of(ws), text.size());
    slash_command c{std::string(text.substr(0, end)), {}};
    std::string_view rest = text.substr(end);
    auto const rb = rest.find_first_not_of(ws);
    if (rb != std::string_view::npos) {
        rest.remove_prefix(rb);
        rest = rest.substr(0, rest.find_last_not_of(ws) + 1);
        c.arguments = std::string(rest);
    }
    return c;
}


} // namespace skillmd

#endif
