// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_TESTS_FUZZ_EXPECT_HPP
#define SKILLMD_TESTS_FUZZ_EXPECT_HPP

#include <cstdlib>

namespace skillmd::fuzz {

/// An invariant of a fuzz target: broken, the run aborts, which libFuzzer reports and
/// the replay test fails on.
inline void expect(bool ok)
{
    if (!ok) std::abort();
}

} // namespace skillmd::fuzz

#endif
