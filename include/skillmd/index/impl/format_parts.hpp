// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_INDEX_IMPL_FORMAT_PARTS_HPP
#define SKILLMD_INDEX_IMPL_FORMAT_PARTS_HPP

// The parts the index formats (index/formats.hpp) share: text cleaned and escaped, XML
// elements, and the `<skill>` blocks, escaped or as given.

#include <skillmd/index/render.hpp>

#include <string>
#include <string_view>

namespace skillmd::index_formats {

using namespace std::string_view_literals; // `out += "..."sv` appends without a strlen

namespace detail {

using skillmd::detail::append_clean_line;
using skillmd::detail::append_escaped;
using skillmd::detail::clean_line;

/// Appends `s` cleaned to one line, then escaped.
inline void put(std::string& out, std::string_view s, escaping e)
{
    if (e == escaping::none) append_clean_line(out, s);
    else if (!skillmd::detail::append_clean_escaped(out, s, e)) append_escaped(out, clean_line(s), e);
}

/// Appends `s` as element text (`xml_text`), escaped.
inline void put_xml(std::string& out, std::string_view s, escaping e)
{
    if (!skillmd::detail::append_clean_escaped(out, s, e)) append_escaped(out, skillmd::detail::xml_text(s), e);
}

/// `<tag>value</tag>` on its own line at `indent`; `value` is raw (`prepared`: already
/// `xml_text`, as `describe` gives it).
inline void element(std::string& out, std::string_view indent, std::string_view tag, std::string_view text,
                    escaping e, bool prepared = false)
{
    out += indent;
    out += '<';
    out += tag;
    out += '>';
    if (prepared) append_escaped(out, text, e);
    else put_xml(out, text, e);
    out += "</"sv;
    out += tag;
    out += ">\n"sv;
}

/// The indented `<skill>` block of the specification's client guide and Gemini CLI.
inline void indented_skill(std::string& out, index_entry const& e, std::string_view text)
{
    out += "  <skill>\n"sv;
    element(out, "    ", "name", e.name, escaping::xml);
    element(out, "    ", "description", text, escaping::xml, true);
    element(out, "    ", "location", e.location, escaping::xml);
    out += "  </skill>\n"sv;
}

/// The indented `<skill>` block with the name, description and location as given,
/// nothing escaped (Gemini CLI), or the location alone escaped (opencode).
inline void raw_skill(std::string& out, std::string_view name, std::string_view text, std::string_view location,
                      escaping location_escape)
{
    out += "  <skill>\n    <name>"sv;
    skillmd::detail::append_raw_text(out, name);
    out += "</name>\n    <description>"sv;
    out += text; // from describe: already raw text
    out += "</description>\n    <location>"sv;
    if (location_escape == escaping::none) {
        skillmd::detail::append_raw_text(out, location);
    } else if (skillmd::detail::find_invalid_utf8(location) == std::string_view::npos) {
        append_escaped(out, location, location_escape);
    } else {
        std::string repaired;
        skillmd::detail::append_raw_text(repaired, location);
        append_escaped(out, repaired, location_escape);
    }
    out += "</location>\n  </skill>\n"sv;
}

} // namespace detail

} // namespace skillmd::index_formats

#endif
