// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_SOURCES_DIRECTORY_SOURCE_HPP
#define SKILLMD_SOURCES_DIRECTORY_SOURCE_HPP

#include <skillmd/source.hpp>
#include <skillmd/frontmatter/split.hpp>
#include <skillmd/detail/utf8.hpp>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace skillmd {

/// How skills sit under a root (SPEC 5.1).
enum class layout : std::uint8_t {
    flat,   ///< `root/<name>/SKILL.md` (seeds 000, 001, 002)
    nested, ///< any depth; the command is the path below the root (seed 004)
    files,  ///< `root/<name>.md`, one skill per Markdown file (seed 003)
};

struct directory_options
{
    skillmd::layout layout = layout::flat;
    std::size_t max_depth = 6;            ///< directory levels below the root (Codex: 6)
    std::size_t max_directories = 2000;   ///< directories visited per root (Codex: 2,000)
    std::size_t max_file_bytes = 256 * 1024; ///< larger skill files are skipped (seed 004: 256 KB)
    std::size_t max_bundled = 1000;       ///< bundled files listed per skill
    std::vector<std::string> skip = {".git", "node_modules", ".hg", ".svn"};
};

namespace detail {

inline file_stamp stamp_of(struct stat const& st)
{
    return {static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino),
            static_cast<std::uint64_t>(st.st_size),
            static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec};
}

/// A name that may become a command or reach a prompt: UTF-8, no control characters.
inline bool printable_name(std::string_view name)
{
    if (find_invalid_utf8(name) != std::string_view::npos) return false;
    for (unsigned char c : name)
        if (c < 0x20 || c == 0x7f) return false;
    return true;
}

inline std::string escaped(std::string_view s)
{
    static constexpr char hex[] = "0123456789abcdef";
    std::string out;
    for (unsigned char c : s) {
        if (c < 0x20 || c == 0x7f || c >= 0x80) {
            out += "\\x";
            out += hex[c >> 4];
            out += hex[c & 15];
        } else {
            out += static_cast<char>(c);
        }
    }
    return out;
}

/// Reads a regular file: all of it, or (with `head`) until the frontmatter block is
/// complete. FIFOs and devices are refused by type on the opened descriptor.
inline read_outcome read_regular(std::string const& path, std::size_t max_bytes, bool head)
{
    read_outcome r;
    int const fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) {
        r.error = std::strerror(errno);
        return r;
    }
    struct closer { int fd; ~closer() { ::close(fd); } } const guard{fd};
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        r.error = std::strerror(errno);
        return r;
    }
    if (!S_ISREG(st.st_mode)) {
        r.error = "not a regular file";
        return r;
    }
    r.stamp = stamp_of(st);
    if (static_cast<std::size_t>(st.st_size) > max_bytes) {
        r.error = "larger than the limit of " + std::to_string(max_bytes) + " bytes";
        return r;
    }
    std::string text;
    std::size_t want = head ? std::min<std::size_t>(4096, max_bytes) : static_cast<std::size_t>(st.st_size) + 1;
    for (;;) {
        std::size_t const old = text.size();
        text.resize(std::max(want, old + 1));
        ssize_t const n = ::read(fd, text.data() + old, text.size() - old);
        if (n < 0) {
            if (errno == EINTR) {
                text.resize(old);
                continue;
            }
            r.error = std::strerror(errno);
            return r;
        }
        text.resize(old + static_cast<std::size_t>(n));
        if (n == 0) {
            r.complete = true;
            break;
        }
        if (text.size() > max_bytes) {
            r.error = "larger than the limit of " + std::to_string(max_bytes) + " bytes";
            return r;
        }
        if (head && text.size() >= want) {
            // Enough once the block is closed, or once it is clear there is none.
            auto const s = frontmatter::split(text, {});
            if (s.has_frontmatter || !s.diagnostics.empty()) {
                bool const unclosed = !s.diagnostics.empty() && s.diagnostics[0].code == codes::frontmatter_unclosed;
                if (!unclosed) break;
            }
            want = std::min(max_bytes + 1, want * 2);
        }
    }
    r.text = std::move(text);
    return r;
}

} // namespace detail

/** Skills in a directory tree: the flat, nested and files layouts of SPEC 5.1.

    Discovery lists directories and stats files; it reads no skill file. Symlinked
    directories and symlinked SKILL.md files are followed, and every directory is
    visited at most once (a set of device and inode), so loops and meshes end at
    once. Depth, directory count and file size are bounded; names that are not
    printable UTF-8, unreadable entries, vanished files, FIFOs and devices give
    diagnostics and the walk goes on. Entries are visited in sorted order, so the
    result does not depend on the file system's order.
*/
class directory_source
{
public:
    directory_source(std::string label, std::string root, directory_options opts = {})
        : label_(std::move(label)), root_(std::move(root)), opts_(std::move(opts))
    {
        while (root_.size() > 1 && root_.back() == '/') root_.pop_back();
    }

    std::string_view label() const noexcept { return label_; }
    std::string const& root() const noexcept { return root_; }
    directory_options const& options() const noexcept { return opts_; }

    discovery discover() const
    {
        walker w{*this, {}, {}};
        struct stat st {};
        if (::stat(root_.c_str(), &st) != 0) {
            if (errno != ENOENT)
                w.warn(root_, "cannot open the skills directory: " + std::string(std::strerror(errno)));
            return std::move(w.out);
        }
        if (!S_ISDIR(st.st_mode)) {
            w.warn(root_, "the skills directory is not a directory");
            return std::move(w.out);
        }
        w.visited.insert({st.st_dev, st.st_ino});
        w.walk(root_, "", 0, -1, "");
        std::sort(w.out.skills.begin(), w.out.skills.end(),
                  [](candidate const& a, candidate const& b) { return a.command < b.command; });
        return std::move(w.out);
    }

    read_outcome read_head(candidate const& c) const { return detail::read_regular(c.path, opts_.max_file_bytes, true); }
    read_outcome read_all(candidate const& c) const { return detail::read_regular(c.path, opts_.max_file_bytes, false); }

private:
    struct walker
    {
        directory_source const& src;
        discovery out;
        std::set<std::pair<dev_t, ino_t>> visited;
        std::size_t directories = 0;
        bool depth_reported = false, count_reported = false, stopped = false;

        void report(std::string const& path, severity sev, std::string_view code, std::string msg)
        {
            out.diagnostics.push_back({std::string(code), sev, detail::escaped(path), 0, 0, std::move(msg)});
        }
        void warn(std::string const& path, std::string msg) { report(path, severity::warning, "discovery", std::move(msg)); }

        bool skipped(std::string_view name) const
        {
            return std::find(src.opts_.skip.begin(), src.opts_.skip.end(), name) != src.opts_.skip.end();
        }

        std::vector<std::pair<std::string, unsigned char>> list(std::string const& dir)
        {
            std::vector<std::pair<std::string, unsigned char>> names;
            DIR* d = ::opendir(dir.c_str());
            if (d == nullptr) {
                if (errno != ENOENT && errno != ENOTDIR)
                    warn(dir, "cannot list the directory: " + std::string(std::strerror(errno)) + "; skipped");
                return names;
            }
            errno = 0;
            while (dirent* e = ::readdir(d)) {
                std::string_view const n = e->d_name;
                if (n != "." && n != "..") names.emplace_back(std::string(n), e->d_type);
            }
            if (errno != 0) warn(dir, "reading the directory failed: " + std::string(std::strerror(errno)));
            ::closedir(d);
            std::sort(names.begin(), names.end());
            return names;
        }

        /// `owner` is the index of the skill whose bundled files this directory holds
        /// (-1 for none) and `prefix` the directory's path relative to that skill.
        void walk(std::string const& dir, std::string const& rel, std::size_t depth, long owner, std::string const& prefix)
        {
            auto const& o = src.opts_;
            for (auto const& [name, type] : list(dir)) {
                if (stopped) return;
                if (skipped(name)) continue;
                std::string const full = dir + "/" + name;
                struct stat st {};
                bool const is_link = type == DT_LNK || type == DT_UNKNOWN;
                if (type == DT_REG && !(o.layout == layout::files && depth == 0)) {
                    if (owner >= 0) add_bundled(owner, prefix + name, name); // no stat needed
                    continue;
                }
                if (::stat(full.c_str(), &st) != 0) {
                    if (errno == ENOENT && is_link) warn(full, "broken symbolic link; skipped");
                    else if (errno != ENOENT) warn(full, std::string(std::strerror(errno)) + "; skipped");
                    continue;
                }
                if (S_ISREG(st.st_mode)) {
                    if (o.layout == layout::files && depth == 0) {
                        if (name.size() > 3 && name.compare(name.size() - 3, 3, ".md") == 0)
                            add_candidate(full, name.substr(0, name.size() - 3), dir, st);
                    } else if (owner >= 0) {
                        add_bundled(owner, prefix + name, name);
                    }
                    continue;
                }
                if (!S_ISDIR(st.st_mode) || o.layout == layout::files) continue;
                if (!visited.insert({st.st_dev, st.st_ino}).second) {
                    report(full, severity::info, "discovery-loop",
                           is_link ? "symbolic link to a directory already visited (a loop or a second path); skipped"
                                   : "directory already visited; skipped");
                    continue;
                }
                if (depth + 1 > o.max_depth) {
                    if (!depth_reported)
                        warn(src.root_, "directories deeper than " + std::to_string(o.max_depth) +
                                            " levels are not searched (first: " + detail::escaped(full) + ")");
                    depth_reported = true;
                    continue;
                }
                if (++directories > o.max_directories) {
                    if (!count_reported)
                        warn(src.root_, "more than " + std::to_string(o.max_directories) +
                                            " directories; the rest are not searched");
                    count_reported = true;
                    stopped = true;
                    return;
                }
                std::string const child_rel = rel.empty() ? name : rel + "/" + name;
                bool const may_hold_skill = o.layout == layout::nested || depth == 0;
                long next_owner = owner;
                std::string next_prefix = owner >= 0 ? prefix + name + "/" : "";
                if (may_hold_skill) {
                    std::string const file = full + "/SKILL.md";
                    struct stat fs {};
                    if (::stat(file.c_str(), &fs) == 0) {
                        if (!S_ISREG(fs.st_mode)) {
                            warn(file, "SKILL.md is not a regular file; skipped");
                        } else if (!detail::printable_name(name)) {
                            warn(full, "the directory name is not printable UTF-8; skipped");
                        } else {
                            if (owner >= 0) out.skills[static_cast<std::size_t>(owner)].children.push_back(child_rel);
                            next_owner = add_candidate(file, child_rel, full, fs);
                            next_prefix.clear();
                        }
                    } else if (errno != ENOENT && errno != ENOTDIR) {
                        warn(file, std::string(std::strerror(errno)) + "; skipped");
                    }
                }
                if (o.layout == layout::flat && next_owner < 0) continue; // flat: only skills' own folders
                walk(full, child_rel, depth + 1, next_owner, next_prefix);
            }
        }

        long add_candidate(std::string const& file, std::string const& command, std::string const& directory,
                           struct stat const& st)
        {
            if (!detail::printable_name(command)) {
                warn(file, "the skill's name is not printable UTF-8; skipped");
                return -1;
            }
            candidate c;
            c.command = command;
            c.path = file;
            c.directory = directory;
            auto const slash = directory.find_last_of('/');
            c.directory_name = src.opts_.layout == layout::files ? command : directory.substr(slash + 1);
            c.stamp = detail::stamp_of(st);
            out.skills.push_back(std::move(c));
            return static_cast<long>(out.skills.size() - 1);
        }

        void add_bundled(long owner, std::string rel, std::string const& name)
        {
            auto& c = out.skills[static_cast<std::size_t>(owner)];
            if (rel == "SKILL.md" || !detail::printable_name(rel)) return;
            (void)name;
            if (c.bundled.size() < src.opts_.max_bundled) c.bundled.push_back(std::move(rel));
        }
    };

    std::string label_;
    std::string root_;
    directory_options opts_;
};

static_assert(skill_source<directory_source>);

} // namespace skillmd

#endif
