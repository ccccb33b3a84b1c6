// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_FRONTMATTER_GRAMMAR_READER_FLOW_HPP
#define SKILLMD_FRONTMATTER_GRAMMAR_READER_FLOW_HPP

// The reader: flow collections, [ ] and { }, and the plain scalars inside them.

#include <skillmd/frontmatter/grammar/reader.hpp>

namespace skillmd::frontmatter::grammar::detail {

inline void reader::flow_space(int parent)
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
            if (j == 0 && is_marker(p_)) {
                fail(p_, codes::yaml_unterminated, "a document marker inside [ ] or { }; close the brackets first");
                return;
            }
            if (j <= parent) {
                fail(t, codes::yaml_indentation,
                     "lines inside [ ] or { } must be indented more than the key they belong to");
                return;
            }
        }
    }
}

inline index reader::flow_node(int parent)
{
    char const c = *p_;
    if ((c == '-' || c == '?' || c == ':') && ws_or_flow_end(p_ + 1))
        return fail(p_, c == '?' ? codes::yaml_complex_key : codes::yaml_syntax,
                    std::string("`") + c + "` alone cannot be a value; put it in quotes");
    if (c == '[') return flow_sequence(parent);
    if (c == '{') return flow_mapping(parent);
    if (c == '"' || c == '\'') return quoted(parent);
    check_node_start(p_);
    if (failed()) return no_node;
    if (c == '#') return fail(p_, codes::yaml_syntax, "a comment needs a space before `#`");
    return flow_plain();
}

inline index reader::flow_plain()
{
    char const* const start = p_;
    char const* r = p_;
    x3::parse(r, e_, lex::flow_plain_line);
    if (r == start) return fail(start, codes::yaml_syntax, "unexpected character inside [ ] or { }; put the value in quotes");
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
            return fail(t, codes::yaml_unsupported,
                        "a value inside [ ] or { } continues on the next line; put it in quotes");
    }
    return source_scalar(scalar_style::plain, start, start, r);
}

inline index reader::flow_sequence(int parent)
{
    depth_guard const guard(*this, p_);
    if (failed()) return no_node;
    char const* const open = p_;
    index const s = out_.collection(node_kind::sequence, static_cast<std::size_t>(p_ - b_), true);
    ++p_;
    for (;;) {
        flow_space(parent);
        if (failed()) return no_node;
        if (p_ >= e_) return fail(open, codes::yaml_unterminated, "this `[` is never closed; add `]`");
        if (*p_ == ']') { ++p_; break; }
        if (*p_ == ',') return fail(p_, codes::yaml_syntax, "empty entry in [ ]; remove the extra comma");
        char const* const item_start = p_;
        index item = flow_node(parent);
        if (failed()) return no_node;
        char const* const item_end = p_;
        p_ = skip_blanks(p_);
        if (p_ < e_ && *p_ == ':') {
            // `[k: v]` is a list holding the one-pair mapping {k: v}.
            bool const quoted_key = *item_start == '"' || *item_start == '\'';
            if (*item_start == '[' || *item_start == '{')
                return fail(item_start, codes::yaml_complex_key, "a [ ] or { } collection cannot be a mapping key");
            if (!quoted_key && !ws_or_flow_end(p_ + 1))
                return fail(p_, codes::yaml_syntax, "expected `,` or `]` in the list");
            for (char const* t = item_start; t < item_end; ++t)
                if (is_break(*t)) return fail(item_start, codes::yaml_unsupported, "a key must stay on one line");
            if (!quoted_key && out_.value(item) == "<<")
                return fail(item_start, codes::yaml_merge_key, "merge keys (`<<`) are not supported; write the entries out in full");
            ++p_;
            depth_guard const pair_guard(*this, item_start);
            if (failed()) return no_node;
            index const pair = out_.collection(node_kind::mapping, static_cast<std::size_t>(item_start - b_), true);
            out_.append(pair, item);
            flow_space(parent);
            if (failed()) return no_node;
            if (p_ < e_ && (*p_ == ',' || *p_ == ']')) {
                out_.append(pair, empty_scalar(p_));
            } else {
                if (p_ >= e_) return fail(open, codes::yaml_unterminated, "this `[` is never closed; add `]`");
                index const value = flow_node(parent);
                if (failed()) return no_node;
                out_.append(pair, value);
            }
            item = pair;
        }
        flow_space(parent);
        if (failed()) return no_node;
        out_.append(s, item);
        if (p_ >= e_) return fail(open, codes::yaml_unterminated, "this `[` is never closed; add `]`");
        if (*p_ == ',') { ++p_; continue; }
        if (*p_ == ']') { ++p_; break; }
        return fail(p_, codes::yaml_syntax, "expected `,` or `]` in the list");
    }
    return s;
}

inline index reader::flow_mapping(int parent)
{
    depth_guard const guard(*this, p_);
    if (failed()) return no_node;
    char const* const open = p_;
    index const m = out_.collection(node_kind::mapping, static_cast<std::size_t>(p_ - b_), true);
    key_set seen(out_);
    ++p_;
    for (;;) {
        flow_space(parent);
        if (failed()) return no_node;
        if (p_ >= e_) return fail(open, codes::yaml_unterminated, "this `{` is never closed; add `}`");
        if (*p_ == '}') { ++p_; break; }
        if (*p_ == ',') return fail(p_, codes::yaml_syntax, "empty entry in { }; remove the extra comma");
        if (*p_ == '[' || *p_ == '{')
            return fail(p_, codes::yaml_complex_key, "a [ ] or { } collection cannot be a mapping key");
        char const* const kb = p_;
        bool const quoted_key = *p_ == '"' || *p_ == '\'';
        index key;
        if (quoted_key) {
            key = quoted(parent);
            if (failed()) return no_node;
            for (char const* t = kb; t < p_; ++t)
                if (is_break(*t))
                    return fail(kb, codes::yaml_unsupported, "a key must stay on one line");
        } else {
            check_node_start(p_);
            if (failed()) return no_node;
            key = flow_plain();
            if (failed()) return no_node;
            if (out_.value(key) == "<<")
                return fail(kb, codes::yaml_merge_key, "merge keys (`<<`) are not supported; write the entries out in full");
        }
        if (!seen.insert(key))
            return fail(kb, codes::yaml_duplicate_key,
                        "duplicate key `" + shorten(out_.value(key)) + "`; each key may appear once in a mapping");
        p_ = skip_blanks(p_);
        if (p_ < e_ && *p_ == ':' && (quoted_key || ws_or_flow_end(p_ + 1))) ++p_;
        else return fail(p_, codes::yaml_unsupported, "every key inside { } needs a value: write `key: value`");
        out_.append(m, key);
        flow_space(parent);
        if (failed()) return no_node;
        index value;
        if (p_ < e_ && (*p_ == ',' || *p_ == '}')) {
            value = empty_scalar(p_);
        } else {
            if (p_ >= e_) return fail(open, codes::yaml_unterminated, "this `{` is never closed; add `}`");
            value = flow_node(parent);
            if (failed()) return no_node;
            flow_space(parent);
            if (failed()) return no_node;
        }
        out_.append(m, value);
        if (p_ >= e_) return fail(open, codes::yaml_unterminated, "this `{` is never closed; add `}`");
        if (*p_ == ',') { ++p_; continue; }
        if (*p_ == '}') { ++p_; break; }
        return fail(p_, codes::yaml_syntax, "expected `,` or `}` in the mapping");
    }
    return m;
}

} // namespace skillmd::frontmatter::grammar::detail

#endif
