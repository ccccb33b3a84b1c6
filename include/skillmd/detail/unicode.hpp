// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_DETAIL_UNICODE_HPP
#define SKILLMD_DETAIL_UNICODE_HPP

// Unicode rules for names and descriptions, taken from ICU rather than hand-made
// tables: NFKC, full lowercase mapping, character categories. They mirror what the
// Agent Skills reference validator gets from Python's str and unicodedata. The ICU calls
// are in detail/impl/unicode.ipp, so ICU's headers stay out of the declarations.

#include <skillmd/config.hpp>
#include <skillmd/detail/utf8.hpp>


#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace skillmd::detail {

/// NFKC normal form of UTF-8 text (unchanged when ICU cannot normalise it).
SKILLMD_DECL std::string nfkc(std::string_view s);

/** What a name looks like to a reader: NFKC with case folded, then Unicode's confusable
    skeleton (UTS #39, ICU's spoof checker). `api` and `аpi` (Cyrillic а), `file` and
    `ﬁle`, `deploy` and `Deploy` share one. Unchanged text when ICU cannot say.
*/
SKILLMD_DECL std::string confusable_skeleton(std::string_view s);

/// Full lowercase mapping (Python's str.lower()).
SKILLMD_DECL std::string to_lower(std::string_view s);

/// A letter or a number in the Unicode sense (Python's str.isalnum() per character).
SKILLMD_DECL bool is_alnum(char32_t c);

/// For each text, a key whose byte order is the Unicode Collation Algorithm's order
/// under the root locale (what JavaScript's `localeCompare` gives by default); a text's
/// own bytes when ICU cannot make its key.
SKILLMD_DECL std::vector<std::string> collation_keys(std::vector<std::string_view> const& texts);

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

SKILLMD_DECL bool is_space(char32_t c);

/// `s` without leading and trailing white space (Python's str.strip()).
inline std::string_view strip(std::string_view s)
{
    // ASCII white space off both ends, byte by byte: when what is left begins and ends
    // with ASCII (nearly always), that is the answer, since an ASCII byte is a code point of
    // its own even in broken UTF-8; only other ends need the middle decoded.
    std::size_t first = 0, last = s.size();
    while (first < last && is_ascii_space(static_cast<unsigned char>(s[first]))) ++first;
    while (last > first && is_ascii_space(static_cast<unsigned char>(s[last - 1]))) --last;
    if (first == last) return {};
    if (static_cast<unsigned char>(s[first]) < 0x80 && static_cast<unsigned char>(s[last - 1]) < 0x80)
        return s.substr(first, last - first);
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
SKILLMD_DECL std::optional<std::pair<char32_t, std::size_t>> find_invisible(std::string_view s, bool allow_breaks);

} // namespace skillmd::detail

#ifndef SKILLMD_SEPARATE_COMPILATION
#include <skillmd/detail/impl/unicode.ipp>
#endif

#endif
