// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_DETAIL_READ_FILE_HPP
#define SKILLMD_DETAIL_READ_FILE_HPP

#include <skillmd/detail/contained.hpp>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace skillmd::detail {

/// The canonical path of `p` (links resolved), or "" when it cannot be resolved.
inline std::string real_path(std::string const& p)
{
    char* r = ::realpath(p.c_str(), nullptr);
    if (r == nullptr) return {};
    std::string out(r);
    std::free(r);
    return out;
}

/// True when the path `inner` is `outer` or below it, by name (both absolute and normal;
/// "/" holds every path). An empty `outer` (a root that could not be resolved) holds nothing.
inline bool within(std::string_view inner, std::string_view outer) noexcept
{
    if (outer.empty() || !inner.starts_with(outer)) return false;
    return inner.size() == outer.size() || outer.back() == '/' || inner[outer.size()] == '/';
}

/// True when the canonical path `real` is one of `roots` or below one.
inline bool within(std::string_view real, std::vector<std::string> const& roots) noexcept
{
    for (auto const& r : roots)
        if (within(real, r)) return true;
    return false;
}

/** A string for a skill's text, with room kept from the last one this thread gave back.
    A load reads thousands of files of a few KB and lets each go once it is parsed; a
    new string of that size each time is a trip through malloc's large bins. Text taken
    here and handed to `give_back_text` when done is one allocation per thread. Nothing
    is shared between threads, and a buffer above 64 KB is not kept. The string taken
    still holds the last text (its size too): a reader writes over those bytes, and
    growing it zero-fills only what the last text did not reach.
*/
inline std::string& spare_text() noexcept
{
    thread_local std::string spare;
    return spare;
}
inline std::string take_text() noexcept
{
    return std::move(spare_text());
}
inline void give_back_text(std::string&& s) noexcept
{
    if (s.capacity() <= 64 * 1024 && s.capacity() > spare_text().capacity()) spare_text() = std::move(s);
}

/** Opens for reading the file open as a place only on `place` (O_PATH), whose fstat is
    `st`, through /proc: the file read is then the one whose type and place were checked,
    and no FIFO or device is ever opened on the way (an open for reading lets a writer
    waiting on a FIFO through; a device's open can act). Without /proc, `path` is opened
    again. Either way the file must be the same (device and inode); `st` becomes its fstat.
    -1 and errno on failure, ESTALE when another file is there now.
*/
inline int reopen_to_read(int place, struct stat& st, std::string const& path)
{
    constexpr int flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY;
    int fd = ::open(("/proc/thread-self/fd/" + std::to_string(place)).c_str(), flags);
    if (fd < 0 && errno == ENOENT) fd = ::open(path.c_str(), flags);
    if (fd < 0) return -1;
    struct stat now {};
    if (::fstat(fd, &now) != 0 || now.st_dev != st.st_dev || now.st_ino != st.st_ino) {
        int const err = errno;
        ::close(fd);
        errno = now.st_ino != 0 ? ESTALE : err;
        return -1;
    }
    st = now;
    return fd;
}

/// Reads a whole regular file. On failure returns nothing and sets `error` to a reason.
/// Anything else (a FIFO, a device) is refused before it is opened to be read.
inline std::optional<std::string> read_file(std::string const& path, std::string& error,
                                            std::size_t max_bytes = std::size_t(-1))
{
    unique_fd const place(::open(path.c_str(), O_PATH | O_CLOEXEC));
    struct stat st {};
    if (!place || ::fstat(place.get(), &st) != 0) {
        error = std::strerror(errno);
        return std::nullopt;
    }
    if (!S_ISREG(st.st_mode)) {
        error = S_ISDIR(st.st_mode) ? "is a directory" : "is not a regular file";
        return std::nullopt;
    }
    unique_fd const readable(reopen_to_read(place.get(), st, path));
    if (!readable) {
        error = errno == ESTALE ? "was replaced while it was opened" : std::strerror(errno);
        return std::nullopt;
    }
    int const fd = readable.get();
    if (static_cast<std::size_t>(st.st_size) > max_bytes) {
        error = "is larger than " + std::to_string(max_bytes) + " bytes";
        return std::nullopt;
    }
    std::string data;
    data.resize(static_cast<std::size_t>(st.st_size));
    std::size_t got = 0;
    for (;;) {
        if (got == data.size()) data.resize(data.size() + 4096); // the file may have grown
        ssize_t const n = ::read(fd, data.data() + got, data.size() - got);
        if (n < 0) {
            if (errno == EINTR) continue;
            error = std::strerror(errno);
            return std::nullopt;
        }
        if (n == 0) break;
        got += static_cast<std::size_t>(n);
        if (got > max_bytes) {
            error = "is larger than " + std::to_string(max_bytes) + " bytes";
            return std::nullopt;
        }
    }
    data.resize(got);
    return data;
}

} // namespace skillmd::detail

#endif
