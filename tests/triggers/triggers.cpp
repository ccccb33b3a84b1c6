// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
// Test that header file is self-contained.
#include <skillmd/triggers/matcher.hpp>

#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

using skillmd::trigger_matcher;
using ids = std::vector<std::size_t>;

namespace {

trigger_matcher make(std::vector<std::pair<std::string, std::size_t>> const& phrases)
{
    trigger_matcher m;
    for (auto const& [p, id] : phrases) m.add(p, id);
    m.build();
    return m;
}

} // namespace

BOOST_AUTO_TEST_SUITE(triggers)

BOOST_AUTO_TEST_CASE(whole_words_any_case)
{
    auto const m = make({{"review", 1}, {"code review", 2}, {"PR review", 3}, {"deploy", 4}});
    BOOST_TEST((m.match("Can you do a Code   Review of this?") == ids{1, 2}));
    BOOST_TEST((m.match("pr REVIEW please") == ids{1, 3}));
    BOOST_TEST((m.match("the reviewer and the preview") == ids{}));   // not whole words
    BOOST_TEST((m.match("review.") == ids{1}));                        // punctuation is a boundary
    BOOST_TEST((m.match("redeploy, deploying, deploy_x") == ids{}));
    BOOST_TEST((m.match("") == ids{}));
}

BOOST_AUTO_TEST_CASE(latin1_letters_fold_and_are_word_characters)
{
    auto const m = make({{"\xC3\x89T\xC3\x89", 1}, {"caf\xC3\xA9", 2}}); // "ÉTÉ", "café"
    BOOST_TEST((m.match("un bel \xC3\xA9t\xC3\xA9") == ids{1}));       // "été"
    BOOST_TEST((m.match("CAF\xC3\x89 noir") == ids{2}));               // "CAFÉ"
    BOOST_TEST((m.match("cafés") == ids{}));                           // é then s: still one word
}

BOOST_AUTO_TEST_CASE(overlapping_and_nested_phrases)
{
    auto const m = make({{"he", 1}, {"she", 2}, {"his", 3}, {"hers", 4}, {"ushers", 5}});
    BOOST_TEST((m.match("ushers") == ids{5}));
    BOOST_TEST((m.match("she said hers is his") == ids{2, 3, 4}));
    BOOST_TEST((m.match("he") == ids{1}));
}

BOOST_AUTO_TEST_CASE(phrases_with_punctuation_and_empty_ones)
{
    auto const m = make({{"c++", 1}, {"  ", 2}, {"", 3}, {"node.js", 4}});
    BOOST_TEST((m.match("write some C++ code") == ids{1}));
    BOOST_TEST((m.match("node.js and c++") == ids{1, 4}));
    BOOST_TEST((m.match("   ") == ids{}));
}

BOOST_AUTO_TEST_CASE(ten_thousand_phrases_in_one_pass)
{
    trigger_matcher m;
    for (std::size_t i = 0; i < 10000; ++i) m.add("topic " + std::to_string(i), i);
    m.build();
    std::string message;
    for (int i = 0; i < 200; ++i) message += "some words about topic 4242 and topic 17 today. ";
    BOOST_TEST((m.match(message) == ids{17, 4242}));
    BOOST_TEST((m.match("topic 42424") == ids{})); // "topic 4242" is not a whole word there
}

// Phrases nested in one another end at every position of a long message of their word:
// each skill is listed once as found, not once a position (which held 300 x 20,000 ids).
BOOST_AUTO_TEST_CASE(phrases_nested_in_one_another_list_each_skill_once)
{
    trigger_matcher m;
    std::string phrase = "a";
    ids want;
    for (std::size_t i = 0; i < 300; ++i, phrase += " a") {
        m.add(phrase, i % 100); // three phrases a skill
        if (i < 100) want.push_back(i);
    }
    m.build();
    std::string message;
    for (int i = 0; i < 20000; ++i) message += "a ";
    BOOST_TEST(m.match(message) == want, boost::test_tools::per_element());
    // Ids a caller chose far apart: no table as large as the largest.
    auto const sparse = make({{"x", 5}, {"y", std::size_t{1} << 50}, {"x y", std::size_t{1} << 50}});
    BOOST_TEST((sparse.match("y x y x") == ids{5, std::size_t{1} << 50}));
}

BOOST_AUTO_TEST_CASE(invalid_utf8_in_the_message_is_harmless)
{
    auto const m = make({{"ok", 1}});
    BOOST_TEST((m.match("\xff ok \xfe") == ids{1}));
}

BOOST_AUTO_TEST_SUITE_END()
