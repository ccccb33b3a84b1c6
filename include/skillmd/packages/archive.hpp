// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_PACKAGES_ARCHIVE_HPP
#define SKILLMD_PACKAGES_ARCHIVE_HPP

// Archives in and out, through libarchive: tar (plain or gzip) and zip read into a new
// folder under hostile-input rules, and deterministic .tar.gz and .zip written from files
// in memory. Link skillmd::packages (LibArchive).

#include <skillmd/packages/limits.hpp>
#include <skillmd/detail/contained.hpp>
#include <skillmd/detail/utf8.hpp>

#include <archive.h>
#include <archive_entry.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace skillmd::packages {

/// A file to put in an archive: its path inside it, its bytes, and whether it runs.
struct archive_member
{
    std::string path;
    std::string bytes;
    bool executable = false;
};

namespace detail {

/// libarchive's message for the last error, which may be none at all.
inline std::string error_of(struct archive* a)
{
    char const* e = archive_error_string(a);
    return e ? e : "(libarchive gave no reason)";
}

struct archive_deleter
{
    void operator()(struct archive* a) const noexcept
    {
        if (archive_read_free(a) != ARCHIVE_OK) {} // nothing to do about a failed free
    }
};
using read_handle = std::unique_ptr<struct archive, archive_deleter>;

/// An entry's path made plain: `./` prefixes and a trailing `/` dropped. Empty for the
/// archive's root; nullopt for what may never be unpacked (absolute, `..`, backslashes,
/// control characters, bytes that are not UTF-8, more than `max_depth` components).
inline std::optional<std::string> entry_path(char const* raw, std::size_t max_depth)
{
    if (!raw) return std::nullopt;
    std::string_view p(raw);
    while (p.starts_with("./")) p.remove_prefix(2);
    while (p.ends_with('/')) p.remove_suffix(1);
    if (p.empty() || p == ".") return std::string();
    for (char const c : p)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f || c == '\\') return std::nullopt;
    if (!skillmd::detail::plain_relative_path(p) || skillmd::detail::find_invalid_utf8(p) != std::string_view::npos) return std::nullopt;
    if (static_cast<std::size_t>(std::count(p.begin(), p.end(), '/')) >= max_depth) return std::nullopt;
    return std::string(p);
}

/// Where a link at `link` pointing to `target` leads, inside the archive's root, or
/// nullopt when it leaves it (absolute, or more `..` than folders).
inline std::optional<std::string> link_destination(std::string const& link, std::string_view target)
{
    if (target.empty() || target.front() == '/') return std::nullopt;
    std::vector<std::string> parts;
    for (std::size_t pos = 0, slash = link.find('/'); slash != std::string::npos; pos = slash + 1, slash = link.find('/', pos))
        parts.push_back(link.substr(pos, slash - pos));
    std::size_t pos = 0;
    while (pos <= target.size()) {
        auto const slash = target.find('/', pos);
        auto const part = target.substr(pos, slash == std::string_view::npos ? std::string_view::npos : slash - pos);
        if (part == "..") {
            if (parts.empty()) return std::nullopt;
            parts.pop_back();
        } else if (!part.empty() && part != ".") {
            parts.emplace_back(part);
        }
        if (slash == std::string_view::npos) break;
        pos = slash + 1;
    }
    std::string out;
    for (auto const& p : parts) out += (out.empty() ? "" : "/") + p;
    if (out.empty()) return std::nullopt; // the root itself: a link to a folder
    return out;
}

/// Makes every folder of `rel` below `root` (never through a link: nothing here makes one).
inline bool make_parents(int root, std::string const& rel, bool include_last)
{
    std::size_t pos = 0;
    while (true) {
        auto const slash = rel.find('/', pos);
        if (slash == std::string::npos && !include_last) return true;
        std::string const prefix = rel.substr(0, slash);
        if (::mkdirat(root, prefix.c_str(), 0755) != 0 && errno != EEXIST) return false;
        struct stat st {};
        if (::fstatat(root, prefix.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(st.st_mode)) return false;
        if (slash == std::string::npos) return true;
        pos = slash + 1;
    }
}

/// Writes `bytes` as the new file `rel` below `root` (mode 0644, or 0755 when
/// `executable`, whatever the umask); false if it exists or cannot be made.
inline bool write_new_file(int root, std::string const& rel, std::string_view bytes, bool executable)
{
    if (!make_parents(root, rel, false)) return false;
    // The folder is opened below the root, then the file made in it, never through a link.
    auto const slash = rel.rfind('/');
    skillmd::detail::unique_fd held;
    int parent = root;
    if (slash != std::string::npos) {
        held = skillmd::detail::unique_fd(skillmd::detail::open_beneath(root, rel.substr(0, slash), O_RDONLY | O_DIRECTORY));
        if (!held) return false;
        parent = held.get();
    }
    std::string const leaf = slash == std::string::npos ? rel : rel.substr(slash + 1);
    skillmd::detail::unique_fd const f(::openat(parent, leaf.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
    if (!f) return false;
    if (::fchmod(f.get(), executable ? 0755 : 0644) != 0) return false;
    while (!bytes.empty()) {
        auto const n = ::write(f.get(), bytes.data(), bytes.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        bytes.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

} // namespace detail

/** Unpacks `bytes` (a tar archive, plain or gzip-compressed, or a zip archive) into the
    folder `dest`, which must not exist yet. Refused, with the entry named, and the folder
    left for the caller to remove: absolute paths, `..`, backslashes and control
    characters in names; devices, FIFOs and sockets; a path given twice; links (symbolic
    or hard) that leave the archive or lead to a folder; more entries, or more bytes in
    one file or in all, than `limits` allow (counted as they are unpacked, not as the
    headers claim: a decompression bomb stops at the limit). Links that stay inside are
    written as copies of what they lead to, so the folder holds no link at all. Only
    the owner's execute bit is kept from the modes (files are 0644 or 0755). `written`,
    when given, receives the bytes written. Returns "" or why not.
*/
inline std::string unpack_archive(std::string_view bytes, std::string const& dest, package_limits const& limits = {},
                                  std::uint64_t* written = nullptr)
{
    detail::read_handle a(archive_read_new());
    if (!a) return "libarchive could not start";
    archive_read_support_filter_gzip(a.get());
    archive_read_support_format_tar(a.get());
    archive_read_support_format_zip(a.get());
    if (archive_read_open_memory(a.get(), bytes.data(), bytes.size()) != ARCHIVE_OK)
        return "not a tar, tar.gz or zip archive: " + detail::error_of(a.get());
    if (::mkdir(dest.c_str(), 0755) != 0) return "cannot make " + dest + ": " + std::strerror(errno);
    skillmd::detail::unique_fd const root(::open(dest.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (!root) return "cannot open " + dest + ": " + std::strerror(errno);

    std::set<std::string> seen, files;
    std::map<std::string, std::string> links; // path -> where it leads (a path inside)
    std::size_t entries = 0;
    std::uint64_t total = 0;
    std::string buffer;
    while (true) {
        struct archive_entry* e = nullptr;
        int const r = archive_read_next_header(a.get(), &e);
        if (r == ARCHIVE_EOF) break;
        if (r != ARCHIVE_OK && r != ARCHIVE_WARN) return "a damaged archive: " + detail::error_of(a.get());
        if (++entries > limits.max_entries) return "more than " + std::to_string(limits.max_entries) + " entries in the archive";
        auto const path = detail::entry_path(archive_entry_pathname(e), limits.max_depth);
        std::string const shown = archive_entry_pathname(e) ? archive_entry_pathname(e) : "(no name)";
        if (!path) return "an entry that would leave the folder or has an unsafe name: " + shown;
        if (path->empty()) continue; // the root folder itself
        if (!seen.insert(*path).second) return "an entry given twice: " + shown;
        if (char const* hard = archive_entry_hardlink(e)) {
            auto const to = detail::entry_path(hard, limits.max_depth);
            if (!to || to->empty()) return "a hard link that leaves the archive: " + shown;
            links[*path] = *to;
            continue;
        }
        auto const type = archive_entry_filetype(e);
        if (type == AE_IFDIR) {
            if (!detail::make_parents(root.get(), *path, true)) return "cannot make the folder " + shown;
            continue;
        }
        if (type == AE_IFLNK) {
            char const* target = archive_entry_symlink(e);
            auto to = detail::link_destination(*path, target ? target : "");
            if (!to) return "a link that leaves the archive: " + shown + " -> " + (target ? target : "");
            links[*path] = std::move(*to);
            continue;
        }
        if (type != AE_IFREG) return "not a regular file, folder or link (a device, FIFO or socket): " + shown;
        buffer.clear();
        std::array<char, 65536> block{};
        while (true) {
            auto const n = archive_read_data(a.get(), block.data(), block.size());
            if (n == 0) break;
            if (n < 0) return "a damaged archive: " + detail::error_of(a.get());
            total += static_cast<std::uint64_t>(n);
            if (buffer.size() + static_cast<std::size_t>(n) > limits.max_file_bytes)
                return "a file over " + std::to_string(limits.max_file_bytes) + " bytes: " + shown;
            if (total > limits.max_total_bytes)
                return "more than " + std::to_string(limits.max_total_bytes) + " bytes unpacked in all (a decompression bomb?)";
            buffer.append(block.data(), static_cast<std::size_t>(n));
        }
        bool const executable = (archive_entry_perm(e) & 0100) != 0;
        if (!detail::write_new_file(root.get(), *path, buffer, executable))
            return "cannot write " + shown + " (a path through a file, or given twice): " + std::strerror(errno);
        files.insert(*path);
        if (written) *written = total;
    }

    // Links inside become copies of the file they lead to, following chains of links.
    for (auto const& [path, first] : links) {
        std::string to = first;
        for (int hops = 0; links.count(to) && hops < 16; ++hops) to = links.at(to);
        if (!files.count(to)) return "a link that leads to a folder, to nothing or round in a loop: " + path;
        skillmd::detail::unique_fd const src(skillmd::detail::open_beneath(root.get(), to, O_RDONLY | O_NOFOLLOW));
        struct stat st {};
        if (!src || ::fstat(src.get(), &st) != 0) return "cannot read " + to;
        std::string copy(static_cast<std::size_t>(st.st_size), '\0');
        if (::pread(src.get(), copy.data(), copy.size(), 0) != static_cast<ssize_t>(copy.size())) return "cannot read " + to;
        total += copy.size();
        if (total > limits.max_total_bytes)
            return "more than " + std::to_string(limits.max_total_bytes) + " bytes unpacked in all (a decompression bomb?)";
        if (!detail::write_new_file(root.get(), path, copy, (st.st_mode & 0100) != 0)) return "cannot write " + path;
        if (written) *written = total;
    }
    return {};
}

/// The archive formats pack_archive() writes.
enum class archive_format
{
    tar_gz,
    zip
};

/** `members` as one archive in memory, the same bytes for the same members: sorted by
    path, times zero, owner root, modes 0644 or 0755, folders implied by paths, no gzip
    timestamp or name. Empty (and `why`) on failure.
*/
inline std::string pack_archive(std::vector<archive_member> members, archive_format format, std::string& why)
{
    std::sort(members.begin(), members.end(), [](auto const& x, auto const& y) { return x.path < y.path; });
    struct writer_deleter
    {
        void operator()(struct archive* a) const noexcept
        {
            if (archive_write_free(a) != ARCHIVE_OK) {}
        }
    };
    std::unique_ptr<struct archive, writer_deleter> a(archive_write_new());
    std::string out;
    if (!a) {
        why = "libarchive could not start";
        return {};
    }
    if (format == archive_format::tar_gz) {
        archive_write_set_format_pax_restricted(a.get());
        archive_write_add_filter_gzip(a.get());
        archive_write_set_options(a.get(), "gzip:!timestamp");
    } else {
        archive_write_set_format_zip(a.get());
    }
    auto const on_write = [](struct archive*, void* self, void const* data, std::size_t n) -> la_ssize_t {
        static_cast<std::string*>(self)->append(static_cast<char const*>(data), n);
        return static_cast<la_ssize_t>(n);
    };
    archive_write_set_bytes_in_last_block(a.get(), 1);
    if (archive_write_open(a.get(), &out, nullptr, on_write, nullptr) != ARCHIVE_OK) {
        why = detail::error_of(a.get());
        return {};
    }
    std::unique_ptr<struct archive_entry, decltype(&archive_entry_free)> e(archive_entry_new(), &archive_entry_free);
    for (auto const& m : members) {
        if (!skillmd::detail::plain_relative_path(m.path)) {
            why = "not a plain relative path: " + m.path;
            return {};
        }
        archive_entry_clear(e.get());
        archive_entry_set_pathname(e.get(), m.path.c_str());
        archive_entry_set_filetype(e.get(), AE_IFREG);
        archive_entry_set_perm(e.get(), m.executable ? 0755 : 0644);
        archive_entry_set_size(e.get(), static_cast<la_int64_t>(m.bytes.size()));
        archive_entry_set_mtime(e.get(), 0, 0);
        if (archive_write_header(a.get(), e.get()) != ARCHIVE_OK ||
            archive_write_data(a.get(), m.bytes.data(), m.bytes.size()) != static_cast<la_ssize_t>(m.bytes.size())) {
            why = "cannot archive " + m.path + ": " + detail::error_of(a.get());
            return {};
        }
    }
    if (archive_write_close(a.get()) != ARCHIVE_OK) {
        why = detail::error_of(a.get());
        return {};
    }
    return out;
}

} // namespace skillmd::packages

#endif
