// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
// Test that header file is self-contained.
#include <skillmd/model/diagnostic.hpp>

#include <boost/test/unit_test.hpp>

BOOST_AUTO_TEST_SUITE(diagnostic)

BOOST_AUTO_TEST_CASE(compiler_style_text)
{
    skillmd::diagnostic const d{"yaml-anchor", skillmd::severity::error, "a/SKILL.md", 3, 7, "anchors are not supported"};
    BOOST_TEST(skillmd::to_text(d) == "a/SKILL.md:3:7: error: [yaml-anchor] anchors are not supported");
    skillmd::diagnostic const whole{"io-error", skillmd::severity::error, "x", 0, 0, "cannot read"};
    BOOST_TEST(skillmd::to_text(whole) == "x: error: [io-error] cannot read");
}

BOOST_AUTO_TEST_CASE(json_escapes_everything_it_embeds)
{
    skillmd::diagnostic const d{"c", skillmd::severity::warning, "dir \"q\"\\f", 1, 2, "tab\there\nnl \x01 \xff"};
    std::string out;
    skillmd::write_json(out, d, true);
    BOOST_TEST(out == R"({"file": "dir \"q\"\\f", "line": 1, "column": 2, "severity": "warning", "code": "c", )"
                      R"("message": "tab\there\nnl \u0001 \ufffd"})");
}

BOOST_AUTO_TEST_CASE(has_error_ignores_warnings)
{
    std::vector<skillmd::diagnostic> ds{{"w", skillmd::severity::warning, "f", 1, 1, "m"}};
    BOOST_TEST(!skillmd::has_error(ds));
    ds.push_back({"e", skillmd::severity::error, "f", 1, 1, "m"});
    BOOST_TEST(skillmd::has_error(ds));
}

BOOST_AUTO_TEST_SUITE_END()
