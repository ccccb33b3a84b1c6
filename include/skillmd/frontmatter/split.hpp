// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_FRONTMATTER_SPLIT_HPP
#define SKILLMD_FRONTMATTER_SPLIT_HPP

#include <skillmd/config.hpp>
#include <skillmd/model/diagnostic.hpp>
#include <skillmd/detail/hex.hpp>
#include <skillmd/detail/line_index.hpp>
#include <skillmd/detail/utf8.hpp>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#if defined(__SSE2__)
#  include <emmintrin.h>
#endif

namespace skillmd::frontmatter {

/// What a file without a leading `---` line means.
enum class missing_policy : std::uint8_t {
    empty_metadata, ///< no metadata, the whole file is the body (Claude Code); a warning
    error,          ///< an error, as the Agent Skills reference validator does
};

struct split_options
{
    missing_policy missing = missing_policy::empty_metadata;
};

/** Where the frontmatter and the body of a SKILL.md are.

    `frontmatter` views the text between the fence lines (fences excluded) of the
    string given to @ref split, so it lives as long as that string.
*/
struct split_result
{
    bool has_frontmatter = false;         ///< an opening and a closing fence were found
    std::string_view frontmatter;         ///< YAML text between the fences
    std::size_t frontmatter_offset = 0;   ///< byte offset of `frontmatter` in the file
    std::uint32_t frontmatter_line = 0;   ///< 1-based line of the first frontmatter line
    std::size_t body_offset = 0;          ///< byte offset of the body in the file
    std::vector<diagnostic> diagnostics;
};

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

/** Finds the frontmatter block of a SKILL.md.

    The block runs from a first line `---` to the next line that is exactly `---`
    (trailing blanks allowed). A UTF-8 byte order mark and CRLF line endings are
    accepted. A `---` that is not alone on its line, such as one inside a value, does
    not close the block; in YAML a `---` alone at the start of a line always ends the
    document, so no value can contain one.
*/
inline split_result split(std::string_view file, std::string_view origin, split_options opts = {})
{
    split_result r;
    std::size_t start = 0;
    if (file.substr(0, 3) == "\xEF\xBB\xBF") start = 3;
    r.body_offset = start;

    auto report = [&](std::string_view code, severity sev, std::uint32_t line, std::string msg) {
        r.diagnostics.push_back({std::string(code), sev, std::string(origin), line, line ? 1u : 0u, std::move(msg)});
    };

    std::size_t const first_end = detail::line_end(file, start);
    if (!detail::is_fence(file.substr(start, first_end - start))) {
        detail::check_body(file, start, origin, r.diagnostics);
        if (opts.missing == missing_policy::error)
            report(codes::frontmatter_missing, severity::error, 1,
                   "no frontmatter: the file must start with a line `---`, then the YAML metadata, then `---`");
        else
            report(codes::frontmatter_missing, severity::warning, 1,
                   "no frontmatter: the file is taken as a body without metadata; start it with `---` lines to add metadata");
        return r;
    }

    std::size_t pos = detail::after_break(file, first_end);
    std::uint32_t line = 2;
    std::size_t const fm_begin = pos;
    while (pos < file.size()) {
        std::size_t const end = detail::line_end(file, pos);
        if (detail::is_fence(file.substr(pos, end - pos))) {
            r.has_frontmatter = true;
            r.frontmatter = file.substr(fm_begin, pos - fm_begin);
            r.frontmatter_offset = fm_begin;
            r.frontmatter_line = 2;
            r.body_offset = detail::after_break(file, end);
            break;
        }
        pos = detail::after_break(file, end);
        ++line;
    }
    if (!r.has_frontmatter)
        report(codes::frontmatter_unclosed, severity::error, 1,
               "the frontmatter opened on this line is never closed: add a line `---` after the metadata");

    if (r.has_frontmatter) detail::check_body(file, r.body_offset, origin, r.diagnostics);
    return r;
}

} // namespace skillmd::frontmatter

#endif
