// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_FRONTMATTER_IMPL_BODY_SCAN_HPP
#define SKILLMD_FRONTMATTER_IMPL_BODY_SCAN_HPP

// How split (frontmatter/split.hpp) reads a file: its lines and fences, and the one pass
// over the body that finds what is not text or hides content from a reader.

#include <skillmd/model/diagnostic.hpp>
#include <skillmd/detail/hex.hpp>
#include <skillmd/detail/line_index.hpp>
#include <skillmd/detail/utf8.hpp>

#include <algorithm>
#include <bit>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#if defined(__SSE2__)
#  include <emmintrin.h>
#endif

namespace skillmd::frontmatter {

namespace detail {

/// End of the line that starts at `i` (the offset of its line break, or size).
inline std::size_t line_end(std::string_view s, std::size_t i) noexcept
{
    char const* const b = s.data();
    return static_cast<std::size_t>(skillmd::detail::find_first_of<'\n', '\r'>(b + i, b + s.size()) - b);
}

/// Offset just past the line break at `i` (CRLF, LF or CR), or `i` at the end.
inline std::size_t after_break(std::string_view s, std::size_t i) noexcept
{
    if (i < s.size() && s[i] == '\r') ++i;
    if (i < s.size() && s[i] == '\n') ++i;
    return i;
}

/// A fence line: `---` followed only by spaces or tabs.
inline bool is_fence(std::string_view line) noexcept
{
    if (line.size() < 3 || line.compare(0, 3, "---") != 0) return false;
    for (std::size_t k = 3; k < line.size(); ++k)
        if (line[k] != ' ' && line[k] != '\t') return false;
    return true;
}

/// What one pass over a body finds: the first byte that keeps it from being text, and
/// the first hidden content before it (npos: none), with what that is.
struct body_findings
{
    std::size_t non_text = std::string_view::npos;
    char32_t non_text_code_point = 0; ///< a C1 or bidirectional control at `non_text`; 0 for a byte
    std::size_t hidden = std::string_view::npos;
    std::string_view what; ///< the hidden content, for the warning
};

inline void note_hidden(body_findings& f, std::size_t at, std::string_view what) noexcept
{
    f.hidden = at;
    f.what = what;
}

#if defined(__SSE2__)
/// The bytes of the block at `p` that scan_body must look at: controls and bytes above
/// 0x7F (both below 0x20 as signed bytes) but line feeds, and `<`. Tab, CR and form feed,
/// rarer than a line's end, take the per-byte path, which accepts them: five operations a
/// block instead of eight.
inline __m128i odd_lanes(char const* p) noexcept
{
    __m128i const v = _mm_loadu_si128(reinterpret_cast<__m128i const*>(p));
    __m128i const low = _mm_andnot_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n')), _mm_cmplt_epi8(v, _mm_set1_epi8(0x20)));
    return _mm_or_si128(low, _mm_cmpeq_epi8(v, _mm_set1_epi8('<')));
}
#endif

/// How many bytes from `i` on are printable ASCII or line feeds (text that hides nothing),
/// as far as a 16- or 32-byte block tells; 0 when the byte at `i` needs a closer look.
inline std::size_t plain_run(std::string_view body, std::size_t i) noexcept
{
#if defined(__SSE2__)
    if (i + 32 <= body.size() && _mm_movemask_epi8(_mm_or_si128(odd_lanes(body.data() + i), odd_lanes(body.data() + i + 16))) == 0)
        return 32; // most of a body: thirty-two bytes with one test
    if (i + 16 <= body.size()) {
        auto const odd = static_cast<unsigned>(_mm_movemask_epi8(odd_lanes(body.data() + i)));
        return odd == 0 ? 16 : static_cast<std::size_t>(std::countr_zero(odd));
    }
#else
    (void)body;
    (void)i;
#endif
    return 0;
}

/// A code point above ASCII (at `i`, none that keeps the body from being text): notes
/// tag characters or a run of zero-width ones as the first hidden content.
inline void note_hidden_code_point(body_findings& f, std::size_t i, char32_t cp, std::size_t& zero_width_run) noexcept
{
    if (f.hidden != std::string_view::npos) return;
    bool const zero_width = cp == 0x200B || cp == 0x200C || cp == 0x200D || cp == 0x2060 || cp == 0xFEFF;
    zero_width_run = zero_width ? zero_width_run + 1 : 0;
    if (cp >= 0xE0000 && cp <= 0xE007F) note_hidden(f, i, "Unicode tag characters (invisible text)");
    else if (zero_width_run == 2) // one joiner is an emoji sequence; a run hides something
        note_hidden(f, i - 3, "a run of zero-width characters");
}

/** The body is not parsed, but it reaches the prompt as it is, so one pass checks two
    things. It must be text: a file in another encoding (UTF-16, Latin-1), or with NUL or
    control bytes (a binary named SKILL.md), is refused at its first such byte; so is a C1
    control (U+0080-U+009F: U+009B starts a terminal's control sequence as ESC `[` does)
    and a bidirectional embedding, override or isolate (text shown in another order than
    it is read), which reach a terminal or a reviewer's screen as ESC would. And it
    should hide nothing a reader of the file does not see but a model reads (prompt
    smuggling): Unicode tag characters, runs of zero-width characters, HTML comments;
    the first is noted.
*/
inline body_findings scan_body(std::string_view body) noexcept
{
    body_findings f;
    std::size_t zero_width_run = 0;
    for (std::size_t i = 0; i < body.size();) {
        // Whole blocks up to the next byte plain_run picks out: printable ASCII and line
        // feeds are text, hide nothing and end a zero-width run.
        if (std::size_t const plain = plain_run(body, i); plain > 0) {
            zero_width_run = 0;
            i += plain;
            continue;
        }
        auto const c = static_cast<unsigned char>(body[i]);
        if (c < 0x80) {
            if (skillmd::detail::forbidden_control(c)) {
                f.non_text = i;
                return f;
            }
            zero_width_run = 0;
            if (c == '<' && f.hidden == std::string_view::npos && body.compare(i, 4, "<!--") == 0)
                note_hidden(f, i, "an HTML comment (shown to the model, hidden when the Markdown is rendered)");
            ++i;
            continue;
        }
        std::size_t const n = skillmd::detail::utf8_sequence_length(body, i);
        if (n == 0) {
            f.non_text = i;
            return f;
        }
        char32_t const cp = skillmd::detail::utf8_decode(body.data() + i, n);
        if (cp <= 0x9F || (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069)) {
            f.non_text = i;
            f.non_text_code_point = cp;
            return f;
        }
        note_hidden_code_point(f, i, cp, zero_width_run);
        i += n;
    }
    return f;
}

/// The checks of a body (from `from` on) that no parser does: an error at the first byte
/// that is not text, or else a warning at the first hidden content; with line and column.
inline void check_body(std::string_view file, std::size_t from, std::string_view origin, std::vector<diagnostic>& out)
{
    from = std::min(from, file.size());
    body_findings const f = scan_body(file.substr(from));
    if (f.non_text != std::string_view::npos) {
        std::size_t const at = from + f.non_text;
        auto const pos = skillmd::detail::position_cursor(file).at(at);
        auto const b = static_cast<unsigned char>(file[at]);
        std::string byte = "0x";
        skillmd::detail::append_hex_byte(byte, b, true);
        bool const utf16 = file.size() >= 2 && ((file[0] == '\xFF' && file[1] == '\xFE') || (file[0] == '\xFE' && file[1] == '\xFF'));
        char32_t const cp = f.non_text_code_point;
        std::string const code_point = skillmd::detail::code_point_label(cp);
        std::string msg = utf16     ? "the file is UTF-16; save it as UTF-8"
                          : cp >= 0x2000 ? "the body has a bidirectional control character (" + code_point +
                                               ": text shown in another order than it is read); a SKILL.md must be text"
                          : cp != 0 ? "the body has a C1 control character (" + code_point + ", which terminals obey); a SKILL.md must be text"
                          : b >= 0x80 ? "the body has a byte that is not UTF-8 (" + byte + "); save the file as UTF-8"
                                      : "the body has a control character (" + byte + "); a SKILL.md must be text";
        out.push_back({std::string((b >= 0x80 && cp == 0) || utf16 ? codes::utf8_invalid : codes::body_not_text), severity::error,
                       std::string(origin), pos.line, pos.column, std::move(msg)});
    } else if (f.hidden != std::string_view::npos) {
        auto const pos = skillmd::detail::position_cursor(file).at(from + f.hidden);
        out.push_back({std::string(codes::body_hidden_content), severity::warning, std::string(origin), pos.line, pos.column,
                       "the body has " + std::string(f.what) + "; check that nothing is hidden from people reading the skill"});
    }
}

} // namespace detail

} // namespace skillmd::frontmatter

#endif
