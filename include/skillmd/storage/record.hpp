// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_STORAGE_RECORD_HPP
#define SKILLMD_STORAGE_RECORD_HPP

// Making a snapshot's records (make_record packs a record_draft, or a first read's
// record_parts, into one allocation) and the read-only lists a snapshot hands out; the
// record and its parts are in storage/skill_record.hpp.

#include <skillmd/storage/skill_record.hpp>
#include <skillmd/storage/impl/record_packing.hpp>
#include <skillmd/storage/dedup.hpp>
#include <skillmd/storage/source.hpp>
#include <skillmd/frontmatter/parse_result.hpp>
#include <skillmd/detail/chunked.hpp>

#include <cstddef>
#include <iterator>
#include <span>
#include <string>
#include <vector>

namespace skillmd {

class snapshot;
template <frontmatter::frontmatter_parser, dedup_policy, skill_source...>
class basic_registry;

/// Packs `d` into a new record: one allocation for the record and all it holds.
inline record_ptr make_record(record_draft const& d)
{
    return detail::make_record(d, d.children);
}
inline record_ptr make_record(record_parts const& d)
{
    return detail::make_record(d, std::span<std::string const>{});
}

/// A read-only sequence of records. Snapshots share unchanged records, and the chunks
/// that hold them: a refresh that changed one skill copies one chunk, not the list.
class record_list
{
public:
    class iterator
    {
    public:
        using iterator_category = std::random_access_iterator_tag;
        using value_type = skill_record;
        using difference_type = std::ptrdiff_t;
        using pointer = skill_record const*;
        using reference = skill_record const&;
        iterator() = default;
        explicit iterator(detail::chunked<record_ptr>::iterator it) : it_(it) {}
        reference operator*() const { return **it_; }
        pointer operator->() const { return it_->get(); }
        iterator& operator++() { ++it_; return *this; }
        iterator operator++(int) { auto t = *this; ++it_; return t; }
        difference_type operator-(iterator const& o) const { return it_ - o.it_; }
        bool operator==(iterator const& o) const { return it_ == o.it_; }
    private:
        detail::chunked<record_ptr>::iterator it_;
    };

    iterator begin() const { return iterator(items_.begin()); }
    iterator end() const { return iterator(items_.end()); }
    std::size_t size() const noexcept { return items_.size(); }
    bool empty() const noexcept { return items_.empty(); }
    skill_record const& operator[](std::size_t i) const { return *items_[i]; }
    skill_record const& front() const { return *items_[0]; }
    /// The chunks the records are kept in, in order (see detail::chunked): those a
    /// refresh left alone are the last snapshot's own.
    std::vector<std::shared_ptr<std::vector<record_ptr>>> const& chunks() const noexcept { return items_.chunks(); }

private:
    friend class snapshot;
    template <frontmatter::frontmatter_parser, dedup_policy, skill_source...>
    friend class basic_registry;
    /// Chunks that the next snapshot shares where nothing in them changed.
    detail::chunked<record_ptr> items_;
    /// Where a refresh gathers the list before freeze() puts it in chunks.
    std::vector<record_ptr> building_;
    void freeze() { items_ = detail::chunked<record_ptr>(std::move(building_)); building_ = {}; }
};

} // namespace skillmd

#endif
