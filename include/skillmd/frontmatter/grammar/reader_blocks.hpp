// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_FRONTMATTER_GRAMMAR_READER_BLOCKS_HPP
#define SKILLMD_FRONTMATTER_GRAMMAR_READER_BLOCKS_HPP

// The reader: a node at its line and column, implicit keys, block mappings and
// block sequences.

#include <skillmd/frontmatter/grammar/reader.hpp>

namespace skillmd::frontmatter::grammar::detail {

inline index reader::node_at_line(int parent)
{
    char const* q = skip_spaces(p_);
    if (q < e_ && *q == '\t') return fail_tab(q);
    p_ = q;
    return node_here(parent, column(q), true);
}

inline index reader::node_here(int parent, int col, bool block)
{
    char const* q = p_;
    if (*q == '-' && ws_or_end(q + 1)) {
        if (!block)
            return fail(q, codes::yaml_syntax,
                        "a list cannot start on the same line as its key; put each `- item` on its own line below the key");
        return block_sequence(col);
    }
    if (*q == '|' || *q == '>') return block_scalar(parent);
    check_node_start(q);
    if (failed()) return no_node;
    if (block) {
        key_scan const k = scan_key(q);
        if (k.is_key) return block_mapping(col, k);
    }
    if (*q == '[' || *q == '{') {
        index const r = flow_node(parent);
        if (!failed()) end_of_value_line(q, true);
        return r;
    }
    if (*q == '"' || *q == '\'') {
        index const r = quoted(parent);
        if (!failed()) end_of_value_line(q, false);
        return r;
    }
    return plain(parent);
}

inline void reader::end_of_value_line(char const* value_start, bool flow)
{
    char const* s = skip_blanks(p_);
    if (s >= e_) { p_ = e_; return; }
    if (is_break(*s)) { p_ = next_line(s); return; }
    if (*s == '#' && s > p_) { p_ = next_line(line_end(s)); return; }
    if (*s == ':' && ws_or_end(s + 1)) {
        if (flow)
            fail(value_start, codes::yaml_complex_key, "a [ ] or { } collection cannot be a mapping key");
        else
            fail(s, codes::yaml_syntax, "this `:` would start a nested mapping on the same line; put the key on its own line");
        return;
    }
    fail(s, codes::yaml_syntax, "unexpected text after the value; put the whole value in quotes");
}

inline reader::key_scan reader::scan_key(char const* q) const
{
    key_scan k;
    k.begin = q;
    char const* r = q;
    if (*q == '"' || *q == '\'') {
        ++r;
        if (*q == '"') {
            while (r < e_ && *r != '"' && !is_break(*r))
                r += (*r == '\\' && r + 1 < e_ && !is_break(r[1])) ? 2 : 1;
        } else {
            while (r < e_ && !is_break(*r)) {
                if (*r == '\'') {
                    if (r + 1 < e_ && r[1] == '\'') { r += 2; continue; }
                    break;
                }
                ++r;
            }
        }
        if (r >= e_ || *r != *q) return k;
        k.quote = *q;
        ++r;
    } else {
        if (*q == '[' || *q == '{') return k;
        x3::parse(r, e_, lex::block_plain_line);
        if (r == q) return k;
    }
    k.end = r;
    char const* s = skip_blanks(r);
    if (s < e_ && *s == ':' && ws_or_end(s + 1)) {
        k.is_key = true;
        k.after_colon = s + 1;
    }
    return k;
}

inline index reader::key_node(key_scan const& k, int parent)
{
    if (k.quote == 0) return source_scalar(scalar_style::plain, k.begin, k.begin, k.end);
    char const* const save = p_;
    p_ = k.begin;
    index const r = quoted(parent);
    p_ = save;
    return r;
}

inline char const* reader::next_entry(int col, char const* deeper)
{
    skip_blank_lines();
    if (failed() || p_ >= e_) return nullptr;
    int const j = indent_of(p_);
    char const* q = p_ + j;
    if (j < col) return nullptr;
    if (*q == '\t') fail_tab(q);
    else if (j > col) fail(q, codes::yaml_indentation, deeper);
    return failed() ? nullptr : q;
}

inline index reader::block_mapping(int col, key_scan k)
{
    depth_guard const guard(*this, p_);
    if (failed()) return no_node;
    index const m = out_.collection(node_kind::mapping, static_cast<std::size_t>(p_ - b_));
    key_set seen(out_);
    for (;;) {
        index const key = key_node(k, col);
        if (failed()) return no_node;
        if (k.quote == 0 && out_.value(key) == "<<")
            return fail(k.begin, codes::yaml_merge_key, "merge keys (`<<`) are not supported; write the entries out in full");
        if (!seen.insert(key))
            return fail(k.begin, codes::yaml_duplicate_key,
                        "duplicate key `" + shorten(out_.value(key)) + "`; each key may appear once in a mapping");
        out_.append(m, key);

        p_ = skip_blanks(k.after_colon);
        index value = no_node;
        if (p_ >= e_ || is_break(*p_) || *p_ == '#') {
            p_ = next_line(line_end(p_));
            skip_blank_lines();
            if (failed()) return no_node;
            if (p_ < e_) {
                int const j = indent_of(p_);
                char const* q = p_ + j;
                if (j > col) value = node_at_line(col);
                else if (j == col && *q == '-' && ws_or_end(q + 1)) {
                    p_ = q;
                    value = block_sequence(col);
                }
                if (failed()) return no_node;
            }
            if (value == no_node) value = empty_scalar(k.after_colon);
        } else {
            value = node_here(col, column(p_), false);
            if (failed()) return no_node;
        }
        out_.append(m, value);

        char const* q = next_entry(
            col, "this line is indented more than the keys above it; align it with them or make it part of a value");
        if (failed()) return no_node;
        if (q == nullptr) break;
        if (*q == '-' && ws_or_end(q + 1))
            return fail(q, codes::yaml_syntax, "a list item `- ` cannot stand among mapping keys; indent it under its key");
        p_ = q;
        check_node_start(q);
        if (failed()) return no_node;
        k = scan_key(q);
        if (!k.is_key)
            return fail(q, codes::yaml_syntax, "expected `key: value`; every line of a mapping must be a key followed by `: `");
    }
    return m;
}

inline index reader::block_sequence(int col)
{
    depth_guard const guard(*this, p_);
    if (failed()) return no_node;
    index const s = out_.collection(node_kind::sequence, static_cast<std::size_t>(p_ - b_));
    for (;;) {
        char const* dash = p_;
        p_ = skip_blanks(p_ + 1);
        index item;
        if (p_ >= e_ || is_break(*p_) || *p_ == '#') {
            p_ = next_line(line_end(p_));
            skip_blank_lines();
            if (failed()) return no_node;
            if (p_ < e_ && indent_of(p_) > col) item = node_at_line(col);
            else item = empty_scalar(dash + 1);
        } else {
            bool const tab = std::find(dash + 1, p_, '\t') != p_;
            if (tab && ((*p_ == '-' && ws_or_end(p_ + 1)) || scan_key(p_).is_key))
                return fail_tab(dash + 1);
            item = node_here(col, column(p_), true);
        }
        if (failed()) return no_node;
        out_.append(s, item);

        char const* q = next_entry(col, "this line is indented more than the `- ` items above it");
        if (failed()) return no_node;
        if (q == nullptr || !(*q == '-' && ws_or_end(q + 1))) break;
        p_ = q;
    }
    return s;
}

} // namespace skillmd::frontmatter::grammar::detail

#endif
