// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_DETAIL_UTF8_HPP
#define SKILLMD_DETAIL_UTF8_HPP

#if defined(__SSE2__)
#  include <emmintrin.h>
#endif

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace skillmd::detail {

/// Length of the well-formed UTF-8 sequence at s[i], or 0 when it is not well formed
/// (overlong forms, surrogates and code points above U+10FFFF are not).
inline std::size_t utf8_sequence_length(std::string_view s, std::size_t i) noexcept
{
    auto const at = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    unsigned char const c = at(i);
    std::size_t const left = s.size() - i;
    if (c < 0x80) return 1;
    if (c >= 0xc2 && c <= 0xdf)
        return left >= 2 && (at(i + 1) & 0xc0) == 0x80 ? 2 : 0;
    if (c >= 0xe0 && c <= 0xef) {
        if (left < 3) return 0;
        unsigned char const c1 = at(i + 1);
        if ((c1 & 0xc0) != 0x80 || (at(i + 2) & 0xc0) != 0x80) return 0;
        if (c == 0xe0 && c1 < 0xa0) return 0;  // overlong
        if (c == 0xed && c1 >= 0xa0) return 0; // surrogate
        return 3;
    }
    if (c >= 0xf0 && c <= 0xf4) {
        if (left < 4) return 0;
        unsigned char const c1 = at(i + 1);
        if ((c1 & 0xc0) != 0x80 || (at(i + 2) & 0xc0) != 0x80 || (at(i + 3) & 0xc0) != 0x80)
            return 0;
        if (c == 0xf0 && c1 < 0x90) return 0; // overlong
        if (c == 0xf4 && c1 >= 0x90) return 0; // above U+10FFFF
        return 4;
    }
    return 0;
}

/// Decodes the well-formed sequence of length n at p.
inline char32_t utf8_decode(char const* p, std::size_t n) noexcept
{
    auto const b = [&](std::size_t k) { return static_cast<char32_t>(static_cast<unsigned char>(p[k])); };
    switch (n) {
    case 1: return b(0);
    case 2: return ((b(0) & 0x1f) << 6) | (b(1) & 0x3f);
    case 3: return ((b(0) & 0x0f) << 12) | ((b(1) & 0x3f) << 6) | (b(2) & 0x3f);
    default: return ((b(0) & 0x07) << 18) | ((b(1) & 0x3f) << 12) | ((b(2) & 0x3f) << 6) | (b(3) & 0x3f);
    }
}

inline void utf8_append(std::string& out, char32_t cp)
{
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xc0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xe0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
        out += static_cast<char>(0x80 | (cp & 0x3f));
    } else {
        out += static_cast<char>(0xf0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
        out += static_cast<char>(0x80 | (cp & 0x3f));
    }
}

/// The first of the characters `Cs` at or after p (or e), sixteen bytes at a time.
template <char... Cs>
char const* find_first_of(char const* p, char const* e) noexcept
{
#if defined(__SSE2__)
    for (; e - p >= 16; p += 16) {
        __m128i const v = _mm_loadu_si128(reinterpret_cast<__m128i const*>(p));
        __m128i m = _mm_setzero_si128();
        ((m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8(Cs)))), ...);
        if (int const bits = _mm_movemask_epi8(m)) return p + std::countr_zero(static_cast<unsigned>(bits));
    }
#endif
    while (p < e && ((*p != Cs) && ...)) ++p;
    return p;
}

#if defined(__SSE2__)
/// Lanes of `v` that are not printable ASCII, DEL, tab, line feed, carriage return or form
/// feed: the bytes a text check must look at closer.
inline __m128i not_plain_text_lanes(__m128i v) noexcept
{
    __m128i const low = _mm_cmplt_epi8(v, _mm_set1_epi8(0x20)); // controls, and every byte >= 0x80
    // Tab, line feed, vertical tab, form feed and carriage return (9-13) moved to the
    // bottom of the signed range (0x80-0x84), where one compare finds them; then VT is
    // taken out again.
    __m128i const nine_to_thirteen = _mm_cmplt_epi8(_mm_add_epi8(v, _mm_set1_epi8(0x77)), _mm_set1_epi8(-123));
    __m128i const allowed = _mm_andnot_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\v')), nine_to_thirteen);
    return _mm_andnot_si128(allowed, low);
}

#endif

/// How many bytes from `i` on, up to sixteen, are plain text (see above): what a scan
/// may pass over at once (0 without SSE2, or within sixteen bytes of the end).
inline std::size_t plain_text_at(std::string_view s, std::size_t i) noexcept
{
#if defined(__SSE2__)
    if (i + 16 <= s.size()) {
        __m128i const v = _mm_loadu_si128(reinterpret_cast<__m128i const*>(s.data() + i));
        auto const odd = static_cast<unsigned>(_mm_movemask_epi8(not_plain_text_lanes(v)));
        return odd == 0 ? 16 : static_cast<std::size_t>(std::countr_zero(odd));
    }
#endif
    return 0;
}

/// Offset of the first byte that is not well-formed UTF-8, or npos.
/// Plain text is skipped sixteen bytes at a time, other ASCII eight.
inline std::size_t find_invalid_utf8(std::string_view s) noexcept
{
    std::size_t i = 0;
    while (i < s.size()) {
        if (std::size_t const plain = plain_text_at(s, i)) {
            i += plain;
            continue;
        }
        if (i + 8 <= s.size()) {
            std::uint64_t w;
            std::memcpy(&w, s.data() + i, 8);
            if ((w & 0x8080808080808080ull) == 0) {
                i += 8;
                continue;
            }
        }
        std::size_t const n = utf8_sequence_length(s, i);
        if (n == 0) return i;
        i += n;
    }
    return std::string_view::npos;
}

/** A code point a terminal obeys or a reader cannot see, which the one sanitiser of
    text for terminals and JSON (terminal_safe, json_quote) escapes: C0 controls, DEL,
    C1 controls (U+009B is a terminal's ESC `[`), the line and paragraph separators,
    Unicode's format characters (General_Category Cf: bidirectional controls, zero-width
    characters, the byte order mark, tag characters, soft hyphen, ...) and the other
    default-ignorable code points, which render as nothing (Hangul fillers, the combining
    grapheme joiner, Mongolian selectors, U+E0000-U+E0FFF). Variation selectors (U+FE00-
    U+FE0F, U+E0100-U+E01EF) stay: they choose how the character before them looks. No ICU: the
    list is Unicode 15's, short and stable.
*/
inline constexpr bool is_hidden_code_point(char32_t c) noexcept
{
    if (c < 0x20 || c == 0x7f) return true;
    if (c < 0x80) return false;
    if (c <= 0x9f || c == 0xad) return true;
    if (c < 0x34f) return false;
    return c == 0x34f || (c >= 0x600 && c <= 0x605) || c == 0x61c || c == 0x6dd || c == 0x70f || c == 0x890 || c == 0x891 ||
           c == 0x8e2 || c == 0x115f || c == 0x1160 || c == 0x17b4 || c == 0x17b5 || (c >= 0x180b && c <= 0x180f) ||
           (c >= 0x200b && c <= 0x200f) || (c >= 0x2028 && c <= 0x202e) || (c >= 0x2060 && c <= 0x206f) || c == 0x3164 ||
           c == 0xfeff || c == 0xffa0 || (c >= 0xfff0 && c <= 0xfffb) || c == 0x110bd || c == 0x110cd ||
           (c >= 0x13430 && c <= 0x1343f) || (c >= 0x1bca0 && c <= 0x1bca3) || (c >= 0x1d173 && c <= 0x1d17a) ||
           (c >= 0xe0000 && c <= 0xe00ff) || (c >= 0xe01f0 && c <= 0xe0fff);
}

/// A control character that must not reach a prompt or a terminal: every C0 byte but
/// tab, line feed, carriage return and form feed.
inline constexpr bool forbidden_control(unsigned char c) noexcept
{
    return c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f';
}

/** Offset of the first byte of `s` that keeps it from being text: not well-formed UTF-8,
    NUL or another forbidden control character; npos when there is none. Plain text,
    line breaks included, is skipped sixteen bytes at a time (SSE2); ASCII runs without
    controls eight bytes at a time.
*/
inline std::size_t find_non_text(std::string_view s) noexcept
{
    constexpr std::uint64_t high = 0x8080808080808080ull, spaces = 0x2020202020202020ull;
    std::size_t i = 0;
    while (i < s.size()) {
        if (std::size_t const plain = plain_text_at(s, i)) {
            i += plain;
            continue;
        }
        if (i + 8 <= s.size()) {
            std::uint64_t w;
            std::memcpy(&w, s.data() + i, 8);
            // No byte at or above 0x80, none below 0x20 (a borrow sets a high bit).
            if ((w & high) == 0 && ((w - spaces) & high) == 0) {
                i += 8;
                continue;
            }
        }
        auto const c = static_cast<unsigned char>(s[i]);
        if (c < 0x80) {
            if (forbidden_control(c)) return i;
            ++i;
            continue;
        }
        std::size_t const n = utf8_sequence_length(s, i);
        if (n == 0) return i;
        i += n;
    }
    return std::string_view::npos;
}

/// A byte with an ASCII letter lowered; every other byte as it is.
inline constexpr char ascii_lower_char(char c) noexcept
{
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

/// True when `a` sorts before `b` with ASCII letters lowered, bytes compared unsigned and
/// a prefix first. Equal bytes, most of them in sorted names, are passed over first.
inline bool ascii_less_ignoring_case(std::string_view a, std::string_view b) noexcept
{
    std::size_t const n = a.size() < b.size() ? a.size() : b.size();
    for (std::size_t i = 0; i < n; ++i) {
        if (a[i] == b[i]) continue;
        auto const x = static_cast<unsigned char>(ascii_lower_char(a[i]));
        auto const y = static_cast<unsigned char>(ascii_lower_char(b[i]));
        if (x != y) return x < y;
    }
    return a.size() < b.size();
}

/// `s` with ASCII letters lowered and every other byte kept (names compared without case).
inline std::string ascii_lower(std::string_view s)
{
    std::string out(s);
    for (auto& c : out) c = ascii_lower_char(c);
    return out;
}

/// The ASCII members of Unicode's White_Space: space, tab, LF, VT, FF, CR.
inline constexpr bool is_ascii_space(unsigned char c) noexcept
{
    return c == ' ' || (c >= 0x09 && c <= 0x0d);
}

/// Unicode's White_Space (Unicode 15; short and stable): the ASCII six, NEL, no-break
/// space, the Ogham space mark, the typographic spaces U+2000-U+200A, the line and
/// paragraph separators, the narrow no-break, medium mathematical and ideographic spaces.
inline constexpr bool is_white_space(char32_t c) noexcept
{
    if (c < 0x80) return is_ascii_space(static_cast<unsigned char>(c));
    return c == 0x85 || c == 0xa0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200a) || c == 0x2028 || c == 0x2029 ||
           c == 0x202f || c == 0x205f || c == 0x3000;
}

/// Bytes of JavaScript white space (`\s`: ASCII white space, U+00A0, U+1680,
/// U+2000-U+200A, U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF) at `i`, or 0.
inline std::size_t js_space_at(std::string_view s, std::size_t i) noexcept
{
    if (i >= s.size()) return 0;
    auto const c = static_cast<unsigned char>(s[i]);
    if (is_ascii_space(c)) return 1;
    auto const at = [&](std::size_t k) { return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0u; };
    if (c == 0xc2 && at(1) == 0xa0) return 2;
    if ((c == 0xe1 && at(1) == 0x9a && at(2) == 0x80) ||
        (c == 0xe2 && at(1) == 0x80 && ((at(2) >= 0x80 && at(2) <= 0x8a) || at(2) == 0xa8 || at(2) == 0xa9 || at(2) == 0xaf)) ||
        (c == 0xe2 && at(1) == 0x81 && at(2) == 0x9f) || (c == 0xe3 && at(1) == 0x80 && at(2) == 0x80) ||
        (c == 0xef && at(1) == 0xbb && at(2) == 0xbf))
        return 3;
    return 0;
}

/// How many bytes of `s` JavaScript's `\s*` matches at its start.
inline std::size_t js_space_prefix(std::string_view s) noexcept
{
    std::size_t i = 0;
    while (std::size_t const n = js_space_at(s, i)) i += n;
    return i;
}

/// Number of code points in s (s assumed well-formed; stray bytes count one each).
inline std::size_t utf8_length(std::string_view s) noexcept
{
    std::size_t n = 0, i = 0;
    auto const* p = reinterpret_cast<unsigned char const*>(s.data());
#if defined(__SSE2__)
    // Sixteen bytes at a time: a continuation byte (10xxxxxx) is, as a signed byte,
    // below -64; every other byte starts a code point. Each lane counts its lead bytes
    // (a compare gives -1) for at most 255 blocks, then the lanes are summed.
    if (s.size() >= 16) {
        // Most texts are ASCII: one pass that ORs the blocks says so, and then the
        // length is the size.
        __m128i any = _mm_loadu_si128(reinterpret_cast<__m128i const*>(p + s.size() - 16));
        for (std::size_t b = 0; b + 16 <= s.size(); b += 16)
            any = _mm_or_si128(any, _mm_loadu_si128(reinterpret_cast<__m128i const*>(p + b)));
        if (_mm_movemask_epi8(any) == 0) return s.size();
        __m128i const lead = _mm_set1_epi8(-65), zero = _mm_setzero_si128();
        auto const sum = [&](__m128i counts) {
            __m128i const sums = _mm_sad_epu8(counts, zero);
            n += static_cast<std::size_t>(_mm_cvtsi128_si32(sums)) + static_cast<std::size_t>(_mm_extract_epi16(sums, 4));
        };
        while (i + 16 <= s.size()) {
            __m128i counts = zero;
            for (int blocks = 0; blocks < 255 && i + 16 <= s.size(); ++blocks, i += 16) {
                __m128i const v = _mm_loadu_si128(reinterpret_cast<__m128i const*>(p + i));
                counts = _mm_sub_epi8(counts, _mm_cmpgt_epi8(v, lead));
            }
            sum(counts);
        }
        if (i < s.size()) {
            // The rest, read as the sixteen bytes that end `s`; the lanes already
            // counted are masked off (a window of the table below).
            alignas(16) static constexpr unsigned char keep[32] = {0,    0,    0,    0,    0,    0,    0,    0,
                                                                   0,    0,    0,    0,    0,    0,    0,    0,
                                                                   0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                                                   0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
            std::size_t const fresh = s.size() - i; // 1..15 bytes not yet counted
            __m128i const v = _mm_loadu_si128(reinterpret_cast<__m128i const*>(p + s.size() - 16));
            __m128i const m = _mm_loadu_si128(reinterpret_cast<__m128i const*>(keep + fresh));
            sum(_mm_and_si128(_mm_sub_epi8(zero, _mm_cmpgt_epi8(v, lead)), m));
        }
        return n;
    }
#endif
    // Short texts, eight bytes at a time: a continuation byte has bit 7 set and bit 6
    // clear; the per-byte flags are summed by one multiplication.
    for (; i + 8 <= s.size(); i += 8) {
        std::uint64_t x;
        std::memcpy(&x, p + i, 8);
        std::uint64_t const cont = (x & ~(x << 1)) & 0x8080808080808080ull;
        n += 8 - static_cast<std::size_t>(((cont >> 7) * 0x0101010101010101ull) >> 56);
    }
    for (; i < s.size(); ++i) n += (p[i] & 0xc0) != 0x80;
    return n;
}

} // namespace skillmd::detail

#endif
