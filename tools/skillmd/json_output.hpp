// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
//
// The command line's JSON, one convention for every command (docs/cli.md):
//  - a stream of items (parse, lint, fmt, list, tree, match, explain, digest, db list,
//    watch) is JSON Lines: one compact object per line, nothing else on stdout;
//  - a single result (index, invoke, new, db load) is one compact object on one line;
//  - a diagnostic is always {"file","line","column","severity","code","rule","message"},
//    and every code is a string ("code":"name-invalid"); a system's own numeric code
//    stands beside it only where that system defines one (invoke's "error_code": Claude
//    Code's Skill tool validation codes 1-5);
//  - every string goes through json_quote or json_line, which escape control and
//    invisible characters, so the JSON shown on a terminal is inert.
#ifndef SKILLMD_TOOLS_JSON_OUTPUT_HPP
#define SKILLMD_TOOLS_JSON_OUTPUT_HPP

#include <skillmd/detail/json.hpp>
#include <skillmd/frontmatter/document.hpp>
#include <skillmd/invoke/tool_calls.hpp>
#include <skillmd/model/diagnostic.hpp>

#include <boost/json/serialize.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace cli {

/// One line of the CLI's JSON: serialised, then every control or invisible formatting
/// character in its strings escaped (`\u009b`), as its text output escapes them.
inline std::string json_line(boost::json::value const& v)
{
    return skillmd::detail::escape_hidden_in_json(boost::json::serialize(v)) + "\n";
}

/// Each element of `items` on its own line (JSON Lines).
inline std::string json_lines(boost::json::array const& items)
{
    std::string out;
    for (auto const& v : items) out += json_line(v);
    return out;
}

/// Appends `"key":` (compact).
inline void json_key(std::string& out, std::string_view key)
{
    skillmd::detail::json_quote(out, key);
    out += ':';
}

/// A diagnostic in the one shape every command uses.
inline void write_diagnostic(std::string& out, skillmd::diagnostic const& d)
{
    out += '{';
    json_key(out, "file");
    skillmd::detail::json_quote(out, d.file);
    out += ",\"line\":" + std::to_string(d.line) + ",\"column\":" + std::to_string(d.column) + ",\"severity\":";
    skillmd::detail::json_quote(out, to_string(d.severity));
    out += ",\"code\":";
    skillmd::detail::json_quote(out, d.code);
    out += ",\"rule\":";
    skillmd::detail::json_quote(out, d.rule);
    out += ",\"message\":";
    skillmd::detail::json_quote(out, d.message);
    out += '}';
}

inline void write_diagnostics(std::string& out, std::vector<skillmd::diagnostic> const& ds)
{
    out += '[';
    for (std::size_t k = 0; k < ds.size(); ++k) {
        if (k) out += ',';
        write_diagnostic(out, ds[k]);
    }
    out += ']';
}

/// A frontmatter tree, compact: mappings as objects in key order, sequences as arrays and
/// every scalar a string (the YAML failsafe schema), as `skillmd parse` has always read it.
inline void write_frontmatter(std::string& out, skillmd::frontmatter::document::node_ref n)
{
    namespace fm = skillmd::frontmatter;
    if (n.kind() == fm::node_kind::scalar) return skillmd::detail::json_quote(out, n.value());
    bool const mapping = n.kind() == fm::node_kind::mapping;
    out += mapping ? '{' : '[';
    bool first = true;
    if (mapping) {
        for (auto [key, value] : n.entries()) {
            if (!first) out += ',';
            first = false;
            json_key(out, key.value());
            write_frontmatter(out, value);
        }
    } else {
        for (auto c : n) {
            if (!first) out += ',';
            first = false;
            write_frontmatter(out, c);
        }
    }
    out += mapping ? '}' : ']';
}

/// The string code of an invocation's error ("" for none).
inline std::string_view invoke_error_code(skillmd::invoke_error e)
{
    static constexpr std::string_view names[] = {"",
                                                 "invalid-format",
                                                 "unknown-skill",
                                                 "load-failed",
                                                 "model-invocation-disabled",
                                                 "not-prompt",
                                                 "user-invocation-disabled",
                                                 "permission-denied",
                                                 "arguments-too-long",
                                                 "bad-tool-call",
                                                 "content-too-long",
                                                 "shadowed-skill",
                                                 "out-of-memory"};
    auto const i = static_cast<std::size_t>(e);
    return i < std::size(names) ? names[i] : std::string_view("unknown-error");
}

/// An invocation: the library's object with its numeric `error_code` replaced by the
/// string `code` (null when nothing failed), the number kept beside it only for Claude
/// Code's Skill tool validation codes 1-5.
inline boost::json::object invocation_json(skillmd::invocation const& inv)
{
    boost::json::object out;
    for (auto const& [key, value] : skillmd::to_json(inv)) {
        if (key != "error_code") {
            out.emplace(key, value);
            continue;
        }
        auto const code = invoke_error_code(inv.error);
        out.emplace("code", code.empty() ? boost::json::value(nullptr) : boost::json::value(code));
        if (auto const n = static_cast<int>(inv.error); n >= 1 && n <= 5) out.emplace("error_code", n);
    }
    return out;
}

} // namespace cli

#endif
