// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_STORAGE_LISTING_TABLE_HPP
#define SKILLMD_STORAGE_LISTING_TABLE_HPP

// What a listing of skills (the index a system prompt carries) reads of every skill of
// a snapshot: one index entry per skill, its strings packed end to end. Records lie
// scattered over the heap, each made in its own thread during a load; an index reads a
// few fields of all of them every time one is rendered, and waited on memory more than
// it computed (the same Codex index of 10,000 skills, with the same instructions, took
// 1.8 ms from packed strings and 2.4-3.7 ms from the records).

#include <skillmd/storage/record.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace skillmd {

/// One skill as an index shows it. Views point into the snapshot it came from (its
/// listing table); entries made by hand must keep the strings they view (the location
/// too) alive while rendered.
struct index_entry
{
    std::string_view command;       ///< lookup key; `/command` for users
    std::string_view name;          ///< display name: the label where the dialect has one
    std::string_view description;   ///< "" when an operator's override shows the name only
    std::string_view when_to_use;   ///< Claude Code: shown after the description
    std::string_view argument_hint;
    std::string_view location;      ///< absolute path of the skill file ("" for database skills)
    /// Holds `location` when it had to be made (a relative path made absolute); empty when
    /// `location` is the snapshot's copy of the path, as for every tier rooted at an absolute path.
    std::shared_ptr<std::string const> made_location;
    std::string_view tier;
    std::size_t tier_index = 0;     ///< the tier's place in the registry (0: listed first)
    bool always = false;            ///< sven: listed whatever the budget
    skill_record const* record = nullptr;
};

/// What decides whether a listing shows a row, beside the entry itself.
struct listing_flags
{
    bool hidden = false;        ///< listed under no visibility (requirements unmet)
    bool model_visible = false; ///< record->visible_to(visibility::model)
    bool name_only = false;     ///< an operator's override shows the name only
    bool documented = false;    ///< a written description or `when_to_use`
    bool relative = false;      ///< the entry's location is relative to the working directory
};

/** The index entries of a snapshot's skills, in the snapshot's order, with the strings
    packed end to end. Built once per snapshot, by its first listing
    (`snapshot::listing_rows`), and immutable after. A relative location is kept as the
    record has it (flagged): the working directory it is relative to is read when listed.
*/
class listing_table
{
public:
    explicit listing_table(record_list const& skills)
    {
        // Sizes first, so the strings go into one block that never moves.
        std::size_t bytes = 0;
        for (auto const& r : skills) bytes += text_bytes(r);
        chars_ = std::make_unique<char[]>(bytes == 0 ? 1 : bytes);
        char* at = chars_.get();
        auto const keep = [&at](std::string_view s) {
            if (s.empty()) return std::string_view();
            std::memcpy(at, s.data(), s.size());
            std::string_view const copy(at, s.size());
            at += s.size();
            return copy;
        };
        std::vector<std::pair<std::size_t, std::string_view>> tiers; // one copy per tier label
        entries_.reserve(skills.size());
        flags_.reserve(skills.size());
        for (auto const& r : skills) {
            listing_flags f;
            f.hidden = r.hidden;
            f.model_visible = r.visible_to(visibility::model);
            f.name_only = r.override_in_force() == override_mode::name_only;
            f.documented = r.meta.description_given || r.meta.when_to_use.has_value();
            index_entry e;
            e.record = &r;
            e.always = r.meta.always;
            e.tier_index = r.tier_index;
            e.command = keep(r.command);
            e.name = keep(shown_name(r));
            if (!f.name_only) {
                e.description = keep(r.meta.description);
                if (r.meta.when_to_use) e.when_to_use = keep(*r.meta.when_to_use);
            }
            if (r.meta.argument_hint) e.argument_hint = keep(*r.meta.argument_hint);
            if (has_path(r)) {
                e.location = keep(r.where.path);
                f.relative = r.where.path.front() != '/' && !r.where.directory.empty();
            }
            // The label is compared, not only the tier's index: a record kept from an earlier
            // refresh has the label its source gave then.
            auto const t = std::find_if(tiers.begin(), tiers.end(),
                                        [&](auto const& p) { return p.first == r.tier_index && p.second == r.tier; });
            if (t != tiers.end()) {
                e.tier = t->second;
            } else {
                e.tier = keep(r.tier);
                tiers.emplace_back(r.tier_index, e.tier);
            }
            hidden_ += f.hidden;
            model_hidden_ += !f.model_visible;
            undocumented_ += !f.name_only && !f.documented;
            relative_ += f.relative;
            entries_.push_back(std::move(e));
            flags_.push_back(f);
        }
    }

    listing_table(listing_table const&) = delete;
    listing_table& operator=(listing_table const&) = delete;

    /// One entry per skill, in the snapshot's order.
    std::span<index_entry const> entries() const noexcept { return entries_; }
    /// The flags of entries()[i] at [i].
    std::span<listing_flags const> flags() const noexcept { return flags_; }

    std::size_t hidden_count() const noexcept { return hidden_; }
    /// Skills the model may not invoke (the hidden ones among them).
    std::size_t model_hidden_count() const noexcept { return model_hidden_; }
    /// Skills with neither a written description nor `when_to_use`, and shown in full.
    std::size_t undocumented_count() const noexcept { return undocumented_; }
    std::size_t relative_count() const noexcept { return relative_; }

private:
    static std::string_view shown_name(skill_record const& r)
    {
        return r.meta.label ? std::string_view(*r.meta.label) : std::string_view(r.meta.name);
    }
    /// Files have a path; database skills are listed without one.
    static bool has_path(skill_record const& r) { return !r.where.database && !r.where.path.empty(); }
    /// What `keep` copies of `r`, at most (a tier label is copied once per tier).
    static std::size_t text_bytes(skill_record const& r)
    {
        std::size_t n = r.command.size() + shown_name(r).size() + r.meta.description.size() + r.tier.size();
        if (r.meta.when_to_use) n += r.meta.when_to_use->size();
        if (r.meta.argument_hint) n += r.meta.argument_hint->size();
        if (has_path(r)) n += r.where.path.size();
        return n;
    }

    std::unique_ptr<char[]> chars_;
    std::vector<index_entry> entries_;
    std::vector<listing_flags> flags_;
    std::size_t hidden_ = 0, model_hidden_ = 0, undocumented_ = 0, relative_ = 0;
};

} // namespace skillmd

#endif
