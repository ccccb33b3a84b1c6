// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_TESTS_SUPPORT_HPP
#define SKILLMD_TESTS_SUPPORT_HPP

// Test helpers. The X3 grammar is compiled once, in test_support.cpp, and the
// test files reach it through these declarations, so they stay quick to build.

#include <skillmd/frontmatter/parse_result.hpp>
#include <skillmd/validation/read_skill.hpp>

#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>
#include <stdlib.h>
#include <unistd.h>
#include <string>
#include <string_view>
#include <vector>

namespace skillmd::test {

frontmatter::parse_result parse(std::string_view yaml, frontmatter::parse_options opts = {},
                                std::uint32_t first_line = 1);
frontmatter::skill_file read(std::string_view text, std::string_view origin = "SKILL.md",
                             frontmatter::split_options opts = {});

/// A whole SKILL.md read and validated under a dialect (the X3 parser, set up for the mode).
read_result read_skill(dialect const& d, validation_mode mode, std::string_view text, skill_origin const& origin);

/// The X3 parser behind a plain declaration, for registries in test files that do not
/// compile the grammar themselves.
struct compiled_parser
{
    frontmatter::parse_options options;
    frontmatter::parse_result parse(std::string_view yaml, std::string_view origin, std::uint32_t first_line) const;
};

/// The frontmatter tree as `skillmd parse` prints it, or "null".
std::string json(frontmatter::parse_result const& r);

/// The code of the first error, or "" when there is none.
std::string first_error(std::vector<diagnostic> const& ds);

/// Length matched by the plain-scalar line rule, or -1: the fast parser, or with
/// `definition` the X3 combinator rule that defines it.
std::ptrdiff_t plain_line_length(std::string_view text, bool flow, bool definition);
/// The same for a run inside double or single quotes (`quoted_run_parser` against its rule).
std::ptrdiff_t quoted_run_length(std::string_view text, bool double_quoted, bool definition);

std::string slurp(std::filesystem::path const& p);
/// The external test data (not in the repository; CMake variables SKILLMD_SKILL_CORPUS_DIR,
/// SKILLMD_YAML_TEST_SUITE_DIR, SKILLMD_AGENT_CAPTURES_DIR).
std::filesystem::path corpus_dir();          ///< a corpus of public SKILL.md files
std::filesystem::path yaml_test_suite_dir(); ///< the official YAML test suite
std::filesystem::path agent_captures_dir();  ///< what real agent programs sent their model
/// Preconditions for the test cases that need that data: without it they are skipped,
/// saying which variable names the folder (`BOOST_AUTO_TEST_CASE(c, *needs_corpus())`).
boost::unit_test::precondition needs_corpus();
boost::unit_test::precondition needs_yaml_test_suite();
boost::unit_test::precondition needs_agent_captures();
std::filesystem::path source_dir();
/// Every SKILL.md below `root`, sorted.
std::vector<std::filesystem::path> skill_files(std::filesystem::path const& root);

/// A fresh directory, removed (permissions restored first) at the end of the test.
struct temp_dir
{
    std::filesystem::path path;
    temp_dir() : temp_dir(std::filesystem::temp_directory_path()) {}
    explicit temp_dir(std::filesystem::path const& base)
    {
        std::string tmpl = (base / "skillmd-test-XXXXXX").string();
        path = ::mkdtemp(tmpl.data());
    }
    /// A folder in memory (/dev/shm) where there is one: for trees of a hundred thousand
    /// entries, whose removal costs minutes on a disk mounted with `discard`.
    static temp_dir in_memory()
    {
        std::error_code ec;
        bool const shm = std::filesystem::is_directory("/dev/shm", ec) && ::access("/dev/shm", W_OK) == 0;
        return temp_dir(shm ? std::filesystem::path("/dev/shm") : std::filesystem::temp_directory_path());
    }
    ~temp_dir()
    {
        std::error_code ec;
        for (auto it = std::filesystem::recursive_directory_iterator(path, std::filesystem::directory_options::skip_permission_denied, ec);
             !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec))
            if (!it->is_symlink(ec)) std::filesystem::permissions(it->path(), std::filesystem::perms::owner_all, std::filesystem::perm_options::add, ec);
        std::filesystem::remove_all(path, ec);
    }
    std::filesystem::path operator/(std::string const& p) const { return path / p; }
};

inline void write(std::filesystem::path const& p, std::string const& text)
{
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
}

} // namespace skillmd::test

#endif
