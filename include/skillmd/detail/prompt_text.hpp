// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_DETAIL_PROMPT_TEXT_HPP
#define SKILLMD_DETAIL_PROMPT_TEXT_HPP

// Text that goes into a prompt: one-line cleaning (so a description can never start a
// new line, list item, heading or fence), escaping for the format that embeds it, and
// lengths and cuts in code points (a cut never splits a UTF-8 sequence).

#include <skillmd/detail/trim.hpp>
#include <skillmd/detail/utf8.hpp>

#include <unicode/uchar.h>

#if defined(__SSE2__)
#  include <emmintrin.h>
#endif

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace skillmd {

/// What a format escapes in the text it embeds.
enum class escaping : std::uint8_t {
    none,     ///< one-line text as it is (Markdown and plain lists: the line prefix is ours)
    xml,      ///< `& < >` as entities (element content)
    html,     ///< `& < > " '` as Python's html.escape writes them (the reference tool)
    markdown, ///< backslash before `\ * _ ` [ ]` (inside emphasis)
    angle,    ///< only `< >`, as `&lt; &gt;` (Claude Code 2.1's listing; `&` stays)
};

namespace detail {

/// True for code points that must not reach a one-line prompt text as they are:
/// C0 and C1 controls, DEL, and the Unicode line and paragraph separators.
constexpr bool breaks_line(char32_t c) noexcept
{
    return c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f) || c == 0x2028 || c == 0x2029;
}

#if defined(__SSE2__)
/// `is_clean_ascii_line` for texts of sixteen bytes or more (their ends already checked
/// not to be spaces), sixteen bytes at a time with one test at the end: signed compares
/// catch < 0x20 and >= 0x7f (non-ASCII is negative); two spaces in a row are a space whose
/// byte before (the block loaded one byte earlier) is a space too. The last block overlaps
/// the one before; bytes seen twice pass twice. `also` is shown every block, so a caller
/// can learn something else in the same pass.
template <class Also>
bool clean_blocks(char const* p, std::size_t n, Also&& also) noexcept
{
    __m128i const tilde = _mm_set1_epi8(0x7e), space = _mm_set1_epi8(' ');
    __m128i bad = _mm_setzero_si128();
    auto const block = [&](__m128i v, __m128i before) {
        bad = _mm_or_si128(bad, _mm_or_si128(_mm_cmpgt_epi8(v, tilde), _mm_cmpgt_epi8(space, v)));
        bad = _mm_or_si128(bad, _mm_and_si128(_mm_cmpeq_epi8(v, space), _mm_cmpeq_epi8(before, space)));
        also(v);
    };
    auto const load = [](char const* at) { return _mm_loadu_si128(reinterpret_cast<__m128i const*>(at)); };
    __m128i const first = load(p);
    block(first, _mm_slli_si128(first, 1)); // byte 0 has no byte before (and is not a space)
    std::size_t i = 16;
    for (; i + 16 <= n; i += 16) block(load(p + i), load(p + i - 1));
    if (i < n) block(load(p + n - 16), load(p + n - 17));
    return _mm_movemask_epi8(bad) == 0;
}
#endif

/// True when `s` is already one clean line of printable ASCII: nothing to rewrite
/// (no control, DEL or non-ASCII byte, no space at either end, no two spaces in a row).
inline bool is_clean_ascii_line(std::string_view s) noexcept
{
    std::size_t const n = s.size();
    if (n == 0) return true;
    if (s.front() == ' ' || s.back() == ' ') return false;
    char const* const p = s.data();
#if defined(__SSE2__)
    if (n >= 16) return clean_blocks(p, n, [](__m128i) {});
#endif
    if (n >= 8) {
        // Eight bytes at a time, the second word overlapping the first: per byte, the top
        // bit flags non-ASCII, < 0x20 (7 bits + 0x60 stay below 0x80), DEL (+1 reaches
        // 0x80) and a space (a zero byte after XOR) next to a space.
        constexpr std::uint64_t high = 0x8080808080808080ull, low = 0x7f7f7f7f7f7f7f7full, ones = 0x0101010101010101ull;
        auto const clean = [&](char const* at) {
            std::uint64_t x;
            std::memcpy(&x, at, 8);
            std::uint64_t const y = x & low;
            std::uint64_t bad = (x | ~(y + 0x60 * ones) | (y + ones)) & high;
            std::uint64_t const z = x ^ (0x20 * ones);
            std::uint64_t const sp = ~(((z & low) + low) | z) & high;
            return (bad | (sp & (sp >> 8))) == 0;
        };
        return clean(p) && clean(p + n - 8);
    }
    for (std::size_t i = 0; i < n; ++i) {
        auto const c = static_cast<unsigned char>(p[i]);
        if (c < 0x20 || c > 0x7e || (c == ' ' && p[i - 1] == ' ')) return false;
    }
    return true;
}

/// Appends `s` as one line: controls and line breaks become spaces, invisible
/// formatting characters (zero-width, bidi overrides, byte order marks) are dropped,
/// runs of spaces become one, both ends are trimmed, invalid UTF-8 becomes U+FFFD.
inline void append_clean_line(std::string& out, std::string_view s)
{
    if (is_clean_ascii_line(s)) {
        out += s;
        return;
    }
    bool pending_space = false;
    bool any = false;
    std::size_t i = 0;
    auto const emit_space = [&] {
        if (pending_space && any) out += ' ';
        pending_space = false;
    };
    while (i < s.size()) {
        auto const b = static_cast<unsigned char>(s[i]);
        if (b > 0x20 && b < 0x7f) {
            emit_space();
            std::size_t j = i + 1;
            while (j < s.size() && static_cast<unsigned char>(s[j]) > 0x20 && static_cast<unsigned char>(s[j]) < 0x7f) ++j;
            out.append(s.data() + i, j - i);
            any = true;
            i = j;
            continue;
        }
        if (b < 0x80) { // space, controls, DEL
            pending_space = true;
            ++i;
            continue;
        }
        std::size_t const n = utf8_sequence_length(s, i);
        if (n == 0) {
            emit_space();
            out += "\xef\xbf\xbd";
            any = true;
            ++i;
            continue;
        }
        char32_t const c = utf8_decode(s.data() + i, n);
        if (breaks_line(c)) {
            pending_space = true;
        } else if (u_charType(static_cast<UChar32>(c)) != U_FORMAT_CHAR) {
            emit_space();
            out.append(s.data() + i, n);
            any = true;
        }
        i += n;
    }
}

/// Appends `s` as it is, except that bytes that are not UTF-8 become U+FFFD: the text a
/// program that decodes files into Unicode strings (Node, Bun) would embed raw.
inline void append_raw_text(std::string& out, std::string_view s)
{
    std::size_t bad = find_invalid_utf8(s);
    if (bad == std::string_view::npos) {
        out += s;
        return;
    }
    std::size_t i = 0;
    while (bad != std::string_view::npos) {
        out.append(s.data() + i, bad - i);
        out += "\xef\xbf\xbd";
        i = bad + 1;
        std::size_t const next = find_invalid_utf8(s.substr(i));
        bad = next == std::string_view::npos ? next : i + next;
    }
    out.append(s.data() + i, s.size() - i);
}

inline std::string clean_line(std::string_view s)
{
    std::string out;
    out.reserve(s.size());
    append_clean_line(out, s);
    return out;
}

/// True for the white space Python's str.strip() removes (ASCII and Unicode).
inline bool strippable(char32_t c) noexcept
{
    return c == ' ' || (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x1f) ||
           (c >= 0x80 && u_isUWhiteSpace(static_cast<UChar32>(c)));
}

/** Text for an XML element, as the systems that embed descriptions in XML keep it:
    both ends stripped (str.strip()), line breaks kept (CR LF and CR become LF). Other
    controls (C0, C1) and invisible formatting characters (bidi overrides, zero-width)
    are dropped, invalid UTF-8 becomes U+FFFD. Escaping, done after, keeps it inside
    its element whatever it holds.
*/
inline void append_xml_text(std::string& out, std::string_view s)
{
    if (is_clean_ascii_line(s)) {
        out += s;
        return;
    }
    std::size_t b = 0, e = s.size();
    while (b < e) { // leading white space
        std::size_t n = utf8_sequence_length(s, b);
        if (n == 0 || !strippable(utf8_decode(s.data() + b, n))) break;
        b += n;
    }
    while (e > b) { // trailing white space
        std::size_t start = e - 1;
        while (start > b && (static_cast<unsigned char>(s[start]) & 0xc0) == 0x80) --start;
        std::size_t const n = utf8_sequence_length(s, start);
        if (n == 0 || start + n != e || !strippable(utf8_decode(s.data() + start, n))) break;
        e = start;
    }
    out.reserve(out.size() + (e - b));
    for (std::size_t i = b; i < e;) {
        auto const c = static_cast<unsigned char>(s[i]);
        if (c < 0x80) {
            if (c == '\r') {
                out += '\n';
                if (i + 1 < e && s[i + 1] == '\n') ++i;
            } else if (c >= 0x20 || c == '\t' || c == '\n') {
                out += static_cast<char>(c);
            }
            ++i;
            continue;
        }
        std::size_t const n = utf8_sequence_length(s, i);
        if (n == 0) {
            out += "\xef\xbf\xbd";
            ++i;
            continue;
        }
        char32_t const cp = utf8_decode(s.data() + i, n);
        if (!(cp >= 0x80 && cp <= 0x9f) && u_charType(static_cast<UChar32>(cp)) != U_FORMAT_CHAR) out.append(s.data() + i, n);
        i += n;
    }
}

inline std::string xml_text(std::string_view s)
{
    std::string out;
    append_xml_text(out, s);
    return out;
}

/// The entity or escape for an ASCII character under `e`, or empty.
constexpr std::string_view escape_of(unsigned char c, escaping e) noexcept
{
    switch (e) {
    case escaping::none: return {};
    case escaping::xml:
    case escaping::html:
        if (c == '&') return "&amp;";
        if (c == '<') return "&lt;";
        if (c == '>') return "&gt;";
        if (e == escaping::html && c == '"') return "&quot;";
        if (e == escaping::html && c == '\'') return "&#x27;";
        return {};
    case escaping::angle:
        if (c == '<') return "&lt;";
        if (c == '>') return "&gt;";
        return {};
    case escaping::markdown:
        if (c == '\\') return "\\\\";
        if (c == '*') return "\\*";
        if (c == '_') return "\\_";
        if (c == '`') return "\\`";
        if (c == '[') return "\\[";
        if (c == ']') return "\\]";
        return {};
    }
    return {};
}

/// Which ASCII bytes `e` rewrites, as a 256-entry table.
inline std::array<bool, 256> const& escape_table(escaping e) noexcept
{
    static auto const make = [](escaping x) {
        std::array<bool, 256> t{};
        for (unsigned c = 0; c < 128; ++c) t[c] = !escape_of(static_cast<unsigned char>(c), x).empty();
        return t;
    };
    static std::array<bool, 256> const tables[] = {make(escaping::none), make(escaping::xml), make(escaping::html),
                                                   make(escaping::markdown), make(escaping::angle)};
    return tables[static_cast<std::size_t>(e)];
}

#if defined(__SSE2__)
/// Lanes of `v` holding one of the characters `e` rewrites (`e` is xml or html).
inline __m128i escape_lanes(__m128i v, escaping e) noexcept
{
    __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('&')), _mm_cmpeq_epi8(v, _mm_set1_epi8('<'))),
                               _mm_cmpeq_epi8(v, _mm_set1_epi8('>')));
    if (e == escaping::html)
        hit = _mm_or_si128(hit, _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\''))));
    return hit;
}

/// Bit k set when s[at + k] is one of the characters `e` rewrites (`e` is xml or html).
inline unsigned escape_hits(char const* at, escaping e) noexcept
{
    return static_cast<unsigned>(_mm_movemask_epi8(escape_lanes(_mm_loadu_si128(reinterpret_cast<__m128i const*>(at)), e)));
}

/// Calls `f(i)` for each byte of `s` (sixteen or more, `e` xml or html) that `e`
/// rewrites, in order: sixteen bytes at a time, the last block overlapping the one
/// before, less the bytes already seen. Returns true when every byte is ASCII (then a
/// byte's index is its code point's), learnt in the same pass.
template <class F>
bool for_each_escape_hit(std::string_view s, escaping e, F&& f)
{
    auto const load = [&](std::size_t at) { return _mm_loadu_si128(reinterpret_cast<__m128i const*>(s.data() + at)); };
    __m128i any = _mm_setzero_si128();
    std::size_t i = 0;
    for (; i + 16 <= s.size(); i += 16) {
        __m128i const v = load(i);
        any = _mm_or_si128(any, v);
        for (unsigned m = static_cast<unsigned>(_mm_movemask_epi8(escape_lanes(v, e))); m != 0; m &= m - 1)
            f(i + static_cast<std::size_t>(std::countr_zero(m)));
    }
    if (i < s.size()) {
        std::size_t const last = s.size() - 16;
        __m128i const v = load(last);
        any = _mm_or_si128(any, v);
        for (unsigned m = static_cast<unsigned>(_mm_movemask_epi8(escape_lanes(v, e))) & (~0u << (i - last)); m != 0; m &= m - 1)
            f(last + static_cast<std::size_t>(std::countr_zero(m)));
    }
    return _mm_movemask_epi8(any) == 0;
}
#endif

/// Appends `s` with the characters `e` names escaped.
inline void append_escaped(std::string& out, std::string_view s, escaping e)
{
    if (e == escaping::none) {
        out += s;
        return;
    }
    std::size_t run = 0; // the first byte not yet copied
    auto const rewrite = [&](std::size_t at) {
        out.append(s.data() + run, at - run);
        out += escape_of(static_cast<unsigned char>(s[at]), e);
        run = at + 1;
    };
    std::size_t i = 0;
#if defined(__SSE2__)
    // Sixteen bytes at a time, visiting only the bytes to rewrite (the markdown and
    // angle sets are rare enough to take the byte loop).
    if ((e == escaping::xml || e == escaping::html) && s.size() >= 16) {
        for_each_escape_hit(s, e, rewrite);
        i = s.size();
    }
#endif
    auto const& special = escape_table(e);
    for (; i < s.size(); ++i)
        if (special[static_cast<unsigned char>(s[i])]) rewrite(i);
    out.append(s.data() + run, s.size() - run);
}

/// Code points `c` occupies once escaped.
inline std::size_t escaped_length(char32_t c, escaping e) noexcept
{
    return c < 0x80 ? std::max<std::size_t>(1, escape_of(static_cast<unsigned char>(c), e).size()) : 1;
}

/// True when `s` holds a character that `e` rewrites.
inline bool needs_escaping(std::string_view s, escaping e) noexcept
{
    if (e == escaping::none) return false;
#if defined(__SSE2__)
    if ((e == escaping::xml || e == escaping::html) && s.size() >= 16) {
        std::size_t i = 0;
        for (; i + 16 <= s.size(); i += 16)
            if (escape_hits(s.data() + i, e) != 0) return true;
        return i < s.size() && escape_hits(s.data() + s.size() - 16, e) != 0;
    }
#endif
    auto const& special = escape_table(e);
    for (char c : s)
        if (special[static_cast<unsigned char>(c)]) return true;
    return false;
}

/// Appends `s` escaped when it is already one clean line of printable ASCII
/// (`is_clean_ascii_line`) and says so; appends nothing and returns false otherwise. For
/// XML and HTML escaping, one pass answers both questions.
inline bool append_clean_escaped(std::string& out, std::string_view s, escaping e)
{
#if defined(__SSE2__)
    if ((e == escaping::xml || e == escaping::html) && s.size() >= 16) {
        if (s.front() == ' ' || s.back() == ' ') return false;
        __m128i hits = _mm_setzero_si128();
        bool const clean = clean_blocks(s.data(), s.size(), [&](__m128i v) { hits = _mm_or_si128(hits, escape_lanes(v, e)); });
        if (!clean) return false;
        if (_mm_movemask_epi8(hits) == 0) out += s;
        else append_escaped(out, s, e);
        return true;
    }
#endif
    if (!is_clean_ascii_line(s)) return false;
    append_escaped(out, s, e);
    return true;
}

/// The longest prefix of `s` with at most `n` code points.
inline std::string_view prefix_code_points(std::string_view s, std::size_t n) noexcept
{
    std::size_t i = 0;
    for (std::size_t k = 0; i < s.size(); ++i) {
        if ((static_cast<unsigned char>(s[i]) & 0xc0) == 0x80) continue;
        if (k++ == n) break;
    }
    return s.substr(0, i);
}

/// `s` cut to at most `n` code points, ending in `…` when something was cut; trailing
/// spaces before the mark are dropped.
inline std::string shorten(std::string_view s, std::size_t n)
{
    if (utf8_length(s) <= n) return std::string(s);
    if (n == 0) return {};
    std::string_view const head = prefix_code_points(s, n - 1);
    return std::string(trim_end(head, " ")) + "\xe2\x80\xa6";
}

} // namespace detail
} // namespace skillmd

#endif
