// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
//
// Replays the fuzzer's saved corpus and every crash reproducer through the same
// code the fuzz target runs, so a fixed crash stays fixed in every build.

#include "../support/test_support.hpp"
#include "exercise_mcp.hpp"
#include "exercise_packages.hpp"
#include "exercise_prompt.hpp"
#include "exercise_remote.hpp"
#include "exercise_store.hpp"

#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <initializer_list>
#include <string>

namespace skillmd::test {
void exercise(std::string_view data);
}

namespace {

/// Runs `exercise` over every file of the given folders of tests/fuzz (a missing folder
/// has none); returns how many.
template <class Exercise>
std::size_t replay(std::initializer_list<char const*> folders, Exercise exercise)
{
    namespace fs = std::filesystem;
    std::size_t n = 0;
    for (char const* dir : folders) {
        fs::path const root = skillmd::test::source_dir() / "tests" / "fuzz" / dir;
        if (!fs::exists(root)) continue;
        for (auto const& e : fs::directory_iterator(root)) {
            if (!e.is_regular_file() || e.path().filename() == "README.md") continue;
            exercise(skillmd::test::slurp(e.path()));
            ++n;
        }
    }
    return n;
}

} // namespace

BOOST_AUTO_TEST_SUITE(fuzz_replay)

BOOST_AUTO_TEST_CASE(saved_corpus_and_reproducers)
{
    auto const n = replay({"corpus", "crashes"}, [](std::string const& in) { skillmd::test::exercise(in); });
    BOOST_TEST_MESSAGE("replayed " << n << " fuzz inputs");
    BOOST_TEST(n >= 50u, "the fuzz seed corpus is missing");
}

BOOST_AUTO_TEST_CASE(prompt_corpus)
{
    auto const n = replay({"corpus_prompt"}, [](std::string const& in) { skillmd::fuzz::exercise_prompt(in); });
    BOOST_TEST_MESSAGE("replayed " << n << " prompt fuzz inputs");
    BOOST_TEST(n >= 50u, "the prompt fuzz corpus is missing");
}

BOOST_AUTO_TEST_CASE(slash_corpus)
{
    auto const n = replay({"corpus_slash"}, [](std::string const& in) { skillmd::fuzz::exercise_slash(in); });
    BOOST_TEST_MESSAGE("replayed " << n << " slash-command and substitution fuzz inputs");
    BOOST_TEST(n >= 50u, "the slash-command fuzz corpus is missing");
}

BOOST_AUTO_TEST_CASE(store_corpus)
{
    auto const n = replay({"corpus_store"}, [](std::string const& in) { skillmd::fuzz::exercise_store(in); });
    BOOST_TEST_MESSAGE("replayed " << n << " database fuzz inputs");
    BOOST_TEST(n >= 3u, "the database fuzz corpus is missing");
}

BOOST_AUTO_TEST_CASE(packages_corpus)
{
    auto const n = replay({"corpus_packages"}, [](std::string const& in) { skillmd::fuzz::exercise_packages(in); });
    BOOST_TEST_MESSAGE("packages corpus: " << n << " inputs");
    BOOST_TEST(n >= 20u, "the packages fuzz corpus is missing");
}

BOOST_AUTO_TEST_CASE(remote_corpus)
{
    auto const n = replay({"corpus_remote"}, [](std::string const& in) { skillmd::fuzz::exercise_remote(in); });
    BOOST_TEST(n > 0u);
}

BOOST_AUTO_TEST_CASE(mcp_corpus)
{
    auto const n = replay({"corpus_mcp"}, [](std::string const& in) { skillmd::fuzz::exercise_mcp(in); });
    BOOST_TEST_MESSAGE("replayed " << n << " protocol fuzz inputs");
    BOOST_TEST(n >= 10u, "the protocol fuzz corpus is missing");
}

BOOST_AUTO_TEST_CASE(tool_call_corpus)
{
    auto const n = replay({"corpus_tool_call"}, [](std::string const& in) { skillmd::fuzz::exercise_tool_call(in); });
    BOOST_TEST_MESSAGE("replayed " << n << " tool-call fuzz inputs");
    BOOST_TEST(n >= 10u, "the tool-call fuzz corpus is missing");
}

BOOST_AUTO_TEST_CASE(settings_corpus)
{
    auto const n = replay({"corpus_settings"}, [](std::string const& in) { skillmd::fuzz::exercise_settings(in); });
    BOOST_TEST_MESSAGE("replayed " << n << " settings fuzz inputs");
    BOOST_TEST(n >= 10u, "the settings fuzz corpus is missing");
}

BOOST_AUTO_TEST_SUITE_END()
