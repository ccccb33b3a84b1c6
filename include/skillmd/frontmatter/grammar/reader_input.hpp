// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_FRONTMATTER_GRAMMAR_READER_INPUT_HPP
#define SKILLMD_FRONTMATTER_GRAMMAR_READER_INPUT_HPP

// The reader: input checks (printable UTF-8, document markers), blank and comment
// lines, what may not start a node.

#include <skillmd/frontmatter/grammar/reader.hpp>
#include <skillmd/detail/hex.hpp>

namespace skillmd::frontmatter::grammar::detail {

inline void reader::check_marker(char const* line)
{
    if (is_marker(line))
        fail(line, codes::yaml_multiple_documents,
             "document markers (`---`, `...`) cannot appear inside frontmatter; one document only");
    else if (*line == '%')
        fail(line, codes::yaml_directive, "YAML directives (`%YAML`, `%TAG`) are not supported in frontmatter");
}

inline void reader::check_characters()
{
    std::string_view const s(b_, static_cast<std::size_t>(e_ - b_));
    // One character at `at`: a control refused, a UTF-8 sequence decoded and checked; its length.
    auto const one = [&](std::size_t at) -> std::size_t {
        auto const c = static_cast<unsigned char>(s[at]);
        if (c < 0x80) {
            if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f) {
                bad_character(at, c);
                return s.size() - at; // refused: the scan ends
            }
            return 1;
        }
        std::size_t const n = skillmd::detail::utf8_sequence_length(s, at);
        if (n == 0) {
            std::string msg = "byte 0x";
            skillmd::detail::append_hex_byte(msg, c, true);
            fail(b_ + at, codes::utf8_invalid, std::move(msg) + " is not UTF-8; save the file as UTF-8");
            return s.size() - at;
        }
        // Refused: C1 controls but NEL (U+0080..U+009F are C2 80..C2 9F) and the
        // noncharacters U+FFFE, U+FFFF (EF BF BE, EF BF BF); told from the bytes, no decoding.
        auto const c1 = static_cast<unsigned char>(s[at + 1]);
        if ((c == 0xc2 && c1 < 0xa0 && c1 != 0x85) ||
            (c == 0xef && c1 == 0xbf && static_cast<unsigned char>(s[at + 2]) >= 0xbe)) {
            bad_character(at, skillmd::detail::utf8_decode(s.data() + at, n));
            return s.size() - at;
        }
        return n;
    };
    std::size_t const n = s.size();
    std::size_t i = 0;
    while (i < n) {
        // Whole blocks while they are plain; a block's first odd byte is looked at below.
#if defined(__SSE2__)
        while (n - i >= block_size) {
            unsigned const odd = odd_bytes(s.data() + i);
            if (odd != 0) {
                i += static_cast<std::size_t>(std::countr_zero(odd));
                break;
            }
            i += block_size;
        }
        if (n - i < block_size && n >= block_size && i < n) {
            // The last bytes: the text's last block, less the bytes already seen.
            unsigned const odd = odd_bytes(e_ - block_size) >> (block_size - (n - i));
            if (odd == 0) break;
            i += static_cast<std::size_t>(std::countr_zero(odd));
        }
#else
        while (n - i >= block_size && plain_ascii_block(s.data() + i)) i += block_size;
#endif
        if (i >= n) break;
        // One character (a tab or CR passes); text in other scripts is runs of multi-byte
        // characters, read character by character before the block scan resumes.
        do i += one(i);
        while (i < n && static_cast<unsigned char>(s[i]) >= 0x80);
    }
}

inline void reader::skip_blank_lines()
{
    while (p_ < e_) {
        char const* q = skip_blanks(p_);
        if (q >= e_) { p_ = e_; return; }
        if (*q == '#') q = line_end(q);
        else if (!is_break(*q)) {
            check_marker(p_);
            return;
        }
        p_ = next_line(q);
    }
}

inline void reader::check_node_start(char const* q)
{
    switch (*q) {
    case '&':
        fail(q, codes::yaml_anchor, "anchors (`&name`) are not supported in frontmatter; write the value out in full");
        break;
    case '*':
        fail(q, codes::yaml_alias, "aliases (`*name`) are not supported in frontmatter; write the value out in full");
        break;
    case '!':
        fail(q, codes::yaml_tag, "tags (`!tag`) are not supported in frontmatter; remove the tag, or quote a value that starts with `!`");
        break;
    case '%':
        fail(q, codes::yaml_reserved_indicator, "a value cannot start with `%`; put it in quotes");
        break;
    case '@':
    case '`':
        fail(q, codes::yaml_reserved_indicator, std::string("`") + *q + "` is reserved in YAML and cannot start a value; put the value in quotes");
        break;
    case '?':
        if (ws_or_end(q + 1))
            fail(q, codes::yaml_complex_key, "explicit keys (`? key`) are not supported; write `key: value`");
        break;
    case ':':
    case '-':
        if (ws_or_end(q + 1))
            fail(q, codes::yaml_syntax, std::string("a value cannot start with `") + *q + " `; put it in quotes");
        break;
    case ',':
    case ']':
    case '}':
        fail(q, codes::yaml_syntax, std::string("unexpected `") + *q + "`; put the value in quotes");
        break;
    case '|':
    case '>':
        fail(q, codes::yaml_syntax, "a block scalar (`|` or `>`) cannot appear here; put the value in quotes");
        break;
    default:
        break;
    }
}

} // namespace skillmd::frontmatter::grammar::detail

#endif
