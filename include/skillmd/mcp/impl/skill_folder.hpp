// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_MCP_IMPL_SKILL_FOLDER_HPP
#define SKILLMD_MCP_IMPL_SKILL_FOLDER_HPP

// How list_skill, read_skill_file and manifest_of (mcp/digest.hpp) reach a skill's files:
// its folder opened and checked, then every listing and read kept below it.

#include <skillmd/mcp/skill_listing.hpp>
#include <skillmd/detail/contained.hpp>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace skillmd::mcp {

namespace detail {

using skillmd::detail::file_id;
using skillmd::detail::id_of;
using skillmd::detail::open_beneath;
using skillmd::detail::unique_fd;

/// A skill's folder, open: the descriptor every read goes below, the path the kernel
/// gives it (what absolute links inside are checked against), and its own identity (the
/// first of the folders above a file, against loops).
struct open_folder
{
    unique_fd fd;
    std::string path;
    file_id id{};
    explicit operator bool() const noexcept { return static_cast<bool>(fd); }
};

/** The skill's folder, opened, and shown to be the one listed: its SKILL.md (opened below
    it) has the device and inode `expected` when given. A folder replaced since (by a link
    to another place, or another folder) is refused: its files are not the skill's.
*/
inline open_folder open_skill_folder(std::string const& dir, file_id const* expected, std::string& error)
{
    open_folder out;
    out.fd = unique_fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    struct stat st {};
    if (!out.fd || ::fstat(out.fd.get(), &st) != 0) {
        error = "cannot open " + dir;
        return {};
    }
    out.id = id_of(st);
    out.path = skillmd::detail::path_of_descriptor(out.fd.get());
    if (expected && expected->second != 0) {
        unique_fd const f(skillmd::detail::open_beneath_following(out.fd.get(), out.path, "SKILL.md", O_PATH));
        // A SKILL.md linked to a file elsewhere (a tier may allow it) cannot be read below
        // the folder, as every read here is: said as such, not as a folder changed.
        if (!f && (errno == EXDEV || errno == ELOOP)) {
            error = "its SKILL.md is a link out of the skill's folder, and files are served only from below it";
            return {};
        }
        struct stat skill {};
        if (!f || ::fstat(f.get(), &skill) != 0 || id_of(skill) != *expected) {
            error = "the skill's folder is not the one listed (it changed since; list the skills again)";
            return {};
        }
    }
    return out;
}

/// The names in the folder `rel` ("" for the root) below `root`, sorted, into `names`;
/// false with `out.error` set when it cannot be listed.
inline bool names_below(int root, std::string const& root_path, std::string const& rel, std::vector<std::string>& names,
                        skill_listing& out)
{
    // A descriptor of its own (not a dup, which would share the root's read position).
    unique_fd dirfd(rel.empty() ? ::openat(root, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                                : skillmd::detail::open_beneath_following(root, root_path, rel, O_RDONLY | O_DIRECTORY));
    if (!dirfd) {
        out.error = "cannot open the folder " + (rel.empty() ? std::string(".") : rel);
        return false;
    }
    DIR* d = ::fdopendir(dirfd.get());
    if (d == nullptr) {
        out.error = "cannot list the folder " + (rel.empty() ? std::string(".") : rel);
        return false;
    }
    (void)dirfd.release(); // the DIR owns it now
    while (dirent* e = ::readdir(d)) {
        std::string_view const n = e->d_name;
        if (n != "." && n != "..") names.emplace_back(n);
    }
    ::closedir(d);
    std::sort(names.begin(), names.end());
    return true;
}

/// Lists the folder `rel` ("" for the root) below `root` into `out`; false with `error`
/// set when the listing cannot be complete.
inline bool list_below(int root, std::string const& root_path, std::string const& rel, std::size_t depth,
                       std::vector<file_id>& above, std::size_t& folders, skill_listing& out)
{
    if (++folders > max_skill_files) {
        out.error = "more than " + std::to_string(max_skill_files) + " folders";
        return false;
    }
    std::vector<std::string> names;
    if (!names_below(root, root_path, rel, names, out)) return false;
    for (auto const& n : names) {
        std::string const path = rel.empty() ? n : rel + "/" + n;
        if (n == ".git") {
            out.excluded.push_back(path + ": version control data, never part of a skill");
            continue;
        }
        // What the entry is, resolved below the root: a link that leaves fails here.
        unique_fd const f(skillmd::detail::open_beneath_following(root, root_path, path, O_PATH));
        struct stat st {};
        if (!f || ::fstat(f.get(), &st) != 0) {
            if (errno == ENOENT) continue; // gone since the listing
            out.excluded.push_back(path + ": a link that leaves the skill's folder, not part of it");
            continue;
        }
        if (S_ISREG(st.st_mode)) {
            if (out.files.size() >= max_skill_files) {
                out.error = "more than " + std::to_string(max_skill_files) + " files";
                return false;
            }
            out.files.push_back({path, static_cast<std::uint64_t>(st.st_size)});
        } else if (S_ISDIR(st.st_mode)) {
            if (std::find(above.begin(), above.end(), id_of(st)) != above.end()) {
                out.excluded.push_back(path + ": a link back to a folder above it");
                continue;
            }
            if (depth + 1 > max_skill_depth) {
                out.error = "a folder deeper than " + std::to_string(max_skill_depth) + " levels (" + path + ")";
                return false;
            }
            above.push_back(id_of(st));
            bool const listed = list_below(root, root_path, path, depth + 1, above, folders, out);
            above.pop_back();
            if (!listed) return false;
        } else {
            out.excluded.push_back(path + ": not a regular file (a FIFO, a socket or a device), not part of the skill");
        }
    }
    return true;
}

/// Reads the regular file `rel` below `root` (contained), at most `limit` bytes.
inline std::optional<std::string> read_below(int root, std::string const& root_path, std::string const& rel, std::uint64_t limit,
                                             std::string& error)
{
    unique_fd const fd(skillmd::detail::open_beneath_following(root, root_path, rel, O_RDONLY | O_NONBLOCK));
    if (!fd) {
        error = errno == EXDEV || errno == ELOOP ? rel + " leads outside the skill's folder" : "cannot open " + rel;
        return std::nullopt;
    }
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode)) {
        error = rel + " is not a regular file";
        return std::nullopt;
    }
    if (static_cast<std::uint64_t>(st.st_size) > limit) {
        error = rel + " is larger than " + std::to_string(limit) + " bytes";
        return std::nullopt;
    }
    std::string out(static_cast<std::size_t>(st.st_size), '\0');
    std::size_t got = 0;
    while (got < out.size()) {
        ssize_t const n = ::read(fd.get(), out.data() + got, out.size() - got);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            error = "cannot read " + rel;
            return std::nullopt;
        }
        if (n == 0) break;
        got += static_cast<std::size_t>(n);
    }
    out.resize(got);
    return out;
}

} // namespace detail

} // namespace skillmd::mcp

#endif
