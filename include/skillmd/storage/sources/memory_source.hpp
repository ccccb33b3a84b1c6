// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_STORAGE_SOURCES_MEMORY_SOURCE_HPP
#define SKILLMD_STORAGE_SOURCES_MEMORY_SOURCE_HPP

#include <skillmd/storage/source.hpp>

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace skillmd {

/** Skills given as strings: for embedding skills in a program, and for tests.
    Copies share their contents, so a test can change a skill after handing the
    source to a registry and see `refresh()` pick it up.
*/
class memory_source
{
public:
    explicit memory_source(std::string label) : label_(std::move(label)), state_(std::make_shared<state>()) {}

    /// Adds or replaces the skill `command` with the text of a whole SKILL.md.
    memory_source& set(std::string command, std::string text)
    {
        std::lock_guard<std::mutex> lock(state_->mutex);
        auto& e = state_->skills[std::move(command)];
        e.text = std::move(text);
        e.version = ++state_->version;
        return *this;
    }
    void erase(std::string const& command)
    {
        std::lock_guard<std::mutex> lock(state_->mutex);
        state_->skills.erase(command);
    }

    std::string_view label() const noexcept { return label_; }

    discovery discover() const
    {
        std::lock_guard<std::mutex> lock(state_->mutex);
        discovery d;
        for (auto const& [command, e] : state_->skills) {
            candidate c;
            c.command = command;
            c.path = "memory:" + label_ + "/" + command;
            c.directory_name = command.substr(command.find_last_of('/') + 1);
            c.stamp = stamp_of(e);
            d.skills.push_back(std::move(c));
        }
        return d;
    }

    read_outcome read_head(candidate const& c) const { return read_all(c); }
    read_outcome read_all(candidate const& c) const
    {
        std::lock_guard<std::mutex> lock(state_->mutex);
        read_outcome r;
        auto const it = state_->skills.find(c.command);
        if (it == state_->skills.end()) {
            r.error = "no longer in the memory source";
            return r;
        }
        r.text = it->second.text;
        r.complete = true;
        r.stamp = stamp_of(it->second);
        return r;
    }

private:
    struct entry
    {
        std::string text;
        std::uint64_t version = 0;
    };
    struct state
    {
        std::mutex mutex;
        std::map<std::string, entry> skills;
        std::uint64_t version = 0;
    };
    static file_stamp stamp_of(entry const& e)
    {
        return {0, 0, e.text.size(), static_cast<std::int64_t>(e.version)};
    }

    std::string label_;
    std::shared_ptr<state> state_;
};

static_assert(skill_source<memory_source>, "memory_source must model skill_source");

} // namespace skillmd

#endif
