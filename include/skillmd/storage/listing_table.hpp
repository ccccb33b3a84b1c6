// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_STORAGE_LISTING_TABLE_HPP
#define SKILLMD_STORAGE_LISTING_TABLE_HPP

// What a listing of skills (the index a system prompt carries) reads of every skill of
// a snapshot, one row per skill with its strings packed end to end. Records lie
// scattered over the heap, each read in its own thread during a load; an index reads a
// few fields of all of them, every time one is rendered, and waited on memory more than
// it computed (a Codex index of 10,000 skills took 1.9 ms from packed strings and
// 2.4-3.7 ms from the records, with the same instructions).

#include <skillmd/storage/record.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

namespace skillmd {

/// One skill as listings see it; the strings are the table's copies.
struct listed_skill
{
    std::string_view command;
    std::string_view name;          ///< shown: the label where the dialect has one, else the name
    std::string_view description;   ///< "" when an operator's override shows the name only
    std::string_view when_to_use;   ///< "" when absent or the name only is shown
    std::string_view argument_hint;
    std::string_view path;          ///< the skill file ("" for database skills and empty paths)
    std::string_view tier;
    skill_record const* record = nullptr;
    std::uint32_t tier_index = 0;
    bool hidden = false;        ///< listed under no visibility (requirements unmet)
    bool model_visible = false; ///< record->visible_to(visibility::model)
    bool name_only = false;     ///< an operator's override shows the name only
    bool documented = false;    ///< a written description or `when_to_use`
    bool always = false;        ///< sven: listed whatever the budget
    bool relative = false;      ///< `path` is relative to the working directory
};

/// The rows of a snapshot's skills, in the snapshot's order. Built once per snapshot, on
/// the first listing (`snapshot::listing_rows`), and immutable after.
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
        rows_.reserve(skills.size());
        for (auto const& r : skills) {
            listed_skill s;
            s.record = &r;
            s.hidden = r.hidden;
            s.model_visible = r.visible_to(visibility::model);
            s.name_only = r.override_in_force() == override_mode::name_only;
            s.documented = r.meta.description_given || r.meta.when_to_use.has_value();
            s.always = r.meta.always;
            s.tier_index = static_cast<std::uint32_t>(r.tier_index);
            s.command = keep(r.command);
            s.name = keep(shown_name(r));
            if (!s.name_only) {
                s.description = keep(r.meta.description);
                if (r.meta.when_to_use) s.when_to_use = keep(*r.meta.when_to_use);
            }
            if (r.meta.argument_hint) s.argument_hint = keep(*r.meta.argument_hint);
            if (has_path(r)) {
                s.path = keep(r.where.path);
                s.relative = r.where.path.front() != '/' && !r.where.directory.empty();
            }
            auto const t = std::find_if(tiers.begin(), tiers.end(), [&](auto const& p) { return p.first == r.tier_index; });
            if (t != tiers.end()) {
                s.tier = t->second;
            } else {
                s.tier = keep(r.tier);
                tiers.emplace_back(r.tier_index, s.tier);
            }
            rows_.push_back(s);
        }
    }

    listing_table(listing_table const&) = delete;
    listing_table& operator=(listing_table const&) = delete;

    std::span<listed_skill const> rows() const noexcept { return rows_; }

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
    std::vector<listed_skill> rows_;
};

} // namespace skillmd

#endif
