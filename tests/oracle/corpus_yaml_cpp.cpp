// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
//
// The corpus oracle: on every SKILL.md of the corpus of public skills (SKILLMD_SKILL_CORPUS_DIR) the grammar's tree
// must equal yaml-cpp's for the same frontmatter, or the grammar must refuse the file
// with a diagnostic that yaml-cpp agrees with or that the grammar's subset refuses.

#include "../support/test_support.hpp"

#include <skillmd/frontmatter/split.hpp>

#include <boost/test/unit_test.hpp>
#include <yaml-cpp/yaml.h>

#include <iostream>
#include <map>
#include <set>

namespace fm = skillmd::frontmatter;

namespace {

/// Compares our node with yaml-cpp's; on a difference returns where and what.
bool same(fm::document::node_ref ours, YAML::Node const& theirs, std::string path, std::string& why)
{
    switch (theirs.Type()) {
    case YAML::NodeType::Null:
        if (ours.is_null()) return true;
        why = path + ": yaml-cpp has null, we have " + std::string(ours.value());
        return false;
    case YAML::NodeType::Scalar:
        if (ours.is_scalar() && !ours.is_null() && ours.value() == theirs.Scalar()) return true;
        why = path + ": yaml-cpp has \"" + theirs.Scalar() + "\", we have \"" + std::string(ours.value()) + "\"";
        return false;
    case YAML::NodeType::Sequence: {
        if (!ours.is_sequence() || ours.size() != theirs.size()) {
            why = path + ": sequence shape differs";
            return false;
        }
        std::size_t i = 0;
        for (auto item : ours)
            if (!same(item, theirs[i], path + "[" + std::to_string(i) + "]", why)) return false;
            else ++i;
        return true;
    }
    case YAML::NodeType::Map: {
        if (!ours.is_mapping() || ours.size() != theirs.size()) {
            why = path + ": mapping shape differs";
            return false;
        }
        auto it = ours.begin();
        for (auto const& kv : theirs) {
            auto const key = *it;
            ++it;
            auto const value = *it;
            ++it;
            std::string const k = kv.first.IsNull() ? std::string() : kv.first.Scalar();
            if (!key.is_scalar() || key.value() != k) {
                why = path + ": key order or text differs at \"" + k + "\"";
                return false;
            }
            if (!same(value, kv.second, path + "." + k, why)) return false;
        }
        return true;
    }
    default:
        why = path + ": yaml-cpp node of unexpected type";
        return false;
    }
}

// Constructs SPEC 3.2 refuses even where a full YAML parser accepts them.
std::set<std::string> const refused_by_policy = {
    "yaml-anchor", "yaml-alias", "yaml-tag", "yaml-merge-key", "yaml-directive", "yaml-multiple-documents",
    "yaml-tab-indentation", "yaml-duplicate-key", "yaml-complex-key", "yaml-unsupported", "yaml-depth-limit",
};

} // namespace

BOOST_AUTO_TEST_SUITE(corpus_oracle)

BOOST_AUTO_TEST_CASE(grammar_agrees_with_yaml_cpp_on_every_corpus_file, *skillmd::test::needs_corpus())
{
    auto const files = skillmd::test::skill_files(skillmd::test::corpus_dir());
    BOOST_TEST_REQUIRE(files.size() >= 900u, "the corpus was not found under " << skillmd::test::corpus_dir());

    std::size_t accepted = 0, refused_agreed = 0, refused_policy = 0, no_frontmatter = 0;
    std::map<std::string, std::size_t> refusals;
    for (auto const& path : files) {
        std::string const text = skillmd::test::slurp(path);
        auto const rel = path.lexically_relative(skillmd::test::corpus_dir()).string();
        auto const s = fm::split(text, rel);
        if (!s.has_frontmatter) {
            ++no_frontmatter;
            continue;
        }
        auto const ours = skillmd::test::parse(s.frontmatter, {}, s.frontmatter_line);

        bool yaml_cpp_ok = true;
        YAML::Node theirs;
        std::string yaml_cpp_error;
        try {
            theirs = YAML::Load(std::string(s.frontmatter));
        } catch (YAML::Exception const& e) {
            yaml_cpp_ok = false;
            yaml_cpp_error = e.what();
        }

        if (ours.ok()) {
            BOOST_TEST(yaml_cpp_ok, rel << ": we accept, yaml-cpp rejects: " << yaml_cpp_error);
            if (!yaml_cpp_ok) continue;
            std::string why;
            if (ours.doc->empty()) {
                BOOST_TEST(theirs.IsNull(), rel << ": we have an empty document, yaml-cpp does not");
            } else {
                BOOST_TEST(same(ours.doc->root(), theirs, "$", why), rel << ": DIFFERENT DATA " << why);
            }
            ++accepted;
            continue;
        }

        BOOST_TEST_REQUIRE(!ours.diagnostics.empty());
        auto const& d = ours.diagnostics.back();
        std::cout << "refused " << rel << ":" << d.line << ":" << d.column << " [" << d.code << "] " << d.message
                  << (yaml_cpp_ok ? "  (yaml-cpp accepts)" : "  (yaml-cpp rejects too)") << "\n";
        ++refusals[d.code];
        if (!yaml_cpp_ok) {
            ++refused_agreed;
        } else {
            BOOST_TEST(refused_by_policy.count(d.code) == 1,
                       rel << ": refused with " << d.code << " although yaml-cpp accepts it and SPEC 3.2 allows it");
            ++refused_policy;
        }
    }
    std::cout << "corpus oracle (" << files.size() << " files)\n"
              << "  accepted, same data as yaml-cpp : " << accepted << "\n"
              << "  refused, yaml-cpp rejects too   : " << refused_agreed << "\n"
              << "  refused by policy (SPEC 3.2)    : " << refused_policy << "\n"
              << "  no frontmatter block            : " << no_frontmatter << "\n";
    for (auto const& [code, n] : refusals) std::cout << "  refusals [" << code << "]: " << n << "\n";
    BOOST_TEST(accepted + refused_agreed + refused_policy + no_frontmatter == files.size());
}

BOOST_AUTO_TEST_SUITE_END()
