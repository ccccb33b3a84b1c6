// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_STORAGE_DEDUP_HPP
#define SKILLMD_STORAGE_DEDUP_HPP

// Dedup policies: which of several skills with one command wins.

#include <skillmd/storage/source.hpp>

#include <concepts>
#include <cstddef>
#include <span>
#include <string_view>
#include <vector>

namespace skillmd {

/// One of the skills that share a command, in tier order (tier 0 is listed first).
struct dedup_entry
{
    std::size_t tier;
    std::string_view tier_label;
    bool database;
    file_stamp stamp;
};

struct dedup_decision
{
    std::size_t winner = 0; ///< index into the group
    bool keep_all = false;  ///< keep every entry under a qualified name `name@tier`
};

/** A collision rule. `resolve` gets the skills that share a command, in tier order,
    and picks the winner; the others stay reachable as `name@tier` and are reported
    as shadowed (a note; a warning when the policy declares `warn_on_shadow = true`).
    When `collapse_same_file` is true, a loser that is the very same file as the winner
    (same device and inode, e.g. through a symlink) is dropped without a report, as
    Claude Code does; under `keep_all` such a second copy is dropped the same way.

    @par Exemplar
    @code
    struct last_wins
    {
        static constexpr bool collapse_same_file = true;
        static skillmd::dedup_decision resolve(std::span<skillmd::dedup_entry const> g)
        {
            return {g.size() - 1};
        }
    };
    @endcode

    @par Models
    @li @ref first_tier_wins, @ref highest_tier_wins, @ref files_win_over_database,
        @ref keep_all, @ref keep_every_copy, @ref highest_tier_wins_warned
*/
template <class P>
concept dedup_policy = requires(std::span<dedup_entry const> group) {
    { P::resolve(group) } -> std::same_as<dedup_decision>;
    { P::collapse_same_file } -> std::convertible_to<bool>;
};

/// The tier listed first wins (Claude Code: managed, then user, then project).
struct first_tier_wins
{
    static constexpr bool collapse_same_file = true;
    static dedup_decision resolve(std::span<dedup_entry const>) { return {0}; }
};

/// The tier listed last wins (Pegasus and sven list tiers by increasing precedence).
struct highest_tier_wins
{
    static constexpr bool collapse_same_file = true;
    static dedup_decision resolve(std::span<dedup_entry const> g) { return {g.size() - 1}; }
};

/// A file skill beats a database skill whatever the tier order (koshi); among the
/// remaining, `Base` decides.
template <dedup_policy Base = first_tier_wins>
struct files_win_over_database
{
    static constexpr bool collapse_same_file = Base::collapse_same_file;
    static dedup_decision resolve(std::span<dedup_entry const> g)
    {
        std::size_t files = 0;
        for (auto const& e : g) files += !e.database;
        if (files == 0 || files == g.size()) return Base::resolve(g);
        // Decide among the file skills only, then map back.
        std::vector<dedup_entry> only_files;
        std::vector<std::size_t> index;
        for (std::size_t i = 0; i < g.size(); ++i)
            if (!g[i].database) {
                only_files.push_back(g[i]);
                index.push_back(i);
            }
        return {index[Base::resolve(only_files).winner]};
    }
};

/// Nobody wins: every skill of the group is kept under `name@tier`.
struct keep_all
{
    static constexpr bool collapse_same_file = false;
    static dedup_decision resolve(std::span<dedup_entry const>) { return {0, true}; }
};

/// Codex: every copy of a name is kept and listed (as `name@tier`), but one file reached
/// through two roots counts once (Codex removes duplicates by canonical path only).
struct keep_every_copy
{
    static constexpr bool collapse_same_file = true;
    static dedup_decision resolve(std::span<dedup_entry const>) { return {0, true}; }
};

/// Gemini CLI: the tier listed last wins, and every loser is a warning, not a note
/// (Gemini prints "Skill conflict detected" for each).
struct highest_tier_wins_warned : highest_tier_wins
{
    static constexpr bool warn_on_shadow = true;
};

static_assert(dedup_policy<first_tier_wins>, "first_tier_wins must model dedup_policy");
static_assert(dedup_policy<highest_tier_wins>, "highest_tier_wins must model dedup_policy");
static_assert(dedup_policy<files_win_over_database<>>, "files_win_over_database must model dedup_policy");
static_assert(dedup_policy<keep_all>, "keep_all must model dedup_policy");
static_assert(dedup_policy<keep_every_copy>, "keep_every_copy must model dedup_policy");
static_assert(dedup_policy<highest_tier_wins_warned>, "highest_tier_wins_warned must model dedup_policy");

} // namespace skillmd

#endif
