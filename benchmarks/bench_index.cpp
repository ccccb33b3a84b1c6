// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
//
// Index rendering for 10,000 skills (SPEC 9, target <= 2 ms): each budget strategy
// over prepared entries, and the whole path from a loaded snapshot (entries built,
// budget applied, text written).

#include <skillmd/index/formats.hpp>
#include <skillmd/presets/systems.hpp>
#include <skillmd/storage/sources/memory_source.hpp>

#include <benchmark/benchmark.h>

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

namespace {

namespace fmts = skillmd::index_formats;
constexpr std::size_t skills = 10000;

/// Descriptions of 60 to 250 characters, some with characters XML formats escape.
std::string description(std::size_t i)
{
    std::string d = "Use when the task involves area " + std::to_string(i) + ": read the files, check the steps";
    while (d.size() < 60 + (i * 37) % 190) d += (i % 7 == 0) ? " & <more>" : " and more";
    return d;
}

struct fixture
{
    std::vector<std::string> names, descriptions, locations;
    std::vector<skillmd::index_entry> entries;
    fixture()
    {
        for (std::size_t i = 0; i < skills; ++i) {
            names.push_back("skill-" + std::to_string(i));
            descriptions.push_back(description(i));
            locations.push_back("/home/user/.agents/skills/" + names[i] + "/SKILL.md");
        }
        for (std::size_t i = 0; i < skills; ++i) {
            skillmd::index_entry e;
            e.command = e.name = names[i];
            e.description = descriptions[i];
            e.location = locations[i];
            entries.push_back(std::move(e));
        }
    }
};

fixture const& data()
{
    static fixture const f;
    return f;
}

template <class Format>
void run(benchmark::State& state, Format const& fmt, skillmd::index_budget const& b)
{
    auto const& entries = data().entries;
    skillmd::index_result r;
    for (auto _ : state) {
        r = skillmd::render_index(entries, fmt, b);
        benchmark::DoNotOptimize(r.text.data());
    }
    state.counters["listed"] = static_cast<double>(r.listed.size());
    state.counters["shortened"] = static_cast<double>(r.shortened.size());
    state.counters["bytes"] = static_cast<double>(r.text.size());
}

void no_budget_agent_skills_xml(benchmark::State& s) { run(s, fmts::agent_skills{}, {}); }
void stop_at_overflow_claude_code(benchmark::State& s) { run(s, fmts::claude_code{}, fmts::policies::claude_code().budget); }

void skip_overflow_pegasus_whole_list(benchmark::State& s)
{
    auto b = fmts::policies::pegasus().budget;
    b.chars = 1000000; // most fit, some do not: every entry is tried
    run(s, fmts::pegasus{}, b);
}

void always_bypass_sven(benchmark::State& s) { run(s, fmts::sven{}, fmts::policies::sven().budget); }

void shorten_then_drop_codex_default(benchmark::State& s) { run(s, fmts::codex_0_169{}, fmts::policies::codex_0_169().budget); }

void shorten_then_drop_codex(benchmark::State& s)
{
    auto b = fmts::policies::codex_0_169().budget;
    b.chars = 1000000; // the minimal lines fit, the full ones do not: descriptions are shared out
    run(s, fmts::codex_0_169{}, b);
}

/// A loaded snapshot of the same 10,000 skills.
std::shared_ptr<skillmd::snapshot const> const& loaded()
{
    static std::shared_ptr<skillmd::snapshot const> const snap = [] {
        skillmd::memory_source m("m");
        for (std::size_t i = 0; i < skills; ++i)
            m.set(data().names[i], "---\nname: " + data().names[i] + "\ndescription: \"" + data().descriptions[i] + "\"\n---\nbody\n");
        skillmd::basic_registry<skillmd::frontmatter::x3_parser, skillmd::first_tier_wins, skillmd::memory_source> reg(
            skillmd::frontmatter::x3_parser{}, skillmd::registry_options{}, m);
        reg.load();
        return reg.snapshot();
    }();
    return snap;
}

void entries_from_snapshot(benchmark::State& state)
{
    auto const& snap = loaded();
    std::size_t n = 0;
    for (auto _ : state) n = skillmd::index_entries(*snap).size();
    state.counters["entries"] = static_cast<double>(n);
}

/// What the first index of a snapshot pays once: its packed listing rows.
void listing_rows_of_a_snapshot(benchmark::State& state)
{
    auto const& snap = loaded();
    for (auto _ : state) {
        skillmd::listing_table const t(snap->skills());
        benchmark::DoNotOptimize(t.entries().data());
    }
}

void from_snapshot_claude_code_default(benchmark::State& state)
{
    auto const& snap = loaded();
    skillmd::index_result r;
    for (auto _ : state) {
        r = skillmd::render_index(*snap, fmts::claude_code{}, fmts::policies::claude_code());
        benchmark::DoNotOptimize(r.text.data());
    }
    state.counters["listed"] = static_cast<double>(r.listed.size());
}

void from_snapshot_codex_budget(benchmark::State& state)
{
    auto const& snap = loaded();
    auto policy = fmts::policies::codex_0_169();
    policy.budget.chars = 1000000;
    skillmd::index_result r;
    for (auto _ : state) {
        r = skillmd::render_index(*snap, fmts::codex_0_169{}, policy);
        benchmark::DoNotOptimize(r.text.data());
    }
    state.counters["listed"] = static_cast<double>(r.listed.size());
    state.counters["shortened"] = static_cast<double>(r.shortened.size());
}

/// A whole system over 2,000 skill folders, for the cost of an observer: none (the
/// default), and one that does nothing (the virtual calls and the event it is given).
struct observed_system
{
    std::filesystem::path dir;
    skillmd::presets::agent_skills agent;
    static std::filesystem::path make_tree()
    {
        std::string tmpl = (std::filesystem::temp_directory_path() / "skillmd-bench-XXXXXX").string();
        std::filesystem::path const d = ::mkdtemp(tmpl.data());
        for (std::size_t i = 0; i < 2000; ++i) {
            auto const folder = d / ("skill-" + std::to_string(i));
            std::filesystem::create_directories(folder);
            std::ofstream(folder / "SKILL.md") << "---\nname: skill-" << i << "\ndescription: " << description(i)
                                               << "\n---\nDo it with $ARGUMENTS.\n";
        }
        return d;
    }
    static skillmd::presets::agent_skills make(std::filesystem::path const& d)
    {
        skillmd::presets::locations at;
        at.overrides["user"] = d;
        at.overrides["project"] = d / "none";
        return skillmd::presets::make_agent_skills(at);
    }
    observed_system() : dir(make_tree()), agent(make(dir))
    {
        agent.load();
        agent.settings().invoke.permissions.allow = {"skill-7"};
    }
    ~observed_system()
    {
        std::error_code ec;
        std::filesystem::remove_all(dir, ec);
    }
};

observed_system& observed()
{
    static observed_system s;
    return s;
}

struct noop_observer : skillmd::observer
{
};

void system_index(benchmark::State& state, bool with_observer)
{
    auto& s = observed();
    s.agent.settings().observer = with_observer ? std::make_shared<noop_observer>() : nullptr;
    for (auto _ : state) benchmark::DoNotOptimize(s.agent.index().text.data());
    s.agent.settings().observer = nullptr;
}

void system_invoke(benchmark::State& state, bool with_observer)
{
    auto& s = observed();
    s.agent.settings().observer = with_observer ? std::make_shared<noop_observer>() : nullptr;
    for (auto _ : state) benchmark::DoNotOptimize(s.agent.invoke("skill-7", skillmd::caller::model, "a b c").content.data());
    s.agent.settings().observer = nullptr;
}

} // namespace

BENCHMARK(no_budget_agent_skills_xml)->Unit(benchmark::kMillisecond);
BENCHMARK(stop_at_overflow_claude_code)->Unit(benchmark::kMillisecond);
BENCHMARK(skip_overflow_pegasus_whole_list)->Unit(benchmark::kMillisecond);
BENCHMARK(always_bypass_sven)->Unit(benchmark::kMillisecond);
BENCHMARK(shorten_then_drop_codex_default)->Unit(benchmark::kMillisecond);
BENCHMARK(shorten_then_drop_codex)->Unit(benchmark::kMillisecond);
BENCHMARK(entries_from_snapshot)->Unit(benchmark::kMillisecond);
BENCHMARK(listing_rows_of_a_snapshot)->Unit(benchmark::kMillisecond);
BENCHMARK(from_snapshot_claude_code_default)->Unit(benchmark::kMillisecond);
BENCHMARK(from_snapshot_codex_budget)->Unit(benchmark::kMillisecond);

BENCHMARK_CAPTURE(system_index, no_observer, false)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(system_index, noop_observer, true)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(system_invoke, no_observer, false)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(system_invoke, noop_observer, true)->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
