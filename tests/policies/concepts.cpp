// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
//
// The policy concepts: each documented exemplar is a model, each shipped model is
// one, and a type that is not does not pass; the dedup rules pick the documented
// winner. The complete exemplars, run as one system, are examples/policies.cpp.

#include <skillmd/storage/dedup.hpp>
#include <skillmd/frontmatter/line_parser.hpp>
#include <skillmd/frontmatter/parse_result.hpp>
#include <skillmd/storage/source.hpp>
#include <skillmd/storage/sources/directory_source.hpp>
#include <skillmd/storage/sources/memory_source.hpp>
#include <skillmd/storage/sources/plugin_source.hpp>

#include <boost/test/unit_test.hpp>

namespace {

// The exemplars, as written in the concepts' documentation.
struct my_parser
{
    skillmd::frontmatter::parse_result parse(std::string_view, std::string_view, std::uint32_t) const { return {}; }
};

struct my_source
{
    std::string_view label() const { return "mine"; }
    skillmd::discovery discover() const { return {}; }
    skillmd::read_outcome read_head(skillmd::candidate const&) const { return {}; }
    skillmd::read_outcome read_all(skillmd::candidate const&) const { return {}; }
};

struct last_wins
{
    static constexpr bool collapse_same_file = true;
    static skillmd::dedup_decision resolve(std::span<skillmd::dedup_entry const> g) { return {g.size() - 1}; }
};

struct not_a_source
{
    std::string_view label() const { return "x"; }
};

} // namespace

static_assert(skillmd::frontmatter::frontmatter_parser<my_parser>);
static_assert(skillmd::frontmatter::frontmatter_parser<skillmd::frontmatter::line_parser>);
static_assert(!skillmd::frontmatter::frontmatter_parser<int>);

static_assert(skillmd::skill_source<my_source>);
static_assert(skillmd::skill_source<skillmd::directory_source>);
static_assert(skillmd::skill_source<skillmd::memory_source>);
static_assert(skillmd::skill_source<skillmd::plugin_source<skillmd::memory_source>>);
static_assert(!skillmd::skill_source<not_a_source>);
static_assert(!skillmd::skill_source<int>);

static_assert(skillmd::dedup_policy<last_wins>);
static_assert(skillmd::dedup_policy<skillmd::first_tier_wins>);
static_assert(skillmd::dedup_policy<skillmd::files_win_over_database<skillmd::highest_tier_wins>>);
static_assert(!skillmd::dedup_policy<int>);

BOOST_AUTO_TEST_SUITE(concepts)

BOOST_AUTO_TEST_CASE(exemplars_behave_as_documented)
{
    skillmd::dedup_entry const group[3] = {{0, "a", false, {}}, {1, "b", false, {}}, {2, "c", true, {}}};
    BOOST_TEST(last_wins::resolve(group).winner == 2u);
    BOOST_TEST(skillmd::first_tier_wins::resolve(group).winner == 0u);
    BOOST_TEST(skillmd::highest_tier_wins::resolve(group).winner == 2u);
    // files beat the database whatever the order; among files the base rule decides
    BOOST_TEST(skillmd::files_win_over_database<skillmd::highest_tier_wins>::resolve(group).winner == 1u);
    BOOST_TEST(skillmd::keep_all::resolve(group).keep_all);
}

BOOST_AUTO_TEST_SUITE_END()
