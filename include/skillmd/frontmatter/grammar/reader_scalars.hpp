// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_FRONTMATTER_GRAMMAR_READER_SCALARS_HPP
#define SKILLMD_FRONTMATTER_GRAMMAR_READER_SCALARS_HPP

// The reader: plain scalars (folded over lines) and single- and double-quoted
// scalars with their escapes and line folding.

#include <skillmd/frontmatter/grammar/reader.hpp>

namespace skillmd::frontmatter::grammar::detail {

/// `key: a: b`: refused, or read leniently (the rest of the line is the value) with a warning.
inline index reader::plain_with_colon(char const* start, char const* colon)
{
    if (!st_.options.recover_colon_in_plain)
        return fail(colon, codes::yaml_colon_in_plain,
                    "`: ` inside an unquoted value would start a nested mapping; put the value in quotes or use `>`");
    char const* const le = line_end(colon);
    char const* t = le;
    while (t > start && is_blank(t[-1])) --t;
    st_.notes.push_back({colon, codes::yaml_colon_in_plain,
                         "`: ` inside an unquoted value; the rest of the line was taken as the value. "
                         "Put the value in quotes"});
    p_ = next_line(le);
    return source_scalar(scalar_style::plain, start, start, t);
}

/// The first character of the next continuation line of a plain scalar, or null where the
/// scalar ends (a line not indented past `parent`, a comment, a document marker, the end);
/// `empties` counts the empty lines on the way.
inline char const* reader::plain_continuation(char const* line, int parent, int& empties) const
{
    empties = 0;
    while (line < e_) {
        int const j = indent_of(line);
        char const* t = skip_blanks(line + j);
        if (t >= e_) return nullptr;
        if (is_break(*t)) {
            ++empties;
            line = next_line(t);
            continue;
        }
        if (j <= parent || (j == 0 && is_marker(line)) || *t == '#') return nullptr;
        return t;
    }
    return nullptr;
}

/// A plain scalar in block context: its first line, then continuation lines indented
/// more than `parent`, folded (one line break becomes a space, n empty lines n newlines).
inline index reader::plain(int parent)
{
    char const* const start = p_;
    char const* r = p_;
    x3::parse(r, e_, lex::block_plain_line);
    if (r == start) return fail(start, codes::yaml_syntax, "unexpected character; put the value in quotes");
    char const* const first_end = r;
    char const* s = skip_blanks(r);
    if (s < e_ && *s == ':' && ws_or_end(s + 1)) return plain_with_colon(start, s);
    if (s >= e_ || *s == '#') {
        p_ = next_line(line_end(s));
        return source_scalar(scalar_style::plain, start, start, first_end);
    }

    std::string* buf = nullptr; // the folded text, once there is a second line
    char const* resume = next_line(s);
    int empties = 0;
    while (char const* content = plain_continuation(resume, parent, empties)) {
        char const* r2 = content;
        x3::parse(r2, e_, lex::block_plain_line);
        if (r2 == content)
            return fail(content, codes::yaml_colon_in_plain,
                        "a continuation line of an unquoted value starts with `: `; put the value in quotes");
        if (buf == nullptr) {
            buf = &scratch();
            buf->assign(start, first_end);
        }
        if (empties == 0) *buf += ' ';
        else buf->append(static_cast<std::size_t>(empties), '\n');
        buf->append(content, r2);

        char const* s2 = skip_blanks(r2);
        if (s2 < e_ && *s2 == ':' && ws_or_end(s2 + 1))
            return fail(s2, codes::yaml_colon_in_plain,
                        "`: ` inside a multi-line unquoted value would start a nested mapping; put the value in quotes or use `>`");
        if (s2 >= e_) {
            resume = e_;
            break;
        }
        if (*s2 == '#') {
            resume = next_line(line_end(s2));
            break;
        }
        resume = next_line(s2);
    }
    p_ = resume;
    if (buf == nullptr) return source_scalar(scalar_style::plain, start, start, first_end);
    return out_.decoded_scalar(scalar_style::plain, static_cast<std::size_t>(start - b_), *buf);
}

inline void reader::quoted_break(int parent, char const* start, std::string& buf, bool escaped)
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
        if (j == 0 && is_marker(p_)) {
            fail(p_, codes::yaml_unterminated, "a document marker inside a quoted value; close the quote before it");
            return;
        }
        if (j <= parent) {
            fail(t, codes::yaml_indentation, "the continuation of a quoted value must be indented more than its key");
            return;
        }
        p_ = t;
        break;
    }
    if (p_ >= e_) {
        fail(start, codes::yaml_unterminated, "this quoted value is never closed; add the closing quote");
        return;
    }
    if (!escaped && empties == 0) buf += ' ';
    else buf.append(static_cast<std::size_t>(empties), '\n');
}

/// One escape of a double-quoted scalar at p_ (`\n`, `\x41`, `\u00e9`, ...), decoded into `buf`.
inline void reader::escape(std::string& buf)
{
    std::uint32_t cp = 0;
    char const* er = p_;
    if (!x3::parse(er, e_, lex::escape, cp)) {
        fail(p_, codes::yaml_escape,
             "unknown escape sequence; YAML knows \\n \\t \\\" \\\\ \\/ \\0 \\xXX \\uXXXX \\UXXXXXXXX and a few more");
        return;
    }
    if ((cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff) {
        fail(p_, codes::yaml_escape, "this escape names a surrogate or a code point beyond U+10FFFF");
        return;
    }
    skillmd::detail::utf8_append(buf, static_cast<char32_t>(cp));
    p_ = er;
}

/// A single- or double-quoted scalar: the text between the quotes as written when nothing
/// needs decoding, else decoded (`''`, escapes) and folded over its lines.
inline index reader::quoted(int parent)
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

    std::string& buf = scratch();
    if (!decode_quoted(parent, start, q0, buf)) return no_node;
    return out_.decoded_scalar(style, static_cast<std::size_t>(start - b_), buf);
}

/// The rest of the quoted scalar opened by `q0` at `start`, from p_ to past its closing
/// quote, decoded and folded into `buf`; false when it fails (the refusal recorded).
inline bool reader::decode_quoted(int parent, char const* start, char q0, std::string& buf)
{
    std::size_t keep = 0; // length without trailing source blanks, which folding drops
    for (;;) {
        if (p_ >= e_) {
            fail(start, codes::yaml_unterminated, "this quoted value is never closed; add the closing quote");
            return false;
        }
        char const c = *p_;
        if (c == q0) {
            if (q0 == '\'' && p_ + 1 < e_ && p_[1] == '\'') {
                buf += '\'';
                keep = buf.size();
                p_ += 2;
                continue;
            }
            ++p_;
            return true;
        }
        if (is_break(c)) {
            buf.resize(keep);
            quoted_break(parent, start, buf, false);
            if (failed()) return false;
            keep = buf.size();
            continue;
        }
        if (c == '\\' && q0 == '"') {
            if (p_ + 1 < e_ && is_break(p_[1])) {
                // An escaped break joins the lines; blanks before the `\` are content.
                ++p_;
                quoted_break(parent, start, buf, true);
                if (failed()) return false;
                keep = buf.size();
                continue;
            }
            escape(buf);
            if (failed()) return false;
            keep = buf.size();
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
}

} // namespace skillmd::frontmatter::grammar::detail

#endif
