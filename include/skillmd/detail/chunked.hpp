// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_DETAIL_CHUNKED_HPP
#define SKILLMD_DETAIL_CHUNKED_HPP

// A read-only sequence in fixed-size chunks that copies share: copying one copies a
// pointer per chunk, and replacing an element copies only its chunk. Snapshots keep their
// lists so, and a refresh that changed one skill among 100,000 derives the next snapshot
// by touching one chunk of each list, not every record's reference count.

#include <algorithm>
#include <compare>
#include <cstddef>
#include <iterator>
#include <memory>
#include <utility>
#include <vector>

namespace skillmd::detail {

template <class T>
class chunked
{
public:
    static constexpr std::size_t chunk_size = 128; // a power of two: an index splits by shifts

    chunked() = default;
    /// Moves the elements of `v` into chunks.
    explicit chunked(std::vector<T>&& v) : size_(v.size())
    {
        chunks_.reserve((v.size() + chunk_size - 1) / chunk_size);
        for (std::size_t first = 0; first < v.size(); first += chunk_size) {
            auto c = std::make_shared<std::vector<T>>();
            std::size_t const end = std::min(first + chunk_size, v.size());
            c->reserve(end - first);
            for (std::size_t i = first; i < end; ++i) c->push_back(std::move(v[i]));
            chunks_.push_back(std::move(c));
        }
    }

    std::size_t size() const noexcept { return size_; }
    bool empty() const noexcept { return size_ == 0; }
    T const& operator[](std::size_t i) const { return (*chunks_[i / chunk_size])[i % chunk_size]; }

    /// Replaces element `i` by copying its chunk: a chunk is never written while another
    /// list (another thread's snapshot) may share it, and use_count() cannot say it does not.
    void set(std::size_t i, T value)
    {
        auto& c = chunks_[i / chunk_size];
        auto copy = std::make_shared<std::vector<T>>(*c);
        (*copy)[i % chunk_size] = std::move(value);
        c = std::move(copy);
    }

    class iterator
    {
    public:
        using iterator_category = std::random_access_iterator_tag;
        using value_type = T;
        using difference_type = std::ptrdiff_t;
        using pointer = T const*;
        using reference = T const&;
        iterator() = default;
        iterator(chunked const* list, std::size_t i) : list_(list), i_(i) {}
        reference operator*() const { return (*list_)[i_]; }
        pointer operator->() const { return &(*list_)[i_]; }
        reference operator[](difference_type n) const { return (*list_)[i_ + static_cast<std::size_t>(n)]; }
        iterator& operator++() { ++i_; return *this; }
        iterator operator++(int) { auto t = *this; ++i_; return t; }
        iterator& operator--() { --i_; return *this; }
        iterator operator--(int) { auto t = *this; --i_; return t; }
        iterator& operator+=(difference_type n) { i_ = static_cast<std::size_t>(static_cast<difference_type>(i_) + n); return *this; }
        iterator& operator-=(difference_type n) { return *this += -n; }
        friend iterator operator+(iterator it, difference_type n) { return it += n; }
        friend iterator operator+(difference_type n, iterator it) { return it += n; }
        friend iterator operator-(iterator it, difference_type n) { return it -= n; }
        difference_type operator-(iterator const& o) const { return static_cast<difference_type>(i_) - static_cast<difference_type>(o.i_); }
        bool operator==(iterator const& o) const { return i_ == o.i_; }
        auto operator<=>(iterator const& o) const { return i_ <=> o.i_; }
        std::size_t index() const noexcept { return i_; }

    private:
        chunked const* list_ = nullptr;
        std::size_t i_ = 0;
    };

    iterator begin() const { return iterator(this, 0); }
    iterator end() const { return iterator(this, size_); }

private:
    std::vector<std::shared_ptr<std::vector<T>>> chunks_; // never changed in place while shared
    std::size_t size_ = 0;
};

} // namespace skillmd::detail

#endif
