// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_BENCHMARKS_PAIRED_HPP
#define SKILLMD_BENCHMARKS_PAIRED_HPP

// Two ways of doing one job timed in pairs, one right after the other: on a shared
// machine whose speed drifts over seconds, two benchmarks run apart see different
// machines, while the two halves of a pair see nearly the same one.

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <vector>

namespace skillmd::bench {

/// The milliseconds of each side of each pair, in order.
struct pairs
{
    std::vector<double> a, b;

    /// One pair: `a` then `b`, or `b` first every other pair, so that neither side always
    /// inherits the other's caches. `warm`: each side runs once untimed before its timed run.
    template <class A, class B>
    void run(A&& fa, B&& fb, bool warm = false)
    {
        auto const timed = [warm](auto&& f) {
            if (warm) f();
            auto const start = std::chrono::steady_clock::now();
            f();
            return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        };
        bool const b_first = a.size() % 2 == 1;
        if (b_first) b.push_back(timed(fb));
        a.push_back(timed(fa));
        if (!b_first) b.push_back(timed(fb));
    }

    /// Pairs in which `b` took no longer than `a`.
    std::size_t b_not_slower() const
    {
        std::size_t n = 0;
        for (std::size_t i = 0; i < a.size(); ++i) n += b[i] <= a[i];
        return n;
    }
};

/// The median of `v` (the upper one of an even count); 0 when empty.
inline double median(std::vector<double> v)
{
    if (v.empty()) return 0.0;
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
    return v[v.size() / 2];
}

} // namespace skillmd::bench

#endif
