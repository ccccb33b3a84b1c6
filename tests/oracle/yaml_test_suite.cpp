// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
//
// Every case of the official yaml-test-suite goes through the grammar:
//  - a case that must fail (`error`) must be refused;
//  - a case with `in.json` must give exactly that data when accepted, after resolving
//    our plain scalars with the YAML 1.2 core schema (quoted and block scalars stay
//    strings, which is why the tree keeps each scalar's style);
//  - anything else must be refused with a named diagnostic.
// Refusing is allowed; a wrong result never is.

#include "../support/test_support.hpp"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstdlib>
#include <iostream>
#include <map>
#include <regex>

namespace fm = skillmd::frontmatter;
namespace json = boost::json;

namespace {

/// A plain scalar read with the YAML 1.2 core schema.
json::value resolve_plain(std::string_view v)
{
    static std::regex const int_re("[-+]?[0-9]+");
    static std::regex const oct_re("0o[0-7]+");
    static std::regex const hex_re("0x[0-9a-fA-F]+");
    static std::regex const float_re("[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?");
    std::string const s(v);
    if (s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL") return nullptr;
    if (s == "true" || s == "True" || s == "TRUE") return true;
    if (s == "false" || s == "False" || s == "FALSE") return false;
    if (std::regex_match(s, int_re)) return std::strtod(s.c_str(), nullptr);
    if (std::regex_match(s, oct_re)) return static_cast<double>(std::strtoll(s.c_str() + 2, nullptr, 8));
    if (std::regex_match(s, hex_re)) return static_cast<double>(std::strtoll(s.c_str() + 2, nullptr, 16));
    if (std::regex_match(s, float_re)) return std::strtod(s.c_str(), nullptr);
    return json::string(s);
}

bool equal(json::value const& a, json::value const& b)
{
    auto const num = [](json::value const& x, double& d) {
        if (x.is_int64()) d = static_cast<double>(x.as_int64());
        else if (x.is_uint64()) d = static_cast<double>(x.as_uint64());
        else if (x.is_double()) d = x.as_double();
        else return false;
        return true;
    };
    double da, db;
    if (num(a, da) && num(b, db)) return da == db;
    if (a.kind() != b.kind()) return false;
    if (a.is_array()) {
        auto const& x = a.as_array();
        auto const& y = b.as_array();
        if (x.size() != y.size()) return false;
        for (std::size_t i = 0; i < x.size(); ++i)
            if (!equal(x[i], y[i])) return false;
        return true;
    }
    if (a.is_object()) {
        auto const& x = a.as_object();
        auto const& y = b.as_object();
        if (x.size() != y.size()) return false;
        for (auto const& kv : x) {
            auto const* other = y.if_contains(kv.key());
            if (!other || !equal(kv.value(), *other)) return false;
        }
        return true;
    }
    return a == b;
}

json::value to_json(fm::document::node_ref n)
{
    switch (n.kind()) {
    case fm::node_kind::scalar:
        if (n.style() == fm::scalar_style::plain) return resolve_plain(n.value());
        return json::string(n.value());
    case fm::node_kind::sequence: {
        json::array a;
        for (auto c : n) a.push_back(to_json(c));
        return a;
    }
    case fm::node_kind::mapping: {
        json::object o;
        for (auto it = n.begin(); it != n.end(); ++it) {
            std::string const key((*it).value());
            ++it;
            o[key] = to_json(*it);
        }
        return o;
    }
    }
    return nullptr;
}

/// All JSON documents of an in.json (a stream may hold several, or none).
std::vector<json::value> json_documents(std::string const& text)
{
    std::vector<json::value> docs;
    json::stream_parser p;
    std::size_t pos = 0;
    while (pos < text.size()) {
        while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos]))) ++pos;
        if (pos >= text.size()) break;
        p.reset();
        boost::system::error_code ec;
        std::size_t const n = p.write_some(text.data() + pos, text.size() - pos, ec);
        if (ec) throw std::runtime_error("bad in.json");
        pos += n;
        if (!p.done()) {
            p.finish(ec);
            if (ec) throw std::runtime_error("bad in.json");
        }
        docs.push_back(p.release());
    }
    return docs;
}

} // namespace

BOOST_AUTO_TEST_SUITE(yaml_test_suite)

BOOST_AUTO_TEST_CASE(no_wrong_result_on_any_case, *skillmd::test::needs_yaml_test_suite())
{
    namespace fs = std::filesystem;
    fs::path const root = skillmd::test::yaml_test_suite_dir();
    std::vector<fs::path> cases;
    for (auto const& e : fs::recursive_directory_iterator(root))
        if (e.path().filename() == "in.yaml") cases.push_back(e.path().parent_path());
    std::sort(cases.begin(), cases.end());
    BOOST_TEST_REQUIRE(cases.size() >= 300u, "the yaml-test-suite was not found under " << root);

    std::size_t loaded_same = 0, must_fail_failed = 0, refused = 0, wrong = 0;
    std::map<std::string, std::size_t> refusals;
    for (auto const& dir : cases) {
        std::string const name = dir.lexically_relative(root).string();
        std::string const yaml = skillmd::test::slurp(dir / "in.yaml");
        auto const r = skillmd::test::parse(yaml);
        bool const must_fail = fs::exists(dir / "error");
        bool const has_json = fs::exists(dir / "in.json");

        if (!r.ok()) {
            auto const code = skillmd::test::first_error(r.diagnostics);
            BOOST_TEST(!code.empty(), name << ": refused without a named diagnostic");
            if (must_fail) ++must_fail_failed;
            else {
                ++refused;
                ++refusals[code];
            }
            continue;
        }
        if (must_fail) {
            ++wrong;
            BOOST_TEST(false, name << ": must fail, but was accepted as " << skillmd::test::json(r));
            continue;
        }
        if (!has_json) {
            ++wrong;
            BOOST_TEST(false, name << ": has no plain-data form, but was accepted as " << skillmd::test::json(r));
            continue;
        }
        auto const docs = json_documents(skillmd::test::slurp(dir / "in.json"));
        bool ok = false;
        if (r.doc->empty()) ok = docs.empty() || (docs.size() == 1 && docs[0].is_null());
        else ok = docs.size() == 1 && equal(to_json(r.doc->root()), docs[0]);
        if (ok) {
            ++loaded_same;
        } else {
            ++wrong;
            BOOST_TEST(false, name << ": WRONG DATA: we have "
                                   << (r.doc->empty() ? std::string("nothing")
                                                      : json::serialize(to_json(r.doc->root())))
                                   << ", expected " << skillmd::test::slurp(dir / "in.json"));
        }
    }
    std::cout << "yaml-test-suite (" << cases.size() << " cases)\n"
              << "  loaded, same data as in.json  : " << loaded_same << "\n"
              << "  must fail, refused            : " << must_fail_failed << "\n"
              << "  refused with a diagnostic     : " << refused << "\n"
              << "  wrong results                 : " << wrong << "\n";
    for (auto const& [code, n] : refusals) std::cout << "  refusals [" << code << "]: " << n << "\n";
    BOOST_TEST(wrong == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
