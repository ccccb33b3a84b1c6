// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_FRONTMATTER_LINE_PARSER_HPP
#define SKILLMD_FRONTMATTER_LINE_PARSER_HPP

// Claude Code's minimal frontmatter parser, as reverse-engineered, for users
// who need its results bug for bug. It is not YAML:
//  - the block starts at a first `---` and ends at the next `---` anywhere, even
//    inside a line;
//  - each line is split at its first colon; key and value are trimmed;
//  - one quote character is dropped from each end of the value, matched or not;
//  - there is no nesting: an indented `key: value` is a top-level key, list items are
//    dropped, a later duplicate replaces the earlier value in place;
//  - keys come out in JavaScript object order: integer-like keys first, ascending.
// It never reports an error; a file it cannot read has empty metadata.

#include <skillmd/config.hpp>
#include <skillmd/frontmatter/document.hpp>
#include <skillmd/frontmatter/parse_result.hpp>
#include <skillmd/frontmatter/split.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace skillmd::frontmatter {

class line_parser
{
public:
    /// The block Claude Code's regular expression `^---\s*\n([\s\S]*?)---\s*\n?` finds.
    split_result split(std::string_view file, std::string_view /*origin*/, split_options = {}) const
    {
        split_result r;
        if (file.substr(0, 3) != "---") return r;
        // `\s*\n`: the longest run of white space after the dashes that ends in a line feed.
        std::size_t p = 3, last_lf = std::string_view::npos;
        while (std::size_t const n = skillmd::detail::js_space_at(file, p)) { // JavaScript's `\s`, Unicode spaces too
            if (file[p] == '\n') last_lf = p;
            p += n;
        }
        if (last_lf == std::string_view::npos) return r;
        std::size_t const begin = last_lf + 1;
        std::size_t const close = file.find("---", begin);
        if (close == std::string_view::npos) return r;
        std::size_t end = close + 3;
        end += skillmd::detail::js_space_prefix(file.substr(end)); // `\s*` (greedy; U+00A0 too), then `\n?` has nothing left
        r.has_frontmatter = true;
        r.frontmatter = file.substr(begin, close - begin);
        r.frontmatter_offset = begin;
        r.frontmatter_line = static_cast<std::uint32_t>(1 + std::count(file.begin(), file.begin() + static_cast<std::ptrdiff_t>(begin), '\n'));
        r.body_offset = end;
        return r;
    }

    parse_result parse(std::string_view block, std::string_view /*origin*/, std::uint32_t first_line = 1) const
    {
        document_builder b(block, first_line);
        struct entry
        {
            std::size_t key_off, key_len, val_off, val_len, at;
        };
        std::vector<entry> entries;
        std::size_t pos = 0;
        while (pos <= block.size()) {
            std::size_t nl = block.find('\n', pos);
            if (nl == std::string_view::npos) nl = block.size();
            std::string_view const line = block.substr(pos, nl - pos);
            std::size_t const colon = line.find(':');
            if (colon != std::string_view::npos && colon > 0) {
                auto const [ko, kl] = trim(line, 0, colon);
                if (kl > 0) {
                    auto [vo, vl] = trim(line, colon + 1, line.size());
                    std::string_view const v = line.substr(vo, vl);
                    std::size_t cut_front = 0, cut_back = 0;
                    if (!v.empty() && is_quote(v.front())) cut_front = 1;
                    if (v.size() >= 2 && is_quote(v.back())) cut_back = 1;
                    vo += cut_front;
                    vl = vl - cut_front - cut_back;
                    std::string_view const key = line.substr(ko, kl);
                    auto same = std::find_if(entries.begin(), entries.end(), [&](entry const& e) {
                        return block.substr(e.key_off, e.key_len) == key;
                    });
                    entry const e{pos + ko, kl, pos + vo, vl, pos + ko};
                    if (same != entries.end()) { same->val_off = e.val_off; same->val_len = e.val_len; }
                    else entries.push_back(e);
                }
            }
            if (nl == block.size()) break;
            pos = nl + 1;
        }
        // JavaScript orders integer-like keys first, ascending, then the others as inserted.
        std::stable_sort(entries.begin(), entries.end(), [&](entry const& x, entry const& y) {
            auto const ix = array_index(block.substr(x.key_off, x.key_len));
            auto const iy = array_index(block.substr(y.key_off, y.key_len));
            if (ix && iy) return *ix < *iy;
            return ix.has_value() && !iy.has_value();
        });
        auto const root = b.collection(node_kind::mapping, 0);
        for (auto const& e : entries) {
            b.append(root, b.scalar(scalar_style::plain, e.at, e.key_off, e.key_len));
            b.append(root, b.scalar(scalar_style::plain, e.val_off, e.val_off, e.val_len));
        }
        b.set_root(root);
        parse_result r;
        r.doc = std::move(b).finish();
        return r;
    }

private:
    static bool is_quote(char c) noexcept { return c == '"' || c == '\''; }

    /// JavaScript's String.prototype.trim on [b, e) of `s`: offset and length of the result.
    static std::pair<std::size_t, std::size_t> trim(std::string_view s, std::size_t b, std::size_t e)
    {
        // JavaScript white space (WhiteSpace or LineTerminator) ending just before `i`.
        auto const space_before = [&](std::size_t i) -> std::size_t {
            for (std::size_t k = 1; k <= 3 && i >= b + k; ++k)
                if (skillmd::detail::js_space_at(s.substr(0, i), i - k) == k) return k;
            return 0;
        };
        while (std::size_t const n = skillmd::detail::js_space_at(s.substr(0, e), b)) b += n;
        while (e > b)
            if (std::size_t const n = space_before(e)) e -= n;
            else break;
        return {b, e - b};
    }

    /// The value of a canonical array index ("0", "17"; not "01" or "-1"), as JavaScript
    /// recognises for property order.
    static std::optional<std::uint64_t> array_index(std::string_view k)
    {
        if (k.empty() || k.size() > 10 || (k.size() > 1 && k[0] == '0')) return std::nullopt;
        std::uint64_t v = 0;
        for (char c : k) {
            if (c < '0' || c > '9') return std::nullopt;
            v = v * 10 + static_cast<std::uint64_t>(c - '0');
        }
        if (v >= 4294967295ull) return std::nullopt;
        return v;
    }
};

static_assert(frontmatter_parser<line_parser>, "line_parser must model frontmatter_parser");

} // namespace skillmd::frontmatter

#endif
