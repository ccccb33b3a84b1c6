// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_STORAGE_LISTING_TABLE_HPP
#define SKILLMD_STORAGE_LISTING_TABLE_HPP

// What a listing of skills (the index a system prompt carries) reads of every skill of
// a snapshot: one index entry per skill, the strings packed end to end a chunk of the
// skills at a time (so that derived snapshots share the chunks they share). Records lie
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
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
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

/// Index entries and their flags, in order, with the counts listings ask for: what a
/// chunk's piece and a snapshot's whole table both hold.
class listing_rows_of
{
public:
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

protected:
    listing_rows_of() = default;
    ~listing_rows_of() = default;
    listing_rows_of(listing_rows_of const&) = delete;
    listing_rows_of& operator=(listing_rows_of const&) = delete;

    std::vector<index_entry> entries_;
    std::vector<listing_flags> flags_;
    std::size_t hidden_ = 0, model_hidden_ = 0, undocumented_ = 0, relative_ = 0;
};

/** The index entries of one chunk of a snapshot's skills (see record_list::chunks), with
    their strings packed end to end, made once: a chunk is never written, so the rows
    made for it stay right for every snapshot that holds it.
*/
class listing_piece : public listing_rows_of
{
public:
    explicit listing_piece(std::shared_ptr<std::vector<record_ptr> const> chunk) : chunk_(std::move(chunk))
    {
        // Sizes first, so the strings go into one block that never moves.
        std::size_t bytes = 0;
        for (auto const& r : *chunk_) bytes += text_bytes(*r);
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
        entries_.reserve(chunk_->size());
        flags_.reserve(chunk_->size());
        for (auto const& p : *chunk_) {
            skill_record const& r = *p;
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
                                        [&](auto const& q) { return q.first == r.tier_index && q.second == r.tier; });
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

    std::shared_ptr<std::vector<record_ptr> const> chunk_; ///< holds the records the entries point to
    std::unique_ptr<char[]> chars_;
};

/** The pieces made for the chunks of snapshots that a registry derives one from another,
    shared by them (any thread): a chunk a refresh left alone is listed from the piece made
    for it before, and only the chunks that changed are read again. Each piece lives as
    long as a listing holds it; this keeps it by the address of its chunk (which the piece
    holds, so the address names no other chunk while the piece lives).
*/
class listing_pieces
{
public:
    std::shared_ptr<listing_piece const> piece_for(std::shared_ptr<std::vector<record_ptr>> const& chunk)
    {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (auto const it = by_chunk_.find(chunk.get()); it != by_chunk_.end())
                if (auto made = it->second.lock()) return made;
        }
        auto made = std::make_shared<listing_piece const>(chunk); // outside the lock: other listings go on
        std::lock_guard<std::mutex> lock(mutex_);
        by_chunk_[chunk.get()] = made;
        if (by_chunk_.size() >= prune_at_) { // the pieces no listing holds any more
            std::erase_if(by_chunk_, [](auto const& e) { return e.second.expired(); });
            prune_at_ = std::max<std::size_t>(1024, 2 * by_chunk_.size());
        }
        return made;
    }

private:
    std::mutex mutex_;
    std::unordered_map<void const*, std::weak_ptr<listing_piece const>> by_chunk_;
    std::size_t prune_at_ = 1024;
};

/** The index entries of a snapshot's skills, in the snapshot's order: the rows of its
    chunks' pieces, put together once per snapshot by its first listing
    (`snapshot::listing_rows`), and immutable after. With `pieces`, the pieces are those
    made for earlier snapshots where a chunk is the same. A relative location is kept as
    the record has it (flagged): the working directory it is relative to is read when listed.
*/
class listing_table : public listing_rows_of
{
public:
    explicit listing_table(record_list const& skills, listing_pieces* pieces = nullptr)
    {
        entries_.reserve(skills.size());
        flags_.reserve(skills.size());
        pieces_.reserve(skills.chunks().size());
        for (auto const& chunk : skills.chunks()) {
            auto piece = pieces ? pieces->piece_for(chunk) : std::make_shared<listing_piece const>(chunk);
            entries_.insert(entries_.end(), piece->entries().begin(), piece->entries().end());
            flags_.insert(flags_.end(), piece->flags().begin(), piece->flags().end());
            hidden_ += piece->hidden_count();
            model_hidden_ += piece->model_hidden_count();
            undocumented_ += piece->undocumented_count();
            relative_ += piece->relative_count();
            pieces_.push_back(std::move(piece));
        }
    }

private:
    std::vector<std::shared_ptr<listing_piece const>> pieces_; ///< hold the strings the entries view
};

} // namespace skillmd

#endif
