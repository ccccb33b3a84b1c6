// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_STORAGE_REGISTRY_HPP
#define SKILLMD_STORAGE_REGISTRY_HPP

// basic_registry: source tiers + dedup policy + frontmatter parser + dialect, assembled
// at compile time. It owns an immutable snapshot; refresh() builds a new one (re-reading
// only what changed) and swaps it in, so readers never block and never see half a state.
// No X3 here: the parser is a template parameter.

#include <skillmd/storage/dedup.hpp>
#include <skillmd/model/dialect.hpp>
#include <skillmd/model/read_skill.hpp>
#include <skillmd/storage/requirements.hpp>
#include <skillmd/invoke/slash.hpp>
#include <skillmd/storage/source.hpp>
#include <skillmd/detail/prompt_text.hpp>
#include <skillmd/detail/unicode.hpp>

#include <algorithm>
#include <atomic>
#include <concepts>
#include <exception>
#include <cstdint>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace skillmd {

/// Who may see a skill (SPEC 6.3).
enum class visibility : std::uint8_t {
    all,   ///< every loaded skill
    model, ///< the model may invoke it: no `disable-model-invocation`, no `user_invocable_only`
    user,  ///< the user may invoke it as `/command`: `user-invocable` is not false
};

/// One skill of a snapshot.
struct skill_record
{
    std::string command;       ///< the lookup key (qualified `name@tier` under keep_all)
    std::string tier;          ///< the tier's label
    std::size_t tier_index = 0;
    candidate where;           ///< path, base directory, stamp
    skill_metadata meta;
    std::vector<std::string> children; ///< commands of the direct sub-skills (seed 004)
    std::size_t body_offset = 0;
    std::string shadowed_by;   ///< on a shadowed skill: the winner as `name@tier`
    bool hidden = false;       ///< requirements unmet (seed 004): loaded but not listed

    std::string qualified() const { return command + "@" + tier; }
    bool visible_to(visibility v) const
    {
        if (hidden) return false;
        switch (v) {
        case visibility::all: return true;
        case visibility::model: return !meta.disable_model_invocation && !meta.user_invocable_only;
        case visibility::user: return meta.user_invocable;
        }
        return false;
    }
};

using record_ptr = std::shared_ptr<skill_record const>;

/// A read-only sequence of records. Snapshots share unchanged records, so a refresh
/// with nothing changed copies pointers, not skills.
class record_list
{
public:
    class iterator
    {
    public:
        using iterator_category = std::random_access_iterator_tag;
        using value_type = skill_record;
        using difference_type = std::ptrdiff_t;
        using pointer = skill_record const*;
        using reference = skill_record const&;
        iterator() = default;
        explicit iterator(std::vector<record_ptr>::const_iterator it) : it_(it) {}
        reference operator*() const { return **it_; }
        pointer operator->() const { return it_->get(); }
        iterator& operator++() { ++it_; return *this; }
        iterator operator++(int) { auto t = *this; ++it_; return t; }
        difference_type operator-(iterator const& o) const { return it_ - o.it_; }
        bool operator==(iterator const& o) const { return it_ == o.it_; }
    private:
        std::vector<record_ptr>::const_iterator it_;
    };

    iterator begin() const { return iterator(items_.begin()); }
    iterator end() const { return iterator(items_.end()); }
    std::size_t size() const noexcept { return items_.size(); }
    bool empty() const noexcept { return items_.empty(); }
    skill_record const& operator[](std::size_t i) const { return *items_[i]; }
    skill_record const& front() const { return *items_.front(); }

private:
    friend class snapshot;
    template <frontmatter::frontmatter_parser, dedup_policy, skill_source...>
    friend class basic_registry;
    std::vector<record_ptr> items_;
};

/// An immutable view of the registry at one moment.
class snapshot
{
public:
    /// Skills that won (or all of them, under keep_all), sorted by command.
    record_list const& skills() const noexcept { return skills_; }
    /// Skills another tier's skill shadowed; reachable as `name@tier`.
    record_list const& shadowed() const noexcept { return shadowed_; }
    std::vector<diagnostic> const& diagnostics() const noexcept { return diagnostics_; }

    /// By command or name, with or without a leading `/`; `name@tier` reaches shadowed skills.
    skill_record const* find(std::string_view key) const
    {
        if (!key.empty() && key.front() == '/') key.remove_prefix(1);
        if (key.empty()) return nullptr;
        if (auto const it = index_.find(std::string(key)); it != index_.end()) return &skills_[it->second];
        auto const at = key.rfind('@');
        if (at == std::string_view::npos || at == 0) return nullptr;
        std::string_view const name = key.substr(0, at), tier = key.substr(at + 1);
        for (auto const* list : {&skills_, &shadowed_})
            for (auto const& r : *list)
                if (r.tier == tier && (r.command == name || base_command(r) == name)) return &r;
        return nullptr;
    }

    std::vector<skill_record const*> list(visibility v = visibility::all) const
    {
        std::vector<skill_record const*> out;
        for (auto const& r : skills_)
            if (r.visible_to(v)) out.push_back(&r);
        return out;
    }

    /// The direct sub-skills of a nested skill (seed 004).
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

    record_list skills_;
    record_list shadowed_;
    std::vector<diagnostic> diagnostics_;
    std::unordered_map<std::string, std::size_t> index_;
    // What refresh() may reuse: every candidate read, by tier and path, with its stamp.
    struct loaded
    {
        file_stamp stamp;
        record_ptr record;
        std::vector<diagnostic> diagnostics;
    };
    std::map<std::pair<std::size_t, std::string>, std::shared_ptr<loaded const>> cache_;
};

struct registry_options
{
    skillmd::dialect dialect = dialects::agent_skills();
    validation_mode mode = validation_mode::lenient;
    bool gate_requirements = true; ///< hide skills whose requires_bins / requires_env are missing
    unsigned threads = 0;          ///< parallel reads and parses; 0: one per core
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

/** Reads, parses and validates one candidate of `src` exactly as a registry loads it,
    with the source's bounds (size, file type, links). `skillmd lint` uses this, so a
    file passes lint exactly when it loads.
*/
template <frontmatter::frontmatter_parser Parser, skill_source Source>
candidate_result read_candidate(Parser const& parser, registry_options const& opts, Source const& src, candidate const& c)
{
    candidate_result out;
    read_outcome text = src.read_head(c);
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
        out.diagnostics.push_back({"skill-unreadable", severity::error, c.path, 0, 0,
                                   "cannot read the skill: " + text.error + "; skipped"});
        return out;
    }
    skill_origin const origin{c.path, c.directory_name, c.command};
    auto r = read_skill(parser, opts.dialect, opts.mode, *text.text, origin);
    out.diagnostics = std::move(r.diagnostics);
    out.skill = std::move(r.skill);
    out.body_offset = r.body_offset;
    return out;
}

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
    std::optional<skill_text> text(skill_record const& r, std::string* error = nullptr) const
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

    /// The files bundled with a skill, relative to its directory, listed now and not read
    /// (sources that have no files list none).
    std::vector<std::string> bundled_files(skill_record const& r) const
    {
        std::vector<std::string> out;
        visit_source(r.tier_index, [&](auto const& src) {
            if constexpr (requires { src.bundled_files(r.where); }) out = src.bundled_files(r.where);
        });
        return out;
    }

    registry_options const& options() const noexcept { return opts_; }
    static constexpr std::size_t tier_count = sizeof...(Sources);
    template <std::size_t I>
    auto const& source() const noexcept { return std::get<I>(sources_); }

private:
    void refresh_locked()
    {
        auto const previous = snapshot();
        // Every tier watched and quiet: the snapshot stands, unless a requirement
        // (PATH, environment) changed for a gated skill.
        if (loaded_ && all_unchanged(std::index_sequence_for<Sources...>{}) && gating_unchanged(*previous)) return;
        auto next = std::make_shared<skillmd::snapshot>();
        std::vector<work> items;
        discover_all(items, *next, std::index_sequence_for<Sources...>{});
        read_changed(items, *previous);
        assemble(items, *next);
        loaded_ = true;
        std::shared_ptr<skillmd::snapshot const> published(std::move(next));
        std::lock_guard<std::mutex> swap(current_mutex_);
        current_.swap(published); // the old snapshot dies outside readers' view, after the lock
    }

    struct work
    {
        std::size_t tier;
        std::string tier_label;
        candidate where;
        std::shared_ptr<typename skillmd::snapshot::loaded const> result;
    };

    template <std::size_t... I>
    void discover_all(std::vector<work>& items, skillmd::snapshot& next, std::index_sequence<I...>)
    {
        (discover_one<I>(items, next), ...);
    }
    template <std::size_t... I>
    bool all_unchanged(std::index_sequence<I...>) const
    {
        return (unchanged_one(std::get<I>(sources_)) && ...);
    }
    template <class S>
    static bool unchanged_one(S const& src)
    {
        if constexpr (requires { src.unchanged(); }) return src.unchanged();
        else return false; // a source that cannot tell is always checked
    }

    bool gating_unchanged(skillmd::snapshot const& s) const
    {
        if (!opts_.gate_requirements) return true;
        requirement_checker gate;
        for (auto const& r : s.skills())
            if (!r.meta.requires_bins.empty() || !r.meta.requires_env.empty())
                if (gate.unmet(r.meta).has_value() != r.hidden) return false;
        return true;
    }

    template <std::size_t I>
    void discover_one(std::vector<work>& items, skillmd::snapshot& next)
    {
        auto const& src = std::get<I>(sources_);
        discovery d = src.discover();
        // Watch before reading, so a change after this point is seen by the next refresh.
        // Not on the first load: start-up stays as fast as it can be, and the first
        // refresh sets the watches up.
        if constexpr (requires { src.watch(d); })
            if (loaded_) src.watch(d);
        next.diagnostics_.insert(next.diagnostics_.end(), d.diagnostics.begin(), d.diagnostics.end());
        for (auto& c : d.skills) items.push_back({I, std::string(src.label()), std::move(c), nullptr});
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

    void read_changed(std::vector<work>& items, skillmd::snapshot const& previous)
    {
        unsigned n = opts_.threads ? opts_.threads : std::max(1u, std::thread::hardware_concurrency());
        n = static_cast<unsigned>(std::min<std::size_t>(n, (items.size() + 63) / 64)); // not worth a thread below that
        std::atomic<std::size_t> next{0};
        std::atomic<bool> failed{false};
        auto worker = [&] {
            try {
                for (std::size_t k; (k = next.fetch_add(1)) < items.size() && !failed;) {
                    auto& w = items[k];
                    auto const it = previous.cache_.find({w.tier, w.where.path});
                    if (it != previous.cache_.end()) {
                        // Unchanged size, time and inode: keep what was read before.
                        std::optional<file_stamp> now;
                        visit_source(w.tier, [&](auto const& src) {
                            if constexpr (requires { src.stamp(w.where); }) now = src.stamp(w.where);
                            else now = w.where.stamp;
                        });
                        if (now && *now == it->second->stamp && now->mtime_ns != 0) {
                            w.result = it->second;
                            continue;
                        }
                    }
                    w.result = read_one(w);
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

    std::shared_ptr<typename skillmd::snapshot::loaded const> read_one(work const& w) const
    {
        auto out = std::make_shared<typename skillmd::snapshot::loaded>();
        candidate_result r;
        visit_source(w.tier, [&](auto const& src) { r = read_candidate(parser_, opts_, src, w.where); });
        out->stamp = r.stamp;
        out->diagnostics = std::move(r.diagnostics);
        if (r.skill) {
            skill_record rec;
            rec.command = w.where.command;
            if (opts_.dialect.command_from_name && r.skill->name_given && valid_command_name(r.skill->name) &&
                r.skill->name.find('/') == std::string::npos) {
                // Seed 002 keys skills by `name`; a plugin's `prefix:` stays in front.
                auto const colon = rec.command.find(':');
                rec.command = (colon == std::string::npos ? std::string() : rec.command.substr(0, colon + 1)) + r.skill->name;
            }
            rec.tier = w.tier_label;
            rec.tier_index = w.tier;
            rec.where = w.where;
            rec.where.stamp = r.stamp;
            rec.meta = std::move(*r.skill);
            rec.body_offset = r.body_offset;
            out->record = std::make_shared<skill_record const>(std::move(rec));
        }
        return out;
    }

    void assemble(std::vector<work>& items, skillmd::snapshot& next) const
    {
        // Records are shared with the cache; one that this snapshot must change (hidden,
        // shadowed, renamed, given children) is copied first.
        auto edit = [](record_ptr& p) -> skill_record& {
            auto copy = std::make_shared<skill_record>(*p);
            skill_record& r = *copy;
            p = std::move(copy);
            return r;
        };
        std::map<std::string_view, std::vector<record_ptr>> groups; // sorted by command: deterministic
        requirement_checker gate;
        for (auto& w : items) {
            next.cache_[{w.tier, w.where.path}] = w.result;
            next.diagnostics_.insert(next.diagnostics_.end(), w.result->diagnostics.begin(), w.result->diagnostics.end());
            if (!w.result->record) continue;
            record_ptr rec = w.result->record;
            if (opts_.gate_requirements && (!rec->meta.requires_bins.empty() || !rec->meta.requires_env.empty())) {
                if (auto why = gate.unmet(rec->meta)) {
                    edit(rec).hidden = true;
                    next.diagnostics_.push_back({"requirements-unmet", severity::info, rec->where.path, 0, 0,
                                                 "skill `" + rec->command + "` is hidden: " + *why});
                }
            }
            groups[rec->command].push_back(std::move(rec));
        }
        auto& skills = next.skills_.items_;
        for (auto& [command, group] : groups) {
            std::stable_sort(group.begin(), group.end(), [](auto const& a, auto const& b) { return a->tier_index < b->tier_index; });
            if (group.size() == 1) {
                skills.push_back(std::move(group[0]));
                continue;
            }
            std::vector<dedup_entry> entries;
            for (auto const& r : group) entries.push_back({r->tier_index, r->tier, r->where.database, r->where.stamp});
            dedup_decision const d = Dedup::resolve(entries);
            if (d.keep_all) {
                for (auto& r : group) {
                    std::string const q = r->qualified();
                    edit(r).command = q;
                    skills.push_back(std::move(r));
                }
                continue;
            }
            std::string const winner = group[d.winner]->qualified();
            for (std::size_t i = 0; i < group.size(); ++i) {
                if (i == d.winner) continue;
                auto& r = group[i];
                if (Dedup::collapse_same_file && r->where.stamp.same_file(group[d.winner]->where.stamp)) continue;
                next.diagnostics_.push_back({"skill-shadowed", severity::info, r->where.path, 0, 0,
                                             "skill `" + std::string(command) + "` from tier " + r->tier +
                                                 " is shadowed by " + winner + "; it stays reachable as `" +
                                                 r->qualified() + "`"});
                edit(r).shadowed_by = winner;
                next.shadowed_.items_.push_back(std::move(r));
            }
            skills.push_back(std::move(group[d.winner]));
        }
        std::sort(skills.begin(), skills.end(), [](auto const& a, auto const& b) { return a->command < b->command; });
        for (std::size_t i = 0; i < skills.size(); ++i) next.index_.emplace(skills[i]->command, i);
        report_confusables(next);
        // Sub-skills (seed 004): exactly the skills whose command is a skill's plus one more
        // segment. A skill two folders below another, with none between, is nobody's child.
        std::map<std::size_t, std::vector<std::string>> children;
        for (auto const& r : skills) {
            std::string_view const command = r->command;
            auto const slash = command.rfind('/');
            if (slash == std::string_view::npos) continue;
            if (auto const it = next.index_.find(std::string(command.substr(0, slash))); it != next.index_.end())
                children[it->second].push_back(r->command);
        }
        for (std::size_t i = 0; i < skills.size(); ++i) {
            auto const it = children.find(i);
            std::vector<std::string> wanted = it == children.end() ? std::vector<std::string>{} : std::move(it->second);
            if (skills[i]->children != wanted) edit(skills[i]).children = std::move(wanted);
        }
        // A name lookup also finds a skill whose `name:` differs from its command, and
        // (seed 001) the label the user sees; a real command always wins over a name.
        for (std::size_t i = 0; i < skills.size(); ++i) {
            if (!skills[i]->meta.name.empty()) next.index_.emplace(skills[i]->meta.name, i);
            if (opts_.dialect.find_by_label && skills[i]->meta.label && !skills[i]->meta.label->empty())
                next.index_.emplace(*skills[i]->meta.label, i);
        }
    }

    /// Names a reader cannot tell apart (`api` and Cyrillic `аpi`, `file` and `ﬁle`,
    /// `deploy` and `Deploy`) are different skills that look like one: say so. Only
    /// case can make ASCII names collide, so the Unicode skeletons are computed only
    /// when some name is not ASCII.
    static void report_confusables(skillmd::snapshot& next)
    {
        std::vector<std::pair<std::string, skill_record const*>> looks; // what a name looks like, its skill
        bool ascii = true;
        for (auto const* list : {&next.skills_, &next.shadowed_})
            for (auto const& r : *list) {
                looks.emplace_back(std::string(), &r);
                for (char c : r.command) ascii = ascii && static_cast<unsigned char>(c) < 0x80;
            }
        for (auto& [key, r] : looks) {
            std::string_view const base = skillmd::snapshot::base_command(*r);
            key = ascii ? skillmd::detail::ascii_lower(base) : skillmd::detail::confusable_skeleton(base);
        }
        std::stable_sort(looks.begin(), looks.end(), [](auto const& a, auto const& b) { return a.first < b.first; });
        for (std::size_t first = 0, i = 1; i < looks.size(); ++i) {
            if (looks[i].first != looks[first].first) {
                first = i;
                continue;
            }
            std::string_view const a = skillmd::snapshot::base_command(*looks[first].second);
            std::string_view const b = skillmd::snapshot::base_command(*looks[i].second);
            if (a == b) continue; // the same name in two tiers: shadowing, reported already
            next.diagnostics_.push_back({"skill-confusable", severity::warning, looks[i].second->where.path, 0, 0,
                                         "skill `" + skillmd::detail::clean_line(b) + "` (tier " + looks[i].second->tier +
                                             ") looks like `" + skillmd::detail::clean_line(a) + "` (tier " +
                                             looks[first].second->tier + "): a reader cannot tell them apart"});
        }
    }

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
};

} // namespace skillmd

#endif
