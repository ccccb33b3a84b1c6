// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_STORAGE_SOURCES_IMPL_SQLITE_STATEMENT_HPP
#define SKILLMD_STORAGE_SOURCES_IMPL_SQLITE_STATEMENT_HPP

// A prepared SQLite statement that finalizes itself (storage/sources/sqlite_source.hpp).

#include <sqlite3.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace skillmd {

namespace detail {

/// A prepared statement that finalizes itself.
class statement
{
public:
    statement(sqlite3* db, std::string_view sql)
    {
        rc_ = sqlite3_prepare_v2(db, sql.data(), static_cast<int>(sql.size()), &st_, nullptr);
    }
    ~statement() { sqlite3_finalize(st_); }
    statement(statement const&) = delete;
    statement& operator=(statement const&) = delete;

    bool prepared() const noexcept { return rc_ == SQLITE_OK && st_; }
    int prepare_code() const noexcept { return rc_; }
    statement& bind(int i, std::string_view v)
    {
        sqlite3_bind_text(st_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
        return *this;
    }
    statement& bind(int i, std::int64_t v)
    {
        sqlite3_bind_int64(st_, i, v);
        return *this;
    }
    int step() { return sqlite3_step(st_); }
    std::string text(int col) const
    {
        auto const* p = reinterpret_cast<char const*>(sqlite3_column_text(st_, col));
        return p ? std::string(p, static_cast<std::size_t>(sqlite3_column_bytes(st_, col))) : std::string();
    }
    std::int64_t integer(int col) const { return sqlite3_column_int64(st_, col); }
    /// Ready to step again, with other values bound.
    void reset()
    {
        sqlite3_reset(st_);
        sqlite3_clear_bindings(st_);
    }
    int columns() const { return sqlite3_column_count(st_); }

private:
    sqlite3_stmt* st_ = nullptr;
    int rc_ = SQLITE_ERROR;
};

} // namespace detail

} // namespace skillmd

#endif
