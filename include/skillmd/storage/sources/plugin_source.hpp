// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_STORAGE_SOURCES_PLUGIN_SOURCE_HPP
#define SKILLMD_STORAGE_SOURCES_PLUGIN_SOURCE_HPP

#include <skillmd/storage/source.hpp>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace skillmd {

/** A plugin's skills: another source whose commands become `plugin:name` (Claude Code),
    so they never collide with the user's own skills.
*/
template <skill_source Inner>
class plugin_source
{
public:
    plugin_source(std::string plugin, Inner inner) : plugin_(std::move(plugin)), inner_(std::move(inner)) {}

    std::string_view label() const noexcept { return inner_.label(); }
    std::string const& plugin() const noexcept { return plugin_; }
    /// What every command of this source starts with (the registry allows `:` only there).
    std::string command_prefix() const { return plugin_ + ":"; }

    discovery discover() const
    {
        discovery d = inner_.discover();
        for (auto& c : d.skills) c.command = command_prefix() + c.command;
        return d;
    }

    read_outcome read_head(candidate const& c) const { return inner_.read_head(unprefixed(c)); }
    read_outcome read_all(candidate const& c) const { return inner_.read_all(unprefixed(c)); }
    std::optional<file_stamp> stamp(candidate const& c) const
        requires requires(Inner const& i) { i.stamp(c); }
    {
        return inner_.stamp(unprefixed(c));
    }
    std::vector<std::string> bundled_files(candidate const& c) const
        requires requires(Inner const& i) { i.bundled_files(c); }
    {
        return inner_.bundled_files(unprefixed(c));
    }
    // Change watches: forwarded as they are, so a quiet plugin tier costs no I/O on refresh.
    // Watches go by path, which the prefix does not touch.
    bool watch(discovery const& d) const
        requires requires(Inner const& i) { i.watch(d); }
    {
        return inner_.watch(d);
    }
    bool unchanged() const
        requires requires(Inner const& i) { i.unchanged(); }
    {
        return inner_.unchanged();
    }
    std::optional<std::vector<std::string>> changes() const
        requires requires(Inner const& i) { i.changes(); }
    {
        return inner_.changes();
    }
    std::optional<candidate> candidate_at(std::string const& path) const
        requires requires(Inner const& i) { i.candidate_at(path); }
    {
        auto c = inner_.candidate_at(path);
        if (c) c->command = command_prefix() + c->command;
        return c;
    }
    /// The inner source's stamps, so file times when it has them (see directory_source).
    static constexpr bool stamps_are_file_times = [] {
        if constexpr (requires { requires Inner::stamps_are_file_times; }) return true;
        else return false;
    }();

private:
    candidate unprefixed(candidate c) const
    {
        if (auto const prefix = command_prefix(); c.command.starts_with(prefix)) c.command.erase(0, prefix.size());
        return c;
    }
    std::string plugin_;
    Inner inner_;
};

} // namespace skillmd

#endif
