// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
// Test that header file is self-contained.
#include <skillmd/frontmatter/line_parser.hpp>

#include <boost/test/unit_test.hpp>

// Claude Code's line parser, quirk by quirk, as its design describes it (golden cases).
// The corpus-wide comparison with that algorithm is the claude_code_line_parser_reference test.

namespace fm = skillmd::frontmatter;

namespace {

struct golden
{
    char const* file;
    char const* json;        // the frontmatter as `skillmd parse` prints it; "null" when none
    std::size_t body_offset;
};

golden const cases[] = {
    // no nesting: an indented key is a top-level key, list items vanish
    {"---\nname: a\nmetadata:\n  owner: me\ntools:\n  - Read\n---\nbody",
     R"({"name": "a", "metadata": "", "owner": "me", "tools": ""})", 54},
    // the first colon splits: the rest of the line, colons and all, is the value
    {"---\ndescription: Use when: asked\nurl: http://x\n---\n", R"({"description": "Use when: asked", "url": "http://x"})", 51},
    // one quote character is dropped from each end, matched or not
    {"---\na: \"x\"\nb: 'y\"\nc: \"it's'\nd: \"\ne: ''\n---\n", R"({"a": "x", "b": "y", "c": "it's", "d": "", "e": ""})", 43},
    // a list written inline stays text
    {"---\nallowed-tools: [\"Read\", \"Grep\"]\n---\n", R"({"allowed-tools": "[\"Read\", \"Grep\"]"})", 40},
    // the block ends at the first `---` anywhere, even inside a value
    {"---\ndescription: before --- after\nname: x\n---\n", R"({"description": "before"})", 28},
    // later duplicates replace the value in place; integer-like keys come first
    {"---\nb: 1\n10: ten\na: 2\nb: 3\n2: two\n---\n", R"({"2": "two", "10": "ten", "b": "3", "a": "2"})", 38},
    // lines without a colon, or starting with one, are skipped; CRLF is trimmed away
    {"---\r\nname: crlf\r\n: nothing\r\nplain line\r\n---\r\nbody", R"({"name": "crlf"})", 45},
    // blank lines right after the opening dashes are skipped by `\s*\n`
    {"---\n\n\nname: a\n---\n\n\nbody", R"({"name": "a"})", 20},
    // JavaScript's `\s` is Unicode's: U+00A0 and U+3000 after a fence are white space too
    {"--- \xc2\xa0\nname: a\n---\xc2\xa0\n\xe3\x80\x80" "body", R"({"name": "a"})", 24},
    // body offsets agree with JavaScript running Claude Code's regex on the same text
    // no match: no frontmatter, the whole file is the body
    {"# Title\n", "null", 0},
    {"---\nname: never closed\n", "null", 0},
    {"\xEF\xBB\xBF---\nname: bom\n---\n", "null", 0},
};

} // namespace

BOOST_AUTO_TEST_SUITE(line_parser)

BOOST_AUTO_TEST_CASE(reads_the_way_seed_001_documents)
{
    fm::line_parser const p;
    for (auto const& c : cases) BOOST_TEST_CONTEXT("file: " << c.file) {
        auto const f = fm::read_skill_file(p, c.file, "SKILL.md");
        std::string json = "null";
        if (f.frontmatter && !f.frontmatter->empty()) {
            json.clear();
            fm::write_json(json, f.frontmatter->root());
        }
        BOOST_TEST(json == c.json);
        BOOST_TEST(f.body_offset == c.body_offset);
        BOOST_TEST(f.diagnostics.empty());
    }
}

BOOST_AUTO_TEST_CASE(positions_point_at_the_keys)
{
    auto const f = fm::read_skill_file(fm::line_parser{}, "---\nname: a\n  indented: b\n---\n", "SKILL.md");
    BOOST_TEST_REQUIRE(f.frontmatter.has_value());
    auto const indented = f.frontmatter->root().find("indented");
    BOOST_TEST_REQUIRE(indented.has_value());
    BOOST_TEST(indented->line() == 3u);
    BOOST_TEST(indented->column() == 13u);
}

BOOST_AUTO_TEST_SUITE_END()
