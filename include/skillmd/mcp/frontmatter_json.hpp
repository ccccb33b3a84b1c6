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
#include <skillmd/detail/utf8.hpp>

#include <boost/json.hpp>

#include <algorithm>
#include <charconv>
#include <limits>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace skillmd::mcp {

using frontmatter::scalar_json; // the YAML 1.2 core schema, in frontmatter/scalar_json.hpp

/// A number as the wire carries it: an infinity as `1e999` (which every JSON reader
/// takes for one), finite numbers as they are; NaN has no JSON form and is refused.
inline bool carry_number(boost::json::value& v)
{
    if (!v.is_double()) return true;
    double const d = v.get_double();
    if (d != d) return false;
    if (d == std::numeric_limits<double>::infinity() || d == -std::numeric_limits<double>::infinity())
        v = boost::json::string(frontmatter::number_text_mark() + (d < 0 ? "-1e999" : "1e999"));
    return true;
}

/// A mapping key as a loader's JSON names it: a plain key the core schema reads as an
/// integer, a boolean or null is written as that value is (`0x10` is "16", `TRUE` is
/// "true", `~` is "null"), the way JavaScript and Python loaders stringify them; any
/// other key as written (floats are left alone: loaders disagree on `1.0`).
inline std::string key_text(frontmatter::document::node_ref k)
{
    if (k.style() != frontmatter::scalar_style::plain) return std::string(k.value());
    auto const v = scalar_json(k.value(), true);
    if (v.is_null()) return "null";
    if (v.is_bool()) return v.as_bool() ? "true" : "false";
    if (v.is_int64()) return std::to_string(v.as_int64());
    if (v.is_uint64()) return std::to_string(v.as_uint64());
    if (auto const big = frontmatter::number_text(v); !big.empty()) return std::string(big);
    return std::string(k.value());
}

/// A frontmatter tree as the JSON a YAML loader would give; false in `ok` when it holds
/// a value JSON cannot carry (`.nan`) or two keys of one mapping a loader reads as one
/// (`16` and `0x10`).
inline boost::json::value to_json(frontmatter::document::node_ref n, bool& ok)
{
    switch (n.kind()) {
    case frontmatter::node_kind::scalar: {
        boost::json::value v = scalar_json(n.value(), n.style() == frontmatter::scalar_style::plain);
        ok = carry_number(v) && ok;
        return v;
    }
    case frontmatter::node_kind::sequence: {
        boost::json::array a;
        for (auto c : n) a.push_back(to_json(c, ok));
        return a;
    }
    case frontmatter::node_kind::mapping: {
        boost::json::object o;
        for (auto [k, v] : n.entries()) {
            auto const [at, fresh] = o.emplace(key_text(k), nullptr);
            ok = fresh && ok;
            at->value() = to_json(v, ok);
        }
        return o;
    }
    }
    return nullptr;
}

/// `v` as JSON text: the numbers `carry_number` and `scalar_json` keep as marked strings
/// written bare, digit for digit (`12345678901234567890123`, `1e999`). The mark (see
/// `frontmatter::number_text_mark`) cannot come from input, so nothing else is unwrapped.
inline std::string json_text(boost::json::value const& v)
{
    std::string s = boost::json::serialize(v);
    std::string const quoted_mark = '"' + frontmatter::number_text_mark();
    if (s.find(quoted_mark) == std::string::npos) return s;
    std::string out;
    out.reserve(s.size());
    std::size_t done = 0;
    for (std::size_t at = s.find(quoted_mark); at != std::string::npos; at = s.find(quoted_mark, done)) {
        std::size_t const from = at + quoted_mark.size(), end = s.find('"', from);
        std::string_view const num = std::string_view(s).substr(from, end == std::string::npos ? 0 : end - from);
        if (num.empty() || num.find_first_not_of("0123456789+-.eE") != std::string_view::npos) {
            out.append(s, done, from - done); // not one of ours after all: kept as it is
            done = from;
            continue;
        }
        out.append(s, done, at - done);
        out += num;
        done = end + 1;
    }
    out.append(s, done);
    return out;
}

/// The frontmatter of a whole SKILL.md as a JSON object, or nothing and `error`. The
/// extension requires `name` (a string) and `description`.
inline std::optional<boost::json::object> frontmatter_json(std::string_view skill_md, std::string& error)
{
    if (skillmd::detail::find_invalid_utf8(skill_md) != std::string_view::npos) {
        error = "SKILL.md is not UTF-8 text";
        return std::nullopt;
    }
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
    bool carried = true;
    boost::json::value fm = to_json(parsed.doc->root(), carried);
    if (!carried) {
        error = "SKILL.md's frontmatter holds `.nan`, which JSON cannot carry, or two keys a YAML loader reads as one";
        return std::nullopt;
    }
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
    // A number kept as text (`json_text`) against the number a peer's parser made of it.
    auto const number = [](boost::json::value const& v) -> std::optional<boost::json::value> {
        if (v.is_number()) return v;
        auto const text = frontmatter::number_text(v);
        if (text.empty()) return std::nullopt;
        boost::system::error_code ec;
        auto parsed = boost::json::parse(text, ec);
        if (ec || !parsed.is_number()) return std::nullopt;
        return parsed;
    };
    if (!frontmatter::number_text(a).empty() || !frontmatter::number_text(b).empty()) {
        auto const x = number(a), y = number(b);
        if (!x || !y) return false;
        if (!frontmatter::number_text(a).empty() && !frontmatter::number_text(b).empty()) return a == b;
        return same_json(*x, *y);
    }
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
    // Infinities a peer's parser made of `1e999` go back as `1e999` (a YAML float too).
    auto const carried = [](auto const& self, boost::json::value v) -> boost::json::value {
        if (auto* o = v.if_object())
            for (auto& kv : *o) kv.value() = self(self, kv.value());
        else if (auto* a = v.if_array())
            for (auto& x : *a) x = self(self, x);
        else if (!carry_number(v))
            v = nullptr;
        return v;
    };
    for (auto const& kv : fm) {
        if (std::find(leave_out.begin(), leave_out.end(), kv.key()) != leave_out.end()) continue;
        out += boost::json::serialize(boost::json::value(kv.key()));
        out += ": ";
        out += json_text(carried(carried, kv.value()));
        out += '\n';
    }
    out += "---\n";
    return out;
}

} // namespace skillmd::mcp

#endif
