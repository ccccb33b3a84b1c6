// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_STORAGE_SOURCES_IMPL_POSTGRES_HELPERS_HPP
#define SKILLMD_STORAGE_SOURCES_IMPL_POSTGRES_HELPERS_HPP

// What postgres_source (storage/sources/postgres_source.hpp) builds on: a libpq result
// that clears itself, private folders for a namespace's local files, and a UTC stamp.

#include <libpq-fe.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <string>
#include <utility>

#include <sys/stat.h>

namespace skillmd {

namespace detail {

/// A libpq result that clears itself.
class pg_result
{
public:
    explicit pg_result(PGresult* r = nullptr) noexcept : r_(r) {}
    pg_result(pg_result&& o) noexcept : r_(std::exchange(o.r_, nullptr)) {}
    pg_result& operator=(pg_result&& o) noexcept
    {
        std::swap(r_, o.r_);
        return *this;
    }
    ~pg_result() { PQclear(r_); }
    PGresult* get() const noexcept { return r_; }
    bool ok() const noexcept
    {
        auto const s = PQresultStatus(r_);
        return r_ && (s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK);
    }
    int rows() const noexcept { return r_ ? PQntuples(r_) : 0; }
    bool null(int row, int col) const noexcept { return PQgetisnull(r_, row, col) != 0; }
    std::string text(int row, int col) const
    {
        return std::string(PQgetvalue(r_, row, col), static_cast<std::size_t>(PQgetlength(r_, row, col)));
    }
    std::int64_t integer(int row, int col) const { return std::strtoll(PQgetvalue(r_, row, col), nullptr, 10); }
    std::string sqlstate() const
    {
        char const* s = r_ ? PQresultErrorField(r_, PG_DIAG_SQLSTATE) : nullptr;
        return s ? s : "";
    }
    std::string message() const
    {
        char const* m = r_ ? PQresultErrorField(r_, PG_DIAG_MESSAGE_PRIMARY) : nullptr;
        return m ? m : "no result";
    }

private:
    PGresult* r_;
};

} // namespace detail

namespace detail {

/** Makes the folders of `dir` that are missing, each 0700 whatever the umask (they
    will hold a namespace's contents). Folders that exist are left as they are: one may
    be /tmp or a home folder. False when one could not be made. */
inline bool make_private_dirs(std::filesystem::path const& dir)
{
    std::filesystem::path at;
    for (auto const& part : dir) {
        at /= part;
        if (::mkdir(at.c_str(), 0700) == 0) {
            if (::chmod(at.c_str(), 0700) != 0) return false;
        } else if (errno != EEXIST) {
            return false;
        }
    }
    return true;
}

/// A UTC time as `YYYY-MM-DDTHH:MM:SSZ`.
inline std::string utc_now()
{
    std::time_t const t = std::time(nullptr);
    std::tm tm{};
    ::gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

} // namespace detail

} // namespace skillmd

#endif
