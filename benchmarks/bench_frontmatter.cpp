// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
//
// Frontmatter parse throughput over the frontmatter blocks of shared/corpus, or of the
// user's own files (`--corpus DIR`: every SKILL.md below DIR): the X3 grammar (exactly
// what the oracle test runs), yaml-cpp, libfyaml, and a memchr scan for the closing
// fence over the same bytes (the floor), side by side on the same blocks; and the
// grammar against yaml-cpp in alternated pairs, whose ratio is the target's speedup.

#include <skillmd/frontmatter/split.hpp>
#include <skillmd/frontmatter/x3_parser.hpp>

#include "folder_option.hpp"
#include "paired.hpp"

#include <benchmark/benchmark.h>
#include <libfyaml.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct corpus
{
    std::vector<std::string> blocks;
    std::size_t bytes = 0;
};

/// `--corpus DIR`; the corpus SKILLMD_SKILL_CORPUS_DIR names by default.
std::string& corpus_dir()
{
    static std::string dir = SKILLMD_BENCH_CORPUS_DIR;
    return dir;
}

corpus const& frontmatter_blocks()
{
    static corpus const c = [] {
        corpus out;
        std::vector<std::filesystem::path> files;
        for (auto const& e : std::filesystem::recursive_directory_iterator(
                 corpus_dir(), std::filesystem::directory_options::skip_permission_denied))
            if (e.is_regular_file() && e.path().filename() == "SKILL.md") files.push_back(e.path());
        std::sort(files.begin(), files.end());
        for (auto const& f : files) {
            std::ifstream in(f, std::ios::binary);
            std::ostringstream ss;
            ss << in.rdbuf();
            std::string const text = ss.str();
            auto const s = skillmd::frontmatter::split(text, f.string());
            if (!s.has_frontmatter) continue;
            out.blocks.emplace_back(s.frontmatter);
            out.bytes += s.frontmatter.size();
        }
        return out;
    }();
    return c;
}

void report(benchmark::State& state, std::size_t ok)
{
    auto const& c = frontmatter_blocks();
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * c.bytes));
    state.counters["blocks"] = static_cast<double>(c.blocks.size());
    state.counters["accepted"] = static_cast<double>(ok);
}

/// One pass of the X3 grammar over every block; how many it accepted.
std::size_t x3_pass(skillmd::frontmatter::x3_parser const& parser)
{
    std::size_t ok = 0;
    for (auto const& b : frontmatter_blocks().blocks) {
        auto r = parser.parse(b, "SKILL.md", 2);
        ok += r.ok();
        benchmark::DoNotOptimize(r);
    }
    return ok;
}

/// One pass of yaml-cpp over every block; how many it accepted.
std::size_t yaml_cpp_pass()
{
    std::size_t ok = 0;
    for (auto const& b : frontmatter_blocks().blocks) {
        try {
            YAML::Node n = YAML::Load(b);
            benchmark::DoNotOptimize(n);
            ++ok;
        } catch (YAML::Exception const&) {
        }
    }
    return ok;
}

void x3_grammar(benchmark::State& state)
{
    skillmd::frontmatter::x3_parser const parser;
    std::size_t ok = 0;
    for (auto _ : state) ok = x3_pass(parser);
    report(state, ok);
}

void yaml_cpp(benchmark::State& state)
{
    std::size_t ok = 0;
    for (auto _ : state) ok = yaml_cpp_pass();
    report(state, ok);
}

/// The grammar against yaml-cpp in pairs (paired.hpp), the grammar first in every other
/// pair: the two benchmarks above, run apart, can see different machines. Each side makes
/// an untimed pass before its timed one, as the benchmarks above run warm: a grammar pass
/// of under a millisecond right after 50 ms of yaml-cpp would otherwise be timed with the
/// caches yaml-cpp left. Reports each side's median pass and their ratio, the speedup the
/// performance target is stated in.
void x3_against_yaml_cpp(benchmark::State& state)
{
    skillmd::frontmatter::x3_parser const parser;
    skillmd::bench::pairs timings; // a: the grammar, b: yaml-cpp
    for (auto _ : state) timings.run([&] { x3_pass(parser); }, yaml_cpp_pass, true);
    double const a = skillmd::bench::median(timings.a), b = skillmd::bench::median(timings.b);
    state.counters["x3_ms"] = a;
    state.counters["yaml_cpp_ms"] = b;
    state.counters["speedup"] = a > 0 ? b / a : 0;
    state.counters["pairs"] = static_cast<double>(timings.a.size());
}

void libfyaml(benchmark::State& state)
{
    fy_parse_cfg cfg{};
    cfg.flags = FYPCF_QUIET;
    std::size_t ok = 0;
    for (auto _ : state) {
        ok = 0;
        for (auto const& b : frontmatter_blocks().blocks) {
            fy_document* d = fy_document_build_from_string(&cfg, b.data(), b.size());
            ok += d != nullptr;
            benchmark::DoNotOptimize(d);
            if (d) fy_document_destroy(d);
        }
    }
    report(state, ok);
}

/// The floor: find every line start that begins with `---`, as a fence search must.
void memchr_fence_scan(benchmark::State& state)
{
    std::size_t found = 0;
    for (auto _ : state) {
        found = 0;
        for (auto const& b : frontmatter_blocks().blocks) {
            char const* p = b.data();
            char const* const e = p + b.size();
            while (p < e) {
                auto const* nl = static_cast<char const*>(std::memchr(p, '\n', static_cast<std::size_t>(e - p)));
                if (!nl) break;
                p = nl + 1;
                if (e - p >= 3 && std::memcmp(p, "---", 3) == 0) ++found;
            }
            benchmark::DoNotOptimize(p);
        }
    }
    report(state, found);
}

} // namespace

BENCHMARK(x3_grammar)->Unit(benchmark::kMillisecond);
BENCHMARK(yaml_cpp)->Unit(benchmark::kMillisecond);
BENCHMARK(libfyaml)->Unit(benchmark::kMillisecond);
BENCHMARK(memchr_fence_scan)->Unit(benchmark::kMillisecond);
BENCHMARK(x3_against_yaml_cpp)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(21);

int main(int argc, char** argv)
{
    auto rest = skillmd::bench::take_folder_option(argc, argv, "corpus", corpus_dir());
    if (!std::filesystem::is_directory(corpus_dir())) {
        std::fprintf(stderr, "bench_frontmatter: %s is not a folder\n", corpus_dir().c_str());
        return 2;
    }
    int n = static_cast<int>(rest.size());
    benchmark::Initialize(&n, rest.data());
    if (benchmark::ReportUnrecognizedArguments(n, rest.data())) return 1;
    std::fprintf(stderr, "corpus: %s (%zu frontmatter blocks, %zu bytes)\n", corpus_dir().c_str(),
                 frontmatter_blocks().blocks.size(), frontmatter_blocks().bytes);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
