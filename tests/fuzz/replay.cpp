// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
//
// Replays the fuzzer's saved corpus and every crash reproducer through the same
// code the fuzz target runs, so a fixed crash stays fixed in every build.

#include "../support/test_support.hpp"
#include "exercise_prompt.hpp"
#include "exercise_store.hpp"

#include <boost/test/unit_test.hpp>

#include <filesystem>

namespace skillmd::test {
void exercise(std::string_view data);
}

BOOST_AUTO_TEST_SUITE(fuzz_replay)

BOOST_AUTO_TEST_CASE(saved_corpus_and_reproducers)
{
    namespace fs = std::filesystem;
    std::size_t n = 0;
    for (char const* dir : {"corpus", "crashes"}) {
        fs::path const root = skillmd::test::source_dir() / "tests" / "fuzz" / dir;
        if (!fs::exists(root)) continue;
        for (auto const& e : fs::directory_iterator(root)) {
            if (!e.is_regular_file() || e.path().filename() == "README.md") continue;
            skillmd::test::exercise(skillmd::test::slurp(e.path()));
            ++n;
        }
    }
    BOOST_TEST_MESSAGE("replayed " << n << " fuzz inputs");
    BOOST_TEST(n >= 50u, "the fuzz seed corpus is missing");
}

BOOST_AUTO_TEST_CASE(prompt_corpus)
{
    namespace fs = std::filesystem;
    std::size_t n = 0;
    fs::path const root = skillmd::test::source_dir() / "tests" / "fuzz" / "corpus_prompt";
    for (auto const& e : fs::directory_iterator(root)) {
        if (!e.is_regular_file()) continue;
        skillmd::fuzz::exercise_prompt(skillmd::test::slurp(e.path()));
        ++n;
    }
    BOOST_TEST_MESSAGE("replayed " << n << " prompt fuzz inputs");
    BOOST_TEST(n >= 50u, "the prompt fuzz corpus is missing");
}

BOOST_AUTO_TEST_CASE(store_corpus)
{
    namespace fs = std::filesystem;
    std::size_t n = 0;
    fs::path const root = skillmd::test::source_dir() / "tests" / "fuzz" / "corpus_store";
    for (auto const& e : fs::directory_iterator(root)) {
        if (!e.is_regular_file()) continue;
        skillmd::fuzz::exercise_store(skillmd::test::slurp(e.path()));
        ++n;
    }
    BOOST_TEST_MESSAGE("replayed " << n << " database fuzz inputs");
    BOOST_TEST(n >= 3u, "the database fuzz corpus is missing");
}

BOOST_AUTO_TEST_SUITE_END()
