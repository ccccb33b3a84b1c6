// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_DETAIL_LINE_INDEX_HPP
#define SKILLMD_DETAIL_LINE_INDEX_HPP

#include <skillmd/detail/utf8.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

namespace skillmd::detail {

/// Maps byte offsets of a text to 1-based line and code-point column.
/// A line ends at LF, CRLF or a lone CR, as in YAML.
class line_index
{
public:
    explicit line_index(std::string_view text, std::uint32_t first_line = 1)
        : text_(text), first_line_(first_line)
    {
        starts_.push_back(0);
        for (std::size_t i = 0; i < text.size(); ++i) {
            char const c = text[i];
            if (c == '\n' || (c == '\r' && (i + 1 == text.size() || text[i + 1] != '\n')))
                starts_.push_back(i + 1);
        }
    }

    struct position
    {
        std::uint32_t line;
        std::uint32_t column;
    };

    position at(std::size_t offset) const noexcept
    {
        offset = std::min(offset, text_.size());
        auto const it = std::upper_bound(starts_.begin(), starts_.end(), offset) - 1;
        std::size_t const start = *it;
        return {static_cast<std::uint32_t>(first_line_ + (it - starts_.begin())),
                static_cast<std::uint32_t>(1 + utf8_length(text_.substr(start, offset - start)))};
    }

private:
    std::string_view text_;
    std::uint32_t first_line_;
    std::vector<std::size_t> starts_;
};


/// Line and column of increasing offsets in one forward pass, for node positions.
/// A smaller offset than the last one starts again from the top, so any order works.
class position_cursor
{
public:
    explicit position_cursor(std::string_view text, std::uint32_t first_line = 1)
        : text_(text), first_line_(first_line), has_cr_(text.find('\r') != std::string_view::npos)
    {
    }

    line_index::position at(std::size_t offset) noexcept
    {
        offset = std::min(offset, text_.size());
        if (offset < scanned_) scanned_ = line_start_ = line_ = 0;
        char const* const base = text_.data();
        if (!has_cr_) {
            while (auto const* nl = static_cast<char const*>(std::memchr(base + scanned_, '\n', offset - scanned_))) {
                ++line_;
                scanned_ = line_start_ = static_cast<std::size_t>(nl - base) + 1;
            }
        } else {
            for (std::size_t i = scanned_; i < offset; ++i) {
                char const c = base[i];
                if (c == '\n' || (c == '\r' && (i + 1 == text_.size() || base[i + 1] != '\n'))) {
                    ++line_;
                    line_start_ = i + 1;
                }
            }
        }
        scanned_ = offset;
        return {first_line_ + line_,
                static_cast<std::uint32_t>(1 + utf8_length(text_.substr(line_start_, offset - line_start_)))};
    }

private:
    std::string_view text_;
    std::uint32_t first_line_;
    bool has_cr_;
    std::size_t scanned_ = 0, line_start_ = 0;
    std::uint32_t line_ = 0;
};

} // namespace skillmd::detail

#endif
