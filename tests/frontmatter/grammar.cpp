// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
//
// The X3 frontmatter grammar, construct by construct: what it accepts and the exact
// tree it builds, and what it refuses, with which code and where.

#include "../support/test_support.hpp"

#include <boost/test/unit_test.hpp>

#include <memory>
#include <ostream>
#include <string>
#include <thread>
#include <vector>

namespace fm = skillmd::frontmatter;

namespace {

struct accept_case
{
    char const* yaml;
    char const* json;
};

struct refuse_case
{
    char const* yaml;
    char const* code;
    unsigned line, column;
};

accept_case const accepted[] = {
    {"name: pdf\ndescription: Reads PDFs\n", R"({"name": "pdf", "description": "Reads PDFs"})"},
    {"a: 1\nb: true\nc: ~\nd:\n", R"({"a": "1", "b": "true", "c": "~", "d": ""})"},
    {"k: a:b c#d http://x.y/z\n", R"({"k": "a:b c#d http://x.y/z"})"},
    {"k: text # comment\n# whole line\n", R"({"k": "text"})"},
    {"k: v   \n", R"({"k": "v"})"},
    {"k : v\n", R"({"k": "v"})"},
    {"k:\tv\n", R"({"k": "v"})"},
    {"k: one\n  two\n\n  three\n", R"({"k": "one two\nthree"})"},
    {"k:\n  one\n  two\n", R"({"k": "one two"})"},
    {"k: one\n   two  \n    three\nn: x\n", R"({"k": "one two three", "n": "x"})"},
    {"'q k': 1\n\"d k\": 2\n", R"({"q k": "1", "d k": "2"})"},
    {"k: 'it''s'\n", R"({"k": "it's"})"},
    {"k: \"a\\tb\\n\\\"\\\\\\u00e9\\x41\\U0001F600\\/\"\n", "{\"k\": \"a\\tb\\n\\\"\\\\\xC3\xA9" "A\xF0\x9F\x98\x80/\"}"},
    {"k: \"one\n  two\n\n  three\"\n", R"({"k": "one two\nthree"})"},
    {"k: \"one \\\n  two\"\n", R"({"k": "one two"})"},
    {"k: 'one   \n   two'\n", R"({"k": "one two"})"},
    {"k: |\n  line 1\n   line 2\n\n  end\n", R"({"k": "line 1\n line 2\n\nend\n"})"},
    {"k: |-\n  a\n\n", R"({"k": "a"})"},
    {"k: |+\n  a\n\n", R"({"k": "a\n\n"})"},
    {"k: >\n  a\n  b\n\n  c\n    d\n  e\n", R"({"k": "a b\nc\n  d\ne\n"})"},
    {"k: >-\n  folded\n  text\n", R"({"k": "folded text"})"},
    {"k: |2\n    two more\n", R"({"k": "  two more\n"})"},
    {"k: |-2\n   x\n", R"({"k": " x"})"},
    {"k: | # comment\n  x\nn: y\n", R"({"k": "x\n", "n": "y"})"},
    {"k: |\nn: y\n", R"({"k": "", "n": "y"})"},
    {"l:\n- a\n- b\n", R"({"l": ["a", "b"]})"},
    {"l:\n  - a\n  -   b\n  -\n", R"({"l": ["a", "b", ""]})"},
    {"l:\n  - n: 1\n    m: 2\n  - n: 3\n", R"({"l": [{"n": "1", "m": "2"}, {"n": "3"}]})"},
    {"l:\n  - - a\n    - b\n  - c\n", R"({"l": [["a", "b"], "c"]})"},
    {"l:\n  - b\n   - c\n", R"({"l": ["b - c"]})"},
    {"- a\n- b\n", R"(["a", "b"])"},
    {"just text\n", R"("just text")"},
    {"m:\n  n:\n    o: deep\n  p: q\n", R"({"m": {"n": {"o": "deep"}, "p": "q"}})"},
    {"f: [a, \"b, c\", 'd', [e], {x: y}]\n", R"({"f": ["a", "b, c", "d", ["e"], {"x": "y"}]})"},
    {"f: [a, b,]\n", R"({"f": ["a", "b"]})"},
    {"f: [TODO: x, \"k\":v, e: ]\n", R"({"f": [{"TODO": "x"}, {"k": "v"}, {"e": ""}]})"},
    {"f: []\ng: {}\n", R"({"f": [], "g": {}})"},
    {"f: [a b, c]\n", R"({"f": ["a b", "c"]})"},
    {"f: [\n  a,\n  b # c\n  ]\n", R"({"f": ["a", "b"]})"},
    {"f: {\"a\":\"b\", c: , d}\n", ""},
    {"f: {\"a\":\"b\", c: }\n", R"({"f": {"a": "b", "c": ""}})"},
    {"f: [http://x, a:b]\n", R"({"f": ["http://x", "a:b"]})"},
    {"k: -1\nj: -x\nh: ?x\ni: :x\n", R"({"k": "-1", "j": "-x", "h": "?x", "i": ":x"})"},
    {"k: a\r\nl: b\r\n", R"({"k": "a", "l": "b"})"},
    {"# only a comment\n", "null"},
    {"", "null"},
    {"k: caf\xC3\xA9 \xE2\x9C\x93\n", "{\"k\": \"caf\xC3\xA9 \xE2\x9C\x93\"}"},
};

refuse_case const refused[] = {
    {"a: &x 1\n", "yaml-anchor", 1, 4},
    {"a: *x\n", "yaml-alias", 1, 4},
    {"a: !str 1\n", "yaml-tag", 1, 4},
    {"<<: {a: b}\n", "yaml-merge-key", 1, 1},
    {"%YAML 1.2\n---\na: b\n", "yaml-directive", 1, 1},
    {"a: b\n...\n", "yaml-multiple-documents", 2, 1},
    {"a: b\n---\nc: d\n", "yaml-multiple-documents", 2, 1},
    {"a:\n\tb: c\n", "yaml-tab-indentation", 2, 1},
    {"a: 1\nb: 2\na: 3\n", "yaml-duplicate-key", 3, 1},
    {"f: {a: 1, a: 2}\n", "yaml-duplicate-key", 1, 11},
    {"? a\n: b\n", "yaml-complex-key", 1, 1},
    {"[a]: b\n", "yaml-complex-key", 1, 1},
    {"description: Use when: the user asks\n", "yaml-colon-in-plain", 1, 22},
    {"a: b\n  c: d\n", "yaml-colon-in-plain", 2, 4},
    {"a: b\n   c\n d: e\n", "yaml-colon-in-plain", 3, 3},
    {"a:\n  b: 1\n   c: 2\n", "yaml-colon-in-plain", 3, 5},
    {"a:\n  b:\n   - c\n  d: 2\n   e: 3\n", "yaml-colon-in-plain", 5, 5},
    {"a:\n  b:\n    c: 1\n   d: 2\n", "yaml-indentation", 4, 4},
    {"k: [\n  a\n]\n", "yaml-indentation", 3, 1},
    {"a: \"open\n", "yaml-unterminated", 1, 4},
    {"a: [x, y\n", "yaml-unterminated", 1, 4},
    {"a: \"\\q\"\n", "yaml-escape", 1, 5},
    {"a: \"\\ud800\"\n", "yaml-escape", 1, 5},
    {"a: - b\n", "yaml-syntax", 1, 4},
    {"a: b\n- c\n", "yaml-syntax", 2, 1},
    {"a: b\nplain line\n", "yaml-syntax", 2, 1},
    {"a: \"x\" y\n", "yaml-syntax", 1, 8},
    {"a: @x\n", "yaml-reserved-indicator", 1, 4},
    {"a: `x`\n", "yaml-reserved-indicator", 1, 4},
    {"a: [[a]: b]\n", "yaml-complex-key", 1, 5},
    {"a: [-]\n", "yaml-syntax", 1, 5},
    {"- \t- a\n", "yaml-tab-indentation", 1, 2},
    {"k: |\n\t\nn: 1\n", "yaml-tab-indentation", 2, 1},
    {"a: b\x01\n", "yaml-control-character", 1, 5},
    {"a: caf\xC3\n", "utf8-invalid", 1, 7},
    {"a: b\rc: d\n", "", 0, 0},
};

} // namespace

BOOST_AUTO_TEST_SUITE(grammar)

// Plain loops rather than BOOST_DATA_TEST_CASE: gcc 12 raises a false -Wrestrict
// inside Boost.Test's generated case names.
BOOST_AUTO_TEST_CASE(accepts_the_subset)
{
    for (auto const& c : accepted) BOOST_TEST_CONTEXT("yaml: " << c.yaml) {
    auto const r = skillmd::test::parse(c.yaml);
    if (std::string_view(c.json).empty()) {
        BOOST_TEST(!r.ok()); // listed to pin down that `{c: , d}` (a key without `:`) is refused
        continue;
    }
    BOOST_TEST(r.ok(), skillmd::test::first_error(r.diagnostics) << " "
                           << (r.diagnostics.empty() ? "" : r.diagnostics[0].message));
    BOOST_TEST(skillmd::test::json(r) == c.json);
    }
}

BOOST_AUTO_TEST_CASE(refuses_with_a_named_diagnostic)
{
    for (auto const& c : refused) BOOST_TEST_CONTEXT("yaml: " << c.yaml) {
    auto const r = skillmd::test::parse(c.yaml);
    if (std::string_view(c.code).empty()) {
        // A lone CR is a YAML line break: `a: b` and `c: d` on two lines.
        BOOST_TEST(skillmd::test::json(r) == R"({"a": "b", "c": "d"})");
        continue;
    }
    BOOST_TEST(!r.ok(), "accepted as " << skillmd::test::json(r));
    if (r.diagnostics.size() != 1u) {
        BOOST_TEST(r.diagnostics.size() == 1u);
        continue;
    }
    auto const& d = r.diagnostics[0];
    BOOST_TEST(d.code == c.code);
    BOOST_TEST((d.severity == skillmd::severity::error));
    BOOST_TEST(d.line == c.line);
    BOOST_TEST(d.column == c.column);
    BOOST_TEST(!d.message.empty());
    }
}

BOOST_AUTO_TEST_CASE(fast_plain_line_matches_its_x3_definition)
{
    // Random lines over the characters that matter, both contexts; lengths from 0 to 40
    // so that the sixteen-byte blocks, their tails and every boundary are covered.
    static constexpr char alphabet[] = "ab :#\t\n\r,[]{}-\xC3\xA9";
    std::uint32_t seed = 12345;
    auto next = [&] { return seed = seed * 1664525u + 1013904223u; };
    for (int round = 0; round < 200000; ++round) {
        std::string line;
        std::size_t const len = next() % 41;
        for (std::size_t i = 0; i < len; ++i) line += alphabet[(next() >> 8) % (sizeof(alphabet) - 1)];
        for (bool flow : {false, true}) {
            auto const fast = skillmd::test::plain_line_length(line, flow, false);
            auto const def = skillmd::test::plain_line_length(line, flow, true);
            if (fast != def) {
                BOOST_TEST(fast == def, "flow=" << flow << " line=[" << line << "]");
                return;
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(fast_quoted_runs_match_their_x3_definition)
{
    // As above, for the runs inside quotes that need no decoding.
    static constexpr char alphabet[] = "ab \"'\\\t\n\r#:\xC3\xA9";
    std::uint32_t seed = 777;
    auto next = [&] { return seed = seed * 1664525u + 1013904223u; };
    for (int round = 0; round < 200000; ++round) {
        std::string run;
        std::size_t const len = next() % 41;
        for (std::size_t i = 0; i < len; ++i)
            run += (next() >> 8) % 4 ? 'a' : alphabet[(next() >> 8) % (sizeof(alphabet) - 1)];
        for (bool dq : {false, true}) {
            auto const fast = skillmd::test::quoted_run_length(run, dq, false);
            auto const def = skillmd::test::quoted_run_length(run, dq, true);
            if (fast != def) {
                BOOST_TEST(fast == def, "double=" << dq << " run=[" << run << "]");
                return;
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(every_character_is_checked_wherever_it_falls)
{
    // The character check reads sixteen bytes at a time and a text's last bytes as one
    // block overlapping the one before: what it refuses or lets through, and where it
    // says so, must not depend on where a byte falls. Values of 1 to 70 characters, a
    // byte put at each place in turn.
    for (std::size_t length = 1; length <= 70; ++length) {
        std::string const value(length, 'a');
        std::string const plain = "k: " + value + "\n";
        for (std::size_t at = 0; at < length; ++at) {
            for (std::string_view const bad : {std::string_view("\x01"), std::string_view("\x7f"),
                                               std::string_view("\xc2\x80"), std::string_view("\x1b")}) {
                std::string text = plain;
                text.replace(3 + at, 1, bad);
                BOOST_TEST_CONTEXT("length " << length << ", byte " << at) {
                    auto const r = skillmd::test::parse(text);
                    BOOST_TEST(!r.ok());
                    BOOST_TEST_REQUIRE(r.diagnostics.size() == 1u);
                    BOOST_TEST(r.diagnostics[0].code == "yaml-control-character");
                    BOOST_TEST(r.diagnostics[0].line == 1u);
                    BOOST_TEST(r.diagnostics[0].column == 4 + at);
                }
            }
            std::string text = plain;
            text.replace(3 + at, 1, "\xc3\xa9"); // é: looked at closer, and let through
            BOOST_TEST_CONTEXT("length " << length << ", e-acute at " << at) {
                auto const r = skillmd::test::parse(text);
                BOOST_TEST_REQUIRE(r.ok());
                auto const k = r.doc->root().find("k");
                BOOST_TEST_REQUIRE(k.has_value());
                BOOST_TEST(k->value() == text.substr(3, length + 1));
            }
        }
        // A tab after the colon and CRLF line ends pass, wherever they fall.
        BOOST_TEST_CONTEXT("length " << length) {
            BOOST_TEST(skillmd::test::json(skillmd::test::parse("k:\t" + value + "\r\n")) ==
                       skillmd::test::json(skillmd::test::parse(plain)));
        }
    }
}

BOOST_AUTO_TEST_CASE(positions_refer_to_the_file)
{
    auto const r = skillmd::test::parse("name: x\nlist:\n  - caf\xC3\xA9: \"v\"\n", {}, 2);
    BOOST_TEST_REQUIRE(r.ok());
    auto const root = r.doc->root();
    BOOST_TEST(root.line() == 2u);
    auto const list = *root.find("list");
    BOOST_TEST(list.line() == 4u);
    BOOST_TEST(list.column() == 3u);
    auto const entry = *list.begin();
    auto const value = *entry.find("caf\xC3\xA9");
    BOOST_TEST(value.line() == 4u);
    BOOST_TEST(value.column() == 11u); // code points, not bytes
    BOOST_TEST((value.style() == fm::scalar_style::double_quoted));
}

BOOST_AUTO_TEST_CASE(styles_are_remembered)
{
    auto const r = skillmd::test::parse("a: x\nb: 'x'\nc: \"x\"\nd: |\n  x\ne: >\n  x\n");
    BOOST_TEST_REQUIRE(r.ok());
    auto const root = r.doc->root();
    BOOST_TEST((root.find("a")->style() == fm::scalar_style::plain));
    BOOST_TEST((root.find("b")->style() == fm::scalar_style::single_quoted));
    BOOST_TEST((root.find("c")->style() == fm::scalar_style::double_quoted));
    BOOST_TEST((root.find("d")->style() == fm::scalar_style::literal));
    BOOST_TEST((root.find("e")->style() == fm::scalar_style::folded));
    BOOST_TEST(!root.find("missing"));
}

BOOST_AUTO_TEST_CASE(lenient_recovery_takes_the_rest_of_the_line_with_a_warning)
{
    fm::parse_options o;
    o.recover_colon_in_plain = true;
    auto const r = skillmd::test::parse("name: x\ndescription: Use when: the user asks  \nn: y\n", o, 2);
    BOOST_TEST_REQUIRE(r.ok());
    BOOST_TEST(skillmd::test::json(r) == R"({"name": "x", "description": "Use when: the user asks", "n": "y"})");
    BOOST_TEST_REQUIRE(r.diagnostics.size() == 1u);
    BOOST_TEST(r.diagnostics[0].code == "yaml-colon-in-plain");
    BOOST_TEST((r.diagnostics[0].severity == skillmd::severity::warning));
    BOOST_TEST(r.diagnostics[0].line == 3u);
}

// The reader stops at its first refusal: with two problems in a block, the one met first
// in reading order is reported, at its line, and nothing after it. The character check
// reads the whole text before the structure, so its refusals come first.
BOOST_AUTO_TEST_CASE(the_first_refusal_is_the_one_reported)
{
    struct case_
    {
        char const* yaml;
        char const* code;
        std::uint32_t line;
    };
    case_ const cases[] = {
        {"a: 1\na: 2\nb: \"never closed\n", "yaml-duplicate-key", 2},
        {"k: \"\\q\"\nk: 2\n", "yaml-escape", 1},
        {"list:\n  - &a x\n  - *a\n", "yaml-anchor", 2},
        {"k: {a: 1, a: 2, [x]: 3}\n", "yaml-duplicate-key", 1},
        {"k: [1, {a: 1, a: 2}, &x]\n", "yaml-duplicate-key", 1},
        {"k: |\n  text\n\tx: 1\nk: 2\n", "yaml-tab-indentation", 3},
        {"a:\n  b: [1]\n   c: 2\nd: &e f\n", "yaml-indentation", 3},
        {"a:\n  b: 1\n   c: 2\nd: &e f\n", "yaml-colon-in-plain", 3}, // `c: 2` continues the value `1`
        {"a: 1\na: 2\nb: \x01\n", "yaml-control-character", 3},
        {"a: 1\n---\nb: *x\n", "yaml-multiple-documents", 2},
    };
    for (auto const& c : cases) {
        auto const r = skillmd::test::parse(c.yaml);
        BOOST_TEST(!r.ok(), c.yaml);
        BOOST_TEST_REQUIRE(r.diagnostics.size() == 1u, c.yaml);
        BOOST_TEST(r.diagnostics[0].code == c.code, c.yaml);
        BOOST_TEST(r.diagnostics[0].line == c.line, c.yaml);
    }
}

// Refusals anywhere in the structure leave nothing half-built behind: random edits of
// blocks that use every construct parse to a document or to exactly one error, the same
// one each time (the sanitizer builds run this too).
BOOST_AUTO_TEST_CASE(random_edits_give_a_document_or_one_error)
{
    std::string const seeds[] = {
        "name: demo\ndescription: \"quoted \\u00e9 and \\\"escapes\\\"\"\nmetadata:\n  a: 1\n  b: [x, 'y z', {k: v}]\n"
        "allowed-tools:\n  - Read\n  - Bash(git:*)\nnotes: |\n  literal\n   kept\nfolded: >-\n  one\n  two\n",
        "k: {a: [1, 2], b: \"two\n  lines\"}\nplain: a value that\n  goes on\nlist:\n- a\n- b: c\n  d: e\n",
        "x: '\xc3\xa9t\xc3\xa9 ''quoted'''\ny: \xe4\xb8\xad\xe6\x96\x87 text\nz:\n  - - nested\n    - deeper\n",
    };
    char const* const pieces[] = {"\t", ":", ": ", "[", "]", "{", "}", "\"", "'", "\\", "- ", "&a ", "*a", "!t ",
                                  "%", "@", "`", "? ", "|", ">", "#", "\n", "\r\n", "---\n", "\n  ", "\n    - ",
                                  ",", "\x01", "\xc3", "\xc2\x80", "\xef\xbf\xbe", "\n<<: x\n", "a: b: c"};
    std::uint32_t rng = 2463534242u;
    auto next = [&] {
        rng ^= rng << 13;
        rng ^= rng >> 17;
        rng ^= rng << 5;
        return rng;
    };
    std::size_t refused = 0, accepted = 0;
    for (std::size_t n = 0; n < 3000; ++n) {
        std::string s = seeds[n % std::size(seeds)];
        for (std::uint32_t edits = 1 + next() % 3; edits-- > 0;) {
            std::size_t const at = next() % (s.size() + 1);
            if (next() % 3 == 0) s.erase(at, 1 + next() % 3);
            else s.insert(at, pieces[next() % std::size(pieces)]);
        }
        auto const r = skillmd::test::parse(s);
        auto const again = skillmd::test::parse(s);
        std::size_t errors = 0;
        for (auto const& d : r.diagnostics) errors += d.severity == skillmd::severity::error;
        if (r.ok()) {
            ++accepted;
            BOOST_TEST(errors == 0u, s);
            BOOST_TEST(skillmd::test::json(r) == skillmd::test::json(again), s);
        } else {
            ++refused;
            BOOST_TEST(errors == 1u, s);
            BOOST_TEST(skillmd::test::first_error(r.diagnostics) == skillmd::test::first_error(again.diagnostics), s);
            BOOST_TEST(r.diagnostics.back().line == again.diagnostics.back().line, s);
        }
    }
    BOOST_TEST(refused > 500u); // both outcomes are exercised
    BOOST_TEST(accepted > 500u);
}

BOOST_AUTO_TEST_CASE(depth_limit_gives_a_diagnostic_not_a_crash)
{
    std::string deep;
    for (int i = 0; i < 100000; ++i) deep += '[';
    auto const r = skillmd::test::parse("k: " + deep + "\n");
    BOOST_TEST(!r.ok());
    BOOST_TEST(skillmd::test::first_error(r.diagnostics) == "yaml-depth-limit");

    std::string nested;
    for (int i = 0; i < 70; ++i) nested += std::string(static_cast<std::size_t>(i) * 2, ' ') + "k:\n";
    BOOST_TEST(skillmd::test::first_error(skillmd::test::parse(nested).diagnostics) == "yaml-depth-limit");
    fm::parse_options o;
    o.max_depth = 100;
    BOOST_TEST(skillmd::test::parse(nested, o).ok());
}

BOOST_AUTO_TEST_CASE(size_limit_refuses_before_reading)
{
    fm::parse_options o;
    o.max_bytes = 10;
    auto const r = skillmd::test::parse("name: something longer\n", o);
    BOOST_TEST(!r.ok());
    BOOST_TEST(skillmd::test::first_error(r.diagnostics) == "frontmatter-too-large");
}

BOOST_AUTO_TEST_CASE(many_keys_stay_fast_and_duplicates_are_still_found)
{
    std::string big;
    for (int i = 0; i < 20000; ++i) big += "key" + std::to_string(i) + ": v\n";
    fm::parse_options o;
    o.max_bytes = 1 << 20;
    BOOST_TEST(skillmd::test::parse(big, o).ok());
    big += "key777: again\n";
    BOOST_TEST(skillmd::test::first_error(skillmd::test::parse(big, o).diagnostics) == "yaml-duplicate-key");
}

BOOST_AUTO_TEST_CASE(whole_file_reading_splits_then_parses)
{
    auto const f = skillmd::test::read("---\nname: a\nbad: [\n---\nbody", "s/SKILL.md");
    BOOST_TEST(!f.frontmatter);
    BOOST_TEST_REQUIRE(!f.diagnostics.empty());
    BOOST_TEST(f.diagnostics[0].file == "s/SKILL.md");
    BOOST_TEST(f.diagnostics[0].line == 3u);
    BOOST_TEST(f.body_offset == 23u);
}

BOOST_AUTO_TEST_CASE(a_document_built_in_the_room_of_one_gone_before_holds_only_its_own)
{
    // A document that dies leaves its buffers (text, nodes, decoded scalars) to the next
    // one built on its thread. Each text must read, in any order after any other, as it
    // reads parsed alone on a fresh thread: its tree, every node's line and column, its
    // refusal; and so must a document kept while others come and go, and one destroyed on
    // another thread.
    std::string big = "description: \"" + std::string(3000, 'x') + "\\t\\u00e9 \\\"q\\\"\"\nlist:\n";
    for (int i = 0; i < 200; ++i) big.append("  - item ").append(std::to_string(i)).append("\n");
    std::vector<std::string> const texts = {
        big,
        "a: >\n  folded\n  text\nb: |\n  kept\n\n",
        "name: [broken\n",
        "k: v\n",
        "q: 'it''s'\nd: \"caf\\u00e9\\n\"\n",
        "",
        "# only a comment\n",
        "x: 1\nx: 2\n",
    };
    auto const describe = [](skillmd::frontmatter::parse_result const& r) {
        std::string out = skillmd::test::json(r);
        for (auto const& d : r.diagnostics)
            out.append(" ").append(d.code).append(":").append(std::to_string(d.line)).append(":").append(std::to_string(d.column));
        if (r.doc) out.append(" nodes ").append(std::to_string(r.doc->node_count())).append(" text ").append(r.doc->text());
        if (r.doc && !r.doc->empty()) {
            std::vector<skillmd::frontmatter::document::node_ref> todo{r.doc->root()};
            while (!todo.empty()) {
                auto const n = todo.back();
                todo.pop_back();
                out.append(" @").append(std::to_string(n.line())).append(":").append(std::to_string(n.column()));
                for (auto c : n) todo.push_back(c);
            }
        }
        return out;
    };
    std::vector<std::string> alone(texts.size());
    for (std::size_t i = 0; i < texts.size(); ++i)
        std::thread([&, i] { alone[i] = describe(skillmd::test::parse(texts[i])); }).join();
    BOOST_TEST(alone[2].find("yaml-") != std::string::npos); // the refusal is a refusal
    for (int round = 0; round < 3; ++round) {
        for (std::size_t i = 0; i < texts.size(); ++i) BOOST_TEST(describe(skillmd::test::parse(texts[i])) == alone[i], i);
        for (std::size_t i = texts.size(); i-- > 0;) BOOST_TEST(describe(skillmd::test::parse(texts[i])) == alone[i], i);
    }
    auto const kept = skillmd::test::parse(texts[0]);
    for (std::size_t i = 1; i < texts.size(); ++i) BOOST_TEST(describe(skillmd::test::parse(texts[i])) == alone[i], i);
    BOOST_TEST(describe(kept) == alone[0]);
    auto elsewhere = std::make_unique<skillmd::frontmatter::parse_result>(skillmd::test::parse(texts[0]));
    std::thread([&] { elsewhere.reset(); }).join();
    for (std::size_t i = 0; i < texts.size(); ++i) BOOST_TEST(describe(skillmd::test::parse(texts[i])) == alone[i], i);
}

BOOST_AUTO_TEST_SUITE_END()
