// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_STORAGE_RECORD_HPP
#define SKILLMD_STORAGE_RECORD_HPP

// One skill of a snapshot (skill_record) and the read-only lists a snapshot hands out.

#include <skillmd/storage/dedup.hpp>
#include <skillmd/storage/overrides.hpp>
#include <skillmd/storage/source.hpp>
#include <skillmd/model/skill.hpp>
#include <skillmd/frontmatter/parse_result.hpp>

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

namespace skillmd {

class snapshot;
template <frontmatter::frontmatter_parser, dedup_policy, skill_source...>
class basic_registry;

/// Who may see a skill.
enum class visibility : std::uint8_t {
    all,   ///< every loaded skill
    model, ///< the model may invoke it: no `disable-model-invocation`, no `user_invocable_only`
    user,  ///< the user may invoke it as `/command`: `user-invocable` is not false
};

/// One skill of a snapshot.
struct skill_record
{
    // The members a snapshot's listing rows copy of every skill come first (see skill_metadata).
    std::string command;       ///< the lookup key (qualified `name@tier` under keep_all)
    std::string tier;          ///< the tier's label
    std::size_t tier_index = 0;
    bool hidden = false;       ///< requirements unmet (sven): loaded but not listed
    /// An operator's override and the layer it came from; null when none applies (most
    /// records: a pointer, not four strings, per skill).
    std::shared_ptr<override_decision const> overridden;
    candidate where;           ///< path, base directory, stamp
    skill_metadata meta;
    std::vector<std::string> children; ///< commands of the direct sub-skills (sven)
    std::size_t body_offset = 0;
    std::string shadowed_by;   ///< on a shadowed skill: the winner as `name@tier`

    std::string qualified() const { return command + "@" + tier; }
    override_mode override_in_force() const noexcept { return overridden ? overridden->mode : override_mode::on; }
    bool visible_to(visibility v) const
    {
        if (hidden) return false;
        switch (v) {
        case visibility::all: return true;
        case visibility::model:
            return !meta.disable_model_invocation && !meta.user_invocable_only &&
                   override_in_force() != override_mode::user_invocable_only;
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

} // namespace skillmd

#endif
