// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_STORAGE_IMPL_REGISTRY_HPP
#define SKILLMD_STORAGE_IMPL_REGISTRY_HPP

// The registry's heavy members: a refresh, and reading a skill's file through its source.
// Included by registry.hpp when header-only; with SKILLMD_SEPARATE_COMPILATION, by
// <skillmd/src.hpp> (the preset registries) and by any translation unit that builds a
// registry of its own types.

#include <skillmd/storage/registry.hpp>
#include <skillmd/validation/read_skill.hpp>
#include <skillmd/storage/requirements.hpp>
#include <skillmd/model/names.hpp>
#include <skillmd/detail/prefetch.hpp>
#include <skillmd/detail/prompt_text.hpp>
#include <skillmd/detail/read_file.hpp>
#include <skillmd/detail/unicode.hpp>

#include <algorithm>
#include <atomic>
#include <map>
#include <set>
#include <chrono>
#include <type_traits>
#include <exception>
#include <iterator>
#include <new>
#include <thread>
#include <unordered_map>

namespace skillmd {

/** Reads, parses and validates one candidate of `src` exactly as a registry loads it,
    with the source's bounds (size, file type, links). `skillmd lint` uses this, so a
    file passes lint exactly when it loads.
*/
template <frontmatter::frontmatter_parser Parser, skill_source Source>
candidate_result read_candidate(Parser const& parser, registry_options const& opts, Source const& src, candidate const& c)
{
    return read_candidate(parser, opts, src, c, src.read_head(c));
}

/// read_candidate() from `text`, which `src.read_head(c)` gave (or would give: a source
/// that read the file during its discovery).
template <frontmatter::frontmatter_parser Parser, skill_source Source>
candidate_result read_candidate(Parser const& parser, registry_options const& opts, Source const& src, candidate const& c,
                                read_outcome text)
{
    candidate_result out;
    out.stamp = text.stamp;
    if (text.absent && !c.confirmed) {
        out.absent = true;
        return out;
    }
    if (text.text && !text.complete) {
        // The body reaches prompts, so all of it is checked now (and a default description
        // may come from it): a head read that stopped early is completed.
        text = src.read_all(c);
        out.stamp = text.stamp;
    }
    if (!text.text) {
        out.diagnostics.push_back({std::string(codes::skill_unreadable), severity::error, c.path, 0, 0,
                                   "cannot read the skill: " + text.error + "; skipped"});
        return out;
    }
    skill_origin const origin{c.path, c.directory_name, c.command};
    auto r = read_skill(parser, opts.dialect, opts.mode, *text.text, origin);
    detail::give_back_text(std::move(*text.text)); // parsed: nothing refers to it now
    out.diagnostics = std::move(r.diagnostics);
    out.skill = std::move(r.skill);
    out.body_offset = r.body_offset;
    return out;
}

namespace detail {

/// The commands of `v` (sorted by command) one segment below `command`: its sub-skills.
template <class Records>
std::vector<std::string_view> children_in(Records const& v, std::string_view command)
{
    std::vector<std::string_view> out;
    std::string const prefix = std::string(command) + "/";
    auto it = std::lower_bound(v.begin(), v.end(), std::string_view(prefix),
                               [](record_ptr const& r, std::string_view c) { return r->command < c; });
    for (; it != v.end() && std::string_view((*it)->command).starts_with(prefix); ++it)
        if (std::string_view((*it)->command).find('/', prefix.size()) == std::string_view::npos) out.push_back((*it)->command);
    return out;
}

/// Whether every byte of `s` is ASCII.
inline bool ascii_only(std::string_view s)
{
    return std::all_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

/// Whether a command of `v` (sorted) other than `command` equals it but for ASCII case, as
/// itself or as a keep-all copy (`name@tier`). The spellings are tried by their prefixes,
/// and a prefix no command starts with ends its branch: a few lookups, not a pass.
template <class Records>
bool case_twin_in(Records const& v, std::string_view command, std::string& prefix)
{
    auto const from = [&](std::string_view p) {
        return std::lower_bound(v.begin(), v.end(), p, [](record_ptr const& r, std::string_view c) { return r->command < c; });
    };
    auto const starts = [&](std::string_view p) {
        auto const it = from(p);
        return it != v.end() && std::string_view((*it)->command).starts_with(p);
    };
    if (prefix.size() == command.size()) {
        if (prefix == command) return false;
        auto const it = from(prefix);
        return (it != v.end() && (*it)->command == prefix) || starts(prefix + "@");
    }
    char const c = command[prefix.size()];
    char const other = c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
    for (char const k : {c, other}) {
        prefix.push_back(k);
        bool const found = starts(prefix) && case_twin_in(v, command, prefix);
        prefix.pop_back();
        if (found) return true;
        if (other == c) break; // not a letter: one spelling
    }
    return false;
}

} // namespace detail

namespace detail {

/// Records in command order, the order of a snapshot's skills.
inline bool command_before(record_ptr const& a, record_ptr const& b) { return a->command < b->command; }
/// The listing's order: by command, and copies that share one (kept in one tier, or in
/// tiers of one label) in tier and walk order, as a refresh that re-resolves them lists them.
inline bool listed_before(record_ptr const& a, record_ptr const& b)
{
    if (int const c = a->command.compare(b->command); c != 0) return c < 0;
    if (a->tier_index != b->tier_index) return a->tier_index < b->tier_index;
    return a->where.command < b->where.command;
}
/// Whether `r` is a file seen before in `files` (device and inode; a source without them
/// has none): one set, not a comparison with every earlier copy, as a group may hold thousands.
inline bool file_seen_before(record_ptr const& r, std::set<std::pair<std::uint64_t, std::uint64_t>>& files)
{
    file_stamp const& s = r->where.stamp;
    return s.inode != 0 && !files.emplace(static_cast<std::uint64_t>(s.device), static_cast<std::uint64_t>(s.inode)).second;
}

/// What a first load drops without a word from a group that shares a command (in tier and
/// walk order; `d` the policy's decision for it): under keep-all each copy that is an
/// earlier copy's very file, else each loser that is the winner's. They move from `group`
/// to `dropped`, and `d.winner` names the same winner in what is left.
template <bool Collapse>
void drop_same_files(std::vector<record_ptr>& group, dedup_decision& d, std::vector<record_ptr>& dropped)
{
    if constexpr (Collapse) {
        if (group.size() < 2) return;
        std::set<std::pair<std::uint64_t, std::uint64_t>> files;
        file_stamp const winner = group[d.winner]->where.stamp;
        std::vector<record_ptr> kept;
        std::size_t winner_now = 0;
        for (std::size_t i = 0; i < group.size(); ++i) {
            bool const goes = d.keep_all ? file_seen_before(group[i], files) : i != d.winner && group[i]->where.stamp.same_file(winner);
            if (i == d.winner) winner_now = kept.size();
            (goes ? dropped : kept).push_back(std::move(group[i]));
        }
        group = std::move(kept);
        d.winner = winner_now;
    }
}

/// Records are shared with the cache and packed: one that a snapshot must change (hidden,
/// shadowed, renamed, given children) is made anew from an owned copy, and the new one is
/// what `p` holds then.
template <class Change>
void edit(record_ptr& p, Change&& change)
{
    record_draft d = p->draft();
    change(d);
    p = make_record(d);
}

} // namespace detail

template <frontmatter::frontmatter_parser Parser, dedup_policy Dedup, skill_source... Sources>
void basic_registry<Parser, Dedup, Sources...>::refresh_locked()
{
    auto const previous = snapshot();
    // Rules set since the last snapshot: taken here, so a refresh that fails walks under today's.
    auto const rules_before = std::exchange(overrides_before_, std::nullopt);
    auto const publish = [&](std::shared_ptr<skillmd::snapshot const> made) {
        std::lock_guard<std::mutex> swap(current_mutex_);
        current_.swap(made); // the old snapshot dies outside readers' view, after the lock
    };
    if (loaded_ && !rewalk_) {
        // Every tier watched and quiet: the snapshot stands, unless a requirement (PATH,
        // environment) changed for a gated skill. Skill files edited in place: the next
        // snapshot is derived from this one, if it can be.
        auto const changes = changes_all(std::index_sequence_for<Sources...>{});
        bool const known = std::all_of(changes.begin(), changes.end(), [](auto const& c) { return c.has_value(); });
        if (known) {
            bool const gating_same = gating_unchanged(*previous);
            std::optional<override_change> rules;
            if (rules_before)
                if (auto changed = skillmd::overrides::changed_rules(*rules_before, opts_.overrides); !changed.empty())
                    rules.emplace(override_change{*rules_before, std::move(changed)});
            if (gating_same && !rules && std::all_of(changes.begin(), changes.end(), [](auto const& c) { return c->empty(); })) return;
            // Past a quarter of the reads (a checkout switched, say), a walk and one assembly
            // cost less than re-resolving one change at a time.
            std::size_t changed = 0;
            for (auto const& c : changes) changed += c->size();
            bool const few = changed <= (previous->cache_.size() + previous->misses_.size()) / 4 + 64;
            if (few)
                if (auto derived = derive(*previous, changes, !gating_same, rules ? &*rules : nullptr)) return publish(std::move(derived));
        }
    }
    auto next = std::make_shared<skillmd::snapshot>();
    next->pieces_ = previous->pieces_ ? previous->pieces_ : std::make_shared<listing_pieces>();
    next->read_at_ns_ = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
    discoveries found;
    std::vector<work> items;
    std::vector<read_result> fresh;
    discover_all(found, items, *next, std::index_sequence_for<Sources...>{});
    read_changed(items, *previous, fresh);
    assemble(items, *next);
    loaded_ = true;
    rewalk_ = false;
    publish(std::move(next));
}

template <frontmatter::frontmatter_parser Parser, dedup_policy Dedup, skill_source... Sources>
std::shared_ptr<skillmd::snapshot> basic_registry<Parser, Dedup, Sources...>::derive(skillmd::snapshot const& previous,
                                                                                     tier_changes const& changes, bool regating,
                                                                                     override_change const* rules) const
{
    auto next = std::make_shared<skillmd::snapshot>();
    next->skills_.items_ = previous.skills_.items_; // chunks, shared
    next->shadowed_.items_ = previous.shadowed_.items_;
    next->disabled_.items_ = previous.disabled_.items_;
    next->published_diagnostics_ = previous.published_diagnostics_;
    next->names_ = previous.names_;
    next->crowded_ = previous.crowded_;
    next->crowd_ = previous.crowd_;
    next->ascii_ = previous.ascii_;
    next->looks_ = previous.looks_;
    next->beyond_ascii_ = previous.beyond_ascii_;
    next->gated_ = previous.gated_;
    next->cache_ = previous.cache_;
    next->said_ = previous.said_;
    next->misses_ = previous.misses_;
    next->read_at_ns_ = previous.read_at_ns_; // the others were read no later than before
    next->collisions_from_ = previous.collisions_from_;
    next->collisions_ = previous.collisions_;
    next->collapsed_ = previous.collapsed_;
    next->duplicates_ = previous.duplicates_;
    next->gate_said_ = previous.gate_said_;
    next->reads_in_order_ = previous.reads_in_order_;
    next->pieces_ = previous.pieces_;
    diagnostics_draft draft; // the diagnostics, copied when the first change to them comes
    // Skills whose requirements are met now and were not, or the reverse (or unmet for
    // another reason), gated again first, where they are: gating does not move a skill.
    // Then the skills the rules decide otherwise, placed again (and gated as they come);
    // then the changed files, read under today's requirements and rules.
    if (regating) {
        deciding_under const placed_by(*this, rules ? &rules->before : nullptr); // the rules are the snapshot's still
        requirement_checker gate;
        std::vector<record_ptr> flipped, flipped_dropped;
        for (auto const& r : previous.gated_)
            if (gate_changed(previous, *r, gate)) flipped.push_back(r);
        // A copy dropped as a kept one's very file was gated too, and its report stays:
        // in no list, it is found among the dropped copies' reads.
        for (auto const& [command, copy] : previous.collapsed_) {
            auto const read = previous.cached(copy.tier, copy.path);
            if (!read || !read->record) return nullptr;
            if (has_requirements(**read->record) && gate_changed(previous, **read->record, gate, true)) flipped_dropped.push_back(*read->record);
        }
        for (auto const& r : flipped)
            if (!regate(*next, *r, draft)) return nullptr;
        for (auto const& r : flipped_dropped)
            if (!regate(*next, *r, draft, true)) return nullptr;
    }
    if (rules && !redecide(*next, *rules, draft)) return nullptr;
    for (std::size_t tier = 0; tier < changes.size(); ++tier)
        for (auto const& path : *changes[tier])
            if (!apply_change(*next, tier, path, draft)) return nullptr;
    return next;
}

template <frontmatter::frontmatter_parser Parser, dedup_policy Dedup, skill_source... Sources>
std::vector<diagnostic>& basic_registry<Parser, Dedup, Sources...>::writable(skillmd::snapshot& next, diagnostics_draft& draft)
{
    if (!draft) {
        draft = std::make_shared<std::vector<diagnostic>>(next.diagnostics());
        next.published_diagnostics_ = draft; // what the spans of the cache view from now on
    }
    return *draft;
}

template <frontmatter::frontmatter_parser Parser, dedup_policy Dedup, skill_source... Sources>
bool basic_registry<Parser, Dedup, Sources...>::apply_change(skillmd::snapshot& next, std::size_t tier, std::string const& path,
                                                            diagnostics_draft& draft) const
{
    using span_of_diagnostics = typename skillmd::snapshot::span_of_diagnostics;
    // What the last read at this path said, and gating after it: taken out here (the
    // changes below move the others' places in the cache), put back with what they say now.
    std::optional<span_of_diagnostics> said_before;
    if (!take_said(next, tier, path, said_before)) return false;
    std::vector<diagnostic> said, gated;
    if (!change_alone(next, tier, path, said, gated, draft)) return false;
    if (!said_before && said.empty() && gated.empty()) return true;
    return restate(next, tier, path, said_before, std::move(said), std::move(gated), draft);
}

template <frontmatter::frontmatter_parser Parser, dedup_policy Dedup, skill_source... Sources>
bool basic_registry<Parser, Dedup, Sources...>::take_said(skillmd::snapshot& next, std::size_t tier, std::string const& path,
                                                         std::optional<typename skillmd::snapshot::span_of_diagnostics>& range)
{
    using span_of_diagnostics = typename skillmd::snapshot::span_of_diagnostics;
    auto const before = next.cached(tier, path);
    if (!before) return true;
    if (!before->record) {
        if (auto const m = next.miss_at({tier, path}); m->said.count != 0) range = m->said;
        return true;
    }
    auto const at = static_cast<std::uint32_t>(before->at);
    auto const e = skillmd::snapshot::said_at(next.said_, at);
    auto const g = skillmd::snapshot::said_at(next.gate_said_, at);
    bool const read_said = e != next.said_.end(), gate_said = g != next.gate_said_.end();
    if (read_said && gate_said && e->second.first + e->second.count != g->second.first) return false;
    if (read_said || gate_said)
        range = span_of_diagnostics{read_said ? e->second.first : g->second.first,
                                    (read_said ? e->second.count : 0) + (gate_said ? g->second.count : 0)};
    if (gate_said) next.gate_said_.erase(g);
    if (read_said) next.said_.erase(e);
    return true;
}

template <frontmatter::frontmatter_parser Parser, dedup_policy Dedup, skill_source... Sources>
bool basic_registry<Parser, Dedup, Sources...>::redecide(skillmd::snapshot& next, override_change const& change,
                                                        diagnostics_draft& draft) const
{
    // The reads a changed rule names, and of those the ones decided otherwise now; no file read.
    std::vector<std::string> names;
    bool paths = false;
    for (auto const& r : change.rules) {
        if (r.by_path) paths = true;
        else names.push_back(r.pattern);
    }
    std::sort(names.begin(), names.end());
    auto const named = [&](std::string_view n) { return !n.empty() && std::binary_search(names.begin(), names.end(), n, std::less<>()); };
    auto const asked = [&](skill_record const& r) {
        if (named(r.command) || named(r.meta.name)) return true;
        if (!paths || r.where.database) return false;
        std::string const file = skillmd::overrides::normal(r.where.path);
        return std::any_of(change.rules.begin(), change.rules.end(), [&](override_rule const& rule) { return rule.by_path && rule.matches({}, {}, file); });
    };
    std::vector<record_ptr> turned;
    auto const take = [&](record_ptr const& r) {
        if (asked(*r) && !(decided(change.before, *r) == decided(opts_.overrides, *r))) turned.push_back(r);
    };
    // Looked up rather than asked one by one: by name, the listed skills by command (and a
    // keep-all policy's copies) or by their `name:` (the names table), the shadowed and the
    // disabled ones by a look at each (few); by path, in a tier whose paths are its root's
    // (absolute and normal), the reads below each rule's folder, a range of the cache (in
    // another tier, each read of it). A copy dropped as a kept one's very file (in no list)
    // bears that one's name and command: looked up by the command of each read named. A name
    // several listed skills bear finds each of them in crowd_.
    using read_key = typename skillmd::snapshot::read_key;
    using before_key = typename skillmd::snapshot::before_key;
    std::vector<read_key> keys; // of each read to ask, once
    auto const read_of = [&](skill_record const& r) { keys.emplace_back(r.tier_index, std::string_view(r.where.path)); };
    for (auto const& n : names) {
        if (auto const i = next.position_of(n); i != skillmd::snapshot::npos) read_of(*next.skills_.items_[i]);
        for (auto [c, end] = next.copies_of(n); c != end; ++c) read_of(**c);
        if (auto const [entry, found] = detail::entry_for(next.names_, n); found)
            if (auto const i = next.position_of(entry->second); i != skillmd::snapshot::npos) read_of(*next.skills_.items_[i]);
        for (auto [b, end] = detail::bearers_of(next.crowd_, n); b != end; ++b)
            if (auto const i = next.position_of(b->second); i != skillmd::snapshot::npos) read_of(*next.skills_.items_[i]);
    }
    for (auto const* kept : {&next.shadowed_.items_, &next.disabled_.items_})
        for (auto const& r : *kept)
            if (named(r->command) || named(r->meta.name) || named(r->where.command)) read_of(*r);
    if (!next.collapsed_.empty()) {
        for (std::size_t k = 0, named_reads = keys.size(); k < named_reads; ++k)
            if (auto const read = next.cached(keys[k].first, keys[k].second); read && read->record)
                for (auto [c, end] = next.dropped_of((*read->record)->command); c != end; ++c) keys.emplace_back(c->second.tier, std::string_view(c->second.path));
        for (auto const& n : names)
            for (auto [c, end] = next.dropped_of(n); c != end; ++c) keys.emplace_back(c->second.tier, std::string_view(c->second.path));
    }
    auto const& cache = next.cache_;
    for (std::size_t tier = 0; paths && tier < sizeof...(Sources); ++tier) {
        bool plain = false;
        visit_source(tier, [&](auto const& src) {
            if constexpr (requires { { src.root() } -> std::convertible_to<std::string_view>; }) {
                std::string_view const root = src.root();
                plain = skillmd::overrides::plain_absolute(root) && (root.size() == 1 || root.back() != '/');
            }
        });
        auto const to = std::lower_bound(cache.begin(), cache.end(), read_key{tier + 1, {}}, before_key{});
        if (!plain) {
            for (auto r = std::lower_bound(cache.begin(), cache.end(), read_key{tier, {}}, before_key{}); r != to; ++r) read_of(**r);
            continue;
        }
        for (auto const& rule : change.rules) {
            if (!rule.by_path) continue;
            for (auto r = std::lower_bound(cache.begin(), cache.end(), read_key{tier, rule.pattern}, before_key{});
                 r != to && std::string_view((*r)->where.path).starts_with(rule.pattern); ++r)
                read_of(**r);
        }
    }
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    for (auto const& key : keys)
        if (auto const read = next.cached(key.first, key.second); read && read->record) take(*read->record);
    return redecide_each(next, change, turned, draft);
}

template <frontmatter::frontmatter_parser Parser, dedup_policy Dedup, skill_source... Sources>
bool basic_registry<Parser, Dedup, Sources...>::redecide_each(skillmd::snapshot& next, override_change const& change,
                                                             std::vector<record_ptr> const& turned, diagnostics_draft& draft) const
{
    // Each placed again costs a pass over the reads that said something: past a few, a
    // first load's work (one rule that turns a whole tier off, say) costs less.
    if (turned.size() > max_redecided) return false;
    // Each goes under the rules it was placed by, with what it and gating said, and only
    // then do they come back under today's: a group of one command is whole at each step.
    std::vector<std::vector<diagnostic>> said(turned.size());
    {
        deciding_under const before(*this, &change.before);
        for (std::size_t i = 0; i < turned.size(); ++i) {
            record_ptr const& r = turned[i];
            std::string const path(r->where.path);
            auto const read = next.cached(r->tier_index, path);
            if (!read || !read->record) return false;
            said[i].assign(read->said.begin(), read->said.end()); // the read's own reports: they stay
            std::optional<typename skillmd::snapshot::span_of_diagnostics> range;
            if (!take_said(next, r->tier_index, path, range)) return false;
            if (!read_leaves(next, *read, std::nullopt, draft)) return false;
            if (range && !restate(next, r->tier_index, path, range, {}, {}, draft)) return false;
        }
    }
    for (std::size_t i = 0; i < turned.size(); ++i) {
        std::vector<diagnostic> gated;
        if (!read_comes(next, turned[i], gated, draft)) return false;
        if ((!said[i].empty() || !gated.empty()) &&
            !restate(next, turned[i]->tier_index, std::string(turned[i]->where.path), std::nullopt, std::move(said[i]), std::move(gated), draft))
            return false;
    }
    return true;
}

template <frontmatter::frontmatter_parser Parser, dedup_policy Dedup, skill_source... Sources>
bool basic_registry<Parser, Dedup, Sources...>::change_alone(skillmd::snapshot& next, std::size_t tier, std::string const& path,
                                                            std::vector<diagnostic>& said, std::vector<diagnostic>& gated,
                                                            diagnostics_draft& draft) const
{
    auto const before = next.cached(tier, path);
    // A skill that shares its command with another, in any tier (or a copy dropped as its
    // very file): the group is resolved again.
    auto const shared = [&](std::string_view command) { return has_company(next, command, {tier, path}); };
    if (before && before->record) {
        candidate where = (*before->record)->where.owned();
        where.stamp = {}; // a save by rename is another file at the same path: read it, as a walk would
        read_result now = read_one(work{tier, &where, nullptr});
        if (now.record) {
            said = std::move(now.diagnostics);
            std::string const command((*before->record)->command); // the cached read goes below
            if (now.record->command == command && !is_off(**before->record) && !is_off(*now.record))
                return shared(command) ? regroup(next, command, &*before, now.record, std::nullopt, gated, draft)
                                       : edit_in_place(next, tier, *before, std::move(now), gated);
            // Named anew (where the name is the command), or turned off or on: the read before
            // goes, and the read now comes.
            return read_leaves(next, *before, std::nullopt, draft) && read_comes(next, now.record, gated, draft);
        }
    }
    // Gone, or new: what would a walk list here now?
    auto const listed = candidate_now(tier, path);
    if (!listed) return false; // the source cannot say
    bool const had_skill = before && before->record;
    if (!*listed) {
        if (had_skill) return read_leaves(next, *before, std::nullopt, draft);
        next.drop_miss({tier, path}); // a read that made nothing, of a candidate no longer listed (its folder gone)
        return true;
    }
    candidate where = std::move(**listed);
    read_result now = read_one(work{tier, &where, nullptr});
    said = std::move(now.diagnostics);
    if (now.record) {
        if (had_skill) return false;
        return read_comes(next, now.record, gated, draft);
    }
    // Listed, and no skill (a flat tier's folder without its SKILL.md, or a file that says
    // why it is none): a miss, as a first load keeps one.
    if (had_skill) return read_leaves(next, *before, now.stamp, draft);
    using miss = typename skillmd::snapshot::miss;
    if (auto const m = next.miss_at({tier, path}); m != next.misses_.end() && m->tier == tier && m->path == path) {
        next.misses_[static_cast<std::size_t>(m - next.misses_.begin())].stamp = now.stamp;
    } else {
        next.misses_.insert(m, miss{tier, path, now.stamp, {}, std::string(where.command)});
    }
    return true;
}

template <frontmatter::frontmatter_parser Parser, dedup_policy Dedup, skill_source... Sources>
bool basic_registry<Parser, Dedup, Sources...>::restate(skillmd::snapshot& next, std::size_t tier, std::string const& path,
                                                       std::optional<typename skillmd::snapshot::span_of_diagnostics> said_before,
                                                       std::vector<diagnostic> said, std::vector<diagnostic> gated,
                                                       diagnostics_draft& draft) const
{
    // Where the read is now: a record in the cache, a miss, or neither (gone: it says nothing).
    auto const now = next.cached(tier, path);
    if ((!now && !said.empty()) || ((!now || !now->record) && !gated.empty())) return false;
    std::string_view const command = !now ? std::string_view() : now->record ? std::string_view((*now->record)->where.command) : next.miss_at({tier, path})->command;
    // Its place: where it said something before, or else before the first read after it
    // (by tier, then command) that said something.
    std::size_t place = 0;
    if (said_before) place = said_before->first;
    else if (auto const p = place_of_new(next, tier, command, path)) place = *p;
    else return false;
    std::size_t const count_before = said_before ? said_before->count : 0;
    auto const read_says = static_cast<std::uint32_t>(said.size()), gate_says = static_cast<std::uint32_t>(gated.size());
    said.insert(said.end(), std::make_move_iterator(gated.begin()), std::make_move_iterator(gated.end())); // gating's after the read's
    auto const spliced = splice(next, place, count_before, std::move(said), draft);
    if (!spliced) return false;
    if (!now) return true;
    if (!now->record) {
        next.misses_[static_cast<std::size_t>(next.miss_at({tier, path}) - next.misses_.begin())].said = *spliced;
        return true;
    }
    auto const at = static_cast<std::uint32_t>(now->at);
    if (read_says != 0) next.said_.insert(skillmd::snapshot::said_from(next.said_, at), {at, {spliced->first, read_says}});
    if (gate_says != 0) next.gate_said_.insert(skillmd::snapshot::said_from(next.gate_said_, at), {at, {spliced->first + read_says, gate_says}});
    return true;
}

template <frontmatter::frontmatter_parser Parser, dedup_policy Dedup, skill_source... Sources>
std::optional<std::size_t> basic_registry<Parser, Dedup, Sources...>::place_of_new(skillmd::snapshot const& next, std::size_t tier,
                                                                                 std::string_view command, std::string_view path)
{
    if (!next.reads_in_order_) return std::nullopt;
    std::size_t place = next.collisions_from_; // after the last read's, where the collisions' reports begin
    auto const after = [&](std::size_t t, std::string_view c) { return t > tier || (t == tier && c > command); };
    auto const same = [&](std::size_t t, std::string_view c) { return t == tier && c == command; };
    bool twin = false; // another read of the same tier and command: their order is the walk's
    for (auto const* list : {&next.said_, &next.gate_said_})
        for (auto const& [at, span] : *list) {
            record_ptr const& r = next.cache_[at];
            if (same(r->tier_index, r->where.command) && !(r->tier_index == tier && r->where.path == path)) twin = true;
            if (span.count != 0 && after(r->tier_index, r->where.command)) place = std::min<std::size_t>(place, span.first);
        }
    for (auto const& m : next.misses_) {
        if (same(m.tier, m.command) && m.path != path) twin = true;
        if (m.said.count != 0 && after(m.tier, m.command)) place = std::min<std::size_t>(place, m.said.first);
    }
    if (twin) return std::nullopt;
    return place;
}

template <frontmatter::frontmatter_parser Parser, dedup_policy Dedup, skill_source... Sources>
auto basic_registry<Parser, Dedup, Sources...>::splice(skillmd::snapshot& next, std::size_t place, std::size_t count_before,
                                                      std::vector<diagnostic> said, diagnostics_draft& draft)
    -> std::optional<typename skillmd::snapshot::span_of_diagnostics>
{
    using span_of_diagnostics = typename skillmd::snapshot::span_of_diagnostics;
    auto& all = writable(next, draft);
    if (place + count_before > all.size()) return std::nullopt;
    auto const first = all.begin() + static_cast<std::ptrdiff_t>(place);
    all.erase(first, first + static_cast<std::ptrdiff_t>(count_before));
    all.insert(all.begin() + static_cast<std::ptrdiff_t>(place), std::make_move_iterator(said.begin()), std::make_move_iterator(said.end()));
    // Every range after it moves by the difference.
    auto const moved = [&](span_of_diagnostics& s) {
        if (s.first >= place + count_before) s.first = static_cast<std::uint32_t>(s.first + said.size() - count_before);
    };
    for (auto* list : {&next.said_, &next.gate_said_})
        for (auto& e : *list) moved(e.second);
    for (auto& m : next.misses_) moved(m.said);
    next.collisions_from_ = next.collisions_from_ + said.size() - count_before;
    return span_of_diagnostics{static_cast<std::uint32_t>(place), static_cast<std::uint32_t>(said.size())};
}

template <frontmatter::frontmatter_parser Parser, dedup_policy Dedup, skill_source... Sources>
bool basic_registry<Parser, Dedup, Sources...>::regate(skillmd::snapshot& next, skill_record const& was, diagnostics_draft& draft,
                                                      bool dropped) const
{
    auto const read = next.cached(was.tier_index, was.where.path);
    if (!read || !read->record) return false;
    // Gated again from its read, as a first load gates it; what gating says now replaces
    // what it said. The policy does not see `hidden`: whether it is listed, shadowed or
    // off stays as it is.
    record_ptr rec = *read->record;
    std::vector<diagnostic> said;
    bool const on = gate_alone(rec, said);
    std::string const command(was.command);
    auto const is_was = [&](record_ptr const& r) { return r->tier_index == was.tier_index && r->where.path == was.where.path; };
    // Where it is: listed (alone, a winner, or a keep-all copy `name@tier`), shadowed, or off.
    std::size_t i = skillmd::snapshot::npos, k = skillmd::snapshot::npos;
    std::optional<std::size_t> off_at;
    if (dropped) {
        if (!on) return false; // a copy the rules turn off is no group's
    } else if (!on) {
        off_at = disabled_place(next, *rec, true);
        if (!off_at) return false;
    } else if (was.shadowed_by.empty()) {
        i = next.position_of(command);
        if (i == skillmd::snapshot::npos || !is_was(next.skills_.items_[i])) return false;
        if (rec->command != command) {
            if (command != rec->qualified()) return false;
            detail::edit(rec, [&](record_draft& e) { e.command = command; });
        }
    } else {
        auto const& shadowed = next.shadowed_.items_;
        for (auto s = skillmd::snapshot::first_from(shadowed, command); s != shadowed.end() && (*s)->command == command; ++s)
            if (is_was(*s)) k = s.index();
        if (k == skillmd::snapshot::npos || rec->command != command) return false;
        std::string by(was.shadowed_by);
        detail::edit(rec, [&](record_draft& e) { e.shadowed_by = std::move(by); });
    }
    auto const& where = (*read->record)->where;
    auto const at = static_cast<std::uint32_t>(read->at);
    std::size_t place = 0, count_before = 0;
    if (auto const g = skillmd::snapshot::said_at(next.gate_said_, at); g != next.gate_said_.end()) {
        place = g->second.first;
        count_before = g->second.count;
        next.gate_said_.erase(g);
    } else if (auto const own = skillmd::snapshot::said_at(next.said_, at); own != next.said_.end()) {
        place = own->second.first + own->second.count; // gating's report follows its read's
    } else if (auto const p = place_of_new(next, was.tier_index, std::string_view(where.command), std::string_view(where.path))) {
        place = *p;
    } else {
        return false;
    }
    auto const mine = splice(next, place, count_before, std::move(said), draft);
    if (!mine) return false;
    if (mine->count != 0) next.gate_said_.insert(skillmd::snapshot::said_from(next.gate_said_, at), {at, *mine});
    if (i != skillmd::snapshot::npos) return relist(next, i, next.skills_.items_[i], std::move(rec));
    if (dropped) return true;
    auto& kept = off_at ? next.disabled_.items_ : next.shadowed_.items_;
    std::size_t const at_kept = off_at ? *off_at : k;
    std::erase(next.gated_, kept[at_kept]);
    next.gated_.push_back(rec);
    kept.set(at_kept, std::move(rec));
    return true;
}

template <frontmatter::frontmatter_parser Parser, dedup_policy Dedup, skill_source... Sources>
bool basic_registry<Parser, Dedup, Sources...>::has_company(skillmd::snapshot const& next, std::string_view command,
                                                           typename skillmd::snapshot::read_key key)
{
    if (auto const i = next.position_of(command); i != skillmd::snapshot::npos && skillmd::snapshot::key_of(next.skills_.items_[i]) != key)
        return true;
    auto const& shadowed = next.shadowed_.items_;
    for (auto s = skillmd::snapshot::first_from(shadowed, command); s != shadowed.end() && (*s)->command == command; ++s)
        if (skillmd::snapshot::key_of(*s) != key) return true;
    for (auto [c, end] = next.copies_of(command); c != end; ++c)
        if (skillmd::snapshot::key_of(*c) != key) return true;
    for (auto [c, end] = next.dropped_of(command); c != end; ++c)
        if (key != typename skillmd::snapshot::read_key{c->second.tier, c->second.path}) return true;
    return false;
}

template <frontmatter::frontmatter_parser Parser, dedup_policy Dedup, skill_source... Sources>
bool basic_registry<Parser, Dedup, Sources...>::regroup(skillmd::snapshot& next, std::string_view command_viewed,
                                                       typename skillmd::snapshot::cached_read const* before, record_ptr now,
                                                       std::optional<file_stamp> miss, std::vector<diagnostic>& gated,
                                                       diagnostics_draft& draft) const
{
    // A refresh that returns false here is thrown away whole: what was changed before does not matter.
    std::string const command(command_viewed); // the records viewed are replaced below
    // Every report of a collision is a shadowed skill's or a copy's in one tier, in order
    // (a copy dropped as a kept one's file says nothing).
    std::size_t copies_reported = 0, copies_before = 0; // in all, and of commands before this one
    for (auto const& [c, n] : next.duplicates_) {
        copies_reported += n;
        if (c < command) copies_before += n;
    }
    auto const [dup, has_dup] = detail::entry_for(next.duplicates_, command);
    std::size_t const copies_now = has_dup ? dup->second : 0;
    if (next.collisions_ != next.shadowed_.items_.size() + copies_reported) return false;
    if (!looks_like_no_other(next, command)) return false;
    // What is listed of it: the skill, or the copies a keep-all policy lists as `name@tier`
    // (two or more). Held here: the names table views their strings until the end.
    auto& skills = next.skills_.items_;
    std::vector<record_ptr> listed;
    if (auto const at = next.position_of(command); at != skillmd::snapshot::npos) listed.push_back(skills[at]);
    for (auto [c, end] = next.copies_of(command); c != end; ++c) {
        if (std::string_view((*c)->command).substr(command.size() + 1) != std::string_view((*c)->tier)) return false; // named so, not a copy
        listed.push_back(*c);
    }
    if (listed.size() == 1 ? listed.front()->command != command : listed.size() < 2 || listed.front()->command == command) return false;
    // Two copies listed under one name from two tiers of one label: which of them a new
    // listing replaces is a first load's to say, even where the group left has labels apart.
    // Copies in one tier are listed in the walk's order, when that is known.
    for (std::size_t i = 1; i < listed.size(); ++i)
        if (listed[i]->command == listed[i - 1]->command && (listed[i]->tier_index != listed[i - 1]->tier_index || !next.reads_in_order_))
            return false;
    auto& shadowed = next.shadowed_.items_;
    std::size_t const from = skillmd::snapshot::first_from(shadowed, command).index();
    std::size_t to = from;
    while (to < shadowed.size() && shadowed[to]->command == command) ++to;
    // The group as a first load would read it: each skill as the cache holds it, the changed one as read now.
    using read_key = typename skillmd::snapshot::read_key;
    std::optional<read_key> const changed = before ? std::optional<read_key>(skillmd::snapshot::key_of(*before->record)) : std::nullopt;
    std::vector<record_ptr> group;
    bool found = !changed;
    auto const take = [&](read_key const key) {
        if (changed && key == *changed) return found = true;
        auto const c = next.cached(key.first, key.second);
        if (!c || !c->record || (*c->record)->command != command) return false;
        group.push_back(*c->record);
        return true;
    };
    for (auto const& r : listed)
        if (!take(skillmd::snapshot::key_of(r))) return false;
    for (std::size_t k = from; k < to; ++k)
        if (!take(skillmd::snapshot::key_of(shadowed[k]))) return false;
    auto const [dropped_first, dropped_end] = next.dropped_of(command); // copies a kept one's very file
    std::size_t const dropped_from = dropped_first.index(), dropped_to = dropped_end.index();
    for (auto c = dropped_first; c != dropped_end; ++c)
        if (!take(read_key{c->second.tier, c->second.path})) return false;
    if (!found) return false; // the changed skill was neither listed nor shadowed (off, say)
    // Gated as a full refresh gates them, before the policy sees them: hidden or not (what
    // gating says of the others is in place, as their requirements did not change), not off.
    requirement_checker gate;
    skillmd::snapshot scratch;
    for (auto& r : group)
        if (!gate_one(r, gate, scratch)) return false;
    if (now) {
        record_ptr read = now; // the cache keeps the read as it is
        if (!gate_alone(read, gated)) return false;
        group.push_back(std::move(read));
    }
    // In tier order, and copies in one tier in the walk's order: by their candidates'
    // commands, when each tier's walk listed them so (else one skill per tier).
    auto const order = [&](record_ptr const& r) {
        return std::pair(r->tier_index, next.reads_in_order_ ? std::string_view(r->where.command) : std::string_view());
    };
    std::sort(group.begin(), group.end(), [&](record_ptr const& a, record_ptr const& b) { return order(a) < order(b); });
    if (group.empty() ||
        std::adjacent_find(group.begin(), group.end(), [&](auto const& a, auto const& b) { return order(a) == order(b); }) != group.end())
        return false;
    // Relisting a copy costs a pass over the gated skills: past this many copies (in one
    // tier: across tiers a group has one a tier), a first load's work costs less.
    if (group.size() > max_copies_regrouped) return false;
    // A group of one is listed as it is; a larger one goes to the policy. One file reached
    // twice is then dropped, as a first load drops it.
    dedup_decision d;
    std::vector<record_ptr> dropped;
    if (group.size() > 1) {
        std::vector<dedup_entry> entries;
        for (auto const& r : group) entries.push_back({r->tier_index, r->tier, r->where.database, r->where.stamp});
        d = Dedup::resolve(entries);
        if (!d.keep_all && d.winner >= group.size()) return false;
        detail::drop_same_files<Dedup::collapse_same_file>(group, d, dropped);
    }
    // What is listed from now on: every copy as `name@tier` under keep-all, else the winner,
    // with the others shadowed and reported as resolve_collisions words them.
    std::vector<record_ptr> listing, losers;
    std::vector<diagnostic> reports;
    std::uint32_t copies_then = 0; // copies reported as in one tier with another
    if (group.size() > 1 && d.keep_all) {
        // Each copy named for its tier: two tiers of one label name two copies alike, and a
        // label beyond ASCII makes a first load compare every name by its look (which
        // reports pairs such as `rn` and `m`); a first load decides both.
        std::map<std::string_view, std::size_t> tier_of_label;
        for (auto const& r : group)
            if (tier_of_label.try_emplace(std::string_view(r->tier), r->tier_index).first->second != r->tier_index) return false;
        copies_then = report_copies_in_one_tier(command, group, reports);
        for (auto& r : group) {
            std::string q = r->qualified();
            if (!detail::ascii_only(q)) return false;
            detail::edit(r, [&](record_draft& e) { e.command = std::move(q); });
        }
        listing = std::move(group);
    } else {
        std::string const qualified = group[d.winner]->qualified();
        constexpr auto level = [] {
            if constexpr (requires { Dedup::warn_on_shadow; }) return Dedup::warn_on_shadow ? severity::warning : severity::info;
            else return severity::info;
        }();
        for (std::size_t i = 0; i < group.size(); ++i) {
            if (i == d.winner) continue;
            record_ptr r = group[i];
            reports.push_back({std::string(codes::skill_shadowed), level, r->where.path.str(), 0, 0,
                               "skill `" + command + "` from tier " + r->tier + " is shadowed by " + qualified +
                                   "; it stays reachable as `" + r->qualified() + "`"});
            detail::edit(r, [&](record_draft& e) { e.shadowed_by = qualified; });
            losers.push_back(std::move(r));
        }
        listing.push_back(group[d.winner]);
    }
    // The reports replaced where the old ones were: collisions are reported in command order.
    if (std::size_t const reported_before = to - from + copies_now; reported_before != 0 || !reports.empty()) {
        auto& diagnostics = writable(next, draft);
        std::size_t const first = next.collisions_from_ + from + copies_before;
        if (first + reported_before > diagnostics.size()) return false;
        auto const at = diagnostics.begin() + static_cast<std::ptrdiff_t>(first);
        diagnostics.erase(at, at + static_cast<std::ptrdiff_t>(reported_before));
        diagnostics.insert(diagnostics.begin() + static_cast<std::ptrdiff_t>(first), std::make_move_iterator(reports.begin()),
                           std::make_move_iterator(reports.end()));
        next.collisions_ = next.collisions_ - reported_before + reports.size();
    }
    if (dropped_to != dropped_from || !dropped.empty()) {
        std::vector<typename skillmd::snapshot::dropped_copy> now_dropped;
        for (auto const& r : dropped) now_dropped.push_back({r->tier_index, std::string(r->where.path)});
        std::sort(now_dropped.begin(), now_dropped.end());
        for (std::size_t k = dropped_to; k > dropped_from; --k) next.collapsed_.erase(k - 1);
        for (std::size_t k = 0; k < now_dropped.size(); ++k) next.collapsed_.insert(dropped_from + k, {command, std::move(now_dropped[k])});
    }
    if (copies_then != copies_now) {
        if (copies_then == 0) next.duplicates_.erase(dup.index());
        else if (copies_now == 0) next.duplicates_.insert(dup.index(), {command, copies_then});
        else next.duplicates_.set(dup.index(), {command, copies_then});
    }
    for (std::size_t k = to; k > from; --k) {
        if (has_requirements(*shadowed[k - 1])) std::erase(next.gated_, shadowed[k - 1]); // none else is there
        shadowed.erase(k - 1);
    }
    for (std::size_t k = 0; k < losers.size(); ++k) {
        if (has_requirements(*losers[k])) next.gated_.push_back(losers[k]);
        shadowed.insert(from + k, std::move(losers[k]));
    }
    // A command listed before and after is relisted in place. A new one is listed before the
    // old ones go: a name they share is counted down while a command bears it, which needs
    // no search for its last bearer.
    // Copies kept in one tier share a command: the k-th listed now takes the place of the
    // k-th listed before, in order (both lists are in tier and walk order).
    auto const bearers = [](std::vector<record_ptr> const& v, std::string_view c) {
        auto const first = std::find_if(v.begin(), v.end(), [&](record_ptr const& r) { return std::string_view(r->command) == c; });
        auto last = first;
        while (last != v.end() && std::string_view((*last)->command) == c) ++last;
        return std::pair(first, last);
    };
    for (std::size_t i = 0; i < listing.size();) {
        std::string const c(listing[i]->command);
        auto const [old, old_end] = bearers(listed, c);
        std::size_t const had = static_cast<std::size_t>(old_end - old);
        for (std::size_t k = 0; i < listing.size() && std::string_view(listing[i]->command) == c; ++k, ++i) {
            if (k < had) {
                auto const p = next.position_of(c);
                if (p == skillmd::snapshot::npos || !relist(next, p + k, old[static_cast<std::ptrdiff_t>(k)], listing[i])) return false;
            } else if (!list_one(next, listing[i], k)) {
                return false;
            }
        }
    }
    for (std::size_t i = 0; i < listed.size();) {
        std::string const c(listed[i]->command);
        auto const [now_first, now_end] = bearers(listing, c);
        std::size_t const kept_now = static_cast<std::size_t>(now_end - now_first);
        for (std::size_t k = 0; i < listed.size() && std::string_view(listed[i]->command) == c; ++k, ++i) {
            if (k < kept_now) continue;
            auto const p = next.position_of(c);
            if (p == skillmd::snapshot::npos || !unlist_one(next, p + kept_now)) return false;
        }
    }
    // The changed read, in the cache.
    if (before && now) next.cache_.set(before->at, std::move(now));
    else if (before) uncache_read(next, *before, miss);
    else cache_read(next, now);
    return relook(next, command);
}

template <frontmatter::frontmatter_parser Parser, dedup_policy Dedup, skill_source... Sources>
void basic_registry<Parser, Dedup, Sources...>::cache_read(skillmd::snapshot& next, record_ptr const& read)
{
    auto const key = skillmd::snapshot::key_of(read);
    using before_key = typename skillmd::snapshot::before_key;
    auto const at = static_cast<std::uint32_t>(std::lower_bound(next.cache_.begin(), next.cache_.end(), key, before_key{}).index());
    next.cache_.insert(at, read);
    for (auto* list : {&next.said_, &next.gate_said_})
        for (auto& s : *list)
            if (s.first >= at) ++s.first;
    next.drop_miss(key);
}

template <frontmatter::frontmatter_parser Parser, dedup_policy Dedup, skill_source... Sources>
void basic_registry<Parser, Dedup, Sources...>::uncache_read(skillmd::snapshot& next, typename skillmd::snapshot::cached_read const& before,
                                                            std::optional<file_stamp> miss)
{
    record_ptr const old = *before.record; // the cache's own: kept while its entry goes
    auto const at = static_cast<std::uint32_t>(before.at);
    auto const key = skillmd::snapshot::key_of(old);
    next.cache_.erase(at);
    for (auto* list : {&next.said_, &next.gate_said_})
        for (auto& s : *list)
            if (s.first > at) --s.first;
    if (miss)
        next.misses_.insert(next.miss_at(key), typename skillmd::snapshot::miss{old->tier_index, std::string(old->where.path), *miss, {},
                                                                               std::string(old->where.command)});
}

template <frontmatter::frontmatter_parser Parser, dedup_policy Dedup, skill_source... Sources>
bool basic_registry<Parser, Dedup, Sources...>::edit_in_place(skillmd::snapshot& next, std::size_t tier,
                                                             typename skillmd::snapshot::cached_read const& before,
                                                             read_result now, std::vector<diagnostic>& gated) const
{
    record_ptr const old = *before.record;
    if (now.record->command != old->command) return false;
    // Listed as it was read: the only skill of its command.
    std::string_view const command = old->command;
    std::size_t const i = next.position_of(command);
    if (i == skillmd::snapshot::npos) return false;
    record_ptr const listed = next.skills_.items_[i];
    if (listed->tier_index != tier || listed->where.path != old->where.path) return false;
    if (auto const s = skillmd::snapshot::first_from(next.shadowed_.items_, command); s != next.shadowed_.items_.end() && (*s)->command == command)
        return false;
    // Gated as a full refresh gates it: hidden, with gating's report, or not; off takes a first load.
    record_ptr rec = now.record;
    if (!gate_alone(rec, gated)) return false;
    if (!relist(next, i, listed, std::move(rec))) return false;
    next.cache_.set(before.at, std::move(now.record));
    return true;
}

template <frontmatter::frontmatter_parser Parser, dedup_policy Dedup, skill_source... Sources>
bool basic_registry<Parser, Dedup, Sources...>::relist(skillmd::snapshot& next, std::size_t i, record_ptr const listed, record_ptr rec) const
{
    if (!listed->children.empty()) { // its sub-skills are the same commands
        std::vector<std::string_view> children;
        for (auto const& c : listed->children) children.push_back(c);
        record_draft d = rec->draft();
        d.children.clear();
        rec = detail::make_record(d, children);
    }
    // A `name:` or label changed: the old ones are counted out, the new ones in, viewing
    // the record listed from now on (`rec`, not a read: the names table views skills_).
    std::vector<std::string_view> was, is;
    for_each_name(*listed, [&](std::string_view n) { was.push_back(n); });
    for_each_name(*rec, [&](std::string_view n) { is.push_back(n); });
    auto const among = [](std::vector<std::string_view> const& v, std::string_view n) { return std::find(v.begin(), v.end(), n) != v.end(); };
    for (auto const n : was)
        if (!among(is, n) && !count_name(next, n, listed->command, false)) return false;
    replace_listed(next, i, rec);
    for (auto const n : is)
        if (!among(was, n) && !count_name(next, n, rec->command, true)) return false;
    return true;
}

template <frontmatter::frontmatter_parser Parser, dedup_policy Dedup, skill_source... Sources>
bool basic_registry<Parser, Dedup, Sources...>::stands_alone(skillmd::snapshot const& next, std::string_view command) const
{
    auto const& shadowed = next.shadowed_.items_;
    if (auto const s = skillmd::snapshot::first_from(shadowed, command); s != shadowed.end() && (*s)->command == command) return false;
    if (auto const [c, end] = next.copies_of(command); c != end) return false;
    return looks_like_no_other(next, command);
}

template <frontmatter::frontmatter_parser Parser, dedup_policy Dedup, skill_source... Sources>
bool basic_registry<Parser, Dedup, Sources...>::looks_like_no_other(skillmd::snapshot const& next, std::string_view command)
{
    if (!next.ascii_) { // by Unicode skeleton, as a first load compares a store with a name beyond ASCII
        std::string const look = detail::confusable_skeleton(command);
        auto it = std::lower_bound(next.looks_.begin(), next.looks_.end(), look, [](auto const& e, std::string const& k) { return e.first < k; });
        for (; it != next.looks_.end() && it->first == look; ++it)
            if (it->second != command) return false;
        return true;
    }
    if (!detail::ascii_only(command)) return false; // the first name beyond ASCII: all are compared otherwise now
    std::string prefix;
    if (detail::case_twin_in(next.skills_.items_, command, prefix)) return false;
    prefix.clear();
    return !detail::case_twin_in(next.shadowed_.items_, command, prefix);
}

template <frontmatter::frontmatter_parser Parser, dedup_policy Dedup, skill_source... Sources>
bool basic_registry<Parser, Dedup, Sources...>::relook(skillmd::snapshot& next, std::string_view command)
{
    if (next.ascii_) return true;
    // Borne still: by a record of that command, or by a copy `command@tier`.
    auto const bears = [&](detail::chunked<record_ptr> const& list) {
        if (auto const i = skillmd::snapshot::first_from(list, command); i != list.end() && (*i)->command == command) return true;
        std::string const prefix = std::string(command) + "@";
        for (auto i = skillmd::snapshot::first_from(list, prefix); i != list.end() && std::string_view((*i)->command).starts_with(prefix); ++i)
            if (skillmd::snapshot::base_command(**i) == command) return true;
        return false;
    };
    bool const borne = bears(next.skills_.items_) || bears(next.shadowed_.items_);
    std::pair<std::string, std::string> entry(detail::confusable_skeleton(command), std::string(command));
    auto const at = std::lower_bound(next.looks_.begin(), next.looks_.end(), entry);
    bool const kept = at != next.looks_.end() && *at == entry;
    if (borne == kept) return true;
    bool const beyond = !detail::ascii_only(command);
    if (borne) {
        next.looks_.insert(at.index(), std::move(entry));
        next.beyond_ascii_ += beyond;
        return true;
    }
    next.looks_.erase(at.index());
    next.beyond_ascii_ -= beyond;
    return !beyond || next.beyond_ascii_ != 0;
}

template <frontmatter::frontmatter_parser Parser, dedup_policy Dedup, skill_source... Sources>
bool basic_registry<Parser, Dedup, Sources...>::count_name(skillmd::snapshot& next, std::string_view n, std::string_view command, bool added) const
{
    using entry_t = std::pair<std::string_view, std::string_view>;
    auto& names = next.names_;
    auto& crowded = next.crowded_;
    auto& crowd = next.crowd_;
    auto const [named, is_named] = detail::entry_for(names, n);
    auto const [shared, is_shared] = detail::entry_for(crowded, n);
    bool const a_command = next.position_of(n) != skillmd::snapshot::npos;
    if (added) {
        if (is_named) { // another skill's until now: it finds neither
            entry_t const other = *named;
            names.erase(named.index());
            crowded.insert(shared.index(), {std::string(n), 2});
            detail::insert_sorted(crowd, other);
            detail::insert_sorted(crowd, {n, command});
        } else if (is_shared) {
            crowded.set(shared.index(), {shared->first, shared->second + 1});
            detail::insert_sorted(crowd, {n, command});
        } else if (a_command) {
            crowded.insert(shared.index(), {std::string(n), 1});
            detail::insert_sorted(crowd, {n, command});
        } else {
            detail::insert_sorted(names, {n, command});
        }
        return true;
    }
    if (is_named) {
        if (named->second != command) return false; // not as a first load left it
        names.erase(named.index());
        return true;
    }
    if (!is_shared || shared->second == 0) return false;
    auto const bearer = detail::entry_viewing(crowd, n, command);
    if (bearer == crowd.end()) return false;
    crowd.erase(bearer.index());
    std::uint32_t const left = shared->second - 1;
    if (left == 0) crowded.erase(shared.index());
    else if (left >= 2 || a_command) crowded.set(shared.index(), {shared->first, left});
    else return name_the_bearer(next, shared.index());
    return true;
}

template <frontmatter::frontmatter_parser Parser, dedup_policy Dedup, skill_source... Sources>
bool basic_registry<Parser, Dedup, Sources...>::count_command(skillmd::snapshot& next, std::string_view command, bool added) const
{
    auto& names = next.names_;
    auto& crowded = next.crowded_;
    auto const [shared, is_shared] = detail::entry_for(crowded, command);
    if (added) {
        // A name that found another skill is hidden by the command now; one shared stays so.
        if (auto const [named, is_named] = detail::entry_for(names, command); is_named) {
            std::pair<std::string_view, std::string_view> const other = *named;
            names.erase(named.index());
            crowded.insert(shared.index(), {std::string(command), 1});
            detail::insert_sorted(next.crowd_, other);
        }
        return true;
    }
    // Its one bearer is found by the name again; a name shared stays crowded.
    if (is_shared && shared->second == 1) return name_the_bearer(next, shared.index());
    return true;
}

template <frontmatter::frontmatter_parser Parser, dedup_policy Dedup, skill_source... Sources>
bool basic_registry<Parser, Dedup, Sources...>::name_the_bearer(skillmd::snapshot& next, std::size_t shared) const
{
    std::string_view const n = next.crowded_[shared].first;
    auto& crowd = next.crowd_;
    auto const [at, end] = detail::bearers_of(crowd, n);
    if (std::distance(at, end) != 1) return false; // not as the count says: a first load decides
    std::pair<std::string_view, std::string_view> const entry = *at; // viewing the listed record, as assemble's entries do
    crowd.erase(at.index());
    next.crowded_.erase(shared);
    detail::insert_sorted(next.names_, entry);
    return true;
}

template <frontmatter::frontmatter_parser Parser, dedup_policy Dedup, skill_source... Sources>
void basic_registry<Parser, Dedup, Sources...>::relink_parent(skillmd::snapshot& next, std::string_view command, bool added) const
{
    auto const slash = command.rfind('/');
    if (slash == std::string_view::npos) return;
    auto const p = next.position_of(command.substr(0, slash));
    if (p == skillmd::snapshot::npos) return;
    record_ptr const parent = next.skills_.items_[p];
    std::vector<std::string_view> children;
    for (auto const& c : parent->children)
        if (std::string_view(c) != command) children.push_back(c);
    if (added) children.insert(std::upper_bound(children.begin(), children.end(), command), command);
    record_draft d = parent->draft();
    d.children.clear();
    replace_listed(next, p, detail::make_record(d, children));
}

template <frontmatter::frontmatter_parser Parser, dedup_policy Dedup, skill_source... Sources>
bool basic_registry<Parser, Dedup, Sources...>::add_skill(skillmd::snapshot& next, read_result now, std::vector<diagnostic>& gated) const
{
    // A refresh that returns false here is thrown away whole: what was changed before does not matter.
    record_ptr const read = now.record;
    std::string_view const command = read->command;
    if (next.position_of(command) != skillmd::snapshot::npos || !stands_alone(next, command)) return false;
    record_ptr rec = read;
    if (!gate_alone(rec, gated)) return false; // off
    if (!list_one(next, std::move(rec))) return false;
    cache_read(next, read);
    return relook(next, command);
}

template <frontmatter::frontmatter_parser Parser, dedup_policy Dedup, skill_source... Sources>
bool basic_registry<Parser, Dedup, Sources...>::gate_alone(record_ptr& rec, std::vector<diagnostic>& said) const
{
    skillmd::snapshot scratch;
    requirement_checker gate;
    bool const on = gate_one(rec, gate, scratch);
    if (!on) rec = std::move(scratch.disabled_.building_.back());
    said = std::move(scratch.diagnostics_);
    return on;
}

template <frontmatter::frontmatter_parser Parser, dedup_policy Dedup, skill_source... Sources>
bool basic_registry<Parser, Dedup, Sources...>::is_off(skill_record const& r) const
{
    auto const d = override_of(r);
    return !d.layer.empty() && d.mode == override_mode::off;
}

template <frontmatter::frontmatter_parser Parser, dedup_policy Dedup, skill_source... Sources>
std::optional<std::size_t> basic_registry<Parser, Dedup, Sources...>::disabled_place(skillmd::snapshot const& next, skill_record const& r,
                                                                                    bool present)
{
    if (!next.reads_in_order_) return std::nullopt;
    auto const& off = next.disabled_.items_;
    auto const order = [](skill_record const& x) { return std::pair(x.tier_index, std::string_view(x.where.command)); };
    auto const it = std::lower_bound(off.begin(), off.end(), order(r), [&](record_ptr const& x, auto const& k) { return order(*x) < k; });
    auto end = it;
    while (end != off.end() && order(**end) == order(r)) ++end;
    // One read of this tier and command, and (present) it is this one: a twin's place is the walk's.
    if (end.index() - it.index() != (present ? 1u : 0u)) return std::nullopt;
    if (present && skillmd::snapshot::key_of(*it) != skillmd::snapshot::read_key{r.tier_index, r.where.path}) return std::nullopt;
    return it.index();
}

template <frontmatter::frontmatter_parser Parser, dedup_policy Dedup, skill_source... Sources>
bool basic_registry<Parser, Dedup, Sources...>::read_leaves(skillmd::snapshot& next, typename skillmd::snapshot::cached_read const& before,
                                                           std::optional<file_stamp> miss, diagnostics_draft& draft) const
{
    record_ptr const old = *before.record; // the cache's own: kept while its entry goes
    if (is_off(*old)) {
        auto const at = disabled_place(next, *old, true);
        if (!at) return false;
        auto& off = next.disabled_.items_;
        std::erase(next.gated_, off[*at]);
        off.erase(*at);
        uncache_read(next, before, miss);
        return true;
    }
    // Listed, alone or in a group: the group is resolved again without it.
    std::string const command(old->command);
    std::vector<diagnostic> none; // what gating says of a read that comes: none comes here
    return has_company(next, command, skillmd::snapshot::key_of(old)) ? regroup(next, command, &before, nullptr, miss, none, draft)
                                                                      : remove_skill(next, before, miss);
}

template <frontmatter::frontmatter_parser Parser, dedup_policy Dedup, skill_source... Sources>
bool basic_registry<Parser, Dedup, Sources...>::read_comes(skillmd::snapshot& next, record_ptr now, std::vector<diagnostic>& gated,
                                                          diagnostics_draft& draft) const
{
    if (!is_off(*now)) { // listed, alone or in a group resolved again with it
        std::string const command(now->command);
        if (has_company(next, command, skillmd::snapshot::key_of(now))) return regroup(next, command, nullptr, now, std::nullopt, gated, draft);
        return add_skill(next, read_result{now, {}, {}, {}}, gated);
    }
    record_ptr rec = now; // the cache keeps the read as it is
    gate_alone(rec, gated); // off: `rec` is the record the disabled list holds, and `gated` says so
    auto const at = disabled_place(next, *rec, false);
    if (!at) return false;
    if (has_requirements(*rec)) next.gated_.push_back(rec);
    next.disabled_.items_.insert(*at, std::move(rec));
    cache_read(next, now);
    return true;
}

template <frontmatter::frontmatter_parser Parser, dedup_policy Dedup, skill_source... Sources>
bool basic_registry<Parser, Dedup, Sources...>::list_one(skillmd::snapshot& next, record_ptr rec, std::size_t after) const
{
    std::string const command(rec->command);
    if (auto const children = detail::children_in(next.skills_.items_, command); !children.empty()) {
        record_draft d = rec->draft();
        d.children.clear();
        rec = detail::make_record(d, children);
    }
    auto& skills = next.skills_.items_;
    skills.insert(skillmd::snapshot::first_from(skills, command).index() + after, rec);
    if (!count_command(next, rec->command, true)) return false;
    bool counted = true;
    for_each_name(*rec, [&](std::string_view n) { counted = counted && count_name(next, n, rec->command, true); });
    if (!counted) return false;
    if (has_requirements(*rec)) next.gated_.push_back(rec);
    relink_parent(next, command, true);
    return true;
}

template <frontmatter::frontmatter_parser Parser, dedup_policy Dedup, skill_source... Sources>
bool basic_registry<Parser, Dedup, Sources...>::remove_skill(skillmd::snapshot& next, typename skillmd::snapshot::cached_read const& before,
                                                            std::optional<file_stamp> miss) const
{
    record_ptr const old = *before.record;
    std::string_view const command = old->command;
    auto& skills = next.skills_.items_;
    std::size_t const i = next.position_of(command);
    if (i == skillmd::snapshot::npos) return false;
    record_ptr const listed = skills[i]; // holds the strings the names table views, until the end
    if (listed->tier_index != old->tier_index || listed->where.path != old->where.path || !stands_alone(next, command)) return false;
    if (!unlist_one(next, i)) return false;
    uncache_read(next, before, miss);
    return relook(next, command);
}

template <frontmatter::frontmatter_parser Parser, dedup_policy Dedup, skill_source... Sources>
bool basic_registry<Parser, Dedup, Sources...>::unlist_one(skillmd::snapshot& next, std::size_t i) const
{
    auto& skills = next.skills_.items_;
    record_ptr const listed = skills[i]; // holds the strings the names table views, until the end
    bool counted = true;
    for_each_name(*listed, [&](std::string_view n) { counted = counted && count_name(next, n, listed->command, false); });
    if (!counted) return false;
    skills.erase(i);
    if (!count_command(next, listed->command, false)) return false;
    if (has_requirements(*listed)) std::erase(next.gated_, listed);
    relink_parent(next, listed->command, false);
    return true;
}

template <frontmatter::frontmatter_parser Parser, dedup_policy Dedup, skill_source... Sources>
void basic_registry<Parser, Dedup, Sources...>::replace_listed(skillmd::snapshot& next, std::size_t i, record_ptr rec) const
{
    record_ptr const old = next.skills_.items_[i];
    // The names table views the listed record's strings: it views the new one's now
    // (a name the new record lacks was counted out before).
    for_each_name(*rec, [&](std::string_view n) {
        for (auto* table : {&next.names_, &next.crowd_})
            if (auto const at = detail::entry_viewing(*table, n, old->command); at != table->end()) table->set(at.index(), {n, rec->command});
    });
    auto& gated = next.gated_;
    if (has_requirements(*old)) std::erase(gated, old); // a pass over them: none else is there
    if (has_requirements(*rec)) gated.push_back(rec);
    next.skills_.items_.set(i, std::move(rec));
}

template <frontmatter::frontmatter_parser Parser, dedup_policy Dedup, skill_source... Sources>
std::optional<skill_text> basic_registry<Parser, Dedup, Sources...>::text(skill_record const& r, std::string* error) const
{
    std::optional<skill_text> out;
    visit_source(r.tier_index, [&](auto const& src) {
        auto res = src.read_all(r.where);
        if (!res.text) {
            if (error) *error = res.error;
            return;
        }
        auto const f = frontmatter::read_skill_file(parser_, *res.text, r.where.path,
                                                    split_options_for(opts_.dialect, opts_.mode));
        // The file may have changed since it was loaded: what goes to the model is checked again.
        for (auto const& d : f.diagnostics)
            if (d.severity == severity::error && (d.code == codes::utf8_invalid || d.code == codes::body_not_text)) {
                if (error) *error = d.message + " (line " + std::to_string(d.line) + ")";
                return;
            }
        out = skill_text{std::move(*res.text), f.body_offset};
    });
    return out;
}

template <frontmatter::frontmatter_parser Parser, dedup_policy Dedup, skill_source... Sources>
std::vector<std::string> basic_registry<Parser, Dedup, Sources...>::bundled_files(skill_record const& r) const
{
    std::vector<std::string> out;
    visit_source(r.tier_index, [&](auto const& src) {
        if constexpr (requires { src.bundled_files(r.where); }) out = src.bundled_files(r.where);
    });
    return out;
}

template <frontmatter::frontmatter_parser Parser, dedup_policy Dedup, skill_source... Sources>
bool basic_registry<Parser, Dedup, Sources...>::gating_unchanged(skillmd::snapshot const& s) const
{
    if (!opts_.gate_requirements) return true;
    if (s.gated_.empty()) return true;
    requirement_checker gate;
    for (auto const& r : s.gated_)
        if (gate_changed(s, *r, gate)) return false;
    return true;
}

template <frontmatter::frontmatter_parser Parser, dedup_policy Dedup, skill_source... Sources>
bool basic_registry<Parser, Dedup, Sources...>::gate_changed(skillmd::snapshot const& s, skill_record const& r, requirement_checker& gate,
                                                            bool dropped)
{
    auto const why = gate.unmet(r.meta);
    // A listed skill says in its record whether it was hidden: most refreshes end here,
    // before any lookup. A dropped copy's only sign is its gating report.
    if (!dropped) {
        if (why.has_value() != r.hidden) return true;
        if (!why) return false;
    }
    auto const read = s.cached(r.tier_index, r.where.path);
    if (!read || !read->record) return true;
    auto const g = skillmd::snapshot::said_at(s.gate_said_, static_cast<std::uint32_t>(read->at));
    if (dropped) {
        if (why.has_value() != (g != s.gate_said_.end())) return true;
        if (!why) return false;
    }
    // Hidden before and now: for the same reason? (Two unmet, and the first of them met now.)
    if (g == s.gate_said_.end()) return true;
    std::string const said = "skill `" + (*read->record)->command + "` is hidden: " + *why;
    auto const reports = s.diagnostics_in(g->second);
    return std::none_of(reports.begin(), reports.end(), [&](diagnostic const& d) { return d.code == codes::requirements_unmet && d.message == said; });
}

template <frontmatter::frontmatter_parser Parser, dedup_policy Dedup, skill_source... Sources>
void basic_registry<Parser, Dedup, Sources...>::read_changed(std::vector<work>& items, skillmd::snapshot const& previous,
                                                          std::vector<read_result>& fresh)
{
    std::vector<work*> todo;
    for (auto& w : items)
        if (!w.result) todo.push_back(&w);
    if (todo.empty()) return; // a first load: every file was read during the discovery
    fresh.resize(todo.size());
    for (std::size_t k = 0; k < todo.size(); ++k) todo[k]->result = &fresh[k];
    unsigned n = opts_.threads ? opts_.threads : std::max(1u, std::thread::hardware_concurrency());
    // Not worth a thread below 64 files to stat or read.
    n = static_cast<unsigned>(std::min<std::size_t>(n, (todo.size() + 63) / 64));
    std::atomic<std::size_t> next{0};
    std::atomic<bool> failed{false};
    // Items are taken a few at a time: a counter that both cores bump for every read of a
    // few microseconds is one cache line passed back and forth 10,000 times.
    constexpr std::size_t step = 16;
    auto const read_or_keep = [&](work& w) {
        if (auto const before = previous.cached(w.tier, w.where->path)) {
            // Unchanged size, time and inode: keep what was read before.
            std::optional<file_stamp> now;
            bool racy = false;
            visit_source(w.tier, [&](auto const& src) {
                if constexpr (requires { src.stamp(*w.where); }) now = src.stamp(*w.where);
                else now = w.where->stamp;
                // A file's time has the kernel's coarse tick: one written again within the
                // tick of the read, at the same size, looks unchanged. It is read again
                // unless it is older than the last reads by a good margin (git's "racily
                // clean" entries). The status change time counts as well: an edit whose
                // mtime was put back is told by its ctime alone, of the same coarse tick.
                using source_type = std::remove_cvref_t<decltype(src)>;
                if constexpr (requires { requires source_type::stamps_are_file_times; }) {
                    constexpr std::int64_t margin_ns = 2'000'000'000; // FAT keeps 2 s, ext3 1 s
                    racy = now && std::max(now->mtime_ns, now->ctime_ns) > previous.read_at_ns_ - margin_ns;
                }
            });
            if (now && *now == before->stamp && now->mtime_ns != 0 && !racy) {
                if (before->record) w.result->record = *before->record;
                w.result->stamp = *now;
                w.result->kept = before->said;
                return;
            }
        }
        *w.result = read_one(w);
    };
    auto worker = [&] {
        try {
            for (std::size_t first; (first = next.fetch_add(step)) < todo.size() && !failed;) {
                std::size_t const end = std::min(first + step, todo.size());
                for (std::size_t k = first; k < end; ++k) read_or_keep(*todo[k]);
            }
        } catch (...) {
            failed = true; // out of memory in a worker: the whole refresh fails, never the process
        }
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < n; ++t) {
        try {
            pool.emplace_back(worker);
        } catch (...) {
            break; // no thread (RLIMIT_NPROC, no memory): the ones running do the work
        }
    }
    worker();
    for (auto& t : pool) t.join();
    if (failed) throw std::bad_alloc();
}

template <frontmatter::frontmatter_parser Parser, dedup_policy Dedup, skill_source... Sources>
typename basic_registry<Parser, Dedup, Sources...>::read_result basic_registry<Parser, Dedup, Sources...>::read_one(work const& w) const
{
    read_result out;
    visit_source(w.tier, [&](auto const& src) {
        out = result_of(w.tier, src.label(), read_candidate(parser_, opts_, src, *w.where), *w.where, detail::command_prefix_of(src));
    });
    return out;
}

template <frontmatter::frontmatter_parser Parser, dedup_policy Dedup, skill_source... Sources>
typename basic_registry<Parser, Dedup, Sources...>::read_result
basic_registry<Parser, Dedup, Sources...>::result_of(std::size_t tier, std::string_view tier_label, candidate_result&& r,
                                                     candidate const& where, std::string_view command_prefix) const
{
    read_result out;
    if (r.skill) {
        // A folder's path is a name too: no `@` or `:` (or look-alikes), no white space
        // that makes two paths look the same, nothing invisible (find_name_fault), in every
        // dialect. Only the prefix a plugin source puts before its commands may hold `:`.
        // (A `name:` is checked as it is read.)
        std::string_view path_part = where.command;
        if (path_part.starts_with(command_prefix)) path_part.remove_prefix(command_prefix.size());
        if (auto const fault = find_name_fault(path_part)) {
            auto const code = fault->kind == name_fault_kind::reserved      ? codes::name_reserved_character
                              : fault->kind == name_fault_kind::white_space ? codes::name_white_space
                                                                            : codes::name_invisible_character;
            r.diagnostics.push_back({std::string(code), severity::error, where.path, 0, 0,
                                     "the path `" + detail::terminal_safe(path_part) + "` " + fault->why + "; skipped"});
            r.skill.reset();
        }
    }
    // A skill is listed only if it can be loaded: a path the kernel cannot take whole
    // (PATH_MAX, 4096 on Linux) is read at discovery through folder descriptors, but
    // never again by path.
    if (r.skill && !where.database && where.path.size() >= max_path_bytes) {
        r.diagnostics.push_back({std::string(codes::skill_unreadable), severity::error, detail::clean_line(std::string_view(where.path).substr(0, 200)) + "...", 0, 0,
                                 "the path is " + std::to_string(where.path.size()) + " bytes long, more than a path may be (" +
                                     std::to_string(max_path_bytes - 1) + "); skipped, as it could not be loaded"});
        r.skill.reset();
    }
    if (r.skill) {
        std::string_view command = where.command;
        std::string named;
        if (opts_.dialect.command_from_name && r.skill->name_given && valid_command_name(r.skill->name) &&
            r.skill->name.find('/') == std::string::npos) {
            // mycode keys skills by `name`; a plugin's `prefix:` stays in front.
            auto const colon = command.find(':');
            named = std::string(colon == std::string_view::npos ? std::string_view() : command.substr(0, colon + 1)) + r.skill->name;
            command = named;
        }
        // Packed from the read's parts where they lie: a skill's metadata is some 650
        // bytes, which a draft would take by moves and then free.
        out.record = make_record(record_parts{.command = command,
                                              .tier = tier_label,
                                              .tier_index = tier,
                                              .where = where,
                                              .stamp = r.stamp,
                                              .meta = *r.skill,
                                              .body_offset = r.body_offset});
    }
    out.stamp = r.stamp;
    out.diagnostics = std::move(r.diagnostics);
    return out;
}

template <frontmatter::frontmatter_parser Parser, dedup_policy Dedup, skill_source... Sources>
void basic_registry<Parser, Dedup, Sources...>::assemble(std::vector<work>& items, skillmd::snapshot& next) const
{
    auto kept = gate_and_group(items, next);
    bool const in_order = kept.distinct_in_order;
    next.collisions_from_ = next.diagnostics_.size();
    resolve_collisions(kept, next);
    next.collisions_ = next.diagnostics_.size() - next.collisions_from_;
    auto& skills = next.skills_.building_;
    if (!in_order && !std::is_sorted(skills.begin(), skills.end(), detail::listed_before))
        std::sort(skills.begin(), skills.end(), detail::listed_before);
    report_confusables(next);
    link_children(next);
    // A name lookup also finds a skill whose `name:` differs from its command, and
    // (Claude Code) the label the user sees; a real command always wins over a name, and
    // a name that several skills share finds none of them (Codex lists every copy and
    // resolves a plain name only when it is unique): an ambiguous lookup is no answer.
    // Each name's last skill and how many skills bear it, in a hash table: sorting every
    // name first compared many strings that turn out ambiguous anyway (one folder name
    // in each of many groups); only the names kept are sorted. The names left out go to
    // crowded_ with their counts, for a later refresh to count in and out.
    struct bearers
    {
        std::size_t first, last; // the first and the last skill that bear it
        std::uint32_t count;
    };
    std::unordered_map<std::string_view, bearers> named;
    std::vector<std::pair<std::string_view, std::string_view>> names;
    std::vector<std::pair<std::string, std::uint32_t>> crowded;
    std::vector<std::pair<std::string_view, std::string_view>> crowd; // each bearer of a name borne twice or more
    named.reserve(skills.size());
    auto const note = [&](std::string_view n, std::size_t i) {
        if (n.empty() || n == skills[i]->command) return;
        auto const [at, fresh] = named.try_emplace(n, bearers{i, i, 1});
        if (fresh || at->second.last == i) return;
        // Each entry views one record, its name and command both: the first bearer's is the key.
        if (at->second.count == 1) crowd.emplace_back(at->first, skills[at->second.first]->command);
        crowd.emplace_back(n, skills[i]->command);
        at->second.last = i;
        ++at->second.count;
    };
    for (std::size_t i = 0; i < skills.size(); ++i) {
        detail::prefetch_ahead(skills, i);
        note(skills[i]->meta.name, i);
        if (opts_.dialect.find_by_label && skills[i]->meta.label) note(*skills[i]->meta.label, i);
    }
    for (auto const& [n, b] : named) {
        bool const lone = b.count == 1;
        if (lone && skillmd::snapshot::position_in(skills, n) == skillmd::snapshot::npos) {
            names.emplace_back(n, skills[b.last]->command);
            continue;
        }
        crowded.emplace_back(std::string(n), b.count);
        if (lone) crowd.emplace_back(n, skills[b.last]->command); // hidden by a command
    }
    std::sort(names.begin(), names.end());
    std::sort(crowded.begin(), crowded.end());
    std::sort(crowd.begin(), crowd.end());
    next.crowded_ = detail::chunked<std::pair<std::string, std::uint32_t>>(std::move(crowded));
    next.crowd_ = detail::chunked<std::pair<std::string_view, std::string_view>>(std::move(crowd));
    // Shadowed and disabled ones too: each says whether it is hidden.
    for (auto const* list : {&skills, &next.shadowed_.building_, &next.disabled_.building_})
        for (auto const& r : *list)
            if (has_requirements(*r)) next.gated_.push_back(r);
    next.names_ = detail::chunked<std::pair<std::string_view, std::string_view>>(std::move(names));
    next.skills_.freeze();
    next.shadowed_.freeze();
    next.disabled_.freeze();
    next.published_diagnostics_ = std::make_shared<std::vector<diagnostic> const>(std::move(next.diagnostics_));
    next.diagnostics_ = {};
}

/// What was read goes into the new snapshot's cache and diagnostics; skills whose required
/// programs or variables are missing are hidden; the rest is grouped by command.
template <frontmatter::frontmatter_parser Parser, dedup_policy Dedup, skill_source... Sources>
typename basic_registry<Parser, Dedup, Sources...>::command_groups basic_registry<Parser, Dedup, Sources...>::gate_and_group(std::vector<work>& items, skillmd::snapshot& next) const
{
    command_groups kept;
    kept.reserve(items.size());
    // Every read, in the order of the items, before it goes to the snapshot's cache.
    using span_of_diagnostics = typename skillmd::snapshot::span_of_diagnostics;
    std::vector<read_entry> reads;
    reads.reserve(items.size());
    requirement_checker gate;
    // Discovery lists most trees in command order, each path once: whether this one does
    // is seen on the way, each item against the one before it (still in the CPU's cache).
    bool kept_in_order = true, cache_in_order = true, reads_in_order = true;
    auto const push_cached = [&](read_entry e) {
        if (!reads.empty() && cache_in_order) cache_in_order = key_of(reads.back(), next) < key_of(e, next);
        reads.push_back(std::move(e));
    };
    for (std::size_t i = 0; i < items.size(); ++i) {
        // Each item's read lies where a walk's thread made it: it and its record are
        // fetched a few items ahead.
        if (i + 2 * detail::prefetch_distance < items.size()) detail::prefetch(items[i + 2 * detail::prefetch_distance].result);
        detail::prefetch_ahead(items, i, [](work const& w) { return w.result->record.get(); });
        auto& w = items[i];
        if (reads_in_order && i > 0) {
            auto const& p = items[i - 1];
            reads_in_order = p.tier < w.tier || (p.tier == w.tier && p.where->command < w.where->command);
        }
        auto& result = *w.result;
        auto& fresh = result.diagnostics;
        auto const first = next.diagnostics_.size();
        next.diagnostics_.insert(next.diagnostics_.end(), std::make_move_iterator(fresh.begin()), std::make_move_iterator(fresh.end()));
        next.diagnostics_.insert(next.diagnostics_.end(), result.kept.begin(), result.kept.end());
        span_of_diagnostics const said{static_cast<std::uint32_t>(first), static_cast<std::uint32_t>(next.diagnostics_.size() - first)};
        if (!result.record) {
            next.misses_.push_back({w.tier, w.where->path, result.stamp, said, w.where->command});
            push_cached({nullptr, {}, {}, next.misses_.size() - 1});
            continue;
        }
        record_ptr rec = result.record;
        push_cached({std::move(result.record), said, {}, 0});
        bool const on = gate_one(rec, gate, next);
        reads.back().gate_said = {said.first + said.count, static_cast<std::uint32_t>(next.diagnostics_.size() - said.first - said.count)};
        if (!on) continue;
        if (kept_in_order && !kept.empty()) kept_in_order = kept.back()->command < rec->command;
        kept.push_back(std::move(rec));
    }
    // Otherwise sorted here; a stable sort keeps the tiers in order within a command.
    kept.distinct_in_order = kept_in_order;
    if (!kept_in_order && !std::is_sorted(kept.begin(), kept.end(), detail::command_before))
        std::stable_sort(kept.begin(), kept.end(), detail::command_before);
    cache_reads(reads, cache_in_order, next);
    next.reads_in_order_ = reads_in_order;
    return kept;
}

/// The record `rec` read, gated: hidden when its required programs or variables are
/// missing, marked by the override that decides it. False when that override turns it
/// off (it then goes to the snapshot's disabled skills).
template <frontmatter::frontmatter_parser Parser, dedup_policy Dedup, skill_source... Sources>
bool basic_registry<Parser, Dedup, Sources...>::gate_one(record_ptr& rec, requirement_checker& gate, skillmd::snapshot& next) const
{
    if (opts_.gate_requirements && has_requirements(*rec)) {
        if (auto why = gate.unmet(rec->meta)) {
            detail::edit(rec, [](record_draft& d) { d.hidden = true; });
            next.diagnostics_.push_back({std::string(codes::requirements_unmet), severity::info, rec->where.path.str(), 0, 0,
                                         "skill `" + rec->command + "` is hidden: " + *why});
        }
    }
    auto d = override_of(*rec);
    if (d.layer.empty()) return true;
    detail::edit(rec, [&](record_draft& e) {
        e.overridden = std::move(d);
        if (e.overridden->mode == override_mode::user_invocable_only) e.meta.user_invocable = true;
    });
    if (rec->overridden->mode != override_mode::off) return true;
    next.diagnostics_.push_back({std::string(codes::skill_disabled), severity::info, rec->where.path.str(), 0, 0,
                                 "skill `" + rec->command + "` is off: `" + rec->overridden->pattern + "` is \"off\" in " +
                                     rec->overridden->layer +
                                     (rec->overridden->origin.empty() ? "" : " (" + rec->overridden->origin + ")")});
    next.disabled_.building_.push_back(std::move(rec));
    return false;
}

/// The reads of a refresh (`in_order`: already sorted by key, each once) into the
/// snapshot's cache, its ranges of diagnostics and its misses.
template <frontmatter::frontmatter_parser Parser, dedup_policy Dedup, skill_source... Sources>
void basic_registry<Parser, Dedup, Sources...>::cache_reads(std::vector<read_entry>& reads, bool in_order, skillmd::snapshot& next)
{
    // Sorted for lookups; should a source list one path twice, its last read stands.
    if (!in_order) {
        auto const key_less = [&](read_entry const& a, read_entry const& b) { return key_of(a, next) < key_of(b, next); };
        if (!std::is_sorted(reads.begin(), reads.end(), key_less)) std::stable_sort(reads.begin(), reads.end(), key_less);
        auto const last_of_each = std::unique(reads.rbegin(), reads.rend(), [&](auto const& a, auto const& b) { return key_of(a, next) == key_of(b, next); });
        reads.erase(reads.begin(), last_of_each.base());
    }
    // Then split: the records (8 bytes each, kept as long as the snapshot: no spare
    // capacity), the ranges of those with diagnostics, and the misses in the same order.
    std::size_t const records = static_cast<std::size_t>(std::count_if(reads.begin(), reads.end(), [](read_entry const& e) { return e.record != nullptr; }));
    std::vector<record_ptr> cache;
    cache.reserve(records);
    std::vector<typename skillmd::snapshot::miss> misses;
    misses.reserve(reads.size() - records);
    for (auto& e : reads) {
        if (!e.record) {
            misses.push_back(std::move(next.misses_[e.miss]));
            continue;
        }
        if (e.said.count != 0) next.said_.emplace_back(static_cast<std::uint32_t>(cache.size()), e.said);
        if (e.gate_said.count != 0) next.gate_said_.emplace_back(static_cast<std::uint32_t>(cache.size()), e.gate_said);
        cache.push_back(std::move(e.record));
    }
    next.said_.shrink_to_fit();
    next.gate_said_.shrink_to_fit();
    next.misses_ = std::move(misses);
    next.cache_ = detail::chunked<record_ptr>(std::move(cache));
}

/// Each group of skills sharing a command, in tier order, goes to `Dedup`: the winner is
/// listed, the others are kept as shadowed (`name@tier`) and reported, unless they are the
/// winner's very file; under keep_all every one is listed by its qualified name.
template <frontmatter::frontmatter_parser Parser, dedup_policy Dedup, skill_source... Sources>
void basic_registry<Parser, Dedup, Sources...>::resolve_collisions(command_groups& kept, skillmd::snapshot& next)
{
    auto& skills = next.skills_.building_;
    if (kept.distinct_in_order && skills.empty()) { // the common case: every skill is listed as it is
        skills = std::move(static_cast<std::vector<record_ptr>&>(kept));
        skills.shrink_to_fit(); // kept as long as the snapshot; room was made for misses too
        return;
    }
    skills.reserve(skills.size() + kept.size());
    std::vector<std::pair<std::string, typename skillmd::snapshot::dropped_copy>> collapsed;
    std::vector<record_ptr> group, dropped;
    std::vector<std::pair<std::string, std::uint32_t>> duplicates;
    for (std::size_t first = 0, last; first < kept.size(); first = last) {
        for (last = first + 1; last < kept.size() && kept[last]->command == kept[first]->command; ++last) {}
        if (last - first == 1) {
            skills.push_back(std::move(kept[first]));
            continue;
        }
        group.assign(std::make_move_iterator(kept.begin() + static_cast<std::ptrdiff_t>(first)),
                     std::make_move_iterator(kept.begin() + static_cast<std::ptrdiff_t>(last)));
        std::string const command(group.front()->command); // records are replaced below when edited
        std::stable_sort(group.begin(), group.end(), [](auto const& a, auto const& b) { return a->tier_index < b->tier_index; });
        std::vector<dedup_entry> entries;
        for (auto const& r : group) entries.push_back({r->tier_index, r->tier, r->where.database, r->where.stamp});
        dedup_decision d = Dedup::resolve(entries);
        dropped.clear(); // one file reached through two tiers counts once
        detail::drop_same_files<Dedup::collapse_same_file>(group, d, dropped);
        for (auto const& r : dropped) collapsed.emplace_back(command, typename skillmd::snapshot::dropped_copy{r->tier_index, std::string(r->where.path)});
        if (d.keep_all) {
            if (auto const reported = report_copies_in_one_tier(command, group, next.diagnostics_); reported != 0)
                duplicates.emplace_back(command, reported);
            for (auto& r : group) {
                if (group.size() > 1) {
                    std::string q = r->qualified();
                    detail::edit(r, [&](record_draft& e) { e.command = std::move(q); });
                }
                skills.push_back(std::move(r));
            }
            continue;
        }
        std::string const winner = group[d.winner]->qualified();
        for (std::size_t i = 0; i < group.size(); ++i) {
            if (i == d.winner) continue;
            auto& r = group[i];
            constexpr auto level = [] {
                if constexpr (requires { Dedup::warn_on_shadow; }) return Dedup::warn_on_shadow ? severity::warning : severity::info;
                else return severity::info;
            }();
            next.diagnostics_.push_back({std::string(codes::skill_shadowed), level, r->where.path.str(), 0, 0,
                                         "skill `" + command + "` from tier " + r->tier +
                                             " is shadowed by " + winner + "; it stays reachable as `" +
                                             r->qualified() + "`"});
            detail::edit(r, [&](record_draft& e) { e.shadowed_by = winner; });
            next.shadowed_.building_.push_back(std::move(r));
        }
        skills.push_back(std::move(group[d.winner]));
    }
    next.duplicates_ = detail::chunked<std::pair<std::string, std::uint32_t>>(std::move(duplicates));
    std::sort(collapsed.begin(), collapsed.end());
    next.collapsed_ = decltype(next.collapsed_)(std::move(collapsed));
}

template <frontmatter::frontmatter_parser Parser, dedup_policy Dedup, skill_source... Sources>
std::uint32_t basic_registry<Parser, Dedup, Sources...>::report_copies_in_one_tier(std::string const& command, std::vector<record_ptr> const& group,
                                                                                 std::vector<diagnostic>& out)
{
    // Two copies in one tier share `name@tier`: the qualified name (and an MCP skill path)
    // reaches the first; the other is listed, found by its path only.
    std::uint32_t reported = 0;
    for (std::size_t i = 1, tier_start = 0; i < group.size(); ++i) {
        if (group[i]->tier_index != group[tier_start]->tier_index) {
            tier_start = i;
            continue;
        }
        out.push_back({std::string(codes::skill_duplicate), severity::warning, group[i]->where.path.str(), 0, 0,
                       "skill `" + command + "` is in tier " + group[i]->tier + " more than once; `" + group[i]->qualified() +
                           "` names the copy at " + detail::clean_line(group[tier_start]->where.path.str()) +
                           ", and this one is listed but reached only by its path"});
        ++reported;
    }
    return reported;
}

/// Sub-skills (sven): exactly the skills whose command is a skill's plus one more
/// segment. A skill two folders below another, with none between, is nobody's child.
template <frontmatter::frontmatter_parser Parser, dedup_policy Dedup, skill_source... Sources>
void basic_registry<Parser, Dedup, Sources...>::link_children(skillmd::snapshot& next)
{
    auto& skills = next.skills_.building_;
    std::vector<std::pair<std::size_t, std::size_t>> links; // parent, child; children in command order
    std::size_t parent = skillmd::snapshot::npos;
    for (std::size_t c = 0; c < skills.size(); ++c) {
        detail::prefetch_ahead(skills, c);
        std::string_view const command = skills[c]->command;
        auto const slash = command.rfind('/');
        if (slash == std::string_view::npos) continue;
        std::string_view const above = command.substr(0, slash);
        // Siblings follow one another in command order: most share the last one's parent.
        if (parent == skillmd::snapshot::npos || skills[parent]->command != above) parent = skillmd::snapshot::position_in(skills, above);
        if (parent != skillmd::snapshot::npos) links.emplace_back(parent, c);
    }
    auto const by_parent = [](auto const& a, auto const& b) { return a.first < b.first; };
    if (!std::is_sorted(links.begin(), links.end(), by_parent)) // a parent's children follow it, mostly
        std::stable_sort(links.begin(), links.end(), by_parent);
    std::vector<std::string_view> wanted;
    for (std::size_t i = 0, k = 0; i < skills.size(); ++i) {
        detail::prefetch_ahead(skills, i);
        wanted.clear();
        for (; k < links.size() && links[k].first == i; ++k) wanted.push_back(skills[links[k].second]->command);
        if (skills[i]->children != wanted) {
            // Packed straight from views of the children's commands: a parent of many
            // sub-skills costs no owned copy of each.
            record_draft d = skills[i]->draft();
            d.children.clear();
            skills[i] = detail::make_record(d, wanted);
        }
    }
}

template <frontmatter::frontmatter_parser Parser, dedup_policy Dedup, skill_source... Sources>
void basic_registry<Parser, Dedup, Sources...>::report_confusables(skillmd::snapshot& next)
{
    // What a name looks like, its skill. ASCII names look alike when they are equal but for
    // case: compared so in place; otherwise by their Unicode skeletons, made once each.
    std::vector<std::pair<std::string_view, skill_record const*>> looks;
    bool ascii = true;
    looks.reserve(next.skills_.building_.size() + next.shadowed_.building_.size());
    for (auto const* list : {&next.skills_.building_, &next.shadowed_.building_})
        for (std::size_t i = 0; i < list->size(); ++i) {
            detail::prefetch_ahead(*list, i);
            skill_record const& r = *(*list)[i];
            looks.emplace_back(skillmd::snapshot::base_command(r), &r);
            for (char c : r.command) ascii = ascii && static_cast<unsigned char>(c) < 0x80;
        }
    next.ascii_ = ascii;
    std::vector<std::string> skeletons;
    if (!ascii) {
        skeletons.reserve(looks.size()); // the views below stay put
        for (auto& [key, r] : looks) key = skeletons.emplace_back(skillmd::detail::confusable_skeleton(key));
        std::vector<std::pair<std::string, std::string>> kept; // each name once, for refreshes to search
        kept.reserve(looks.size());
        for (auto const& [key, r] : looks) kept.emplace_back(std::string(key), std::string(skillmd::snapshot::base_command(*r)));
        std::sort(kept.begin(), kept.end());
        kept.erase(std::unique(kept.begin(), kept.end()), kept.end());
        next.beyond_ascii_ = static_cast<std::size_t>(std::count_if(kept.begin(), kept.end(), [](auto const& e) { return !detail::ascii_only(e.second); }));
        next.looks_ = decltype(next.looks_)(std::move(kept));
    }
    auto const key_less = [&](auto const& a, auto const& b) {
        return ascii ? skillmd::detail::ascii_less_ignoring_case(a.first, b.first) : a.first < b.first;
    };
    // Commands come sorted, and most trees have no two that look alike: one pass over
    // strictly increasing keys says so.
    auto const look_alike = std::adjacent_find(looks.begin(), looks.end(), [&](auto const& a, auto const& b) { return !key_less(a, b); });
    if (look_alike == looks.end()) return;
    if (!std::is_sorted(look_alike, looks.end(), key_less)) // lower-case commands are, mostly
        std::stable_sort(looks.begin(), looks.end(), key_less);
    for (std::size_t first = 0, i = 1; i < looks.size(); ++i) {
        if (key_less(looks[first], looks[i])) { // sorted: not less means equal
            first = i;
            continue;
        }
        std::string_view const a = skillmd::snapshot::base_command(*looks[first].second);
        std::string_view const b = skillmd::snapshot::base_command(*looks[i].second);
        if (a == b) continue; // the same name in two tiers: shadowing, reported already
        next.diagnostics_.push_back({std::string(codes::skill_confusable), severity::warning, looks[i].second->where.path.str(), 0, 0,
                                     "skill `" + skillmd::detail::clean_line(b) + "` (tier " + looks[i].second->tier +
                                         ") looks like `" + skillmd::detail::clean_line(a) + "` (tier " +
                                         looks[first].second->tier + "): a reader cannot tell them apart"});
    }
}

} // namespace skillmd

#endif
