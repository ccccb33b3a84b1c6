// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
//
// The database tier with 10,000 skills: create and update throughput (each write its
// own BEGIN IMMEDIATE transaction, WAL, synchronous FULL: SQLite's durable default),
// and what refresh() costs when nothing changed, when one row changed, and a full load.

#include <skillmd/presets/koshi.hpp>

#include <benchmark/benchmark.h>

#include <filesystem>
#include <string>

namespace {

namespace fs = std::filesystem;
constexpr int skills = 10000;

std::string name_of(int i)
{
    std::string n = "skill-";
    n += std::to_string(i);
    return n;
}

skillmd::db_skill make(int i)
{
    return {name_of(i), "Use when the task is about area " + std::to_string(i), {"area " + std::to_string(i), "topic"},
            "## Steps\n1. Read the files.\n2. Do the work.\n" + std::string(400, 'x') + "\n", {}, {}, 0};
}

fs::path fresh_dir(char const* tag)
{
    fs::path const p = fs::temp_directory_path() / (std::string("skillmd-bench-db-") + tag);
    fs::remove_all(p);
    fs::create_directories(p / "files");
    return p;
}

void create(benchmark::State& state)
{
    auto const dir = fresh_dir("create");
    std::string error;
    auto store = skillmd::sqlite_store::open((dir / "skills.db").string(), error);
    skillmd::sqlite_source const src("db", store);
    auto const validate = skillmd::presets::koshi_validator();
    int i = 0;
    for (auto _ : state) {
        auto const r = src.create(make(i++), validate);
        if (!r.ok()) state.SkipWithError(r.message.c_str());
    }
    state.SetItemsProcessed(i);
}

void update(benchmark::State& state)
{
    auto const dir = fresh_dir("update");
    std::string error;
    auto store = skillmd::sqlite_store::open((dir / "skills.db").string(), error);
    skillmd::sqlite_source const src("db", store);
    for (int i = 0; i < 1000; ++i) src.create(make(i), {});
    auto const validate = skillmd::presets::koshi_validator();
    int i = 0;
    for (auto _ : state) {
        skillmd::db_update u;
        u.description = "Updated description " + std::to_string(i);
        auto const r = src.update(name_of(i++ % 1000), u, validate);
        if (!r.ok()) state.SkipWithError(r.message.c_str());
    }
    state.SetItemsProcessed(i);
}

/// A koshi registry over 10,000 database skills (built once).
struct loaded_koshi
{
    fs::path dir = fresh_dir("refresh");
    skillmd::presets::locations at;
    loaded_koshi()
    {
        at.overrides["user"] = dir / "files";
        at.overrides["db"] = dir / "skills.db";
        std::string error;
        auto store = skillmd::sqlite_store::open((dir / "skills.db").string(), error);
        // One transaction for the fixture only: the benchmarks above measure writes.
        skillmd::sqlite_source const src("db", store);
        for (int i = 0; i < skills; ++i) src.create(make(i), {});
    }
};

loaded_koshi& fixture()
{
    static loaded_koshi k;
    return k;
}

void full_load(benchmark::State& state)
{
    auto& k = fixture();
    std::size_t n = 0;
    for (auto _ : state) {
        auto reg = skillmd::presets::make_koshi(k.at);
        reg.load();
        n = reg.snapshot()->skills().size();
    }
    state.counters["skills"] = static_cast<double>(n);
}

void refresh_unchanged(benchmark::State& state)
{
    auto& k = fixture();
    auto reg = skillmd::presets::make_koshi(k.at);
    reg.load();
    reg.refresh();
    reg.refresh();
    for (auto _ : state) reg.refresh();
    state.counters["skills"] = static_cast<double>(reg.snapshot()->skills().size());
}

void refresh_one_row_changed(benchmark::State& state)
{
    auto& k = fixture();
    auto reg = skillmd::presets::make_koshi(k.at);
    reg.load();
    reg.refresh();
    auto const& db = reg.source<1>();
    int i = 0;
    for (auto _ : state) {
        state.PauseTiming();
        skillmd::db_update u;
        u.description = "Changed " + std::to_string(i++);
        db.update(name_of(i % skills), u, {});
        state.ResumeTiming();
        reg.refresh();
    }
    state.counters["skills"] = static_cast<double>(reg.snapshot()->skills().size());
}

} // namespace

BENCHMARK(create)->Unit(benchmark::kMicrosecond)->Iterations(2000);
BENCHMARK(update)->Unit(benchmark::kMicrosecond)->Iterations(2000);
BENCHMARK(full_load)->Unit(benchmark::kMillisecond);
BENCHMARK(refresh_unchanged)->Unit(benchmark::kMicrosecond);
BENCHMARK(refresh_one_row_changed)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
