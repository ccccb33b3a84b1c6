// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_FRONTMATTER_DOCUMENT_HPP
#define SKILLMD_FRONTMATTER_DOCUMENT_HPP

#include <skillmd/config.hpp>
#include <skillmd/detail/json.hpp>
#include <skillmd/detail/line_index.hpp>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace skillmd::frontmatter {

enum class node_kind : std::uint8_t { scalar, sequence, mapping };

/// How a scalar was written. Only plain scalars are open to type resolution
/// (`true`, `12`, `null`); every other style is a string whatever it spells.
enum class scalar_style : std::uint8_t { plain, single_quoted, double_quoted, literal, folded };

inline constexpr std::string_view to_string(scalar_style s) noexcept
{
    switch (s) {
    case scalar_style::plain: return "plain";
    case scalar_style::single_quoted: return "single-quoted";
    case scalar_style::double_quoted: return "double-quoted";
    case scalar_style::literal: return "literal";
    case scalar_style::folded: return "folded";
    }
    return "plain";
}

class document_builder;

/** A parsed YAML document: mappings, sequences and scalars, each with its position.

    Every scalar is kept as its decoded string (the YAML failsafe schema); an empty
    value is the empty plain scalar. Mappings keep their keys in source order.
    The document owns all its text, so node references and the string views they
    return stay valid as long as the document lives and is not moved from.
*/
class document
{
    using index = std::uint32_t;
    static constexpr index none = ~index{0};

    struct node
    {
        node_kind kind;
        scalar_style style;
        bool decoded;          // value lives in decoded_ rather than text_
        bool flow = false;     // a collection written [ ] or { }
        std::uint32_t offset;  // byte offset in the parsed text; lines and columns derive from it
        std::uint32_t value_off = 0, value_len = 0;
        index first = none, last = none, next = none;
        std::uint32_t size = 0; // children: items, or keys + values for a mapping
    };

public:
    class node_ref;
    class entry_range;

    /// Iterates the children of a sequence, or the keys and values of a mapping in turn.
    class child_iterator
    {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = node_ref;
        using difference_type = std::ptrdiff_t;
        using pointer = void;
        using reference = node_ref;

        child_iterator() = default;
        child_iterator(document const* d, index i) : d_(d), i_(i) {}
        node_ref operator*() const { return {d_, i_}; }
        child_iterator& operator++() { i_ = d_->nodes_[i_].next; return *this; }
        child_iterator operator++(int) { auto t = *this; ++*this; return t; }
        bool operator==(child_iterator const& o) const { return i_ == o.i_; }

    private:
        document const* d_ = nullptr;
        index i_ = none;
    };

    /// A light reference to one node of a document.
    class node_ref
    {
    public:
        node_ref(document const* d, index i) : d_(d), i_(i) {}

        node_kind kind() const { return n().kind; }
        bool is_scalar() const { return n().kind == node_kind::scalar; }
        bool is_sequence() const { return n().kind == node_kind::sequence; }
        bool is_mapping() const { return n().kind == node_kind::mapping; }
        /// A collection written in flow style, `[a, b]` or `{k: v}`.
        bool is_flow() const { return n().flow; }
        scalar_style style() const { return n().style; }
        /// Position in the file, 1-based; the column counts code points. Computed on
        /// request (a scan of the text before the node), so parsing does not pay for it.
        std::uint32_t line() const { return d_->position(n().offset).line; }
        std::uint32_t column() const { return d_->position(n().offset).column; }
        /// Line and column together, from one scan of the lines before the node.
        skillmd::detail::line_index::position where() const { return d_->position(n().offset); }
        /// Byte offset of the node in the parsed text.
        std::uint32_t offset() const { return n().offset; }

        /// The decoded text of a scalar; empty for collections.
        std::string_view value() const
        {
            auto const& x = n();
            std::string const& s = x.decoded ? d_->decoded_ : d_->text_;
            return std::string_view(s).substr(x.value_off, x.value_len);
        }

        /// A plain scalar that the YAML core schema reads as null (empty, `~`, `null`).
        bool is_null() const
        {
            if (!is_scalar() || style() != scalar_style::plain) return false;
            auto const v = value();
            return v.empty() || v == "~" || v == "null" || v == "Null" || v == "NULL";
        }

        /// Number of items of a sequence, or of entries of a mapping.
        std::size_t size() const
        {
            return n().kind == node_kind::mapping ? n().size / 2 : n().size;
        }

        child_iterator begin() const { return {d_, n().first}; }
        child_iterator end() const { return {d_, none}; }

        /// A mapping's entries as key/value pairs, in order (nothing for other nodes):
        /// `for (auto [key, value] : map.entries())`.
        entry_range entries() const;

        /// The value stored under `key` in a mapping.
        std::optional<node_ref> find(std::string_view key) const;

    private:
        document::node const& n() const { return d_->nodes_[i_]; }
        document const* d_;
        index i_;
    };

    /// One entry of a mapping.
    struct entry
    {
        node_ref key;
        node_ref value;
    };

    /// Iterates a mapping's keys and values two children at a time.
    class entry_iterator
    {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = entry;
        using difference_type = std::ptrdiff_t;
        using pointer = void;
        using reference = entry;

        entry_iterator() = default;
        explicit entry_iterator(child_iterator at) : at_(at) {}
        entry operator*() const { return {*at_, *std::next(at_)}; }
        entry_iterator& operator++()
        {
            ++at_;
            ++at_;
            return *this;
        }
        entry_iterator operator++(int) { auto t = *this; ++*this; return t; }
        bool operator==(entry_iterator const& o) const { return at_ == o.at_; }

    private:
        child_iterator at_;
    };

    class entry_range
    {
    public:
        entry_range(entry_iterator b, entry_iterator e) : b_(b), e_(e) {}
        entry_iterator begin() const { return b_; }
        entry_iterator end() const { return e_; }

    private:
        entry_iterator b_, e_;
    };

    document() = default;
    document(document const&) = default;
    document(document&&) noexcept = default;
    document& operator=(document const&) = default;
    document& operator=(document&&) noexcept = default;
    ~document() { give_back(); }

    /// True when the frontmatter holds no node (empty, or only comments).
    bool empty() const noexcept { return root_ == none; }
    node_ref root() const { return {this, root_}; }
    std::size_t node_count() const noexcept { return nodes_.size(); }

    /// The parsed YAML text, as given to the parser.
    std::string_view text() const noexcept { return text_; }

private:
    friend class document_builder;
    skillmd::detail::line_index::position position(std::uint32_t offset) const noexcept
    {
        return skillmd::detail::position_cursor(text_, first_line_).at(offset);
    }

    /** The buffers of documents that died on this thread, for the next one built on it. A
        load parses thousands of frontmatters one after another on each thread, and each
        document took two or three allocations (its text, its nodes, its decoded scalars)
        to give them back a moment later. One set a thread, none larger than `limit`
        bytes; a document that dies while its thread ends, after the set, frees its own.
    */
    struct spare_buffers
    {
        static constexpr std::size_t limit = 64 * 1024;
        std::string text, decoded;
        std::vector<node> nodes;

        ~spare_buffers() { gone() = true; }
        /// Trivially destructible, so it can be read until the thread's very end.
        static bool& gone() noexcept
        {
            thread_local bool g = false;
            return g;
        }
        /// This thread's set; none once it has been destroyed.
        static spare_buffers* mine() noexcept
        {
            if (gone()) return nullptr;
            thread_local spare_buffers s;
            return &s;
        }
        /// Keeps `b`'s room when it is larger than what is kept and not too large.
        template <class Buffer>
        static void keep(Buffer& kept, Buffer& b) noexcept
        {
            if (b.capacity() > kept.capacity() && b.capacity() * sizeof(typename Buffer::value_type) <= limit) {
                b.clear();
                kept.swap(b);
            }
        }
    };
    void give_back() noexcept
    {
        if (nodes_.capacity() == 0) return; // moved from, or never built
        if (auto* s = spare_buffers::mine()) {
            spare_buffers::keep(s->text, text_);
            spare_buffers::keep(s->decoded, decoded_);
            spare_buffers::keep(s->nodes, nodes_);
        }
    }

    std::uint32_t first_line_ = 1;
    std::string text_;    // the parsed text; plain and unescaped scalars view into it
    std::string decoded_; // scalars that folding or escapes changed
    std::vector<node> nodes_;
    index root_ = none;
};

inline document::entry_range document::node_ref::entries() const
{
    if (!is_mapping()) return {entry_iterator(end()), entry_iterator(end())};
    return {entry_iterator(begin()), entry_iterator(end())};
}

inline std::optional<document::node_ref> document::node_ref::find(std::string_view key) const
{
    for (auto [k, v] : entries())
        if (k.value() == key) return v;
    return std::nullopt;
}

/** Appends `n` as JSON: mappings become objects in key order, sequences arrays and
    every scalar a string (the YAML failsafe schema), exactly as `skillmd parse` prints it.
*/
inline void write_json(std::string& out, document::node_ref n)
{
    switch (n.kind()) {
    case node_kind::scalar: skillmd::detail::json_quote(out, n.value()); return;
    case node_kind::sequence: {
        out += '[';
        bool first = true;
        for (auto c : n) {
            if (!first) out += ", ";
            first = false;
            write_json(out, c);
        }
        out += ']';
        return;
    }
    case node_kind::mapping: {
        out += '{';
        bool first = true;
        for (auto [key, value] : n.entries()) {
            if (!first) out += ", ";
            first = false;
            skillmd::detail::json_quote(out, key.value());
            out += ": ";
            write_json(out, value);
        }
        out += '}';
        return;
    }
    }
}

/// Builds a document; used by parsers, not by users of the tree.
class document_builder
{
public:
    using index = document::index;

    explicit document_builder(std::string_view text, std::uint32_t first_line = 1)
    {
        if (auto* s = document::spare_buffers::mine()) { // the room of a document gone before
            doc_.text_.swap(s->text);
            doc_.decoded_.swap(s->decoded);
            doc_.nodes_.swap(s->nodes);
        }
        doc_.first_line_ = first_line;
        doc_.text_.assign(text.data(), text.size());
        // A node per 24 bytes, and at least 16 (512 bytes): one allocation for most
        // frontmatter, small enough for malloc's per-thread cache.
        doc_.nodes_.reserve(std::max<std::size_t>(text.size() / 24 + 4, 16));
    }

    std::string_view text() const noexcept { return doc_.text_; }

    /// A scalar whose value is a stretch of the parsed text.
    index scalar(scalar_style st, std::size_t at, std::size_t value_off, std::size_t value_len)
    {
        return add({node_kind::scalar, st, false, false, static_cast<std::uint32_t>(at),
                    static_cast<std::uint32_t>(value_off), static_cast<std::uint32_t>(value_len)});
    }

    /// A scalar whose decoded value differs from the source.
    index decoded_scalar(scalar_style st, std::size_t at, std::string_view value)
    {
        // Decoded scalars are no longer than their source, but for a block scalar's final
        // line break: room for the whole text is one allocation (none with a spare
        // buffer), where appending would grow it step by step.
        if (doc_.decoded_.empty() && doc_.decoded_.capacity() < doc_.text_.size() + 16)
            doc_.decoded_.reserve(doc_.text_.size() + 16);
        auto const off = doc_.decoded_.size();
        doc_.decoded_.append(value);
        return add({node_kind::scalar, st, true, false, static_cast<std::uint32_t>(at),
                    static_cast<std::uint32_t>(off), static_cast<std::uint32_t>(value.size())});
    }

    index collection(node_kind k, std::size_t at, bool flow = false)
    {
        return add({k, scalar_style::plain, false, flow, static_cast<std::uint32_t>(at)});
    }

    void append(index parent, index child)
    {
        auto& p = doc_.nodes_[parent];
        if (p.last == document::none) p.first = child;
        else doc_.nodes_[p.last].next = child;
        p.last = child;
        ++p.size;
    }

    std::string_view value(index i) const
    {
        return document::node_ref(&doc_, i).value();
    }

    void set_root(index i) noexcept { doc_.root_ = i; }

    document finish() && { return std::move(doc_); }

private:
    index add(document::node n)
    {
        doc_.nodes_.push_back(n);
        return static_cast<index>(doc_.nodes_.size() - 1);
    }
    document doc_;
};

} // namespace skillmd::frontmatter

#endif
