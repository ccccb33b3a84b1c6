// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_FRONTMATTER_GRAMMAR_READER_HPP
#define SKILLMD_FRONTMATTER_GRAMMAR_READER_HPP

// The block-structure reader: YAML's indentation-dependent structure, which X3's
// combinators cannot express, read by hand and calling the lexical rules. This is the
// class and its small helpers; its parts are defined by kind of node in
// reader_input.hpp (characters, markers, blank lines), reader_blocks.hpp (nodes, block
// mappings and sequences), reader_scalars.hpp (plain and quoted scalars),
// reader_block_scalars.hpp (| and >) and reader_flow.hpp ([ ] and { }).

#include <skillmd/frontmatter/grammar/config.hpp>
#include <skillmd/frontmatter/grammar/error.hpp>
#include <skillmd/frontmatter/grammar/lexical.hpp>
#include <skillmd/model/diagnostic.hpp>
#include <skillmd/detail/hex.hpp>
#include <skillmd/detail/utf8.hpp>
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#if defined(__SSE2__)
#  include <emmintrin.h>
#endif

namespace skillmd::frontmatter::grammar {

namespace detail {

using index = document_builder::index;
inline constexpr index no_node = ~index{0};

/// Keys already seen in one mapping; node indices, because decoded text may move.
class key_set
{
public:
    explicit key_set(document_builder const& b) : b_(b) {}

    /// False when `key` was there already.
    bool insert(index key)
    {
        std::string_view const v = b_.value(key);
        if (big_.empty() && count_ < small_.size()) {
            for (std::size_t i = 0; i < count_; ++i)
                if (b_.value(small_[i]) == v) return false;
            small_[count_++] = key;
            return true;
        }
        if (big_.empty())
            for (index k : small_) big_.emplace(b_.value(k));
        return big_.emplace(v).second;
    }

private:
    document_builder const& b_;
    std::array<index, 16> small_{}; // most mappings are small: no allocation, linear search
    std::size_t count_ = 0;
    std::unordered_set<std::string> big_;
};

class reader
{
public:
    reader(parse_state& st, char const* b, char const* e) : st_(st), out_(st.out), b_(b), e_(e), p_(b) {}

    /// Parses the whole text; false (with `st.error` set) when it is refused.
    bool run()
    {
        check_characters();
        if (!failed()) skip_blank_lines();
        if (!failed() && p_ < e_) {
            index const root = node_at_line(-1);
            if (failed()) return false;
            out_.set_root(root);
            skip_blank_lines();
            if (!failed() && p_ < e_)
                fail(skip_spaces(p_), codes::yaml_syntax,
                     "unexpected content after the end of the value above; check this line's indentation");
        }
        return !failed();
    }

private:
    //-------------------------------------------------------------- helpers
    // A refusal is recorded and returned, not thrown: every function that can refuse
    // returns right after it, and every caller tests failed() after each such call
    // before it uses the result. Unwinding cost about 6 us per refused block, some 8 %
    // of a pass over the corpus, whose refusals are part of normal input.

    /// Records the refusal (the first one is the one reported) and gives `no_node`.
    index fail(char const* at, std::string_view code, std::string message)
    {
        if (!failed_) {
            st_.error = failure{at, code, std::move(message)};
            failed_ = true;
        }
        return no_node;
    }
    bool failed() const noexcept { return failed_; }

    /// The buffer decoded scalars are built in, emptied; sized once per parse for the
    /// whole text (decoding does not grow a scalar beyond a few times its source, and
    /// one allocation beats the three or four of growing it).
    std::string& scratch()
    {
        std::string& buf = st_.scratch;
        buf.clear();
        if (buf.capacity() < static_cast<std::size_t>(e_ - b_)) buf.reserve(static_cast<std::size_t>(e_ - b_));
        return buf;
    }

    static bool is_break(char c) noexcept { return c == '\n' || c == '\r'; }
    static bool is_blank(char c) noexcept { return c == ' ' || c == '\t'; }
    bool ws_or_end(char const* q) const noexcept { return q >= e_ || is_blank(*q) || is_break(*q); }
    bool ws_or_flow_end(char const* q) const noexcept
    {
        return ws_or_end(q) || *q == ',' || *q == ']' || *q == '}';
    }
    char const* skip_blanks(char const* q) const noexcept
    {
        while (q < e_ && is_blank(*q)) ++q;
        return q;
    }
    char const* skip_spaces(char const* q) const noexcept
    {
        while (q < e_ && *q == ' ') ++q;
        return q;
    }
    int indent_of(char const* line) const noexcept { return static_cast<int>(skip_spaces(line) - line); }
    /// The line break at or after q (or the end).
    char const* line_end(char const* q) const noexcept { return lex::find_first_of<'\n', '\r'>(q, e_); }
    /// Past the line break at q (CRLF, LF or CR).
    char const* next_line(char const* q) const noexcept
    {
        if (q < e_ && *q == '\r') ++q;
        if (q < e_ && *q == '\n') ++q;
        return q;
    }
    char const* line_start(char const* q) const noexcept
    {
        while (q > b_ && !is_break(q[-1])) --q;
        return q;
    }
    int column(char const* q) const noexcept { return static_cast<int>(q - line_start(q)); }
    bool after_blank(char const* q) const noexcept { return q == b_ || is_blank(q[-1]) || is_break(q[-1]); }

    bool is_blank_line(char const* q) const noexcept
    {
        q = skip_blanks(q);
        return q >= e_ || is_break(*q);
    }
    index fail_tab(char const* at)
    {
        return fail(at, codes::yaml_tab_indentation, "a tab is used for indentation; YAML indents with spaces only");
    }

    /// `---` or `...` at the start of a line: a document boundary, which frontmatter cannot hold.
    bool is_marker(char const* line) const noexcept
    {
        return e_ - line >= 3 && ((line[0] == '-' && line[1] == '-' && line[2] == '-') ||
                                  (line[0] == '.' && line[1] == '.' && line[2] == '.')) &&
               ws_or_end(line + 3);
    }
    void check_marker(char const* line);

    /// Counts one level of nesting; refuses (failed() is then true) past the limit.
    struct depth_guard
    {
        depth_guard(reader& r, char const* at) : r_(r)
        {
            if (++r_.depth_ > r_.st_.options.max_depth)
                r_.fail(at, codes::yaml_depth_limit,
                        "nesting is deeper than " + std::to_string(r_.st_.options.max_depth) +
                            " levels; flatten the metadata");
        }
        ~depth_guard() { --r_.depth_; }
        reader& r_;
    };

    /// YAML admits only printable characters, and the input must be UTF-8. Blocks of
    /// printable ASCII at a time; other characters one by one.
    void check_characters();
    static constexpr std::uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
    /// High bit set in each byte of the ASCII word `w` that is zero.
    static constexpr std::uint64_t zero_bytes(std::uint64_t w) noexcept
    {
        return ~(((w & ~highs) + ~highs) | w | ~highs);
    }
#if defined(__SSE2__)
    static constexpr std::size_t block_size = 16;
    /// Bit k set when byte k of the 16 at p may not be printable ASCII or LF: every byte
    /// that is not, and also tab and CR, which are rare enough to be looked at one by one.
    static unsigned odd_bytes(char const* p) noexcept
    {
        __m128i const v = _mm_loadu_si128(reinterpret_cast<__m128i const*>(p));
        // Signed compare: bytes >= 0x80 are negative, so they count as "below space" too.
        __m128i const below = _mm_cmplt_epi8(v, _mm_set1_epi8(0x20));
        __m128i const bad = _mm_or_si128(_mm_andnot_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n')), below),
                                         _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7f)));
        return static_cast<unsigned>(_mm_movemask_epi8(bad));
    }
#else
    static constexpr std::size_t block_size = 8;
    /// Whether the 8 bytes at p are printable ASCII, tab, LF or CR.
    static bool plain_ascii_block(char const* p) noexcept
    {
        std::uint64_t w;
        std::memcpy(&w, p, 8);
        if ((w & highs) != 0) return false;
        std::uint64_t const below_space = ~((w | highs) - 0x20 * ones) & highs;
        std::uint64_t const allowed = zero_bytes(w ^ (0x09 * ones)) | zero_bytes(w ^ (0x0a * ones)) |
                                      zero_bytes(w ^ (0x0d * ones));
        return ((below_space & ~allowed) | zero_bytes(w ^ (0x7f * ones))) == 0;
    }
#endif
    void bad_character(std::size_t at, char32_t cp)
    {
        fail(b_ + at, codes::yaml_control_character,
             "control character U+" + hex4(static_cast<unsigned>(cp)) +
                 " is not allowed in YAML; remove it or write it as an escape in a double-quoted value");
    }
    static std::string hex4(unsigned v)
    {
        std::string out;
        skillmd::detail::append_hex(out, v, 4, true);
        return out;
    }

    /// Skips lines that hold only blanks or a comment; stops at the start of a content line.
    void skip_blank_lines();

    /// Rejects what may not start a node, naming the construct.
    void check_node_start(char const* q);

    index empty_scalar(char const* at)
    {
        return out_.scalar(scalar_style::plain, static_cast<std::size_t>(at - b_), 0, 0);
    }
    index source_scalar(scalar_style st, char const* at, char const* vb, char const* ve)
    {
        return out_.scalar(st, static_cast<std::size_t>(at - b_), static_cast<std::size_t>(vb - b_),
                           static_cast<std::size_t>(ve - vb));
    }

    //-------------------------------------------------------------- nodes
    /// The node that starts on the content line at p_ (indentation not yet read).
    index node_at_line(int parent);

    /// The node at p_, at column `col`, inside a parent indented `parent`.
    /// `block` allows block collections (false right after `key: `).
    index node_here(int parent, int col, bool block);

    /// After a quoted or flow value: only blanks or a comment may follow on the line.
    void end_of_value_line(char const* value_start, bool flow);

    struct key_scan
    {
        bool is_key = false;
        char quote = 0;
        char const* begin = nullptr;
        char const* end = nullptr;
        char const* after_colon = nullptr;
    };

    /// Whether the line at q starts with an implicit key `key:` (plain or quoted, one line).
    key_scan scan_key(char const* q) const;

    index key_node(key_scan const& k, int parent);

    static std::string shorten(std::string_view s)
    {
        return s.size() <= 60 ? std::string(s) : std::string(s.substr(0, 57)) + "...";
    }

    /// After an entry of a block collection at column `col`: the first character of the
    /// next line at that column, or null when the collection ends there.
    char const* next_entry(int col, char const* deeper);

    index block_mapping(int col, key_scan k);

    index block_sequence(int col);

    /// A plain scalar in block context; continuation lines must be indented more than `parent`.
    index plain_with_colon(char const* start, char const* colon);
    char const* plain_continuation(char const* line, int parent, int& empties) const;
    index plain(int parent);

    /// Consumes a line break inside a quoted scalar and the empty lines after it;
    /// appends what they fold to. p_ ends on the next content character.
    void quoted_break(int parent, char const* start, std::string& buf, bool escaped);

    void escape(std::string& buf);
    index quoted(int parent);
    bool decode_quoted(int parent, char const* start, char q0, std::string& buf);

    struct scalar_line
    {
        char const* b;
        char const* e;
        bool empty;
        bool has_break;
    };

    struct block_header
    {
        char const* start = nullptr;
        bool folded = false;
        int explicit_indent = 0;
        char chomp = 0;
    };
    block_header read_block_header();
    int block_indent(int parent, block_header const& h);
    std::ptrdiff_t block_lines(int indent);
    void fold_block_lines(std::ptrdiff_t last, std::string& buf) const;
    index block_scalar(int parent);

    //-------------------------------------------------------------- flow collections
    /// Blanks, comments and line breaks inside [ ] and { }; new lines must be indented past `parent`.
    void flow_space(int parent);

    index flow_node(int parent);

    index flow_plain();

    index flow_sequence(int parent);

    index flow_mapping(int parent);

    parse_state& st_;
    document_builder& out_;
    char const* const b_;
    char const* const e_;
    char const* p_;
    unsigned depth_ = 0;
    bool failed_ = false;
    std::vector<scalar_line> lines_;
};

} // namespace detail

} // namespace skillmd::frontmatter::grammar

#endif
