// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_STORAGE_SKILL_RECORD_HPP
#define SKILLMD_STORAGE_SKILL_RECORD_HPP

// One skill of a snapshot (skill_record, packed in one allocation, and record_ptr, which
// shares it) and the parts it is made of (record_draft owned, to make or change one;
// record_parts of a first read). storage/record.hpp makes records.

#include <skillmd/storage/overrides.hpp>
#include <skillmd/storage/packed.hpp>
#include <skillmd/storage/source.hpp>
#include <skillmd/model/skill.hpp>

#include <boost/smart_ptr/intrusive_ptr.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace skillmd {

/// Who may see a skill.
enum class visibility : std::uint8_t {
    all,   ///< every loaded skill
    model, ///< the model may invoke it: no `disable-model-invocation`, no `user_invocable_only`
    user,  ///< the user may invoke it as `/command`: `user-invocable` is not false
};

inline unknown_field to_owned(packed_unknown const& u) { return {u.key.str(), u.json.str(), u.line, u.column}; }

/// A skill's metadata as a snapshot keeps it: the members of skill_metadata, by the same
/// names, packed (storage/packed.hpp). `owned()` (or a conversion) gives a skill_metadata.
struct packed_metadata
{
    // What an index lists comes first: building a snapshot's listing rows reads these of
    // every skill, and near each other they share cache lines.
    packed_string name;
    packed_string description;
    packed_optional_string label; // one byte each, like every optional string and list
    packed_optional_string when_to_use;
    packed_optional_string argument_hint;
    bool name_given = false;
    bool description_given = false;
    bool disable_model_invocation = false;
    bool user_invocable = true;
    bool user_invocable_only = false;
    bool always = false;
    context_mode context = context_mode::inline_;

    packed_optional_string license;
    packed_optional_string compatibility;
    packed_list<packed_pair> metadata;
    packed_optional_string version;
    packed_optional_string author;
    packed_list<packed_string> tags;
    packed_list<packed_string> allowed_tools;
    packed_optional_string agent;
    packed_optional_string model;
    packed_list<packed_string> arguments;
    packed_list<packed_string> triggers;
    packed_list<packed_string> knowledge;
    packed_list<packed_string> requires_bins;
    packed_list<packed_string> requires_env;
    packed_list<packed_unknown> unknown;

    /// Calls `f(owned member, packed member)` for every member, in order.
    template <class F>
    static void each_member(F&& f)
    {
        f(&skill_metadata::name, &packed_metadata::name);
        f(&skill_metadata::label, &packed_metadata::label);
        f(&skill_metadata::description, &packed_metadata::description);
        f(&skill_metadata::when_to_use, &packed_metadata::when_to_use);
        f(&skill_metadata::argument_hint, &packed_metadata::argument_hint);
        f(&skill_metadata::name_given, &packed_metadata::name_given);
        f(&skill_metadata::description_given, &packed_metadata::description_given);
        f(&skill_metadata::disable_model_invocation, &packed_metadata::disable_model_invocation);
        f(&skill_metadata::user_invocable, &packed_metadata::user_invocable);
        f(&skill_metadata::user_invocable_only, &packed_metadata::user_invocable_only);
        f(&skill_metadata::always, &packed_metadata::always);
        f(&skill_metadata::context, &packed_metadata::context);
        f(&skill_metadata::license, &packed_metadata::license);
        f(&skill_metadata::compatibility, &packed_metadata::compatibility);
        f(&skill_metadata::metadata, &packed_metadata::metadata);
        f(&skill_metadata::version, &packed_metadata::version);
        f(&skill_metadata::author, &packed_metadata::author);
        f(&skill_metadata::tags, &packed_metadata::tags);
        f(&skill_metadata::allowed_tools, &packed_metadata::allowed_tools);
        f(&skill_metadata::agent, &packed_metadata::agent);
        f(&skill_metadata::model, &packed_metadata::model);
        f(&skill_metadata::arguments, &packed_metadata::arguments);
        f(&skill_metadata::triggers, &packed_metadata::triggers);
        f(&skill_metadata::knowledge, &packed_metadata::knowledge);
        f(&skill_metadata::requires_bins, &packed_metadata::requires_bins);
        f(&skill_metadata::requires_env, &packed_metadata::requires_env);
        f(&skill_metadata::unknown, &packed_metadata::unknown);
    }

    skill_metadata owned() const
    {
        skill_metadata m;
        each_member([&](auto to, auto from) {
            auto const& value = this->*from;
            if constexpr (std::is_same_v<std::decay_t<decltype(m.*to)>, std::decay_t<decltype(value)>>) m.*to = value; // flags
            else m.*to = to_owned(value);
        });
        return m;
    }
    operator skill_metadata() const { return owned(); }
};

/// Where a snapshot's skill came from: a candidate's members, packed.
struct packed_candidate
{
    packed_string command;
    packed_string path;
    packed_string directory;
    packed_string directory_name;
    file_stamp stamp;
    bool database = false;
    bool confirmed = true;

    candidate owned() const
    {
        return {command.str(), path.str(), directory.str(), directory_name.str(), stamp, database, confirmed};
    }
    /// Sources take a candidate: reading a skill's file again passes its record's.
    operator candidate() const { return owned(); }
};

/// A snapshot's skill as its parts are owned while it is made or changed (make_record()
/// packs one into a skill_record; skill_record::draft() gives one back).
struct record_draft
{
    std::string command;
    std::string tier;
    std::size_t tier_index = 0;
    bool hidden = false;
    std::optional<override_decision> overridden = {};
    candidate where;
    skill_metadata meta;
    std::vector<std::string> children = {};
    std::size_t body_offset = 0;
    std::string shadowed_by = {};
};

/// A first read's parts of a record, by reference: make_record() packs them straight into
/// the record, with nothing moved into a draft first and freed after. A new record is
/// neither hidden, overridden, shadowed nor anyone's parent yet.
struct record_parts
{
    std::string_view command;
    std::string_view tier;
    std::size_t tier_index = 0;
    candidate const& where;
    file_stamp stamp; ///< the read's, which the record keeps in place of the candidate's
    skill_metadata const& meta;
    std::size_t body_offset = 0;
    static constexpr bool hidden = false;
    static constexpr override_decision const* overridden = nullptr;
    static constexpr std::string_view shadowed_by = {};
};

struct skill_record;
inline void intrusive_ptr_add_ref(skill_record const* r) noexcept;
inline void intrusive_ptr_release(skill_record const* r) noexcept;

namespace detail {
/// A record's reference count (see record_ptr): 4 bytes at its start, where a
/// std::shared_ptr would put a 16-byte control block before it.
class record_count
{
    friend void skillmd::intrusive_ptr_add_ref(skill_record const* r) noexcept;
    friend void skillmd::intrusive_ptr_release(skill_record const* r) noexcept;
    mutable std::atomic<std::uint32_t> refs_{0};
};
} // namespace detail

/** One skill of a snapshot. Immutable and shared: snapshots share the records of unchanged
    files. It is one allocation, its strings and lists included (storage/packed.hpp), so
    it cannot be copied; `draft()` gives an owned copy to change and make_record() again.
*/
struct skill_record : detail::record_count
{
    // The members a snapshot's listing rows copy of every skill come first.
    packed_string command;     ///< the lookup key (qualified `name@tier` under keep_all)
    packed_string tier;        ///< the tier's label
    std::uint16_t tier_index = 0; ///< the tier's source in the registry (16 bits: sources are template arguments)
    bool hidden = false;       ///< requirements unmet (sven): loaded but not listed
    packed_list<packed_string> children; ///< commands of the direct sub-skills (sven)
    /// An operator's override and the layer it came from, kept among the record's own
    /// bytes; null when none applies.
    override_decision const* overridden = nullptr;
    packed_candidate where;    ///< path, base directory, stamp
    packed_metadata meta;
    std::uint32_t body_offset = 0; ///< 32 bits: frontmatter is bounded far below
    packed_string shadowed_by; ///< on a shadowed skill: the winner as `name@tier`

    ~skill_record()
    {
        if (overridden) std::destroy_at(overridden);
    }

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

    record_draft draft() const
    {
        return {command.str(), tier.str(), tier_index, hidden, overridden ? std::optional(*overridden) : std::nullopt,
                where.owned(), meta.owned(), to_owned(children), body_offset, shadowed_by.str()};
    }
};

// A record's one-byte fields reach the table right after it (packed_slot).
static_assert(sizeof(skill_record) + 64 * sizeof(std::int32_t) < detail::packed_slot::reach,
              "a record's optional strings and lists must reach their table");

/** A shared record. The count is the record's own (an intrusive pointer, 8 bytes), so a
    record has no control block, and a snapshot's list and the refresh cache hold 8 bytes
    a skill each instead of 16. The last pointer to let go destroys the record and frees
    its block.
*/
using record_ptr = boost::intrusive_ptr<skill_record const>;

inline void intrusive_ptr_add_ref(skill_record const* r) noexcept { r->refs_.fetch_add(1, std::memory_order_relaxed); }
inline void intrusive_ptr_release(skill_record const* r) noexcept
{
    if (r->refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        r->~skill_record();
        ::operator delete(const_cast<void*>(static_cast<void const*>(r)));
    }
}

} // namespace skillmd

#endif
