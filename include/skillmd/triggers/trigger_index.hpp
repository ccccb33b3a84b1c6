// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_TRIGGERS_TRIGGER_INDEX_HPP
#define SKILLMD_TRIGGERS_TRIGGER_INDEX_HPP

// The trigger phrases of every skill of a snapshot (koshi), in levels of matchers that
// the index of the next snapshot shares.

#include <skillmd/storage/registry.hpp>
#include <skillmd/triggers/matcher.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

namespace skillmd {

/// A skill's trigger phrases: the `triggers` field where the dialect has one (koshi),
/// else a `triggers` key the dialect left unclaimed (a list of strings, or one string).
/// `M`: a skill_metadata, or a record's packed_metadata.
template <class M>
std::vector<std::string> triggers_of(M const& m)
{
    std::vector<std::string> out;
    if (!m.triggers.empty()) {
        for (auto const& t : m.triggers) out.emplace_back(t);
        return out;
    }
    for (auto const& u : m.unknown) {
        if (u.key != "triggers") continue;
        boost::system::error_code ec;
        auto const v = boost::json::parse(std::string_view(u.json), ec);
        if (ec) continue;
        if (auto const* s = v.if_string()) out.emplace_back(*s);
        if (auto const* a = v.if_array())
            for (auto const& e : *a)
                if (auto const* s = e.if_string()) out.emplace_back(*s);
    }
    return out;
}

/// Every trigger phrase of a snapshot's skills, matched against a message in one pass a level.
///
/// An index made for one snapshot can be derived from the index of an earlier snapshot of
/// the same registry: the skills' phrases live in levels, each an automaton made once and
/// shared by every index derived from the one that made it. A derived index compares the
/// snapshots' chunks of records (a refresh shares those it left alone), puts the skills it
/// has not seen in a new level and marks those that left as gone from theirs. Levels are
/// merged while one is at least half the size of the next larger (so there are at most
/// about log2 of the skills), and one is made again without its gone skills when they are
/// half of it or their phrases half its phrases: a change costs, amortized, in proportion
/// to its skills and the logarithm of the index, and only the chunks that changed are read.
class trigger_index
{
public:
    explicit trigger_index(std::shared_ptr<snapshot const> snap, visibility who = visibility::model)
        : snap_(std::move(snap)), who_(who)
    {
        std::vector<record_ptr> visible;
        for (auto const& chunk : snap_->skills().chunks())
            for (auto const& r : *chunk)
                if (r->visible_to(who_)) visible.push_back(r);
        add_level(std::move(visible));
    }

    /// The index of `snap` derived from `earlier`, the index of an earlier snapshot (of the
    /// same registry, for the work to be small; of any, for the answer to be right: records
    /// are told apart by address, and each level holds the records it names). It indexes the
    /// skills visible to whom `earlier` does.
    trigger_index(trigger_index const& earlier, std::shared_ptr<snapshot const> snap)
        : snap_(std::move(snap)), who_(earlier.who_), levels_(earlier.levels_), in_order_(false)
    {
        auto const& before = earlier.snap_->skills().chunks();
        auto const& now = snap_->skills().chunks();
        std::unordered_set<void const*> before_set, now_set;
        before_set.reserve(before.size());
        now_set.reserve(now.size());
        for (auto const& c : before) before_set.insert(c.get());
        for (auto const& c : now) now_set.insert(c.get());
        // The records of the chunks one list has and the other not, by address: a record in
        // both (a chunk split or copied around it) did not change.
        std::vector<record_ptr> came;
        std::vector<skill_record const*> left;
        for (auto const& c : now)
            if (!before_set.count(c.get()))
                for (auto const& r : *c) came.push_back(r);
        for (auto const& c : before)
            if (!now_set.count(c.get()))
                for (auto const& r : *c) left.push_back(r.get());
        auto const by_address = [](record_ptr const& a, record_ptr const& b) { return a.get() < b.get(); };
        std::sort(came.begin(), came.end(), by_address);
        std::sort(left.begin(), left.end());
        std::vector<record_ptr> added;
        std::vector<skill_record const*> gone;
        std::size_t i = 0, j = 0;
        while (i < came.size() || j < left.size()) {
            if (j == left.size() || (i < came.size() && came[i].get() < left[j])) {
                if (came[i]->visible_to(who_)) added.push_back(came[i]);
                ++i;
            } else if (i == came.size() || left[j] < came[i].get()) {
                gone.push_back(left[j++]);
            } else {
                ++i, ++j;
            }
        }
        mark_gone(gone);
        add_level(std::move(added));
        balance();
    }

    /// The skills with a phrase in `message`, in the snapshot's order (by command).
    std::vector<skill_record const*> match(std::string_view message) const
    {
        std::vector<skill_record const*> out;
        auto const folded = trigger_matcher::fold(message); // once for every level
        for (auto const& l : levels_)
            for (auto id : l.at->matcher.match(folded)) {
                skill_record const* r = l.at->records[id].get();
                if (!is_gone(l, r)) out.push_back(r);
            }
        if (!in_order_) in_snapshot_order(out); // a derived index's levels hold them in no one order
        return out;
    }

    /// The snapshot this index is of.
    std::shared_ptr<snapshot const> const& indexed() const noexcept { return snap_; }

    /// The skills with phrases.
    std::size_t skills() const noexcept
    {
        std::size_t n = 0;
        for (auto const& l : levels_) n += live(l);
        return n;
    }
    /// How many levels the phrases are in (about log2 of skills() at most).
    std::size_t levels() const noexcept { return levels_.size(); }
    /// The levels this index shares with `other` (made once, for either or an earlier one).
    std::size_t levels_shared_with(trigger_index const& other) const noexcept
    {
        std::size_t n = 0;
        for (auto const& a : levels_)
            for (auto const& b : other.levels_) n += a.at == b.at;
        return n;
    }

private:
    /// Some skills' phrases in one automaton, and the records its ids name (held, so no
    /// other record takes their addresses while the level lives): those of the records it
    /// is made from that have phrases, their order kept.
    struct level
    {
        std::vector<record_ptr> records;
        std::vector<std::pair<skill_record const*, std::size_t>> sorted; ///< (record, id) by address
        std::vector<std::size_t> weight; ///< per id: the bytes of its phrases, and 1
        std::size_t total = 0;           ///< their sum
        trigger_matcher matcher;

        explicit level(std::vector<record_ptr> const& recs)
        {
            for (auto const& r : recs) {
                auto const phrases = triggers_of(r->meta);
                if (phrases.empty()) continue;
                std::size_t const id = records.size();
                std::size_t w = 1;
                for (auto const& p : phrases) {
                    matcher.add(p, id);
                    w += p.size();
                }
                records.push_back(r);
                weight.push_back(w);
                total += w;
                sorted.emplace_back(r.get(), id);
            }
            matcher.build();
            std::sort(sorted.begin(), sorted.end());
        }
        /// The id of `r` here, or records.size().
        std::size_t id_of(skill_record const* r) const
        {
            auto const it = std::lower_bound(sorted.begin(), sorted.end(), std::pair<skill_record const*, std::size_t>(r, 0));
            return it != sorted.end() && it->first == r ? it->second : records.size();
        }
    };
    /// A level, and the skills of it that have left since it was made (by address).
    struct level_in_use
    {
        std::shared_ptr<level const> at;
        std::shared_ptr<std::vector<skill_record const*> const> gone;
        std::size_t gone_weight = 0; ///< what the gone skills' phrases weigh (level::weight)
    };
    static std::size_t live(level_in_use const& l) noexcept
    {
        return l.at->records.size() - (l.gone ? l.gone->size() : 0);
    }

    static bool is_gone(level_in_use const& l, skill_record const* r)
    {
        return l.gone && std::binary_search(l.gone->begin(), l.gone->end(), r);
    }

    /// A level of those of `recs` that have phrases, if any have.
    void add_level(std::vector<record_ptr> recs)
    {
        if (recs.empty()) return;
        auto made = std::make_shared<level const>(recs);
        if (!made->records.empty()) levels_.push_back({std::move(made), {}, 0});
    }

    /// Each record of `gone` (sorted) that a level holds, marked gone from it.
    void mark_gone(std::vector<skill_record const*> const& gone)
    {
        if (gone.empty()) return;
        for (auto& l : levels_) {
            std::vector<skill_record const*> more;
            for (auto const* r : gone) { // (a record that left once and came back is gone there already)
                std::size_t const id = l.at->id_of(r);
                if (id == l.at->records.size() || is_gone(l, r)) continue;
                more.push_back(r);
                l.gone_weight += l.at->weight[id];
            }
            if (more.empty()) continue;
            auto all = std::make_shared<std::vector<skill_record const*>>();
            if (l.gone) all->assign(l.gone->begin(), l.gone->end());
            auto const mid = all->insert(all->end(), more.begin(), more.end());
            std::inplace_merge(all->begin(), mid, all->end());
            l.gone = std::move(all);
        }
    }

    /// The records of `l` that have not left.
    static void take_live(level_in_use const& l, std::vector<record_ptr>& out)
    {
        for (auto const& r : l.at->records)
            if (!is_gone(l, r.get())) out.push_back(r);
    }

    /// Levels half gone (half their skills, or skills whose phrases weigh half of theirs:
    /// a gone skill's phrases are still walked by every match) made again; then, largest
    /// first, each level under half the one before it, two neighbours merged while not.
    /// A merge at least doubles the smaller one's level and adds half to the larger's, so a
    /// skill is merged about log2(skills) times at most.
    void balance()
    {
        std::vector<level_in_use> kept;
        for (auto& l : levels_) {
            if (live(l) == 0) continue;
            if (l.gone && (2 * l.gone->size() >= l.at->records.size() || 2 * l.gone_weight >= l.at->total)) {
                std::vector<record_ptr> recs;
                take_live(l, recs);
                l = {std::make_shared<level const>(std::move(recs)), {}, 0};
            }
            kept.push_back(std::move(l));
        }
        auto const larger = [](level_in_use const& a, level_in_use const& b) { return live(a) > live(b); };
        std::stable_sort(kept.begin(), kept.end(), larger);
        for (std::size_t i = kept.size(); i-- > 1;) {
            if (2 * live(kept[i]) < live(kept[i - 1])) continue;
            std::vector<record_ptr> recs;
            take_live(kept[i - 1], recs);
            take_live(kept[i], recs);
            kept.erase(kept.begin() + static_cast<std::ptrdiff_t>(i));
            kept[i - 1] = {std::make_shared<level const>(std::move(recs)), {}, 0};
            std::stable_sort(kept.begin(), kept.end(), larger);
            i = kept.size(); // from the smallest again: the merged level may now be too near another
        }
        levels_ = std::move(kept);
    }

    /// `out` (skills of the snapshot) put in its order: by command, and the records of one
    /// command (copies kept in one tier) by their place. Many: one pass over the snapshot.
    void in_snapshot_order(std::vector<skill_record const*>& out) const
    {
        auto const& list = snap_->skills();
        if (out.size() < 2) return;
        if (out.size() * 32 >= list.size()) {
            std::unordered_set<skill_record const*> const want(out.begin(), out.end());
            out.clear();
            for (auto const& r : list)
                if (want.count(&r)) out.push_back(&r);
            return;
        }
        auto const command_of = [](skill_record const* r) { return std::string_view(r->command); };
        std::stable_sort(out.begin(), out.end(), [&](auto const* a, auto const* b) { return command_of(a) < command_of(b); });
        for (std::size_t g = 0; g < out.size();) {
            std::size_t e = g + 1;
            while (e < out.size() && command_of(out[e]) == command_of(out[g])) ++e;
            if (e - g > 1) { // one walk along the command's records, until all of the group are met
                std::size_t lo = 0, hi = list.size();
                while (lo < hi) {
                    std::size_t const mid = lo + (hi - lo) / 2;
                    if (std::string_view(list[mid].command) < command_of(out[g])) lo = mid + 1;
                    else hi = mid;
                }
                std::unordered_set<skill_record const*> const group(out.begin() + static_cast<std::ptrdiff_t>(g),
                                                                    out.begin() + static_cast<std::ptrdiff_t>(e));
                std::size_t at = g;
                for (; lo < list.size() && at < e; ++lo)
                    if (group.count(&list[lo])) out[at++] = &list[lo];
            }
            g = e;
        }
    }

    std::shared_ptr<snapshot const> snap_;
    visibility who_;
    std::vector<level_in_use> levels_;
    bool in_order_ = true; ///< one level, its skills in the snapshot's order (a first index)
};

/** The trigger index of a registry's snapshot as it changes (any thread): each asked for
    a snapshot it has not seen is derived from the last one made, so a refresh that changed
    a few skills costs a few skills' phrases, not the whole index.
*/
class trigger_indexes
{
public:
    explicit trigger_indexes(visibility who = visibility::model) : who_(who) {}

    std::shared_ptr<trigger_index const> of(std::shared_ptr<snapshot const> snap)
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (last_ && last_->indexed() == snap) return last_;
        last_ = last_ ? std::make_shared<trigger_index const>(*last_, std::move(snap))
                      : std::make_shared<trigger_index const>(std::move(snap), who_);
        return last_;
    }

private:
    visibility who_;
    std::mutex mutex_;
    std::shared_ptr<trigger_index const> last_;
};

} // namespace skillmd

#endif
