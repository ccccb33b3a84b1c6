// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_DETAIL_BLOCK_LIST_HPP
#define SKILLMD_DETAIL_BLOCK_LIST_HPP

// A list that grows by blocks which never move (a walk's candidates, as it finds them).

#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

namespace skillmd::detail {

/** A list appended to one item at a time, kept in blocks of N items that stay where they
    are. A std::vector grown by doubling moves every item at each step, each time into
    pages it has not touched: for a walk's 10,000 candidates of some 180 bytes that was a
    fortieth of a load. A block is a few KB, which malloc serves from memory it holds.
*/
template <class T, std::size_t N = 64>
class block_list
{
public:
    block_list() = default;
    block_list(block_list&& o) noexcept : blocks_(std::move(o.blocks_)), size_(std::exchange(o.size_, 0)) {}
    block_list& operator=(block_list&& o) noexcept
    {
        if (this != &o) {
            clear();
            blocks_ = std::move(o.blocks_);
            size_ = std::exchange(o.size_, 0);
        }
        return *this;
    }
    block_list(block_list const&) = delete;
    block_list& operator=(block_list const&) = delete;
    ~block_list() { clear(); }

    std::size_t size() const noexcept { return size_; }
    bool empty() const noexcept { return size_ == 0; }
    T& operator[](std::size_t i) noexcept { return blocks_[i / N][i % N]; }
    T const& operator[](std::size_t i) const noexcept { return blocks_[i / N][i % N]; }
    T& back() noexcept { return (*this)[size_ - 1]; }

    void push_back(T&& v)
    {
        if (size_ == blocks_.size() * N) {
            blocks_.reserve(blocks_.size() + 1); // then nothing below throws with a block in hand
            blocks_.push_back(std::allocator<T>().allocate(N));
        }
        std::construct_at(blocks_[size_ / N] + size_ % N, std::move(v));
        ++size_;
    }
    void clear() noexcept
    {
        for (std::size_t i = 0; i < size_; ++i) std::destroy_at(&(*this)[i]);
        for (T* b : blocks_) std::allocator<T>().deallocate(b, N);
        blocks_.clear();
        size_ = 0;
    }

private:
    std::vector<T*> blocks_;
    std::size_t size_ = 0;
};

} // namespace skillmd::detail

#endif
