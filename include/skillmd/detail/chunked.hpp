// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_DETAIL_CHUNKED_HPP
#define SKILLMD_DETAIL_CHUNKED_HPP

// A read-only sequence in chunks that copies share: copying one copies a pointer per
// chunk, and replacing, inserting or erasing an element copies only its chunk (and the
// table of where chunks start). Snapshots keep their lists so, and a refresh that changed
// one skill among 100,000 derives the next snapshot by touching one chunk of each list,
// not every record's reference count.

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
        starts_.reserve((v.size() + chunk_size - 1) / chunk_size);
        chunks_.reserve((v.size() + chunk_size - 1) / chunk_size);
        for (std::size_t first = 0; first < v.size(); first += chunk_size) {
            auto c = std::make_shared<std::vector<T>>();
            std::size_t const end = std::min(first + chunk_size, v.size());
            c->reserve(end - first);
            for (std::size_t i = first; i < end; ++i) c->push_back(std::move(v[i]));
            chunks_.push_back(std::move(c));
            starts_.push_back(first);
        }
    }

    std::size_t size() const noexcept { return size_; }
    bool empty() const noexcept { return size_ == 0; }
    T const& operator[](std::size_t i) const
    {
        if (uniform_) return (*chunks_[i / chunk_size])[i % chunk_size];
        auto const [c, at] = locate(i);
        return (*chunks_[c])[at];
    }

    /// Replaces element `i` by copying its chunk: a chunk is never written while another
    /// list (another thread's snapshot) may share it, and use_count() cannot say it does not.
    void set(std::size_t i, T value)
    {
        auto const [c, at] = locate(i);
        auto copy = std::make_shared<std::vector<T>>(*chunks_[c]);
        (*copy)[at] = std::move(value);
        chunks_[c] = std::move(copy);
    }

    /// Puts `value` before element `i` (at the end when `i` is size()): its chunk is copied,
    /// and split in two when it has grown to twice the usual size.
    void insert(std::size_t i, T value)
    {
        if (chunks_.empty()) {
            chunks_.push_back(std::make_shared<std::vector<T>>(1, std::move(value)));
            starts_.push_back(0);
            size_ = 1;
            return;
        }
        auto [c, at] = i == size_ ? std::pair{chunks_.size() - 1, size_ - starts_.back()} : locate(i);
        auto copy = std::make_shared<std::vector<T>>();
        copy->reserve(chunks_[c]->size() + 1);
        *copy = *chunks_[c];
        copy->insert(copy->begin() + static_cast<std::ptrdiff_t>(at), std::move(value));
        chunks_[c] = std::move(copy);
        for (std::size_t k = c + 1; k < starts_.size(); ++k) ++starts_[k];
        ++size_;
        uniform_ = false;
        if (chunks_[c]->size() >= 2 * chunk_size) {
            auto& whole = *chunks_[c];
            auto back = std::make_shared<std::vector<T>>(whole.begin() + chunk_size, whole.end());
            chunks_[c] = std::make_shared<std::vector<T>>(whole.begin(), whole.begin() + chunk_size);
            chunks_.insert(chunks_.begin() + static_cast<std::ptrdiff_t>(c + 1), std::move(back));
            starts_.insert(starts_.begin() + static_cast<std::ptrdiff_t>(c + 1), starts_[c] + chunk_size);
        }
    }

    /// Removes element `i`: its chunk is copied, or dropped when it held only that one.
    void erase(std::size_t i)
    {
        auto const [c, at] = locate(i);
        if (chunks_[c]->size() == 1) {
            chunks_.erase(chunks_.begin() + static_cast<std::ptrdiff_t>(c));
            starts_.erase(starts_.begin() + static_cast<std::ptrdiff_t>(c));
        } else {
            auto copy = std::make_shared<std::vector<T>>(*chunks_[c]);
            copy->erase(copy->begin() + static_cast<std::ptrdiff_t>(at));
            chunks_[c] = std::move(copy);
        }
        for (std::size_t k = 0; k < starts_.size(); ++k)
            if (starts_[k] > i) --starts_[k];
        --size_;
        uniform_ = false;
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
    /// The chunks, in order. One is never written once made (see set()): a chunk's
    /// address names its elements for as long as it lives.
    std::vector<std::shared_ptr<std::vector<T>>> const& chunks() const noexcept { return chunks_; }
    /// `f` on every element in order, a chunk at a time: no element looked up by its index.
    template <class F>
    void for_each(F&& f) const
    {
        for (auto const& c : chunks_)
            for (auto const& e : *c) f(e);
    }

private:
    /// The chunk holding element `i`, and its place there.
    std::pair<std::size_t, std::size_t> locate(std::size_t i) const
    {
        if (uniform_) return {i / chunk_size, i % chunk_size};
        std::size_t const c = static_cast<std::size_t>(std::upper_bound(starts_.begin(), starts_.end(), i) - starts_.begin()) - 1;
        return {c, i - starts_[c]};
    }

    std::vector<std::shared_ptr<std::vector<T>>> chunks_; // never changed in place while shared
    std::vector<std::size_t> starts_; // each chunk's first element
    std::size_t size_ = 0;
    bool uniform_ = true; // every chunk but the last holds chunk_size: an index splits by shifts
};

} // namespace skillmd::detail

#endif
