// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
//
// Waiting for something to happen in a test: a bounded poll of a condition instead of a
// sleep that guesses how long it takes (too short on a loaded machine, wasted elsewhere).
#ifndef SKILLMD_TESTS_SUPPORT_WAIT_HPP
#define SKILLMD_TESTS_SUPPORT_WAIT_HPP

#include <chrono>
#include <thread>

namespace skillmd::test {

/// Polls `done()` every `step` until it holds (true) or `timeout` has passed (false, after
/// one last look). Callers fail the test with a message on false:
/// `BOOST_TEST_REQUIRE(test::wait_until([&] { return ...; }, 20s), "what never happened")`.
template <class Condition>
bool wait_until(Condition&& done, std::chrono::milliseconds timeout, std::chrono::milliseconds step = std::chrono::milliseconds(20))
{
    auto const until = std::chrono::steady_clock::now() + timeout;
    while (!done()) {
        if (std::chrono::steady_clock::now() >= until) return done();
        std::this_thread::sleep_for(step);
    }
    return true;
}

} // namespace skillmd::test

#endif
