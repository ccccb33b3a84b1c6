// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_STORAGE_SOURCES_DIRECTORY_SOURCE_HPP
#define SKILLMD_STORAGE_SOURCES_DIRECTORY_SOURCE_HPP

#include <skillmd/config.hpp>
#include <skillmd/storage/source.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <sys/types.h>

namespace skillmd {

namespace detail {
/// The inotify watches directory tiers count on: fs.inotify.max_user_watches (read once),
/// or from now on `limit` when it is not 0. A tier watches each skill file itself while
/// that fits in half of it; tests lower it to see what a larger tree does.
SKILLMD_DECL std::size_t inotify_watch_limit(std::size_t limit = 0);
} // namespace detail

/// How skills sit under a root.
enum class layout : std::uint8_t {
    flat,   ///< `root/<name>/SKILL.md` (Pegasus, Claude Code, 002)
    nested, ///< any depth; the command is the path below the root (sven)
    files,  ///< `root/<name>.md`, one skill per Markdown file (koshi)
};

/// How a directory_source lists folders. Both give the same discovery on the same tree.
enum class directory_walker : std::uint8_t {
    posix,            ///< openat2, getdents64 and fstat on open descriptors, on up to four threads (Linux, the default)
    boost_filesystem, ///< Boost.Filesystem iteration and status by path, one thread (portable)
};

struct directory_options
{
    skillmd::layout layout = layout::flat;
    std::size_t max_depth = 6;            ///< directory levels below the root (Codex: 6)
    std::size_t max_directories = 2000;   ///< directories visited per root (Codex: 2,000)
    std::size_t max_file_bytes = 256 * 1024; ///< larger skill files are skipped (sven: 256 KB)
    std::size_t max_bundled = 1000;       ///< bundled files listed per skill
    std::vector<std::string> skip = {".git", "node_modules", ".hg", ".svn", ".skillmd-tx"};
    /// Folders besides the tier's own root that links may lead into (a dotfiles folder).
    /// Nothing outside the root and these is walked, listed or read.
    std::vector<std::string> allowed_roots;
    directory_walker walker = directory_walker::posix;
};


/** Skills in a directory tree: the flat, nested and files layouts

    discover() reads no skill file and makes few system calls: a flat tier's skill
    folder is only `fstatat`ed (its SKILL.md is confirmed by the first read; a missing
    file then simply means no skill); a nested tier lists every folder (opened without
    following links, listed with getdents64 - once, on file systems that fill the
    buffer to the end - and known by its parent's device and the listing's inode
    number where those are the folder's own: ext4, tmpfs and XFS, no mount point on
    the way; elsewhere by an `fstat` of its descriptor). A registry's first load calls
    discover(early_reader), which also reads each skill file listed as a regular file
    while its folder (flat: its parent) is open, by that short name and following no
    link; a link, or a file that read cannot take, is read by read_head() afterwards.
    A flat skill folder whose file that read opened without crossing a mount point is
    known by its listing, with no `fstatat`. Up to four threads walk (the others
    join once the walk has met 32 entries): one that runs out of work is given half
    of what is left of the outermost listing another is going through, at any depth,
    so any tree's shape keeps them busy; a thread holds open only the folders on its
    own path and those whose listings it shares.
    Symlinked directories and symlinked SKILL.md files are followed, and every
    directory is visited at most once (a set of device and inode), so loops and
    meshes end at once. Depth, directory count and file size are bounded; names
    that are not printable UTF-8, unreadable entries, vanished files, FIFOs and
    devices give diagnostics and the walk goes on. Entries are visited in sorted
    order, so the result does not depend on the file system's order. Bundled files
    are listed on request (`bundled_files`), never read.
*/
class directory_source
{
public:
    directory_source(std::string label, std::string root, directory_options opts = {});

    /// Stamps carry file times, of the kernel's coarse clock (the registry reads again a
    /// file written close to its last reads).
    static constexpr bool stamps_are_file_times = true;

    std::string_view label() const noexcept { return label_; }
    std::string const& root() const noexcept { return root_; }
    directory_options const& options() const noexcept { return opts_; }

    discovery discover() const;
    /// discover(), reading each skill file the walk lists as a regular file while it has
    /// the folder open, and handing the text to `e` (on the walk's threads). The posix
    /// walker does, in every layout; the portable one reads nothing early.
    discovery discover(early_reader const& e) const;
    read_outcome read_head(candidate const& c) const { return read(c, true); }
    read_outcome read_all(candidate const& c) const { return read(c, false); }

    /// The canonical folders this tier may read: its root and `allowed_roots`, resolved at
    /// the last discovery (or now, before the first).
    std::shared_ptr<std::vector<std::string> const> roots() const;

    /** Watches (inotify) every directory of `d`, and each skill file that could change
        without its folder seeing it (a symbolic link, watched through the link so its
        target is covered, or a file with a second name), adding only what is not watched
        yet. Returns true when nothing new had to be added: only then does a later
        `unchanged()` vouch for the whole tree, because a directory walked before its
        watch existed may have changed unseen in between.
    */
    bool watch(discovery const& d) const;

    /// True when a complete watch saw nothing change that a discovery or a skill file
    /// holds since it was set; drains the events (a skill file's change among them is
    /// then not listed by changes()).
    bool unchanged() const;

    /** What a complete watch saw since it was set or last asked, drained: the skill files
        made, removed, replaced or written, each once, when that is all that changes what a
        walk finds (an empty list: nothing). Other files in skill folders (an editor's swap
        and backup files, bundled files) change nothing a walk finds and are not listed.
        A folder made, removed or renamed at a flat tier's root, or anywhere in a nested
        tier, lists the skill files it brings or takes (a nested one made is walked alone);
        so does a link made, removed, renamed or pointed elsewhere at a flat tier's root.
        Nothing at all when the tree must be walked again: another folder made, removed or
        renamed, a link made or removed where a nested walk goes, a flat root's link that
        leads elsewhere than it did (asked at every call), a SKILL.md in another case,
        a watch lost, the queue overflowed, or the watch is not complete. A refresh reads
        only the files listed (candidate_at() says what a walk would make of each).
    */
    std::optional<std::vector<std::string>> changes() const;

    /// The candidate a walk would list for the skill file `path` now, the folders around it
    /// being as the last walk saw them (as changes() vouches): nothing when it would list none.
    std::optional<candidate> candidate_at(std::string const& path) const;

    /// The current stamp of a candidate's file, for refresh(); nothing when it is gone.
    std::optional<file_stamp> stamp(candidate const& c) const;

    /// The files of a skill's directory, relative to it, without reading them:
    /// SKILL.md and sub-skill directories (those with their own SKILL.md) left out.
    std::vector<std::string> bundled_files(candidate const& c) const;

private:
    read_outcome read(candidate const& c, bool head) const;

    /// The root's and the allowed roots' canonical paths as they are now (those that exist),
    /// kept for roots() by resolve_roots().
    std::vector<std::string> roots_now() const;
    std::shared_ptr<std::vector<std::string> const> resolve_roots() const;

    /// A folder with `skill.md` (or any other case) but no `SKILL.md` is a skill its author
    /// meant to write: say so rather than find nothing (systems that match the name exactly
    /// skip it on Linux).
    read_outcome misnamed(candidate const& c, read_outcome r) const;

    /// Whether the options' skip list names `name` (a folder or file the walk passes over).
    bool skipped(std::string_view name) const
    {
        return std::find(opts_.skip.begin(), opts_.skip.end(), name) != opts_.skip.end();
    }

    struct watch_state;

    /// What an entry made or removed in a watched folder does to a walk's answer.
    enum class effect : std::uint8_t {
        none,      ///< nothing: a file the walk passes over
        new_skill, ///< a skill file where the walk would list one
        root_entry, ///< a folder or link made, removed or renamed at the root (flat layout): see settle_root_entry
        subtree_made, ///< a folder made or renamed to where the walk would list it (nested layout)
        subtree_gone, ///< a folder the walk listed (or a link it went through), removed or renamed, with all below it (nested layout)
        link_gone,    ///< a link the walk met that led to no folder it listed, removed or renamed (nested layout)
        link_made,    ///< a link made or renamed to where the walk would list it (nested layout): see settle_nested_link
        shape,     ///< something only a walk can tell
    };
    effect entry_effect(watch_state const& w, std::string const& folder, std::string const& name, std::string const& entry,
                        bool is_folder, bool made) const;

    /// Nested: what a walk would list below the folder `name` made in the walked folder
    /// `folder` (known as `id`), the tier's other folders numbering `counted`: an empty
    /// discovery when it is gone again; nothing when only a whole walk can judge it (a
    /// link, a bound reached, a SKILL.md in another case or not a file, anything said).
    /// With `through_link`, `name` is a link to the folder known by that identity (see
    /// settle_nested_link), opened once and walked from that descriptor; any other link
    /// met below is still the whole walk's to judge.
    std::optional<discovery> walk_below(std::string const& folder, std::pair<dev_t, ino_t> id, std::string const& name,
                                        std::size_t counted, std::optional<std::pair<dev_t, ino_t>> through_link = std::nullopt) const;
    /// Nested, for changes(): the folders and skills a walk would now find below `entry`,
    /// made in `folder`, watched and added to what the last walk saw, their skill files to
    /// `edited`; false when only a whole walk can tell. `link`: `name` is a link to the
    /// folder of that identity, watched through it already (add_followed).
    bool add_subtree(watch_state& w, std::string const& folder, std::string const& name,
                     std::set<std::string>& edited, std::optional<std::pair<dev_t, ino_t>> link = std::nullopt) const;
    /// Nested, for changes(), once every event is in: the link `entry`, made in a walked
    /// folder, taken as a whole walk takes it. One to a file (a bundled file kept
    /// elsewhere) is passed over and asked again at each look; one to a folder the walk
    /// would follow is walked through, watched. False when only a whole walk can tell (a
    /// link to nothing, outside the tier's folders or into it, a second path to a watched
    /// folder, a link met below, past the number of links asked at each look).
    bool settle_nested_link(watch_state& w, std::string const& entry, std::set<std::string>& edited) const;
    /// Flat, for changes(), once every event is in and what the last walk saw there is
    /// dropped: the root's entry `entry`, made, removed or renamed, taken as what it is now.
    /// A plain folder the walk would admit, or a link it would follow, is watched and its
    /// skill file goes to `edited`. False when only a whole walk can tell.
    bool settle_root_entry(watch_state& w, std::string const& entry, std::set<std::string>& edited) const;
    /// The link `entry` (named `name`) at a flat root, or made in a nested tier's walked
    /// folder: where it leads to a folder the walk would follow, watched through the link,
    /// and a skill folder (flat) or walked (nested), its skill files to `edited`. One to a
    /// file is passed over. False when only a whole walk can tell (a link to nothing,
    /// outside the tier's folders, a second path to a watched folder, or past the number
    /// of links asked at each look).
    bool follow_link(watch_state& w, std::string const& entry, std::string const& name, std::set<std::string>& edited) const;

    void list_bundled(std::string const& dir, std::string const& prefix, std::size_t depth,
                      std::set<std::pair<dev_t, ino_t>>& seen, std::vector<std::string>& out, std::size_t limit,
                      std::vector<std::string> const& roots_now) const;

    template <class Fs>
    struct walk_shared;
    template <class Fs>
    struct walker;

    /// The walk over `Fs` (POSIX calls or Boost.Filesystem) with `threads` threads, files
    /// read early when `early` asks; nothing when the result could depend on timing.
    template <class Fs>
    std::optional<discovery> discover_with(unsigned threads, early_reader const* early) const;
    discovery discover_any(early_reader const* early) const;

    std::string label_;
    std::string root_;
    directory_options opts_;
    struct roots_state;
    std::shared_ptr<watch_state> watch_; // shared by copies
    std::shared_ptr<roots_state> roots_;
};

static_assert(skill_source<directory_source>, "directory_source must model skill_source");

} // namespace skillmd

#ifndef SKILLMD_SEPARATE_COMPILATION
#include <skillmd/storage/sources/impl/directory_source.ipp>
#endif

#endif
