// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_FRONTMATTER_GRAMMAR_LEXICAL_HPP
#define SKILLMD_FRONTMATTER_GRAMMAR_LEXICAL_HPP

// The lexical rules of the frontmatter grammar, written with X3 combinators: plain
// scalar lines in block and flow context (and the equivalent primitive that scans
// sixteen bytes at a time), quoted runs, double-quoted escapes, block scalar indicators.

#include <skillmd/frontmatter/grammar/config.hpp>
#include <skillmd/detail/utf8.hpp>
#include <boost/spirit/home/x3.hpp>
#include <cstdint>
#include <cstring>

namespace skillmd::frontmatter::grammar {

namespace lex {

using skillmd::detail::find_first_of; // the scan behind plain lines, quoted runs and line ends

/// A character class as a 256-entry table: one load per character, which keeps the
/// scanning loops of the rules below tight (X3's char_set tests a bitset).
template <bool Negated, char const* Chars>
struct table_char : x3::char_parser<table_char<Negated, Chars>>
{
    using attribute_type = char;
    static bool const has_attribute = true;

    static constexpr std::array<bool, 256> table = [] {
        std::array<bool, 256> t{};
        for (auto& x : t) x = Negated;
        for (char const* c = Chars; *c; ++c) t[static_cast<unsigned char>(*c)] = !Negated;
        return t;
    }();

    template <class Char, class Context>
    bool test(Char ch, Context const&) const noexcept
    {
        return table[static_cast<unsigned char>(ch)];
    }
};

inline constexpr char ws_chars[] = " \t\r\n";
inline constexpr char block_stop_chars[] = ": \t\r\n";
inline constexpr char flow_stop_chars[] = ": \t\r\n,[]{}";
inline constexpr char flow_colon_end_chars[] = " \t\r\n,[]{}";
inline constexpr char double_quoted_stop_chars[] = "\"\\\r\n";
inline constexpr char single_quoted_stop_chars[] = "'\r\n";

inline constexpr table_char<true, ws_chars> non_space{};
inline constexpr table_char<true, block_stop_chars> block_safe{};
inline constexpr table_char<true, flow_stop_chars> flow_safe{};
inline constexpr table_char<true, flow_colon_end_chars> flow_colon_text{};

// One line of a plain scalar. It ends at `: ` (a mapping indicator), at ` #` (a
// comment) and at the end of the line; trailing blanks are not part of it; `a:b` and
// `a#b` are text. Inside [ ] and { } the flow indicators end it too.
//
// These two rules are the definition. The parser uses `plain_line_parser` below,
// which matches exactly the same text (a test checks this on random input) but
// looks for the few characters that can end a line sixteen bytes at a time.
inline const auto block_word = +(+block_safe | (x3::lit(':') >> &non_space));
inline const auto block_plain_line_def = block_word >> *(+x3::blank >> !x3::lit('#') >> block_word);
inline const auto flow_word = +(+flow_safe | (x3::lit(':') >> &flow_colon_text));
inline const auto flow_plain_line_def = flow_word >> *(+x3::blank >> !x3::lit('#') >> flow_word);

template <bool Flow>
struct plain_line_parser : x3::parser<plain_line_parser<Flow>>
{
    using attribute_type = x3::unused_type;
    static bool const has_attribute = false;

    static bool blank(char c) noexcept { return c == ' ' || c == '\t'; }
    static bool flow_indicator(char c) noexcept
    {
        return c == ',' || c == '[' || c == ']' || c == '{' || c == '}';
    }
    /// Whether `c` after a `:` makes the colon an indicator rather than text.
    static bool ends_colon(char c) noexcept
    {
        return blank(c) || c == '\r' || c == '\n' || (Flow && flow_indicator(c));
    }

    /// The first character at or after p that may end the line: `:`, `#`, a line break,
    /// and in flow context a flow indicator.
    static char const* next_candidate(char const* p, char const* e) noexcept
    {
        if constexpr (Flow) return find_first_of<':', '#', '\n', '\r', ',', '[', ']', '{', '}'>(p, e);
        else return find_first_of<':', '#', '\n', '\r'>(p, e);
    }

    template <class Iterator, class Context, class RContext, class Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const&, RContext&, Attribute&) const
    {
        char const* const b = &*first;
        char const* const e = b + (last - first);
        if (b == e || blank(*b)) return false;
        char const* q = b;
        for (;;) {
            q = next_candidate(q, e);
            if (q == e) break;
            char const c = *q;
            if (c == ':' && q + 1 < e && !ends_colon(q[1])) { ++q; continue; }
            if (c == '#' && (q == b || !blank(q[-1]))) { ++q; continue; }
            break;
        }
        while (q > b && blank(q[-1])) --q;
        if (q == b) return false;
        first += (q - b);
        return true;
    }
};

inline constexpr plain_line_parser<false> block_plain_line{};
inline constexpr plain_line_parser<true> flow_plain_line{};

// Runs of characters that need no decoding inside quotes. These two rules are the
// definition; the reader uses `quoted_run_parser` below, which matches the same text (a
// test checks this on random input) sixteen bytes at a time.
inline const auto double_quoted_run_def = +table_char<true, double_quoted_stop_chars>{};
inline const auto single_quoted_run_def = +table_char<true, single_quoted_stop_chars>{};

template <bool Double>
struct quoted_run_parser : x3::parser<quoted_run_parser<Double>>
{
    using attribute_type = x3::unused_type;
    static bool const has_attribute = false;

    /// The first stop character at or after p (or e).
    static char const* find_stop(char const* p, char const* e) noexcept
    {
        if constexpr (Double) return find_first_of<'"', '\\', '\r', '\n'>(p, e);
        else return find_first_of<'\'', '\r', '\n'>(p, e);
    }

    template <class Iterator, class Context, class RContext, class Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const&, RContext&, Attribute&) const
    {
        char const* const b = &*first;
        char const* const p = find_stop(b, b + (last - first));
        if (p == b) return false;
        first += (p - b);
        return true;
    }
};

inline constexpr quoted_run_parser<true> double_quoted_run{};
inline constexpr quoted_run_parser<false> single_quoted_run{};

// Double-quoted escapes (YAML 1.2 section 5.7).
inline const x3::symbols<std::uint32_t> escape_names({
    {"0", 0x00}, {"a", 0x07}, {"b", 0x08}, {"t", 0x09}, {"\t", 0x09}, {"n", 0x0a},
    {"v", 0x0b}, {"f", 0x0c}, {"r", 0x0d}, {"e", 0x1b}, {" ", 0x20}, {"\"", 0x22},
    {"/", 0x2f}, {"\\", 0x5c}, {"N", 0x85}, {"_", 0xa0}, {"L", 0x2028}, {"P", 0x2029},
});
inline const auto escape = x3::lit('\\') >> (escape_names
    | (x3::lit('x') >> x3::uint_parser<std::uint32_t, 16, 2, 2>{})
    | (x3::lit('u') >> x3::uint_parser<std::uint32_t, 16, 4, 4>{})
    | (x3::lit('U') >> x3::uint_parser<std::uint32_t, 16, 8, 8>{}));

// Block scalar header: `|` or `>`, then an indentation digit and a chomping
// indicator in either order.
inline const auto block_indicator = x3::char_("1-9+-");

} // namespace lex

} // namespace skillmd::frontmatter::grammar

#endif
