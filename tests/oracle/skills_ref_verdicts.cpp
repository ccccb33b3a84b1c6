// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
//
// Strict agent-skills validation against the specification's reference validator
// (skills-ref 0.1.0): on every corpus file, the same verdict and the same set of
// violated rule ids as the corpus's skills-ref-verdicts.tsv records.
//
// Documented exceptions, where the reference validator is plainly wrong:
//  - it ends the frontmatter at the next `---` anywhere in the file (`split("---", 2)`),
//    even inside a value or in the body of a file whose frontmatter is never closed.
//    We end it only at a line that is `---`, so an unclosed block is
//    `frontmatter-unclosed`, where the reference validator parses the text up to a
//    `---` in the body and reports `yaml-invalid`. The verdict is the same.

#include "../support/test_support.hpp"

#include <boost/test/unit_test.hpp>

#include <iostream>
#include <map>
#include <set>
#include <sstream>

namespace {

struct exception_case
{
    char const* file;
    char const* ours;
    char const* reference;
};

exception_case const exceptions[] = {
    {"sfmskywalker__agentskillsdotnet/fixtures/skills/unclosed-frontmatter/SKILL.md", "frontmatter-unclosed",
     "yaml-invalid"},
};

std::string join(std::set<std::string> const& s)
{
    std::string out;
    for (auto const& x : s) out += (out.empty() ? "" : ",") + x;
    return out;
}

} // namespace

BOOST_AUTO_TEST_SUITE(skills_ref_verdicts)

BOOST_AUTO_TEST_CASE(strict_agent_skills_agrees_with_the_reference_validator, *skillmd::test::needs_corpus())
{
    auto const corpus = skillmd::test::corpus_dir();
    std::map<std::string, std::pair<std::string, std::string>> expected;
    {
        std::istringstream in(skillmd::test::slurp(corpus / "skills-ref-verdicts.tsv"));
        std::string line;
        while (std::getline(in, line)) {
            auto const t1 = line.find('\t');
            auto const t2 = line.find('\t', t1 + 1);
            expected[line.substr(0, t1)] = {line.substr(t1 + 1, t2 - t1 - 1),
                                            t2 == std::string::npos ? "" : line.substr(t2 + 1)};
        }
    }
    auto const files = skillmd::test::skill_files(corpus);
    BOOST_TEST_REQUIRE(files.size() == expected.size());

    auto const d = skillmd::dialects::agent_skills();
    std::size_t valid = 0, invalid = 0, agreed = 0, excepted = 0;
    for (auto const& path : files) {
        std::string const rel = path.lexically_relative(corpus).string();
        auto const it = expected.find(rel);
        BOOST_TEST_REQUIRE((it != expected.end()), rel << " has no verdict");
        std::string const dir = path.parent_path().filename().string();
        std::string const text = skillmd::test::slurp(path);
        auto const r = skillmd::test::read_skill(d, skillmd::validation_mode::strict, text, {rel, dir});

        std::set<std::string> rules;
        bool any_error = false;
        for (auto const& diag : r.diagnostics) {
            if (diag.severity != skillmd::severity::error) continue;
            any_error = true;
            BOOST_TEST((!diag.rule.empty() || diag.code == "name-unsafe-path" || diag.code == "name-invisible-character"),
                       rel << ": error " << diag.code << " has no rule id");
            if (!diag.rule.empty()) rules.insert(diag.rule);
        }
        BOOST_TEST(any_error == !r.skill.has_value());
        std::string const verdict = any_error ? "invalid" : "valid";
        std::set<std::string> want;
        {
            std::istringstream ids(it->second.second);
            std::string id;
            while (std::getline(ids, id, ','))
                if (!id.empty()) want.insert(id);
        }
        (any_error ? invalid : valid) += 1;

        bool is_exception = false;
        for (auto const& e : exceptions)
            if (rel == e.file) {
                is_exception = true;
                BOOST_TEST(join(rules) == e.ours, rel << ": the documented exception changed");
                BOOST_TEST(join(want) == e.reference);
                BOOST_TEST(verdict == it->second.first);
            }
        if (is_exception) {
            ++excepted;
            continue;
        }
        BOOST_TEST(verdict == it->second.first, rel << ": verdict " << verdict << ", reference " << it->second.first
                                                    << " (ours: " << join(rules) << "; reference: " << join(want) << ")");
        BOOST_TEST(join(rules) == join(want), rel << ": rules differ");
        if (verdict == it->second.first && rules == want) ++agreed;
    }
    std::cout << "skills-ref agreement (" << files.size() << " files): " << valid << " valid, " << invalid
              << " invalid; " << agreed << " agree exactly, " << excepted << " documented exception(s)\n";
}

BOOST_AUTO_TEST_SUITE_END()
