// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_INDEX_RENDER_HPP
#define SKILLMD_INDEX_RENDER_HPP

// Layer 1 of progressive disclosure: the skill index a system prompt
// carries. An index format (skillmd/index/formats.hpp) writes the frame and one entry;
// this header chooses the entries (visibility), fits them to a budget with one of four
// strategies, and reports which skills were shortened or left out.

#include <skillmd/index/entries.hpp>
#include <skillmd/index/impl/renderer.hpp>

#include <span>
#include <vector>

namespace skillmd {

/** Renders `entries` with `fmt` within `budget`.

    Lengths are code points. Entries keep their order; a description is shortened only
    by the per-entry cap (with `…`) or by the shorten-then-drop strategy (cut, as Codex
    does); both cuts fall between code points.
*/
template <index_format F>
index_result render_index(std::span<index_entry const> entries, F const& fmt, index_budget const& budget)
{
    return detail::index_renderer<F>(entries, fmt, budget).run();
}

template <index_format F>
index_result render_index(std::vector<index_entry> const& entries, F const& fmt, index_budget const& budget)
{
    return render_index(std::span<index_entry const>(entries), fmt, budget);
}

} // namespace skillmd

#endif
