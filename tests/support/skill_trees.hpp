// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
//
// Skill trees for the storage and preset tests (tests/storage/, tests/presets/): a
// SKILL.md's text, a tree discovered by both walkers, and what a discovery says.
#ifndef SKILLMD_TESTS_SUPPORT_SKILL_TREES_HPP
#define SKILLMD_TESTS_SUPPORT_SKILL_TREES_HPP

#include "test_support.hpp"

#include <skillmd/frontmatter/x3_parser.hpp>
#include <skillmd/storage/registry.hpp>
#include <skillmd/detail/block_list.hpp>
#include <skillmd/storage/sources/directory_source.hpp>
#include <skillmd/storage/sources/memory_source.hpp>
#include <skillmd/storage/sources/plugin_source.hpp>

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace fs = std::filesystem;
using namespace skillmd;

namespace skill_trees {

using test::temp_dir;
using test::write;

inline std::string skill(std::string const& name, std::string const& description, std::string const& extra = "")
{
    return "---\nname: " + name + "\ndescription: " + description + "\n" + extra + "---\n# " + name + "\n\nBody of " +
           name + ".\n";
}

/// `prefix` followed by `n` (written out to dodge a false -Wrestrict in gcc 12).
inline std::string numbered(char const* prefix, int n)
{
    std::string s(prefix);
    s += std::to_string(n);
    return s;
}

/// Everything a discovery says, in one comparable text (the folders walked in order).
inline std::string described(discovery const& d)
{
    std::string out;
    for (auto const& c : d.skills)
        out += "skill " + c.command + " | " + c.path + " | " + c.directory + " | " + c.directory_name +
               (c.confirmed ? " | confirmed\n" : " | unconfirmed\n");
    for (auto const& g : d.diagnostics) out += "diagnostic " + to_text(g) + "\n";
    auto folders = d.directories;
    std::sort(folders.begin(), folders.end()); // helper threads add theirs in any order
    for (auto const& f : folders) out += "folder " + f + "\n";
    return out;
}

/// What a walk that read its files early (a first load) says, against what a plain
/// walk says: the same skills and diagnostics, and no list of folders to watch.
inline std::string described_early(discovery const& early, discovery plain)
{
    BOOST_TEST(early.directories.empty());
    plain.directories.clear();
    return described(plain);
}

/// The tree at `root` discovered by both walkers, which must agree to the byte: every test
/// that discovers through here (layouts, bounds, links, odd names) holds them to it.
inline discovery discover(fs::path const& root, layout l, directory_options o = {})
{
    o.layout = l;
    o.walker = directory_walker::posix;
    auto posix = directory_source("t", root.string(), o).discover();
    o.walker = directory_walker::boost_filesystem;
    auto const portable = directory_source("t", root.string(), o).discover();
    BOOST_TEST(described(posix) == described(portable));
    return posix;
}

/// The commands of the candidates that are skills (unconfirmed ones whose SKILL.md exists).
inline std::vector<std::string> commands(discovery const& d)
{
    std::vector<std::string> out;
    for (auto const& c : d.skills)
        if (c.confirmed || fs::exists(c.path)) out.push_back(c.command);
    return out;
}

inline candidate const& by_command(discovery const& d, std::string const& command)
{
    for (auto const& c : d.skills)
        if (c.command == command) return c;
    throw std::runtime_error("no candidate " + command);
}

inline bool has(std::vector<diagnostic> const& ds, std::string_view code, std::string_view text = {})
{
    for (auto const& d : ds)
        if (d.code == code && (text.empty() || d.message.find(text) != std::string::npos || d.file.find(text) != std::string::npos))
            return true;
    return false;
}

using parser = frontmatter::x3_parser;
inline registry_options lenient(dialect d = dialects::claude_code())
{
    registry_options o;
    o.dialect = std::move(d);
    return o;
}

} // namespace skill_trees

using namespace skill_trees;

#endif
