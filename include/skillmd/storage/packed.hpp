// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_STORAGE_PACKED_HPP
#define SKILLMD_STORAGE_PACKED_HPP

// The field types of a snapshot's records. A record and every string it holds are one
// allocation: each field says where its text lies in the bytes after the record, so a
// field needs no pointer, no allocation and no null check. A string is 8 bytes (an offset
// from the field itself, and a length: it may lie inside another string). An optional
// string or a list, which most skills leave empty, is one byte: 0 when absent, otherwise
// the place of its entry in a table of 4-byte offsets that starts the bytes after the
// record, one entry per member present; the entry says where the length or count lies,
// and the bytes follow it. Such fields are never copied or moved (an offset from a new
// address would point elsewhere); records are built once, in place, by an arena_writer.
// They read as std::string_view, std::optional and a read-only vector do.

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
    1 KB (record.hpp asserts that). The entry holds the offset from itself to the count
    (a string's length or a list's items), which the bytes follow.
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

/// A record's text: reads as a std::string_view that lives as long as the record.
class packed_string : public detail::packed_ref
{
    friend class detail::arena_writer;
    std::uint32_t n_ = 0; // characters

public:
    static constexpr std::size_t npos = std::string_view::npos;

    std::string_view view() const noexcept { return off_ ? std::string_view(at(), n_) : std::string_view(); }
    operator std::string_view() const noexcept { return view(); }
    std::string str() const { return std::string(view()); }

    char const* data() const noexcept { return view().data(); }
    std::size_t size() const noexcept { return n_; }
    std::size_t length() const noexcept { return n_; }
    bool empty() const noexcept { return n_ == 0; }
    char const* begin() const noexcept { return view().data(); }
    char const* end() const noexcept { return view().data() + n_; }
    char operator[](std::size_t i) const noexcept { return view()[i]; }
    char front() const noexcept { return view().front(); }
    char back() const noexcept { return view().back(); }

    std::string_view substr(std::size_t pos, std::size_t n = npos) const { return view().substr(pos, n); }
    std::size_t find(std::string_view s, std::size_t pos = 0) const noexcept { return view().find(s, pos); }
    std::size_t find(char c, std::size_t pos = 0) const noexcept { return view().find(c, pos); }
    std::size_t rfind(std::string_view s, std::size_t pos = npos) const noexcept { return view().rfind(s, pos); }
    std::size_t rfind(char c, std::size_t pos = npos) const noexcept { return view().rfind(c, pos); }
    bool starts_with(std::string_view s) const noexcept { return view().starts_with(s); }
    bool starts_with(char c) const noexcept { return view().starts_with(c); }
    bool ends_with(std::string_view s) const noexcept { return view().ends_with(s); }
    bool ends_with(char c) const noexcept { return view().ends_with(c); }
    int compare(std::string_view s) const noexcept { return view().compare(s); }

    friend bool operator==(packed_string const& a, packed_string const& b) noexcept { return a.view() == b.view(); }
    friend bool operator==(packed_string const& a, std::string_view b) noexcept { return a.view() == b; }
    friend bool operator==(packed_string const& a, std::string const& b) noexcept { return a.view() == b; }
    friend bool operator==(packed_string const& a, char const* b) noexcept { return a.view() == b; }
    friend auto operator<=>(packed_string const& a, packed_string const& b) noexcept { return a.view() <=> b.view(); }
    friend auto operator<=>(packed_string const& a, std::string_view b) noexcept { return a.view() <=> b; }
    friend auto operator<=>(packed_string const& a, std::string const& b) noexcept { return a.view() <=> std::string_view(b); }
    friend auto operator<=>(packed_string const& a, char const* b) noexcept { return a.view() <=> std::string_view(b); }

    friend std::string operator+(std::string a, packed_string const& b) { return std::move(a.append(b.view())); }
    friend std::string operator+(char const* a, packed_string const& b) { return std::string(a).append(b.view()); }
    friend std::string operator+(packed_string const& a, std::string_view b) { return std::string(a.view()).append(b); }
    friend std::string operator+(packed_string const& a, char const* b) { return std::string(a.view()).append(b); }
    friend std::string operator+(packed_string const& a, std::string const& b) { return std::string(a.view()).append(b); }
    friend std::string operator+(packed_string const& a, char b) { return std::string(a.view()) + b; }
    friend std::ostream& operator<<(std::ostream& os, packed_string const& s) { return os << s.view(); }
};

/// A record's optional text: reads as a std::optional whose value is a std::string_view.
class packed_optional_string : public detail::packed_slot
{
public:
    struct arrow
    {
        std::string_view v;
        std::string_view const* operator->() const noexcept { return &v; }
    };

    bool has_value() const noexcept { return present(); }
    explicit operator bool() const noexcept { return has_value(); }
    std::string_view operator*() const noexcept { return std::string_view(at() + sizeof(std::uint32_t), count()); }
    arrow operator->() const noexcept { return {**this}; }
    std::string_view value() const
    {
        if (!has_value()) throw std::bad_optional_access();
        return **this;
    }
    std::string_view value_or(std::string_view otherwise) const noexcept { return has_value() ? **this : otherwise; }
    std::optional<std::string> owned() const
    {
        if (!has_value()) return std::nullopt;
        return std::string(**this);
    }
    operator std::optional<std::string>() const { return owned(); }

    // Like std::optional: equal to a value when it holds an equal one.
    friend bool operator==(packed_optional_string const& a, std::string_view b) noexcept { return a.has_value() && *a == b; }
    friend bool operator==(packed_optional_string const& a, char const* b) noexcept { return a.has_value() && *a == b; }
    friend bool operator==(packed_optional_string const& a, std::string const& b) noexcept { return a.has_value() && *a == b; }
    friend bool operator==(packed_optional_string const& a, std::nullopt_t) noexcept { return !a.has_value(); }
    friend bool operator==(packed_optional_string const& a, std::optional<std::string> const& b) noexcept
    {
        return a.has_value() == b.has_value() && (!b || *a == *b);
    }
    friend std::ostream& operator<<(std::ostream& os, packed_optional_string const& s)
    {
        return s ? os << *s : os << "(none)";
    }
};

/// A key and its value (a skill's `metadata` map).
struct packed_pair
{
    packed_string first;
    packed_string second;
};

/// A frontmatter key no field claims, as unknown_field holds it.
struct packed_unknown
{
    packed_string key;
    packed_string json;
    std::uint32_t line = 0;
    std::uint32_t column = 0;
};

/// A record's list: reads as a read-only vector.
template <class T>
class packed_list : public detail::packed_slot
{
public:
    using value_type = T;
    using const_iterator = T const*;
    using iterator = T const*;

    static_assert(alignof(T) <= sizeof(std::uint32_t), "items follow their 4-byte count");
    static_assert(!std::is_base_of_v<detail::packed_slot, T>, "one-byte fields reach only a table right after them");

    T const* begin() const noexcept { return present() ? reinterpret_cast<T const*>(at() + sizeof(std::uint32_t)) : nullptr; }
    T const* end() const noexcept { return begin() + size(); }
    std::size_t size() const noexcept { return present() ? count() : 0; }
    bool empty() const noexcept { return !present(); }
    T const& operator[](std::size_t i) const noexcept { return begin()[i]; }
    T const& front() const noexcept { return *begin(); }
    T const& back() const noexcept { return begin()[size() - 1]; }
};

/// Owned copies, for code that keeps them past the record or changes them.
inline std::string to_owned(packed_string const& s) { return s.str(); }
inline std::optional<std::string> to_owned(packed_optional_string const& s) { return s.owned(); }
inline std::pair<std::string, std::string> to_owned(packed_pair const& p) { return {p.first.str(), p.second.str()}; }
template <class T>
auto to_owned(packed_list<T> const& l)
{
    std::vector<decltype(to_owned(std::declval<T const&>()))> out;
    out.reserve(l.size());
    for (auto const& x : l) out.push_back(to_owned(x));
    return out;
}

/// Equal to a vector of std::string or std::string_view holding the same strings.
template <class S>
    requires std::is_convertible_v<S const&, std::string_view>
bool operator==(packed_list<packed_string> const& a, std::vector<S> const& b) noexcept
{
    return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                      [](packed_string const& x, S const& y) { return x == std::string_view(y); });
}
inline std::ostream& operator<<(std::ostream& os, packed_list<packed_string> const& l)
{
    os << '[';
    for (std::size_t i = 0; i < l.size(); ++i) os << (i ? ", " : "") << l[i];
    return os << ']';
}

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
