// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_INDEX_RENDER_HPP
#define SKILLMD_INDEX_RENDER_HPP

// Layer 1 of progressive disclosure: the skill index a system prompt
// carries. An index format (skillmd/index/formats.hpp) writes the frame and one entry;
// this header chooses the entries (visibility), fits them to a budget with one of four
// strategies, and reports which skills were shortened or left out.

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

    /// Records text `i` (texts are recorded in order; one left out has no marks) and
    /// returns its length in code points. An ASCII text of sixteen bytes or more, escaped
    /// as XML or HTML, is measured and marked in one pass.
    std::size_t measure(std::size_t i, std::string_view text, escaping e)
    {
        while (next_ <= i) first_[next_++] = static_cast<std::uint32_t>(marks_.size());
#if defined(__SSE2__)
        if ((e == escaping::xml || e == escaping::html) && text.size() >= 16) {
            // Sixteen bytes at a time, visiting only the characters escaping rewrites.
            std::uint32_t added = 0;
            bool const ascii = for_each_escape_hit(text, e, [&](std::size_t at) {
                // what `&amp;`, `&lt;`/`&gt;`, `&quot;`/`&#x27;` add (the only hits)
                char const c = text[at];
                added += c == '&' ? 4u : (c == '<' || c == '>') ? 3u : 5u;
                marks_.emplace_back(static_cast<std::uint32_t>(at), added);
            });
            if (ascii) {
                first_[next_] = static_cast<std::uint32_t>(marks_.size());
                return text.size();
            }
            marks_.resize(first_[i]); // byte indexes, not code points': marked again below
        }
#endif
        std::size_t const length = utf8_length(text);
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
        return length;
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
    /// True when escaping lengthens text `i` somewhere.
    bool marked(std::size_t i) const noexcept { return i < next_ && first_[i] != first_[i + 1]; }

private:
    std::vector<mark> marks_;
    std::vector<std::uint32_t> first_; ///< text i's marks are [first_[i], first_[i + 1])
    std::size_t next_ = 0;             ///< texts recorded so far
};

/** One rendering of an index: the entries, the format, the budget, and what has been
    written so far. `render_index` makes one and runs the budget's strategy; each
    strategy is a member, and the state they share lives here rather than in lambdas.
*/
template <index_format F>
class index_renderer
{
public:
    index_renderer(std::span<index_entry const> entries, F const& fmt, index_budget const& budget)
        : entries_(entries), fmt_(fmt), budget_(budget), limit_(budget.resolve()), spans_(entries.size()),
          made_(entries.size(), 0), short_flag_(entries.size(), 0), listed_(entries.size(), 0)
    {
        // A format may look at all the entries first, on its own copy (Codex numbers the
        // roots the entries use).
        if constexpr (requires(F& f) { f.prepare(entries); }) fmt_.prepare(entries);
        if constexpr (requires { fmt_.overhead(); }) overhead_ = fmt_.overhead();
        used_ = overhead_;
        reserve();
    }

    index_result run()
    {
        switch (budget_.strategy) {
        case budget_strategy::stop_at_overflow: stop_at_overflow(); break;
        case budget_strategy::skip_overflow: skip_overflow(); break;
        case budget_strategy::always_bypass: always_bypass(); break;
        case budget_strategy::shorten_then_drop: shorten_then_drop(); break;
        }
        return finish();
    }

private:
    std::size_t size() const noexcept { return entries_.size(); }

    /// Room for what will be written: every description when every entry will be
    /// described, and an estimate of the output, so neither string regrows.
    void reserve()
    {
        if (budget_.strategy == budget_strategy::skip_overflow || budget_.strategy == budget_strategy::shorten_then_drop ||
            limit_ == index_summary::unlimited) {
            std::size_t room = 0;
            for (auto const& e : entries_) room += e.description.size() + e.when_to_use.size() + 3;
            pool_.reserve(room);
        }
        std::size_t estimate = 256;
        for (auto const& e : entries_)
            estimate += e.description.size() + e.when_to_use.size() + e.location.size() + 2 * e.command.size() + 128;
        res_.text.reserve(estimate);
    }

    /// The text entry i shows, with the per-entry cap applied; made when first needed, so a
    /// strategy that stops early does not describe every skill. All of them live end to
    /// end in one string: a view of one is good until the next is made.
    std::string_view text(std::size_t i)
    {
        if (!made_[i]) {
            made_[i] = 1;
            fetch_ahead(i);
            std::size_t const start = pool_.size();
            fmt_.describe(pool_, entries_[i]);
            if (budget_.entry_cap > 0 && utf8_length(std::string_view(pool_).substr(start)) > budget_.entry_cap) {
                std::string const cut = shorten(std::string_view(pool_).substr(start), budget_.entry_cap);
                pool_.replace(start, std::string::npos, cut);
                short_flag_[i] = 1;
            }
            spans_[i] = {start, pool_.size() - start};
        }
        return std::string_view(pool_).substr(spans_[i].first, spans_[i].second);
    }

    /// Entries are mostly visited in order; a snapshot's are packed (listing_rows), but
    /// entries made by hand may view strings scattered over the heap: those of the entry a
    /// prefetch distance ahead are on their way meanwhile.
    void fetch_ahead(std::size_t i) const noexcept
    {
        if (i + detail::prefetch_distance >= size()) return;
        index_entry const& e = entries_[i + detail::prefetch_distance];
        detail::prefetch(e.name.data());
        detail::prefetch(e.description.data());
    }

    bool fits(std::size_t n) const { return limit_ == index_summary::unlimited || used_ + n <= limit_; }

    /// Appends entry i showing `shown` straight into the result; keeps it if it fits (or
    /// `force`), else takes it back. The frame's head goes in front at the end, when the
    /// summary it may mention is known.
    bool place(std::size_t i, std::string_view shown, bool force)
    {
        std::string& body = res_.text;
        std::size_t const mark = body.size();
        fmt_.entry(body, entries_[i], shown);
        std::size_t const n = appended_length(body, mark);
        if (force || fits(n)) {
            used_ += n;
            listed_[i] = 1;
            return true;
        }
        body.resize(mark);
        return false;
    }

    /// Code points entry i takes written with `shown`, measured in a scratch string.
    std::size_t measured(std::size_t i, std::string_view shown)
    {
        scratch_.clear();
        fmt_.entry(scratch_, entries_[i], shown);
        return utf8_length(scratch_);
    }

    void stop_at_overflow()
    {
        for (std::size_t i = 0; i < size() && place(i, text(i), false); ++i) {}
    }

    void skip_overflow()
    {
        for (std::size_t i = 0; i < size(); ++i) place(i, text(i), false);
    }

    /// `always` entries are counted first, so the others get what they leave; the others
    /// stop at the first that does not fit.
    void always_bypass()
    {
        for (std::size_t i = 0; i < size(); ++i)
            if (entries_[i].always) used_ += measured(i, text(i));
        bool stopped = false;
        for (std::size_t i = 0; i < size(); ++i) {
            if (entries_[i].always) {
                std::size_t const counted = used_;
                place(i, text(i), true);
                used_ = counted;
            } else if (!stopped && !place(i, text(i), false)) {
                stopped = true;
            }
        }
    }

    /// Codex's rule: everything as it is if it fits (stage 1); else every entry at its
    /// minimal form and the room left shared out among the descriptions (stage 2); else
    /// minimal entries in order until the budget is full (stage 3).
    void shorten_then_drop()
    {
        if (limit_ == index_summary::unlimited) {
            for (std::size_t i = 0; i < size(); ++i) place(i, text(i), true);
            return;
        }
        plan_costs();
        if (total_min_ <= limit_ && total_full_ <= limit_) {
            for (std::size_t i = 0; i < size(); ++i) place(i, text(i), true);
        } else if (total_min_ <= limit_) {
            share_out(limit_ - total_min_);
        } else {
            used_ = overhead_;
            for (std::size_t i = 0; i < size() && place(i, {}, false); ++i) short_flag_[i] = !text(i).empty();
        }
    }

    /// Each entry's minimal form, what a description adds around itself, and what each of
    /// its code points costs once escaped: enough to plan without writing. A description's
    /// cost is its code points, unless the format escapes some of them: then a table of
    /// escaped prefix lengths.
    void plan_costs()
    {
        costs_ = escape_marks(size());
        min_cost_.assign(size(), 0);
        extra_.assign(size(), 0);
        length_.assign(size(), 0);
        total_min_ = total_full_ = overhead_;
        if constexpr (has_entry_parts<F>) {
            std::size_t room = 0;
            for (auto const& e : entries_) room += e.name.size() + e.location.size() + 32;
            parts_.reserve(room);
            part_at_.reserve(size());
        }
        for (std::size_t i = 0; i < size() && total_min_ <= limit_; ++i) {
            fetch_ahead(i);
            if constexpr (has_entry_parts<F>) {
                // Head and tail written once, here; stage 2 copies them around the descriptions.
                std::size_t const start = parts_.size();
                fmt_.head(parts_, entries_[i]);
                std::size_t const mid = parts_.size();
                fmt_.tail(parts_, entries_[i]);
                part_at_.push_back({start, mid});
                min_cost_[i] = utf8_length(std::string_view(parts_).substr(start));
            } else {
                min_cost_[i] = measured(i, {});
            }
            total_min_ += min_cost_[i];
        }
        for (std::size_t i = 0; i < size() && total_min_ <= limit_; ++i) { // not needed by stage 3
            // What a description adds around itself: declared by the format, or measured.
            if constexpr (requires { F::description_overhead; }) {
                extra_[i] = F::description_overhead;
            } else {
                std::size_t const with_one = measured(i, "x");
                extra_[i] = with_one > min_cost_[i] + 1 ? with_one - min_cost_[i] - 1 : 0;
            }
            length_[i] = costs_.measure(i, text(i), F::escape);
            total_full_ += min_cost_[i] + (length_[i] == 0 ? 0 : extra_[i] + costs_.cost(i, length_[i]));
        }
    }

    /// What entry i's description costs shown to `level` code points.
    std::size_t cost_at(std::size_t i, std::size_t level) const
    {
        std::size_t const k = std::min(level, length_[i]);
        return k == 0 ? 0 : extra_[i] + costs_.cost(i, k);
    }
    /// What all descriptions cost shown to `level` code points (or something over `room`).
    /// Descriptions that escaping does not lengthen are summed from the histogram of their
    /// lengths; the others one by one.
    std::size_t total_at(std::size_t level, std::size_t room) const
    {
        if (level == 0) return 0;
        std::size_t const l = std::min(level, plain_.size() - 1);
        // every described plain entry's extra, the lengths up to `level`, `level` for each longer one
        std::size_t t = plain_extra_ + plain_sum_[l] + level * (plain_.back() - plain_[l]);
        for (std::size_t i : escaped_) {
            if (t > room) break;
            t += cost_at(i, level);
        }
        return t;
    }
    /// Sets up `total_at`: for descriptions without escapes, how many are at most n code
    /// points long (`plain_[n]`) and their summed lengths (`plain_sum_[n]`).
    void histogram(std::size_t longest)
    {
        plain_.assign(longest + 1, 0);
        plain_sum_.assign(longest + 1, 0);
        plain_extra_ = 0;
        escaped_.clear();
        for (std::size_t i = 0; i < size(); ++i) {
            if (length_[i] == 0) continue;
            if (costs_.marked(i)) {
                escaped_.push_back(i);
                continue;
            }
            ++plain_[length_[i]];
            plain_sum_[length_[i]] += length_[i];
            plain_extra_ += extra_[i];
        }
        for (std::size_t n = 1; n <= longest; ++n) {
            plain_[n] += plain_[n - 1];
            plain_sum_[n] += plain_sum_[n - 1];
        }
    }

    /// Stage 2: every entry at its minimal form, `room` shared out one character at a time,
    /// round-robin, in entry order: the most full rounds that fit, then one more character
    /// where it still fits.
    void share_out(std::size_t room)
    {
        std::size_t lo = 0, hi = 0;
        for (auto n : length_) hi = std::max(hi, n);
        histogram(hi);
        while (lo < hi) {
            std::size_t const mid = lo + (hi - lo + 1) / 2;
            if (total_at(mid, room) <= room) lo = mid;
            else hi = mid - 1;
        }
        std::size_t spent = total_at(lo, room);
        std::vector<std::size_t> allow(size(), 0);
        for (std::size_t i = 0; i < size(); ++i) allow[i] = std::min(lo, length_[i]);
        for (std::size_t i = 0; i < size(); ++i) {
            if (allow[i] >= length_[i]) continue;
            std::size_t const more = cost_at(i, allow[i] + 1) - cost_at(i, allow[i]);
            if (spent + more <= room) {
                spent += more;
                ++allow[i];
            }
        }
        // Every entry is listed and which are shortened is known now: the frame's head goes
        // first, rather than in front of a megabyte of entries at the end.
        index_summary sum;
        sum.budget = limit_;
        sum.listed = size();
        for (std::size_t i = 0; i < size(); ++i) {
            if (allow[i] < length_[i]) short_flag_[i] = 1; // or already, by the per-entry cap
            sum.shortened += short_flag_[i] != 0;
        }
        fmt_.begin(res_.text, sum);
        head_written_ = true;
        used_ = overhead_;
        for (std::size_t i = 0; i < size(); ++i) {
            std::string_view t = text(i);
            bool const ascii = length_[i] == t.size(); // code points are bytes
            if (allow[i] < length_[i]) t = ascii ? t.substr(0, allow[i]) : prefix_code_points(t, allow[i]);
            t = trim_end(t, " ");
            // The plan knows what the entry costs; it is written without being counted again
            // (index_budgets/shared_out_descriptions_are_counted_as_written holds the two equal).
            if constexpr (has_entry_parts<F>) {
                std::size_t const start = part_at_[i].first, mid = part_at_[i].second;
                std::size_t const stop = i + 1 < part_at_.size() ? part_at_[i + 1].first : parts_.size();
                res_.text.append(parts_, start, mid - start);
                if (!t.empty()) fmt_.described(res_.text, t);
                res_.text.append(parts_, mid, stop - mid);
            } else {
                fmt_.entry(res_.text, entries_[i], t);
            }
            used_ += min_cost_[i] + cost_at(i, ascii ? t.size() : utf8_length(t));
            listed_[i] = 1;
        }
    }

    /// The lists of listed, shortened and omitted commands; the frame around the entries;
    /// the notice of what was left out.
    index_result finish()
    {
        res_.budget = limit_;
        index_summary sum;
        sum.budget = limit_;
        std::size_t const listed = static_cast<std::size_t>(std::count(listed_.begin(), listed_.end(), 1));
        res_.listed.reserve(listed);
        res_.omitted.reserve(size() - listed);
        if (std::find(short_flag_.begin(), short_flag_.end(), 1) != short_flag_.end()) res_.shortened.reserve(listed);
        for (std::size_t i = 0; i < size(); ++i) {
            std::string_view const c = entries_[i].command;
            if (listed_[i]) {
                res_.listed.emplace_back(c);
                if (short_flag_[i]) res_.shortened.emplace_back(c);
            } else {
                res_.omitted.emplace_back(c);
            }
        }
        sum.listed = res_.listed.size();
        sum.omitted = res_.omitted.size();
        sum.shortened = res_.shortened.size();
        res_.used = used_;
        if (!head_written_) {
            std::string head;
            fmt_.begin(head, sum);
            res_.text.insert(0, head);
        }
        fmt_.end(res_.text, sum);
        if (budget_.announce_omitted && sum.omitted > 0) {
            if constexpr (!requires { F::announces_omitted; }) {
                if (!res_.text.empty() && res_.text.back() != '\n') res_.text += '\n';
                res_.text += "(" + std::to_string(sum.omitted) + (sum.omitted == 1 ? " more skill is" : " more skills are") +
                             " not listed for lack of room.)\n";
            }
        }
        return std::move(res_);
    }

    std::span<index_entry const> entries_;
    F fmt_; ///< a copy: `prepare` may set it up for these entries
    index_budget const& budget_;
    std::size_t const limit_;
    std::size_t overhead_ = 0;
    std::size_t used_ = 0;
    index_result res_;
    std::string pool_, scratch_;
    std::vector<std::pair<std::size_t, std::size_t>> spans_;
    std::vector<char> made_, short_flag_, listed_;
    // shorten_then_drop's plan
    std::vector<std::size_t> min_cost_, extra_, length_;
    std::vector<std::size_t> plain_, plain_sum_, escaped_; // total_at's histogram (`histogram`)
    std::size_t plain_extra_ = 0;
    std::string parts_; // has_entry_parts: every entry's head then tail, end to end
    std::vector<std::pair<std::size_t, std::size_t>> part_at_; // where entry i's head and tail start
    escape_marks costs_{0};
    std::size_t total_min_ = 0, total_full_ = 0;
    bool head_written_ = false; ///< a strategy that knew the summary early wrote the frame's head first
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
    return detail::index_renderer<F>(entries, fmt, budget).run();
}

template <index_format F>
index_result render_index(std::vector<index_entry> const& entries, F const& fmt, index_budget const& budget)
{
    return render_index(std::span<index_entry const>(entries), fmt, budget);
}

} // namespace skillmd

#endif
