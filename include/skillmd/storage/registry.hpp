// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_STORAGE_REGISTRY_HPP
#define SKILLMD_STORAGE_REGISTRY_HPP

// basic_registry: source tiers + dedup policy + frontmatter parser + dialect, assembled
// at compile time. It owns an immutable snapshot; refresh() builds a new one (re-reading
// only what changed) and swaps it in, so readers never block and never see half a state.
// No X3 here: the parser is a template parameter.

#include <skillmd/storage/dedup.hpp>
#include <skillmd/storage/listing_table.hpp>
#include <skillmd/storage/record.hpp>
#include <skillmd/storage/overrides.hpp>
#include <skillmd/model/skill.hpp>
#include <skillmd/frontmatter/parse_result.hpp>
#include <skillmd/validation/dialect.hpp>
#include <skillmd/storage/source.hpp>

#include <algorithm>
#include <array>
#include <concepts>
#include <exception>
#include <cstdint>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <tuple>
#include <utility>
#include <vector>

namespace skillmd {

class requirement_checker; // storage/requirements.hpp, for gate_one

namespace detail {
/// Where `key` is, or would go, in `list` (sorted by each entry's `first`), and whether it is there.
template <class List>
auto entry_for(List& list, std::string_view key)
{
    auto const at = std::lower_bound(list.begin(), list.end(), key, [](auto const& e, std::string_view k) { return e.first < k; });
    return std::pair{at, at != list.end() && at->first == key};
}
/// In a table of (name, command) views sorted by content, the entry for `name` and
/// `command` that views the very string `command` views (copies kept in one tier share a
/// command, and each entry must view a record still listed), or end().
template <class Table>
auto entry_viewing(Table& table, std::string_view name, std::string_view command)
{
    std::pair<std::string_view, std::string_view> const key(name, command);
    for (auto at = std::lower_bound(table.begin(), table.end(), key); at != table.end() && *at == key; ++at)
        if (at->second.data() == command.data()) return at;
    return table.end();
}
/// Puts `entry` into a table of (name, command) views kept sorted by content.
template <class Table>
void insert_sorted(Table& table, std::pair<std::string_view, std::string_view> const& entry)
{
    table.insert(std::lower_bound(table.begin(), table.end(), entry).index(), entry);
}
/// The entries of a (name, command) table sorted by content whose name is `name`, as
/// [first, last).
template <class Table>
auto bearers_of(Table& table, std::string_view name)
{
    auto const first = std::lower_bound(table.begin(), table.end(), std::pair<std::string_view, std::string_view>(name, {}));
    auto last = first;
    while (last != table.end() && last->first == name) ++last;
    return std::pair{first, last};
}
} // namespace detail

/// The longest path, with its terminating NUL, that the kernel opens (Linux's PATH_MAX).
inline constexpr std::size_t max_path_bytes = 4096;

/// An immutable view of the registry at one moment.
class snapshot
{
public:
    /// Skills that won (or all of them, under keep_all), sorted by command.
    record_list const& skills() const noexcept { return skills_; }
    /// Skills another tier's skill shadowed; reachable as `name@tier`.
    record_list const& shadowed() const noexcept { return shadowed_; }
    /// Skills an override turned off: in no index, tool, command or listing; kept for `explain`.
    record_list const& disabled() const noexcept { return disabled_; }
    std::vector<diagnostic> const& diagnostics() const noexcept
    {
        static std::vector<diagnostic> const none;
        return published_diagnostics_ ? *published_diagnostics_ : none;
    }

    /** The one name resolver: by command or name, with or without a leading `/`;
        `name@tier` reaches shadowed skills. A key holding `@` is always `name@tier` and
        never a command or a name: no folder or `name:` may hold `@` (the registry refuses
        them), so a folder cannot answer for a tier's skill. Invocation, tool calls and
        permission rules all go through here (see names_of()).
    */
    skill_record const* find(std::string_view key) const
    {
        if (!key.empty() && key.front() == '/') key.remove_prefix(1);
        if (key.empty()) return nullptr;
        if (auto const at = key.rfind('@'); at != std::string_view::npos) {
            if (at == 0) return nullptr;
            // Both lists are sorted by command: the tier's skill is the one whose command
            // is `name` (or `name@tier`, the command keep-all dedup gives a copy).
            std::string_view const name = key.substr(0, at), tier = key.substr(at + 1);
            for (auto const* list : {&skills_, &shadowed_})
                for (auto const command : {name, key})
                    if (auto const* r = of_tier(*list, command, tier)) return r;
            return nullptr;
        }
        if (auto const i = position_of(key); i != npos) return &skills_[i];
        if (auto const [named, found] = detail::entry_for(names_, key); found)
            if (auto const i = position_of(named->second); i != npos) return &skills_[i];
        return nullptr;
    }

    /// Every spelling a skill bears: those find() takes to it, and those it carries (its
    /// `name:`, its bare command when shadowed) that lead to another skill or to none.
    struct record_names
    {
        std::vector<std::string> answers;
        std::vector<std::string> carries;
    };
    record_names names_of(skill_record const& r) const
    {
        record_names out;
        auto const add = [&](std::string key) {
            if (key.empty()) return;
            auto& list = find(key) == &r ? out.answers : out.carries;
            if (std::find(list.begin(), list.end(), key) == list.end()) list.push_back(std::move(key));
        };
        std::string const tier(r.tier.view());
        std::string const base(base_command(r));
        add(std::string(r.command.view()));
        add(base);
        add(base + "@" + tier);
        std::string const name(r.meta.name.view());
        add(name);
        if (!name.empty()) add(name + "@" + tier);
        if (r.meta.label) add(std::string(*r.meta.label));
        return out;
    }

    std::vector<skill_record const*> list(visibility v = visibility::all) const
    {
        std::vector<skill_record const*> out;
        for (auto const& r : skills_)
            if (r.visible_to(v)) out.push_back(&r);
        return out;
    }

    /// What listings read of every skill, packed in the order of skills(): built by the
    /// first caller (any thread), kept for the snapshot's life; the rows of the chunks a
    /// refresh left alone are those an earlier snapshot's listing made. A build that runs
    /// out of memory throws and leaves it to the next caller. (A mutex rather than
    /// std::call_once, which some standard libraries do not let throw.)
    listing_table const& listing_rows() const
    {
        std::lock_guard<std::mutex> lock(listing_mutex_);
        if (!listing_) listing_ = std::make_unique<listing_table const>(skills_, pieces_.get());
        return *listing_;
    }

    /// The direct sub-skills of a nested skill (sven).
    std::vector<skill_record const*> children(std::string_view command) const
    {
        std::vector<skill_record const*> out;
        if (auto const* parent = find(command))
            for (auto const& c : parent->children)
                if (auto const* r = find(c)) out.push_back(r);
        return out;
    }

private:
    template <frontmatter::frontmatter_parser, dedup_policy, skill_source...>
    friend class basic_registry;

    static std::string_view base_command(skill_record const& r)
    {
        std::string_view c = r.command;
        if (auto const at = c.rfind('@'); at != std::string_view::npos) c = c.substr(0, at);
        return c;
    }

    /// The first record of `v` (records sorted by command: a snapshot's list, or one a
    /// refresh is building) whose command is not below `command`.
    template <class Records>
    static auto first_from(Records const& v, std::string_view command)
    {
        return std::lower_bound(v.begin(), v.end(), command,
                                [](record_ptr const& r, std::string_view c) { return r->command < c; });
    }

    /// The skill of `list` (sorted by command) with this command in this tier, if any.
    static skill_record const* of_tier(record_list const& list, std::string_view command, std::string_view tier)
    {
        for (auto it = first_from(list.items_, command); it != list.items_.end() && (*it)->command == command; ++it)
            if ((*it)->tier == tier) return &**it;
        return nullptr;
    }

    static constexpr std::size_t npos = ~std::size_t{0};
    /// Where the record whose command is `command` is in `v` (sorted by command), or npos.
    template <class Records>
    static std::size_t position_in(Records const& v, std::string_view command)
    {
        auto const it = first_from(v, command);
        return it != v.end() && (*it)->command == command ? static_cast<std::size_t>(it - v.begin()) : npos;
    }
    /// Where the skill whose command is `command` is in skills_, or npos.
    std::size_t position_of(std::string_view command) const { return position_in(skills_.items_, command); }
    /// The listed commands that begin `command@` (a keep-all policy's copies `name@tier`),
    /// in command order: the first of them and the end.
    auto copies_of(std::string_view command) const
    {
        std::string const prefix = std::string(command) + "@";
        auto const& v = skills_.items_;
        auto const first = first_from(v, prefix);
        auto last = first;
        while (last != v.end() && std::string_view((*last)->command).starts_with(prefix)) ++last;
        return std::pair{first, last};
    }
    /// The copies of `command` dropped as a kept copy's very file (collapsed_): the first and the end.
    auto dropped_of(std::string_view command) const
    {
        auto const first = std::lower_bound(collapsed_.begin(), collapsed_.end(), command, [](auto const& e, std::string_view c) { return e.first < c; });
        auto last = first;
        while (last != collapsed_.end() && last->first == command) ++last;
        return std::pair{first, last};
    }

    record_list skills_;
    mutable std::mutex listing_mutex_;
    mutable std::unique_ptr<listing_table const> listing_;
    /// The listing rows made for this snapshot's chunks and its registry's earlier ones.
    std::shared_ptr<listing_pieces> pieces_;
    record_list shadowed_; // sorted by command too (resolve_collisions goes through commands in order)
    record_list disabled_;
    std::vector<diagnostic> diagnostics_; // while a refresh builds the snapshot; then published
    std::shared_ptr<std::vector<diagnostic> const> published_diagnostics_; // shared with the next when unchanged
    // Where the collisions' reports begin in the diagnostics (after every read's and gate's,
    // before the look-alikes'), and how many there are: one per shadowed skill, in
    // shadowed_'s order, and one per copy of a kept group in a tier that holds an earlier
    // copy (duplicates_), each command's in command order. A refresh re-resolves one
    // command's group from these alone.
    std::size_t collisions_from_ = 0, collisions_ = 0;
    // The commands, sorted, of groups kept whole (every copy `name@tier`) with two copies in
    // one tier, and how many copies were reported so.
    detail::chunked<std::pair<std::string, std::uint32_t>> duplicates_;
    // Copies dropped without a word as the very file of a copy kept (one file reached
    // through two tiers): none of the lists holds them. Each as its command and its read,
    // sorted; a change to such a command re-resolves its group with them (regroup).
    struct dropped_copy
    {
        std::size_t tier = 0;
        std::string path;
        auto operator<=>(dropped_copy const&) const = default;
    };
    detail::chunked<std::pair<std::string, dropped_copy>> collapsed_;
    // Names that find a skill besides its command (`name:` or a label), sorted, each with
    // the command of its skill, viewing the records of skills_ (so a skill added or
    // removed moves no entry); a command is found by binary search in skills_, so it
    // needs no entry here.
    detail::chunked<std::pair<std::string_view, std::string_view>> names_;
    // The names left out of names_, sorted: shared by several skills, or the same as a
    // command. Each with how many listed skills bear it (a skill whose command it is not),
    // so a refresh that adds or removes a skill counts its names here, without looking at
    // the others; a name come down to one skill is then found in crowd_ (name_the_bearer).
    detail::chunked<std::pair<std::string, std::uint32_t>> crowded_;
    // Each name of crowded_ with the command of each listed skill that bears it, sorted,
    // viewing the records of skills_ as names_ does: a rule on such a name, or the name
    // come down to one skill, finds its bearers without a pass over the skills.
    detail::chunked<std::pair<std::string_view, std::string_view>> crowd_;
    // Every command of skills_ and shadowed_ is ASCII, so look-alikes differ by case alone.
    bool ascii_ = true;
    // When not ascii_, what look-alikes are compared by: each name that skills_ and
    // shadowed_ bear (base_command) under its Unicode skeleton, sorted, and how many of
    // those names are beyond ASCII. A refresh asks whether a name looks like another with
    // one search, and walks when the last name beyond ASCII goes (case decides then).
    detail::chunked<std::pair<std::string, std::string>> looks_;
    std::size_t beyond_ascii_ = 0;
    // The skills of skills_, shadowed_ and disabled_ that require programs or variables:
    // what a refresh checks again when no file changed (PATH or the environment may have).
    std::vector<record_ptr> gated_;

    // What refresh() may reuse: every candidate read, by tier and path, with its stamp.
    // A read that made a skill is its record (tier, path and stamp are the record's), 8
    // bytes; one that made none is a `miss`. Each list is sorted by tier and path, and a
    // path is in one of them only. A read's diagnostics are a range of diagnostics_, which
    // holds them anyway: a miss keeps its range, and a record's range is in `said_`, by the
    // record's place in cache_, only when it has one.
    struct span_of_diagnostics
    {
        std::uint32_t first = 0, count = 0; // 32 bits: four billion diagnostics would not fit in memory first
    };
    struct miss
    {
        std::size_t tier = 0;
        std::string path;
        file_stamp stamp;
        span_of_diagnostics said;
        std::string command; // its candidate's: where a first load puts what it said (see reads_in_order_)
    };
    // Vectors, not maps (a node and a rebalancing per skill, at every refresh).
    detail::chunked<record_ptr> cache_;
    // When the reads in cache_ began (wall clock, ns): a file whose time is not well before
    // it may have changed again within its time's granularity, keeping size and time (see read_changed).
    std::int64_t read_at_ns_ = 0;
    std::vector<std::pair<std::uint32_t, span_of_diagnostics>> said_;
    std::vector<miss> misses_;
    // What gating said of a cached record (hidden, off), by its place in cache_ as said_:
    // it follows what its read said.
    std::vector<std::pair<std::uint32_t, span_of_diagnostics>> gate_said_;
    /// The first entry of `list` (said_ or gate_said_) whose place in cache_ is not before `at`.
    template <class List>
    static auto said_from(List& list, std::uint32_t at)
    {
        return std::lower_bound(list.begin(), list.end(), at, [](auto const& e, std::uint32_t i) { return e.first < i; });
    }
    /// The entry of `list` for the record at `at` in cache_, or list.end().
    template <class List>
    static auto said_at(List& list, std::uint32_t at)
    {
        auto const e = said_from(list, at);
        return e != list.end() && e->first == at ? e : list.end();
    }
    // The reads' diagnostics come in the order of their candidates' tiers and commands
    // (each tier's discovery listed them so): a refresh that changes what one read says
    // finds its place among the others by that order.
    bool reads_in_order_ = false;

    using read_key = std::pair<std::size_t, std::string_view>;
    static read_key key_of(record_ptr const& r) noexcept { return {r->tier_index, r->where.path}; }
    static read_key key_of(miss const& m) noexcept { return {m.tier, m.path}; }
    /// cache_ and misses_ are sorted by key: for lower_bound.
    struct before_key
    {
        template <class Entry>
        bool operator()(Entry const& e, read_key const& k) const noexcept { return key_of(e) < k; }
    };
    /// Where the miss read at `key` is, or would go.
    std::vector<miss>::const_iterator miss_at(read_key const& key) const
    {
        return std::lower_bound(misses_.begin(), misses_.end(), key, before_key{});
    }
    /// Takes the miss read at `key` out, if there is one.
    void drop_miss(read_key const& key)
    {
        if (auto const m = miss_at(key); m != misses_.end() && key_of(*m) == key) misses_.erase(m);
    }
    std::span<diagnostic const> diagnostics_in(span_of_diagnostics s) const noexcept
    {
        return std::span<diagnostic const>(diagnostics()).subspan(s.first, s.count);
    }

    /// What the cache kept of one read.
    struct cached_read
    {
        record_ptr const* record = nullptr; ///< null: the read made no skill
        file_stamp stamp;
        std::span<diagnostic const> said;
        std::size_t at = 0; ///< the record's place in cache_
    };
    std::optional<cached_read> cached(std::size_t tier, std::string_view path) const
    {
        read_key const key(tier, path);
        if (auto const r = std::lower_bound(cache_.begin(), cache_.end(), key, before_key{}); r != cache_.end() && key_of(*r) == key) {
            auto const at = static_cast<std::uint32_t>(r.index());
            auto const s = said_at(said_, at);
            return cached_read{&*r, (*r)->where.stamp, s != said_.end() ? diagnostics_in(s->second) : std::span<diagnostic const>(), at};
        }
        if (auto const m = miss_at(key); m != misses_.end() && key_of(*m) == key) return cached_read{nullptr, m->stamp, diagnostics_in(m->said)};
        return std::nullopt;
    }
};

struct registry_options
{
    skillmd::dialect dialect = dialects::agent_skills();
    validation_mode mode = validation_mode::lenient;
    bool gate_requirements = true; ///< hide skills whose requires_bins / requires_env are missing
    unsigned threads = 0;          ///< parallel reads and parses; 0: one per core
    skillmd::overrides overrides;  ///< operators' on/off rules, by name or path, in layers
};

/// A skill's whole file as read at one moment, and where its body starts.
struct skill_text
{
    std::string file;
    std::size_t body_offset = 0;
    std::string_view body() const noexcept { return std::string_view(file).substr(std::min(body_offset, file.size())); }
};

/// What reading one candidate gave: the skill, or the diagnostics that say why not.
struct candidate_result
{
    file_stamp stamp;
    std::optional<skill_metadata> skill;
    std::size_t body_offset = 0;
    std::vector<diagnostic> diagnostics;
    bool absent = false; ///< a folder without SKILL.md: no skill, nothing to say
};

namespace detail {
/// What a source puts before every command it discovers (its `command_prefix()`, when it
/// has one): `plugin:` for a plugin's skills, `server:` for an MCP server's. Only this
/// part of a command may hold `:`.
template <class Source>
std::string command_prefix_of(Source const& src)
{
    if constexpr (requires { src.command_prefix(); }) return std::string(src.command_prefix());
    else return {};
}
} // namespace detail

/** The skill registry, assembled from policies at compile time.

    @tparam Parser  a @ref frontmatter_parser (e.g. `frontmatter::x3_parser`)
    @tparam Dedup   a @ref dedup_policy
    @tparam Sources the tiers, in the order their preset documents (tier 0 first)

    Call protocol: `load()` (or `refresh()`) discovers every tier in order, reads and
    parses what changed (in parallel), gates requirements, resolves collisions with
    `Dedup`, then publishes the new snapshot atomically. Readers call `snapshot()`
    (or the shortcuts) from any thread at any time.
*/
template <frontmatter::frontmatter_parser Parser, dedup_policy Dedup, skill_source... Sources>
class basic_registry
{
public:
    explicit basic_registry(Parser parser, registry_options opts, Sources... sources)
        : parser_(std::move(parser)), opts_(std::move(opts)), sources_(std::move(sources)...),
          current_(std::make_shared<skillmd::snapshot const>())
    {
        // The mode is given once, here: a parser that can recover `key: a: b` does so
        // exactly when the registry reads leniently.
        if constexpr (requires(Parser& p) { p.options().recover_colon_in_plain = true; })
            parser_.options().recover_colon_in_plain = parse_options_for(opts_.dialect, opts_.mode).recover_colon_in_plain;
    }
    /// The parser built from the options' dialect and mode.
    explicit basic_registry(registry_options opts, Sources... sources)
        requires std::constructible_from<Parser, frontmatter::parse_options>
        : basic_registry(Parser(parse_options_for(opts.dialect, opts.mode)), opts, std::move(sources)...)
    {
    }

    using parser_type = Parser;
    using dedup_type = Dedup;

    /// The same registry with one policy replaced, in one alias: construct it anew, or
    /// from a registry of the same tiers (below) when only the parser or dedup changed.
    template <frontmatter::frontmatter_parser P>
    using with_parser = basic_registry<P, Dedup, Sources...>;
    template <dedup_policy D>
    using with_dedup = basic_registry<Parser, D, Sources...>;
    template <skill_source... S>
    using with_sources = basic_registry<Parser, Dedup, S...>;

    /** The options and copies of the tiers of `other`, a registry of the same sources
        under another parser or dedup policy (`with_parser<P>`, `with_dedup<D>`). The
        parser is built from the options' dialect and mode when it can be, else default
        constructed. Copied sources share what they keep behind pointers (a directory
        source's change watches): keep one of the two registries, typically the new one.
    */
    template <frontmatter::frontmatter_parser P, dedup_policy D>
        requires(std::constructible_from<Parser, frontmatter::parse_options> || std::default_initializable<Parser>)
    explicit basic_registry(basic_registry<P, D, Sources...> const& other)
        : basic_registry(other, std::index_sequence_for<Sources...>{})
    {
    }

    basic_registry(basic_registry const&) = delete;
    basic_registry& operator=(basic_registry const&) = delete;

    /// The first load; the same as refresh().
    bool load() { return refresh(); }

    /** Builds a new snapshot, re-reading only the files whose size, time or inode changed.
        False when it could not (memory ran out): the previous snapshot stays, and
        `last_error()` says why. Nothing is thrown.
    */
    bool refresh()
    {
        std::lock_guard<std::mutex> one_writer(refresh_mutex_);
        try {
            refresh_locked();
            last_error_.clear();
            return true;
        } catch (std::exception const& e) {
            rewalk_ = true; // the changes the sources told of are told no more: the next refresh walks
            try {
                last_error_ = std::string("refresh failed, the previous skills stay: ") + e.what();
            } catch (...) {
            }
            return false;
        }
    }

    /// Why the last refresh() failed ("" when it did not).
    std::string last_error() const
    {
        std::lock_guard<std::mutex> lock(refresh_mutex_);
        return last_error_;
    }

    /// The current snapshot. The lock only guards copying one pointer: a reader never
    /// waits for a refresh, which builds its snapshot before taking it.
    std::shared_ptr<skillmd::snapshot const> snapshot() const
    {
        std::lock_guard<std::mutex> copy(current_mutex_);
        return current_;
    }

    /// The body of a skill, read now from its source, so an edited file is seen at once.
    std::optional<std::string> body(skill_record const& r, std::string* error = nullptr) const
    {
        if (auto t = text(r, error)) return std::string(t->body());
        return std::nullopt;
    }

    /// The whole file of a skill and where its body starts, read once, now, through its
    /// source (so with the source's checks), and checked to be text again.
    std::optional<skill_text> text(skill_record const& r, std::string* error = nullptr) const;

    /// The files bundled with a skill, relative to its directory, listed now and not read
    /// (sources that have no files list none).
    std::vector<std::string> bundled_files(skill_record const& r) const;

    /// The most skills one refresh places again after set_overrides: past them, a first
    /// load's work costs less, and the refresh walks.
    static constexpr std::size_t max_redecided = 64;
    /** Operators' rules in place of `options().overrides`, applied by the next refresh():
        the skills whose decision changes (only those a changed rule names are asked) leave
        where they were and come where the rules put them now, from what was read, as a
        first load of the same files under these rules would list them. Safe beside
        readers of snapshots; not beside a caller of options().
    */
    void set_overrides(skillmd::overrides rules)
    {
        std::lock_guard<std::mutex> one_writer(refresh_mutex_);
        if (!overrides_before_) overrides_before_ = std::move(opts_.overrides); // what the snapshot was made under
        opts_.overrides = std::move(rules);
    }

    registry_options const& options() const noexcept { return opts_; }
    static constexpr std::size_t tier_count = sizeof...(Sources);
    template <std::size_t I>
    auto const& source() const noexcept { return std::get<I>(sources_); }

private:
    template <class Other, std::size_t... I>
    basic_registry(Other const& other, std::index_sequence<I...>)
        : basic_registry(parser_for(other.options()), other.options(), other.template source<I>()...)
    {
    }
    static Parser parser_for(registry_options const& o)
    {
        if constexpr (std::constructible_from<Parser, frontmatter::parse_options>)
            return Parser(parse_options_for(o.dialect, o.mode));
        else
            return Parser{};
    }

    void refresh_locked(); // discover, read what changed, assemble, publish

    /// What reading one candidate gave, or what the previous snapshot kept of it.
    struct read_result
    {
        record_ptr record;
        file_stamp stamp;
        std::vector<diagnostic> diagnostics; ///< a fresh read's
        std::span<diagnostic const> kept;    ///< a reused read's, in the previous snapshot
    };
    /// One candidate of a refresh, 24 bytes: a first load has 10,000 of them, in memory a
    /// load after other work may have to fault in afresh.
    struct work
    {
        std::size_t tier;
        candidate* where;     ///< in its tier's discovery, which lives as long as the refresh
        read_result* result;  ///< its read: the early result's own (in `where`), or one read_changed made
    };
    /// What each tier's discovery found; the work items point into it, so a refresh does
    /// not move every candidate into a list of its own.
    using discoveries = std::array<discovery, sizeof...(Sources)>;

    template <std::size_t... I>
    void discover_all(discoveries& found, std::vector<work>& items, skillmd::snapshot& next, std::index_sequence<I...>)
    {
        (discover_one<I>(found[I], items, next), ...);
    }
    /// Per tier, the skill files its source says changed since the last refresh: nothing
    /// when it cannot say which (the tier is walked again), an empty list when none did.
    using tier_changes = std::array<std::optional<std::vector<std::string>>, sizeof...(Sources)>;
    template <std::size_t... I>
    tier_changes changes_all(std::index_sequence<I...>) const
    {
        return {changes_one(std::get<I>(sources_))...};
    }
    template <class S>
    static std::optional<std::vector<std::string>> changes_one(S const& src)
    {
        if constexpr (requires { { src.changes() } -> std::same_as<std::optional<std::vector<std::string>>>; })
            return src.changes();
        else if constexpr (requires { src.unchanged(); })
            return src.unchanged() ? std::optional(std::vector<std::string>()) : std::nullopt;
        else
            return std::nullopt; // a source that cannot tell is always checked
    }

    /// The diagnostics of the snapshot a refresh derives, copied at the first change to them.
    using diagnostics_draft = std::shared_ptr<std::vector<diagnostic>>;
    static std::vector<diagnostic>& writable(skillmd::snapshot& next, diagnostics_draft& draft);
    /// Rules set since the last snapshot (set_overrides): those it was made under, and the
    /// rules one set has and the other not.
    struct override_change
    {
        skillmd::overrides const& before;
        std::vector<override_rule> rules;
    };
    /** The next snapshot made from `previous` without a walk, when every change is one
        that leaves the rest of the snapshot as it was: a skill edited, added or removed
        that is alone in its command and looks like no other (and a parent's sub-skill),
        hidden or not; its names are counted in and out (see crowded_), and what its read
        and gating say is put in place (restate). A skill whose command other tiers have
        too is resolved again with them alone (regroup): the winner, the shadowed and
        their reports, or every copy under keep-all. Only its record, in the lists and
        the cache, and the chunks that hold it are new; the rest is shared (the
        diagnostics are copied when a report changes). `regating`: a requirement (PATH, environment) changed for a
        gated skill, which is gated again first, in place (regate). `rules`: operators' rules
        set since the last snapshot, whose skills are placed again next (redecide).
        Null when a change is of any other kind: the full refresh then gives what a first
        load would.
    */
    std::shared_ptr<skillmd::snapshot> derive(skillmd::snapshot const& previous, tier_changes const& changes, bool regating,
                                              override_change const* rules) const;
    /// The reads whose override decision `change` turns (a changed rule names them) taken out
    /// under the rules before and put back under today's, what they said and gating says with them.
    bool redecide(skillmd::snapshot& next, override_change const& change, diagnostics_draft& draft) const;
    /// The reads `turned` (of the cache) out under the rules before and back under today's.
    bool redecide_each(skillmd::snapshot& next, override_change const& change, std::vector<record_ptr> const& turned,
                       diagnostics_draft& draft) const;
    /// What the read at `path` said, and gating after it, taken out of said_ and gate_said_
    /// (`range`: where they are, one range as a first load puts them; none when they said
    /// nothing). False when the two are apart.
    static bool take_said(skillmd::snapshot& next, std::size_t tier, std::string const& path,
                          std::optional<typename skillmd::snapshot::span_of_diagnostics>& range);
    /// The skill `was` (of the last snapshot) gated again, its requirements met now and not
    /// before or the reverse: hidden or not where it is (listed, a keep-all copy, or
    /// shadowed, or off), gating's report put in or taken out where a first load puts it.
    /// `dropped`: `was` is the read of a copy dropped as a kept one's very file, in no list:
    /// only the report changes. False where the order of the reads is not known.
    bool regate(skillmd::snapshot& next, skill_record const& was, diagnostics_draft& draft, bool dropped = false) const;
    /// Where a read at `path` that said nothing until now puts what it says: before the first
    /// read after it (by tier, then its candidate's command) that said something, or where
    /// the collisions' reports begin. None when the order is not known (see reads_in_order_).
    static std::optional<std::size_t> place_of_new(skillmd::snapshot const& next, std::size_t tier, std::string_view command,
                                                   std::string_view path);
    /// The `count_before` diagnostics at `place` replaced by `said`: every range after them
    /// moves. The range `said` holds now, or none when the place is out of bounds.
    static std::optional<typename skillmd::snapshot::span_of_diagnostics> splice(skillmd::snapshot& next, std::size_t place,
                                                                                std::size_t count_before, std::vector<diagnostic> said,
                                                                                diagnostics_draft& draft);
    /// One changed path of `tier` applied to `next`: an edit, a skill added or removed.
    /// False when it is of a kind only a full refresh gets right.
    bool apply_change(skillmd::snapshot& next, std::size_t tier, std::string const& path, diagnostics_draft& draft) const;
    /// The change to the lists, the names and the cache (apply_change restates what the read
    /// said); `said`: what the read says now, `gated`: what gating says of its skill (hidden).
    bool change_alone(skillmd::snapshot& next, std::size_t tier, std::string const& path, std::vector<diagnostic>& said,
                      std::vector<diagnostic>& gated, diagnostics_draft& draft) const;
    /// What the read at `path` says now (`said`, then gating's `gated`) put where a first load
    /// puts it, in place of what they said (`said_before`, a range of the diagnostics): the
    /// ranges after it move.
    bool restate(skillmd::snapshot& next, std::size_t tier, std::string const& path,
                 std::optional<typename skillmd::snapshot::span_of_diagnostics> said_before, std::vector<diagnostic> said,
                 std::vector<diagnostic> gated, diagnostics_draft& draft) const;
    /// `gated` (out): what gating says of the skill read now, as for add_skill.
    bool edit_in_place(skillmd::snapshot& next, std::size_t tier, typename skillmd::snapshot::cached_read const& before,
                       read_result now, std::vector<diagnostic>& gated) const;
    /// `gated` (out): what gating says of the skill (its requirements unmet: hidden).
    bool add_skill(skillmd::snapshot& next, read_result now, std::vector<diagnostic>& gated) const;
    /// `rec` (gated) listed under its command: it takes its sub-skills, its parent takes it,
    /// its command and names are counted in. False where the counts are not as a first load left them.
    /// `after` copies of the same command (kept in one tier) stay before it.
    bool list_one(skillmd::snapshot& next, record_ptr rec, std::size_t after = 0) const;
    /// The listed record at `i` out of the listing: the reverse of list_one.
    bool unlist_one(skillmd::snapshot& next, std::size_t i) const;
    bool remove_skill(skillmd::snapshot& next, typename skillmd::snapshot::cached_read const& before,
                      std::optional<file_stamp> miss) const;
    /// Whether a skill other than the one read at `key` has `command`: listed, or shadowed.
    static bool has_company(skillmd::snapshot const& next, std::string_view command, typename skillmd::snapshot::read_key key);
    /** The skills sharing `command` resolved again, as a first load's resolve_collisions
        would, after the one read at `before` changed to `now` (null: gone; `miss`: the
        stamp its path keeps, as a miss). From what the cache holds of the others: the
        winner listed, the losers shadowed and their reports in place, its names counted.
        Under a keep-all policy every copy is listed as `name@tier` (a group of one as
        `name`), and the copies renamed so are listed anew and their names counted.
        False where the group is one only a full refresh gets right: copies in one tier,
        one file twice, a skill off, a command that looks like another. `gated` (out):
        what gating says of `now` (hidden). `draft`: the diagnostics, copied once per
        refresh (see writable()).
    */
    bool regroup(skillmd::snapshot& next, std::string_view command, typename skillmd::snapshot::cached_read const* before,
                 record_ptr now, std::optional<file_stamp> miss, std::vector<diagnostic>& gated, diagnostics_draft& draft) const;
    /// The read `read` into next's cache, where a miss of the same path was, if one was.
    static void cache_read(skillmd::snapshot& next, record_ptr const& read);
    /// The cached read `before` out of next's cache; `miss`: its path is kept as a miss.
    static void uncache_read(skillmd::snapshot& next, typename skillmd::snapshot::cached_read const& before,
                             std::optional<file_stamp> miss);
    /// `rec` gated as a first load gates it, alone: false when it is off (`rec` is then
    /// the record the disabled list holds); `said` (out): what gating says of it (hidden,
    /// off).
    bool gate_alone(record_ptr& rec, std::vector<diagnostic>& said) const;
    /// What the overrides decide for the read `r` (no layer: no rule matched); gating marks
    /// a record with it. The rules in force: today's, or while derive regates skills and
    /// redecide takes reads out, those the last snapshot was made under.
    override_decision override_of(skill_record const& r) const { return decided(deciding_ ? *deciding_ : opts_.overrides, r); }
    /// The rules override_of reads, `before` for as long as this lives (null: today's throughout).
    struct deciding_under
    {
        deciding_under(basic_registry const& reg, skillmd::overrides const* before) : rules(reg.deciding_) { rules = before; }
        ~deciding_under() { rules = nullptr; }
        deciding_under(deciding_under const&) = delete;
        deciding_under& operator=(deciding_under const&) = delete;
        skillmd::overrides const*& rules;
    };
    static override_decision decided(skillmd::overrides const& rules, skill_record const& r)
    {
        if (rules.empty()) return {};
        return rules.decide(r.command, r.meta.name, r.where.database ? std::string_view() : std::string_view(r.where.path));
    }
    /// Whether the overrides turn the read `r` off: a first load keeps it among the
    /// disabled skills, and no other skill's listing sees it.
    bool is_off(skill_record const& r) const;
    /// The cached read `before` out of next: from the disabled list when it is off, else
    /// from the listing (alone, or its command's group resolved again without it); `miss`:
    /// the stamp its path keeps when it is listed with no skill now.
    bool read_leaves(skillmd::snapshot& next, typename skillmd::snapshot::cached_read const& before, std::optional<file_stamp> miss,
                     diagnostics_draft& draft) const;
    /// The read `now` into next: to the disabled list when it is off, else listed (alone,
    /// or its command's group resolved again with it); `gated` (out): what gating says of it.
    bool read_comes(skillmd::snapshot& next, record_ptr now, std::vector<diagnostic>& gated, diagnostics_draft& draft) const;
    /// Where the disabled record of `r`'s read is (`present`) or goes: disabled_ is in the
    /// order of the reads (tier, then the path's command), known only where the walk's is;
    /// none where it is not, or another read of the same tier and command is there.
    static std::optional<std::size_t> disabled_place(skillmd::snapshot const& next, skill_record const& r, bool present);
    /// Whether `command` may come or go alone: no other skill has it, in any tier or as a
    /// keep-all copy, and none looks like it (which a first load would report).
    bool stands_alone(skillmd::snapshot const& next, std::string_view command) const;
    /// Whether no listed or shadowed command looks like `command` (ASCII case; a store with
    /// non-ASCII commands folds more than this sees): the look-alike reports stay as they are.
    static bool looks_like_no_other(skillmd::snapshot const& next, std::string_view command);
    /// After a change to the records of skills_ and shadowed_ that bear `command` (when not
    /// ascii_): its entry in looks_ put in or taken out. False when the last name beyond
    /// ASCII went: a first load compares the rest by case.
    static bool relook(skillmd::snapshot& next, std::string_view command);
    /// The names a skill adds to names_ (its `name:` and, where labels find skills, its label).
    template <class F>
    void for_each_name(skill_record const& r, F&& f) const
    {
        if (!r.meta.name.empty() && std::string_view(r.meta.name) != std::string_view(r.command)) f(std::string_view(r.meta.name));
        if (opts_.dialect.find_by_label && r.meta.label && !std::string_view(*r.meta.label).empty() &&
            std::string_view(*r.meta.label) != std::string_view(r.command) && std::string_view(*r.meta.label) != std::string_view(r.meta.name))
            f(std::string_view(*r.meta.label));
    }
    /// A name `n` of the skill whose command is `command` comes (`added`) or goes: names_
    /// and crowded_ follow as a first load would leave them.
    bool count_name(skillmd::snapshot& next, std::string_view n, std::string_view command, bool added) const;
    /// The same for a command come or gone: a name equal to it is hidden, or freed.
    bool count_command(skillmd::snapshot& next, std::string_view command, bool added) const;
    /// The crowded name at `shared` has come down to one listed skill (its bearer in
    /// crowd_): names_ finds that skill from now on. False unless exactly one bears it.
    bool name_the_bearer(skillmd::snapshot& next, std::size_t shared) const;
    /// The listed parent of `command`, if any, with `command` among its sub-skills or not.
    void relink_parent(skillmd::snapshot& next, std::string_view command, bool added) const;
    /// The listed record at `i` (`listed`, held here) replaced by `rec`, of the same command:
    /// `rec` takes its sub-skills, and the names one bears and the other not are counted out and in.
    bool relist(skillmd::snapshot& next, std::size_t i, record_ptr const listed, record_ptr rec) const;
    /// The listed record at `i` replaced by `rec` (the same command): the names that view
    /// its strings, and the gated list, follow.
    void replace_listed(skillmd::snapshot& next, std::size_t i, record_ptr rec) const;
    /// What tier `tier`'s source would list at `path` now (see directory_source::candidate_at):
    /// nothing when the source cannot say, an empty optional inside when it would list none.
    std::optional<std::optional<candidate>> candidate_now(std::size_t tier, std::string const& path) const
    {
        std::optional<std::optional<candidate>> out;
        visit_source(tier, [&](auto const& src) {
            if constexpr (requires { { src.candidate_at(path) } -> std::same_as<std::optional<candidate>>; })
                out = src.candidate_at(path);
        });
        return out;
    }

    bool gating_unchanged(skillmd::snapshot const& s) const;
    /// Whether gating would say otherwise of `r` (of snapshot `s`) now: hidden or shown,
    /// or hidden for another reason, which a first load's report words. `dropped`: `r` is
    /// the read of a dropped copy, which gating never marked (its report says whether it was hidden).
    static bool gate_changed(skillmd::snapshot const& s, skill_record const& r, requirement_checker& gate, bool dropped = false);

    template <std::size_t I>
    void discover_one(discovery& d, std::vector<work>& items, skillmd::snapshot& next)
    {
        auto const& src = std::get<I>(sources_);
        // A first load has nothing to keep: every file is read, and a walk that can
        // read them as it finds them saves looking each one up again by its path.
        if constexpr (requires(early_reader const& e) { src.discover(e); })
            d = loaded_ ? src.discover() : src.discover(early_results<I>(*this));
        else
            d = src.discover();
        // Watch before reading, so a change after this point is seen by the next refresh.
        // Not on the first load: start-up stays as fast as it can be, and the first
        // refresh sets the watches up.
        if constexpr (requires { src.watch(d); })
            if (loaded_) src.watch(d);
        next.diagnostics_.insert(next.diagnostics_.end(), std::make_move_iterator(d.diagnostics.begin()),
                                 std::make_move_iterator(d.diagnostics.end()));
        items.reserve(items.size() + d.skills.size());
        for (auto& c : d.skills) {
            // A read made during the walk (a first load) is used where it lies: the
            // candidate's early result lives as long as the refresh.
            read_result* r = nullptr;
            if (auto* early = dynamic_cast<early_result*>(c.early.get()); early && early->by == this) r = &early->result;
            items.push_back({I, &c, r});
        }
    }

    template <class F>
    void visit_source(std::size_t tier, F&& f) const
    {
        visit_impl(tier, f, std::index_sequence_for<Sources...>{});
    }
    template <class F, std::size_t... I>
    void visit_impl(std::size_t tier, F& f, std::index_sequence<I...>) const
    {
        ((tier == I ? (f(std::get<I>(sources_)), 0) : 0), ...);
    }

    /// Reads the items not read during the discovery (those without a result), or keeps
    /// what `previous` read of an unchanged file; their results go into `fresh`.
    void read_changed(std::vector<work>& items, skillmd::snapshot const& previous, std::vector<read_result>& fresh);

    /// Reads `w`.
    read_result read_one(work const& w) const;
    /// What a read `r` of `where` (in tier `tier`) gives a refresh: a record made of the
    /// skill and `where`, or the read's stamp and diagnostics alone.
    /// `command_prefix`: what the source puts before its commands (detail::command_prefix_of).
    read_result result_of(std::size_t tier, std::string_view tier_label, candidate_result&& r, candidate const& where,
                          std::string_view command_prefix) const;

    /// A read made during tier I's discovery, as this registry took it (early_results).
    struct early_result final : early_read
    {
        basic_registry const* by = nullptr; ///< a candidate carries only its own registry's reads
        read_result result;
    };
    /// What tier I's source calls with each file its walk reads: the read done here, on the
    /// walk's thread, as read_one() would do it.
    template <std::size_t I>
    class early_results final : public early_reader
    {
    public:
        explicit early_results(basic_registry const& reg) : reg_(reg) {}
        std::shared_ptr<early_read> take(candidate& c, read_outcome&& text) const override
        {
            auto const& src = std::get<I>(reg_.sources_);
            auto r = read_candidate(reg_.parser_, reg_.opts_, src, c, std::move(text));
            auto out = std::make_shared<early_result>();
            out->by = &reg_;
            out->result = reg_.result_of(I, src.label(), std::move(r), c, detail::command_prefix_of(src));
            if (out->result.record) {
                // The record holds the candidate's strings now: they are freed here, on the
                // walk's thread, not after the walk on one. The walk keeps the command, by
                // which it orders; a miss keeps the whole candidate, whose path the snapshot notes.
                std::string().swap(c.path);
                std::string().swap(c.directory);
                std::string().swap(c.directory_name);
            }
            return out;
        }

    private:
        basic_registry const& reg_;
    };

    // Building the new snapshot from what was read: gating, dedup, the indexes.
    /// The records of one refresh sorted by command, in tier order within a command: a run
    /// of equal commands is a collision (one vector, not a map node and a vector per command).
    struct command_groups : std::vector<record_ptr>
    {
        bool distinct_in_order = false; ///< sorted, and no two share a command: no collision to resolve
    };
    void assemble(std::vector<work>& items, skillmd::snapshot& next) const;
    command_groups gate_and_group(std::vector<work>& items, skillmd::snapshot& next) const;
    /// A read in refresh order, on its way to the snapshot's cache: its record, or (none)
    /// its place in the snapshot's misses_; and its diagnostics.
    struct read_entry
    {
        record_ptr record;
        typename skillmd::snapshot::span_of_diagnostics said, gate_said;
        std::size_t miss = 0;
    };
    static skillmd::snapshot::read_key key_of(read_entry const& e, skillmd::snapshot const& next)
    {
        return e.record ? skillmd::snapshot::key_of(e.record) : skillmd::snapshot::key_of(next.misses_[e.miss]);
    }
    bool gate_one(record_ptr& rec, requirement_checker& gate, skillmd::snapshot& next) const;
    /// Whether the skill needs programs or variables (and so may be hidden by gating).
    static bool has_requirements(skill_record const& r) noexcept { return !r.meta.requires_bins.empty() || !r.meta.requires_env.empty(); }
    static void cache_reads(std::vector<read_entry>& reads, bool in_order, skillmd::snapshot& next);
    static void resolve_collisions(command_groups& groups, skillmd::snapshot& next);
    /// The most copies of one command a refresh resolves again itself (see regroup).
    static constexpr std::size_t max_copies_regrouped = 64;
    /// Reports each copy of a kept `group` (in tier order) that follows another of its
    /// tier, as a first load does; returns how many.
    static std::uint32_t report_copies_in_one_tier(std::string const& command, std::vector<record_ptr> const& group,
                                                   std::vector<diagnostic>& out);
    static void link_children(skillmd::snapshot& next);

    /// Names a reader cannot tell apart (`api` and Cyrillic `аpi`, `file` and `ﬁle`,
    /// `deploy` and `Deploy`) are different skills that look like one: say so. Only
    /// case can make ASCII names collide, so the Unicode skeletons are computed only
    /// when some name is not ASCII.
    static void report_confusables(skillmd::snapshot& next);

    Parser parser_;
    registry_options opts_;
    std::tuple<Sources...> sources_;
    // std::atomic<std::shared_ptr> would do, but libstdc++ 12 builds it on a lock bit
    // that ThreadSanitizer cannot see; a mutex around a pointer copy costs as little.
    std::shared_ptr<skillmd::snapshot const> current_;
    mutable std::mutex current_mutex_;
    mutable std::mutex refresh_mutex_;
    std::string last_error_;
    bool loaded_ = false;
    bool rewalk_ = false; ///< a refresh failed after sources told it what changed
    std::optional<skillmd::overrides> overrides_before_; ///< the rules the snapshot was made under, when set_overrides changed them
    mutable skillmd::overrides const* deciding_ = nullptr; ///< see override_of
};

} // namespace skillmd

#ifndef SKILLMD_SEPARATE_COMPILATION
#include <skillmd/storage/impl/registry.hpp>
#endif

#endif
