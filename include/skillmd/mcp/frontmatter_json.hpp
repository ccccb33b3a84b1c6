// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_MCP_FRONTMATTER_JSON_HPP
#define SKILLMD_MCP_FRONTMATTER_JSON_HPP

// A SKILL.md frontmatter as the JSON object the MCP Skills extension carries in each
// entry ("verbatim": what a YAML loader gives, plain scalars typed by the YAML 1.2 core
// schema), both ways: the server renders it from the file; the host compares a fetched
// file with the entry, and builds a registry record from the entry alone (the extension
// forbids fetching SKILL.md before the skill is used).

#include <skillmd/frontmatter/scalar_json.hpp>
#include <skillmd/frontmatter/split.hpp>
#include <skillmd/frontmatter/x3_parser.hpp>

#include <boost/json.hpp>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace skillmd::mcp {

using frontmatter::scalar_json; // the YAML 1.2 core schema, in frontmatter/scalar_json.hpp

/// A frontmatter tree as the JSON a YAML loader would give.
inline boost::json::value to_json(frontmatter::document::node_ref n)
{
    switch (n.kind()) {
    case frontmatter::node_kind::scalar: return scalar_json(n.value(), n.style() == frontmatter::scalar_style::plain);
    case frontmatter::node_kind::sequence: {
        boost::json::array a;
        for (auto c : n) a.push_back(to_json(c));
        return a;
    }
    case frontmatter::node_kind::mapping: {
        boost::json::object o;
        for (auto [k, v] : n.entries()) o[k.value()] = to_json(v);
        return o;
    }
    }
    return nullptr;
}

/// The frontmatter of a whole SKILL.md as a JSON object, or nothing and `error`. The
/// extension requires `name` (a string) and `description`.
inline std::optional<boost::json::object> frontmatter_json(std::string_view skill_md, std::string& error)
{
    auto const parts = frontmatter::split(skill_md, "SKILL.md");
    if (!parts.has_frontmatter) {
        error = "SKILL.md has no frontmatter";
        return std::nullopt;
    }
    auto const parsed = frontmatter::x3_parser{}.parse(parts.frontmatter, "SKILL.md", parts.frontmatter_line);
    if (!parsed.ok() || parsed.doc->empty() || !parsed.doc->root().is_mapping()) {
        error = "SKILL.md's frontmatter is not a YAML mapping skillmd reads";
        return std::nullopt;
    }
    boost::json::value fm = to_json(parsed.doc->root());
    auto const* name = fm.as_object().if_contains("name");
    if (name == nullptr || !name->is_string() || !fm.as_object().if_contains("description")) {
        error = "SKILL.md's frontmatter lacks `name` or `description`";
        return std::nullopt;
    }
    return std::move(fm.as_object());
}

/// Equal as JSON data: objects whatever their key order, numbers by value (`2` and
/// `2.0` are one number in JSON, whichever way a peer wrote it).
inline bool same_json(boost::json::value const& a, boost::json::value const& b)
{
    if (a.is_number() && b.is_number()) {
        if (a.is_double() || b.is_double()) return a.to_number<double>() == b.to_number<double>();
        return a == b;
    }
    if (a.kind() != b.kind()) return false;
    if (auto const* x = a.if_object()) {
        auto const& y = b.as_object();
        if (x->size() != y.size()) return false;
        for (auto const& kv : *x) {
            auto const* other = y.if_contains(kv.key());
            if (other == nullptr || !same_json(kv.value(), *other)) return false;
        }
        return true;
    }
    if (auto const* x = a.if_array()) {
        auto const& y = b.as_array();
        if (x->size() != y.size()) return false;
        for (std::size_t i = 0; i < x->size(); ++i)
            if (!same_json((*x)[i], y[i])) return false;
        return true;
    }
    return a == b;
}

/** A SKILL.md head that reads back as `fm`, keys in `leave_out` left out: each key a
    double-quoted scalar, each value JSON (JSON's strings are YAML double-quoted scalars,
    its objects and arrays YAML flow collections). No body.
*/
inline std::string frontmatter_text(boost::json::object const& fm, std::span<std::string_view const> leave_out = {})
{
    std::string out = "---\n";
    for (auto const& kv : fm) {
        if (std::find(leave_out.begin(), leave_out.end(), kv.key()) != leave_out.end()) continue;
        out += boost::json::serialize(boost::json::value(kv.key()));
        out += ": ";
        out += boost::json::serialize(kv.value());
        out += '\n';
    }
    out += "---\n";
    return out;
}

} // namespace skillmd::mcp

#endif
