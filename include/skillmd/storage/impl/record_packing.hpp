// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_STORAGE_IMPL_RECORD_PACKING_HPP
#define SKILLMD_STORAGE_IMPL_RECORD_PACKING_HPP

// How make_record (storage/record.hpp) packs a record into one allocation with the arena
// writer, and the prefetching that passes over a snapshot's records use.

#include <skillmd/storage/skill_record.hpp>
#include <skillmd/storage/packed.hpp>
#include <skillmd/storage/impl/arena_writer.hpp>
#include <skillmd/model/skill.hpp>
#include <skillmd/detail/prefetch.hpp>

#include <cstddef>
#include <cstdint>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace skillmd {

namespace detail {

/** Asks for the memory a pass over a snapshot's records reads of `r`: the record's
    members (its reference count first), and the path after them, which holds the
    command. A refresh's records were made on other cores; a serial pass over 10,000 of
    them otherwise waits on one miss after another.
*/
inline void prefetch_record(skill_record const* r) noexcept
{
    if (r == nullptr) return;
    // Addresses as integers: the path lies past the record object.
    auto const at = reinterpret_cast<std::uintptr_t>(r);
    for (std::uintptr_t off = 0; off < sizeof(skill_record) + 128; off += 64)
        detail::prefetch(reinterpret_cast<void const*>(at + off));
}

/// `prefetch_record` for the item `detail::prefetch_distance` places after `i` in `list`
/// (by default a list of records; `record_of` finds the record in another list's item).
template <class List, class Record = skill_record const* (*)(record_ptr const&)>
void prefetch_ahead(List const& list, std::size_t i,
                    Record const& record_of = [](record_ptr const& p) { return p.get(); }) noexcept
{
    if (i + prefetch_distance < list.size()) prefetch_record(record_of(list[i + prefetch_distance]));
}

inline file_stamp const& stamp_of(record_draft const& d) noexcept { return d.where.stamp; }
inline file_stamp const& stamp_of(record_parts const& d) noexcept { return d.stamp; }
/// A record from a first read is of a file that read found: confirmed, whatever the walk
/// could say of it (a candidate it only guessed at, whose file came before the read).
inline bool confirmed_of(record_draft const& d) noexcept { return d.where.confirmed; }
inline bool confirmed_of(record_parts const&) noexcept { return true; }

/// Writes `d` (a record_draft or record_parts) into `r` and the bytes after it (see
/// arena_writer: run once to count, once to write), with `children` as the record's
/// sub-skills (`d.children`, or views of the commands the snapshot links, which need no
/// owned copies).
template <class Draft, class Children>
void pack_record(arena_writer& w, skill_record& r, Draft const& d, Children const& children)
{
    // A file system skill's command is its folder's path below the tier, its folder is its
    // file's, and the folder's name ends it: one copy, the path's.
    w.text(r.where.path, d.where.path);
    w.text_within(r.command, d.command, r.where.path, d.where.path);
    w.text(r.tier, d.tier);
    if (d.tier_index > 0xffffu) throw std::length_error("a registry has at most 65,536 tiers");
    r.tier_index = static_cast<std::uint16_t>(d.tier_index);
    r.hidden = d.hidden;
    if (d.overridden) w.object(r.overridden, *d.overridden);
    w.text_within(r.where.directory, d.where.directory, r.where.path, d.where.path);
    w.text_within(r.where.directory_name, d.where.directory_name, r.where.path, d.where.path);
    w.text_within(r.where.command, d.where.command, r.command, d.command);
    r.where.stamp = stamp_of(d);
    r.where.database = d.where.database;
    r.where.confirmed = confirmed_of(d);
    auto const strings = [](arena_writer& a, packed_string& to, std::string_view s) { a.text(to, s); };
    packed_metadata::each_member([&](auto from, auto to) {
        auto const& value = d.meta.*from;
        auto& field = r.meta.*to;
        using V = std::decay_t<decltype(value)>;
        if constexpr (std::is_same_v<V, std::string>) {
            if (&field == &r.meta.name) w.text_within(field, value, r.command, d.command); // mostly the command
            else w.text(field, value);
        } else if constexpr (std::is_same_v<V, std::optional<std::string>>) {
            w.text(field, value);
        } else if constexpr (std::is_same_v<V, std::vector<std::string>>) {
            w.list(field, value, strings);
        } else if constexpr (std::is_same_v<V, std::vector<std::pair<std::string, std::string>>>) {
            w.list(field, value, [](arena_writer& a, packed_pair& p, auto const& kv) {
                a.text(p.first, kv.first);
                a.text(p.second, kv.second);
            });
        } else if constexpr (std::is_same_v<V, std::vector<unknown_field>>) {
            w.list(field, value, [](arena_writer& a, packed_unknown& k, unknown_field const& u) {
                a.text(k.key, u.key);
                a.text(k.json, u.json);
                k.line = u.line;
                k.column = u.column;
            });
        } else {
            field = value;
        }
    });
    w.list(r.children, children, strings);
    r.body_offset = detail::packed_size(d.body_offset);
    w.text(r.shadowed_by, d.shadowed_by);
}

} // namespace detail

namespace detail {

/// make_record with `children` in place of `d.children`.
template <class Draft, class Children>
record_ptr make_record(Draft const& d, Children const& children)
{
    skill_record scratch;
    arena_writer count;
    pack_record(count, scratch, d, children);
    // Offsets are 32-bit (sources bound a file far below this).
    if (count.used() > 0x7fff0000u) throw std::length_error("skill record too large");
    // One block: the record, then its table and bytes (operator new aligns for both; the
    // bytes start 8-aligned since the record's size is a multiple of its 8-byte alignment).
    static_assert(sizeof(skill_record) % 8 == 0);
    void* const block = ::operator new(sizeof(skill_record) + count.used());
    auto* const r = ::new (block) skill_record;
    record_ptr const owner(r); // from here on, a throw frees the block
    arena_writer write(static_cast<char*>(block) + sizeof(skill_record), count.entries());
    pack_record(write, *r, d, children);
    return owner;
}

} // namespace detail

} // namespace skillmd

#endif
