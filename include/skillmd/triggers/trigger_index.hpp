// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_TRIGGERS_TRIGGER_INDEX_HPP
#define SKILLMD_TRIGGERS_TRIGGER_INDEX_HPP

// The trigger phrases of every skill of a snapshot in one matcher (koshi).

#include <skillmd/storage/registry.hpp>
#include <skillmd/triggers/matcher.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include <string>
#include <string_view>
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

/// Every trigger phrase of a snapshot's skills, matched against a message in one pass.
class trigger_index
{
public:
    explicit trigger_index(std::shared_ptr<snapshot const> snap, visibility who = visibility::model)
        : snap_(std::move(snap))
    {
        for (auto const& r : snap_->skills()) {
            if (!r.visible_to(who)) continue;
            auto const phrases = triggers_of(r.meta);
            if (phrases.empty()) continue;
            for (auto const& p : phrases) matcher_.add(p, records_.size());
            records_.push_back(&r);
        }
        matcher_.build();
    }

    /// The skills with a phrase in `message`, in the snapshot's order (by command).
    std::vector<skill_record const*> match(std::string_view message) const
    {
        std::vector<skill_record const*> out;
        for (auto id : matcher_.match(message)) out.push_back(records_[id]);
        return out;
    }

    std::size_t skills() const noexcept { return records_.size(); }

private:
    std::shared_ptr<snapshot const> snap_;
    std::vector<skill_record const*> records_;
    trigger_matcher matcher_;
};

} // namespace skillmd

#endif
