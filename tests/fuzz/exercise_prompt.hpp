// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_TESTS_FUZZ_EXERCISE_PROMPT_HPP
#define SKILLMD_TESTS_FUZZ_EXERCISE_PROMPT_HPP

// What the prompt-side fuzzers run on every input, and what the test suite replays:
// exercise_slash drives the slash-command parser, argument splitting and substitution
// under every policy; exercise_prompt one-line and XML text cleaning, escaping and every
// index format under every budget strategy. Broken invariants abort.

#include "expect.hpp"

#include <skillmd/invoke/arguments.hpp>
#include <skillmd/index/formats.hpp>
#include <skillmd/invoke/slash.hpp>

#include <cstddef>
#include <map>
#include <vector>
#include <string>
#include <string_view>

namespace skillmd::fuzz {

inline bool valid_utf8(std::string_view s) { return detail::find_invalid_utf8(s) == std::string_view::npos; }

/// An input of the prompt-side targets: a control byte, then the text: a body, NUL, arguments.
struct prompt_input
{
    unsigned control;
    std::string_view text, body, args;
    static prompt_input of(std::string_view in)
    {
        auto const text = in.substr(1);
        auto const nul = text.find('\0');
        return {static_cast<unsigned char>(in[0]), text, text.substr(0, nul),
                nul == std::string_view::npos ? std::string_view() : text.substr(nul + 1)};
    }
};

/// Input: a control byte, then body, NUL, arguments. The control picks how many of the
/// arguments' words are also declared as names (0-15).
inline void exercise_slash(std::string_view input)
{
    if (input.empty()) return;
    auto const parts = prompt_input::of(input);
    unsigned const control = parts.control;
    std::string_view const in = parts.text, body = parts.body, args = parts.args;

    // Names: two fixed, then words of the arguments (hostile names included).
    auto const words = split_arguments(args);
    std::vector<std::string> names{"person", "place"};
    for (std::size_t i = 0; i < words.items.size() && i < (control & 15); ++i) names.push_back(words.items[i]);
    std::map<std::string, std::string, std::less<>> const vars{{"SKILL_DIR", "/skills/x"}};
    for (auto p : {substitution::safe(), substitution::claude_code(), substitution::claude_code_exact()}) {
        p.max_output_bytes = 1 << 16;
        p.max_names = 1 + (control >> 4); // the bound is exercised too
        auto const r = substitute(body, args, names, vars, p);
        if (r.too_long) expect(r.text.empty());
        else if (!p.exact_replace_all && !r.consumed) expect(detail::trim_spaces(args).empty() || r.appended);
        expect(r.text.size() <= p.max_output_bytes);
        expect(r.ignored_names <= names.size());
    }

    // Slash commands: a name without white space, arguments trimmed; names sanitised.
    if (auto const c = parse_slash(in)) {
        std::string_view const ws = " \t\n\r\v\f";
        expect(c->name.find_first_of(ws) == std::string::npos);
        expect(c->arguments.empty() || (ws.find(c->arguments.front()) == ws.npos && ws.find(c->arguments.back()) == ws.npos));
    }
    for (char c : sanitize_command(in)) expect((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '/');
}

/// Input: a control byte, then body, NUL, arguments (the body is also used as a name,
/// a description and a path).
inline void exercise_prompt(std::string_view input)
{
    if (input.empty()) return;
    auto const parts = prompt_input::of(input);
    unsigned const control = parts.control;
    std::string_view const in = parts.text, body = parts.body, args = parts.args;

    // One line: no control byte, no double space, no space at either end, valid UTF-8.
    auto const line = detail::clean_line(in);
    expect(valid_utf8(line));
    for (char c : line) expect(static_cast<unsigned char>(c) >= 0x20 && c != 0x7f);
    expect(line.find("  ") == std::string::npos);
    expect(line.empty() || (line.front() != ' ' && line.back() != ' '));
    expect(detail::clean_line(line) == line);

    // XML text: no control but tab and line feed; escaped, no `<` or `>` left.
    auto const xml = detail::xml_text(in);
    expect(valid_utf8(xml));
    for (char c : xml) expect(static_cast<unsigned char>(c) >= 0x20 || c == '\n' || c == '\t');
    std::string esc;
    detail::append_escaped(esc, xml, escaping::html);
    expect(esc.find('<') == std::string::npos && esc.find('>') == std::string::npos && esc.find('"') == std::string::npos);

    // The sixteen-byte scans agree with their byte-by-byte definitions.
    std::size_t lead_bytes = 0;
    for (char c : in) lead_bytes += (static_cast<unsigned char>(c) & 0xc0) != 0x80;
    expect(detail::utf8_length(in) == lead_bytes);
    expect(!detail::is_clean_ascii_line(in) || detail::clean_line(in) == in);
    for (auto const e : {escaping::xml, escaping::html, escaping::markdown}) {
        std::string escaped, by_bytes;
        detail::append_escaped(escaped, in, e);
        for (char c : in) {
            auto const x = detail::escape_of(static_cast<unsigned char>(c), e);
            if (x.empty()) by_bytes += c;
            else by_bytes += x;
        }
        expect(escaped == by_bytes);
        expect(detail::needs_escaping(in, e) == (by_bytes.size() != in.size()));
    }

    // Every index format, every strategy: valid UTF-8, within a budget that is kept.
    std::string const location = "/skills/" + std::string(body.substr(0, 40)) + "/SKILL.md";
    std::vector<index_entry> entries(3);
    for (std::size_t i = 0; i < entries.size(); ++i) {
        entries[i].command = i == 0 ? body : std::string_view("plain");
        entries[i].name = i == 1 ? body : std::string_view("n");
        entries[i].description = i == 2 ? args : body;
        entries[i].when_to_use = args;
        entries[i].argument_hint = body.substr(0, 20);
        entries[i].location = location;
        entries[i].always = (control >> i) & 1;
    }
    index_budget b;
    b.chars = (control & 0x3f) * 8;
    b.strategy = static_cast<budget_strategy>((control >> 6) & 3);
    b.entry_cap = control & 7;
    for (auto const name : index_formats::names) {
        index_formats::visit(name, [&](auto const& f) {
            auto const r = render_index(entries, f, b);
            expect(valid_utf8(r.text));
            expect(r.listed.size() + r.omitted.size() == entries.size());
            bool const forced = b.strategy == budget_strategy::always_bypass && (control & 7) != 0;
            if (b.chars > 0 && !forced && !r.listed.empty()) expect(r.used <= b.chars);
        });
    }
}

} // namespace skillmd::fuzz

#endif
