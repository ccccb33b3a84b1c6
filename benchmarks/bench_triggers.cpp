// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
//
// Trigger matching: 10,000 trigger phrases against a 4 KB message, with
// trigger_matcher (one pass) and with one std::regex search per phrase, the way
// koshi matches (case-insensitive, word boundaries).

#include <skillmd/triggers/matcher.hpp>

#include <benchmark/benchmark.h>

#include <regex>
#include <string>
#include <vector>

namespace {

std::vector<std::string> const& phrases()
{
    static std::vector<std::string> const p = [] {
        std::vector<std::string> out;
        for (int i = 0; i < 10000; ++i) out.push_back("topic " + std::to_string(i) + " review");
        return out;
    }();
    return p;
}

std::string const& message()
{
    static std::string const m = [] {
        std::string s;
        while (s.size() < 4096) s += "Please look at Topic 4242 Review and the deployment notes for today. ";
        return s.substr(0, 4096);
    }();
    return m;
}

void aho_corasick(benchmark::State& state)
{
    skillmd::trigger_matcher m;
    for (std::size_t i = 0; i < phrases().size(); ++i) m.add(phrases()[i], i);
    m.build();
    std::size_t found = 0;
    for (auto _ : state) found = m.match(message()).size();
    state.counters["matched"] = static_cast<double>(found);
}

void regex_per_phrase(benchmark::State& state)
{
    std::vector<std::regex> res;
    for (auto const& p : phrases()) res.emplace_back("\\b" + p + "\\b", std::regex::icase | std::regex::optimize);
    std::size_t found = 0;
    for (auto _ : state) {
        found = 0;
        for (auto const& re : res) found += std::regex_search(message(), re);
    }
    state.counters["matched"] = static_cast<double>(found);
}

} // namespace

BENCHMARK(aho_corasick)->Unit(benchmark::kMicrosecond);
BENCHMARK(regex_per_phrase)->Unit(benchmark::kMillisecond)->Iterations(2);

BENCHMARK_MAIN();
