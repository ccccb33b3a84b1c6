// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_INDEX_RENDER_HPP
#define SKILLMD_INDEX_RENDER_HPP

// Layer 1 of progressive disclosure: the skill index a system prompt
// carries. An index format (skillmd/index/formats.hpp) writes the frame and one entry;
// this header chooses the entries (visibility), fits them to a budget with one of four
// strategies, and reports which skills were shortened or left out.

#include <skillmd/detail/prompt_text.hpp>
#include <skillmd/storage/registry.hpp>

#include <algorithm>
#include <charconv>
#include <concepts>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace skillmd {

/// One skill as an index shows it. Views point into the snapshot it came from.
struct index_entry
{
    std::string_view command;       ///< lookup key; `/command` for users
    std::string_view name;          ///< display name: the label where the dialect has one
    std::string_view description;
    std::string_view when_to_use;   ///< Claude Code: shown after the description
    std::string_view argument_hint;
    std::string location;           ///< absolute path of the skill file ("" for database skills)
    std::string_view tier;
    bool always = false;            ///< sven: listed whatever the budget
    skill_record const* record = nullptr;
};

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

/// The entries for `snap` under `which`, in the snapshot's order (by command).
inline std::vector<index_entry> index_entries(snapshot const& snap, listing which = listing::model)
{
    std::vector<index_entry> out;
    out.reserve(snap.skills().size());
    std::string cwd;
    for (auto const& r : snap.skills()) {
        if (!r.visible_to(which == listing::all ? visibility::all : visibility::model)) continue;
        if (which == listing::model_documented && !r.meta.description_given && !r.meta.when_to_use) continue;
        index_entry e;
        e.command = r.command;
        e.name = r.meta.label ? std::string_view(*r.meta.label) : std::string_view(r.meta.name);
        e.description = r.meta.description;
        if (r.meta.when_to_use) e.when_to_use = *r.meta.when_to_use;
        if (r.meta.argument_hint) e.argument_hint = *r.meta.argument_hint;
        // Files get an absolute path; other sources (memory, plugins of them) keep their locator.
        if (!r.where.database && !r.where.path.empty()) {
            std::string_view p = r.where.path;
            if (p.front() == '/' || r.where.directory.empty()) {
                e.location = p;
            } else {
                if (cwd.empty()) {
                    std::error_code ec;
                    cwd = std::filesystem::current_path(ec).string();
                }
                while (p.starts_with("./")) p.remove_prefix(2);
                e.location = cwd;
                if (e.location.empty() || e.location.back() != '/') e.location += '/';
                e.location += p;
            }
        }
        e.tier = r.tier;
        e.always = r.meta.always;
        e.record = &r;
        out.push_back(std::move(e));
    }
    return out;
}

namespace detail {

inline std::size_t appended_length(std::string const& out, std::size_t mark)
{
    return utf8_length(std::string_view(out).substr(mark));
}

/// Where escaping lengthens each of many texts, in one table: for each character a
/// text's escape rewrites (all ASCII), its code point index and the characters added up
/// to and including it. Most texts need no escape and add nothing to the table.
class escape_marks
{
public:
    using mark = std::pair<std::uint32_t, std::uint32_t>;

    explicit escape_marks(std::size_t texts) : first_(texts + 1, 0) {}

    /// Records text `i` (texts are recorded in order; one left out has no marks).
    void record(std::size_t i, std::string_view text, escaping e)
    {
        while (next_ <= i) first_[next_++] = static_cast<std::uint32_t>(marks_.size());
        if (needs_escaping(text, e)) {
            auto const& special = escape_table(e);
            std::uint32_t cp = 0, added = 0;
            for (char ch : text) {
                auto const c = static_cast<unsigned char>(ch);
                if ((c & 0xc0) == 0x80) continue;
                if (special[c]) {
                    added += static_cast<std::uint32_t>(escape_of(c, e).size() - 1);
                    marks_.emplace_back(cp, added);
                }
                ++cp;
            }
        }
        first_[next_] = static_cast<std::uint32_t>(marks_.size());
    }
    /// Escaped length of the first `k` code points of text `i`.
    std::size_t cost(std::size_t i, std::size_t k) const
    {
        if (k == 0 || i >= next_) return k;
        auto const b = marks_.begin() + first_[i], e = marks_.begin() + first_[i + 1];
        if (b == e) return k;
        auto const it = std::upper_bound(b, e, mark(static_cast<std::uint32_t>(k - 1), ~0u));
        return k + (it == b ? 0 : std::prev(it)->second);
    }

private:
    std::vector<mark> marks_;
    std::vector<std::uint32_t> first_; ///< text i's marks are [first_[i], first_[i + 1])
    std::size_t next_ = 0;             ///< texts recorded so far
};

} // namespace detail

/** Renders `entries` with `fmt` within `budget`.

    Lengths are code points. Entries keep their order; a description is shortened only
    by the per-entry cap (with `…`) or by the shorten-then-drop strategy (cut, as Codex
    does); both cuts fall between code points.
*/
template <index_format F>
index_result render_index(std::span<index_entry const> entries, F const& fmt, index_budget const& budget)
{
    index_result res;
    std::size_t const limit = budget.resolve();
    res.budget = limit;
    std::size_t overhead = 0;
    if constexpr (requires { fmt.overhead(); }) overhead = fmt.overhead();

    // The text each entry shows, with the per-entry cap applied; made when first needed,
    // so a strategy that stops early does not describe every skill. All of them live end
    // to end in one string: a view of one is good until the next is made.
    std::string pool;
    std::vector<std::pair<std::size_t, std::size_t>> spans(entries.size());
    if (budget.strategy == budget_strategy::skip_overflow || budget.strategy == budget_strategy::shorten_then_drop ||
        limit == index_summary::unlimited) { // every entry will be described: room for all, no regrowth
        std::size_t room = 0;
        for (auto const& e : entries) room += e.description.size() + e.when_to_use.size() + 3;
        pool.reserve(room);
    }
    std::vector<char> made(entries.size(), 0), short_flag(entries.size(), 0);
    auto const text = [&](std::size_t i) -> std::string_view {
        if (!made[i]) {
            made[i] = 1;
            std::size_t const start = pool.size();
            fmt.describe(pool, entries[i]);
            if (budget.entry_cap > 0 && detail::utf8_length(std::string_view(pool).substr(start)) > budget.entry_cap) {
                std::string const cut = detail::shorten(std::string_view(pool).substr(start), budget.entry_cap);
                pool.replace(start, std::string::npos, cut);
                short_flag[i] = 1;
            }
            spans[i] = {start, pool.size() - start};
        }
        return std::string_view(pool).substr(spans[i].first, spans[i].second);
    };

    // Entries are written straight into the result; the frame's head goes in front at
    // the end, when the summary it may mention is known.
    std::string& body = res.text;
    {
        std::size_t estimate = 256;
        for (auto const& e : entries) estimate += e.description.size() + e.when_to_use.size() + e.location.size() + 2 * e.command.size() + 128;
        body.reserve(estimate);
    }
    std::vector<char> listed(entries.size(), 0);
    std::size_t used = overhead;
    auto const fits = [&](std::size_t n) { return limit == index_summary::unlimited || used + n <= limit; };
    // Appends entry i with `shown`; keeps it if it fits (or `force`), else takes it back.
    auto const place = [&](std::size_t i, std::string_view shown, bool force) {
        std::size_t const mark = body.size();
        fmt.entry(body, entries[i], shown);
        std::size_t const n = detail::appended_length(body, mark);
        if (force || fits(n)) {
            used += n;
            listed[i] = 1;
            return true;
        }
        body.resize(mark);
        return false;
    };

    switch (budget.strategy) {
    case budget_strategy::stop_at_overflow:
        for (std::size_t i = 0; i < entries.size() && place(i, text(i), false); ++i) {}
        break;
    case budget_strategy::skip_overflow:
        for (std::size_t i = 0; i < entries.size(); ++i) place(i, text(i), false);
        break;
    case budget_strategy::always_bypass: {
        // `always` entries are counted first, so the others get what they leave.
        std::string scratch;
        for (std::size_t i = 0; i < entries.size(); ++i)
            if (entries[i].always) {
                scratch.clear();
                fmt.entry(scratch, entries[i], text(i));
                used += detail::utf8_length(scratch);
            }
        bool stopped = false;
        for (std::size_t i = 0; i < entries.size(); ++i) {
            if (entries[i].always) {
                std::size_t const counted = used;
                place(i, text(i), true);
                used = counted;
            } else if (!stopped && !place(i, text(i), false)) {
                stopped = true;
            }
        }
        break;
    }
    case budget_strategy::shorten_then_drop: {
        if (limit == index_summary::unlimited) {
            for (std::size_t i = 0; i < entries.size(); ++i) place(i, text(i), true);
            break;
        }
        // Each entry's minimal form, what a description adds around itself, and what
        // each of its code points costs once escaped: enough to plan without writing.
        // A description's cost is its code points, unless the format escapes some of
        // them: then a table of escaped prefix lengths.
        std::vector<std::size_t> min_cost(entries.size()), extra(entries.size()), length(entries.size());
        detail::escape_marks costs(entries.size());
        std::string scratch;
        std::size_t total_min = overhead, total_full = overhead;
        for (std::size_t i = 0; i < entries.size() && total_min <= limit; ++i) {
            scratch.clear();
            fmt.entry(scratch, entries[i], {});
            min_cost[i] = detail::utf8_length(scratch);
            total_min += min_cost[i];
        }
        for (std::size_t i = 0; i < entries.size() && total_min <= limit; ++i) { // not needed by stage 3
            // What a description adds around itself: declared by the format, or measured.
            if constexpr (requires { F::description_overhead; }) {
                extra[i] = F::description_overhead;
            } else {
                scratch.clear();
                fmt.entry(scratch, entries[i], "x");
                std::size_t const with_one = detail::utf8_length(scratch);
                extra[i] = with_one > min_cost[i] + 1 ? with_one - min_cost[i] - 1 : 0;
            }
            length[i] = detail::utf8_length(text(i));
            costs.record(i, text(i), F::escape);
            total_full += min_cost[i] + (length[i] == 0 ? 0 : extra[i] + costs.cost(i, length[i]));
        }
        // Stage 1: everything fits as it is.
        if (total_min <= limit && total_full <= limit) {
            for (std::size_t i = 0; i < entries.size(); ++i) place(i, text(i), true);
            break;
        }
        // Stage 2: every entry at its minimal form, the rest shared out one character
        // at a time, round-robin, in entry order.
        std::vector<std::size_t> allow(entries.size(), 0);
        if (total_min <= limit) {
            std::size_t const room = limit - total_min;
            auto const cost_at = [&](std::size_t i, std::size_t level) -> std::size_t {
                std::size_t const k = std::min(level, length[i]);
                return k == 0 ? 0 : extra[i] + costs.cost(i, k);
            };
            auto const total_at = [&](std::size_t level) {
                std::size_t t = 0;
                for (std::size_t i = 0; i < entries.size() && t <= room; ++i) t += cost_at(i, level);
                return t;
            };
            std::size_t lo = 0, hi = 0;
            for (auto n : length) hi = std::max(hi, n);
            while (lo < hi) { // the most full rounds that fit
                std::size_t const mid = lo + (hi - lo + 1) / 2;
                if (total_at(mid) <= room) lo = mid;
                else hi = mid - 1;
            }
            std::size_t spent = total_at(lo);
            for (std::size_t i = 0; i < entries.size(); ++i) allow[i] = std::min(lo, length[i]);
            for (std::size_t i = 0; i < entries.size(); ++i) { // one more character where it still fits
                if (allow[i] >= length[i]) continue;
                std::size_t const more = cost_at(i, allow[i] + 1) - cost_at(i, allow[i]);
                if (spent + more <= room) {
                    spent += more;
                    ++allow[i];
                }
            }
            used = overhead;
            for (std::size_t i = 0; i < entries.size(); ++i) {
                std::string_view t = text(i);
                if (allow[i] < length[i]) // ASCII text: code points are bytes
                    t = length[i] == t.size() ? t.substr(0, allow[i]) : detail::prefix_code_points(t, allow[i]);
                while (!t.empty() && t.back() == ' ') t.remove_suffix(1);
                place(i, t, true);
                if (allow[i] < length[i]) short_flag[i] = 1;
            }
        } else {
            // Stage 3: minimal entries in order until the budget is full.
            used = overhead;
            for (std::size_t i = 0; i < entries.size() && place(i, {}, false); ++i) short_flag[i] = !text(i).empty();
        }
        break;
    }
    }

    index_summary sum;
    sum.budget = limit;
    for (std::size_t i = 0; i < entries.size(); ++i) {
        std::string const c(entries[i].command);
        if (listed[i]) {
            res.listed.push_back(c);
            if (short_flag[i]) res.shortened.push_back(c);
        } else {
            res.omitted.push_back(c);
        }
    }
    sum.listed = res.listed.size();
    sum.omitted = res.omitted.size();
    sum.shortened = res.shortened.size();
    res.used = used;
    std::string head;
    fmt.begin(head, sum);
    res.text.insert(0, head);
    fmt.end(res.text, sum);
    if (budget.announce_omitted && sum.omitted > 0) {
        if constexpr (!requires { F::announces_omitted; }) {
            if (!res.text.empty() && res.text.back() != '\n') res.text += '\n';
            res.text += "(" + std::to_string(sum.omitted) + (sum.omitted == 1 ? " more skill is" : " more skills are") +
                        " not listed for lack of room.)\n";
        }
    }
    return res;
}

template <index_format F>
index_result render_index(std::vector<index_entry> const& entries, F const& fmt, index_budget const& budget)
{
    return render_index(std::span<index_entry const>(entries), fmt, budget);
}

} // namespace skillmd

#endif
