// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_FRONTMATTER_GRAMMAR_READER_BLOCK_SCALARS_HPP
#define SKILLMD_FRONTMATTER_GRAMMAR_READER_BLOCK_SCALARS_HPP

// The reader: literal (|) and folded (>) block scalars with their indentation and
// chomping indicators.

#include <skillmd/frontmatter/grammar/reader.hpp>

namespace skillmd::frontmatter::grammar::detail {

/// `|` or `>` and its indicators (an indentation digit, a chomping `+` or `-`, in either
/// order), then the rest of the header line, which may hold only a comment.
inline reader::block_header reader::read_block_header()
{
    block_header h;
    h.start = p_;
    h.folded = *p_ == '>';
    ++p_;
    for (int k = 0; k < 2 && p_ < e_; ++k) {
        char c = 0;
        char const* r = p_;
        if (!x3::parse(r, e_, lex::block_indicator, c)) break;
        if (c >= '1' && c <= '9' && h.explicit_indent == 0) h.explicit_indent = c - '0';
        else if ((c == '+' || c == '-') && h.chomp == 0) h.chomp = c;
        else {
            fail(p_, codes::yaml_syntax, "repeated block scalar indicator");
            return h;
        }
        p_ = r;
    }
    char const* s = skip_blanks(p_);
    if (s < e_ && !is_break(*s)) {
        if (*s == '#' && s > p_) s = line_end(s);
        else {
            fail(s, codes::yaml_syntax,
                 "unexpected text after `|` or `>`; the text of a block scalar starts on the next line");
            return h;
        }
    }
    p_ = next_line(s);
    return h;
}

/// The scalar's indentation: parent + the digit when there is one, else that of the first
/// line with text (empty lines before it may not be deeper).
inline int reader::block_indent(int parent, block_header const& h)
{
    if (h.explicit_indent != 0) {
        if (parent < 0) {
            fail(h.start, codes::yaml_unsupported,
                 "an indentation indicator on a top-level block scalar is not supported; remove the digit");
            return 0;
        }
        return parent + h.explicit_indent;
    }
    int max_empty = 0;
    int indent = -1;
    char const* l = p_;
    char const* first_empty_deep = nullptr;
    while (l < e_) {
        int const j = indent_of(l);
        char const* t = l + j;
        if (t < e_ && *t == '\t' && is_blank_line(t)) {
            fail_tab(t);
            return 0;
        }
        if (t >= e_ || is_break(*t)) {
            if (j > max_empty) { max_empty = j; first_empty_deep = l; }
            if (t >= e_) break;
            l = next_line(t);
            continue;
        }
        indent = j;
        break;
    }
    if (indent <= parent || indent < 0) return 1 << 30; // no text: every line is empty
    if (max_empty > indent)
        fail(first_empty_deep, codes::yaml_indentation,
             "an empty line at the start of this block scalar has more spaces than its first text line");
    // The caller tests failed() before it uses the indentation.
    return indent;
}

/// The scalar's lines into lines_, up to the first less indented text (or a document
/// marker); p_ ends after them. Returns the index of the last line with text, or -1.
inline std::ptrdiff_t reader::block_lines(int indent)
{
    std::vector<scalar_line>& lines = lines_;
    lines.clear();
    if (lines.capacity() == 0) lines.reserve(32); // one allocation for most block scalars
    char const* l = p_;
    while (l < e_) {
        int const j = indent_of(l);
        char const* t = l + j;
        char const* le = line_end(t);
        bool const brk = le < e_ || le > l; // the end of the input ends a line too
        if (j == 0 && is_marker(l)) break;
        if (j < indent && t < le && *t == '\t' && is_blank_line(t)) {
            fail_tab(t);
            return -1;
        }
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
    for (std::size_t i = lines.size(); i-- > 0;)
        if (!lines[i].empty) return static_cast<std::ptrdiff_t>(i);
    return -1;
}

/// Folding (`>`): a line break between two text lines becomes a space, empty lines
/// between them become line breaks, and more-indented lines keep their breaks.
inline void reader::fold_block_lines(std::ptrdiff_t last, std::string& buf) const
{
    auto const is_text = [](scalar_line const& x) { return !x.empty && x.b < x.e && !is_blank(*x.b); };
    std::ptrdiff_t prev = -1;
    int empties = 0;
    for (std::ptrdiff_t i = 0; i <= last; ++i) {
        auto const& x = lines_[static_cast<std::size_t>(i)];
        if (x.empty) {
            if (prev >= 0) ++empties;
            else buf += '\n';
            continue;
        }
        if (prev >= 0) {
            if (is_text(lines_[static_cast<std::size_t>(prev)]) && is_text(x)) {
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

/// A literal (`|`) or folded (`>`) block scalar: header, indentation, lines, then the
/// text joined and chomped (`-` strips the final line break, `+` keeps trailing ones).
inline index reader::block_scalar(int parent)
{
    block_header const h = read_block_header();
    if (failed()) return no_node;
    int const indent = block_indent(parent, h);
    if (failed()) return no_node;
    std::ptrdiff_t const last = block_lines(indent);
    if (failed()) return no_node;

    std::string& buf = scratch();
    if (h.folded) {
        fold_block_lines(last, buf);
    } else {
        for (std::ptrdiff_t i = 0; i <= last; ++i) {
            buf.append(lines_[static_cast<std::size_t>(i)].b, lines_[static_cast<std::size_t>(i)].e);
            if (i < last) buf += '\n';
        }
    }
    if (last >= 0 && h.chomp != '-' && lines_[static_cast<std::size_t>(last)].has_break) buf += '\n';
    if (h.chomp == '+')
        for (std::size_t i = static_cast<std::size_t>(last + 1); i < lines_.size(); ++i)
            if (lines_[i].has_break) buf += '\n';
    return out_.decoded_scalar(h.folded ? scalar_style::folded : scalar_style::literal,
                               static_cast<std::size_t>(h.start - b_), buf);
}

} // namespace skillmd::frontmatter::grammar::detail

#endif
