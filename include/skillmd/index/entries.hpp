// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_INDEX_ENTRIES_HPP
#define SKILLMD_INDEX_ENTRIES_HPP

// What an index is made of: the entries taken from a snapshot and their order, the
// format concept that writes them, the budget they must fit and the result
// (render.hpp does the fitting).

#include <skillmd/detail/prefetch.hpp>
#include <skillmd/detail/prompt_text.hpp>
#include <skillmd/detail/trim.hpp>
#include <skillmd/detail/unicode.hpp>
#include <skillmd/storage/listing_table.hpp>
#include <skillmd/storage/registry.hpp>

#include <algorithm>
#include <charconv>
#include <concepts>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace skillmd {

/// What the frame of an index may mention.
struct index_summary
{
    std::size_t listed = 0;
    std::size_t omitted = 0;
    std::size_t shortened = 0;
    std::size_t budget = 0; ///< characters; `unlimited` when there is none
    static constexpr std::size_t unlimited = std::numeric_limits<std::size_t>::max();
};

/** An index format: the frame and one entry of one system's skill listing.

    `describe(out, e)` appends the text shown as the entry's description (cleaned for the
    format);
    `entry(out, e, text)` appends one entry with that text (empty: the entry's minimal
    form, with no description); `begin`/`end` write the frame. `escape` says what the
    format escapes in `text`, so budgets can count shortened descriptions exactly. A
    format may declare `static constexpr std::size_t description_overhead`: what a
    non-empty description adds besides itself (a separator); else it is measured.

    A format whose entry is a head, the description, then a tail may say so with
    `head(out, e)`, `described(out, text)` (a non-empty description with its separator)
    and `tail(out, e)`, its `entry` being exactly their concatenation (`has_entry_parts`);
    sharing descriptions out (Codex's second stage) then writes each head and tail once
    instead of measuring the entry and writing it again.
*/
template <class F>
concept index_format = requires(F const& f, std::string& out, index_entry const& e, std::string_view text,
                                index_summary const& s) {
    { F::escape } -> std::convertible_to<escaping>;
    f.describe(out, e);
    f.entry(out, e, text);
    f.begin(out, s);
    f.end(out, s);
};

/// A format that writes an entry as head, description, tail (see index_format).
template <class F>
concept has_entry_parts = requires(F const& f, std::string& out, index_entry const& e, std::string_view text) {
    f.head(out, e);
    f.described(out, text);
    f.tail(out, e);
};

/// What to do when the entries do not fit.
enum class budget_strategy : std::uint8_t {
    stop_at_overflow, ///< list in order; stop at the first entry that does not fit (Claude Code)
    skip_overflow,    ///< leave out what does not fit and go on (Pegasus)
    always_bypass,    ///< `always` skills are listed whatever the budget, the rest stop at the first overflow; a notice says how many were left out (sven)
    shorten_then_drop ///< shorten every description evenly, then drop descriptions, then skills (Codex)
};

/** How many characters (code points) an index may take.

    The first that applies wins: the environment variable `env` holding a positive
    number (Claude Code's `SLASH_COMMAND_TOOL_CHAR_BUDGET`); `chars`; `fraction` of a known
    context window (`context_tokens` x `chars_per_token`); `fallback_chars` (0: no
    budget). Only the entries count, plus `overhead` characters the format declares
    (sven counts its whole `<available_skills>` block).
*/
struct index_budget
{
    std::size_t chars = 0;
    double fraction = 0;
    std::size_t context_tokens = 0;
    double chars_per_token = 4;
    std::size_t fallback_chars = 0;
    std::string env;
    std::size_t entry_cap = 0; ///< longest description shown, in code points (0: no cap)
    /// When skills are left out, say so after the index (formats that have their own notice,
    /// sven's, say it themselves). Off gives the documents' exact text.
    bool announce_omitted = false;
    budget_strategy strategy = budget_strategy::stop_at_overflow;

    std::size_t resolve() const
    {
        if (!env.empty()) {
            if (char const* v = std::getenv(env.c_str())) {
                std::string_view const s = v;
                std::size_t n = 0;
                auto const [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
                if (ec == std::errc() && end == s.data() + s.size() && n > 0) return n;
            }
        }
        if (chars > 0) return chars;
        if (fraction > 0 && context_tokens > 0) {
            double const c = static_cast<double>(context_tokens) * chars_per_token * fraction;
            return std::max<std::size_t>(1, static_cast<std::size_t>(c));
        }
        return fallback_chars > 0 ? fallback_chars : index_summary::unlimited;
    }
};

/// Which skills an index lists.
enum class listing : std::uint8_t {
    model,            ///< what the model may invoke (Pegasus's matrix, sven's `user_invocable_only`)
    model_documented, ///< and only with a written description or `when_to_use` (Claude Code)
    all,              ///< every loaded skill that is not hidden
};

struct index_result
{
    std::string text;
    std::vector<std::string> listed;    ///< commands, in order
    std::vector<std::string> shortened; ///< listed with a shortened or no description
    std::vector<std::string> omitted;   ///< left out for the budget
    std::size_t budget = index_summary::unlimited;
    std::size_t used = 0;               ///< characters the budget counted
    std::string error;                  ///< why the index is empty when it should not be (memory ran out)
};

/// True when every skill of `t` is listed under `which` exactly as its row holds it (no
/// skill left out, no relative path to make absolute): the rows can then be rendered as
/// they are, without a copy.
inline bool lists_every_row(listing_table const& t, listing which) noexcept
{
    if (t.relative_count() > 0) return false;
    switch (which) {
    case listing::all: return t.hidden_count() == 0;
    case listing::model: return t.model_hidden_count() == 0;
    case listing::model_documented: return t.model_hidden_count() == 0 && t.undocumented_count() == 0;
    }
    return false;
}

/// The entries for `snap` under `which`, in the snapshot's order (by command): copies of
/// the snapshot's packed listing rows (snapshot::listing_rows), not of its scattered records.
inline std::vector<index_entry> index_entries(snapshot const& snap, listing which = listing::model)
{
    auto const& table = snap.listing_rows();
    auto const rows = table.entries();
    auto const flags = table.flags();
    std::vector<index_entry> out;
    out.reserve(rows.size());
    std::string cwd;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        listing_flags const f = flags[i];
        if (which == listing::all ? f.hidden : !f.model_visible) continue;
        if (which == listing::model_documented && !f.name_only && !f.documented) continue;
        index_entry e = rows[i];
        if (f.relative) { // made absolute now: the working directory may have changed since the load
            if (cwd.empty()) {
                std::error_code ec;
                cwd = std::filesystem::current_path(ec).string();
            }
            std::string_view p = e.location;
            while (p.starts_with("./")) p.remove_prefix(2);
            std::string made = cwd;
            if (made.empty() || made.back() != '/') made += '/';
            made += p;
            e.made_location = std::make_shared<std::string const>(std::move(made));
            e.location = *e.made_location;
        }
        out.push_back(std::move(e));
    }
    return out;
}

/// The order of an index's entries. Every order ends in the location, then the command,
/// so equal keys never leave the result to chance.
enum class index_order : std::uint8_t {
    command,           ///< the snapshot's order: by command, bytewise (Pegasus, Claude Code's design, mycode, koshi, sven)
    name,              ///< by the name shown, bytewise
    name_collated,     ///< by the name shown, Unicode collation under the root locale (opencode's `localeCompare`)
    tier_then_command, ///< by the tier the skill came from, in tier order, then command (Claude Code 2.1)
    scope_then_name,   ///< Codex's scopes: `project…` tiers, then `user…` and `plugin…`, `system`, `admin`; then name
};

namespace detail {

/// Codex's scope rank of a tier, from the first word of its label.
inline int scope_rank(std::string_view tier) noexcept
{
    if (tier.starts_with("project")) return 0;
    if (tier.starts_with("system")) return 2;
    if (tier.starts_with("admin")) return 3;
    return 1; // user tiers, plugins and anything else are Codex's User scope
}

} // namespace detail

/// Puts `entries` in `order` (a stable sort; `command` leaves them as they are).
inline void arrange(std::vector<index_entry>& entries, index_order order)
{
    auto const rest = [](index_entry const& a, index_entry const& b) {
        return std::tie(a.location, a.command) < std::tie(b.location, b.command);
    };
    switch (order) {
    case index_order::command: return;
    case index_order::name:
        std::stable_sort(entries.begin(), entries.end(), [&](auto const& a, auto const& b) {
            return a.name != b.name ? a.name < b.name : rest(a, b);
        });
        return;
    case index_order::name_collated: {
        std::vector<std::string_view> names;
        names.reserve(entries.size());
        for (auto const& e : entries) names.push_back(e.name);
        auto const keys = detail::collation_keys(names);
        std::vector<std::size_t> at(entries.size());
        for (std::size_t i = 0; i < at.size(); ++i) at[i] = i;
        std::stable_sort(at.begin(), at.end(), [&](std::size_t a, std::size_t b) {
            if (keys[a] != keys[b]) return keys[a] < keys[b];
            return entries[a].name != entries[b].name ? entries[a].name < entries[b].name : rest(entries[a], entries[b]);
        });
        std::vector<index_entry> sorted;
        sorted.reserve(entries.size());
        for (auto i : at) sorted.push_back(std::move(entries[i]));
        entries = std::move(sorted);
        return;
    }
    case index_order::tier_then_command:
        std::stable_sort(entries.begin(), entries.end(), [&](auto const& a, auto const& b) {
            if (a.tier_index != b.tier_index) return a.tier_index < b.tier_index;
            return a.command != b.command ? a.command < b.command : rest(a, b);
        });
        return;
    case index_order::scope_then_name: {
        // Positions are sorted, each with its scope worked out once, and every entry is
        // then moved once: an entry is large, and a sort moves it at every step.
        // Entries mostly come in that order already (one scope, names that are the
        // commands): then nothing moves.
        std::vector<std::pair<int, std::size_t>> at(entries.size());
        for (std::size_t i = 0; i < at.size(); ++i) at[i] = {detail::scope_rank(entries[i].tier), i};
        auto const before = [&](auto const& x, auto const& y) {
            if (x.first != y.first) return x.first < y.first;
            auto const& a = entries[x.second];
            auto const& b = entries[y.second];
            return a.name != b.name ? a.name < b.name : rest(a, b);
        };
        if (std::is_sorted(at.begin(), at.end(), before)) return;
        std::stable_sort(at.begin(), at.end(), before);
        std::vector<index_entry> sorted;
        sorted.reserve(entries.size());
        for (auto const& [scope, i] : at) sorted.push_back(std::move(entries[i]));
        entries = std::move(sorted);
        return;
    }
    }
}

} // namespace skillmd

#endif
