// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_STORAGE_SOURCES_SQLITE_SOURCE_HPP
#define SKILLMD_STORAGE_SOURCES_SQLITE_SOURCE_HPP

// The mutable database tier: agent-created skills in SQLite's
// `skills` table, as a `skill_source` and with create / update / delete / list / load.
// Link `skillmd::sqlite` (SQLite::SQLite3); nothing else includes this header.
//
// How SQLite is used so that nothing is lost (several processes, killed writers,
// corrupt files, full disks): WAL, a busy timeout on every connection, every write in
// BEGIN IMMEDIATE, bound parameters only; defensive mode, trusted_schema off, no mmap, quick_check on open; a schema
// version in `user_version` and a refusal of newer schemas or foreign objects; a new
// connection after fork() (the inherited one is never used or closed: closing it would
// drop the parent's locks); the file is touched only through SQLite.

#include <skillmd/storage/db_skill.hpp>
#include <skillmd/storage/source.hpp>
#include <skillmd/storage/sources/impl/sqlite_statement.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <limits>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <unistd.h>

namespace skillmd {

struct sqlite_options
{
    int busy_timeout_ms = 10000;
    /// How long one operation may run once it has the lock; then SQLite interrupts it.
    int query_timeout_ms = 5000;
    /// The longest value (a row's content) SQLite will hand over or build.
    int max_value_bytes = 8 * 1024 * 1024;
    /// A load lists every row's name, description and triggers: a row whose three are
    /// longer than this is skipped with a diagnostic (a skill file's own bound), and the
    /// rows of one load together read at most `max_listing_bytes`.
    std::uint64_t max_row_head_bytes = 256 * 1024;
    std::uint64_t max_listing_bytes = 64 * 1024 * 1024;
    bool read_only = false;
};

/** One database file and one connection to it (per process). Thread-safe: a mutex
    serialises every use of the connection. Shared by the sources and tools that use it.
*/
class sqlite_store
{
public:
    static constexpr int schema_version = 1;

    /// Opens (and creates, unless read-only) the database at `path`; on failure returns
    /// nothing and says why in `error`.
    static std::shared_ptr<sqlite_store> open(std::string path, std::string& error, sqlite_options opts = {})
    {
        std::shared_ptr<sqlite_store> s(new sqlite_store(std::move(path), opts));
        std::lock_guard<std::mutex> lock(s->mutex_);
        if (!s->connect(error)) return nullptr;
        return s;
    }

    ~sqlite_store()
    {
        if (db_ && pid_ == ::getpid()) sqlite3_close_v2(db_);
    }
    sqlite_store(sqlite_store const&) = delete;
    sqlite_store& operator=(sqlite_store const&) = delete;

    std::string const& path() const noexcept { return path_; }
    sqlite_options const& options() const noexcept { return opts_; }

    /// The change counter: it grows with every committed write, from any process.
    std::optional<std::int64_t> changes(std::string* error = nullptr)
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!usable(error)) return std::nullopt;
        detail::statement st(db_, "SELECT value FROM skillmd_meta WHERE key = 'changes'");
        if (!st.prepared() || st.step() != SQLITE_ROW) {
            if (error) *error = describe("reading the change counter");
            return std::nullopt;
        }
        return st.integer(0);
    }

    /// Every row, by name, with the change counter read in the same transaction.
    std::optional<std::vector<db_skill>> list(std::int64_t* counter = nullptr, std::string* error = nullptr,
                                              bool with_content = true)
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!usable(error)) return std::nullopt;
        if (!exec("BEGIN")) {
            if (error) *error = describe("starting a read");
            return std::nullopt;
        }
        std::vector<db_skill> out;
        bool ok = true;
        {
            detail::statement c(db_, "SELECT value FROM skillmd_meta WHERE key = 'changes'");
            ok = c.prepared() && c.step() == SQLITE_ROW;
            if (ok && counter) *counter = c.integer(0);
            // Without content, a row's text comes back only within the bound: a hostile row's
            // megabytes are measured by SQLite, never copied out.
            std::string const columns =
                with_content ? "name, description, triggers, content, created_at, updated_at, revision, 0"
                             : "name, CASE WHEN h <= ?1 THEN description END, CASE WHEN h <= ?1 THEN triggers END, '', "
                               "created_at, updated_at, revision, h";
            std::string const from = with_content ? "skills" : "(SELECT rowid AS rowid, *, length(CAST(name AS BLOB)) + "
                                                               "length(CAST(description AS BLOB)) + length(CAST(triggers AS BLOB)) AS h FROM skills)";
            detail::statement st(db_, "SELECT " + columns + " FROM " + from + " ORDER BY name");
            ok = ok && st.prepared();
            if (ok && !with_content) st.bind(1, static_cast<std::int64_t>(opts_.max_row_head_bytes));
            int rc = SQLITE_DONE;
            while (ok && (rc = st.step()) == SQLITE_ROW) out.push_back(row(st));
            if (ok && rc == SQLITE_TOOBIG) {
                // A value over SQLite's length bound stops the listing at that row: the
                // rows are read one by one instead, and such a row is listed as over every
                // bound (its name, if that can be read), so it is skipped and said, alone.
                out.clear();
                rc = list_row_by_row(columns, from, with_content, out);
            }
            ok = ok && rc == SQLITE_DONE;
        }
        if (!ok && error) *error = describe("listing the skills");
        exec("COMMIT");
        if (!ok) return std::nullopt;
        return out;
    }

    /// The listing one row at a time (see list()); SQLITE_DONE when every row was listed.
    int list_row_by_row(std::string const& columns, std::string const& from, bool with_content, std::vector<db_skill>& out)
    {
        detail::statement ids(db_, "SELECT rowid FROM skills");
        detail::statement one(db_, "SELECT " + columns + " FROM " + from + " WHERE rowid = ?2");
        detail::statement name_of(db_, "SELECT name FROM skills WHERE rowid = ?1");
        if (!ids.prepared() || !one.prepared() || !name_of.prepared()) return SQLITE_ERROR;
        int rc = SQLITE_DONE;
        while ((rc = ids.step()) == SQLITE_ROW) {
            std::int64_t const id = ids.integer(0);
            one.reset();
            if (!with_content) one.bind(1, static_cast<std::int64_t>(opts_.max_row_head_bytes));
            one.bind(2, id);
            int const r = one.step();
            if (r == SQLITE_ROW) {
                out.push_back(row(one));
                continue;
            }
            if (r != SQLITE_TOOBIG) return r;
            db_skill over;
            name_of.reset();
            name_of.bind(1, id);
            over.name = name_of.step() == SQLITE_ROW ? name_of.text(0) : "(row " + std::to_string(id) + ")";
            over.head_bytes = std::numeric_limits<std::uint64_t>::max();
            out.push_back(std::move(over));
        }
        std::sort(out.begin(), out.end(), [](auto const& a, auto const& b) { return a.name < b.name; });
        return rc;
    }

    /// One row, or nothing (with `error` empty when there is no such row).
    std::optional<db_skill> load(std::string_view name, std::string* error = nullptr)
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!usable(error)) return std::nullopt;
        detail::statement st(db_, "SELECT name, description, triggers, content, created_at, updated_at, revision FROM skills WHERE name = ?1");
        if (!st.prepared()) {
            if (error) *error = describe("loading a skill");
            return std::nullopt;
        }
        st.bind(1, name);
        int const rc = st.step();
        if (rc == SQLITE_ROW) return row(st);
        if (rc != SQLITE_DONE && error) *error = describe("loading a skill");
        return std::nullopt;
    }

    /// Inserts a new row; `exists` when the name is taken.
    db_outcome insert(db_skill const& s)
    {
        return write([&](db_outcome& out) {
            {
                detail::statement q(db_, "SELECT 1 FROM skills WHERE name = ?1");
                q.bind(1, s.name);
                int const rc = q.step();
                if (rc == SQLITE_ROW) {
                    out = {db_status::exists, std::string("a database skill named '") + s.name + "' exists; use update", {}};
                    return false;
                }
                if (rc != SQLITE_DONE) return fail(out, "checking the name");
            }
            auto const rev = bump();
            if (!rev) return fail(out, "counting the change");
            detail::statement st(db_, "INSERT INTO skills (name, description, triggers, content, created_at, updated_at, revision) "
                                      "VALUES (?1, ?2, ?3, ?4, strftime('%Y-%m-%d %H:%M:%f','now'), strftime('%Y-%m-%d %H:%M:%f','now'), ?5)");
            st.bind(1, s.name).bind(2, s.description).bind(3, detail::triggers_json(s.triggers)).bind(4, s.content).bind(5, *rev);
            if (st.step() != SQLITE_DONE) return fail(out, "inserting the skill");
            return true;
        });
    }

    /// Replaces the given fields of an existing row, after `check` accepts the result.
    db_outcome modify(std::string_view name, db_update const& u, std::function<db_outcome(db_skill const&)> const& check)
    {
        return write([&](db_outcome& out) {
            db_skill current;
            {
                detail::statement q(db_, "SELECT name, description, triggers, content, created_at, updated_at, revision FROM skills WHERE name = ?1");
                q.bind(1, name);
                int const rc = q.step();
                if (rc == SQLITE_DONE) {
                    out = {db_status::not_found, std::string("no database skill named '") + std::string(name) + "'", {}};
                    return false;
                }
                if (rc != SQLITE_ROW) return fail(out, "reading the skill");
                current = row(q);
            }
            out = apply_update(current, u, check);
            if (!out.ok()) return false;
            auto const rev = bump();
            if (!rev) return fail(out, "counting the change");
            detail::statement st(db_, "UPDATE skills SET description = ?2, triggers = ?3, content = ?4, "
                                      "updated_at = strftime('%Y-%m-%d %H:%M:%f','now'), revision = ?5 WHERE name = ?1");
            st.bind(1, name).bind(2, current.description).bind(3, detail::triggers_json(current.triggers)).bind(4, current.content).bind(5, *rev);
            if (st.step() != SQLITE_DONE) return fail(out, "updating the skill");
            return true;
        });
    }

    db_outcome erase(std::string_view name)
    {
        return write([&](db_outcome& out) {
            detail::statement st(db_, "DELETE FROM skills WHERE name = ?1");
            st.bind(1, name);
            if (st.step() != SQLITE_DONE) return fail(out, "deleting the skill");
            if (sqlite3_changes(db_) == 0) {
                out = {db_status::not_found, std::string("no database skill named '") + std::string(name) + "'", {}};
                return false;
            }
            return bump().has_value() || fail(out, "counting the change");
        });
    }

    /// `PRAGMA integrity_check`: "ok", or what is wrong.
    std::string integrity()
    {
        std::lock_guard<std::mutex> lock(mutex_);
        std::string error;
        if (!usable(&error)) return error;
        detail::statement st(db_, "PRAGMA integrity_check");
        if (!st.prepared() || st.step() != SQLITE_ROW) return describe("checking integrity");
        return st.text(0);
    }

private:
    sqlite_store(std::string path, sqlite_options opts) : path_(std::move(path)), opts_(opts) {}

    static db_skill row(detail::statement const& st)
    {
        db_skill s;
        s.name = st.text(0);
        s.description = st.text(1);
        s.triggers = detail::parse_triggers_json(st.text(2));
        s.content = st.text(3);
        s.created_at = st.text(4);
        s.updated_at = st.text(5);
        s.revision = st.integer(6);
        if (st.columns() > 7) s.head_bytes = static_cast<std::uint64_t>(st.integer(7));
        return s;
    }

    bool exec(char const* sql) { return sqlite3_exec(db_, sql, nullptr, nullptr, nullptr) == SQLITE_OK; }

    std::string describe(std::string_view what) const
    {
        int const code = db_ ? sqlite3_extended_errcode(db_) : SQLITE_CANTOPEN;
        std::string msg = path_ + ": " + std::string(what) + " failed: " + (db_ ? sqlite3_errmsg(db_) : "no connection");
        if ((code & 0xff) == SQLITE_NOTADB) msg += " (not a SQLite database)";
        else if ((code & 0xff) == SQLITE_CORRUPT) msg += " (the database is corrupt)";
        else if ((code & 0xff) == SQLITE_READONLY) msg += " (the database is read-only)";
        else if ((code & 0xff) == SQLITE_FULL) msg += " (the disk is full)";
        else if ((code & 0xff) == SQLITE_BUSY) msg += " (another process held the lock past the busy timeout)";
        return msg;
    }

    bool fail(db_outcome& out, std::string_view what) const
    {
        out = {db_status::error, describe(what), {}};
        return false;
    }

    std::optional<std::int64_t> bump()
    {
        detail::statement st(db_, "UPDATE skillmd_meta SET value = value + 1 WHERE key = 'changes' RETURNING value");
        if (!st.prepared() || st.step() != SQLITE_ROW) return std::nullopt;
        std::int64_t const v = st.integer(0);
        return st.step() == SQLITE_DONE ? std::optional<std::int64_t>(v) : std::nullopt;
    }

    /// Runs `body` in BEGIN IMMEDIATE; commits when it returns true, else rolls back.
    template <class Body>
    db_outcome write(Body&& body)
    {
        std::lock_guard<std::mutex> lock(mutex_);
        db_outcome out;
        if (!usable(&out.message)) {
            out.status = db_status::error;
            return out;
        }
        if (opts_.read_only) return {db_status::error, path_ + ": the database was opened read-only", {}};
        if (!exec("BEGIN IMMEDIATE")) {
            fail(out, "starting a write");
            return out;
        }
        if (!body(out)) {
            exec("ROLLBACK");
            return out;
        }
        if (!exec("COMMIT")) {
            fail(out, "committing");
            exec("ROLLBACK");
        }
        return out;
    }

    /// A connection for this process: after fork() a new one (the inherited one is left alone).
    bool usable(std::string* error)
    {
        // Every operation gets its own time: the lock wait, then the query's own budget.
        deadline_ = std::chrono::steady_clock::now() + std::chrono::milliseconds(opts_.busy_timeout_ms) +
                    std::chrono::milliseconds(opts_.query_timeout_ms);
        if (db_ && pid_ == ::getpid()) return true;
        db_ = nullptr; // inherited from the parent: never used, never closed here
        std::string why;
        if (connect(why)) return true;
        if (error) *error = why;
        return false;
    }

    /// Opens the connection, checks the file and prepares its schema; on any failure the
    /// connection is closed and `error` says why.
    bool connect(std::string& error)
    {
        pid_ = ::getpid();
        std::int64_t version = 0;
        std::string why = open_connection();
        if (why.empty()) why = check_file(version);
        if (why.empty()) {
            if (!opts_.read_only) why = prepare_schema(version);
            else if (version < schema_version) why = describe("opening read-only a database without the schema");
        }
        if (why.empty()) return true;
        error = std::move(why); // said before closing: describe() reads the connection's error
        sqlite3_close_v2(db_);
        db_ = nullptr;
        return false;
    }

    /// Opens the file with the connection's defences: extended result codes, a busy
    /// timeout, defensive mode, an untrusted schema, the value size limit, a deadline for
    /// every query, no memory mapping. Returns why not, or "".
    std::string open_connection()
    {
        int const flags = (opts_.read_only ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) |
                          SQLITE_OPEN_FULLMUTEX;
        sqlite3* db = nullptr;
        int const rc = sqlite3_open_v2(path_.c_str(), &db, flags, nullptr);
        db_ = db;
        if (rc != SQLITE_OK) return describe("opening");
        sqlite3_extended_result_codes(db_, 1);
        sqlite3_busy_timeout(db_, opts_.busy_timeout_ms);
        sqlite3_db_config(db_, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
        sqlite3_db_config(db_, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
        sqlite3_limit(db_, SQLITE_LIMIT_LENGTH, opts_.max_value_bytes);
        // A query past its deadline is interrupted (SQLITE_INTERRUPT), whatever the file holds.
        sqlite3_progress_handler(db_, 10000, [](void* self) -> int {
            return std::chrono::steady_clock::now() > static_cast<sqlite_store*>(self)->deadline_ ? 1 : 0;
        }, this);
        if (deadline_ == std::chrono::steady_clock::time_point{})
            deadline_ = std::chrono::steady_clock::now() + std::chrono::milliseconds(opts_.query_timeout_ms);
        if (!exec("PRAGMA mmap_size = 0")) return describe("configuring");
        return {};
    }

    /// The file before any use: intact (quick_check), a schema version this skillmd knows,
    /// and nothing in it that skillmd did not create. Returns why not, or "".
    std::string check_file(std::int64_t& version)
    {
        auto const refuse = [&](std::string const& why) { return path_ + ": " + why + "; refusing to use it"; };
        {
            detail::statement qc(db_, "PRAGMA quick_check");
            if (!qc.prepared() || qc.step() != SQLITE_ROW) return describe("checking");
            if (std::string const r = qc.text(0); r != "ok") return path_ + ": the database is corrupt: " + r;
        }
        {
            detail::statement v(db_, "PRAGMA user_version");
            if (!v.prepared() || v.step() != SQLITE_ROW) return describe("reading the schema version");
            version = v.integer(0);
        }
        if (version > schema_version)
            return path_ + ": unsupported schema v" + std::to_string(version) + " (this skillmd knows v" +
                   std::to_string(schema_version) + ")";
        {
            // Every object is checked by what it is and what it belongs to, not by its name
            // alone: a trigger or a view called `skills` is as foreign as any other.
            detail::statement o(db_, "SELECT type, name FROM sqlite_schema WHERE NOT ("
                                     "(type = 'table' AND name = tbl_name AND name IN ('skills', 'skillmd_meta')) OR "
                                     "(type = 'index' AND sql IS NULL AND ("
                                     "(tbl_name = 'skills' AND name = 'sqlite_autoindex_skills_1') OR "
                                     "(tbl_name = 'skillmd_meta' AND name = 'sqlite_autoindex_skillmd_meta_1'))))");
            if (!o.prepared()) return describe("reading the schema");
            if (o.step() == SQLITE_ROW)
                return refuse("the database holds objects skillmd did not create (" + o.text(0) + " " + o.text(1) + ")");
        }
        {
            // skillmd's tables hold skillmd's columns only: no generated or hidden ones.
            detail::statement c(db_, "SELECT m.name, x.name FROM sqlite_schema AS m, pragma_table_xinfo(m.name) AS x "
                                     "WHERE m.type = 'table' AND (x.hidden != 0 OR (m.name = 'skills' AND x.name NOT IN "
                                     "('name', 'description', 'triggers', 'content', 'created_at', 'updated_at', 'revision')) "
                                     "OR (m.name = 'skillmd_meta' AND x.name NOT IN ('key', 'value')))");
            if (!c.prepared()) return describe("reading the schema");
            if (c.step() == SQLITE_ROW)
                return refuse("the table " + c.text(0) + " has a column skillmd did not create (" + c.text(1) + ")");
        }
        return {};
    }

    /// WAL, and the schema brought to this version in one transaction: v0 -> v1 is koshi's
    /// table (created if missing, given the revision column a table of koshi's own system
    /// lacks) plus the change counter. Returns why not, or "".
    std::string prepare_schema(std::int64_t version)
    {
        if (!exec("PRAGMA journal_mode = WAL")) return describe("switching to WAL");
        if (version >= schema_version) return {};
        if (!exec("BEGIN IMMEDIATE")) return describe("starting the schema");
        bool ok = exec("CREATE TABLE IF NOT EXISTS skills ("
                       "name TEXT PRIMARY KEY, description TEXT NOT NULL, triggers TEXT NOT NULL DEFAULT '[]', "
                       "content TEXT NOT NULL, created_at DATETIME DEFAULT CURRENT_TIMESTAMP, "
                       "updated_at DATETIME DEFAULT CURRENT_TIMESTAMP)");
        bool has_revision = false;
        {
            detail::statement c(db_, "SELECT 1 FROM pragma_table_info('skills') WHERE name = 'revision'");
            has_revision = c.prepared() && c.step() == SQLITE_ROW;
        }
        if (ok && !has_revision) ok = exec("ALTER TABLE skills ADD COLUMN revision INTEGER NOT NULL DEFAULT 0");
        ok = ok && exec("CREATE TABLE IF NOT EXISTS skillmd_meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL)") &&
             exec("INSERT OR IGNORE INTO skillmd_meta (key, value) VALUES ('changes', 0)") &&
             exec("PRAGMA user_version = 1");
        if (!ok) {
            std::string why = describe("creating the schema"); // before the rollback clears the error
            exec("ROLLBACK");
            return why;
        }
        if (!exec("COMMIT")) return describe("committing the schema");
        return {};
    }

    std::string path_;
    sqlite_options opts_;
    sqlite3* db_ = nullptr;
    pid_t pid_ = 0;
    std::chrono::steady_clock::time_point deadline_{};
    std::mutex mutex_;
};

/** The database as a registry tier, and koshi's operations on it.

    Candidates are marked `database`, so `files_win_over_database` lets a file skill of
    the same name win. Each row reads as the SKILL.md `db_skill_text` writes, so it goes
    through the registry's parser and dialect like a file. `unchanged()` reads the change
    counter: another process's writes are seen by the next `refresh()`.
*/
class sqlite_source
{
public:
    /// `open_error`: why `store` is null (the tier then reports it and lists nothing,
    /// and file skills still load).
    sqlite_source(std::string label, std::shared_ptr<sqlite_store> store, std::string open_error = {})
        : label_(std::move(label)), store_(std::move(store)), open_error_(std::move(open_error)),
          seen_(std::make_shared<seen>())
    {
    }

    std::string_view label() const noexcept { return label_; }
    std::shared_ptr<sqlite_store> const& store() const noexcept { return store_; }

    discovery discover() const
    {
        discovery d;
        std::string error;
        std::int64_t counter = -1;
        auto const rows = store_ ? store_->list(&counter, &error, false) : std::nullopt;
        if (!rows) {
            if (error.empty()) error = open_error_.empty() ? "the database is not available" : open_error_;
            d.diagnostics.push_back({std::string(codes::database), severity::error, store_ ? store_->path() : label_, 0, 0, error});
            return d;
        }
        // Bounded work: a row over its bound is skipped, and past the listing's bound the
        // rest are; each says so (a hostile database costs this much, no more).
        std::vector<bool> kept(rows->size(), true);
        std::uint64_t total = 0;
        std::size_t over_total = 0;
        std::uint64_t const max_row = store_->options().max_row_head_bytes, max_total = store_->options().max_listing_bytes;
        for (std::size_t i = 0; i < rows->size(); ++i) {
            auto const& r = (*rows)[i];
            if (r.head_bytes > max_row) {
                kept[i] = false;
                bool const unreadable = r.head_bytes == std::numeric_limits<std::uint64_t>::max();
                d.diagnostics.push_back({std::string(codes::database), severity::error, locator(r.name), 0, 0,
                                         unreadable ? "the row holds a value longer than the database's bound of " +
                                                          std::to_string(store_->options().max_value_bytes) + " bytes; skipped"
                                                    : "the row's name, description and triggers take " + std::to_string(r.head_bytes) +
                                                          " bytes, over the bound of " + std::to_string(max_row) + "; skipped"});
            } else if ((total += r.head_bytes) > max_total) {
                kept[i] = false;
                ++over_total;
            }
        }
        if (over_total)
            d.diagnostics.push_back({std::string(codes::database), severity::error, store_->path(), 0, 0,
                                     std::to_string(over_total) + " row(s) skipped: the listing is over its bound of " +
                                         std::to_string(max_total) + " bytes"});
        {
            std::lock_guard<std::mutex> lock(seen_->mutex);
            seen_->at_discover = counter;
            seen_->heads.clear();
            for (std::size_t i = 0; i < rows->size(); ++i)
                if (kept[i]) seen_->heads.emplace((*rows)[i].name, (*rows)[i]);
        }
        for (std::size_t i = 0; i < rows->size(); ++i) {
            if (!kept[i]) continue;
            auto const& r = (*rows)[i];
            candidate c;
            c.command = r.name;
            c.path = locator(r.name);
            c.directory_name = r.name;
            c.database = true;
            c.stamp = {0, 0, r.description.size() + r.triggers.size(), r.revision};
            d.skills.push_back(std::move(c));
        }
        return d;
    }

    /// The frontmatter from the rows `discover()` just listed (no second query), when
    /// the row has not changed since; else the whole row.
    read_outcome read_head(candidate const& c) const
    {
        {
            std::lock_guard<std::mutex> lock(seen_->mutex);
            if (auto const it = seen_->heads.find(c.command); it != seen_->heads.end() && it->second.revision == c.stamp.mtime_ns) {
                read_outcome r;
                r.text = db_skill_text(it->second.name, it->second.description, it->second.triggers, "");
                r.stamp = c.stamp;
                return r; // not complete: the body is read when asked for
            }
        }
        return read_all(c);
    }
    read_outcome read_all(candidate const& c) const
    {
        read_outcome r;
        std::string error;
        auto const row = store_ ? store_->load(c.command, &error) : std::nullopt;
        if (!row) {
            r.error = error.empty() ? "no longer in the database" : error;
            r.absent = error.empty();
            return r;
        }
        r.text = db_skill_text(row->name, row->description, row->triggers, row->content);
        r.complete = true;
        r.stamp = {0, 0, row->description.size() + row->triggers.size(), row->revision};
        return r;
    }

    bool watch(discovery const&) const
    {
        std::lock_guard<std::mutex> lock(seen_->mutex);
        seen_->watched = seen_->at_discover;
        return seen_->watched >= 0;
    }
    bool unchanged() const
    {
        auto const now = store_ ? store_->changes() : std::nullopt;
        std::lock_guard<std::mutex> lock(seen_->mutex);
        return now && seen_->watched >= 0 && *now == seen_->watched;
    }

    /// `create_skill`: refused when a file skill or a database skill has the name, or
    /// when the skill fails validation.
    db_outcome create(db_skill const& s, skill_validator const& validate, file_skill_check const& is_file = {}) const
    {
        if (is_file && is_file(s.name))
            return {db_status::file_skill, std::string("a file skill named '") + s.name + "' exists; files win and are not changed here", {}};
        if (!store_) return unavailable();
        if (auto bad = check(s, validate); !bad.ok()) return bad;
        return store_->insert(s);
    }

    /// `update_skill`: only the given fields change; the result is validated.
    db_outcome update(std::string_view name, db_update const& u, skill_validator const& validate,
                      file_skill_check const& is_file = {}) const
    {
        if (is_file && is_file(name))
            return {db_status::file_skill, std::string("'") + std::string(name) + "' is a file skill; file skills cannot be changed through the database", {}};
        if (!store_) return unavailable();
        return store_->modify(name, u, [&](db_skill const& next) { return check(next, validate); });
    }

    /// `delete_skill`: database skills only.
    db_outcome remove(std::string_view name, file_skill_check const& is_file = {}) const
    {
        if (!store_) return unavailable();
        if (is_file && is_file(name)) {
            // A database row shadowed by a file may still be deleted; the file never is.
            auto const row = store_->load(name);
            if (!row)
                return {db_status::file_skill, std::string("'") + std::string(name) + "' is a file skill; file skills cannot be deleted through the database", {}};
        }
        return store_->erase(name);
    }

    std::string locator(std::string_view name) const { return (store_ ? store_->path() : std::string()) + "#" + std::string(name); }

private:
    db_outcome unavailable() const
    {
        return {db_status::error, open_error_.empty() ? "the database is not available" : open_error_, {}};
    }

    db_outcome check(db_skill const& s, skill_validator const& validate) const
    {
        return check_db_skill(s, validate, locator(s.name));
    }

    struct seen
    {
        std::mutex mutex;
        std::int64_t at_discover = -1;
        std::int64_t watched = -1;
        std::map<std::string, db_skill, std::less<>> heads; ///< the last discovery's rows, without content
    };
    std::string label_;
    std::shared_ptr<sqlite_store> store_;
    std::string open_error_;
    std::shared_ptr<seen> seen_;
};

static_assert(skill_source<sqlite_source>, "sqlite_source must model skill_source");

} // namespace skillmd

#endif
