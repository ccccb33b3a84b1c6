// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_DETAIL_UNICODE_HPP
#define SKILLMD_DETAIL_UNICODE_HPP

// Unicode rules for names and descriptions, taken from ICU rather than hand-made
// tables: NFKC, full lowercase mapping, character categories. They mirror what the
// Agent Skills reference validator gets from Python's str and unicodedata.

#include <skillmd/detail/utf8.hpp>

#include <unicode/locid.h>
#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>
#include <unicode/uspoof.h>

#include <optional>
#include <string>
#include <string_view>

namespace skillmd::detail {

/// NFKC normal form of UTF-8 text (unchanged when ICU cannot normalise it).
inline std::string nfkc(std::string_view s)
{
    UErrorCode status = U_ZERO_ERROR;
    icu::Normalizer2 const* n = icu::Normalizer2::getNFKCInstance(status);
    if (U_FAILURE(status)) return std::string(s);
    icu::UnicodeString const in = icu::UnicodeString::fromUTF8(icu::StringPiece(s.data(), static_cast<int32_t>(s.size())));
    icu::UnicodeString const out = n->normalize(in, status);
    if (U_FAILURE(status)) return std::string(s);
    std::string r;
    out.toUTF8String(r);
    return r;
}

/** What a name looks like to a reader: NFKC with case folded, then Unicode's confusable
    skeleton (UTS #39, ICU's spoof checker). `api` and `аpi` (Cyrillic а), `file` and
    `ﬁle`, `deploy` and `Deploy` share one. Unchanged text when ICU cannot say.
*/
inline std::string confusable_skeleton(std::string_view s)
{
    UErrorCode status = U_ZERO_ERROR;
    icu::Normalizer2 const* n = icu::Normalizer2::getNFKCCasefoldInstance(status);
    if (U_FAILURE(status)) return std::string(s);
    icu::UnicodeString const folded =
        n->normalize(icu::UnicodeString::fromUTF8(icu::StringPiece(s.data(), static_cast<int32_t>(s.size()))), status);
    if (U_FAILURE(status)) return std::string(s);
    USpoofChecker* sc = uspoof_open(&status);
    if (U_FAILURE(status)) return std::string(s);
    icu::UnicodeString skeleton;
    uspoof_getSkeletonUnicodeString(sc, 0, folded, skeleton, &status);
    uspoof_close(sc);
    if (U_FAILURE(status)) return std::string(s);
    std::string r;
    skeleton.toUTF8String(r);
    return r;
}

/// Full lowercase mapping (Python's str.lower()).
inline std::string to_lower(std::string_view s)
{
    icu::UnicodeString u = icu::UnicodeString::fromUTF8(icu::StringPiece(s.data(), static_cast<int32_t>(s.size())));
    u.toLower(icu::Locale::getRoot());
    std::string r;
    u.toUTF8String(r);
    return r;
}

/// A letter or a number in the Unicode sense (Python's str.isalnum() per character).
inline bool is_alnum(char32_t c)
{
    switch (u_charType(static_cast<UChar32>(c))) {
    case U_UPPERCASE_LETTER:
    case U_LOWERCASE_LETTER:
    case U_TITLECASE_LETTER:
    case U_MODIFIER_LETTER:
    case U_OTHER_LETTER:
    case U_DECIMAL_DIGIT_NUMBER:
    case U_LETTER_NUMBER:
    case U_OTHER_NUMBER:
        return true;
    default:
        return false;
    }
}

/// Calls f(code point, byte offset) for each code point of well-formed UTF-8.
template <class F>
void for_each_code_point(std::string_view s, F&& f)
{
    std::size_t i = 0;
    while (i < s.size()) {
        std::size_t n = utf8_sequence_length(s, i);
        if (n == 0) n = 1;
        f(utf8_decode(s.data() + i, n), i);
        i += n;
    }
}

inline bool is_space(char32_t c) { return c == ' ' || (c >= 0x09 && c <= 0x0d) || u_isUWhiteSpace(static_cast<UChar32>(c)); }

/// `s` without leading and trailing white space (Python's str.strip()).
inline std::string_view strip(std::string_view s)
{
    std::size_t b = s.size(), e = 0;
    for_each_code_point(s, [&](char32_t c, std::size_t at) {
        if (!is_space(c)) {
            if (b == s.size()) b = at;
            e = at + utf8_sequence_length(s, at);
        }
    });
    return b >= e ? std::string_view() : s.substr(b, e - b);
}

/// The first control or invisible formatting character (zero-width space, bidi
/// override, byte order mark, ...) and its byte offset; tab and line breaks are
/// allowed when `allow_breaks`.
inline std::optional<std::pair<char32_t, std::size_t>> find_invisible(std::string_view s, bool allow_breaks)
{
    std::optional<std::pair<char32_t, std::size_t>> found;
    for_each_code_point(s, [&](char32_t c, std::size_t at) {
        if (found) return;
        if (allow_breaks && (c == '\t' || c == '\n' || c == '\r')) return;
        auto const t = u_charType(static_cast<UChar32>(c));
        if (t == U_CONTROL_CHAR || t == U_FORMAT_CHAR || c == 0x2028 || c == 0x2029) found.emplace(c, at);
    });
    return found;
}

} // namespace skillmd::detail

#endif
