// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#include "test_support.hpp"

#include <skillmd/frontmatter/x3_parser.hpp>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>

namespace skillmd::test {

frontmatter::parse_result parse(std::string_view yaml, frontmatter::parse_options opts, std::uint32_t first_line)
{
    return frontmatter::x3_parser(opts).parse(yaml, "test.yaml", first_line);
}

frontmatter::skill_file read(std::string_view text, std::string_view origin, frontmatter::split_options opts)
{
    return frontmatter::read_skill_file(frontmatter::x3_parser{}, text, origin, opts);
}

frontmatter::parse_result compiled_parser::parse(std::string_view yaml, std::string_view origin,
                                                 std::uint32_t first_line) const
{
    return frontmatter::x3_parser(options).parse(yaml, origin, first_line);
}

read_result read_skill(dialect const& d, validation_mode mode, std::string_view text, skill_origin const& origin)
{
    return skillmd::read_skill(frontmatter::x3_parser(parse_options_for(d, mode)), d, mode, text, origin);
}

std::string json(frontmatter::parse_result const& r)
{
    if (!r.doc || r.doc->empty()) return "null";
    std::string out;
    frontmatter::write_json(out, r.doc->root());
    return out;
}

std::string first_error(std::vector<diagnostic> const& ds)
{
    for (auto const& d : ds)
        if (d.severity == severity::error) return d.code;
    return "";
}

std::string slurp(std::filesystem::path const& p)
{
    std::ifstream in(p, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + p.string());
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::filesystem::path corpus_dir() { return SKILLMD_TEST_CORPUS_DIR; }
std::filesystem::path yaml_test_suite_dir() { return SKILLMD_TEST_YAML_TEST_SUITE_DIR; }
std::filesystem::path agent_captures_dir() { return SKILLMD_TEST_AGENT_CAPTURES_DIR; }

namespace {
boost::unit_test::precondition needs(std::filesystem::path const& dir, char const* what, char const* variable)
{
    return boost::unit_test::precondition([dir, what, variable](boost::unit_test::test_unit_id id) {
        std::error_code ec;
        boost::test_tools::assertion_result ok(std::filesystem::is_directory(dir, ec));
        if (!ok) {
            ok.message() << what << " not found (" << variable << " = " << dir.string() << ")";
            // One line at the default log level too, so the test's output says what it skipped.
            std::cout << "skipped " << boost::unit_test::framework::get(id, boost::unit_test::TUT_ANY).full_name()
                      << ": " << what << " not found (" << variable << " = " << dir.string() << ")\n";
        }
        return ok;
    });
}
} // namespace

boost::unit_test::precondition needs_corpus()
{
    return needs(corpus_dir(), "the corpus of public SKILL.md files", "SKILLMD_SKILL_CORPUS_DIR");
}
boost::unit_test::precondition needs_yaml_test_suite()
{
    return needs(yaml_test_suite_dir(), "the YAML test suite", "SKILLMD_YAML_TEST_SUITE_DIR");
}
boost::unit_test::precondition needs_agent_captures()
{
    return needs(agent_captures_dir(), "the captures of what the real agent programs send their model",
                 "SKILLMD_AGENT_CAPTURES_DIR");
}
std::filesystem::path source_dir() { return SKILLMD_TEST_SOURCE_DIR; }

std::vector<std::filesystem::path> skill_files(std::filesystem::path const& root)
{
    std::vector<std::filesystem::path> out;
    for (auto const& e : std::filesystem::recursive_directory_iterator(root))
        if (e.is_regular_file() && e.path().filename() == "SKILL.md") out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace skillmd::test

#include "../fuzz/exercise.hpp"

namespace skillmd::test {
void exercise(std::string_view data) { skillmd::fuzz::exercise(data); }
} // namespace skillmd::test

namespace skillmd::test {
std::ptrdiff_t plain_line_length(std::string_view text, bool flow, bool definition)
{
    namespace lex = frontmatter::grammar::lex;
    char const* first = text.data();
    char const* const last = text.data() + text.size();
    bool const ok = definition ? (flow ? boost::spirit::x3::parse(first, last, lex::flow_plain_line_def)
                                       : boost::spirit::x3::parse(first, last, lex::block_plain_line_def))
                               : (flow ? boost::spirit::x3::parse(first, last, lex::flow_plain_line)
                                       : boost::spirit::x3::parse(first, last, lex::block_plain_line));
    return ok ? first - text.data() : -1;
}

std::ptrdiff_t quoted_run_length(std::string_view text, bool double_quoted, bool definition)
{
    namespace lex = frontmatter::grammar::lex;
    char const* first = text.data();
    char const* const last = text.data() + text.size();
    bool const ok = definition ? (double_quoted ? boost::spirit::x3::parse(first, last, lex::double_quoted_run_def)
                                                : boost::spirit::x3::parse(first, last, lex::single_quoted_run_def))
                               : (double_quoted ? boost::spirit::x3::parse(first, last, lex::double_quoted_run)
                                                : boost::spirit::x3::parse(first, last, lex::single_quoted_run));
    return ok ? first - text.data() : -1;
}
} // namespace skillmd::test
