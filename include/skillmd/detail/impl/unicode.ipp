// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_DETAIL_IMPL_UNICODE_IPP
#define SKILLMD_DETAIL_IMPL_UNICODE_IPP

// The Unicode rules of detail/unicode.hpp, answered by ICU.

#include <skillmd/detail/unicode.hpp>

#include <unicode/locid.h>
#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/ucol.h>
#include <unicode/unistr.h>
#include <unicode/uspoof.h>

#if defined(__SSE2__)
#  include <emmintrin.h>
#endif

namespace skillmd::detail {

SKILLMD_DECL std::string nfkc(std::string_view s)
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

SKILLMD_DECL std::string confusable_skeleton(std::string_view s)
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

SKILLMD_DECL std::string to_lower(std::string_view s)
{
    icu::UnicodeString u = icu::UnicodeString::fromUTF8(icu::StringPiece(s.data(), static_cast<int32_t>(s.size())));
    u.toLower(icu::Locale::getRoot());
    std::string r;
    u.toUTF8String(r);
    return r;
}

SKILLMD_DECL std::vector<std::string> collation_keys(std::vector<std::string_view> const& texts)
{
    std::vector<std::string> keys;
    keys.reserve(texts.size());
    UErrorCode status = U_ZERO_ERROR;
    UCollator* coll = ucol_open("", &status); // one collator for all: opening is the costly part
    for (auto const s : texts) {
        std::string key;
        if (U_SUCCESS(status)) {
            icu::UnicodeString const u = icu::UnicodeString::fromUTF8(icu::StringPiece(s.data(), static_cast<int32_t>(s.size())));
            key.resize(static_cast<std::size_t>(u.length()) * 4 + 16);
            auto const make = [&] {
                return ucol_getSortKey(coll, u.getBuffer(), u.length(), reinterpret_cast<uint8_t*>(key.data()),
                                       static_cast<int32_t>(key.size()));
            };
            int32_t n = make();
            if (n > static_cast<int32_t>(key.size())) {
                key.resize(static_cast<std::size_t>(n));
                n = make();
            }
            if (n > 0) key.resize(static_cast<std::size_t>(n) - 1); // less the terminating zero byte
            else key.assign(s);
        } else {
            key.assign(s);
        }
        keys.push_back(std::move(key));
    }
    if (U_SUCCESS(status)) ucol_close(coll);
    return keys;
}

SKILLMD_DECL bool is_alnum(char32_t c)
{
    // ASCII without ICU: its letters are Lu/Ll and its digits Nd, nothing else is alphanumeric.
    if (c < 0x80) return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
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

// Unicode's White_Space holds no other ASCII character than these six.
SKILLMD_DECL bool is_space(char32_t c)
{
    return c < 0x80 ? is_ascii_space(static_cast<unsigned char>(c)) : u_isUWhiteSpace(static_cast<UChar32>(c)) != 0;
}

SKILLMD_DECL std::optional<std::pair<char32_t, std::size_t>> find_invisible(std::string_view s, bool allow_breaks)
{
    std::optional<std::pair<char32_t, std::size_t>> found;
    // ASCII's only controls are C0 and DEL (Cc); it has no format characters. The ASCII
    // prefix is checked byte by byte; decoding starts at the first other byte, which
    // begins a sequence.
    auto const ascii_invisible = [&](char32_t c) {
        return (c < 0x20 || c == 0x7f) && !(allow_breaks && (c == '\t' || c == '\n' || c == '\r'));
    };
    std::size_t start = 0;
#if defined(__SSE2__)
    // Sixteen bytes at a time while they are printable ASCII (no control, DEL or other byte).
    for (; start + 16 <= s.size(); start += 16) {
        __m128i const v = _mm_loadu_si128(reinterpret_cast<__m128i const*>(s.data() + start));
        if (_mm_movemask_epi8(_mm_or_si128(_mm_cmplt_epi8(v, _mm_set1_epi8(0x20)), _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7f)))) != 0) break;
    }
#endif
    for (; start < s.size() && static_cast<unsigned char>(s[start]) < 0x80; ++start)
        if (ascii_invisible(static_cast<unsigned char>(s[start]))) return std::pair<char32_t, std::size_t>(static_cast<unsigned char>(s[start]), start);
    for_each_code_point(s.substr(start), [&](char32_t c, std::size_t at) {
        if (found) return;
        if (c < 0x80) {
            if (ascii_invisible(c)) found.emplace(c, start + at);
            return;
        }
        // Controls, format characters, separators, and what renders as nothing at all
        // (default-ignorable: Hangul fillers, U+034F); not emoji's variation selectors.
        auto const t = u_charType(static_cast<UChar32>(c));
        bool const variation = (c >= 0xfe00 && c <= 0xfe0f) || (c >= 0xe0100 && c <= 0xe01ef);
        if (t == U_CONTROL_CHAR || t == U_FORMAT_CHAR || c == 0x2028 || c == 0x2029 ||
            (!variation && u_hasBinaryProperty(static_cast<UChar32>(c), UCHAR_DEFAULT_IGNORABLE_CODE_POINT)))
            found.emplace(c, start + at);
    });
    return found;
}

} // namespace skillmd::detail

#endif
