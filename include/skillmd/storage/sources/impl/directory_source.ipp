// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_STORAGE_SOURCES_IMPL_DIRECTORY_SOURCE_IPP
#define SKILLMD_STORAGE_SOURCES_IMPL_DIRECTORY_SOURCE_IPP

// directory_source: the walk (openat, one listing per folder, on up to four threads),
// contained reads, bundled files and inotify watches.

#include <skillmd/storage/sources/directory_source.hpp>
#include <skillmd/detail/block_list.hpp>
#include <skillmd/detail/contained.hpp>
#include <skillmd/detail/hex.hpp>
#include <skillmd/detail/read_file.hpp>
#include <skillmd/detail/utf8.hpp>
#include <skillmd/frontmatter/split.hpp>

#include <boost/filesystem/directory.hpp>
#include <boost/filesystem/operations.hpp>
#include <boost/system/error_code.hpp>
#include <boost/unordered/unordered_flat_set.hpp>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <system_error>
#include <thread>
#include <utility>

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__linux__)
#include <linux/openat2.h>
#endif

#if defined(__SANITIZE_THREAD__)
#define SKILLMD_THREAD_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define SKILLMD_THREAD_SANITIZER 1
#endif
#endif

namespace skillmd {

namespace detail {

/// The path of the file open on `fd`, as the kernel knows it (no race with a link swap),
/// else `fallback` resolved. path_of_descriptor reads the calling thread's table: a helper
/// of the walk has a table of its own (see posix_walk::own_table).
SKILLMD_DECL std::string opened_path(int fd, std::string const& fallback)
{
    auto path = path_of_descriptor(fd);
    return path.empty() ? real_path(fallback) : path;
}

/// How a skill file is opened: read only, never as a controlling terminal, and without
/// blocking on a FIFO (which the type check then refuses).
inline constexpr int read_flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY;

/// True for an absolute path with no `.` or `..` component and no empty one: if no
/// component is a link, the file it opens is at exactly this path.
SKILLMD_DECL bool lexically_plain(std::string_view p) noexcept
{
    if (p.empty() || p.front() != '/') return false;
    for (std::size_t i = 0; i < p.size();) {
        std::size_t const next = std::min(p.find('/', i + 1), p.size());
        std::string_view const part = p.substr(i + 1, next - i - 1);
        if (part.empty() || part == "." || part == "..") return false;
        i = next;
    }
    return true;
}

/// Opens `path` (relative to the folder open on `at`) for reading only if no component of
/// it is a symbolic link (Linux's openat2 with RESOLVE_NO_SYMLINKS): then the file's real
/// path is `path` itself and a containment check needs no readlink. -1 on any failure,
/// the kernel's lack of openat2 included; the caller then opens the usual way.
/// `same_mount` also refuses a path that crosses a mount point (EXDEV).
SKILLMD_DECL int open_without_links(char const* path, int at = AT_FDCWD, bool same_mount = false) noexcept
{
#if defined(__linux__) && defined(SYS_openat2)
    static std::atomic<bool> unavailable{false};
    if (unavailable.load(std::memory_order_relaxed)) {
        errno = ENOSYS;
        return -1;
    }
    struct open_how how {};
    how.flags = read_flags;
    how.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS | (same_mount ? RESOLVE_NO_XDEV : 0);
    long const fd = ::syscall(SYS_openat2, at, path, &how, sizeof how);
    if (fd < 0 && (errno == ENOSYS || errno == EPERM)) unavailable.store(true, std::memory_order_relaxed);
    return fd < 0 ? -1 : static_cast<int>(fd);
#else
    (void)path;
    (void)at;
    (void)same_mount;
    errno = ENOSYS;
    return -1;
#endif
}

/// What a read must check besides size and type.
struct read_checks
{
    std::vector<std::string> const* roots = nullptr; ///< the file must resolve inside one of these
    file_stamp const* expected = nullptr;            ///< the file must be this one (device and inode), when known
};

SKILLMD_DECL file_stamp stamp_of(struct stat const& st)
{
    return {static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino),
            static_cast<std::uint64_t>(st.st_size),
            static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec,
            static_cast<std::int64_t>(st.st_ctim.tv_sec) * 1000000000 + st.st_ctim.tv_nsec};
}

/// A name that may become a command or reach a prompt: UTF-8, no control characters.
SKILLMD_DECL bool printable_name(std::string_view name)
{
    if (find_invalid_utf8(name) != std::string_view::npos) return false;
    for (char const ch : name) {
        auto const c = static_cast<unsigned char>(ch);
        if (c < 0x20 || c == 0x7f) return false;
    }
    return true;
}

SKILLMD_DECL std::string escaped(std::string_view s)
{
    std::string out;
    for (char const ch : s) {
        auto const c = static_cast<unsigned char>(ch);
        if (c < 0x20 || c == 0x7f || c >= 0x80) {
            out += "\\x";
            append_hex_byte(out, c);
        } else {
            out += static_cast<char>(c);
        }
    }
    return out;
}

/// `a/b` in one allocation (`a + "/" + b` makes two or three: each append may regrow).
SKILLMD_DECL std::string joined(std::string_view a, std::string_view b)
{
    std::string out;
    out.reserve(a.size() + 1 + b.size());
    out.append(a).append(1, '/').append(b);
    return out;
}

SKILLMD_DECL std::size_t inotify_watch_limit(std::size_t limit)
{
    static std::atomic<std::size_t> set{0};
    if (limit != 0) set = limit;
    if (std::size_t const given = set; given != 0) return given;
    static std::size_t const kernel = [] {
        char text[32] = {};
        std::size_t n = 0;
        if (int const fd = ::open("/proc/sys/fs/inotify/max_user_watches", O_RDONLY | O_CLOEXEC); fd >= 0) {
            if (::read(fd, text, sizeof text - 1) > 0) n = static_cast<std::size_t>(std::strtoull(text, nullptr, 10));
            ::close(fd);
        }
        return n ? n : std::size_t{8192};
    }();
    return kernel;
}

/// How many directory tiers of this process watch some skill files by their folders alone
/// (past half the watch limit): while none does, every skill file's every name in a tier
/// has a watch of its own.
SKILLMD_DECL std::atomic<int>& tiers_past_watch_budget()
{
    static std::atomic<int> tiers{0};
    return tiers;
}

/// `skill.md`, `Skill.md` ...: SKILL.md in another case.
SKILLMD_DECL bool is_skill_md_variant(std::string_view n)
{
    return n.size() == 8 && n != "SKILL.md" && ascii_lower(n) == "skill.md";
}

/// The file open on `fd` as read_regular() reads it, its stamp in `r`: false (and why)
/// when it is not a regular file, which is refused by type, not by name.
SKILLMD_DECL bool stat_regular(int fd, struct stat& st, read_outcome& r)
{
    if (::fstat(fd, &st) != 0) {
        r.error = std::strerror(errno);
        return false;
    }
    if (!S_ISREG(st.st_mode)) {
        r.error = "not a regular file";
        return false;
    }
    r.stamp = stamp_of(st);
    return true;
}

/// Reads the regular file open on `fd`, of `size` bytes by its fstat, into `r`: all of it,
/// or (`head`) until its frontmatter block is complete.
SKILLMD_DECL void read_text(int fd, std::size_t size, std::size_t max_bytes, bool head, read_outcome& r)
{
    if (size > max_bytes) {
        r.error = "larger than the limit of " + std::to_string(max_bytes) + " bytes";
        return;
    }
    // The size is known: one read does for a small file. A head read stops at 4 KB and
    // goes on only while the frontmatter block is still open.
    // The first `got` bytes of `text` are the file's; the rest is room (the last text's
    // bytes, read over rather than zeroed first: a memset of every file's size).
    std::string text = take_text();
    std::size_t want = head ? std::min<std::size_t>(size, 4096) : size, got = 0;
    for (;;) {
        std::size_t const room = std::max(want, got + 1);
        if (text.size() < room) text.resize(room);
        ssize_t const n = ::read(fd, text.data() + got, room - got);
        if (n < 0) {
            if (errno == EINTR) continue;
            r.error = std::strerror(errno);
            return;
        }
        got += static_cast<std::size_t>(n);
        if (n == 0 || got >= size) {
            r.complete = true; // end of file, or all `size` bytes read
            break;
        }
        if (got > max_bytes) {
            r.error = "larger than the limit of " + std::to_string(max_bytes) + " bytes";
            return;
        }
        if (head && got >= want) {
            auto const s = frontmatter::split(std::string_view(text.data(), got), {});
            bool const unclosed = !s.diagnostics.empty() && s.diagnostics[0].code == codes::frontmatter_unclosed;
            if (s.has_frontmatter || !unclosed) break;
            want = std::min(size, want * 2);
        }
    }
    text.resize(got);
    r.text = std::move(text);
}

/// Reads a regular file: all of it, or (with `head`) until the frontmatter block is
/// complete. FIFOs and devices are refused by type on the opened descriptor; `checks`
/// keep the read inside the tier and on the file that was loaded.
SKILLMD_DECL read_outcome read_regular(std::string const& path, std::size_t max_bytes, bool head, read_checks checks = {})
{
    read_outcome r;
    bool const contained = checks.roots && !checks.roots->empty();
    // A path inside the roots as written, opened with no link on the way, is inside them:
    // the kernel's word replaces the readlink of /proc/thread-self/fd (a tenth of a load).
    int fd = contained && lexically_plain(path) && within(path, *checks.roots) ? open_without_links(path.c_str()) : -1;
    // Otherwise a link on the way may lead anywhere: the file is first opened as a place
    // only (O_PATH opens no FIFO or device, so nothing outside the roots is touched), its
    // place and type checked, then opened for reading through that descriptor, so the
    // file read is the file checked.
    bool const place_first = contained && fd < 0;
    if (fd < 0) fd = ::open(path.c_str(), place_first ? O_PATH | O_CLOEXEC : read_flags);
    if (fd < 0) {
        int const err = errno;
        struct stat lst {};
        bool const dangling = err == ENOENT && ::lstat(path.c_str(), &lst) == 0 && S_ISLNK(lst.st_mode);
        r.absent = (err == ENOENT || err == ENOTDIR) && !dangling;
        r.error = dangling ? "broken symbolic link" : err == ENXIO ? "not a regular file" : std::strerror(err);
        return r;
    }
    unique_fd const guard(fd);
    if (place_first) {
        std::string const real = opened_path(fd, path);
        if (!within(real, *checks.roots)) {
            r.error = "it leads outside the tier's folders (to " + escaped(real) + "); not read";
            return r;
        }
    }
    struct stat st {};
    if (!stat_regular(fd, st, r)) return r;
    int readable = fd;
    unique_fd reopened;
    if (place_first) {
        reopened = unique_fd(reopen_to_read(fd, st, path));
        if (!reopened) {
            r.error = errno == ESTALE ? "it was replaced while it was opened; not read" : std::strerror(errno);
            return r;
        }
        readable = reopened.get();
        r.stamp = stamp_of(st);
    }
    if (checks.expected && checks.expected->inode != 0 && !checks.expected->same_file(r.stamp)) {
        r.error = "a different file is there now than the one loaded; refresh the registry first";
        return r;
    }
    read_text(readable, static_cast<std::size_t>(st.st_size), max_bytes, head, r);
    return r;
}

/// What a directory's listing says an entry is, before any link is followed.
enum class entry_type : std::uint8_t { regular, directory, link, special, unknown };

/// One entry of a directory's listing. Names in one directory differ, so they order it.
struct listed
{
    std::string name;
    entry_type type = entry_type::unknown;
    std::uint64_t inode = 0; ///< the listing's inode number (posix_walk); 0 when not known
    friend bool operator<(listed const& a, listed const& b) noexcept { return a.name < b.name; }
};

/** Puts a listing in name order, as `std::sort` by `operator<` does. A tier's root may
    list thousands of folders, and sorting them is part of a load that no other thread can
    share: there, each name's first sixteen bytes become two integers whose order is the
    bytes' order (big-endian, zero after the name's end: a name holds no NUL), so most
    comparisons are two integer compares instead of a call to memcmp, and the entries move
    once, at the end, instead of at every swap. Names equal in those bytes are compared
    from the seventeenth byte on.
*/
inline void sort_listing(std::vector<listed>& names)
{
    if (names.size() < 64) {
        std::sort(names.begin(), names.end());
        return;
    }
    struct key
    {
        std::uint64_t high = 0, low = 0;
        std::size_t at = 0;
    };
    std::vector<key> keys(names.size());
    for (std::size_t i = 0; i < names.size(); ++i) {
        std::string const& n = names[i].name;
        auto byte = [&](std::size_t k) -> std::uint64_t { return k < n.size() ? static_cast<unsigned char>(n[k]) : 0u; };
        for (std::size_t k = 0; k < 8; ++k) keys[i].high = keys[i].high << 8 | byte(k);
        for (std::size_t k = 8; k < 16; ++k) keys[i].low = keys[i].low << 8 | byte(k);
        keys[i].at = i;
    }
    auto const rest = [&](key const& k) {
        std::string_view const n = names[k.at].name;
        return n.substr(std::min<std::size_t>(16, n.size()));
    };
    std::sort(keys.begin(), keys.end(), [&](key const& a, key const& b) {
        if (a.high != b.high) return a.high < b.high;
        if (a.low != b.low) return a.low < b.low;
        return rest(a) < rest(b);
    });
    std::vector<listed> sorted;
    sorted.reserve(names.size());
    for (key const& k : keys) sorted.push_back(std::move(names[k.at]));
    names.swap(sorted);
}

/// An entry with its links followed.
struct followed_entry
{
    int error = 0;       ///< 0, or the errno of the failure
    std::string message; ///< the failure, for a diagnostic
    bool is_dir = false;
    bool is_reg = false;
};

/// The walk over POSIX calls relative to an open directory (openat, getdents64, fstatat),
/// so a link swapped mid-walk cannot redirect it; a directory is known by device and inode.
struct posix_walk
{
    using id = std::pair<std::uint64_t, std::uint64_t>;
    /// What the walk may trust of a folder's file system.
    struct trust
    {
        /// getdents64 stops short of a full buffer only at the folder's end (see list()).
        bool fills = false;
        /// A listed folder's inode number is its own (`stat`'s), unless it is a mount point.
        bool inode_names = false;
    };
    struct dir
    {
        int fd = -1;
        std::uint64_t device = 0;
        trust fs;
    };

    /// ext2/3/4, tmpfs and XFS emit entries until the buffer refuses one, and list a
    /// folder by its own inode number; Btrfs fills the buffer too, but a subvolume inside
    /// a folder has a device and inode numbers of its own. Others (FUSE, NFS, CIFS,
    /// overlays) may return part of a listing and more on the next call, or list other
    /// numbers than `stat` gives: their folders are read until a call returns 0, and
    /// each is known by an fstat.
    static trust trust_of(int fd)
    {
        struct statfs fs {};
        if (::fstatfs(fd, &fs) != 0) return {};
        switch (static_cast<unsigned long>(fs.f_type)) {
        case 0xEF53UL:     // ext2, ext3, ext4
        case 0x01021994UL: // tmpfs
        case 0x58465342UL: // XFS
            return {true, true};
        case 0x9123683EUL: // Btrfs
            return {true, false};
        default:
            return {};
        }
    }
    using listing = std::vector<listed>;

    /// The folder open on `fd`, whose `fstat` gave `st`: on `parent`'s device it shares
    /// the parent's file system and what may be trusted of it; otherwise that is asked.
    static dir described(int fd, struct stat const& st, dir const* parent)
    {
        auto const device = static_cast<std::uint64_t>(st.st_dev);
        return dir{fd, device, parent && device == parent->device ? parent->fs : trust_of(fd)};
    }

    static std::optional<dir> open_root(std::string const& path, int& error, std::string& message)
    {
        int const fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0) {
            error = errno;
            message = std::strerror(error);
            return std::nullopt;
        }
        struct stat st {};
        if (::fstat(fd, &st) != 0) return dir{fd, 0, {}};
        return described(fd, st, nullptr);
    }
    static id id_of(dir const& d)
    {
        struct stat st {};
        ::fstat(d.fd, &st);
        return {static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino)};
    }
    /// The entries but `.` and `..`; false (and why) when the directory cannot be listed;
    /// `partial` says why the listing may be incomplete. getdents64 on the descriptor the
    /// walk opened (O_DIRECTORY): fdopendir would add an fstat and two fcntl calls per
    /// directory, a fifth of a load's system calls. The buffer is per thread: a listing is
    /// complete before the walk goes down into it. On a file system that `fills` the
    /// buffer, a call that left room for the longest entry reached the end, and the call
    /// that would return 0 is saved: a tenth of a skill folder's system calls.
    static bool list(dir& d, listing& names, std::string& error, std::string& partial)
    {
        constexpr std::size_t size = 32768;
        // The longest entry: its 19-byte header, a 255-byte name and its NUL, rounded to 8.
        constexpr std::size_t longest = (19 + 255 + 1 + 7) / 8 * 8;
        thread_local std::unique_ptr<char[]> buf(new char[size]);
        bool first = true;
        for (;;) {
            ssize_t const n = ::getdents64(d.fd, buf.get(), size);
            if (n < 0) {
                if (errno == EINTR) continue;
                if (first) {
                    error = std::strerror(errno);
                    return false;
                }
                partial = std::strerror(errno);
                return true;
            }
            if (n == 0) return true;
            first = false;
            for (ssize_t at = 0; at < n;) {
                auto const* e = reinterpret_cast<struct dirent64 const*>(buf.get() + at);
                at += e->d_reclen;
                std::string_view const nm = e->d_name;
                if (nm == "." || nm == "..") continue;
                entry_type t = entry_type::unknown;
                switch (e->d_type) {
                case DT_REG: t = entry_type::regular; break;
                case DT_DIR: t = entry_type::directory; break;
                case DT_LNK: t = entry_type::link; break;
                case DT_FIFO: case DT_SOCK: case DT_CHR: case DT_BLK: t = entry_type::special; break;
                default: break;
                }
                names.push_back({std::string(nm), t, static_cast<std::uint64_t>(e->d_ino)});
            }
            if (d.fs.fills && static_cast<std::size_t>(n) + longest <= size) return true;
        }
    }
    static followed_entry follow(dir const& d, std::string const& name, std::string const&, id* out)
    {
        followed_entry f;
        struct stat st {};
        if (::fstatat(d.fd, name.c_str(), &st, 0) != 0) {
            f.error = errno;
            f.message = std::strerror(f.error);
            return f;
        }
        f.is_dir = S_ISDIR(st.st_mode);
        f.is_reg = S_ISREG(st.st_mode);
        if (out) *out = {static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino)};
        return f;
    }
    /// Folders the listing gives as folders are opened before they are checked, and known
    /// by their listing or their descriptor (`open_listed`), which costs less than a
    /// second lookup of the name.
    static constexpr bool opens_listed_folders = true;
    /// Opens the folder `e` of `d`, following no link, and gives its identity; nothing
    /// (and `error`) when it is gone, no longer a folder, or closed to us. Where the
    /// listing's inode number is the folder's own, and the open stays on the parent's
    /// mount (openat2's RESOLVE_NO_XDEV refuses a mount point), the folder is the
    /// parent's device and that number; otherwise an fstat of the descriptor says.
    static std::optional<dir> open_listed(dir const& d, listed const& e, id& out, int& error)
    {
#if defined(__linux__) && defined(SYS_openat2)
        static std::atomic<bool> unavailable{false}; // openat2 missing or refused (seccomp)
        if (auto const by_listing = listed_id(d, e); by_listing && !unavailable.load(std::memory_order_relaxed)) {
            struct open_how how {};
            how.flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
            how.resolve = RESOLVE_NO_XDEV | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
            long const fd = ::syscall(SYS_openat2, d.fd, e.name.c_str(), &how, sizeof how);
            if (fd >= 0) {
                out = *by_listing;
                return dir{static_cast<int>(fd), d.device, d.fs};
            }
            if (errno == ENOSYS || errno == EPERM) unavailable.store(true, std::memory_order_relaxed);
            else if (errno != EXDEV) { // a mount point takes the way below
                error = errno;
                return std::nullopt;
            }
        }
#endif
        int const fd = ::openat(d.fd, e.name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0) {
            error = errno;
            return std::nullopt;
        }
        struct stat st {};
        if (::fstat(fd, &st) != 0) {
            error = errno;
            ::close(fd);
            return std::nullopt;
        }
        out = {static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino)};
        return described(fd, st, &d);
    }
    /// The folder `e` of `d` by its listing, where that names it as `stat` would: not a
    /// mount point, which the caller makes sure of (an open that refused to cross one).
    static std::optional<id> listed_id(dir const& d, listed const& e) noexcept
    {
        if (!d.fs.inode_names || e.inode == 0 || e.type != entry_type::directory) return std::nullopt;
        return id{d.device, e.inode};
    }
    /// Opens a folder reached through a link (or a listing without types); what its file
    /// system may be trusted with is asked once here, and its own folders inherit it.
    static std::optional<dir> open_child(dir const& d, std::string const& name, std::string const&, std::string& error)
    {
        int const fd = ::openat(d.fd, name.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0) {
            error = std::strerror(errno);
            return std::nullopt;
        }
        struct stat st {};
        if (::fstat(fd, &st) != 0) return dir{fd, 0, {}};
        return described(fd, st, &d);
    }
    static void release(dir& d)
    {
        if (d.fd >= 0) ::close(d.fd);
        d = {};
    }
    /// Called first on a helper thread of the walk: from here on the thread has a table of
    /// descriptors of its own (a copy of the process's), so its opens and closes no longer
    /// take turns with the other walkers' at the table's lock, and it uses its descriptors
    /// without counting references. With two walkers that saves a tenth of the walk's CPU.
    /// The copy holds the process's other files open until the thread exits, just after
    /// the walk. Where the kernel refuses (seccomp), the table stays shared; the walk is
    /// the same either way, as no descriptor passes from one walker to another.
    /// Not under ThreadSanitizer, which knows a descriptor by its number in one table for
    /// the whole process: two tables' descriptor 7 would look like one raced over.
    static void own_table() noexcept
    {
#if defined(__linux__) && defined(CLONE_FILES) && !defined(SKILLMD_THREAD_SANITIZER)
        (void)::unshare(CLONE_FILES);
#endif
    }
    /// A descriptor for the walk's whole life, from which helpers open folders others
    /// listed (reopen()): opened before any helper starts, so every table holds it.
    static dir anchor_of(dir const& root)
    {
        return dir{::fcntl(root.fd, F_DUPFD_CLOEXEC, 0), root.device, root.fs};
    }
    /// The folder `listed` (at `rel` below `anchor`, known as `expected`), which another
    /// walker opened and listed: opened again here, as its descriptor is not this table's.
    /// Nothing when the path now leads elsewhere (changed during the walk) or cannot be
    /// opened; the caller then walks again on one thread.
    static std::optional<dir> reopen(dir const& anchor, dir const& listed, std::string const& rel, id const& expected)
    {
        if (anchor.fd < 0) return std::nullopt;
        int const fd = ::openat(anchor.fd, rel.empty() ? "." : rel.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0) return std::nullopt;
        struct stat st {};
        if (::fstat(fd, &st) != 0 ||
            id{static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino)} != expected) {
            ::close(fd);
            return std::nullopt;
        }
        return dir{fd, listed.device, listed.fs};
    }
    /// Reads the file `name` (from a listing: no `..`) below the open folder `d` as
    /// read_head() reads a file by its path. A link on the way, a kernel without openat2,
    /// or a file that cannot be read gives no text: read_head() is left to say why.
    /// `same_mount` refuses a path through a mount point; `opened` is then the open's
    /// errno (0: it opened).
    static read_outcome read_in(dir const& d, std::string const& name, std::size_t max_bytes, bool same_mount = false,
                                int* opened = nullptr)
    {
        read_outcome r;
        int const fd = open_without_links(name.c_str(), d.fd, same_mount);
        if (opened) *opened = fd < 0 ? errno : 0;
        if (fd < 0) return r;
        struct closer { int fd; ~closer() { ::close(fd); } } const guard{fd};
        struct stat st {};
        if (stat_regular(fd, st, r)) read_text(fd, static_cast<std::size_t>(st.st_size), max_bytes, true, r);
        return r;
    }
};

/// The walk over Boost.Filesystem (iteration and status by path), for platforms without
/// openat or inotify; a directory is known by its canonical path. It gives the same
/// discovery as posix_walk on the same tree (a test holds them to it).
struct boost_walk
{
    static constexpr bool opens_listed_folders = false;
    using id = std::string;
    using listing = std::vector<listed>;
    struct dir
    {
        std::string path;
        listing names; // read when the directory is opened, as openat would refuse it then
        std::string partial;
    };
    /// Its listings give no inode numbers: a folder is known by its canonical path.
    static std::optional<id> listed_id(dir const&, listed const&) noexcept { return std::nullopt; }

    static entry_type type_of(boost::filesystem::file_type t)
    {
        switch (t) {
        case boost::filesystem::regular_file: return entry_type::regular;
        case boost::filesystem::directory_file: return entry_type::directory;
        case boost::filesystem::symlink_file: return entry_type::link;
        case boost::filesystem::block_file:
        case boost::filesystem::character_file:
        case boost::filesystem::fifo_file:
        case boost::filesystem::socket_file: return entry_type::special;
        default: return entry_type::unknown;
        }
    }
    static std::optional<dir> read(std::string const& path, int& error, std::string& message)
    {
        boost::system::error_code ec;
        boost::filesystem::directory_iterator it(path, ec);
        if (ec) {
            error = ec.value();
            message = ec.message();
            return std::nullopt;
        }
        dir d;
        d.path = path;
        for (boost::filesystem::directory_iterator const end; it != end; it.increment(ec)) {
            if (ec) break;
            d.names.push_back({it->path().filename().string(), type_of(it->symlink_status().type())});
        }
        if (ec) d.partial = ec.message();
        return d;
    }
    static std::optional<dir> open_root(std::string const& path, int& error, std::string& message)
    {
        return read(path, error, message);
    }
    static id id_of(dir const& d)
    {
        boost::system::error_code ec;
        return boost::filesystem::canonical(d.path, ec).string();
    }
    static bool list(dir& d, listing& names, std::string&, std::string& partial)
    {
        names = std::move(d.names);
        partial = d.partial;
        return true;
    }
    static followed_entry follow(dir const&, std::string const&, std::string const& full, id* out)
    {
        followed_entry f;
        boost::system::error_code ec;
        auto const st = boost::filesystem::status(full, ec);
        if (ec || st.type() == boost::filesystem::file_not_found) {
            f.error = ec ? ec.value() : ENOENT;
            f.message = ec ? ec.message() : std::strerror(ENOENT);
            return f;
        }
        f.is_dir = st.type() == boost::filesystem::directory_file;
        f.is_reg = st.type() == boost::filesystem::regular_file;
        if (out && f.is_dir) *out = boost::filesystem::canonical(full, ec).string(); // only folders are walked
        return f;
    }
    static std::optional<dir> open_child(dir const&, std::string const&, std::string const& full, std::string& error)
    {
        int e = 0;
        return read(full, e, error);
    }
    static void release(dir&) {}
};

/// Part of one walker's skills that follow one another in the walk's order.
struct candidate_run
{
    block_list<candidate>* in;
    std::size_t first, last;
};

/// The walkers' runs, ordered by their first skill, moved into one list: the walk's order
/// back. `in_order` says each run's skills are in command order; it stays true only if
/// the runs also meet in order, the last of each before the first of the next.
SKILLMD_DECL std::vector<candidate> join_runs(std::vector<candidate_run> runs, std::size_t total, bool& in_order)
{
    std::sort(runs.begin(), runs.end(), [](candidate_run const& a, candidate_run const& b) {
        return (*a.in)[a.first].command < (*b.in)[b.first].command;
    });
    for (std::size_t i = 1; i < runs.size() && in_order; ++i)
        in_order = !((*runs[i].in)[runs[i].first].command < (*runs[i - 1].in)[runs[i - 1].last - 1].command);
    std::vector<candidate> out;
    out.reserve(total);
    for (auto const& r : runs)
        for (std::size_t i = r.first; i < r.last; ++i) out.push_back(std::move((*r.in)[i]));
    return out;
}

/// A folder the walk holds open, released on every way out unless handed on (`release()`).
template <class Fs>
class dir_guard
{
public:
    dir_guard() = default;
    explicit dir_guard(std::optional<typename Fs::dir> d) noexcept : d_(std::move(d)) {}
    dir_guard(dir_guard const&) = delete;
    dir_guard& operator=(dir_guard const&) = delete;
    ~dir_guard()
    {
        if (d_) Fs::release(*d_);
    }
    /// Holds `d` (and releases what it held).
    void hold(typename Fs::dir d)
    {
        if (d_) Fs::release(*d_);
        d_ = std::move(d);
    }
    explicit operator bool() const noexcept { return d_.has_value(); }
    typename Fs::dir& operator*() noexcept { return *d_; }
    /// The folder, no longer released here: whoever takes it releases it.
    typename Fs::dir release() noexcept
    {
        typename Fs::dir out = std::move(*d_);
        d_.reset();
        return out;
    }

private:
    std::optional<typename Fs::dir> d_;
};

/// The lines of /proc/self/mountinfo, or nothing when it cannot be read whole (no
/// descriptor left, or larger than a table of some hundred thousand mounts).
SKILLMD_DECL std::optional<std::vector<std::string>> mount_table()
{
    int const fd = ::open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return std::nullopt;
    constexpr std::size_t cap = std::size_t{32} << 20, step = 65536;
    std::string text;
    ssize_t n = 0;
    do {
        std::size_t const had = text.size();
        text.resize(had + step);
        n = ::read(fd, text.data() + had, step);
        text.resize(had + static_cast<std::size_t>(std::max<ssize_t>(n, 0)));
    } while (n > 0 && text.size() <= cap);
    ::close(fd);
    if (n < 0 || text.size() > cap || text.empty()) return std::nullopt;
    std::vector<std::string> lines;
    for (std::size_t at = 0; at < text.size();) {
        std::size_t const end = std::min(text.find('\n', at), text.size());
        lines.emplace_back(text, at, end - at);
        at = end + 1;
    }
    return lines;
}

/// The mounts of `table` at, above or below `root` (an absolute, normal path): the only
/// ones that change what a tier with no links reads. A mount point is the fifth field,
/// with space, tab, newline and backslash written as octal escapes.
SKILLMD_DECL std::vector<std::string> mounts_near(std::vector<std::string> const& table, std::string const& root)
{
    std::vector<std::string> out;
    for (auto const& line : table) {
        std::size_t at = 0;
        for (int field = 0; field < 4 && at != std::string::npos; ++field) {
            at = line.find(' ', at);
            if (at != std::string::npos) ++at;
        }
        if (at == std::string::npos) { // not a line of the format known: it counts
            out.push_back(line);
            continue;
        }
        std::string point;
        for (; at < line.size() && line[at] != ' '; ++at) {
            if (line[at] == '\\' && at + 3 < line.size() && std::all_of(line.begin() + static_cast<std::ptrdiff_t>(at) + 1,
                                                                         line.begin() + static_cast<std::ptrdiff_t>(at) + 4,
                                                                         [](char c) { return c >= '0' && c <= '7'; })) {
                point += static_cast<char>(((line[at + 1] - '0') << 6) | ((line[at + 2] - '0') << 3) | (line[at + 3] - '0'));
                at += 3;
            } else {
                point += line[at];
            }
        }
        if (!point.empty() && (within(root, point) || within(point, root))) out.push_back(line);
    }
    std::sort(out.begin(), out.end());
    return out;
}

/// Where a link leads: its target's canonical path, identity and kind (all empty:
/// nowhere). A link's target can be renamed, or a link on its way pointed elsewhere, with
/// no event in the tier; comparing what it leads to now with what a walk saw tells. The
/// kind too: a file removed and a folder made in its place may get its inode number.
struct seen_link
{
    std::string real;
    dev_t device = 0;
    ino_t inode = 0;
    mode_t kind = 0;
    bool operator==(seen_link const&) const = default;
};

inline seen_link seen_link_of(std::string const& path)
{
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return {};
    return {real_path(path), st.st_dev, st.st_ino, static_cast<mode_t>(st.st_mode & S_IFMT)};
}

} // namespace detail

struct directory_source::watch_state
{
    std::mutex mutex;
    int fd = -1;
    // The mount table (/proc/self/mountinfo): a mount over a watched folder, or taken off
    // one, changes what a path holds with no inotify event; poll() says the table changed.
    int mounts = -1;
    // The table as last read (unknown: read it again at the next watch), and its lines
    // that bear on the tier: mounts at, above or below `scope`, the root's real path.
    // Where the tier has links (or no root yet), `scope` is empty and every mount counts.
    std::vector<std::string> mount_table;
    bool table_known = false;
    std::string scope;
    std::vector<std::string> near_mounts;
    // Skill files were read since the last look at the table (a walk, or paths changes()
    // gave): a mount made and taken off meanwhile may have been read through, and leaves
    // the table as it was, so any change of the table walks.
    bool read_since = true;
    bool broken = false, complete = false, changed = false;
    bool every_file = false; // each skill file has a watch of its own (they fit in the kernel's limit)
    bool past_budget = false; // not every_file since a watch: counted in tiers_past_watch_budget
    // The last walk said something, or met links it cannot follow at each look (in the
    // files layout, any; past `most_links`, too many): one path's change may then change
    // what another leads to, and any entry made or removed is left to a walk.
    bool linked = false;
    // The last walk listed a symbolic link (other than a SKILL.md): what it leads to may
    // lie under any mount.
    bool met_link = false;
    // Flat and nested: the links the walk went through and where each led, as the walk
    // found them (`walk_links`, handed to the next watch()) and as changes() has followed
    // them since. Each look asks again where they lead (a link on the way pointed
    // elsewhere, a folder on the way renamed: no event in the tier says so). A flat tier
    // meets all its links at the root, and a nested one in any walked folder: those made
    // or removed are followed without a walk where the walk would follow them in silence.
    // Past `most_links` the walk is cheaper.
    std::map<std::string, detail::seen_link> links, walk_links;
    static constexpr std::size_t most_links = 128;
    struct watched_inode
    {
        int wd = -1;
        dev_t device = 0;
        ino_t inode = 0;
    };
    std::map<std::string, watched_inode> watched; // path -> its watch, and what the path named when it was set
    std::map<int, std::vector<std::string>> paths; // watch descriptor -> watched paths
    std::set<int> retired; // watches taken off: what they still report is old news
    // The path the tier's watches hang from: the root, or while it does not exist its
    // nearest existing ancestor. A folder above it renamed or replaced leaves the path to
    // another folder (or to none) with no event below, so each look asks what it names.
    std::string anchor;
    // What the last walk saw, for telling which events change what a walk would find.
    std::set<std::string> files;   // the skill files (candidates' paths)
    std::set<std::string> walked;  // the folders the walk listed
    std::set<std::string> skill_dirs; // the candidates' folders
    std::set<std::string> noted;   // paths the walk said something about
    // Nested: skill files handed to the registry as gone (below a folder or link dropped)
    // since the walk. The registry reads each by its path, and a link on the way pointed
    // back meanwhile (a folder renamed back) may find one there that no walk listed: each
    // later drop below the same place hands it over again, to be read again.
    std::set<std::string> handed_gone;
    static constexpr std::uint32_t mask = IN_CREATE | IN_DELETE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_FROM |
                                          IN_MOVED_TO | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF;

    void forget(std::map<std::string, watched_inode>::iterator at)
    {
        int const wd = at->second.wd;
        if (auto const p = paths.find(wd); p != paths.end()) {
            std::erase(p->second, at->first);
            if (p->second.empty()) {
                paths.erase(p);
                ::inotify_rm_watch(fd, wd);
                retired.insert(wd);
            }
        }
        watched.erase(at);
    }
    /// Watches `path` unless it is watched already as what it names now (`optional`: it may
    /// not exist). False when the watch is incomplete for it: newly set (what it saw before
    /// is unknown), or not settable.
    bool add(std::string const& path, bool optional)
    {
        if (broken) return false;
        struct stat st {};
        bool const exists = ::stat(path.c_str(), &st) == 0;
        auto const at = watched.find(path);
        if (at != watched.end()) {
            if (exists && at->second.device == st.st_dev && at->second.inode == st.st_ino) return true; // still what it named
            forget(at);
        }
        int const wd = ::inotify_add_watch(fd, path.c_str(), mask);
        if (wd >= 0) {
            retired.erase(wd);
            watched[path] = {wd, st.st_dev, st.st_ino};
            paths[wd].push_back(path);
            return false;
        }
        if (errno == ENOSPC || errno == ENOMEM) broken = true; // out of watches: fall back to checking every file
        return optional && errno == ENOENT;
    }
    /// Whether the anchor's path still names the folder watched there.
    bool anchor_in_place() const
    {
        struct stat st {};
        auto const at = watched.find(anchor);
        return !anchor.empty() && at != watched.end() && ::stat(anchor.c_str(), &st) == 0 && at->second.device == st.st_dev &&
               at->second.inode == st.st_ino;
    }
    /// Takes off the watches of paths not in `keep` (what the last walk listed): a folder
    /// renamed away out of the tree keeps its watch, and what happens there is no change
    /// of the tier's.
    void keep_only(std::set<std::string> const& keep)
    {
        for (auto at = watched.begin(); at != watched.end();) {
            auto const next = std::next(at);
            if (!keep.count(at->first)) forget(at);
            at = next;
        }
    }
    /// Watches the folder `path` as that folder alone, before it is read: false, with no
    /// watch left, when it cannot be watched, or the watch follows a link swapped in
    /// meanwhile, or the kernel had it already under another path (a bind mount). A walk
    /// judges those.
    bool add_alone(std::string const& path)
    {
        add(path, false);
        struct stat st {};
        auto const set = watched.find(path);
        if (set == watched.end()) return false;
        if (::lstat(path.c_str(), &st) == 0 && set->second.inode == st.st_ino && paths[set->second.wd].size() == 1) return true;
        forget(set);
        return false;
    }
    /// A link's watch, set through it on the folder `seen` names: false (and no watch) when
    /// the link leads elsewhere now, or the folder is watched under another path too.
    bool add_followed(std::string const& path, detail::seen_link const& seen)
    {
        add(path, false);
        auto const set = watched.find(path);
        if (set == watched.end()) return false;
        if (set->second.device == seen.device && set->second.inode == seen.inode && paths[set->second.wd].size() == 1) return true;
        forget(set);
        return false;
    }
    /// Flat: the folder `entry` (or a link to one), watched, is a skill folder: its skill
    /// file goes to `edited`, for the registry to read.
    void adopt_folder(std::string const& entry, std::set<std::string>& edited)
    {
        skill_dirs.insert(entry);
        std::string const file = detail::joined(entry, "SKILL.md");
        files.insert(file);
        edited.insert(file);
    }
    /// Flat: the skill folder `entry` (or a link to one) removed or renamed away, or
    /// replaced: its skill file goes to `edited`, where the registry finds it gone or
    /// another; what its watches see from now on is no news.
    void drop_folder(std::string const& entry, std::set<std::string>& edited, std::set<std::string>& leaving)
    {
        std::string const file = detail::joined(entry, "SKILL.md");
        for (auto const& p : {entry, file})
            if (auto const at = watched.find(p); at != watched.end()) forget(at);
        if (skill_dirs.erase(entry) != 0) edited.insert(file);
        files.erase(file);
        leaving.erase(entry);
    }
    /// A walked folder removed or renamed, in the nested layout: it and every folder and
    /// skill file below it leave what the last walk saw, their watches taken off (the
    /// inodes may live on elsewhere). Each skill file goes to `edited`, where the registry
    /// finds it gone; the folders' own word of leaving is answered.
    void drop_below(std::string const& entry, std::set<std::string>& edited, std::set<std::string>& leaving)
    {
        auto const below = [&](std::set<std::string>& in, auto&& each) {
            if (auto const it = in.find(entry); it != in.end()) {
                each(*it);
                in.erase(it);
            }
            std::string const prefix = entry + "/";
            auto it = in.lower_bound(prefix);
            while (it != in.end() && it->starts_with(prefix)) {
                each(*it);
                it = in.erase(it);
            }
        };
        auto const unwatch = [&](std::string const& p) {
            if (auto const at = watched.find(p); at != watched.end()) forget(at);
        };
        below(walked, unwatch);
        below(files, [&](std::string const& f) {
            unwatch(f);
            edited.insert(f);
            handed_gone.insert(f);
        });
        {
            std::string const under = entry + "/";
            for (auto it = handed_gone.lower_bound(under); it != handed_gone.end() && it->starts_with(under); ++it) edited.insert(*it);
        }
        below(skill_dirs, [](std::string const&) {});
        below(leaving, [](std::string const&) {});
        // The links met below it (or it, a link removed): no longer on the tier's way.
        links.erase(entry);
        std::string const prefix = entry + "/";
        for (auto it = links.lower_bound(prefix); it != links.end() && it->first.starts_with(prefix);) it = links.erase(it);
    }
    /// A skill file's own watch, where its folder cannot vouch for it: when every file is
    /// watched, or it is a link (the watch follows it), has a second name, or lies outside
    /// its folder.
    bool add_file(std::string const& path, std::string const& directory, bool optional)
    {
        struct stat st {};
        if (every_file || std::filesystem::path(path).parent_path() != std::filesystem::path(directory) ||
            ::lstat(path.c_str(), &st) != 0 || S_ISLNK(st.st_mode) || st.st_nlink > 1)
            return add(path, optional);
        return true;
    }
    ~watch_state()
    {
        if (past_budget) --detail::tiers_past_watch_budget();
        if (fd >= 0) ::close(fd);
        if (mounts >= 0) ::close(mounts);
    }
    /// Whether a mount that bears on the tier was made, changed or taken off since the last
    /// call (`mounts` is open: see watch()). The table read here is the one the next
    /// watch() judges by: it was read before the walk that follows, so a mount during that
    /// walk shows as a change at the next call.
    bool mounts_changed()
    {
        pollfd p{mounts, POLLPRI, 0};
        if (mounts < 0 || ::poll(&p, 1, 0) <= 0 || (p.revents & (POLLPRI | POLLERR)) == 0) return false;
        auto table = detail::mount_table();
        if (!table) {
            table_known = false;
            return true;
        }
        bool const near = scope.empty() || read_since || detail::mounts_near(*table, scope) != near_mounts;
        mount_table = std::move(*table);
        return near;
    }
};

struct directory_source::roots_state
{
    std::mutex mutex;
    std::shared_ptr<std::vector<std::string> const> resolved;
};

template <class Fs>
struct directory_source::walk_shared
{
    /// Numbers handed to folders as walkers meet them, a batch to a walker at a time (see
    /// walker::count_directory), on a cache line of its own: a count bumped for every
    /// folder passed that line between the cores 10,000 times a load, and with it the
    /// fields below, which every walker reads at every entry.
    alignas(64) std::atomic<std::size_t> directories{0};
    alignas(64) std::atomic<bool> stopped{false};
    std::atomic<bool> timing_dependent{false};
    std::atomic<bool> met_link{false}; ///< a symbolic link among the entries listed (see watch())
    std::mutex links_mutex;
    std::map<std::string, detail::seen_link> links; ///< flat: the root's links, where each led (see watch_state::links)
    std::shared_ptr<std::vector<std::string> const> roots;
    early_reader const* early = nullptr; ///< who takes the files read during the walk, if anyone
    /// Where helpers open the folders whose listings they take (posix_walk::anchor_of).
    typename Fs::dir const* anchor = nullptr;

    /// A folder's listing, part of which one walker gave to another. Each walker opens the
    /// folder itself and closes it when done with its part: a descriptor belongs to one
    /// thread's table (posix_walk::own_table), so `dir` is the giver's, for what it tells
    /// of the folder's file system, not for its descriptor.
    struct shared_listing
    {
        typename Fs::dir dir;
        typename Fs::listing names;
        std::string path, rel;
        typename Fs::id id;
        std::size_t depth = 0;
        shared_listing(typename Fs::dir d, typename Fs::listing n, std::string p, std::string r, typename Fs::id i,
                       std::size_t level)
            : dir(std::move(d)), names(std::move(n)), path(std::move(p)), rel(std::move(r)), id(std::move(i)),
              depth(level)
        {
        }
        shared_listing(shared_listing const&) = delete;
        shared_listing& operator=(shared_listing const&) = delete;
    };
    /// Entries [first, last) of a shared listing, waiting for a walker.
    struct slice
    {
        std::shared_ptr<shared_listing> of;
        std::size_t first = 0, last = 0;
    };
    std::mutex work_mutex;
    std::condition_variable work_ready;
    // Under work_mutex:
    std::vector<slice> work;
    unsigned busy = 0;    ///< walkers at work: while any is, more work may come
    unsigned waiting = 0; ///< walkers waiting for it
    /// More walkers wait than there are parts for them: read without the lock as the
    /// walkers go, as a hint. A part given and not yet taken counts, so a waiter that is
    /// slow to wake is not given part after part meanwhile.
    std::atomic<bool> hungry{false};

    void note_hunger() { hungry.store(waiting > work.size(), std::memory_order_relaxed); }
    void give(slice s)
    {
        {
            std::lock_guard<std::mutex> lock(work_mutex);
            work.push_back(std::move(s));
            note_hunger();
        }
        work_ready.notify_one();
    }
};

template <class Fs>
struct directory_source::walker
{
    using shared_listing = typename walk_shared<Fs>::shared_listing;

    directory_source const& src;
    walk_shared<Fs>* sh;
    discovery out; ///< all but the skills, which are joined from every walker's `skills`
    detail::block_list<candidate> skills = {};
    /// Where this walker's skills stop following one another in the walk's order: after
    /// it gave part of a listing away, and where it took a part given to it.
    std::vector<std::size_t> cuts = {};
    /// The first walker's: starts the others, once the walk has shown it is worth it.
    std::function<void()> start_helpers = {};
    std::size_t entries_seen = 0;
    bool depth_reported = false, count_reported = false;
    /// A listing's vector for each depth, kept for the next folder at that depth: a walk
    /// lists thousands of folders, one level at a time per thread.
    std::vector<typename Fs::listing> spare_listings = {};
    /// No skill came before the one ahead of it in its run by command (see add_candidate):
    /// checked as each is found, while the last one is still in the cache.
    bool in_order = true;
    /// The folders this walker met (open addressing, one insert per folder). Each walker
    /// keeps its own, with no lock between them: a folder two walkers met is found when
    /// the walk ends (discover_with), and either way the walk is then done again on one
    /// thread. A walker meets a folder at most once, so a loop across walkers ends too.
    boost::unordered_flat_set<typename Fs::id> visited = {};

    /// This walker's next folder number, from a batch it took of walk_shared::directories
    /// (1 for the walk's first folder). One walker alone numbers its folders 1, 2, 3...;
    /// with several, batches leave gaps, so a number past a cap may come before the cap is
    /// truly reached: the walk is then done again on one thread, which counts exactly.
    std::size_t count_directory()
    {
        constexpr std::size_t batch = 64;
        if (numbered == numbers_end) {
            numbered = sh->directories.fetch_add(batch, std::memory_order_relaxed);
            numbers_end = numbered + batch;
        }
        return ++numbered;
    }
    std::size_t numbered = 0, numbers_end = 0;

    bool first_visit(typename Fs::id const& id)
    {
        bool const fresh = visited.insert(id).second;
        if (!fresh) sh->timing_dependent = true;
        return fresh;
    }

    void report(std::string const& path, severity sev, std::string_view code, std::string msg)
    {
        out.diagnostics.push_back({std::string(code), sev, detail::escaped(path), 0, 0, std::move(msg)});
    }
    void warn(std::string const& path, std::string msg) { report(path, severity::warning, codes::discovery, std::move(msg)); }

    bool skipped(std::string_view name) const { return src.skipped(name); }

    /// Walks the open directory `dir` (and releases it). `path` is its path (kept in the
    /// discovery's list of folders), `rel` its path below the root.
    void walk(typename Fs::dir dir, std::string path, std::string const& rel, typename Fs::id const& id, std::size_t depth)
    {
        typename Fs::listing names;
        if (depth < spare_listings.size()) names = std::move(spare_listings[depth]); // its room, not its entries
        names.clear();
        std::string error, partial;
        if (!Fs::list(dir, names, error, partial)) {
            warn(path, "cannot list the directory: " + error + "; skipped");
            Fs::release(dir);
            return;
        }
        if (!partial.empty()) warn(path, "reading the directory failed: " + partial);
        detail::sort_listing(names);
        if (depth > 0 && src.opts_.layout == layout::nested) note_own_skill(dir, names, path, rel);
        std::shared_ptr<shared_listing> shared;
        entries(dir, names, 0, names.size(), path, rel, id, depth, shared);
        Fs::release(dir); // a walker given part of the listing opened the folder itself
        if (!shared) { // else the listing lives on with the last walker done with it
            if (spare_listings.size() <= depth) spare_listings.resize(depth + 1);
            spare_listings[depth] = std::move(names);
        }
        // A first load (an early reader) sets no watches: the walk keeps no list for them.
        if (!sh->early) out.directories.push_back(std::move(path));
    }

    /// A listing this walker is going through (one per folder on its path, outermost
    /// first): entries [next, last) are not started yet.
    struct frame
    {
        typename Fs::dir const* dir;
        typename Fs::listing* names; ///< the walk's own listing, until it is shared
        std::shared_ptr<shared_listing>* shared;
        std::string const *path, *rel;
        typename Fs::id const* id;
        std::size_t depth, next, last;
        bool gave = false;
    };
    std::vector<frame> frames = {};

    /// The entries [first, last) of the listing `names` of the open folder `dir`, each
    /// walked in turn (`shared`: see share_out()).
    void entries(typename Fs::dir const& dir, typename Fs::listing& names, std::size_t first, std::size_t last,
                 std::string const& path, std::string const& rel, typename Fs::id const& id, std::size_t depth,
                 std::shared_ptr<shared_listing>& shared)
    {
        frames.push_back({&dir, &names, &shared, &path, &rel, &id, depth, first, last});
        std::size_t const level = frames.size() - 1;
        while (!sh->stopped && frames[level].next < frames[level].last) {
            std::size_t const i = frames[level].next++;
            // A thread takes some 30 us to start: a tier of a few entries is walked by then.
            if (start_helpers && ++entries_seen == 32) std::exchange(start_helpers, {})();
            if (sh->hungry.load(std::memory_order_relaxed)) share_out(); // only where helpers wait
            // A listing moved into `shared` keeps its entries where they were.
            auto const& e = shared ? shared->names[i] : names[i];
            if (skipped(e.name) || e.name == "SKILL.md") continue;
            if (e.type == detail::entry_type::link && !sh->met_link.load(std::memory_order_relaxed)) sh->met_link = true;
            std::string full = detail::joined(path, e.name);
            if (src.opts_.layout == layout::files) file_entry(dir, e, full, path, depth);
            else directory_entry(dir, e, std::move(full), rel, depth);
        }
        bool const gave = frames[level].gave;
        frames.pop_back();
        if (gave) cut(); // what follows comes after the part given away
    }

    /// A walker waits for work: give it the second half of what is left of the outermost
    /// listing on this walker's path that has any left, the largest share there is. The
    /// listing moves into its `shared` (unless there already), which keeps the folder open
    /// until the last walker lets go of it. So every core has work whatever the tree's
    /// shape (one top folder or ten thousand), and a walker holds open only the folders
    /// on its own path and those it shares.
    void share_out()
    {
        for (auto& f : frames) {
            if (f.next >= f.last) continue;
            std::size_t const mid = f.next + (f.last - f.next) / 2;
            auto& shared = *f.shared;
            if (!shared)
                shared = std::make_shared<shared_listing>(*f.dir, std::move(*f.names), *f.path, *f.rel, *f.id, f.depth);
            sh->give({shared, mid, f.last});
            f.last = mid;
            f.gave = true;
            return;
        }
    }

    /// Walks a part of a listing another walker gave away.
    void take(typename walk_shared<Fs>::slice s)
    {
        cut();
        auto& l = *s.of;
        if constexpr (requires { Fs::reopen(*sh->anchor, l.dir, l.rel, l.id); }) {
            detail::dir_guard<Fs> d(Fs::reopen(*sh->anchor, l.dir, l.rel, l.id));
            if (!d) { // moved or replaced since it was listed: the walk is done again on one thread
                sh->timing_dependent = true;
                sh->stopped = true;
                return;
            }
            entries(*d, l.names, s.first, s.last, l.path, l.rel, l.id, l.depth, s.of);
        } else {
            entries(l.dir, l.names, s.first, s.last, l.path, l.rel, l.id, l.depth, s.of);
        }
    }

    void cut()
    {
        if (cuts.empty() ? !skills.empty() : cuts.back() != skills.size()) cuts.push_back(skills.size());
    }

    /// Nested layout: the folder's own listing says whether it is a skill. Any entry named
    /// SKILL.md (a FIFO, a dangling or looping link too) is a candidate: reading it says what
    /// is wrong, as lint does, rather than nothing. `skill.md` in another case is an
    /// unconfirmed one, whose read says why it is no skill.
    void note_own_skill(typename Fs::dir const& dir, typename Fs::listing const& names, std::string const& path,
                        std::string const& rel)
    {
        bool exact = false, variant = false, regular = false;
        for (auto const& entry : names) {
            if (entry.name == "SKILL.md") {
                exact = true;
                regular = entry.type == detail::entry_type::regular;
            }
            variant = variant || detail::is_skill_md_variant(entry.name);
        }
        if (!exact && !variant) return;
        add_candidate(detail::joined(path, "SKILL.md"), rel, path, exact);
        if (regular)
            if (read_outcome text = read_now(dir, "SKILL.md"); text.text) hand_over(std::move(text));
    }

    /// When the registry asks (a first load) and the walker can: the skill file `name`
    /// below the open folder `dir`, read now, by that short name. Read later by its whole
    /// path, every folder on the way would be looked up again, after the walk has moved on
    /// from them. No text when not asked, or when the read fails: read_head() then says
    /// why. `same_mount` and `opened`: see posix_walk::read_in (`opened` is ENOSYS when
    /// nothing was tried).
    read_outcome read_now(typename Fs::dir const& dir, std::string const& name, bool same_mount = false,
                          int* opened = nullptr) const
    {
        if constexpr (requires { Fs::read_in(dir, name, std::size_t{}, same_mount, opened); })
            if (sh->early) return Fs::read_in(dir, name, src.opts_.max_file_bytes, same_mount, opened);
        if (opened) *opened = ENOSYS;
        return {};
    }
    /// Gives the text of the skill just found to the registry's early reader.
    void hand_over(read_outcome&& text)
    {
        auto& c = skills.back();
        c.early = sh->early->take(c, std::move(text));
    }

    /// Files layout: `root/<name>.md` is a skill; nothing below the root is.
    void file_entry(typename Fs::dir const& dir, detail::listed const& entry, std::string const& full,
                    std::string const& path, std::size_t depth)
    {
        std::string const& name = entry.name;
        if (depth != 0 || name.size() <= 3 || name.compare(name.size() - 3, 3, ".md") != 0) return;
        if (!detail::printable_name(name)) { // the name becomes the command, as a folder's does
            warn(full, "the file name is not printable UTF-8; skipped");
            return;
        }
        // On a first load a file listed as regular is read at once: a read that gives its
        // text has shown it to be a regular file (read_in takes nothing else), which saves
        // the `stat` that would say so. What that read cannot take is looked at as before,
        // and left to read_head().
        if (entry.type == detail::entry_type::regular)
            if (read_outcome text = read_now(dir, name); text.text) {
                add_candidate(full, name.substr(0, name.size() - 3), path, true);
                hand_over(std::move(text));
                return;
            }
        auto const f = Fs::follow(dir, name, full, nullptr);
        if (f.error != 0) warn(full, f.message + "; skipped");
        else if (!f.is_reg) {
            if (!f.is_dir) warn(full, "not a regular file; skipped");
        } else {
            add_candidate(full, name.substr(0, name.size() - 3), path, true);
        }
    }

    /// Flat and nested layouts: a folder (or a link to one that stays inside the tier's
    /// folders), within the depth and count bounds, visited once.
    void directory_entry(typename Fs::dir const& dir, detail::listed const& entry, std::string full,
                         std::string const& rel, std::size_t depth)
    {
        auto const& o = src.opts_;
        std::string const& name = entry.name;
        auto type = entry.type;
        if (type == detail::entry_type::regular || type == detail::entry_type::special) return;
        typename Fs::id id{};
        detail::dir_guard<Fs> child; // a folder opened early is closed on every way out but the walk into it
        if constexpr (Fs::opens_listed_folders)
            if (!open_listed(dir, entry, type, id, child)) return;
        read_outcome early_text;
        bool const known = read_flat_early(dir, entry, type, id, early_text);
        if (!child && !known && !follow_inside(dir, name, full, type, id)) return;
        if (!admit(full, name, type, id, depth)) return;
        std::string const child_rel = rel.empty() ? name : detail::joined(rel, name);
        // Flat: a skill folder is never listed; reading its SKILL.md tells. Nested:
        // every folder is listed (its own walk finds its SKILL.md), because a link
        // count of 2 says nothing of symbolic links to sub-skills inside it.
        if (o.layout == layout::flat) {
            add_candidate(detail::joined(full, "SKILL.md"), child_rel, full, false);
            if (early_text.text) hand_over(std::move(early_text));
            return;
        }
        if (!child) {
            std::string error;
            auto d = Fs::open_child(dir, name, full, error);
            if (!d) {
                warn(full, "cannot open the directory: " + error + "; skipped");
                return;
            }
            child.hold(std::move(*d));
        }
        walk(child.release(), std::move(full), child_rel, id, depth + 1); // the walk below releases it
    }

    /// Nested, where the walk can: a folder listed as one is opened now, by its listing's
    /// entry, into `child`. False when it is gone since the listing.
    bool open_listed(typename Fs::dir const& dir, detail::listed const& entry, detail::entry_type& type,
                     typename Fs::id& id, detail::dir_guard<Fs>& child)
    {
        if (src.opts_.layout != layout::nested || type != detail::entry_type::directory) return true;
        int error = 0;
        if (auto d = Fs::open_listed(dir, entry, id, error)) {
            child.hold(std::move(*d));
        } else if (error == ENOENT) {
            return false; // gone since the listing
        } else {
            type = detail::entry_type::unknown; // a link now, or closed to us: the way below follows it, checks it as a link and says why
        }
        return true;
    }

    /// Flat, on a first load: the skill's file is read now, through its folder, on the
    /// parent's mount only (openat2's RESOLVE_NO_XDEV; a mount point's file is left to
    /// read_head()). An open that got that far shows the folder is no mount point, so
    /// the listing's inode number is its own and no stat is needed: true when `id` is set so.
    bool read_flat_early(typename Fs::dir const& dir, detail::listed const& entry, detail::entry_type type,
                         typename Fs::id& id, read_outcome& early_text) const
    {
        if (src.opts_.layout != layout::flat || !sh->early || type != detail::entry_type::directory) return false;
        int opened = ENOSYS;
        early_text = read_now(dir, detail::joined(entry.name, "SKILL.md"), true, &opened);
        if (auto const by_listing = Fs::listed_id(dir, entry);
            by_listing && (opened == 0 || opened == ENOENT || opened == ELOOP)) {
            id = *by_listing;
            return true;
        }
        return false;
    }

    /// An entry neither opened nor known from the listing, looked up with links followed:
    /// true when it is a folder to go on with (a link's only when it stays inside).
    bool follow_inside(typename Fs::dir const& dir, std::string const& name, std::string const& full,
                       detail::entry_type type, typename Fs::id& id)
    {
        auto const f = Fs::follow(dir, name, full, &id);
        if (src.opts_.layout != layout::files) { // one to nothing too: its target can come with no event in the tier
            struct stat lst {};
            if (::lstat(full.c_str(), &lst) == 0 && S_ISLNK(lst.st_mode)) {
                auto seen = detail::seen_link_of(full);
                std::lock_guard<std::mutex> lock(sh->links_mutex);
                sh->links[full] = std::move(seen);
            }
        }
        if (f.error != 0) {
            if (f.error == ENOENT && type == detail::entry_type::link) warn(full, "broken symbolic link; skipped");
            else if (f.error != ENOENT) warn(full, f.message + "; skipped");
            return false;
        }
        if (!f.is_dir) return false;
        if (type != detail::entry_type::directory) { // a link (or a file system without types): it must stay inside
            std::string const real = detail::real_path(full);
            if (!detail::within(real, *sh->roots)) {
                report(full, severity::warning, codes::skill_outside_root,
                       "links outside the tier's folders (to " + detail::escaped(real) +
                           "); not followed (allow the folder with directory_options::allowed_roots)");
                return false;
            }
            // A link to a folder of this tier is a second name for it. The folder is walked
            // at its own place and the link skipped, whichever the walk meets first, so a
            // link (`a-deploy -> deploy`) never takes the folder's name, nor slips past the
            // rules and overrides written for it. (sh->roots: the tier's own root first.)
            struct stat lst;
            if (!sh->roots->empty() && detail::within(real, sh->roots->front()) && ::lstat(full.c_str(), &lst) == 0 &&
                S_ISLNK(lst.st_mode)) {
                report(full, severity::info, codes::discovery_loop,
                       "symbolic link to " + detail::escaped(real) + ", a folder of this tier; skipped: the folder is "
                       "found at its own place");
                return false;
            }
        }
        return true;
    }

    /// A folder found: true when it is within the depth and count bounds, not visited
    /// before, and printably named (each refusal said, the bounds' once).
    bool admit(std::string const& full, std::string const& name, detail::entry_type type, typename Fs::id const& id,
               std::size_t depth)
    {
        auto const& o = src.opts_;
        // Depth first: a folder too deep on this path is not marked visited, so a
        // shorter path to it (a link from higher up) still walks it.
        if (depth + 1 > o.max_depth) {
            sh->timing_dependent = true; // which thread reports it first
            if (!depth_reported)
                warn(src.root_, "directories deeper than " + std::to_string(o.max_depth) +
                                    " levels are not searched (first: " + detail::escaped(full) + ")");
            depth_reported = true;
            return false;
        }
        if (!first_visit(id)) {
            report(full, severity::info, codes::discovery_loop,
                   type == detail::entry_type::link
                       ? "symbolic link to a directory already visited (a loop or a second path); skipped"
                       : "directory already visited; skipped");
            return false;
        }
        if (count_directory() > o.max_directories) {
            sh->timing_dependent = true;
            if (!count_reported)
                warn(src.root_, "more than " + std::to_string(o.max_directories) + " directories; the rest are not searched");
            count_reported = true;
            sh->stopped = true;
            return false;
        }
        if (!detail::printable_name(name)) {
            warn(full, "the directory name is not printable UTF-8; skipped");
            return false;
        }
        return true;
    }

    void add_candidate(std::string file, std::string const& command, std::string const& directory, bool confirmed)
    {
        candidate c;
        c.command = command;
        c.path = std::move(file);
        c.directory = directory;
        auto const slash = directory.find_last_of('/');
        c.directory_name = src.opts_.layout == layout::files ? command : directory.substr(slash + 1);
        c.confirmed = confirmed;
        bool const same_run = !skills.empty() && (cuts.empty() || cuts.back() != skills.size());
        if (same_run && c.command < skills.back().command) in_order = false;
        skills.push_back(std::move(c));
    }

    /// Takes the parts of listings others give away, until none is left and none is at
    /// work (who could give more). `helper`: on a thread of its own.
    void take_given(bool helper, std::atomic<bool>& failed)
    {
        if constexpr (requires { Fs::own_table(); })
            if (helper) Fs::own_table();
        std::unique_lock<std::mutex> lock(sh->work_mutex);
        for (;;) {
            if (!sh->work.empty()) {
                {
                    auto part = std::move(sh->work.back());
                    sh->work.pop_back();
                    sh->note_hunger();
                    ++sh->busy;
                    lock.unlock();
                    try {
                        if (!sh->stopped && !failed) take(std::move(part));
                    } catch (...) { // out of memory on a helper thread: fail the walk, not the process
                        failed = true;
                        sh->stopped = true;
                    }
                } // the folder may close here, outside the lock
                lock.lock();
                --sh->busy;
                continue;
            }
            if (sh->busy == 0) break;
            ++sh->waiting;
            sh->note_hunger();
            sh->work_ready.wait(lock);
            --sh->waiting;
            sh->note_hunger();
        }
        lock.unlock();
        sh->work_ready.notify_all(); // the others see the end too
    }

    /// The first walker's, once all are done: whether the result depends on timing. A
    /// folder in two walkers' sets was reached by a second path (or a loop), which one
    /// walker alone would have skipped.
    bool timing_dependent_with(std::vector<walker> const& helpers, typename Fs::id const& root_id) const
    {
        for (std::size_t i = 0; i < helpers.size() && !sh->timing_dependent; ++i)
            for (auto const& id : helpers[i].visited) {
                if (id == root_id) continue; // in every walker's set from the start
                bool met = visited.contains(id);
                for (std::size_t j = 0; j < i && !met; ++j) met = helpers[j].visited.contains(id);
                if (met) {
                    sh->timing_dependent = true;
                    break;
                }
            }
        return sh->timing_dependent;
    }

    /// The first walker's, once all are done: every walker's skills, diagnostics and
    /// folders joined into `out`, in order.
    void join(std::vector<walker>& helpers)
    {
        std::vector<detail::candidate_run> runs;
        std::size_t found = 0;
        auto add_runs = [&](walker& from) {
            std::size_t at = 0;
            from.cuts.push_back(from.skills.size());
            for (std::size_t const end : from.cuts) {
                if (end > at) runs.push_back({&from.skills, at, end});
                at = end;
            }
            found += from.skills.size();
            in_order = in_order && from.in_order;
        };
        add_runs(*this);
        for (auto& h : helpers) add_runs(h);
        out.skills = detail::join_runs(std::move(runs), found, in_order);
        for (auto& other : helpers) {
            out.diagnostics.insert(out.diagnostics.end(), std::make_move_iterator(other.out.diagnostics.begin()),
                                   std::make_move_iterator(other.out.diagnostics.end()));
            out.directories.insert(out.directories.end(), std::make_move_iterator(other.out.directories.begin()),
                                   std::make_move_iterator(other.out.directories.end()));
        }
        if (!in_order) // `a-b` sorts before `a/c`, though a listing puts `a` first
            std::sort(out.skills.begin(), out.skills.end(),
                      [](candidate const& a, candidate const& b) { return a.command < b.command; });
        std::stable_sort(out.diagnostics.begin(), out.diagnostics.end(),
                         [](diagnostic const& a, diagnostic const& b) { return a.file < b.file; });
    }
};

template <class Fs>
std::optional<discovery> directory_source::discover_with(unsigned threads, early_reader const* early) const
{
    walk_shared<Fs> sh;
    sh.early = early;
    sh.roots = resolve_roots(); // links may have changed since the last walk
    walker<Fs> w{*this, &sh, {}, {}};
    int error = 0;
    std::string message;
    auto root = Fs::open_root(root_, error, message);
    if (!root) {
        if (error != ENOENT) w.warn(root_, "cannot open the skills directory: " + message);
        return std::move(w.out);
    }
    auto const root_id = Fs::id_of(*root);
    w.visited.insert(root_id);
    std::vector<walker<Fs>> helpers;
    for (unsigned t = 1; t < threads; ++t) {
        helpers.push_back(walker<Fs>{*this, &sh, {}, {}});
        helpers.back().visited.insert(root_id);
    }
    detail::dir_guard<Fs> anchor; // open until every helper is done
    if constexpr (requires { Fs::anchor_of(*root); })
        if (!helpers.empty()) {
            anchor.hold(Fs::anchor_of(*root));
            sh.anchor = &*anchor;
        }
    std::atomic<bool> failed{false};
    // Every walker takes the parts of listings others give away (take_given). The first
    // walks the root meanwhile.
    sh.busy = 1; // the root's walk
    std::vector<std::thread> pool;
    if (!helpers.empty())
        w.start_helpers = [&] {
            for (auto& h : helpers) {
                try {
                    pool.emplace_back([&h, &failed] { h.take_given(true, failed); });
                } catch (...) {
                    break; // no thread (RLIMIT_NPROC, no memory): the ones running do it all
                }
            }
        };
    try {
        w.walk(std::move(*root), root_, "", root_id, 0); // takes the directory
    } catch (...) {
        failed = true;
        sh.stopped = true;
    }
    {
        std::lock_guard<std::mutex> lock(sh.work_mutex);
        --sh.busy;
    }
    w.take_given(false, failed);
    for (auto& t : pool) t.join();
    if (failed) throw std::bad_alloc();
    // No helper started (a small tier): one thread walked, as a one-thread walk does,
    // whatever it met. With helpers, a cap or a second path made the result depend on
    // which thread got there first: the caller walks again on one.
    if (!pool.empty() && w.timing_dependent_with(helpers, root_id)) return std::nullopt;
    w.join(helpers);
    {
        std::lock_guard<std::mutex> lock(watch_->mutex);
        watch_->met_link = sh.met_link.load();
        watch_->walk_links = std::move(sh.links);
    }
    return std::move(w.out);
}

SKILLMD_DECL directory_source::directory_source(std::string label, std::string root, directory_options opts)
    : label_(std::move(label)), root_(std::move(root)), opts_(std::move(opts)),
      watch_(std::make_shared<watch_state>()), roots_(std::make_shared<roots_state>())
{
    while (root_.size() > 1 && root_.back() == '/') root_.pop_back();
}

SKILLMD_DECL discovery directory_source::discover() const
{
    return discover_any(nullptr);
}

SKILLMD_DECL discovery directory_source::discover(early_reader const& e) const
{
    return discover_any(&e);
}

SKILLMD_DECL discovery directory_source::discover_any(early_reader const* early) const
{
    // Subtrees of the root are walked on both cores. Should a cap be reached or a
    // directory be met twice, which thread met it first would decide the result,
    // so the walk is then done again in one thread: the result never depends on timing.
    if (opts_.walker == directory_walker::boost_filesystem) return *discover_with<detail::boost_walk>(1, early);
    unsigned const threads = std::max(1u, std::min(4u, std::thread::hardware_concurrency()));
    if (threads > 1) {
        auto d = discover_with<detail::posix_walk>(threads, early);
        if (d) return std::move(*d);
    }
    return *discover_with<detail::posix_walk>(1, early);
}

SKILLMD_DECL std::shared_ptr<std::vector<std::string> const> directory_source::roots() const
{
    {
        std::lock_guard<std::mutex> lock(roots_->mutex);
        if (roots_->resolved) return roots_->resolved;
    }
    return resolve_roots();
}

SKILLMD_DECL bool directory_source::watch(discovery const& d) const
{
    // The portable walker sets no inotify watches: a refresh walks again and compares stamps.
    if (opts_.walker != directory_walker::posix) return false;
    auto& w = *watch_;
    std::lock_guard<std::mutex> lock(w.mutex);
    if (w.broken) return false;
    if (w.fd < 0) {
        w.fd = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
        if (w.fd < 0) {
            w.broken = true;
            return false;
        }
    }
    // Tried at every walk until it opens and reads (out of descriptors for a while, say);
    // a mount between the walk and the read is found by one more walk.
    bool const mounts_opened = w.mounts < 0 || !w.table_known;
    if (w.mounts < 0) w.mounts = ::open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC);
    if (w.mounts >= 0 && !w.table_known) {
        auto table = detail::mount_table();
        w.table_known = table.has_value();
        if (table) w.mount_table = std::move(*table);
    }
    bool complete = true;
    complete = w.add(root_, true) && complete;
    w.anchor = w.watched.count(root_) ? root_ : std::string();
    std::set<std::string> keep{root_};
    if (!w.watched.count(root_)) {
        // A tier whose folder does not exist yet (a project without skills): its nearest
        // existing ancestor sees it appear, so the tier can still vouch for itself.
        std::error_code ec;
        std::filesystem::path p = std::filesystem::absolute(root_, ec);
        bool found = false;
        while (!ec && p.has_relative_path() && p != p.parent_path()) {
            p = p.parent_path();
            if (::access(p.c_str(), F_OK) == 0) {
                complete = w.add(p.string(), false) && complete;
                w.anchor = p.string();
                keep.insert(w.anchor);
                found = true;
                break;
            }
        }
        complete = complete && found;
    } else if (std::error_code ec; detail::real_path(root_) != std::filesystem::absolute(root_, ec).lexically_normal().string()) {
        // Reached through a link (a dotfiles folder): the link can be pointed elsewhere with
        // no event in the tree. Such a tier cannot vouch for itself; it is walked each time.
        complete = false;
    }
    for (auto const& dir : d.directories) complete = w.add(dir, false) && complete;
    keep.insert(d.directories.begin(), d.directories.end());
    // A folder's watch sees the files in it change, by name. Each skill file is watched
    // itself too while the watches fit in half the kernel's limit, so a change that
    // reaches the file another way (a hard link made later) is seen. Past that (100,000
    // skills against the default limit), only the files a folder cannot vouch for are.
    w.every_file = w.watched.size() + d.directories.size() + 2 * d.skills.size() < detail::inotify_watch_limit() / 2;
    if (w.every_file == w.past_budget) { // counted in or out
        w.past_budget = !w.every_file;
        detail::tiers_past_watch_budget() += w.past_budget ? 1 : -1;
    }
    w.files.clear();
    w.handed_gone.clear();
    w.skill_dirs.clear();
    w.walked = std::set<std::string>(d.directories.begin(), d.directories.end());
    w.noted.clear();
    for (auto const& g : d.diagnostics) w.noted.insert(g.file);
    // A walk that said something: any entry made or removed is left to a walk. So is one
    // in a files tier that met a link. Flat and nested tiers ask each link the walk went
    // through, at every look, where it leads (`links`).
    // A SKILL.md that is a link is watched through it, which sees its target's changes
    // only when the link leads straight to the file: one through another link (or to
    // nothing yet) can change with no event anywhere, and every refresh walks.
    if (opts_.layout != layout::files) {
        w.links = std::move(w.walk_links);
        w.linked = !d.diagnostics.empty() || w.links.size() > watch_state::most_links;
    } else {
        w.links.clear();
        w.linked = w.met_link || !d.diagnostics.empty() || !opts_.allowed_roots.empty();
    }
    w.walk_links.clear();
    bool link = false, skill_link = false;
    for (auto const& c : d.skills) {
        struct stat lst {};
        if (!link && ::lstat(c.path.c_str(), &lst) == 0 && S_ISLNK(lst.st_mode)) {
            w.linked = skill_link = true;
            std::error_code ec;
            std::filesystem::path target = std::filesystem::read_symlink(c.path, ec);
            if (!target.is_absolute()) target = std::filesystem::path(c.path).parent_path() / target;
            link = ec || detail::real_path(c.path) != target.lexically_normal().string();
        }
        complete = w.add(c.directory, false) && complete;
        w.files.insert(c.path);
        w.skill_dirs.insert(c.directory);
        complete = w.add_file(c.path, c.directory, !c.confirmed) && complete;
        keep.insert(c.directory);
        keep.insert(c.path);
    }
    // A link the walk reported rather than listed (one to nothing yet, in the files
    // layout): what it leads to can come or change with no event in the tree. So can what
    // a report names that is not there by that name (one the report escapes: `caf\xc3\xa9`).
    for (auto const& g : d.diagnostics) {
        struct stat lst {};
        if (!link && !g.file.empty() && (::lstat(g.file.c_str(), &lst) != 0 || S_ISLNK(lst.st_mode))) link = skill_link = true;
    }
    w.keep_only(keep);
    // Only mounts at, above or below the root change what a tier with no links reads:
    // where it has some, what they lead to may lie under any mount.
    w.scope.clear();
    if (w.watched.count(root_) && !w.met_link && w.links.empty() && !skill_link && opts_.allowed_roots.empty())
        w.scope = detail::real_path(root_);
    w.near_mounts = w.scope.empty() ? std::vector<std::string>{} : detail::mounts_near(w.mount_table, w.scope);
    // Without the mount table, a mount would go unseen: the tier walks at every refresh.
    w.complete = complete && !link && !w.broken && w.mounts >= 0 && w.table_known && !mounts_opened;
    w.changed = false;
    w.read_since = true; // the refresh reads after this
    return w.complete;
}

SKILLMD_DECL bool directory_source::unchanged() const
{
    auto const c = changes();
    return c && c->empty();
}

SKILLMD_DECL std::optional<std::vector<std::string>> directory_source::changes() const
{
    if (opts_.walker != directory_walker::posix) return std::nullopt;
    auto& w = *watch_;
    std::lock_guard<std::mutex> lock(w.mutex);
    if (w.fd < 0 || w.broken) return std::nullopt;
    std::set<std::string> edited;
    // Skill folders (flat) or walked folders (nested) whose own watch saw them removed or
    // renamed: their parent's event for each says where it went (one that never says is
    // left to a walk).
    std::set<std::string> leaving;
    std::set<std::string> replaced; // nested folders gone: is another there now?
    std::set<std::string> root_touched; // flat: root entries made, removed or renamed
    std::set<std::string> links_made; // nested: links made in walked folders
    auto const may_leave = [&](std::string const& p) {
        if (w.linked || p == root_) return false;
        if (opts_.layout == layout::flat) return w.skill_dirs.count(p) != 0;
        return opts_.layout == layout::nested && w.walked.count(p) != 0;
    };
    constexpr std::uint32_t content = IN_MODIFY | IN_CLOSE_WRITE | IN_ATTRIB;
    constexpr std::uint32_t made = IN_CREATE | IN_MOVED_TO;
    alignas(inotify_event) char buf[16384];
    for (;;) {
        ssize_t const n = ::read(w.fd, buf, sizeof buf);
        if (n <= 0) break; // EAGAIN: nothing (more) pending
        for (ssize_t at = 0; at + static_cast<ssize_t>(sizeof(inotify_event)) <= n;) {
            auto const* e = reinterpret_cast<inotify_event const*>(buf + at);
            at += static_cast<ssize_t>(sizeof(inotify_event) + e->len);
            if (w.retired.count(e->wd)) { // a watch taken off: its inode is no path of ours now
                if (e->mask & IN_IGNORED) w.retired.erase(e->wd); // its last word
                continue;
            }
            if (e->mask & IN_IGNORED) { // the watched inode is gone: watch its path again later
                if (auto const it = w.paths.find(e->wd); it != w.paths.end()) {
                    for (auto const& p : it->second) {
                        if (w.files.count(p) && !w.linked) edited.insert(p); // read again, and watched again below
                        else if (may_leave(p)) leaving.insert(p);
                        else w.changed = true; // a folder's watch gone (unmounted), or a link's file
                        if (auto const at_path = w.watched.find(p); at_path != w.watched.end() && at_path->second.wd == e->wd)
                            w.watched.erase(at_path);
                    }
                    w.paths.erase(it);
                }
                continue;
            }
            auto const it = w.paths.find(e->wd);
            if (it == w.paths.end() || (w.linked && (e->mask & ~content) != 0)) { // the queue overflowed, a watch we do not know
                w.changed = true;
                continue;
            }
            for (auto const& watched : it->second) {
                if (e->len == 0) { // the watched thing itself: a skill file, or a folder
                    if (w.files.count(watched)) edited.insert(watched); // whatever happened, reading it tells
                    // A folder moved or gone, or its attributes changed (its link count, when
                    // one is renamed over it): its parent's events settle it, or the tier walks.
                    else if ((e->mask & (IN_DELETE_SELF | IN_MOVE_SELF | IN_ATTRIB)) != 0 && may_leave(watched)) leaving.insert(watched);
                    else w.changed = true;
                    continue;
                }
                std::string const name = e->name;
                std::string const entry = detail::joined(watched, name);
                if (w.files.count(entry)) { // a skill file made, removed, replaced or written
                    edited.insert(entry);
                    continue;
                }
                if (detail::is_skill_md_variant(name)) { // a folder that ignores case may open it as SKILL.md
                    w.changed = true;
                    continue;
                }
                if (e->mask & content) continue; // another file's content: nothing a walk or a skill reads
                switch (entry_effect(w, watched, name, entry, (e->mask & IN_ISDIR) != 0, (e->mask & made) != 0)) {
                case effect::none: break;
                case effect::new_skill:
                    w.files.insert(entry);
                    edited.insert(entry);
                    break;
                case effect::root_entry: root_touched.insert(entry); break;
                case effect::subtree_gone:
                    w.drop_below(entry, edited, leaving); // (a link among them, forgotten)
                    replaced.insert(entry);
                    break;
                case effect::link_gone: w.links.erase(entry); break;
                case effect::link_made:
                    // Renamed over a link the walk went through: what was below that goes.
                    w.drop_below(entry, edited, leaving);
                    links_made.insert(entry);
                    break;
                case effect::subtree_made:
                    // Renamed over a folder the walk listed, or walked already (made just
                    // before its parent was): what was there goes, and what is there now is walked.
                    w.drop_below(entry, edited, leaving);
                    if (!add_subtree(w, watched, name, edited)) w.changed = true;
                    break;
                case effect::shape: w.changed = true; break;
                }
            }
        }
    }
    // Flat: each root entry made, removed or renamed is settled by what it is now that every
    // event is in. Events come in order, but what they name may have changed since: two
    // entries exchanged (RENAME_EXCHANGE) report each as gone after it came.
    // What the last walk (or look) saw at each goes first, so two exchanged take each
    // other's place.
    for (auto const& entry : root_touched) {
        w.links.erase(entry);
        w.drop_folder(entry, edited, leaving);
    }
    for (auto const& entry : root_touched)
        if (!w.changed && !settle_root_entry(w, entry, edited)) w.changed = true;
    // A folder gone whose path holds another now, with no event left to say so: two
    // folders exchanged (RENAME_EXCHANGE says each arrived, then each left). Walked once
    // every event is in, so neither's watch is still set on the other's path.
    for (auto const& entry : replaced) {
        auto const slash = entry.rfind('/');
        std::string const folder = entry.substr(0, slash);
        struct stat st {};
        if (w.changed || w.walked.count(entry) || !w.walked.count(folder) || ::lstat(entry.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
            continue; // walked again meanwhile, or below a folder gone, or gone
        if (!add_subtree(w, folder, entry.substr(slash + 1), edited)) w.changed = true;
    }
    for (auto const& entry : links_made)
        if (!w.changed && !settle_nested_link(w, entry, edited)) w.changed = true;
    if (!leaving.empty()) w.changed = true;
    // Files handed over as gone are kept until a walk: where skills come and go under new
    // names for long, a walk (which forgets them) costs less than keeping them all.
    if (w.handed_gone.size() > 2 * w.files.size() + 4096) w.changed = true;
    if (!w.anchor_in_place()) w.changed = true; // a folder above renamed, or replaced
    // Where the root's links lead, and which folders the tier may read, can change with no
    // event in it (a folder renamed on a link's way, a link there pointed elsewhere).
    if (!w.changed && !w.links.empty()) {
        for (auto const& [path, seen] : w.links)
            if (detail::seen_link_of(path) != seen) {
                w.changed = true;
                break;
            }
        if (!w.changed && roots_now() != *roots()) w.changed = true;
    }
    if (w.mounts_changed()) w.changed = true; // which folders it covers is the walk's to find
    w.read_since = true; // until this returns nothing: the registry reads what it gives, or walks
    if (!w.complete || w.changed) return std::nullopt;
    // A file listed may be another inode now (saved by a rename) or a new one: its own
    // watch follows, where it needs one.
    for (auto const& p : edited) {
        struct stat lst {};
        bool const there = ::lstat(p.c_str(), &lst) == 0;
        // A SKILL.md that is a link where the last walk met none: what it leads to is the
        // walk's to judge (see watch()).
        if (!w.linked && there && S_ISLNK(lst.st_mode)) {
            w.complete = false;
            return std::nullopt;
        }
        // A file with another name that had no watch of its own here (a hard link made
        // since), while some tier is past its budget of watches: the other name, in this
        // tier or another, may be watched by its folder alone, which sees no write made
        // through this one. A walk asks every file's stamp, and watches each such file itself.
        if (auto const own = w.watched.find(p);
            there && S_ISREG(lst.st_mode) && lst.st_nlink > 1 && detail::tiers_past_watch_budget() > 0 &&
            (own == w.watched.end() || own->second.device != lst.st_dev || own->second.inode != lst.st_ino)) {
            w.complete = false;
            return std::nullopt;
        }
        if (w.add_file(p, std::filesystem::path(p).parent_path().string(), true) || w.watched.count(p)) continue;
        // Not watched though it needs to be: nothing more can be vouched for until a walk.
        struct stat st {};
        if (w.broken || ::stat(p.c_str(), &st) == 0) {
            w.complete = false;
            return std::nullopt;
        }
    }
    w.read_since = !edited.empty();
    return std::vector<std::string>(edited.begin(), edited.end());
}

SKILLMD_DECL bool directory_source::settle_root_entry(watch_state& w, std::string const& entry, std::set<std::string>& edited) const
{
    struct stat st {};
    if (::lstat(entry.c_str(), &st) != 0) return errno == ENOENT; // gone
    std::string const name = entry.substr(entry.rfind('/') + 1);
    if (S_ISLNK(st.st_mode)) return follow_link(w, entry, name, edited);
    if (!S_ISDIR(st.st_mode)) return true; // a file: passed over
    // A plain folder on the root's file system is one more the walk would admit when its
    // name is printable and the count stays well within the bound. Watched before its
    // SKILL.md is read (by the registry, after this), so nothing made in it from now on is missed.
    struct stat root {};
    if (!detail::printable_name(name) || opts_.max_depth < 1 || w.skill_dirs.size() + 2 >= opts_.max_directories ||
        ::stat(root_.c_str(), &root) != 0 || st.st_dev != root.st_dev || !w.add_alone(entry))
        return false;
    w.adopt_folder(entry, edited);
    return true;
}

SKILLMD_DECL bool directory_source::follow_link(watch_state& w, std::string const& entry, std::string const& name,
                                                std::set<std::string>& edited) const
{
    auto seen = detail::seen_link_of(entry);
    struct stat st {};
    if (seen.real.empty() || ::stat(entry.c_str(), &st) != 0 || st.st_dev != seen.device || st.st_ino != seen.inode)
        return false; // to nothing (the walk says so), or pointed elsewhere meanwhile
    if (!S_ISDIR(st.st_mode)) { // to a file: passed over in silence, as the walk does
        w.links.emplace(entry, std::move(seen));
        return w.links.size() <= watch_state::most_links;
    }
    // Outside the tier's folders, or to one of its own: the walk says why it is not
    // followed. Past the bounds, or named so it cannot be listed: the walk says that too.
    // (Nested: the walk below the link counts the folders and their depth.)
    bool const flat = opts_.layout == layout::flat;
    auto const roots = this->roots();
    if (!detail::within(seen.real, *roots) || (!roots->empty() && detail::within(seen.real, roots->front())) ||
        !detail::printable_name(name) || (flat && (opts_.max_depth < 1 || w.skill_dirs.size() + 2 >= opts_.max_directories)) ||
        w.links.size() >= watch_state::most_links)
        return false;
    if (!w.add_followed(entry, seen)) return false; // a second path to a watched folder: the walk skips one
    std::pair<dev_t, ino_t> const watched{seen.device, seen.inode};
    w.links.emplace(entry, std::move(seen));
    // What it leads to may lie under any mount.
    w.scope.clear();
    w.near_mounts.clear();
    if (flat) {
        w.adopt_folder(entry, edited);
        return true;
    }
    return add_subtree(w, entry.substr(0, entry.rfind('/')), name, edited, watched);
}

SKILLMD_DECL bool directory_source::settle_nested_link(watch_state& w, std::string const& entry, std::set<std::string>& edited) const
{
    struct stat lst {};
    if (::lstat(entry.c_str(), &lst) != 0) return errno == ENOENT; // gone again
    if (!S_ISLNK(lst.st_mode)) return true; // a file renamed over it since (or a folder, after it went): their events tell
    auto const slash = entry.rfind('/');
    if (!w.walked.count(entry.substr(0, slash))) return false; // its folder gone meanwhile
    return follow_link(w, entry, entry.substr(slash + 1), edited);
}

SKILLMD_DECL directory_source::effect directory_source::entry_effect(watch_state const& w, std::string const& folder,
                                                                    std::string const& name, std::string const& entry,
                                                                    bool is_folder, bool made) const
{
    auto const a_link = [&] {
        struct stat st {};
        return ::lstat(entry.c_str(), &st) == 0 && S_ISLNK(st.st_mode);
    };
    // An entry the walk said something about or went through (a link to a folder, a broken
    // link), removed or renamed over, or one made that the walk would follow (a link): the
    // walk's answer may change. (A diagnostic names its file escaped.)
    auto const was_seen = [&] {
        return w.noted.count(entry) != 0 || w.noted.count(detail::escaped(entry)) != 0 || w.watched.count(entry) != 0 ||
               w.skill_dirs.count(entry) != 0;
    };
    auto const walk_sees = [&] { return is_folder || was_seen() || (made && a_link()); };
    bool const walked = w.walked.count(folder) != 0;
    switch (opts_.layout) {
    case layout::flat:
        // Only the root is listed; a skill folder is only asked for its SKILL.md. A folder
        // made, removed or renamed there, or a link (the walk meets all the tier's links
        // there), is settled by what it is once every event is in (settle_root_entry).
        if (walked && folder == root_ && name != "SKILL.md" && !skipped(name) && !w.noted.count(entry) &&
            !w.noted.count(detail::escaped(entry))) {
            if (is_folder && (made || w.skill_dirs.count(entry))) return effect::root_entry;
            if (!is_folder && !w.linked && (made ? a_link() : w.links.count(entry) != 0)) return effect::root_entry;
        }
        if (walked) return walk_sees() ? effect::shape : effect::none;
        return w.skill_dirs.count(folder) ? effect::none : effect::shape;
    case layout::nested:
        if (!walked) return effect::shape;
        // A link the walk went through, removed or renamed away: what was below it goes (a
        // link to a folder), or nothing (to a file, to nothing), as the walk would find.
        if (!made && w.links.count(entry) != 0) return w.walked.count(entry) != 0 ? effect::subtree_gone : effect::link_gone;
        if (name == "SKILL.md") {
            if (folder == root_) return effect::none; // passed over there, file or folder
            if (is_folder) return effect::shape;
            return made ? effect::new_skill : effect::none; // (one that was listed is in w.files)
        }
        // A folder made (or renamed to here) is walked alone, and one removed (or renamed
        // away) takes what was below it along; a folder the walk passes over is nothing.
        // (The last walk met no link and said nothing: see watch().)
        if (is_folder && !w.noted.count(entry) && !w.noted.count(detail::escaped(entry))) {
            if (skipped(name)) return effect::none;
            if (made) return effect::subtree_made;
            if (w.walked.count(entry)) return effect::subtree_gone;
            if (!w.watched.count(entry)) return effect::none; // never listed: made and removed since
        }
        // A link made (or renamed to here) is taken as what it leads to once every event is
        // in (settle_nested_link). One the walk said something of is left to a walk.
        if (made && !is_folder && !skipped(name) && !w.noted.count(entry) && !w.noted.count(detail::escaped(entry)) && a_link())
            return effect::link_made;
        return walk_sees() ? effect::shape : effect::none;
    case layout::files:
        if (!walked || folder != root_) return effect::shape;
        if (name.size() <= 3 || name.compare(name.size() - 3, 3, ".md") != 0 || name == "SKILL.md" || skipped(name))
            return effect::none; // no skill, no word (the walk passes over SKILL.md in every layout)
        if (is_folder || !made || was_seen() || !detail::printable_name(name)) return effect::shape;
        {
            struct stat st {};
            if (::lstat(entry.c_str(), &st) != 0) return effect::none; // gone again: its removal follows
            return S_ISREG(st.st_mode) ? effect::new_skill : effect::shape;
        }
    }
    return effect::shape;
}

SKILLMD_DECL std::optional<discovery> directory_source::walk_below(std::string const& folder, std::pair<dev_t, ino_t> id,
                                                                  std::string const& name, std::size_t counted,
                                                                  std::optional<std::pair<dev_t, ino_t>> through_link) const
{
    using fs_t = detail::posix_walk;
    int error = 0;
    std::string message;
    detail::dir_guard<fs_t> parent(fs_t::open_root(folder, error, message));
    if (!parent) return std::nullopt;
    if (fs_t::id_of(*parent) != fs_t::id{static_cast<std::uint64_t>(id.first), static_cast<std::uint64_t>(id.second)})
        return std::nullopt; // the folder was replaced since it was watched
    struct stat st {};
    if (::fstatat((*parent).fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
        if (errno == ENOENT) return discovery{}; // gone again: its removal follows
        return std::nullopt;
    }
    bool const link = S_ISLNK(st.st_mode);
    if (link != through_link.has_value() || (!link && !S_ISDIR(st.st_mode))) return std::nullopt; // a link, a folder or a file renamed over it since
    if (skipped(name) || name == "SKILL.md") return discovery{}; // what entries() passes over
    walk_shared<fs_t> sh;
    sh.roots = roots();
    sh.directories = counted; // numbered after the tier's other folders, as a whole walk would
    walker<fs_t> w{*this, &sh, {}, {}};
    std::string const rel = folder == root_ ? std::string() : folder.substr(root_.size() + 1);
    std::size_t const depth = rel.empty() ? 0 : static_cast<std::size_t>(std::count(rel.begin(), rel.end(), '/')) + 1;
    std::string full = detail::joined(folder, name);
    if (link) {
        // Opened once through the link and known by what it opened, the folder its watch is
        // set on: the walk goes on from that descriptor, so a link on the way pointed
        // elsewhere and back meanwhile cannot slip another folder's tree in.
        std::string why;
        detail::dir_guard<fs_t> target(fs_t::open_child(*parent, name, full, why));
        if (!target) return std::nullopt;
        auto const opened = fs_t::id_of(*target);
        if (opened != fs_t::id{static_cast<std::uint64_t>(through_link->first), static_cast<std::uint64_t>(through_link->second)} ||
            !w.admit(full, name, detail::entry_type::link, opened, depth))
            return std::nullopt;
        std::string const child_rel = rel.empty() ? name : detail::joined(rel, name);
        w.walk(target.release(), std::move(full), child_rel, opened, depth + 1);
    } else {
        w.directory_entry(*parent, detail::listed{name, detail::entry_type::directory, static_cast<std::uint64_t>(st.st_ino)},
                          std::move(full), rel, depth);
    }
    std::vector<walker<fs_t>> none;
    w.join(none);
    if (sh.met_link || sh.stopped || !w.out.diagnostics.empty()) return std::nullopt;
    for (auto const& c : w.out.skills) {
        struct stat f {};
        if (!c.confirmed || ::lstat(c.path.c_str(), &f) != 0 || !S_ISREG(f.st_mode)) return std::nullopt;
    }
    return std::move(w.out);
}

SKILLMD_DECL bool directory_source::add_subtree(watch_state& w, std::string const& folder, std::string const& name,
                                                std::set<std::string>& edited, std::optional<std::pair<dev_t, ino_t>> link) const
{
    auto const at = w.watched.find(folder);
    if (at == w.watched.end() || !detail::printable_name(name)) return false;
    std::pair<dev_t, ino_t> const id{at->second.device, at->second.inode};
    std::size_t const counted = w.walked.size() - 1; // the root is listed, not counted
    auto const first = walk_below(folder, id, name, counted, link);
    if (!first) return false;
    std::string const top = detail::joined(folder, name); // a link's own watch is set through it
    // Watched, then walked again: what changed before a folder's watch was set is in the
    // second walk, and what changes after it is an event. A folder the second walk meets
    // that the first did not has no watch: only a whole walk can vouch for it. Parents are
    // watched before their folders (the set's order; a walk lists a folder after those
    // below it): a folder replaced once its parent is watched is an event there, and one
    // replaced before has its own watch set on the new folder.
    std::set<std::string> const dirs(first->directories.begin(), first->directories.end());
    for (auto const& dir : dirs)
        if (!(link && dir == top) && !w.add_alone(dir)) return false;
    auto const second = walk_below(folder, id, name, counted, link);
    if (!second) return false;
    if (std::set<std::string>(second->directories.begin(), second->directories.end()) != dirs) return false;
    w.walked.insert(dirs.begin(), dirs.end());
    for (auto const& c : second->skills) {
        w.files.insert(c.path);
        w.skill_dirs.insert(c.directory);
        edited.insert(c.path);
    }
    return true;
}

SKILLMD_DECL std::optional<candidate> directory_source::candidate_at(std::string const& path) const
{
    if (path.size() <= root_.size() + 1 || path.compare(0, root_.size(), root_) != 0 || path[root_.size()] != '/') return std::nullopt;
    std::string const rel = path.substr(root_.size() + 1);
    std::filesystem::path const p(path);
    candidate c;
    c.path = path;
    struct stat st {};
    bool const exists = ::lstat(path.c_str(), &st) == 0;
    switch (opts_.layout) {
    case layout::flat: { // a skill folder is listed whether or not its SKILL.md is there
        struct stat folder {};
        if (::stat(p.parent_path().c_str(), &folder) != 0 || !S_ISDIR(folder.st_mode)) return std::nullopt;
        c.directory = p.parent_path().string();
        c.command = c.directory_name = p.parent_path().filename().string();
        c.confirmed = false;
        return c;
    }
    case layout::nested: {
        c.directory = p.parent_path().string();
        c.command = std::filesystem::path(rel).parent_path().string();
        c.directory_name = p.parent_path().filename().string();
        if (exists) return c;
        // Gone: a SKILL.md in another case still makes it a candidate, whose read says why not.
        bool variant = false;
        if (DIR* d = ::opendir(c.directory.c_str())) {
            while (dirent* e = ::readdir(d)) variant = variant || detail::is_skill_md_variant(e->d_name);
            ::closedir(d);
        }
        if (!variant) return std::nullopt;
        c.confirmed = false;
        return c;
    }
    case layout::files: {
        struct stat target {};
        if (!exists || (::stat(path.c_str(), &target) == 0 && S_ISDIR(target.st_mode))) return std::nullopt;
        c.directory = root_;
        c.command = c.directory_name = rel.substr(0, rel.size() - 3);
        return c;
    }
    }
    return std::nullopt;
}

SKILLMD_DECL std::optional<file_stamp> directory_source::stamp(candidate const& c) const
{
    struct stat st {};
    if (::stat(c.path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
    return detail::stamp_of(st);
}

SKILLMD_DECL std::vector<std::string> directory_source::bundled_files(candidate const& c) const
{
    std::size_t const limit = opts_.max_bundled;
    std::vector<std::string> out;
    if (c.directory.empty() || opts_.layout == layout::files) return out;
    std::set<std::pair<dev_t, ino_t>> seen;
    auto const allowed = roots();
    list_bundled(c.directory, "", 0, seen, out, limit, *allowed);
    return out;
}

SKILLMD_DECL read_outcome directory_source::read(candidate const& c, bool head) const
{
    // Every read is contained (a SKILL.md linked to /etc/passwd is never read) and, once
    // a file was loaded, must still be that file: a link swapped in later is refused.
    auto const allowed = roots();
    detail::read_checks checks;
    checks.roots = allowed.get();
    checks.expected = &c.stamp;
    if (allowed->empty()) { // the root itself is gone: nothing can be read from it
        read_outcome r;
        r.absent = true;
        r.error = "the tier's folder does not exist";
        return r;
    }
    return misnamed(c, detail::read_regular(c.path, opts_.max_file_bytes, head, checks));
}

SKILLMD_DECL std::vector<std::string> directory_source::roots_now() const
{
    std::vector<std::string> out;
    if (auto r = detail::real_path(root_); !r.empty()) out.push_back(std::move(r));
    for (auto const& a : opts_.allowed_roots)
        if (auto r = detail::real_path(a); !r.empty()) out.push_back(std::move(r));
    return out;
}

SKILLMD_DECL std::shared_ptr<std::vector<std::string> const> directory_source::resolve_roots() const
{
    std::shared_ptr<std::vector<std::string> const> done = std::make_shared<std::vector<std::string>>(roots_now());
    std::lock_guard<std::mutex> lock(roots_->mutex);
    roots_->resolved = done;
    return done;
}

SKILLMD_DECL read_outcome directory_source::misnamed(candidate const& c, read_outcome r) const
{
    if (!r.absent || opts_.layout == layout::files || c.directory.empty()) return r;
    DIR* d = ::opendir(c.directory.c_str());
    if (d == nullptr) return r;
    while (dirent* e = ::readdir(d)) {
        std::string_view const n = e->d_name;
        if (detail::is_skill_md_variant(n)) {
            r.absent = false;
            r.error = "the folder has `" + detail::escaped(n) + "` but no `SKILL.md`; the file must be named SKILL.md exactly";
            break;
        }
    }
    ::closedir(d);
    return r;
}

SKILLMD_DECL void directory_source::list_bundled(std::string const& dir, std::string const& prefix, std::size_t depth,
                  std::set<std::pair<dev_t, ino_t>>& seen, std::vector<std::string>& out, std::size_t limit,
                  std::vector<std::string> const& roots_now) const
{
    DIR* d = ::opendir(dir.c_str());
    if (d == nullptr) return;
    std::vector<std::string> names;
    while (dirent* e = ::readdir(d)) {
        std::string_view const n = e->d_name;
        if (n != "." && n != "..") names.emplace_back(n);
    }
    ::closedir(d);
    std::sort(names.begin(), names.end());
    for (auto const& n : names) {
        if (out.size() >= limit) return;
        if ((depth == 0 && n == "SKILL.md") || !detail::printable_name(n) || skipped(n))
            continue;
        std::string const full = detail::joined(dir, n);
        struct stat st {};
        if (::lstat(full.c_str(), &st) != 0) continue;
        if (S_ISLNK(st.st_mode) && (!detail::within(detail::real_path(full), roots_now) || ::stat(full.c_str(), &st) != 0))
            continue; // a link that leaves the tier's folders (`references -> ~`) is not offered

        if (S_ISREG(st.st_mode)) {
            out.push_back(prefix + n);
        } else if (S_ISDIR(st.st_mode) && depth < opts_.max_depth && seen.insert({st.st_dev, st.st_ino}).second) {
            struct stat sk {};
            if (opts_.layout == layout::nested && ::stat(detail::joined(full, "SKILL.md").c_str(), &sk) == 0)
                continue; // a sub-skill, not a bundled file
            list_bundled(full, prefix + n + "/", depth + 1, seen, out, limit, roots_now);
        }
    }
}


} // namespace skillmd

#endif
