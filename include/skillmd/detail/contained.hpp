// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_DETAIL_CONTAINED_HPP
#define SKILLMD_DETAIL_CONTAINED_HPP

// Reads contained by construction: a file below a folder is opened relative to a
// descriptor of that folder, and the kernel resolves the path without ever leaving it
// (Linux's openat2 with RESOLVE_BENEATH and RESOLVE_NO_MAGICLINKS). A link that stays
// inside is followed; one that leaves, `..` above the folder, an absolute path and
// /proc's magic links are refused by the kernel, at the moment of the open, so no check
// and use can be raced apart. Where openat2 is missing (kernels before 5.6, a seccomp
// filter), the path is walked one component at a time with O_NOFOLLOW: every link is
// refused there, inside or not, which is stricter and as safe.

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#if defined(__linux__) && defined(SYS_openat2)
#include <linux/openat2.h>
#endif

namespace skillmd::detail {

/// A descriptor closed when it goes.
class unique_fd
{
public:
    unique_fd() = default;
    explicit unique_fd(int fd) noexcept : fd_(fd) {}
    unique_fd(unique_fd&& o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
    unique_fd& operator=(unique_fd&& o) noexcept
    {
        if (this != &o) {
            reset();
            fd_ = std::exchange(o.fd_, -1);
        }
        return *this;
    }
    unique_fd(unique_fd const&) = delete;
    unique_fd& operator=(unique_fd const&) = delete;
    ~unique_fd() { reset(); }
    int get() const noexcept { return fd_; }
    explicit operator bool() const noexcept { return fd_ >= 0; }
    /// Gives the descriptor up (to fdopendir, which closes it).
    int release() noexcept { return std::exchange(fd_, -1); }
    void reset() noexcept
    {
        if (fd_ >= 0) ::close(fd_);
        fd_ = -1;
    }

private:
    int fd_ = -1;
};

/// A file's identity: device and inode.
using file_id = std::pair<std::uint64_t, std::uint64_t>;
inline file_id id_of(struct stat const& st) noexcept
{
    return {static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino)};
}

/// True when `rel` is a relative path of plain components: not empty, not absolute, no
/// empty, `.` or `..` component. (The kernel would refuse `..` that leaves; refusing it
/// here keeps the fallback walk and error messages simple.)
inline bool plain_relative_path(std::string_view rel) noexcept
{
    if (rel.empty() || rel.front() == '/') return false;
    std::size_t pos = 0;
    while (true) {
        auto const slash = rel.find('/', pos);
        auto const part = rel.substr(pos, slash == std::string_view::npos ? std::string_view::npos : slash - pos);
        if (part.empty() || part == "." || part == ".." || part.find('\0') != std::string_view::npos) return false;
        if (slash == std::string_view::npos) return true;
        pos = slash + 1;
    }
}

/** Opens `rel` below the folder open on `root` with `flags` (O_CLOEXEC and O_NOCTTY are
    added), never resolving outside that folder. -1 with errno set on failure: EXDEV or
    ELOOP for a path that would leave (or, in the fallback, any link), EINVAL for a path
    that is not plain_relative_path().
*/
inline int open_beneath(int root, std::string const& rel, int flags) noexcept
{
    if (!plain_relative_path(rel)) {
        errno = EINVAL;
        return -1;
    }
    // openat2 refuses O_PATH with any flag but O_DIRECTORY, O_NOFOLLOW and O_CLOEXEC.
    flags |= O_CLOEXEC | ((flags & O_PATH) ? 0 : O_NOCTTY);
#if defined(__linux__) && defined(SYS_openat2)
    static std::atomic<bool> unavailable{false};
    if (!unavailable.load(std::memory_order_relaxed)) {
        struct open_how how {};
        how.flags = static_cast<decltype(how.flags)>(static_cast<unsigned int>(flags));
        how.resolve = static_cast<decltype(how.resolve)>(RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS);
        long const fd = ::syscall(SYS_openat2, root, rel.c_str(), &how, sizeof how);
        if (fd >= 0) return static_cast<int>(fd);
        if (errno != ENOSYS && errno != EPERM) return -1;
        unavailable.store(true, std::memory_order_relaxed); // no openat2 here: walk by hand from now on
    }
#endif
    // One component at a time, no link followed anywhere.
    int at = root;
    unique_fd held;
    std::size_t pos = 0;
    while (true) {
        auto const slash = rel.find('/', pos);
        std::string const part = rel.substr(pos, slash == std::string::npos ? std::string::npos : slash - pos);
        if (slash == std::string::npos) return ::openat(at, part.c_str(), flags | O_NOFOLLOW);
        int const next = ::openat(at, part.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (next < 0) return -1;
        held = unique_fd(next);
        at = next;
        pos = slash + 1;
    }
}

/// The path of the folder open on `fd`, as the kernel knows it ("" if it cannot say).
inline std::string path_of_descriptor(int fd)
{
    std::string const link = "/proc/thread-self/fd/" + std::to_string(fd);
    char buf[4096];
    ssize_t const n = ::readlink(link.c_str(), buf, sizeof buf);
    if (n <= 0 || static_cast<std::size_t>(n) >= sizeof buf || buf[0] != '/') return {};
    return std::string(buf, static_cast<std::size_t>(n));
}

/** open_beneath(), and for a last component that is a link to an absolute path: a link
    whose target lies under `root_path` (the root's own path, path_of_descriptor) is
    followed by opening that part of the target below `root` again, so absolute links
    that stay inside work as relative ones do, and the open is still the kernel's,
    below the root. Up to eight such links in a row.
*/
inline int open_beneath_following(int root, std::string const& root_path, std::string rel, int flags)
{
    for (int hop = 0; hop < 8; ++hop) {
        int const fd = open_beneath(root, rel, flags);
        if (fd >= 0 || (errno != EXDEV && errno != ELOOP) || root_path.empty()) return fd;
        int const saved = errno;
        auto const slash = rel.rfind('/');
        std::string const parent = slash == std::string::npos ? std::string() : rel.substr(0, slash);
        std::string const name = slash == std::string::npos ? rel : rel.substr(slash + 1);
        unique_fd const dir(parent.empty() ? ::openat(root, ".", O_PATH | O_DIRECTORY | O_CLOEXEC)
                                           : open_beneath(root, parent, O_PATH | O_DIRECTORY));
        char target[4096];
        ssize_t const n = dir ? ::readlinkat(dir.get(), name.c_str(), target, sizeof target) : -1;
        std::string_view const t(target, n > 0 ? static_cast<std::size_t>(n) : 0);
        if (n <= 0 || static_cast<std::size_t>(n) >= sizeof target || !t.starts_with(root_path) ||
            t.size() <= root_path.size() + 1 || t[root_path.size()] != '/') {
            errno = saved;
            return -1;
        }
        rel = std::string(t.substr(root_path.size() + 1));
    }
    errno = ELOOP;
    return -1;
}

} // namespace skillmd::detail

#endif
