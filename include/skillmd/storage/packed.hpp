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

#include <skillmd/storage/impl/packed_fields.hpp>

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

} // namespace skillmd

#endif
