// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_INVOKE_SLASH_HPP
#define SKILLMD_INVOKE_SLASH_HPP

// Slash commands: `/name rest of line` split into a command and its
// arguments. The checks a name must pass and sven's sanitiser are in model/names.hpp.

#include <skillmd/config.hpp>
#include <skillmd/detail/trim.hpp>
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
    auto const ws = detail::ascii_white_space;
    text = detail::trim_start(text, ws);
    if (text.empty() || text.front() != '/') return std::nullopt;
    text.remove_prefix(1);
    auto const end = std::min(text.find_first_of(ws), text.size());
    return slash_command{std::string(text.substr(0, end)), std::string(detail::trim(text.substr(end), ws))};
}


} // namespace skillmd

#endif
