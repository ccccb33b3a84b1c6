// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_TOOLS_PRESET_TABLE_HPP
#define SKILLMD_TOOLS_PRESET_TABLE_HPP

// The presets the command line offers, in one list: each name with the function that
// makes its system (from the locations and, for fleet, the namespace) and the tiers
// `--dir` may name. Checking `--preset` and running a
// command both read it, so a preset added here is accepted and run alike.

#include <skillmd/presets/fleet.hpp>
#include <skillmd/presets/systems.hpp>

#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string_view>
#include <tuple>

namespace cli {

template <class Make>
struct offered_preset
{
    std::string_view name;
    Make make;                            ///< (locations, namespace) -> the preset's system
    std::span<char const* const> tiers;   ///< the tier names `--dir` may use
};

template <class Make, std::size_t N>
constexpr offered_preset<Make> offer(std::string_view name, Make make, char const* const (&tiers)[N])
{
    return {name, make, std::span<char const* const>(tiers)};
}

namespace presets = skillmd::presets;
using presets::locations;

/// fleet's tiers, and the file of its local snapshot (`--dir cache=`).
inline constexpr char const* fleet_cli_tiers[] = {"user", "db", "cache"};

/// The PostgreSQL server `--db` (or `--dir db=`) names for the fleet preset.
inline skillmd::postgres_options fleet_server(locations const& a)
{
    skillmd::postgres_options po;
    po.conninfo = a.tier("db", "");
    po.transaction_pooler = a.tier("pooler", "") == "transaction"; // --pooler, not a folder
    return po;
}

inline constexpr auto offered_presets = std::tuple{
    offer("agent-skills", [](locations const& a, auto const&) { return presets::make_agent_skills(a); }, presets::agent_skills_tiers),
    offer("pegasus", [](locations const& a, auto const&) { return presets::make_pegasus(a); }, presets::pegasus_tiers),
    offer("claude-code", [](locations const& a, auto const&) { return presets::make_claude_code(a); }, presets::claude_code_tiers),
    offer("mycode", [](locations const& a, auto const&) { return presets::make_mycode(a); }, presets::mycode_tiers),
    offer("sven", [](locations const& a, auto const&) { return presets::make_sven(a); }, presets::sven_tiers),
    offer("koshi", [](locations const& a, auto const&) { return presets::make_koshi(a); }, presets::koshi_tiers),
    offer("claude-code-2.1", [](locations const& a, auto const&) { return presets::make_claude_code_2_1(a); }, presets::claude_code_tiers),
    offer("codex-0.169", [](locations const& a, auto const&) { return presets::make_codex_0_169(a); }, presets::codex_0_169_tiers),
    offer("gemini-cli-0.61", [](locations const& a, auto const&) { return presets::make_gemini_cli_0_61(a); }, presets::gemini_cli_0_61_tiers),
    offer("opencode-1.18", [](locations const& a, auto const&) { return presets::make_opencode_1_18(a); }, presets::opencode_1_18_tiers),
    offer("fleet", [](locations const& a, std::string const& ns) { return presets::make_fleet(a, fleet_server(a), ns); }, fleet_cli_tiers),
};

inline constexpr auto preset_names =
    std::apply([](auto const&... p) { return std::array<std::string_view, sizeof...(p)>{p.name...}; }, offered_presets);

/// Calls `f(preset)` with the preset called `name`; its result, or nothing when no preset
/// has that name.
template <class F>
std::optional<int> with_preset(std::string_view name, F&& f)
{
    std::optional<int> out;
    std::apply([&](auto const&... p) { ((p.name == name ? void(out = f(p)) : void()), ...); }, offered_presets);
    return out;
}

} // namespace cli

#endif
