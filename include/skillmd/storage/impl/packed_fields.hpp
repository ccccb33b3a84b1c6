// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_STORAGE_IMPL_PACKED_FIELDS_HPP
#define SKILLMD_STORAGE_IMPL_PACKED_FIELDS_HPP

// The bases of the packed field types (storage/packed.hpp): where a field's bytes lie,
// as an offset from the field itself or as a slot in the record's table.

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
class arena_writer;

/// A size or offset as the 32 bits a record keeps: a record of 2 GiB is refused
/// (sources bound files far below).
inline std::uint32_t packed_size(std::size_t n)
{
    if (n > 0x7fffffffu) throw std::length_error("skill record too large");
    return static_cast<std::uint32_t>(n);
}

/// Base of a string field: where its bytes are, as an offset from the field (0: none).
class packed_ref
{
public:
    packed_ref() = default;
    packed_ref(packed_ref const&) = delete;
    packed_ref& operator=(packed_ref const&) = delete;

protected:
    friend class arena_writer;
    char const* at() const noexcept
    {
        return reinterpret_cast<char const*>(reinterpret_cast<std::intptr_t>(this) + off_);
    }
    void point_to(void const* p) noexcept
    {
        off_ = static_cast<std::int32_t>(reinterpret_cast<std::intptr_t>(p) - reinterpret_cast<std::intptr_t>(this));
    }
    std::int32_t off_ = 0; // 0: no text
};

/** Base of the one-byte fields (optional strings, lists). The byte `v_` is 0 when the
    member is absent; otherwise its entry in the record's table lies `v_` four-byte steps
    past the field's address rounded down to four. The table starts right after the
    record, so a step count of one byte reaches it from any field of a record up to about
    1 KB (skill_record.hpp asserts that). The entry holds the offset from itself to the
    count (a string's length or a list's items), which the bytes follow.
*/
class packed_slot
{
public:
    packed_slot() = default;
    packed_slot(packed_slot const&) = delete;
    packed_slot& operator=(packed_slot const&) = delete;

    /// How far past a field's address its table entry may lie.
    static constexpr std::size_t reach = 255 * 4;

protected:
    friend class arena_writer;
    bool present() const noexcept { return v_ != 0; }
    /// The count's address; only when present.
    char const* at() const noexcept
    {
        char const* const e = entry();
        std::int32_t off;
        std::memcpy(&off, e, sizeof off);
        return e + off;
    }
    std::uint32_t count() const noexcept
    {
        std::uint32_t n;
        std::memcpy(&n, at(), sizeof n);
        return n;
    }
    /// Makes `entry` (4-aligned, in the table after the record) this field's, pointing at `data`.
    void point_to(char* entry, char const* data)
    {
        auto const base = reinterpret_cast<std::uintptr_t>(this) & ~std::uintptr_t{3};
        auto const e = reinterpret_cast<std::uintptr_t>(entry);
        if (e % 4 != 0 || e <= base || (e - base) / 4 > 255) throw std::logic_error("packed field out of its table's reach");
        v_ = static_cast<std::uint8_t>((e - base) / 4);
        std::int32_t const off = static_cast<std::int32_t>(data - entry);
        std::memcpy(entry, &off, sizeof off);
    }

private:
    char const* entry() const noexcept
    {
        return reinterpret_cast<char const*>((reinterpret_cast<std::uintptr_t>(this) & ~std::uintptr_t{3}) + 4u * v_);
    }
    std::uint8_t v_ = 0;
};
} // namespace detail

} // namespace skillmd

#endif
