// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_INDEX_IMPL_RENDERER_HPP
#define SKILLMD_INDEX_IMPL_RENDERER_HPP

// How render_index (index/render.hpp) works: one renderer per call measures the
// entries once, then fits them to the budget with the strategy it names.

#include <skillmd/index/entries.hpp>

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
        // A frame sized for every entry (Codex's roots) shrinks to the entries listed.
        if constexpr (requires(F& f) { f.listed_only(entries_, std::span<char const>(listed_)); }) {
            std::size_t const before = overhead_;
            fmt_.listed_only(entries_, listed_);
            overhead_ = fmt_.overhead();
            used_ = used_ - before + overhead_;
        }
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

} // namespace skillmd

#endif
