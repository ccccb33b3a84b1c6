// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_DETAIL_PREFETCH_HPP
#define SKILLMD_DETAIL_PREFETCH_HPP

// Strings scattered over the heap (those of index entries made by hand, say) make a loop
// over 10,000 of them wait on one cache (and often TLB) miss after another. Asking for the
// memory of an item a few places ahead lets those misses overlap.

#include <cstddef>

namespace skillmd::detail {

/// A hint that `p` will be read soon; no effect on the result, none at all without the builtin.
inline void prefetch(void const* p) noexcept
{
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(p, 0, 3);
#else
    (void)p;
#endif
}

/// How many items ahead a loop asks for: far enough for a miss to be served before the
/// item is reached, near enough that what came is still in the cache.
inline constexpr std::size_t prefetch_distance = 4;

} // namespace skillmd::detail

#endif
