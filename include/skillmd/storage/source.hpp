// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_STORAGE_SOURCE_HPP
#define SKILLMD_STORAGE_SOURCE_HPP

// The source (storage tier) policy: where skills come from. No X3 here.

#include <skillmd/config.hpp>
#include <skillmd/model/diagnostic.hpp>

#include <concepts>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace skillmd {

/// What identifies a file's version: device and inode (same file through any link),
/// size and modification time (changed content), and the status change time, which no
/// program can set back (`cp -p` and `touch -r` restore the modification time of an edit
/// that kept the size). Memory skills use a content hash; databases a revision.
struct file_stamp
{
    std::uint64_t device = 0;
    std::uint64_t inode = 0;
    std::uint64_t size = 0;
    std::int64_t mtime_ns = 0;
    std::int64_t ctime_ns = 0; ///< 0 where a source has no such time
    friend bool operator==(file_stamp const&, file_stamp const&) = default;
    bool same_file(file_stamp const& o) const noexcept { return device == o.device && inode == o.inode && inode != 0; }
};

/// What a source read of a skill during its discovery, made into whatever the asker (a
/// registry) keeps of a read; only the asker knows the kind. See early_reader.
struct early_read
{
    virtual ~early_read() = default;
};

/// One skill a source found. Discovery fills it without reading the file (but see early_reader).
struct candidate
{
    std::string command;             ///< the key the layout gives: `commit`, `plan/review`, `plugin:x`
    std::string path;                ///< the SKILL.md (or *.md) file
    std::string directory;           ///< the skill's base directory ("" for memory skills)
    std::string directory_name;      ///< default name and the specification's name check
    file_stamp stamp;
    bool database = false;           ///< from the database tier (files win over it, koshi)
    bool confirmed = true;           ///< false: the file may not exist; the first read tells
    std::shared_ptr<early_read> early = {}; ///< the file read during discovery, when the asker asked (early_reader)
};

/// What one discovery pass found, and every problem met on the way.
struct discovery
{
    std::vector<candidate> skills;
    std::vector<diagnostic> diagnostics;
    /// Every directory the walk looked at, for change watches; empty from a walk that
    /// read its files early (`discover(early_reader const&)`: a first load, which watches nothing).
    std::vector<std::string> directories;
};

/// Text read from a source: the whole file, or at least its frontmatter (`complete` false).
struct read_outcome
{
    std::optional<std::string> text;
    bool complete = false;
    file_stamp stamp;
    std::string error; ///< why `text` is empty
    bool absent = false; ///< the file does not exist (an unconfirmed candidate that is no skill)
};

/** What a registry hands a source's `discover(early_reader const&)`, if the source has one:
    a walk that holds a skill's folder open may read its file there, by one name, rather
    than leave it to a read_head() by its whole path afterwards (directory_source does;
    the gain is in benchmarks/README.md). `take` gets the text read_head() would
    give, on the walk's thread, and what it returns goes into `candidate::early`. It may
    move out of `c` what it keeps, all but the command, by which the walk orders its
    candidates. A read the walk cannot make is left to read_head(), which says what is wrong.
*/
class early_reader
{
public:
    virtual std::shared_ptr<early_read> take(candidate& c, read_outcome&& text) const = 0;

protected:
    ~early_reader() = default;
};

/** A source of skills for one tier.

    `discover()` lists candidates cheaply (directory listing and stat, no file
    contents); `read_head(c)` returns at least the frontmatter of one candidate,
    `read_all(c)` the whole file (for bodies). Every call may run on any thread
    and reports problems as values.

    @par Exemplar
    @code
    struct my_source
    {
        std::string_view label() const;
        skillmd::discovery discover() const;
        skillmd::read_outcome read_head(skillmd::candidate const&) const;
        skillmd::read_outcome read_all(skillmd::candidate const&) const;
    };
    @endcode

    A source may also offer change detection, which lets `refresh()` skip a tier that
    did not change without touching its files:
    @code
        bool watch(skillmd::discovery const& d) const; // watch what d found; true when complete
        bool unchanged() const;                          // nothing changed since a complete watch
    @endcode
    And a walk that reads each file as it finds it (a first load asks for that):
    @code
        skillmd::discovery discover(skillmd::early_reader const& e) const;
    @endcode

    @par Models
    @li @ref directory_source (flat, nested and files layouts)
    @li @ref memory_source (skills given as strings)
    @li @ref plugin_source (wraps another source, names become `plugin:name`)
    @li `sqlite_source` (the database tier; skillmd::sqlite)
    @li `mcp::source` (skills from an MCP server, `namespace:path`; skillmd::mcp)
*/
template <class S>
concept skill_source = requires(S const& s, candidate const& c) {
    { s.label() } -> std::convertible_to<std::string_view>;
    { s.discover() } -> std::same_as<discovery>;
    { s.read_head(c) } -> std::same_as<read_outcome>;
    { s.read_all(c) } -> std::same_as<read_outcome>;
};

} // namespace skillmd

#endif
