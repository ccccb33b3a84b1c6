// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_STORAGE_IMPL_ARENA_WRITER_HPP
#define SKILLMD_STORAGE_IMPL_ARENA_WRITER_HPP

// How a record and its strings are laid out in one allocation (storage/packed.hpp says
// what the fields are; storage/record.hpp builds records with this writer).

#include <skillmd/storage/packed.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace skillmd {

namespace detail {

/** Lays out a record's strings and lists in the bytes after it. Run twice over the same
    inputs: first without bytes, to count how many are needed and how many one-byte fields
    are present (nothing is written), then into the block allocated for them, told that
    number, so that their table comes first. Both runs must take the same decisions, so
    every decision depends on the inputs only.
*/
class arena_writer
{
public:
    arena_writer() = default;
    /// The writing run: `bytes` as `used()` counted them (8-aligned), `entries` as `entries()` did.
    arena_writer(char* bytes, std::size_t entries) noexcept : base_(bytes), cursor_(table_size(entries)), entries_(entries) {}
    bool writing() const noexcept { return base_ != nullptr; }
    std::size_t used() const noexcept { return cursor_ + (writing() ? 0 : table_size(taken_)); }
    /// One-byte fields present, each an entry of the table.
    std::size_t entries() const noexcept { return taken_; }

    void text(packed_string& to, std::string_view s)
    {
        if (s.empty()) return;
        std::size_t const at = cursor_;
        cursor_ += s.size();
        if (!writing()) return;
        std::char_traits<char>::copy(base_ + at, s.data(), s.size());
        point(to, base_ + at, s.size());
    }
    /// `s` inside `host` (a string written before as `host_field`): a view of those bytes.
    void text_within(packed_string& to, std::string_view s, packed_string const& host_field, std::string_view host)
    {
        if (s.empty()) return;
        if (auto const pos = host.find(s); pos != std::string_view::npos) {
            if (writing()) point(to, host_field.data() + pos, s.size());
            return;
        }
        text(to, s);
    }
    void text(packed_optional_string& to, std::optional<std::string> const& s)
    {
        if (!s) return; // an empty value has its length, so it is a value
        std::size_t const at = counted(to, s->size(), s->size());
        if (writing()) std::char_traits<char>::copy(base_ + at, s->data(), s->size());
    }
    /// A copy of `value` among the bytes (aligned as T wants, up to 8); `to` points at it.
    /// The record that holds `to` destroys it.
    template <class T>
    void object(T const*& to, T const& value)
    {
        static_assert(alignof(T) <= 8, "the bytes start 8-aligned");
        cursor_ = aligned(cursor_, alignof(T));
        std::size_t const at = cursor_;
        cursor_ += sizeof(T);
        if (writing()) to = ::new (static_cast<void*>(base_ + at)) T(value);
    }
    template <class T, class Range, class Each>
    void list(packed_list<T>& to, Range const& items, Each&& each)
    {
        if (items.empty()) return;
        std::size_t const at = counted(to, items.size(), items.size() * sizeof(T));
        T scratch;
        std::size_t i = 0;
        for (auto const& item : items) {
            T* slot = writing() ? ::new (static_cast<void*>(base_ + at + i * sizeof(T))) T : &scratch;
            each(*this, *slot, item);
            ++i;
        }
    }

private:
    static constexpr std::size_t aligned(std::size_t n, std::size_t to) noexcept { return (n + to - 1) / to * to; }
    /// The table's bytes, rounded up to 8 so that both runs align their data alike.
    static std::size_t table_size(std::size_t entries) noexcept { return aligned(entries * sizeof(std::int32_t), 8); }
    void point(packed_string& to, char const* p, std::size_t n)
    {
        to.point_to(p);
        to.n_ = packed_size(n);
    }
    /// The next table entry for `to`, and room for a 4-byte count and `bytes` after it,
    /// 4-aligned; where the bytes go.
    std::size_t counted(packed_slot& to, std::size_t n, std::size_t bytes)
    {
        cursor_ = aligned(cursor_, sizeof(std::uint32_t));
        std::size_t const at = cursor_;
        cursor_ += sizeof(std::uint32_t) + bytes;
        std::size_t const entry = taken_++;
        if (writing()) {
            if (entry >= entries_ || reinterpret_cast<std::uintptr_t>(base_) % 8 != 0)
                throw std::logic_error("arena_writer: the runs disagree");
            std::uint32_t const c = packed_size(n);
            std::memcpy(base_ + at, &c, sizeof c);
            to.point_to(base_ + entry * sizeof(std::int32_t), base_ + at);
        }
        return at + sizeof(std::uint32_t);
    }

    char* base_ = nullptr;
    std::size_t cursor_ = 0;
    std::size_t entries_ = 0; // writing: the table's size
    std::size_t taken_ = 0;   // entries handed out so far
};

} // namespace detail

} // namespace skillmd

#endif
