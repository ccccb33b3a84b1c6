// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_FRONTMATTER_GRAMMAR_DEF_HPP
#define SKILLMD_FRONTMATTER_GRAMMAR_DEF_HPP

// The X3 grammar for the frontmatter YAML subset (SPEC 3.2).
//
// YAML's block structure depends on indentation, which X3's combinators cannot
// express as a context-free rule. The grammar therefore has two layers:
//  - lexical rules written with X3 combinators (plain scalar lines in block and
//    flow context, quoted runs, escapes, block scalar indicators);
//  - structural parsers (`block_document`) that are X3 parser primitives: they
//    read the parse state from the X3 context, track indentation and call the
//    lexical rules. Nested nodes recurse through them with a depth bound.
// Everything the subset refuses raises a `failure` naming the construct; the
// start rule turns it into a diagnostic, so no input is ever half-read.

#include <skillmd/frontmatter/grammar.hpp>
#include <skillmd/model/diagnostic.hpp>
#include <skillmd/detail/utf8.hpp>

#include <boost/spirit/home/x3.hpp>

#if defined(__SSE2__)
#  include <emmintrin.h>
#endif

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace skillmd::frontmatter::grammar {

//------------------------------------------------------------------------------
// Lexical rules
//------------------------------------------------------------------------------
namespace lex {

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
#if defined(__SSE2__)
        while (e - p >= 16) {
            __m128i const v = _mm_loadu_si128(reinterpret_cast<__m128i const*>(p));
            __m128i m = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(':')),
                                                  _mm_cmpeq_epi8(v, _mm_set1_epi8('#'))),
                                     _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n')),
                                                  _mm_cmpeq_epi8(v, _mm_set1_epi8('\r'))));
            if constexpr (Flow) {
                m = _mm_or_si128(m, _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(',')),
                                                 _mm_cmpeq_epi8(v, _mm_set1_epi8('['))));
                m = _mm_or_si128(m, _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(']')),
                                                 _mm_cmpeq_epi8(v, _mm_set1_epi8('{'))));
                m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('}')));
            }
            if (int const bits = _mm_movemask_epi8(m)) return p + __builtin_ctz(static_cast<unsigned>(bits));
            p += 16;
        }
#endif
        for (; p < e; ++p) {
            char const c = *p;
            if (c == ':' || c == '#' || c == '\n' || c == '\r' || (Flow && flow_indicator(c))) return p;
        }
        return e;
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

// Runs of characters that need no decoding inside quotes.
inline const auto double_quoted_run = +table_char<true, double_quoted_stop_chars>{};
inline const auto single_quoted_run = +table_char<true, single_quoted_stop_chars>{};

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

//------------------------------------------------------------------------------
// Structural parser
//------------------------------------------------------------------------------
namespace detail {

using index = document_builder::index;
inline constexpr index no_node = ~index{0};

/// Keys already seen in one mapping; node indices, because decoded text may move.
class key_set
{
public:
    explicit key_set(document_builder const& b) : b_(b) {}

    /// False when `key` was there already.
    bool insert(index key)
    {
        std::string_view const v = b_.value(key);
        if (big_.empty() && count_ < small_.size()) {
            for (std::size_t i = 0; i < count_; ++i)
                if (b_.value(small_[i]) == v) return false;
            small_[count_++] = key;
            return true;
        }
        if (big_.empty())
            for (index k : small_) big_.emplace(b_.value(k));
        return big_.emplace(v).second;
    }

private:
    document_builder const& b_;
    std::array<index, 16> small_{}; // most mappings are small: no allocation, linear search
    std::size_t count_ = 0;
    std::unordered_set<std::string> big_;
};

class reader
{
public:
    reader(parse_state& st, char const* b, char const* e) : st_(st), out_(st.out), b_(b), e_(e), p_(b) {}

    /// Parses the whole text; false (with `st.error` set) when it is refused.
    bool run()
    {
        try {
            check_characters();
            skip_blank_lines();
            if (p_ < e_) {
                index const root = node_at_line(-1);
                out_.set_root(root);
                skip_blank_lines();
                if (p_ < e_)
                    fail(skip_spaces(p_), codes::yaml_syntax,
                         "unexpected content after the end of the value above; check this line's indentation");
            }
            return true;
        } catch (failure& f) {
            st_.error = std::move(f);
            return false;
        }
    }

private:
    //-------------------------------------------------------------- helpers
    [[noreturn]] void fail(char const* at, std::string_view code, std::string message)
    {
        throw failure{at, code, std::move(message)};
    }

    static bool is_break(char c) noexcept { return c == '\n' || c == '\r'; }
    static bool is_blank(char c) noexcept { return c == ' ' || c == '\t'; }
    bool ws_or_end(char const* q) const noexcept { return q >= e_ || is_blank(*q) || is_break(*q); }
    bool ws_or_flow_end(char const* q) const noexcept
    {
        return ws_or_end(q) || *q == ',' || *q == ']' || *q == '}';
    }
    char const* skip_blanks(char const* q) const noexcept
    {
        while (q < e_ && is_blank(*q)) ++q;
        return q;
    }
    char const* skip_spaces(char const* q) const noexcept
    {
        while (q < e_ && *q == ' ') ++q;
        return q;
    }
    int indent_of(char const* line) const noexcept { return static_cast<int>(skip_spaces(line) - line); }
    char const* line_end(char const* q) const noexcept
    {
        while (q < e_ && !is_break(*q)) ++q;
        return q;
    }
    /// Past the line break at q (CRLF, LF or CR).
    char const* next_line(char const* q) const noexcept
    {
        if (q < e_ && *q == '\r') ++q;
        if (q < e_ && *q == '\n') ++q;
        return q;
    }
    char const* line_start(char const* q) const noexcept
    {
        while (q > b_ && !is_break(q[-1])) --q;
        return q;
    }
    int column(char const* q) const noexcept { return static_cast<int>(q - line_start(q)); }
    bool after_blank(char const* q) const noexcept { return q == b_ || is_blank(q[-1]) || is_break(q[-1]); }

    bool is_blank_line(char const* q) const noexcept
    {
        q = skip_blanks(q);
        return q >= e_ || is_break(*q);
    }
    [[noreturn]] void fail_tab(char const* at)
    {
        fail(at, codes::yaml_tab_indentation, "a tab is used for indentation; YAML indents with spaces only");
    }

    /// `---` or `...` at the start of a line: a document boundary, which frontmatter cannot hold.
    bool is_marker(char const* line) const noexcept
    {
        return e_ - line >= 3 && ((line[0] == '-' && line[1] == '-' && line[2] == '-') ||
                                  (line[0] == '.' && line[1] == '.' && line[2] == '.')) &&
               ws_or_end(line + 3);
    }
    void check_marker(char const* line)
    {
        if (is_marker(line))
            fail(line, codes::yaml_multiple_documents,
                 "document markers (`---`, `...`) cannot appear inside frontmatter; one document only");
        if (*line == '%')
            fail(line, codes::yaml_directive, "YAML directives (`%YAML`, `%TAG`) are not supported in frontmatter");
    }

    struct depth_guard
    {
        depth_guard(reader& r, char const* at) : r_(r)
        {
            if (++r_.depth_ > r_.st_.options.max_depth)
                r_.fail(at, codes::yaml_depth_limit,
                        "nesting is deeper than " + std::to_string(r_.st_.options.max_depth) +
                            " levels; flatten the metadata");
        }
        ~depth_guard() { --r_.depth_; }
        reader& r_;
    };

    /// YAML admits only printable characters, and the input must be UTF-8.
    /// Eight bytes at a time while they are printable ASCII; byte by byte elsewhere.
    void check_characters()
    {
        std::string_view const s(b_, static_cast<std::size_t>(e_ - b_));
        std::size_t i = 0, slow_until = 0;
        while (i < s.size()) {
            if (i >= slow_until && i + block_size <= s.size()) {
                if (plain_ascii_block(s.data() + i)) {
                    i += block_size;
                    continue;
                }
                slow_until = i + block_size; // check these bytes one by one, then go back to blocks
            }
            auto const c = static_cast<unsigned char>(s[i]);
            if (c < 0x80) {
                if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f) bad_character(i, c);
                ++i;
                continue;
            }
            std::size_t const n = skillmd::detail::utf8_sequence_length(s, i);
            if (n == 0) {
                static constexpr char hex[] = "0123456789ABCDEF";
                fail(b_ + i, codes::utf8_invalid,
                     std::string("byte 0x") + hex[c >> 4] + hex[c & 15] + " is not UTF-8; save the file as UTF-8");
            }
            char32_t const cp = skillmd::detail::utf8_decode(s.data() + i, n);
            if ((cp >= 0x80 && cp <= 0x9f && cp != 0x85) || cp == 0xfffe || cp == 0xffff) bad_character(i, cp);
            i += n;
        }
    }
    static constexpr std::uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
    /// High bit set in each byte of the ASCII word `w` that is zero.
    static constexpr std::uint64_t zero_bytes(std::uint64_t w) noexcept
    {
        return ~(((w & ~highs) + ~highs) | w | ~highs);
    }
#if defined(__SSE2__)
    static constexpr std::size_t block_size = 16;
    /// Whether the 16 bytes at p are printable ASCII, tab, LF or CR.
    static bool plain_ascii_block(char const* p) noexcept
    {
        __m128i const v = _mm_loadu_si128(reinterpret_cast<__m128i const*>(p));
        // Signed compare: bytes >= 0x80 are negative, so they count as "below space" too.
        __m128i const below = _mm_cmplt_epi8(v, _mm_set1_epi8(0x20));
        __m128i const allowed = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\t')),
                                                          _mm_cmpeq_epi8(v, _mm_set1_epi8('\n'))),
                                             _mm_cmpeq_epi8(v, _mm_set1_epi8('\r')));
        __m128i const bad = _mm_or_si128(_mm_andnot_si128(allowed, below), _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7f)));
        return _mm_movemask_epi8(bad) == 0;
    }
#else
    static constexpr std::size_t block_size = 8;
    /// Whether the 8 bytes at p are printable ASCII, tab, LF or CR.
    static bool plain_ascii_block(char const* p) noexcept
    {
        std::uint64_t w;
        std::memcpy(&w, p, 8);
        if ((w & highs) != 0) return false;
        std::uint64_t const below_space = ~((w | highs) - 0x20 * ones) & highs;
        std::uint64_t const allowed = zero_bytes(w ^ (0x09 * ones)) | zero_bytes(w ^ (0x0a * ones)) |
                                      zero_bytes(w ^ (0x0d * ones));
        return ((below_space & ~allowed) | zero_bytes(w ^ (0x7f * ones))) == 0;
    }
#endif
    [[noreturn]] void bad_character(std::size_t at, char32_t cp)
    {
        fail(b_ + at, codes::yaml_control_character,
             "control character U+" + hex4(static_cast<unsigned>(cp)) +
                 " is not allowed in YAML; remove it or write it as an escape in a double-quoted value");
    }
    static std::string hex4(unsigned v)
    {
        static constexpr char hex[] = "0123456789ABCDEF";
        return {hex[(v >> 12) & 15], hex[(v >> 8) & 15], hex[(v >> 4) & 15], hex[v & 15]};
    }

    /// Skips lines that hold only blanks or a comment; stops at the start of a content line.
    void skip_blank_lines()
    {
        while (p_ < e_) {
            char const* q = skip_blanks(p_);
            if (q >= e_) { p_ = e_; return; }
            if (*q == '#') q = line_end(q);
            else if (!is_break(*q)) {
                check_marker(p_);
                return;
            }
            p_ = next_line(q);
        }
    }

    /// Rejects what may not start a node, naming the construct.
    void check_node_start(char const* q)
    {
        switch (*q) {
        case '&':
            fail(q, codes::yaml_anchor, "anchors (`&name`) are not supported in frontmatter; write the value out in full");
        case '*':
            fail(q, codes::yaml_alias, "aliases (`*name`) are not supported in frontmatter; write the value out in full");
        case '!':
            fail(q, codes::yaml_tag, "tags (`!tag`) are not supported in frontmatter; remove the tag, or quote a value that starts with `!`");
        case '%':
            fail(q, codes::yaml_reserved_indicator, "a value cannot start with `%`; put it in quotes");
        case '@':
        case '`':
            fail(q, codes::yaml_reserved_indicator, std::string("`") + *q + "` is reserved in YAML and cannot start a value; put the value in quotes");
        case '?':
            if (ws_or_end(q + 1))
                fail(q, codes::yaml_complex_key, "explicit keys (`? key`) are not supported; write `key: value`");
            break;
        case ':':
        case '-':
            if (ws_or_end(q + 1))
                fail(q, codes::yaml_syntax, std::string("a value cannot start with `") + *q + " `; put it in quotes");
            break;
        case ',':
        case ']':
        case '}':
            fail(q, codes::yaml_syntax, std::string("unexpected `") + *q + "`; put the value in quotes");
        case '|':
        case '>':
            fail(q, codes::yaml_syntax, "a block scalar (`|` or `>`) cannot appear here; put the value in quotes");
        default:
            break;
        }
    }

    index empty_scalar(char const* at)
    {
        return out_.scalar(scalar_style::plain, static_cast<std::size_t>(at - b_), 0, 0);
    }
    index source_scalar(scalar_style st, char const* at, char const* vb, char const* ve)
    {
        return out_.scalar(st, static_cast<std::size_t>(at - b_), static_cast<std::size_t>(vb - b_),
                           static_cast<std::size_t>(ve - vb));
    }

    //-------------------------------------------------------------- nodes
    /// The node that starts on the content line at p_ (indentation not yet read).
    index node_at_line(int parent)
    {
        char const* q = skip_spaces(p_);
        if (q < e_ && *q == '\t') fail_tab(q);
        p_ = q;
        return node_here(parent, column(q), true);
    }

    /// The node at p_, at column `col`, inside a parent indented `parent`.
    /// `block` allows block collections (false right after `key: `).
    index node_here(int parent, int col, bool block)
    {
        char const* q = p_;
        if (*q == '-' && ws_or_end(q + 1)) {
            if (!block)
                fail(q, codes::yaml_syntax,
                     "a list cannot start on the same line as its key; put each `- item` on its own line below the key");
            return block_sequence(col);
        }
        if (*q == '|' || *q == '>') return block_scalar(parent);
        check_node_start(q);
        if (block) {
            key_scan const k = scan_key(q);
            if (k.is_key) return block_mapping(col, k);
        }
        if (*q == '[' || *q == '{') {
            index const r = flow_node(parent);
            end_of_value_line(q, true);
            return r;
        }
        if (*q == '"' || *q == '\'') {
            index const r = quoted(parent);
            end_of_value_line(q, false);
            return r;
        }
        return plain(parent);
    }

    /// After a quoted or flow value: only blanks or a comment may follow on the line.
    void end_of_value_line(char const* value_start, bool flow)
    {
        char const* s = skip_blanks(p_);
        if (s >= e_) { p_ = e_; return; }
        if (is_break(*s)) { p_ = next_line(s); return; }
        if (*s == '#' && s > p_) { p_ = next_line(line_end(s)); return; }
        if (*s == ':' && ws_or_end(s + 1)) {
            if (flow)
                fail(value_start, codes::yaml_complex_key, "a [ ] or { } collection cannot be a mapping key");
            fail(s, codes::yaml_syntax, "this `:` would start a nested mapping on the same line; put the key on its own line");
        }
        fail(s, codes::yaml_syntax, "unexpected text after the value; put the whole value in quotes");
    }

    struct key_scan
    {
        bool is_key = false;
        char quote = 0;
        char const* begin = nullptr;
        char const* end = nullptr;
        char const* after_colon = nullptr;
    };

    /// Whether the line at q starts with an implicit key `key:` (plain or quoted, one line).
    key_scan scan_key(char const* q) const
    {
        key_scan k;
        k.begin = q;
        char const* r = q;
        if (*q == '"' || *q == '\'') {
            ++r;
            if (*q == '"') {
                while (r < e_ && *r != '"' && !is_break(*r))
                    r += (*r == '\\' && r + 1 < e_ && !is_break(r[1])) ? 2 : 1;
            } else {
                while (r < e_ && !is_break(*r)) {
                    if (*r == '\'') {
                        if (r + 1 < e_ && r[1] == '\'') { r += 2; continue; }
                        break;
                    }
                    ++r;
                }
            }
            if (r >= e_ || *r != *q) return k;
            k.quote = *q;
            ++r;
        } else {
            if (*q == '[' || *q == '{') return k;
            x3::parse(r, e_, lex::block_plain_line);
            if (r == q) return k;
        }
        k.end = r;
        char const* s = skip_blanks(r);
        if (s < e_ && *s == ':' && ws_or_end(s + 1)) {
            k.is_key = true;
            k.after_colon = s + 1;
        }
        return k;
    }

    index key_node(key_scan const& k, int parent)
    {
        if (k.quote == 0) return source_scalar(scalar_style::plain, k.begin, k.begin, k.end);
        char const* const save = p_;
        p_ = k.begin;
        index const r = quoted(parent);
        p_ = save;
        return r;
    }

    static std::string shorten(std::string_view s)
    {
        return s.size() <= 60 ? std::string(s) : std::string(s.substr(0, 57)) + "...";
    }

    /// After an entry of a block collection at column `col`: the first character of the
    /// next line at that column, or null when the collection ends there.
    char const* next_entry(int col, char const* deeper)
    {
        skip_blank_lines();
        if (p_ >= e_) return nullptr;
        int const j = indent_of(p_);
        char const* q = p_ + j;
        if (j < col) return nullptr;
        if (*q == '\t') fail_tab(q);
        if (j > col) fail(q, codes::yaml_indentation, deeper);
        return q;
    }

    index block_mapping(int col, key_scan k)
    {
        depth_guard const guard(*this, p_);
        index const m = out_.collection(node_kind::mapping, static_cast<std::size_t>(p_ - b_));
        key_set seen(out_);
        for (;;) {
            index const key = key_node(k, col);
            if (k.quote == 0 && out_.value(key) == "<<")
                fail(k.begin, codes::yaml_merge_key, "merge keys (`<<`) are not supported; write the entries out in full");
            if (!seen.insert(key))
                fail(k.begin, codes::yaml_duplicate_key,
                     "duplicate key `" + shorten(out_.value(key)) + "`; each key may appear once in a mapping");
            out_.append(m, key);

            p_ = skip_blanks(k.after_colon);
            index value = no_node;
            if (p_ >= e_ || is_break(*p_) || *p_ == '#') {
                p_ = next_line(line_end(p_));
                skip_blank_lines();
                if (p_ < e_) {
                    int const j = indent_of(p_);
                    char const* q = p_ + j;
                    if (j > col) value = node_at_line(col);
                    else if (j == col && *q == '-' && ws_or_end(q + 1)) {
                        p_ = q;
                        value = block_sequence(col);
                    }
                }
                if (value == no_node) value = empty_scalar(k.after_colon);
            } else {
                value = node_here(col, column(p_), false);
            }
            out_.append(m, value);

            char const* q = next_entry(
                col, "this line is indented more than the keys above it; align it with them or make it part of a value");
            if (q == nullptr) break;
            if (*q == '-' && ws_or_end(q + 1))
                fail(q, codes::yaml_syntax, "a list item `- ` cannot stand among mapping keys; indent it under its key");
            p_ = q;
            check_node_start(q);
            k = scan_key(q);
            if (!k.is_key)
                fail(q, codes::yaml_syntax, "expected `key: value`; every line of a mapping must be a key followed by `: `");
        }
        return m;
    }

    index block_sequence(int col)
    {
        depth_guard const guard(*this, p_);
        index const s = out_.collection(node_kind::sequence, static_cast<std::size_t>(p_ - b_));
        for (;;) {
            char const* dash = p_;
            p_ = skip_blanks(p_ + 1);
            index item;
            if (p_ >= e_ || is_break(*p_) || *p_ == '#') {
                p_ = next_line(line_end(p_));
                skip_blank_lines();
                if (p_ < e_ && indent_of(p_) > col) item = node_at_line(col);
                else item = empty_scalar(dash + 1);
            } else {
                bool const tab = std::find(dash + 1, p_, '\t') != p_;
                if (tab && ((*p_ == '-' && ws_or_end(p_ + 1)) || scan_key(p_).is_key))
                    fail_tab(dash + 1);
                item = node_here(col, column(p_), true);
            }
            out_.append(s, item);

            char const* q = next_entry(col, "this line is indented more than the `- ` items above it");
            if (q == nullptr || !(*q == '-' && ws_or_end(q + 1))) break;
            p_ = q;
        }
        return s;
    }

    /// A plain scalar in block context; continuation lines must be indented more than `parent`.
    index plain(int parent)
    {
        char const* const start = p_;
        char const* r = p_;
        x3::parse(r, e_, lex::block_plain_line);
        if (r == start) fail(start, codes::yaml_syntax, "unexpected character; put the value in quotes");
        char const* const first_end = r;
        char const* s = skip_blanks(r);
        if (s < e_ && *s == ':' && ws_or_end(s + 1)) {
            if (!st_.options.recover_colon_in_plain)
                fail(s, codes::yaml_colon_in_plain,
                     "`: ` inside an unquoted value would start a nested mapping; put the value in quotes or use `>`");
            char const* const le = line_end(s);
            char const* t = le;
            while (t > start && is_blank(t[-1])) --t;
            st_.notes.push_back({s, codes::yaml_colon_in_plain,
                                 "`: ` inside an unquoted value; the rest of the line was taken as the value. "
                                 "Put the value in quotes"});
            p_ = next_line(le);
            return source_scalar(scalar_style::plain, start, start, t);
        }
        if (s >= e_ || *s == '#') {
            p_ = next_line(line_end(s));
            return source_scalar(scalar_style::plain, start, start, first_end);
        }

        // Continuation lines fold: one line break becomes a space, n empty lines n newlines.
        std::string* buf = nullptr;
        char const* resume = next_line(s);
        for (;;) {
            int empties = 0;
            char const* line = resume;
            char const* content = nullptr;
            while (line < e_) {
                int const j = indent_of(line);
                char const* t = skip_blanks(line + j);
                if (t >= e_) break;
                if (is_break(*t)) {
                    ++empties;
                    line = next_line(t);
                    continue;
                }
                if (j <= parent || (j == 0 && is_marker(line)) || *t == '#') break;
                content = t;
                break;
            }
            if (content == nullptr) break;

            char const* r2 = content;
            x3::parse(r2, e_, lex::block_plain_line);
            if (r2 == content)
                fail(content, codes::yaml_colon_in_plain,
                     "a continuation line of an unquoted value starts with `: `; put the value in quotes");
            if (buf == nullptr) {
                buf = &st_.scratch;
                buf->assign(start, first_end);
            }
            if (empties == 0) *buf += ' ';
            else buf->append(static_cast<std::size_t>(empties), '\n');
            buf->append(content, r2);

            char const* s2 = skip_blanks(r2);
            if (s2 < e_ && *s2 == ':' && ws_or_end(s2 + 1))
                fail(s2, codes::yaml_colon_in_plain,
                     "`: ` inside a multi-line unquoted value would start a nested mapping; put the value in quotes or use `>`");
            if (s2 >= e_) { resume = e_; break; }
            if (*s2 == '#') { resume = next_line(line_end(s2)); break; }
            resume = next_line(s2);
        }
        p_ = resume;
        if (buf == nullptr) return source_scalar(scalar_style::plain, start, start, first_end);
        return out_.decoded_scalar(scalar_style::plain, static_cast<std::size_t>(start - b_), *buf);
    }

    /// Consumes a line break inside a quoted scalar and the empty lines after it;
    /// appends what they fold to. p_ ends on the next content character.
    void quoted_break(int parent, char const* start, std::string& buf, bool escaped)
    {
        p_ = next_line(p_);
        int empties = 0;
        for (;;) {
            if (p_ >= e_) break;
            int const j = indent_of(p_);
            char const* t = skip_blanks(p_ + j);
            if (t >= e_) { p_ = t; break; }
            if (is_break(*t)) {
                ++empties;
                p_ = next_line(t);
                continue;
            }
            if (j == 0 && is_marker(p_))
                fail(p_, codes::yaml_unterminated,
                     "a document marker inside a quoted value; close the quote before it");
            if (j <= parent)
                fail(t, codes::yaml_indentation,
                     "the continuation of a quoted value must be indented more than its key");
            p_ = t;
            break;
        }
        if (p_ >= e_)
            fail(start, codes::yaml_unterminated, "this quoted value is never closed; add the closing quote");
        if (!escaped && empties == 0) buf += ' ';
        else buf.append(static_cast<std::size_t>(empties), '\n');
    }

    index quoted(int parent)
    {
        char const q0 = *p_;
        char const* const start = p_;
        scalar_style const style = q0 == '"' ? scalar_style::double_quoted : scalar_style::single_quoted;
        ++p_;

        // Common case: nothing to decode before the closing quote.
        char const* r = p_;
        if (q0 == '"') x3::parse(r, e_, lex::double_quoted_run);
        else x3::parse(r, e_, lex::single_quoted_run);
        if (r < e_ && *r == q0 && !(q0 == '\'' && r + 1 < e_ && r[1] == '\'')) {
            index const i = source_scalar(style, start, p_, r);
            p_ = r + 1;
            return i;
        }

        std::string& buf = st_.scratch;
        buf.clear();
        std::size_t keep = 0; // length without trailing source blanks, which folding drops
        for (;;) {
            if (p_ >= e_)
                fail(start, codes::yaml_unterminated, "this quoted value is never closed; add the closing quote");
            char const c = *p_;
            if (c == q0) {
                if (q0 == '\'' && p_ + 1 < e_ && p_[1] == '\'') {
                    buf += '\'';
                    keep = buf.size();
                    p_ += 2;
                    continue;
                }
                ++p_;
                break;
            }
            if (is_break(c)) {
                buf.resize(keep);
                quoted_break(parent, start, buf, false);
                keep = buf.size();
                continue;
            }
            if (c == '\\' && q0 == '"') {
                if (p_ + 1 < e_ && is_break(p_[1])) {
                    // An escaped break joins the lines; blanks before the `\` are content.
                    ++p_;
                    quoted_break(parent, start, buf, true);
                    keep = buf.size();
                    continue;
                }
                std::uint32_t cp = 0;
                char const* er = p_;
                if (!x3::parse(er, e_, lex::escape, cp))
                    fail(p_, codes::yaml_escape,
                         "unknown escape sequence; YAML knows \\n \\t \\\" \\\\ \\/ \\0 \\xXX \\uXXXX \\UXXXXXXXX and a few more");
                if ((cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
                    fail(p_, codes::yaml_escape, "this escape names a surrogate or a code point beyond U+10FFFF");
                skillmd::detail::utf8_append(buf, static_cast<char32_t>(cp));
                keep = buf.size();
                p_ = er;
                continue;
            }
            char const* run = p_;
            if (q0 == '"') x3::parse(run, e_, lex::double_quoted_run);
            else x3::parse(run, e_, lex::single_quoted_run);
            buf.append(p_, run);
            char const* t = run;
            while (t > p_ && is_blank(t[-1])) --t;
            if (t > p_) keep = buf.size() - static_cast<std::size_t>(run - t);
            p_ = run;
        }
        return out_.decoded_scalar(style, static_cast<std::size_t>(start - b_), buf);
    }

    struct scalar_line
    {
        char const* b;
        char const* e;
        bool empty;
        bool has_break;
    };

    index block_scalar(int parent)
    {
        char const* const start = p_;
        bool const folded = *p_ == '>';
        ++p_;
        int explicit_indent = 0;
        char chomp = 0;
        for (int k = 0; k < 2 && p_ < e_; ++k) {
            char c = 0;
            char const* r = p_;
            if (!x3::parse(r, e_, lex::block_indicator, c)) break;
            if (c >= '1' && c <= '9' && explicit_indent == 0) explicit_indent = c - '0';
            else if ((c == '+' || c == '-') && chomp == 0) chomp = c;
            else fail(p_, codes::yaml_syntax, "repeated block scalar indicator");
            p_ = r;
        }
        char const* s = skip_blanks(p_);
        if (s < e_ && !is_break(*s)) {
            if (*s == '#' && s > p_) s = line_end(s);
            else
                fail(s, codes::yaml_syntax,
                     "unexpected text after `|` or `>`; the text of a block scalar starts on the next line");
        }
        p_ = next_line(s);

        int indent;
        if (explicit_indent != 0) {
            if (parent < 0)
                fail(start, codes::yaml_unsupported,
                     "an indentation indicator on a top-level block scalar is not supported; remove the digit");
            indent = parent + explicit_indent;
        } else {
            // The first line with text sets the indentation; empty lines before it may not be deeper.
            int max_empty = 0;
            indent = -1;
            char const* l = p_;
            char const* first_empty_deep = nullptr;
            while (l < e_) {
                int const j = indent_of(l);
                char const* t = l + j;
                if (t < e_ && *t == '\t' && is_blank_line(t)) fail_tab(t);
                if (t >= e_ || is_break(*t)) {
                    if (j > max_empty) { max_empty = j; first_empty_deep = l; }
                    if (t >= e_) break;
                    l = next_line(t);
                    continue;
                }
                indent = j;
                break;
            }
            if (indent <= parent || indent < 0) indent = 1 << 30; // no text: every line is empty
            else if (max_empty > indent)
                fail(first_empty_deep, codes::yaml_indentation,
                     "an empty line at the start of this block scalar has more spaces than its first text line");
        }

        std::vector<scalar_line>& lines = lines_;
        lines.clear();
        char const* l = p_;
        while (l < e_) {
            int const j = indent_of(l);
            char const* t = l + j;
            char const* le = line_end(t);
            bool const brk = le < e_ || le > l; // the end of the input ends a line too
            if (j == 0 && is_marker(l)) break;
            if (j < indent && t < le && *t == '\t' && is_blank_line(t)) fail_tab(t);
            if (t == le && j <= indent) {
                if (!brk && j == 0) break; // nothing after the last line break
                lines.push_back({le, le, true, brk});
            } else if (j >= indent) {
                lines.push_back({l + indent, le, false, brk});
            } else {
                break; // less indented text ends the scalar
            }
            l = next_line(le);
        }
        p_ = l;

        std::ptrdiff_t last = -1;
        for (std::size_t i = lines.size(); i-- > 0;)
            if (!lines[i].empty) { last = static_cast<std::ptrdiff_t>(i); break; }

        std::string& buf = st_.scratch;
        buf.clear();
        if (!folded) {
            for (std::ptrdiff_t i = 0; i <= last; ++i) {
                buf.append(lines[static_cast<std::size_t>(i)].b, lines[static_cast<std::size_t>(i)].e);
                if (i < last) buf += '\n';
            }
        } else {
            auto const is_text = [](scalar_line const& x) { return !x.empty && x.b < x.e && !is_blank(*x.b); };
            std::ptrdiff_t prev = -1;
            int empties = 0;
            for (std::ptrdiff_t i = 0; i <= last; ++i) {
                auto const& x = lines[static_cast<std::size_t>(i)];
                if (x.empty) {
                    if (prev >= 0) ++empties;
                    else buf += '\n';
                    continue;
                }
                if (prev >= 0) {
                    if (is_text(lines[static_cast<std::size_t>(prev)]) && is_text(x)) {
                        if (empties == 0) buf += ' ';
                        else buf.append(static_cast<std::size_t>(empties), '\n');
                    } else {
                        buf.append(static_cast<std::size_t>(empties + 1), '\n');
                    }
                }
                buf.append(x.b, x.e);
                prev = i;
                empties = 0;
            }
        }
        if (last >= 0 && chomp != '-' && lines[static_cast<std::size_t>(last)].has_break) buf += '\n';
        if (chomp == '+')
            for (std::size_t i = static_cast<std::size_t>(last + 1); i < lines.size(); ++i)
                if (lines[i].has_break) buf += '\n';
        return out_.decoded_scalar(folded ? scalar_style::folded : scalar_style::literal,
                                   static_cast<std::size_t>(start - b_), buf);
    }

    //-------------------------------------------------------------- flow collections
    /// Blanks, comments and line breaks inside [ ] and { }; new lines must be indented past `parent`.
    void flow_space(int parent)
    {
        for (;;) {
            p_ = skip_blanks(p_);
            if (p_ >= e_) return;
            if (*p_ == '#') {
                if (!after_blank(p_)) return;
                p_ = line_end(p_);
            }
            if (p_ >= e_ || !is_break(*p_)) return;
            p_ = next_line(p_);
            int const j = indent_of(p_);
            char const* t = skip_blanks(p_ + j);
            if (t < e_ && !is_break(*t)) {
                if (j == 0 && is_marker(p_))
                    fail(p_, codes::yaml_unterminated, "a document marker inside [ ] or { }; close the brackets first");
                if (j <= parent)
                    fail(t, codes::yaml_indentation,
                         "lines inside [ ] or { } must be indented more than the key they belong to");
            }
        }
    }

    index flow_node(int parent)
    {
        char const c = *p_;
        if ((c == '-' || c == '?' || c == ':') && ws_or_flow_end(p_ + 1))
            fail(p_, c == '?' ? codes::yaml_complex_key : codes::yaml_syntax,
                 std::string("`") + c + "` alone cannot be a value; put it in quotes");
        if (c == '[') return flow_sequence(parent);
        if (c == '{') return flow_mapping(parent);
        if (c == '"' || c == '\'') return quoted(parent);
        check_node_start(p_);
        if (c == '#') fail(p_, codes::yaml_syntax, "a comment needs a space before `#`");
        return flow_plain();
    }

    index flow_plain()
    {
        char const* const start = p_;
        char const* r = p_;
        x3::parse(r, e_, lex::flow_plain_line);
        if (r == start) fail(start, codes::yaml_syntax, "unexpected character inside [ ] or { }; put the value in quotes");
        p_ = r;
        // A plain value that goes on past the line end would need folding inside a flow
        // collection; that is refused rather than guessed.
        char const* s = skip_blanks(r);
        if (s < e_ && is_break(*s)) {
            char const* t = s;
            do {
                t = skip_blanks(next_line(t));
            } while (t < e_ && is_break(*t));
            if (t < e_ && *t != ',' && *t != ']' && *t != '}' && *t != ':' && *t != '#')
                fail(t, codes::yaml_unsupported,
                     "a value inside [ ] or { } continues on the next line; put it in quotes");
        }
        return source_scalar(scalar_style::plain, start, start, r);
    }

    index flow_sequence(int parent)
    {
        depth_guard const guard(*this, p_);
        char const* const open = p_;
        index const s = out_.collection(node_kind::sequence, static_cast<std::size_t>(p_ - b_), true);
        ++p_;
        for (;;) {
            flow_space(parent);
            if (p_ >= e_) fail(open, codes::yaml_unterminated, "this `[` is never closed; add `]`");
            if (*p_ == ']') { ++p_; break; }
            if (*p_ == ',') fail(p_, codes::yaml_syntax, "empty entry in [ ]; remove the extra comma");
            char const* const item_start = p_;
            index item = flow_node(parent);
            char const* const item_end = p_;
            p_ = skip_blanks(p_);
            if (p_ < e_ && *p_ == ':') {
                // `[k: v]` is a list holding the one-pair mapping {k: v}.
                bool const quoted_key = *item_start == '"' || *item_start == '\'';
                if (*item_start == '[' || *item_start == '{')
                    fail(item_start, codes::yaml_complex_key, "a [ ] or { } collection cannot be a mapping key");
                if (!quoted_key && !ws_or_flow_end(p_ + 1))
                    fail(p_, codes::yaml_syntax, "expected `,` or `]` in the list");
                for (char const* t = item_start; t < item_end; ++t)
                    if (is_break(*t)) fail(item_start, codes::yaml_unsupported, "a key must stay on one line");
                if (!quoted_key && out_.value(item) == "<<")
                    fail(item_start, codes::yaml_merge_key, "merge keys (`<<`) are not supported; write the entries out in full");
                ++p_;
                depth_guard const pair_guard(*this, item_start);
                index const pair = out_.collection(node_kind::mapping, static_cast<std::size_t>(item_start - b_), true);
                out_.append(pair, item);
                flow_space(parent);
                if (p_ < e_ && (*p_ == ',' || *p_ == ']')) {
                    out_.append(pair, empty_scalar(p_));
                } else {
                    if (p_ >= e_) fail(open, codes::yaml_unterminated, "this `[` is never closed; add `]`");
                    out_.append(pair, flow_node(parent));
                }
                item = pair;
            }
            flow_space(parent);
            out_.append(s, item);
            if (p_ >= e_) fail(open, codes::yaml_unterminated, "this `[` is never closed; add `]`");
            if (*p_ == ',') { ++p_; continue; }
            if (*p_ == ']') { ++p_; break; }
            fail(p_, codes::yaml_syntax, "expected `,` or `]` in the list");
        }
        return s;
    }

    index flow_mapping(int parent)
    {
        depth_guard const guard(*this, p_);
        char const* const open = p_;
        index const m = out_.collection(node_kind::mapping, static_cast<std::size_t>(p_ - b_), true);
        key_set seen(out_);
        ++p_;
        for (;;) {
            flow_space(parent);
            if (p_ >= e_) fail(open, codes::yaml_unterminated, "this `{` is never closed; add `}`");
            if (*p_ == '}') { ++p_; break; }
            if (*p_ == ',') fail(p_, codes::yaml_syntax, "empty entry in { }; remove the extra comma");
            if (*p_ == '[' || *p_ == '{')
                fail(p_, codes::yaml_complex_key, "a [ ] or { } collection cannot be a mapping key");
            char const* const kb = p_;
            bool const quoted_key = *p_ == '"' || *p_ == '\'';
            index key;
            if (quoted_key) {
                key = quoted(parent);
                for (char const* t = kb; t < p_; ++t)
                    if (is_break(*t))
                        fail(kb, codes::yaml_unsupported, "a key must stay on one line");
            } else {
                check_node_start(p_);
                key = flow_plain();
                if (out_.value(key) == "<<")
                    fail(kb, codes::yaml_merge_key, "merge keys (`<<`) are not supported; write the entries out in full");
            }
            if (!seen.insert(key))
                fail(kb, codes::yaml_duplicate_key,
                     "duplicate key `" + shorten(out_.value(key)) + "`; each key may appear once in a mapping");
            p_ = skip_blanks(p_);
            if (p_ < e_ && *p_ == ':' && (quoted_key || ws_or_flow_end(p_ + 1))) ++p_;
            else fail(p_, codes::yaml_unsupported, "every key inside { } needs a value: write `key: value`");
            out_.append(m, key);
            flow_space(parent);
            index value;
            if (p_ < e_ && (*p_ == ',' || *p_ == '}')) {
                value = empty_scalar(p_);
            } else {
                if (p_ >= e_) fail(open, codes::yaml_unterminated, "this `{` is never closed; add `}`");
                value = flow_node(parent);
                flow_space(parent);
            }
            out_.append(m, value);
            if (p_ >= e_) fail(open, codes::yaml_unterminated, "this `{` is never closed; add `}`");
            if (*p_ == ',') { ++p_; continue; }
            if (*p_ == '}') { ++p_; break; }
            fail(p_, codes::yaml_syntax, "expected `,` or `}` in the mapping");
        }
        return m;
    }

    parse_state& st_;
    document_builder& out_;
    char const* const b_;
    char const* const e_;
    char const* p_;
    unsigned depth_ = 0;
    std::vector<scalar_line> lines_;
};

} // namespace detail

//------------------------------------------------------------------------------
// The block document primitive and the start rule
//------------------------------------------------------------------------------

/// Parses a whole YAML document of the subset into the builder of the parse state.
struct block_document_parser : x3::parser<block_document_parser>
{
    using attribute_type = x3::unused_type;
    static bool const has_attribute = false;

    template <class Iterator, class Context, class RContext, class Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const& ctx, RContext&, Attribute&) const
    {
        parse_state& st = x3::get<state_tag>(ctx).get();
        detail::reader r(st, &*first, &*first + (last - first));
        if (!r.run()) return false;
        first = last;
        return true;
    }
};

inline constexpr block_document_parser block_document{};

inline constexpr document_type document = "YAML frontmatter";
inline const auto document_def = block_document >> x3::eoi;

BOOST_SPIRIT_DEFINE(document)

} // namespace skillmd::frontmatter::grammar

#endif
