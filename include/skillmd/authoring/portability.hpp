// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_AUTHORING_PORTABILITY_HPP
#define SKILLMD_AUTHORING_PORTABILITY_HPP

// Portability: would every agent system read this SKILL.md the same? Four readings of one
// file are compared: strict YAML (the X3 grammar as the reference validator's loader
// reads), the lenient reading of the Agent Skills client guide (`key: a: b` taken as
// text), Claude Code's line parser (one `key: value` per line, quotes cut), and
// the reference validator's rules. fix_portability() makes the smallest edits that
// remove the differences (a BOM, tabs used to indent, values that need quotes, values
// spread over lines or written as block scalars, a comment after a value) and keeps an
// edit only when the result reads, in every reading, as the lenient reading read the
// original. This header parses, so it includes the grammar.

#include <skillmd/config.hpp>
#include <skillmd/detail/trim.hpp>
#include <skillmd/frontmatter/line_parser.hpp>
#include <skillmd/frontmatter/scalar_json.hpp>
#include <skillmd/frontmatter/x3_parser.hpp>
#include <skillmd/validation/dialect.hpp>
#include <skillmd/validation/read_skill.hpp>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace skillmd {

/// The most edits `fmt` makes in one file; a file that needs more is left untouched.
inline constexpr std::size_t max_fmt_edits = 1024;

namespace detail::portable {

/// The three YAML-ish readings of one file.
struct readings
{
    frontmatter::skill_file strict, lenient, lines;
};

inline readings read_three(std::string_view text, std::string_view file)
{
    frontmatter::parse_options lenient_opts;
    lenient_opts.recover_colon_in_plain = true;
    frontmatter::x3_parser const strict_parser{frontmatter::parse_options{}}, lenient_parser(lenient_opts);
    frontmatter::line_parser const lines;
    return {frontmatter::read_skill_file(strict_parser, text, file), frontmatter::read_skill_file(lenient_parser, text, file),
            frontmatter::read_skill_file(lines, text, file)};
}

inline diagnostic const* first_error(std::vector<diagnostic> const& ds)
{
    for (auto const& d : ds)
        if (d.severity == severity::error) return &d;
    return nullptr;
}

inline bool ok(frontmatter::skill_file const& f) { return !first_error(f.diagnostics); }

/// Do two trees hold the same data (kinds, texts, keys in order, and types of plain scalars)?
inline bool same_data(frontmatter::document::node_ref a, frontmatter::document::node_ref b)
{
    if (a.kind() != b.kind() || a.size() != b.size()) return false;
    if (a.is_scalar()) { // the same text, typed alike by the core schema (`true` is not `'true'`)
        return a.value() == b.value() &&
               frontmatter::scalar_json(a.value(), a.style() == frontmatter::scalar_style::plain).kind() ==
                   frontmatter::scalar_json(b.value(), b.style() == frontmatter::scalar_style::plain).kind();
    }
    auto i = a.begin(), j = b.begin();
    for (; i != a.end() && j != b.end(); ++i, ++j)
        if (!same_data(*i, *j)) return false;
    return i == a.end() && j == b.end();
}

inline bool same_data(std::optional<frontmatter::document> const& a, std::optional<frontmatter::document> const& b)
{
    if (!a || !b) return !a && !b;
    if (a->empty() || b->empty()) return a->empty() && b->empty();
    return same_data(a->root(), b->root());
}

/// A top-level `key: scalar` entry that Claude Code's line parser reads otherwise.
struct line_difference
{
    frontmatter::document::node_ref key, value;
    std::optional<std::string> line_reads; ///< nothing: the line parser has no such key
};

inline std::vector<line_difference> line_differences(frontmatter::document const& yaml, frontmatter::skill_file const& lines)
{
    std::vector<line_difference> out;
    if (yaml.empty() || !yaml.root().is_mapping()) return out;
    std::optional<frontmatter::document::node_ref> lroot;
    if (lines.frontmatter && !lines.frontmatter->empty()) lroot = lines.frontmatter->root();
    for (auto [k, v] : yaml.root().entries()) {
        if (!k.is_scalar() || !v.is_scalar()) continue; // lists and maps: the line parser never reads them
        std::optional<frontmatter::document::node_ref> got;
        if (lroot) got = lroot->find(k.value());
        if (!got) out.push_back({k, v, std::nullopt});
        else if (got->value() != v.value()) out.push_back({k, v, std::string(got->value())});
    }
    return out;
}

inline std::string shown(std::string_view s) { return detail::quote_short(s); }

} // namespace detail::portable

/** Where the agent systems skillmd knows would read `text` differently, each at its
    line and column: strict YAML refusing what lenient readers take (or nobody taking
    it), Claude Code's line parser reading a field otherwise, the reference validator
    refusing the skill for one of its rules. No finding means every reading agrees.
*/
inline std::vector<diagnostic> check_portability(std::string_view text, std::string_view file,
                                                 std::string_view directory_name)
{
    namespace pt = detail::portable;
    std::vector<diagnostic> out;
    auto const r = pt::read_three(text, file);
    auto add = [&](std::string_view code, severity sev, std::uint32_t line, std::uint32_t column, std::string msg) {
        out.push_back({std::string(code), sev, std::string(file), line, column, std::move(msg)});
    };
    if (text.substr(0, 3) == "\xEF\xBB\xBF")
        add(codes::portability_line_parser, severity::warning, 1, 1,
            "the file starts with a byte order mark: Claude Code's line parser then finds no frontmatter");
    if (auto const* e = pt::first_error(r.strict.diagnostics)) {
        if (pt::ok(r.lenient))
            add(codes::portability_yaml, severity::warning, e->line, e->column,
                "strict YAML (and the Agent Skills reference validator) refuses this, lenient readers take it: [" +
                    e->code + "] " + e->message);
        else
            add(codes::portability_yaml, severity::error, e->line, e->column,
                "no YAML reader takes this file: [" + e->code + "] " + e->message);
    }
    auto const& yaml = pt::ok(r.strict) ? r.strict.frontmatter : r.lenient.frontmatter;
    if (yaml && (pt::ok(r.strict) || pt::ok(r.lenient)))
        for (auto const& d : pt::line_differences(*yaml, r.lines))
            add(codes::portability_line_parser, severity::warning, d.value.line(), d.value.column(),
                "Claude Code's line parser reads `" + std::string(d.key.value()) + "` as " +
                    (d.line_reads ? pt::shown(*d.line_reads) : std::string("missing")) + "; YAML reads " +
                    pt::shown(d.value.value()));
    if (pt::ok(r.strict)) {
        frontmatter::x3_parser const strict_parser{frontmatter::parse_options{}};
        auto const v = read_skill(strict_parser, dialects::agent_skills(), validation_mode::strict, text,
                                  skill_origin{file, directory_name});
        for (auto const& d : v.diagnostics)
            if (d.severity == severity::error)
                add(codes::portability_validator, severity::warning, d.line, d.column,
                    "the Agent Skills reference validator refuses the skill: [" + d.code + "] " + d.message);
    }
    std::stable_sort(out.begin(), out.end(), [](auto const& a, auto const& b) {
        return a.line != b.line ? a.line < b.line : a.column < b.column;
    });
    return out;
}

/// What fix_portability() did to one file.
struct fix_result
{
    std::string text;                ///< the fixed file (the original when nothing was safe)
    bool changed = false;
    bool refused = false;            ///< an edit would have changed what the file says: nothing written
    std::vector<std::string> edits;  ///< what was done, one line each ("3: quoted `description`")
    std::vector<diagnostic> notes;   ///< what could not be fixed, and why
};

namespace detail::portable {

/// Quotes `v` so that YAML and Claude Code's line parser both read exactly `v`, or nothing.
inline std::optional<std::string> portable_quote(std::string_view v)
{
    for (char const c : v)
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t') return std::nullopt; // one line, no controls
    if (v.find("---") != std::string_view::npos) return std::nullopt; // would end the line parser's block
    if (v.find('\'') == std::string_view::npos) return "'" + std::string(v) + "'";
    if (v.find('"') == std::string_view::npos && v.find('\\') == std::string_view::npos) return "\"" + std::string(v) + "\"";
    return std::nullopt;
}

inline std::size_t line_begin(std::string_view t, std::uint32_t line)
{
    std::size_t p = 0;
    for (std::uint32_t l = 1; l < line && p != std::string_view::npos; ++l) {
        p = t.find('\n', p);
        if (p != std::string_view::npos) ++p;
    }
    return p == std::string_view::npos ? t.size() : p;
}

inline std::size_t line_end(std::string_view t, std::size_t p)
{
    std::size_t e = t.find('\n', p);
    if (e == std::string_view::npos) e = t.size();
    if (e > p && t[e - 1] == '\r') --e;
    return e;
}

/// The byte offset of 1-based code-point column `col` on the line starting at `b`.
inline std::size_t at_column(std::string_view t, std::size_t b, std::uint32_t col)
{
    std::size_t p = b;
    for (std::uint32_t c = 1; c < col && p < t.size() && t[p] != '\n'; ++c) p += std::max<std::size_t>(1, utf8_sequence_length(t, p));
    return p;
}

inline std::size_t indent_of(std::string_view t, std::size_t b)
{
    std::size_t p = b;
    while (p < t.size() && t[p] == ' ') ++p;
    return p - b;
}

/// A tab used to indent the line [lb, le) (line `line`), replaced by two spaces. False
/// when there is none.
inline bool fix_tab_indentation(std::string& t, fix_result& res, std::size_t lb, std::size_t le, std::uint32_t line)
{
    std::size_t p = lb;
    std::string spaces;
    while (p < le && (t[p] == ' ' || t[p] == '\t')) spaces += t[p++] == '\t' ? "  " : " ";
    if (spaces.size() == p - lb) return false;
    t.replace(lb, p - lb, spaces);
    res.edits.push_back(std::to_string(line) + ": tabs in the indentation replaced by spaces");
    return true;
}

/// The lines of a plain value after its key's line (which ends at `ke`), those indented
/// past the key (at `k`), folded onto `value` as YAML folds them; `end` moves past them.
/// False at a comment among them, which is left to the author.
inline bool fold_value_lines(std::string const& t, std::size_t ke, std::size_t k, std::size_t& end, std::string& value)
{
    end = ke;
    std::size_t next = ke < t.size() ? t.find('\n', ke) : std::string::npos;
    while (next != std::string::npos && next + 1 < t.size()) {
        std::size_t const nb = next + 1, ne = line_end(t, nb);
        std::string_view const nl(t.data() + nb, ne - nb);
        if (nl.find_first_not_of(" \t") == std::string_view::npos) break; // a blank line: a line break in the value
        if (indent_of(t, nb) <= k) break;
        std::string_view const piece = skillmd::detail::trim_end(nl.substr(indent_of(t, nb)));
        if (piece.starts_with("#") || piece.find(" #") != std::string_view::npos) return false; // comments: by hand
        value += ' ';
        value += piece;
        end = ne;
        next = t.find('\n', ne);
    }
    return true;
}

/// yaml_colon_in_plain at `column` of the line at `lb`: the plain value holding `: `
/// starts after the first `: ` of its key's line (this line, or the nearest line above
/// indented less) and goes on over the lines indented past its key; folded as YAML folds
/// it, it is what the author wrote. Its extent is [start, end). False when it is not a
/// plain value this can quote.
inline bool colon_value(std::string const& t, std::size_t lb, std::uint32_t column, std::size_t& start, std::size_t& end,
                        std::string& value)
{
    std::size_t kb = lb;
    std::size_t const ind = indent_of(t, lb);
    while (true) {
        std::size_t const ke = line_end(t, kb);
        std::string_view const ln(t.data() + kb, ke - kb);
        std::size_t const cs = ln.find(": ");
        bool const key_line = cs != std::string_view::npos && (kb != lb || kb + cs < at_column(t, lb, column));
        if (key_line && (kb == lb || indent_of(t, kb) < ind)) {
            std::size_t k = indent_of(t, kb);
            while (k + 1 < ln.size() && ln[k] == '-' && ln[k + 1] == ' ') k = ln.find_first_not_of(' ', k + 1);
            start = kb + cs + 2;
            while (start < ke && t[start] == ' ') ++start;
            if (start >= ke || std::string_view("[{'\"|>&*!").find(t[start]) != std::string_view::npos) return false;
            value.assign(t, start, ke - start);
            if (!fold_value_lines(t, ke, k, end, value)) return false;
            // A ` #` on the key's line stays: the lenient reading takes the whole line.
            value.resize(skillmd::detail::trim_end(value).size());
            return true;
        }
        if (kb == 0) return false;
        kb = line_begin(t, static_cast<std::uint32_t>(std::count(t.begin(), t.begin() + static_cast<std::ptrdiff_t>(kb) - 1, '\n') + 1));
    }
}

/// yaml_reserved_indicator at `column` of the line [lb, le): the value it starts, to the
/// end of its flow item or to a comment, as [start, end). False when quoting it would not
/// do (it holds `: `, or a flow item holds brackets).
inline bool indicator_value(std::string const& t, std::size_t lb, std::size_t le, std::uint32_t column, std::size_t& start,
                            std::size_t& end, std::string& value)
{
    start = at_column(t, lb, column);
    std::size_t b = start;
    while (b > lb && (t[b - 1] == ' ' || t[b - 1] == '\t')) --b;
    bool const flow = b > lb && (t[b - 1] == '[' || t[b - 1] == '{' || t[b - 1] == ',');
    end = start;
    if (flow) {
        while (end < le && t[end] != ',' && t[end] != ']' && t[end] != '}') ++end;
    } else {
        std::size_t const hash = t.find(" #", start);
        end = hash != std::string::npos && hash < le ? hash : le;
    }
    while (end > start && (t[end - 1] == ' ' || t[end - 1] == '\t')) --end;
    value = t.substr(start, end - start);
    return !(value.find(": ") != std::string::npos ||
             (flow && (value.find('[') != std::string::npos || value.find('{') != std::string::npos)));
}

/// One pass: the first thing strict YAML refuses, fixed if it is a value that needs
/// quotes or a tab used to indent. False when there is nothing (more) it can do.
inline bool fix_one_yaml_error(std::string& t, fix_result& res, std::string_view file)
{
    frontmatter::x3_parser const strict_parser{frontmatter::parse_options{}};
    auto const f = frontmatter::read_skill_file(strict_parser, t, file);
    auto const* e = first_error(f.diagnostics);
    if (!e) return false;
    std::size_t const lb = line_begin(t, e->line), le = line_end(t, lb);
    if (e->code == codes::yaml_tab_indentation) return fix_tab_indentation(t, res, lb, le, e->line);
    std::size_t start = 0, end = 0;
    std::string value;
    if (e->code == codes::yaml_colon_in_plain) {
        if (!colon_value(t, lb, e->column, start, end, value)) return false;
    } else if (e->code == codes::yaml_reserved_indicator) {
        if (!indicator_value(t, lb, le, e->column, start, end, value)) return false;
    } else {
        return false;
    }
    auto const q = portable_quote(value);
    if (!q) {
        res.notes.push_back({std::string(codes::fmt_unfixable), severity::warning, std::string(file), e->line, e->column,
                             "this value needs quotes, but no quoting reads the same in YAML and in Claude Code's line "
                             "parser (it holds both kinds of quote, or a backslash with a double quote)"});
        return false;
    }
    t.replace(start, end - start, *q);
    res.edits.push_back(std::to_string(e->line) + ": quoted " + quote_short(value));
    return true;
}

/// The end of the value starting at `vstart`: its own lines, up to the next line at the
/// key's indentation (blank lines at its end left out).
inline std::size_t value_end(std::string const& t, std::size_t vstart)
{
    std::size_t vend = line_end(t, vstart), p = vend;
    while (p < t.size()) {
        std::size_t const nb = p + 1;
        if (nb >= t.size()) break;
        std::size_t const ne = line_end(t, nb);
        std::string_view const ln(t.data() + nb, ne - nb);
        bool const blank = ln.find_first_not_of(" \t") == std::string_view::npos;
        if (!blank && indent_of(t, nb) == 0) break;
        if (!blank) vend = ne;
        p = t.find('\n', nb);
        if (p == std::string::npos) break;
    }
    return vend;
}

/// One entry the line parser reads otherwise, rewritten as one quoted line (true:
/// positions moved), or, when it cannot be, said in `notes`.
inline bool fix_line_difference(std::string& t, fix_result& res, line_difference const& d, std::vector<diagnostic>& notes,
                                std::string_view file)
{
    auto note = [&](std::uint32_t line, std::uint32_t column, std::string msg) {
        notes.push_back({std::string(codes::fmt_unfixable), severity::warning, std::string(file), line, column, std::move(msg)});
    };
    std::string const key(d.key.value());
    std::uint32_t const kline = d.key.line();
    std::size_t const lb = line_begin(t, kline);
    if (indent_of(t, lb) != 0 || !d.line_reads) { // a key the line parser cannot find: nothing to edit
        note(kline, d.key.column(), "Claude Code's line parser reads `" + key + "` as " +
                                 (d.line_reads ? shown(*d.line_reads) : std::string("missing")) +
                                 " and no formatting changes that");
        return false;
    }
    std::string_view const v = d.value.value();
    std::size_t const vstart = at_column(t, line_begin(t, d.value.line()), d.value.column());
    std::size_t const vend = value_end(t, vstart);
    std::string_view const region(t.data() + vstart, vend - vstart);
    std::string comment;
    auto const hashes = [](std::string_view s) { return std::count(s.begin(), s.end(), '#'); };
    if (hashes(region) != hashes(v)) {
        // Only a plain one-line value followed by a comment is understood.
        if (d.value.style() != frontmatter::scalar_style::plain || !region.starts_with(v) ||
            region.find('\n') != std::string_view::npos) {
            note(kline, d.value.column(), "`" + key + "` has a comment inside its value; move it by hand");
            return false;
        }
        std::string_view const rest = region.substr(v.size());
        comment = std::string(skillmd::detail::trim_start(rest));
    }
    auto const q = portable_quote(v);
    if (!q) {
        note(kline, d.value.column(), "Claude Code's line parser reads `" + key + "` as " + shown(*d.line_reads) +
                                          "; its value cannot be written on one line both read the same (a line "
                                          "break, `---`, or both kinds of quote)");
        return false;
    }
    if (comment.empty() && *q == region) { // already written so: an edit would change nothing
        note(kline, d.value.column(), "Claude Code's line parser reads `" + key + "` as " + shown(*d.line_reads) +
                                          " and no formatting changes that");
        return false;
    }
    t.replace(vstart, vend - vstart, *q);
    if (!comment.empty()) t.insert(lb, comment + "\n");
    res.edits.push_back(std::to_string(kline) + ": `" + key + "` written on one line" +
                        (comment.empty() ? "" : ", its comment moved above it"));
    return true;
}

/// Rewrites top-level scalar entries the line parser reads otherwise as one quoted line;
/// a comment after a plain value moves to its own line above the key.
/// False when `max_fmt_edits` passes were not enough.
inline bool fix_line_differences(std::string& t, fix_result& res, std::string_view file)
{
    for (std::size_t guard = 0; guard < max_fmt_edits; ++guard) {
        auto const r = read_three(t, file);
        if (!ok(r.strict) || !r.strict.frontmatter) return true;
        auto const diffs = line_differences(*r.strict.frontmatter, r.lines);
        bool edited = false;
        std::vector<diagnostic> notes; // kept from the last pass only, so each is said once
        for (auto const& d : diffs) {
            if (!fix_line_difference(t, res, d, notes, file)) continue;
            edited = true;
            break; // positions moved: read again
        }
        if (!edited) {
            res.notes.insert(res.notes.end(), notes.begin(), notes.end());
            return true;
        }
    }
    return false;
}

} // namespace detail::portable

/** The smallest edits after which strict YAML, the lenient reading and Claude Code's line
    parser all read `text` as the lenient reading read it before. The body is never
    touched. When the edited file would say something else, nothing is changed and
    `refused` says so; differences no edit removes are `notes`.
*/
inline fix_result fix_portability(std::string_view text, std::string_view file)
{
    namespace pt = detail::portable;
    fix_result res;
    std::string t(text);
    if (t.starts_with("\xEF\xBB\xBF")) {
        t.erase(0, 3);
        res.edits.push_back("1: byte order mark removed");
    }
    // Each edit reads the file again: a bound on edits bounds the work, and a file that
    // needs more is left whole rather than half fixed.
    std::size_t yaml_edits = 0;
    while (yaml_edits < max_fmt_edits && pt::fix_one_yaml_error(t, res, file)) ++yaml_edits;
    if (yaml_edits == max_fmt_edits || !pt::fix_line_differences(t, res, file)) {
        res = fix_result{};
        res.refused = true;
        res.notes.push_back({std::string(codes::fmt_unsafe), severity::error, std::string(file), 1, 1,
                             "left untouched: it needs more than " + std::to_string(max_fmt_edits) + " edits"});
        res.text = std::string(text);
        return res;
    }

    auto const before = pt::read_three(text, file);
    auto const after = pt::read_three(t, file);
    if (auto const* e = pt::first_error(after.strict.diagnostics))
        res.notes.push_back({std::string(codes::fmt_unfixable), severity::warning, std::string(file), e->line, e->column,
                             "strict YAML still refuses this and no formatting fixes it: [" + e->code + "] " + e->message});
    // The guard: every reading of the result must be what the lenient reading was.
    auto const& wanted = pt::ok(before.lenient) ? before.lenient.frontmatter : after.strict.frontmatter;
    bool safe = t == text || (pt::ok(after.strict) ? pt::same_data(after.strict.frontmatter, wanted) &&
                                                         pt::same_data(after.lenient.frontmatter, wanted)
                                                   : pt::ok(before.lenient) && pt::ok(after.lenient) &&
                                                         pt::same_data(after.lenient.frontmatter, wanted));
    // The body stays byte for byte.
    if (safe && t != text) {
        std::string_view const old_body = text.substr(std::min(before.lenient.body_offset, text.size()));
        std::string_view const new_body = std::string_view(t).substr(std::min(after.lenient.body_offset, t.size()));
        safe = old_body == new_body;
    }
    if (!safe) {
        res.refused = true;
        res.notes.push_back({std::string(codes::fmt_unsafe), severity::error, std::string(file), 1, 1,
                             "left untouched: the edits would change what the file says"});
        res.text = std::string(text);
        res.edits.clear();
        return res;
    }
    res.changed = t != text;
    res.text = std::move(t);
    return res;
}

} // namespace skillmd

#endif
