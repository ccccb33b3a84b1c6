// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_TEXT_HPP
#define SKILLMD_TEXT_HPP

// The text helpers an index or content format needs, under public names: what the
// shipped formats use to keep file text on one line, inside an XML element, escaped,
// and within a count of code points (budgets count code points, not bytes). No X3.

#include <skillmd/detail/prompt_text.hpp>
#include <skillmd/detail/utf8.hpp>

#include <cstddef>
#include <string_view>

namespace skillmd::text {

using skillmd::escaping; // none, xml, html, markdown

/// `s` on one line: controls, line breaks and invisible formatting characters become
/// spaces or go, runs of spaces become one, invalid UTF-8 becomes U+FFFD.
using detail::append_clean_line;
using detail::clean_line;

/// `s` for an XML element: stripped at both ends, line breaks kept, controls and
/// invisible formatting characters dropped (escape it afterwards with `append_escaped`).
using detail::append_xml_text;
using detail::xml_text;

/// `s` with the characters `escaping` names escaped; how long one code point becomes;
/// whether `s` holds any.
using detail::append_escaped;
using detail::escaped_length;
using detail::needs_escaping;

/// The longest prefix of `s` with at most `n` code points; `s` cut to `n` code points
/// ending in `…` when something was cut.
using detail::prefix_code_points;
using detail::shorten;

/// Code points in UTF-8 text: what index budgets count.
inline std::size_t code_points(std::string_view s) noexcept { return detail::utf8_length(s); }

} // namespace skillmd::text

#endif
