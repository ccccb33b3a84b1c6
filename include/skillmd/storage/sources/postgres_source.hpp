// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_STORAGE_SOURCES_POSTGRES_SOURCE_HPP
#define SKILLMD_STORAGE_SOURCES_POSTGRES_SOURCE_HPP

// The fleet tier: agent-created skills shared by many agents on many machines, in
// PostgreSQL (libpq). The same rows, operations, refusals and validation as the SQLite
// tier, plus what a shared server needs:
//   - namespaces (a team, a project), and which roles read or write each one enforced by
//     PostgreSQL itself: agents' roles have no privilege on the tables; they read and
//     write through SECURITY DEFINER functions that serve only the namespaces granted to
//     them (docs/security-tenancy.md);
//   - a change counter per namespace, bumped in the writing transaction by a trigger
//     (its row lock orders writers, so the counter is a watermark), and a NOTIFY on a
//     channel whose name only the namespace's members can learn;
//   - no lost update (a row changes only at the revision its writer read, if asked);
//   - a server that goes away: the last snapshot stays (with a diagnostic), the
//     connection comes back with back-off, and a local snapshot file lets an agent start
//     while the server is down (stale, and marked so).
// Statements use bound parameters only; every write is one transaction. Link
// `skillmd::postgres` (libpq); nothing else includes this header.

#include <skillmd/storage/db_skill.hpp>
#include <skillmd/storage/source.hpp>
#include <skillmd/storage/sources/impl/postgres_helpers.hpp>
#include <skillmd/detail/prompt_text.hpp>

#include <boost/json.hpp>

#include <libpq-fe.h>

#include <algorithm>
#include <limits>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <functional>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

namespace skillmd {

struct postgres_options
{
    std::string conninfo;                           ///< a libpq connection string or URI
    int connect_timeout_s = 5;                      ///< unless the connection string says otherwise
    int statement_timeout_ms = 5000;                ///< every statement, and every lock wait
    std::chrono::milliseconds first_retry{200};     ///< after a failure, the wait before reconnecting
    std::chrono::milliseconds last_retry{10000};    ///< the wait doubles up to this
    std::size_t max_value_bytes = 8 * 1024 * 1024;  ///< the longest content a write may carry
    /// How often a changed snapshot is written to the local snapshot file: writing 10,000
    /// skills costs tens of milliseconds, too much for every change of a busy namespace.
    std::chrono::milliseconds snapshot_every{30000};
    /// How often a tier that cannot be told of writes asks for its namespace's change
    /// counter while it waits: on a standby (a server in recovery cannot LISTEN, and
    /// notifications are never replicated) and behind a transaction pooler.
    std::chrono::milliseconds poll_interval{250};
    /// The server is reached through a pooler in transaction mode (PgBouncer's
    /// `pool_mode = transaction`): each transaction may run on another server connection,
    /// so nothing that lives in a session is used. No LISTEN (the pooler would hand a
    /// connection's notifications to whichever client gets it next): the tier polls. No
    /// session settings (they would stay on a server connection other clients then use):
    /// the limits are set per transaction, and statements outside one are bounded by the
    /// role's or the pooler's own settings (docs/fleet.md).
    bool transaction_pooler = false;
};

/// Who may do what in a namespace.
enum class namespace_access : std::uint8_t { read, write };

/** One PostgreSQL database and one connection to it (per process), shared by the tiers
    and tools that use it. Thread-safe: a mutex serialises every use of the connection.
    The store exists even when the server does not answer: every operation (re)connects
    when needed, no sooner than the back-off allows, and says why it could not.
*/
class postgres_store
{
public:
    static constexpr std::int64_t schema_version = 2;

    explicit postgres_store(postgres_options opts) : opts_(std::move(opts)) {}
    ~postgres_store()
    {
        if (conn_ && pid_ == ::getpid()) PQfinish(conn_);
    }
    postgres_store(postgres_store const&) = delete;
    postgres_store& operator=(postgres_store const&) = delete;

    /// A store, connected now if the server answers (`error` says why not).
    static std::shared_ptr<postgres_store> open(postgres_options opts, std::string& error)
    {
        auto s = std::make_shared<postgres_store>(std::move(opts));
        std::lock_guard<std::mutex> lock(s->mutex_);
        error.clear();
        s->usable(&error);
        return s;
    }

    /// Where the store points, for messages: the connection string without a password.
    std::string where() const
    {
        std::string out;
        PQconninfoOption* opts = PQconninfoParse(opts_.conninfo.c_str(), nullptr);
        if (opts == nullptr) return "postgresql";
        for (auto* o = opts; o->keyword; ++o)
            if (o->val && *o->val && std::string_view(o->keyword) != "password")
                out.append(" ").append(o->keyword).append("=").append(o->val);
        PQconninfoFree(opts);
        return out.empty() ? "postgresql" : "postgresql:" + out.substr(1);
    }

    postgres_options const& options() const noexcept { return opts_; }

    /// Whether the connection (made now if there is none) was to a standby, a server in
    /// recovery, when it was made: it serves reads, refuses writes and announces nothing.
    /// A standby promoted since is still reported as one (and still polled) until the
    /// store reconnects. Nothing when no server answers, or behind a transaction pooler
    /// (each transaction may go to another server).
    std::optional<bool> standby(std::string* error = nullptr)
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!usable(error) || opts_.transaction_pooler) return std::nullopt;
        return standby_;
    }

    /// How many times a connection was made (a new one may have missed notifications).
    std::uint64_t generation() const
    {
        std::lock_guard<std::mutex> lock(mutex_);
        return generation_;
    }

    /// What a sync of one namespace saw, in one snapshot of the database.
    struct sync_result
    {
        std::int64_t counter = 0; ///< the namespace's change counter
        /// Only what changed after the counter the sync was given: `removed` and `changed`
        /// then say everything, and `present` is empty.
        bool delta = false;
        std::vector<std::pair<std::string, std::int64_t>> present; ///< every row: name, revision
        std::vector<std::string> removed;                          ///< names deleted since (a delta)
        std::vector<db_skill> changed;                             ///< whole, the rows `known` lacks or has at another revision
        /// Which server's history was read (its postmaster's start time): the feed is
        /// followed only from a sync of the same one.
        std::string server;
    };

    /** The namespace in one read-only snapshot: every row's name and revision, and the
        whole rows whose revision is not the one in `known` (name -> revision). A quiet
        namespace of 10,000 skills costs a list of names, not their texts.
    */
    std::optional<sync_result> sync(std::string const& ns, std::map<std::string, std::int64_t, std::less<>> const& known,
                                    std::string* error)
    {
        return sync(ns, -1, {}, [&](std::string const& name) -> std::optional<std::int64_t> {
            auto const k = known.find(name);
            if (k == known.end()) return std::nullopt;
            return k->second;
        }, error);
    }

    /** The same from a snapshot taken at counter `since` (-1: none) of `server` (the
        `sync_result::server` of that sync), in which `revision_of(name)` is a row's
        revision. Where the server keeps the change feed, is the same server, and `since`
        is recent enough, only the rows written after it come, whole, with the names
        deleted since (a `delta`): the cost is the change's, not the namespace's.
        Otherwise every name and revision is read, as above. Another server (a promoted
        standby, a restored backup, another server behind the same pooler) may have
        another history where the counters agree, so it is compared name by name once.
        Whether an announcement said what changed does not matter: any role may send one
        on a channel it knows, so what changed is always asked of the server.
    */
    template <class RevisionOf>
    std::optional<sync_result> sync(std::string const& ns, std::int64_t since, std::string const& server, RevisionOf&& revision_of,
                                    std::string* error)
    {
        std::lock_guard<std::mutex> lock(mutex_);
        // The whole sync, a reconnection included, within the statement limit and a second
        // (but for the connection's own connect_timeout).
        bounded_operation const bounded(*this, statement_deadline());
        if (!usable(error)) return std::nullopt;
        // Listening starts before the snapshot, and what was announced before the snapshot
        // is in it: only later announcements wake `wait`.
        listen_for(ns, true);
        collect();
        dirty_.erase(ns);
        if (!begin("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", error)) return std::nullopt;
        sync_result out;
        auto const c = query("SELECT skillmd.namespace_counter($1), pg_catalog.pg_postmaster_start_time()::text", {ns});
        bool ok = c.ok() && c.rows() == 1;
        std::string why = ok ? "" : describe("reading namespace " + ns, c);
        if (ok) {
            out.counter = c.integer(0, 0);
            out.server = c.text(0, 1);
            polls_[ns].synced = out.counter;
            if (out.server != server) since = -1;
        }
        if (ok && feed_ && since >= 0 && out.counter >= since) {
            // A counter below `since`: a reset, or a grant taken away (an unreadable
            // namespace counts 0): every name is read again. One that has not moved: nothing
            // was written, and nothing deleted.
            out.delta = out.counter == since;
            if (!out.delta) {
                auto const d = query(select_rows + std::string("skillmd.skill_changes($1, $2)"), {ns, std::to_string(since)});
                ok = d.ok();
                if (!ok) why = describe("reading what changed in " + ns, d);
                // The feed's floor first (a row without a name): below it, deletions were forgotten.
                out.delta = ok && (d.rows() == 0 || (d.null(0, 0) && since >= d.integer(0, 6)));
                for (int i = 1; out.delta && i < d.rows(); ++i) {
                    if (d.null(i, 1)) out.removed.push_back(d.text(i, 0)); // no description: a deletion
                    else out.changed.push_back(row(d, i));
                }
            }
        }
        if (ok && !out.delta) {
            auto const h = query("SELECT name, revision FROM skillmd.skill_names($1)", {ns});
            ok = h.ok();
            if (!ok) why = describe("reading namespace " + ns, h);
            boost::json::array changed;
            out.present.reserve(static_cast<std::size_t>(h.rows()));
            for (int i = 0; ok && i < h.rows(); ++i) {
                out.present.emplace_back(h.text(i, 0), h.integer(i, 1));
                if (revision_of(out.present.back().first) != std::optional<std::int64_t>(out.present.back().second))
                    changed.emplace_back(out.present.back().first);
            }
            if (ok && !changed.empty()) {
                // One query for every changed row: the names as a JSON array, bound as one parameter.
                auto const b = query(select_rows + std::string("skillmd.skill_rows($1, $2::jsonb)"), {ns, boost::json::serialize(changed)});
                ok = b.ok();
                if (!ok) why = describe("reading the changed skills of " + ns, b);
                for (int i = 0; ok && i < b.rows(); ++i) out.changed.push_back(row(b, i));
            }
        }
        if (!ok && error) *error = why;
        exec("COMMIT", nullptr);
        if (!ok) return std::nullopt;
        return out;
    }

    /// Whether the connection's server keeps the change feed (`sync` with a `since`).
    bool has_feed() const
    {
        std::lock_guard<std::mutex> lock(mutex_);
        return feed_;
    }

    /// The namespace's change counter (0 before its first write), or nothing.
    std::optional<std::int64_t> counter(std::string const& ns, std::string* error)
    {
        std::lock_guard<std::mutex> lock(mutex_);
        {
            bounded_operation const bounded(*this, statement_deadline()); // a reconnection included (its connect_timeout aside)
            if (!usable(error)) return std::nullopt;
        }
        auto const r = query("SELECT skillmd.namespace_counter($1)", {ns});
        if (!r.ok() || r.rows() != 1) {
            if (error) *error = describe("reading the change counter", r);
            return std::nullopt;
        }
        return r.integer(0, 0);
    }

    /// One row, or nothing (with `error` empty when there is no such row).
    std::optional<db_skill> load(std::string const& ns, std::string_view name, std::string* error = nullptr)
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!usable(error)) return std::nullopt;
        auto const r = query(select_rows + std::string("skillmd.skill_rows($1, $2::jsonb)"),
                             {ns, boost::json::serialize(boost::json::array{boost::json::string(name)})});
        if (!r.ok()) {
            if (error) *error = describe("loading a skill", r);
            return std::nullopt;
        }
        if (r.rows() == 0) return std::nullopt;
        return row(r, 0);
    }

    /// Inserts a new row; `exists` when the name is taken (whoever wrote it first wins).
    db_outcome insert(std::string const& ns, db_skill const& s)
    {
        return write([&](db_outcome& out) {
            auto const r = query("SELECT skillmd.skill_insert($1, $2, $3, $4::jsonb, $5)",
                                 {ns, s.name, s.description, detail::triggers_json(s.triggers), s.content});
            if (!r.ok() || r.rows() != 1) return fail(out, "inserting the skill", r);
            if (r.null(0, 0)) { // the name is taken
                out = {db_status::exists, "a database skill named '" + s.name + "' exists in namespace " + ns + "; use update", {}};
                return false;
            }
            return true;
        });
    }

    /// Replaces the given fields of an existing row (locked while it is read), after
    /// `check` accepts the result; `conflict` when `u.revision` is not the row's.
    db_outcome modify(std::string const& ns, std::string_view name, db_update const& u,
                      std::function<db_outcome(db_skill const&)> const& check)
    {
        return write([&](db_outcome& out) {
            auto const q = query(select_rows + std::string("skillmd.skill_lock($1, $2)"), {ns, std::string(name)});
            if (!q.ok()) return fail(out, "reading the skill", q);
            if (q.rows() == 0) {
                out = {db_status::not_found, "no database skill named '" + std::string(name) + "' in namespace " + ns, {}};
                return false;
            }
            db_skill current = row(q, 0);
            out = apply_update(current, u, check);
            if (!out.ok()) return false;
            auto const r = query("SELECT skillmd.skill_update($1, $2, $3, $4::jsonb, $5)",
                                 {ns, std::string(name), current.description, detail::triggers_json(current.triggers), current.content});
            if (!r.ok() || r.rows() != 1) return fail(out, "updating the skill", r);
            if (r.null(0, 0)) { // cannot happen while the row is locked; said plainly if it does
                out = {db_status::not_found, "no database skill named '" + std::string(name) + "' in namespace " + ns, {}};
                return false;
            }
            return true;
        });
    }

    db_outcome erase(std::string const& ns, std::string_view name)
    {
        return write([&](db_outcome& out) {
            auto const r = query("SELECT skillmd.skill_delete($1, $2)", {ns, std::string(name)});
            if (!r.ok() || r.rows() != 1) return fail(out, "deleting the skill", r);
            if (r.text(0, 0) != "t") {
                out = {db_status::not_found, "no database skill named '" + std::string(name) + "' in namespace " + ns, {}};
                return false;
            }
            return true;
        });
    }

    /// Lets `role` (and its members) read, or read and write, namespace `ns`. Only the
    /// schema's owner can (it writes `skillmd.grants` itself): for anyone else PostgreSQL
    /// refuses.
    db_outcome grant(std::string const& ns, std::string const& role, namespace_access access)
    {
        return write([&](db_outcome& out) {
            auto const r = query("INSERT INTO skillmd.grants (namespace, role, can_write) VALUES ($1, $2, $3) "
                                 "ON CONFLICT (namespace, role) DO UPDATE SET can_write = EXCLUDED.can_write",
                                 {ns, role, access == namespace_access::write ? "true" : "false"});
            return r.ok() || fail(out, "granting access", r);
        });
    }
    db_outcome revoke(std::string const& ns, std::string const& role)
    {
        return write([&](db_outcome& out) {
            auto const r = query("DELETE FROM skillmd.grants WHERE namespace = $1 AND role = $2", {ns, role});
            return r.ok() || fail(out, "revoking access", r);
        });
    }

    /// Takes the notifications that arrived, without waiting; true when one names `ns`.
    /// (A renewed connection may have missed some: compare `generation()`.) Where nothing
    /// is announced (a standby, a transaction pooler), asks for the change counter instead,
    /// at most once per `poll_interval`: true when it moved past the last sync of `ns`.
    bool notified(std::string const& ns)
    {
        std::lock_guard<std::mutex> lock(mutex_);
        listen_for(ns);
        collect();
        if (dirty_.erase(ns) > 0) return true;
        return conn_ && !announced_ && polled_change(ns, std::nullopt, std::chrono::steady_clock::now() + poll_interval());
    }

    /** Waits until a write to `ns` is announced, or `timeout` passes; true for an
        announcement, or for a connection renewed after `since` (a `generation()`), which
        may have missed one: resynchronise. Where nothing is announced (a standby, a
        transaction pooler), true once the namespace's change counter differs from `seen`
        (by default the counter of the last sync of `ns`), asked at most once per
        `poll_interval`. While the server is unreachable it keeps trying to reconnect,
        within the time given.
    */
    bool wait(std::string const& ns, std::chrono::milliseconds timeout, std::uint64_t since, std::optional<std::int64_t> seen = {})
    {
        auto const until = std::chrono::steady_clock::now() + std::max(timeout, std::chrono::milliseconds(0));
        while (true) {
            int fd = -1;
            bool polling = false;
            {
                std::lock_guard<std::mutex> lock(mutex_);
                bool up = false;
                {
                    bounded_operation const bounded(*this, until); // a reconnection's statements end with the wait
                    up = usable(nullptr);
                }
                if (up) {
                    listen_for(ns);
                    collect();
                    if (conn_) fd = PQsocket(conn_);
                }
                if (dirty_.erase(ns) > 0 || (conn_ && generation_ != since)) return true;
                // No announcement can come here (a standby, a pooler): the counter is
                // asked for instead, within the time left.
                polling = conn_ && !announced_;
                if (polling && polled_change(ns, seen, until)) return true;
            }
            auto const now = std::chrono::steady_clock::now();
            if (now >= until) return false;
            auto wake = until;
            if (polling) {
                fd = -1; // nothing will arrive on the socket: sleep until the next question
                std::lock_guard<std::mutex> lock(mutex_);
                if (auto const p = polls_.find(ns); p != polls_.end()) wake = std::min(wake, p->second.at + poll_interval());
            }
            auto const slice_ms = std::clamp<std::int64_t>(std::chrono::ceil<std::chrono::milliseconds>(wake - now).count(), 1, 100);
            int const slice = static_cast<int>(slice_ms);
            if (fd >= 0) {
                pollfd p{fd, POLLIN, 0};
                ::poll(&p, 1, slice);
            } else {
                ::usleep(static_cast<useconds_t>(slice) * 1000);
            }
        }
    }

    /// How many announcements are held, taken but not yet asked for by `notified` or
    /// `wait`: at most one per namespace this store was asked about (`sync`, `wait`,
    /// `notified`), whatever arrives on the connection.
    std::size_t pending_notifications() const
    {
        std::lock_guard<std::mutex> lock(mutex_);
        return dirty_.size();
    }

    /// The connection's socket, for an agent's own poll loop (readable when a
    /// notification may have arrived; then call `notified`). -1 while disconnected, and
    /// where nothing is announced (a standby, a transaction pooler): call `notified` or
    /// `wait` every so often then. It changes when the store reconnects.
    int socket() const
    {
        std::lock_guard<std::mutex> lock(mutex_);
        return conn_ && pid_ == ::getpid() && announced_ ? PQsocket(conn_) : -1;
    }

private:
    /// The columns of `skillmd.skill_rows` and `skillmd.skill_lock`, for `row`.
    static constexpr char const* select_rows = "SELECT name, description, triggers, content, created_at, updated_at, revision FROM ";

    static db_skill row(detail::pg_result const& r, int i)
    {
        db_skill s;
        s.name = r.text(i, 0);
        s.description = r.text(i, 1);
        s.triggers = detail::parse_triggers_json(r.text(i, 2));
        s.content = r.text(i, 3);
        s.created_at = r.text(i, 4);
        s.updated_at = r.text(i, 5);
        s.revision = r.integer(i, 6);
        return s;
    }

    detail::pg_result query(std::string const& sql, std::vector<std::string> const& params)
    {
        std::vector<char const*> values;
        std::vector<int> lengths;
        for (auto const& p : params) {
            values.push_back(p.c_str());
            lengths.push_back(static_cast<int>(p.size()));
        }
        auto const deadline = statement_deadline();
        unanswered_ = false;
        bool const sent = settle(deadline) && PQsendQueryParams(conn_, sql.c_str(), static_cast<int>(params.size()), nullptr,
                                                                values.data(), lengths.data(), nullptr, 0);
        auto r = answer(sent, deadline);
        if (!r.ok()) note_broken();
        return r;
    }

    /// `sql`, one statement or several separated by `;`, without parameters.
    bool exec(char const* sql, std::string* error)
    {
        auto const deadline = statement_deadline();
        unanswered_ = false;
        auto const r = answer(settle(deadline) && PQsendQuery(conn_, sql), deadline);
        if (r.ok()) return true;
        if (error) *error = describe(first_line(sql + std::strspn(sql, "\n ")).substr(0, 60), r); // a script's first line says which
        note_broken();
        return false;
    }

    /// When the statement sent now must have been answered: the statement limit and a
    /// second more, or the operation's end (`operation_end_`, a sync's) if sooner.
    std::chrono::steady_clock::time_point statement_deadline() const
    {
        auto const own = std::chrono::steady_clock::now() + std::chrono::milliseconds(std::max(opts_.statement_timeout_ms, 1)) +
                         std::chrono::seconds(1);
        return operation_end_ ? std::min(own, *operation_end_) : own;
    }

    /** The answer to what was just sent (the first failure of several statements, else
        the last result), by `deadline`. The server enforces statement_timeout once a
        statement runs, but a transaction pooler queues it first with no limit of ours
        (PgBouncer's query_wait_timeout is two minutes by default), and a server or a
        network can stop answering: past the deadline the connection is closed (an open
        transaction aborts with it; a COMMIT's outcome is unknown) and made again after
        the back-off. Never cancelled: libpq's PQcancel waits without a limit, and a
        COMMIT cancelled while it waits for a synchronous standby is kept on the primary
        alone yet answers as committed. The send is flushed within the deadline too (the
        connection does not block: a server that stops reading cannot hold a write of
        megabytes). A result that failed to come is empty; `unanswered_` says it was late.
    */
    detail::pg_result answer(bool sent, std::chrono::steady_clock::time_point deadline)
    {
        if (!sent) return detail::pg_result();
        notices_.clear();
        if (!flushed(deadline)) return give_up();
        detail::pg_result kept;
        while (true) {
            if (!PQconsumeInput(conn_)) return detail::pg_result(); // the connection failed: describe says so
            while (!PQisBusy(conn_)) {
                PGresult* r = PQgetResult(conn_);
                if (r == nullptr) return kept;
                if (!kept.get() || kept.ok()) kept = detail::pg_result(r);
                else PQclear(r);
            }
            if (!readable(deadline)) return give_up();
        }
    }

    /// Everything sent has left, by `deadline` (false: it could not).
    bool flushed(std::chrono::steady_clock::time_point deadline)
    {
        while (true) {
            int const f = PQflush(conn_);
            if (f == 0) return true;
            if (f < 0) return false;
            pollfd p{PQsocket(conn_), POLLOUT | POLLIN, 0};
            if (!await(p, deadline)) return false;
            if ((p.revents & POLLIN) && !PQconsumeInput(conn_)) return false; // read, so a server that writes can go on reading
        }
    }
    bool readable(std::chrono::steady_clock::time_point deadline)
    {
        pollfd p{PQsocket(conn_), POLLIN, 0};
        return await(p, deadline);
    }
    /// Polls `p` until it is ready or `deadline` passes (false).
    static bool await(pollfd& p, std::chrono::steady_clock::time_point deadline)
    {
        while (true) {
            auto const left = std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
            if (left <= 0) return false;
            p.revents = 0;
            int const n = ::poll(&p, 1, static_cast<int>(std::min<std::int64_t>(left, 1000)));
            if (n > 0) return true;
            if (n < 0 && errno != EINTR) return false;
        }
    }
    /// No answer in time: the connection goes.
    detail::pg_result give_up()
    {
        unanswered_ = true;
        poll_in_flight_ = false;
        PQfinish(conn_);
        conn_ = nullptr;
        back_off();
        return detail::pg_result();
    }

    /** The connection ready for a statement: a poll still in flight (sent by `wait`, which
        returned at its own deadline) is answered and dropped first, by `deadline`, or the
        connection goes. False without a connection. */
    bool settle(std::chrono::steady_clock::time_point deadline)
    {
        if (!conn_) return false;
        if (!poll_in_flight_) return true;
        poll_in_flight_ = false;
        answer(true, std::min(deadline, poll_deadline_));
        return conn_ != nullptr;
    }

    std::string describe(std::string const& what, detail::pg_result const& r) const
    {
        std::string msg = where() + ": " + what + " failed: ";
        std::string const state = r.sqlstate();
        if (unanswered_)
            msg += "no answer within " + std::to_string(opts_.statement_timeout_ms) +
                   " ms and a second, so the connection was closed (a pooler's queue may be full: its query_wait_timeout applies, "
                   "not statement_timeout)";
        else if (state == "42501") msg += "permission denied (" + r.message() + ")";
        else if (state == "57014") msg += "the statement ran past statement_timeout";
        else if (conn_ && PQstatus(conn_) != CONNECTION_OK) msg += "the connection was lost (" + first_line(PQerrorMessage(conn_)) + ")";
        else msg += r.message();
        if (!state.empty()) msg += " [SQLSTATE " + state + "]";
        return msg;
    }

    static std::string first_line(char const* s)
    {
        std::string m = s ? s : "";
        if (auto nl = m.find('\n'); nl != std::string::npos) m.resize(nl);
        return m;
    }

    bool fail(db_outcome& out, std::string const& what, detail::pg_result const& r) const
    {
        out = {db_status::error, describe(what, r), {}};
        return false;
    }

    /// Runs `body` in one transaction; commits when it returns true, else rolls back. A
    /// commit whose answer is lost is reported as an error whose outcome is unknown.
    template <class Body>
    db_outcome write(Body&& body)
    {
        std::lock_guard<std::mutex> lock(mutex_);
        db_outcome out;
        if (!usable(&out.message)) {
            out.status = db_status::error;
            return out;
        }
        if (!begin("BEGIN", &out.message)) {
            out.status = db_status::error;
            return out;
        }
        if (!body(out)) {
            exec("ROLLBACK", nullptr);
            return out;
        }
        std::string why;
        if (!exec("COMMIT", &why)) {
            bool const known = conn_ && PQstatus(conn_) == CONNECTION_OK && !unanswered_;
            out = {db_status::error, why + (known ? "" : "; whether the write was kept is unknown"), {}};
            exec("ROLLBACK", nullptr);
        } else if (auto const w = std::find_if(notices_.begin(), notices_.end(),
                                               [](auto const& n) {
                                                   return n.starts_with("WARNING") && n.find("synchronous replication") != std::string::npos;
                                               });
                   w != notices_.end()) {
            // Committed, and yet warned: PostgreSQL answers so when the wait for a
            // synchronous standby was cancelled (by an administrator, or a timeout): the
            // write is on the primary only, and a failover now would lose it.
            out = {db_status::error, where() + ": the write was committed on the primary, but the server warned (" +
                                         detail::clean_line(*w) + "): it may not be on a standby, and a failover may lose it",
                   {}};
        }
        return out;
    }

    void note_broken()
    {
        if (conn_ && PQstatus(conn_) != CONNECTION_OK) {
            PQfinish(conn_);
            conn_ = nullptr;
            back_off();
        }
    }
    void back_off()
    {
        retry_at_ = std::chrono::steady_clock::now() + wait_;
        wait_ = std::min(opts_.last_retry, std::max(opts_.first_retry, wait_ * 2));
    }

    void collect()
    {
        if (!conn_) return;
        if (PQconsumeInput(conn_) == 0) {
            note_broken();
            return;
        }
        // Only the channels of namespaces this store listens for count; anything else on
        // the connection (there should be nothing) is dropped at once, so what is kept
        // never outgrows the namespaces asked about. Payloads are not read.
        while (PGnotify* n = PQnotifies(conn_)) {
            if (auto const it = by_channel_.find(std::string_view(n->relname)); it != by_channel_.end()) dirty_.insert(it->second);
            PQfreemem(n);
        }
    }

    /** Listens for announcements of writes to `ns` on its channel, whose name (a keyed
        hash of the namespace) only a role that may read `ns` can learn from the server.
        Once per namespace and connection; a namespace not (yet) readable is asked about
        again when `retry` (at each sync, not at each turn of `wait`). */
    void listen_for(std::string const& ns, bool retry = false)
    {
        if (!conn_ || pid_ != ::getpid() || !announced_) return;
        if (auto const it = channels_.find(ns); it != channels_.end() && (!it->second.empty() || !retry)) return;
        auto const r = query("SELECT skillmd.namespace_channel($1)", {ns});
        if (!r.ok() || r.rows() != 1) return;
        std::string const name = r.null(0, 0) ? "" : r.text(0, 0);
        if (!name.empty()) {
            char* quoted = PQescapeIdentifier(conn_, name.c_str(), name.size());
            if (quoted == nullptr) return;
            std::string const listen = "LISTEN " + std::string(quoted);
            PQfreemem(quoted);
            if (!exec(listen.c_str(), nullptr)) return;
            by_channel_[name] = ns;
        }
        channels_[ns] = name;
    }

    /// A connection for this process, listening and with the schema checked. After
    /// fork() a new one (the inherited one is left alone). Within the back-off after a
    /// failure, no new attempt is made.
    bool usable(std::string* error)
    {
        if (conn_ && pid_ == ::getpid() && PQstatus(conn_) == CONNECTION_OK) return true;
        if (pid_ != ::getpid()) conn_ = nullptr; // inherited: never used, never closed here
        if (conn_) {
            PQfinish(conn_);
            conn_ = nullptr;
        }
        if (std::chrono::steady_clock::now() < retry_at_) {
            if (error) *error = where() + ": unreachable (" + last_error_ + "); the next attempt is after a pause";
            return false;
        }
        pid_ = ::getpid();
        std::string why = connect();
        if (why.empty()) {
            wait_ = std::chrono::milliseconds(0);
            ++generation_; // a new connection may have missed announcements: readers resynchronise
            return true;
        }
        if (conn_) PQfinish(conn_);
        conn_ = nullptr;
        last_error_ = why;
        wait_ = std::min(opts_.last_retry, std::max(opts_.first_retry, wait_ * 2));
        retry_at_ = std::chrono::steady_clock::now() + wait_;
        if (error) *error = why;
        return false;
    }

    /// `poll_interval`, kept sane: a zero or negative interval would ask a thousand times a
    /// second, and a huge one would overflow the clock.
    std::chrono::milliseconds poll_interval() const
    {
        return std::clamp(opts_.poll_interval, std::chrono::milliseconds(1), std::chrono::milliseconds(3600 * 1000));
    }

    /** Asks for the change counter of `ns`, unless it was asked for less than a
        poll_interval ago; true when it moved past `seen` (by default the counter of the
        last sync of `ns`) to a value not reported before. Reporting a value once keeps a
        caller whose sync keeps failing from asking again at once, as a notification comes
        once. The question is sent and awaited on the socket: it gives up at `until` (a
        pooler may queue it far longer), then cancels it. Called with mutex_ held.
    */
    bool polled_change(std::string const& ns, std::optional<std::int64_t> seen, std::chrono::steady_clock::time_point until)
    {
        auto& p = polls_[ns];
        auto const now = std::chrono::steady_clock::now();
        if (now < p.at + poll_interval() || now >= until) return false;
        p.at = now;
        auto const deadline = std::min(until, now + std::chrono::milliseconds(std::max(opts_.statement_timeout_ms, 1)));
        auto const counter = counter_within(ns, deadline);
        if (!counter) return false;
        std::int64_t const against = seen ? *seen : p.synced;
        if (*counter == against || *counter == p.reported) return false;
        p.reported = *counter;
        return true;
    }

    /// The counter of `ns`, asked without blocking past `deadline`; nothing when no answer
    /// came by then (the question stays in flight) or the connection failed.
    std::optional<std::int64_t> counter_within(std::string const& ns, std::chrono::steady_clock::time_point deadline)
    {
        unanswered_ = false;
        if (!poll_in_flight_) {
            char const* values[] = {ns.c_str()};
            if (!PQsendQueryParams(conn_, "SELECT skillmd.namespace_counter($1)", 1, nullptr, values, nullptr, nullptr, 0)) {
                note_broken();
                return std::nullopt;
            }
            poll_in_flight_ = true;
            poll_ns_ = ns;
            poll_deadline_ = statement_deadline();
        }
        // Awaited until the wait's deadline; an answer not there yet is left in flight, for
        // the next poll (or dropped by the next statement, settle()), rather than cancelled.
        if (deadline < poll_deadline_) {
            if (!flushed(deadline)) return std::nullopt;
            while (PQconsumeInput(conn_) && PQisBusy(conn_))
                if (!readable(deadline)) return std::nullopt;
        }
        poll_in_flight_ = false;
        auto const r = answer(true, poll_deadline_);
        if (!r.ok()) {
            note_broken();
            return std::nullopt;
        }
        collect(); // a notification may have come with the answer
        if (poll_ns_ != ns || r.rows() != 1 || r.null(0, 0)) return std::nullopt; // another namespace's late answer
        return r.integer(0, 0);
    }

    /// The statement, lock and idle limits, as `SET ` (the session's) or `SET LOCAL ` (the
    /// transaction's, behind a transaction pooler) statements.
    std::string limits(std::string const& set) const
    {
        // Four times the statement limit, in 64 bits and at most what the server takes.
        auto const idle = std::min<std::int64_t>(std::int64_t{opts_.statement_timeout_ms} * 4, std::numeric_limits<int>::max());
        return set + "statement_timeout = " + std::to_string(opts_.statement_timeout_ms) + "; " + set +
               "lock_timeout = " + std::to_string(opts_.statement_timeout_ms) + "; " + set +
               "idle_in_transaction_session_timeout = " + std::to_string(idle);
    }
    /// BEGIN `how`, and behind a transaction pooler the transaction's limits.
    bool begin(char const* how, std::string* error)
    {
        if (!exec(how, error)) return false;
        if (!opts_.transaction_pooler) return true;
        if (exec(limits("SET LOCAL ").c_str(), error)) return true;
        exec("ROLLBACK", nullptr);
        return false;
    }

    /// Connects, sets the session's limits, checks (or creates) the schema, listens.
    std::string connect()
    {
        std::string const timeout = std::to_string(opts_.connect_timeout_s);
        char const* keys[] = {"connect_timeout", "application_name", "dbname", nullptr};
        char const* values[] = {timeout.c_str(), "skillmd", opts_.conninfo.c_str(), nullptr};
        conn_ = PQconnectdbParams(keys, values, 1);
        if (conn_ == nullptr) return where() + ": out of memory";
        if (PQstatus(conn_) != CONNECTION_OK) return where() + ": cannot connect: " + first_line(PQerrorMessage(conn_));
        // Server notices never reach the terminal; a statement's are kept for its caller
        // (a COMMIT's warning says it was not replicated), a few at most.
        PQsetNoticeReceiver(conn_, [](void* self, PGresult const* r) {
            auto& kept = static_cast<postgres_store*>(self)->notices_;
            char const* level = PQresultErrorField(r, PG_DIAG_SEVERITY_NONLOCALIZED);
            char const* what = PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY);
            if (kept.size() < 8) kept.push_back(std::string(level ? level : "?") + ": " + (what ? what : ""));
        }, this);
        // Sends never block: answer() flushes them within its deadline.
        if (PQsetnonblocking(conn_, 1) != 0) return where() + ": cannot make the connection non-blocking";
        std::string why;
        if (!opts_.transaction_pooler && !exec(limits("SET ").c_str(), &why)) return why;
        // A server in recovery (a hot standby) refuses LISTEN, and no notification is
        // replicated to it: a tier reading from one polls. So does one behind a pooler.
        announced_ = false;
        if (!opts_.transaction_pooler) {
            auto const r = query("SELECT pg_catalog.pg_is_in_recovery()", {});
            if (!r.ok() || r.rows() != 1) return describe("asking whether the server is a standby", r);
            standby_ = r.text(0, 0) == "t";
            announced_ = !standby_;
        }
        if (std::string e = prepare_schema(); !e.empty()) return e;
        // A new connection listens again, for the namespaces that still let this role read.
        std::vector<std::string> again;
        for (auto const& [ns, name] : channels_) again.push_back(ns);
        channels_.clear();
        by_channel_.clear();
        for (auto const& ns : again) listen_for(ns, true);
        if (!conn_ || PQstatus(conn_) != CONNECTION_OK) return where() + ": the connection was lost while listening";
        return {};
    }

    /// The schema at this version: checked, or created when absent (under an advisory
    /// lock, so processes starting together create it once). A version-1 schema is
    /// upgraded when its owner connects, and refused to anyone else (its tables are open
    /// to every role). A newer or foreign schema is refused.
    std::string prepare_schema()
    {
        std::string why;
        if (!begin("BEGIN", &why)) return why;
        auto finish = [&](std::string e) {
            exec(e.empty() ? "COMMIT" : "ROLLBACK", e.empty() ? &e : nullptr);
            return e;
        };
        auto const exists = query("SELECT 1 FROM pg_namespace WHERE nspname = 'skillmd'", {});
        if (!exists.ok()) return finish(describe("reading the catalog", exists));
        if (exists.rows() == 0) {
            auto const lock = query("SELECT pg_advisory_xact_lock(7395101)", {});
            auto const again = query("SELECT 1 FROM pg_namespace WHERE nspname = 'skillmd'", {});
            if (!lock.ok() || !again.ok()) return finish(describe("locking the schema", again));
            if (again.rows() == 0) return finish(create_schema());
        }
        std::int64_t version = 0;
        if (std::string e = check_schema(version); !e.empty() || version == schema_version) return finish(e.empty() ? add_feed() : e);
        // Version 1: only its owner may change it; the advisory lock makes one upgrade of many.
        auto const owner = owns_schema();
        if (!owner.ok() || owner.rows() != 1) return finish(describe("reading the schema's owner", owner));
        if (owner.text(0, 0) != "t")
            return finish(where() + ": the schema `skillmd` is at v1, whose tables every role can read, plan and lock "
                                    "across tenants; connect once as the schema's owner to upgrade it to v2 (this skillmd needs v2)");
        auto const lock = query("SELECT pg_advisory_xact_lock(7395101)", {});
        if (!lock.ok()) return finish(describe("locking the schema", lock));
        if (std::string e = check_schema(version); !e.empty() || version == schema_version) return finish(e.empty() ? add_feed() : e);
        std::string const upgrade = std::string(upgrade_from_v1) + version_2 + "UPDATE skillmd.meta SET value = 2 WHERE key = 'schema_version';\n";
        if (!exec(upgrade.c_str(), &why)) return finish(why + " (upgrading the schema from v1 to v2)");
        if (std::string e = check_schema(version); !e.empty()) return finish(e);
        return finish(version == schema_version ? add_feed() : where() + ": the schema `skillmd` was not upgraded to v2");
    }

    /// Whether this connection's role owns schema `skillmd` ("t" or "f", one row).
    detail::pg_result owns_schema() { return query("SELECT pg_has_role(nspowner, 'USAGE') FROM pg_namespace WHERE nspname = 'skillmd'", {}); }

    /// Whether the schema keeps the change feed; its owner adds it where it does not (a
    /// version 2 made by an older skillmd), under the schema's advisory lock. Anyone else
    /// reads without it. "" unless the connection was lost.
    std::string add_feed()
    {
        auto const has = [&] {
            auto const r = query("SELECT pg_catalog.to_regprocedure('skillmd.skill_changes(text,bigint)') IS NOT NULL", {});
            return r.ok() && r.rows() == 1 && r.text(0, 0) == "t";
        };
        feed_ = has();
        if (feed_) return {};
        auto const owner = owns_schema();
        if (!owner.ok() || owner.rows() != 1 || owner.text(0, 0) != "t") return {};
        // Within a savepoint, and waiting for the tables at most a second: agents keep
        // reading while the owner waits, and if the feed cannot be added now (the tables
        // are busy), the owner connects without it and tries again at its next connection.
        if (feed_tried_) return {}; // once per store: each try may hold writers back for a moment
        feed_tried_ = true;
        if (!exec("SAVEPOINT feed; SET LOCAL lock_timeout = 1000", nullptr)) return describe("adding the change feed", detail::pg_result());
        auto const lock = query("SELECT pg_advisory_xact_lock(7395101)", {});
        if (lock.ok() && (feed_ = has())) return {};
        if (lock.ok() && exec(change_feed, nullptr)) {
            feed_ = has();
            return {};
        }
        if (!conn_) return where() + ": the connection was lost while adding the change feed";
        exec("ROLLBACK TO SAVEPOINT feed", nullptr);
        return {};
    }

    /// The schema's tables, columns and version (into `version`: 1 or 2); "" or why not usable.
    std::string check_schema(std::int64_t& version)
    {
        auto const tables = query("SELECT string_agg(c.relname || ':' || c.relkind::text, ',' ORDER BY c.relname) FROM pg_class c "
                                  "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'skillmd' AND c.relkind IN ('r','v','m','p','f')",
                                  {});
        if (!tables.ok()) return describe("reading the schema", tables);
        std::string const found = tables.text(0, 0);
        bool const v1 = found == "changes:r,grants:r,meta:r,skills:r";
        if (!v1 && found != "changes:r,grants:r,meta:r,secret:r,skills:r")
            return where() + ": the schema `skillmd` holds tables skillmd did not create (" + found + "); refusing to use it";
        // v2 says its version through a function (agents may not read skillmd.meta); v1 let them read the table.
        auto const v = query(v1 ? "SELECT value FROM skillmd.meta WHERE key = 'schema_version'" : "SELECT skillmd.schema_version()", {});
        if (!v.ok() || v.rows() != 1 || v.null(0, 0)) return where() + ": the schema `skillmd` has no version; refusing to use it";
        version = v.integer(0, 0);
        if (version > schema_version)
            return where() + ": unsupported schema v" + v.text(0, 0) + " (this skillmd knows v" + std::to_string(schema_version) + ")";
        if (version != (v1 ? 1 : 2)) return where() + ": the schema `skillmd` says v" + v.text(0, 0) + " but is not; refusing to use it";
        auto const cols = query("SELECT string_agg(attname, ',' ORDER BY attnum) FROM pg_attribute "
                                "WHERE attrelid = 'skillmd.skills'::regclass AND attnum > 0 AND NOT attisdropped",
                                {});
        if (!cols.ok() || cols.text(0, 0) != "namespace,name,description,triggers,content,created_at,updated_at,revision")
            return where() + ": the table skillmd.skills has columns skillmd did not create; refusing to use it";
        return {};
    }

    /// The tables, as version 1 had them (with version 2 in meta); the rest is `version_2`.
    static constexpr char const* v1_tables = R"sql(
CREATE SCHEMA skillmd;
CREATE TABLE skillmd.meta (key text PRIMARY KEY, value bigint NOT NULL);
INSERT INTO skillmd.meta VALUES ('schema_version', 2);
CREATE TABLE skillmd.grants (
  namespace text NOT NULL, role name NOT NULL, can_write boolean NOT NULL DEFAULT false,
  PRIMARY KEY (namespace, role));
CREATE TABLE skillmd.skills (
  namespace text NOT NULL CHECK (length(namespace) BETWEEN 1 AND 128),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 256),
  description text NOT NULL,
  triggers jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(triggers) = 'array'),
  content text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  revision bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (namespace, name));
CREATE TABLE skillmd.changes (namespace text PRIMARY KEY, counter bigint NOT NULL);
)sql";

    /** Version 2 over version 1's tables. Why functions and not a schema per tenant: one
        set of tables keeps one schema to create, check and upgrade, namespaces made by a
        grant rather than by DDL, and a table per tenant would put every tenant's name in
        the catalog and its row counts in pg_stat_user_tables, for every role to read.

        Agents' roles get no privilege on any table (so no SELECT, EXPLAIN, LOCK TABLE or
        column statistics in pg_stats); they call the functions below, which run as the
        schema's owner with a pinned search_path and serve only the namespaces granted to
        the caller's role (the one SET ROLE chose, else the login role: inside a SECURITY
        DEFINER function current_user is the owner) or a role it is a member of. Each checks the grant
        before it touches a row, so a namespace not granted answers as an empty one, at
        the same cost. The tables keep row-level security enabled with no policy: a
        privilege granted by mistake still shows no row to anyone but the owner.

        Announcements go to one channel per namespace, `skillmd_` and a keyed hash of its
        name (the key, in skillmd.secret, is readable by the owner only); a member learns
        the channel from `namespace_channel`. PostgreSQL lets any role LISTEN on any
        channel, but another tenant does not know the name, so it hears nothing. What is
        left for it: the shared notification queue's fill level
        (pg_notification_queue_usage), which says that some write happened somewhere, and
        the skills table's total size and estimated row count over all tenants
        (pg_class.reltuples, pg_relation_size): never a namespace, a name or one
        tenant's count. That is acceptable: it is activity of the whole database, which
        PostgreSQL shows every role in other ways too (pg_locks lists every session's
        locks; pg_stat_activity which roles are connected), and hiding it would take a
        database, or a cluster, per tenant.

        The per-table statistics functions behind pg_stat_user_tables and its kin are
        revoked from PUBLIC (granted to pg_read_all_stats) when a superuser creates or
        upgrades the schema; PostgreSQL lets only a superuser do that. */
    static constexpr char const* version_2 = R"sql(
CREATE TABLE skillmd.secret (one boolean PRIMARY KEY DEFAULT true CHECK (one), key bytea NOT NULL CHECK (length(key) >= 16));
INSERT INTO skillmd.secret (key)
  SELECT decode(replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''), 'hex');

-- The caller's role: the one SET ROLE chose, else the login role. (Inside a SECURITY
-- DEFINER function current_user is the owner; the role setting is the caller's, and SET
-- ROLE only ever names a role the login role is a member of.)
CREATE FUNCTION skillmd.caller() RETURNS name
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT CASE WHEN pg_catalog.current_setting('role') = 'none' THEN session_user
              ELSE pg_catalog.current_setting('role')::name END $$;

-- May the caller read (or write) namespace p_namespace? The schema's owner (and a
-- superuser) may everything; anyone else through a grant to a role it is a member of.
CREATE FUNCTION skillmd.may(p_namespace text, p_write boolean) RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT pg_catalog.pg_has_role(c.who, n.nspowner, 'USAGE')
      OR EXISTS (SELECT 1 FROM skillmd.grants g JOIN pg_catalog.pg_roles r ON r.rolname = g.role
                 WHERE g.namespace = p_namespace AND (g.can_write OR NOT p_write)
                   AND pg_catalog.pg_has_role(c.who, r.oid, 'MEMBER'))
  FROM (SELECT skillmd.caller() AS who) c, pg_catalog.pg_namespace n WHERE n.nspname = 'skillmd' $$;

-- The channel of a namespace: a keyed hash of its name (the key cannot be read by agents).
CREATE FUNCTION skillmd.channel_of(p_namespace text) RETURNS text
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT 'skillmd_' || pg_catalog.left(pg_catalog.encode(pg_catalog.sha256(s.key ||
         pg_catalog.sha256(s.key || pg_catalog.convert_to(p_namespace, 'UTF8'))), 'hex'), 32)
  FROM skillmd.secret s $$;

CREATE FUNCTION skillmd.schema_version() RETURNS bigint
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT m.value FROM skillmd.meta m WHERE m.key = 'schema_version' $$;

CREATE FUNCTION skillmd.namespace_channel(p_namespace text) RETURNS text
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF NOT skillmd.may(p_namespace, false) THEN RETURN NULL; END IF;
  RETURN skillmd.channel_of(p_namespace);
END $$;

CREATE FUNCTION skillmd.namespace_counter(p_namespace text) RETURNS bigint
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE n bigint;
BEGIN
  IF NOT skillmd.may(p_namespace, false) THEN RETURN 0; END IF;
  SELECT c.counter INTO n FROM skillmd.changes c WHERE c.namespace = p_namespace;
  RETURN COALESCE(n, 0);
END $$;

CREATE FUNCTION skillmd.skill_names(p_namespace text) RETURNS TABLE (name text, revision bigint)
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF NOT skillmd.may(p_namespace, false) THEN RETURN; END IF;
  RETURN QUERY SELECT s.name, s.revision FROM skillmd.skills s WHERE s.namespace = p_namespace;
END $$;

CREATE FUNCTION skillmd.skill_rows(p_namespace text, p_names jsonb) RETURNS TABLE (name text, description text,
  triggers text, content text, created_at text, updated_at text, revision bigint)
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF NOT skillmd.may(p_namespace, false) THEN RETURN; END IF;
  RETURN QUERY SELECT s.name, s.description, s.triggers::text, s.content,
    pg_catalog.to_char(s.created_at, 'YYYY-MM-DD HH24:MI:SS.MS'), pg_catalog.to_char(s.updated_at, 'YYYY-MM-DD HH24:MI:SS.MS'),
    s.revision FROM skillmd.skills s
    WHERE s.namespace = p_namespace AND s.name IN (SELECT pg_catalog.jsonb_array_elements_text(p_names));
END $$;

-- The row, locked until the end of the caller's transaction; nothing unless the caller may write.
CREATE FUNCTION skillmd.skill_lock(p_namespace text, p_name text) RETURNS TABLE (name text, description text,
  triggers text, content text, created_at text, updated_at text, revision bigint)
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF NOT skillmd.may(p_namespace, true) THEN RETURN; END IF;
  RETURN QUERY SELECT s.name, s.description, s.triggers::text, s.content,
    pg_catalog.to_char(s.created_at, 'YYYY-MM-DD HH24:MI:SS.MS'), pg_catalog.to_char(s.updated_at, 'YYYY-MM-DD HH24:MI:SS.MS'),
    s.revision FROM skillmd.skills s WHERE s.namespace = p_namespace AND s.name = p_name FOR UPDATE;
END $$;

-- The new row's revision; NULL when the name is taken. Refused unless the caller may write.
CREATE FUNCTION skillmd.skill_insert(p_namespace text, p_name text, p_description text, p_triggers jsonb, p_content text)
RETURNS bigint LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE rev bigint;
BEGIN
  IF NOT skillmd.may(p_namespace, true) THEN
    RAISE EXCEPTION 'role % may not write namespace %', skillmd.caller(), p_namespace USING ERRCODE = '42501';
  END IF;
  INSERT INTO skillmd.skills AS s (namespace, name, description, triggers, content)
    VALUES (p_namespace, p_name, p_description, p_triggers, p_content)
    ON CONFLICT ON CONSTRAINT skills_pkey DO NOTHING RETURNING s.revision INTO rev;
  RETURN rev;
END $$;

-- The row's new revision; NULL when there is no such row the caller may write.
CREATE FUNCTION skillmd.skill_update(p_namespace text, p_name text, p_description text, p_triggers jsonb, p_content text)
RETURNS bigint LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE rev bigint;
BEGIN
  IF NOT skillmd.may(p_namespace, true) THEN RETURN NULL; END IF;
  UPDATE skillmd.skills s SET description = p_description, triggers = p_triggers, content = p_content
    WHERE s.namespace = p_namespace AND s.name = p_name RETURNING s.revision INTO rev;
  RETURN rev;
END $$;

-- Whether a row the caller may write was deleted.
CREATE FUNCTION skillmd.skill_delete(p_namespace text, p_name text) RETURNS boolean
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF NOT skillmd.may(p_namespace, true) THEN RETURN false; END IF;
  DELETE FROM skillmd.skills s WHERE s.namespace = p_namespace AND s.name = p_name;
  RETURN FOUND;
END $$;

-- Every write bumps its namespace's counter (the row lock orders writers, so the counter
-- is a watermark), stamps the row with it, and announces it on commit on the namespace's
-- own channel, with an empty payload.
CREATE OR REPLACE FUNCTION skillmd.changed() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  ns text := CASE WHEN TG_OP = 'DELETE' THEN OLD.namespace ELSE NEW.namespace END;
  rev bigint;
BEGIN
  IF TG_OP = 'UPDATE' AND (NEW.namespace <> OLD.namespace OR NEW.name <> OLD.name) THEN
    RAISE EXCEPTION 'a skill''s namespace and name do not change' USING ERRCODE = '22023';
  END IF;
  INSERT INTO skillmd.changes AS c (namespace, counter) VALUES (ns, 1)
    ON CONFLICT (namespace) DO UPDATE SET counter = c.counter + 1 RETURNING counter INTO rev;
  PERFORM pg_catalog.pg_notify(skillmd.channel_of(ns), '');
  IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
  NEW.revision := rev;
  NEW.updated_at := pg_catalog.now();
  IF TG_OP = 'UPDATE' THEN NEW.created_at := OLD.created_at; ELSE NEW.created_at := pg_catalog.now(); END IF;
  RETURN NEW;
END $$;

ALTER TABLE skillmd.skills ENABLE ROW LEVEL SECURITY;
ALTER TABLE skillmd.grants ENABLE ROW LEVEL SECURITY;
ALTER TABLE skillmd.changes ENABLE ROW LEVEL SECURITY;
ALTER TABLE skillmd.meta ENABLE ROW LEVEL SECURITY;
ALTER TABLE skillmd.secret ENABLE ROW LEVEL SECURITY;
REVOKE ALL ON ALL TABLES IN SCHEMA skillmd FROM PUBLIC;
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA skillmd FROM PUBLIC;
GRANT USAGE ON SCHEMA skillmd TO PUBLIC;
GRANT EXECUTE ON FUNCTION skillmd.schema_version(), skillmd.namespace_channel(text), skillmd.namespace_counter(text),
  skillmd.skill_names(text), skillmd.skill_rows(text, jsonb), skillmd.skill_lock(text, text),
  skillmd.skill_insert(text, text, text, jsonb, text), skillmd.skill_update(text, text, text, jsonb, text),
  skillmd.skill_delete(text, text) TO PUBLIC;

-- Per-table statistics (pg_stat_user_tables, pg_statio_user_tables, pg_stat_xact_user_tables
-- and the functions behind them) for pg_read_all_stats only: PUBLIC reads every table's row
-- counts there, privileges or not. Only a superuser may change them; otherwise it stays to
-- the administrator (docs/security-tenancy.md).
DO $$
DECLARE f regprocedure;
BEGIN
  IF (SELECT r.rolsuper FROM pg_catalog.pg_roles r WHERE r.rolname = current_user) THEN
    FOR f IN SELECT p.oid::regprocedure FROM pg_catalog.pg_proc p
             WHERE p.pronamespace = 'pg_catalog'::regnamespace AND p.proname LIKE 'pg\_stat\_get\_%'
               AND p.pronargs = 1 AND p.proargtypes[0] = 'oid'::regtype
               AND p.proname !~ '^pg_stat_get_(db|function|xact_function|subscription)' LOOP
      EXECUTE pg_catalog.format('REVOKE EXECUTE ON FUNCTION %s FROM PUBLIC', f);
      EXECUTE pg_catalog.format('GRANT EXECUTE ON FUNCTION %s TO pg_read_all_stats', f);
    END LOOP;
  END IF;
END $$;
)sql";

    /** The change feed: what a namespace's writes after a counter value were, so a
        reader that is behind reads those rows and no other. Rows carry the counter of
        their last write (`revision`, indexed); deletions are remembered in the
        namespace's row of skillmd.changes, the last 64 to 128 of them (fewer when names
        are long: the list stays within 32 kB, as each deletion rewrites it), and
        `feed_floor` is the newest one forgotten: a reader from before it reads every
        name instead.
        Added to version 2 without a new version or table, so an older skillmd (which
        refuses a version or a table it does not know) goes on reading the schema after
        its owner adds this. */
    static constexpr char const* change_feed = R"sql(
ALTER TABLE skillmd.changes ADD COLUMN IF NOT EXISTS removed jsonb NOT NULL DEFAULT '[]',
  ADD COLUMN IF NOT EXISTS feed_floor bigint NOT NULL DEFAULT 0;
UPDATE skillmd.changes SET feed_floor = counter; -- deletions before now may not have been remembered
CREATE INDEX IF NOT EXISTS skills_by_revision ON skillmd.skills (namespace, revision);

CREATE OR REPLACE FUNCTION skillmd.changed() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  ns text := CASE WHEN TG_OP = 'DELETE' THEN OLD.namespace ELSE NEW.namespace END;
  rev bigint;
  gone jsonb;
  forgot bigint := 0;
BEGIN
  IF TG_OP = 'UPDATE' AND (NEW.namespace <> OLD.namespace OR NEW.name <> OLD.name) THEN
    RAISE EXCEPTION 'a skill''s namespace and name do not change' USING ERRCODE = '22023';
  END IF;
  INSERT INTO skillmd.changes AS c (namespace, counter) VALUES (ns, 1)
    ON CONFLICT (namespace) DO UPDATE SET counter = c.counter + 1 RETURNING counter, removed INTO rev, gone;
  PERFORM pg_catalog.pg_notify(skillmd.channel_of(ns), '');
  IF TG_OP = 'DELETE' THEN
    -- The deletion is remembered; past 128 entries or 32 kB (names may be long), the
    -- newest 64 within 16 kB are kept and the floor moves up to the newest forgotten.
    gone := gone || pg_catalog.jsonb_build_array(pg_catalog.jsonb_build_array(OLD.name, rev));
    IF pg_catalog.jsonb_array_length(gone) > 128 OR pg_catalog.octet_length(gone::text) > 32768 THEN
      SELECT COALESCE(pg_catalog.jsonb_agg(t.e ORDER BY t.i) FILTER (WHERE t.keep), '[]'::jsonb),
             COALESCE(pg_catalog.max((t.e ->> 1)::bigint) FILTER (WHERE NOT t.keep), 0)
        INTO gone, forgot
        FROM (SELECT x.e, x.i, (pg_catalog.count(*) OVER w <= 64 AND pg_catalog.sum(pg_catalog.octet_length(x.e::text)) OVER w <= 16384) AS keep
              FROM pg_catalog.jsonb_array_elements(gone) WITH ORDINALITY x(e, i) WINDOW w AS (ORDER BY x.i DESC)) t;
    END IF;
    UPDATE skillmd.changes c SET removed = gone, feed_floor = GREATEST(c.feed_floor, forgot) WHERE c.namespace = ns;
    RETURN OLD;
  END IF;
  NEW.revision := rev;
  NEW.updated_at := pg_catalog.now();
  IF TG_OP = 'UPDATE' THEN NEW.created_at := OLD.created_at; ELSE NEW.created_at := pg_catalog.now(); END IF;
  RETURN NEW;
END $$;

-- may() again, in PL/pgSQL: a SQL function that is SECURITY DEFINER is never inlined, and
-- is parsed and planned at every call; PL/pgSQL keeps its plans for the session. Every
-- function an agent calls asks it first, so this is most of a small query's cost.
CREATE OR REPLACE FUNCTION skillmd.may(p_namespace text, p_write boolean) RETURNS boolean
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  who name := CASE WHEN pg_catalog.current_setting('role') = 'none' THEN session_user
                   ELSE pg_catalog.current_setting('role')::name END;
BEGIN
  RETURN pg_catalog.pg_has_role(who, (SELECT n.nspowner FROM pg_catalog.pg_namespace n WHERE n.nspname = 'skillmd'), 'USAGE')
      OR EXISTS (SELECT 1 FROM skillmd.grants g JOIN pg_catalog.pg_roles r ON r.rolname = g.role
                 WHERE g.namespace = p_namespace AND (g.can_write OR NOT p_write)
                   AND pg_catalog.pg_has_role(who, r.oid, 'MEMBER'));
END $$;

-- First the feed's floor (a row of NULLs but the revision), the counter below which it
-- forgot deletions; unless p_since is below it, the names deleted after p_since (every
-- column but name and revision NULL), then the rows written after it, whole.
CREATE OR REPLACE FUNCTION skillmd.skill_changes(p_namespace text, p_since bigint) RETURNS TABLE (name text, description text,
  triggers text, content text, created_at text, updated_at text, revision bigint)
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE f bigint;
BEGIN
  IF NOT skillmd.may(p_namespace, false) THEN RETURN; END IF;
  SELECT c.feed_floor INTO f FROM skillmd.changes c WHERE c.namespace = p_namespace;
  RETURN QUERY SELECT NULL::text, NULL::text, NULL::text, NULL::text, NULL::text, NULL::text, COALESCE(f, 0);
  IF p_since < COALESCE(f, 0) THEN RETURN; END IF;
  RETURN QUERY SELECT r.e ->> 0, NULL::text, NULL::text, NULL::text, NULL::text, NULL::text, (r.e ->> 1)::bigint
    FROM skillmd.changes c, pg_catalog.jsonb_array_elements(c.removed) r(e)
    WHERE c.namespace = p_namespace AND (r.e ->> 1)::bigint > p_since;
  RETURN QUERY SELECT s.name, s.description, s.triggers::text, s.content,
    pg_catalog.to_char(s.created_at, 'YYYY-MM-DD HH24:MI:SS.MS'), pg_catalog.to_char(s.updated_at, 'YYYY-MM-DD HH24:MI:SS.MS'),
    s.revision FROM skillmd.skills s WHERE s.namespace = p_namespace AND s.revision > p_since;
END $$;

REVOKE ALL ON FUNCTION skillmd.skill_changes(text, bigint) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION skillmd.skill_changes(text, bigint) TO PUBLIC;
)sql";

    /// From version 1 (row-level security, table privileges for PUBLIC) to version 2.
    static constexpr char const* upgrade_from_v1 = R"sql(
DROP POLICY reads ON skillmd.skills;
DROP POLICY inserts ON skillmd.skills;
DROP POLICY updates ON skillmd.skills;
DROP POLICY deletes ON skillmd.skills;
DROP POLICY own ON skillmd.grants;
DROP POLICY reads ON skillmd.changes;
DROP FUNCTION skillmd.my_roles();
)sql";

    /// Creates version 2 from nothing.
    std::string create_schema()
    {
        std::string const ddl = std::string(v1_tables) + version_2 +
                                "CREATE TRIGGER changed BEFORE INSERT OR UPDATE OR DELETE ON skillmd.skills "
                                "FOR EACH ROW EXECUTE FUNCTION skillmd.changed();\n" + change_feed;
        std::string why;
        if (!exec(ddl.c_str(), &why))
            return why + " (creating the schema needs a role that may create schemas in this database; " +
                   "agents then connect with roles of their own)";
        feed_ = true;
        return {};
    }

    postgres_options opts_;
    PGconn* conn_ = nullptr;
    pid_t pid_ = 0;
    std::uint64_t generation_ = 0;
    bool announced_ = false; ///< this connection can LISTEN: not behind a pooler, not to a standby
    bool standby_ = false;   ///< this connection is to a server in recovery, as it was when made
    bool feed_ = false;      ///< the schema keeps the change feed (add_feed)
    bool feed_tried_ = false; ///< this store, as the schema's owner, tried to add the feed
    /// Per namespace, for polling: the counter of its last sync, the last value a poll
    /// reported, when it was last asked for.
    struct poll_state
    {
        std::int64_t synced = -1;
        std::int64_t reported = -1;
        std::chrono::steady_clock::time_point at{};
    };
    std::map<std::string, poll_state, std::less<>> polls_;
    std::set<std::string, std::less<>> dirty_;                  ///< namespaces announced since last asked; keys of channels_
    std::map<std::string, std::string, std::less<>> channels_;   ///< namespace -> its channel ("" while it may not be read)
    std::map<std::string, std::string, std::less<>> by_channel_; ///< channel listened to -> namespace
    std::string last_error_;
    std::chrono::steady_clock::time_point retry_at_{};
    bool unanswered_ = false; ///< the last statement got no answer in time (answer())
    /// A counter poll sent by `wait` and not yet answered: for which namespace, and by when.
    bool poll_in_flight_ = false;
    std::string poll_ns_;
    std::chrono::steady_clock::time_point poll_deadline_{};
    /// When the operation under way (a sync) must be over, if it has such a limit.
    std::optional<std::chrono::steady_clock::time_point> operation_end_;
    /// Sets operation_end_ for its lifetime.
    struct bounded_operation
    {
        postgres_store& store;
        bounded_operation(postgres_store& s, std::chrono::steady_clock::time_point end) : store(s) { store.operation_end_ = end; }
        ~bounded_operation() { store.operation_end_.reset(); }
        bounded_operation(bounded_operation const&) = delete;
        bounded_operation& operator=(bounded_operation const&) = delete;
    };
    /// The server's warnings and notices during the last statement (a COMMIT's among them).
    std::vector<std::string> notices_;
    std::chrono::milliseconds wait_{0};
    mutable std::mutex mutex_;

};


/** One namespace of a PostgreSQL store as a registry tier, and koshi's operations on it.

    Candidates are marked `database`, so `files_win_over_database` lets a file skill of
    the same name win. Each row reads as the SKILL.md `db_skill_text` writes, so it goes
    through the registry's parser and dialect like a file. `discover()` reads the rows in
    one snapshot and fetches the content of only the rows whose revision changed;
    `unchanged()` asks the namespace's change counter (one small query), so another
    machine's write is seen by the next `refresh()`. While the server is unreachable the
    last snapshot stays, with a diagnostic; with a `cache_path`, a changed snapshot is
    also written there (the first at once, then at most every `snapshot_every`), and a
    tier that starts while the server is down starts from it (marked stale).
*/
class postgres_source
{
public:
    postgres_source(std::string label, std::shared_ptr<postgres_store> store, std::string ns, std::string cache_path = {})
        : label_(std::move(label)), ns_(std::move(ns)), cache_path_(std::move(cache_path)), store_(std::move(store)),
          state_(std::make_shared<state>())
    {
    }

    std::string_view label() const noexcept { return label_; }
    std::string const& name_space() const noexcept { return ns_; }
    std::shared_ptr<postgres_store> const& store() const noexcept { return store_; }

    /// Whether the last discover() read only what changed since the one before (the
    /// server's change feed), rather than every name in the namespace.
    bool followed_feed() const
    {
        std::lock_guard<std::mutex> lock(state_->mutex);
        return state_->delta;
    }

    /// True while the skills come from the local snapshot file, not from the server.
    bool stale() const
    {
        std::lock_guard<std::mutex> lock(state_->mutex);
        return state_->stale;
    }

    discovery discover() const
    {
        discovery d;
        std::lock_guard<std::mutex> lock(state_->mutex);
        auto& st = *state_;
        std::string error;
        st.generation = store_ ? store_->generation() : 0;
        // From the last snapshot taken from the server, only what changed since is asked for.
        std::int64_t const since = st.stale ? -1 : st.counter;
        auto synced = store_ ? store_->sync(ns_, since, st.server, revision_of_in{st}, &error) : std::nullopt;
        d.diagnostics = std::move(st.pending);
        st.pending.clear();
        if (synced) {
            take(st, std::move(*synced), d.diagnostics);
        } else {
            if (error.empty()) error = "the database is not available";
            if (st.rows.empty() && !st.cache_tried && !cache_path_.empty()) {
                st.cache_tried = true;
                if (std::string const why = read_cache(st); !why.empty())
                    d.diagnostics.push_back({std::string(codes::database_cache), severity::warning, cache_path_, 0, 0, why});
            }
            std::string const now = st.stale ? "; serving " + std::to_string(st.rows.size()) +
                                                   " skills from the local snapshot written " + st.written_at + " (stale)"
                                 : st.rows.empty() ? ""
                                                   : "; the last snapshot (" + std::to_string(st.rows.size()) + " skills) stays";
            d.diagnostics.push_back({std::string(codes::database), st.rows.empty() ? severity::error : severity::warning,
                                     store_ ? store_->where() : label_, 0, 0, error + now});
        }
        for (auto const& [name, r] : st.rows) d.skills.push_back(listed(name, r));
        st.said = !d.diagnostics.empty();
        return d;
    }

    /** What changed since the last discover() (or changes()), for a registry that can
        refresh a tier without listing it again: the locators of the rows made, edited or
        removed, read from the change feed (candidate_at() says what each is now); an
        empty list when the change counter did not move. Nothing when the feed could not
        be followed, the last discovery said something, or the server did not answer:
        discover() then lists the namespace again (and says why).
    */
    std::optional<std::vector<std::string>> changes() const
    {
        std::lock_guard<std::mutex> lock(state_->mutex);
        auto& st = *state_;
        if (!store_ || st.watched < 0 || st.stale || st.said || st.watched != st.counter) return std::nullopt;
        auto const now = store_->counter(ns_, nullptr);
        if (!now) return std::nullopt;
        if (*now == st.watched) return std::vector<std::string>();
        st.generation = store_->generation();
        std::string error;
        auto synced = store_->sync(ns_, st.counter, st.server, revision_of_in{st}, &error);
        if (!synced) return std::nullopt;
        bool const delta = synced->delta;
        std::vector<std::string> changed;
        if (delta) {
            for (auto const& name : synced->removed) changed.push_back(locator(name));
            for (auto const& r : synced->changed) changed.push_back(locator(r.name));
            std::sort(changed.begin(), changed.end()); // a name removed and made again: once
            changed.erase(std::unique(changed.begin(), changed.end()), changed.end());
        }
        take(st, std::move(*synced), st.pending); // a warning it gives is the next discovery's
        if (!delta || !st.pending.empty()) return std::nullopt;
        st.watched = st.counter;
        return changed;
    }

    /// The candidate discover() would list for the locator `path` now: nothing when its
    /// row is gone.
    std::optional<candidate> candidate_at(std::string const& path) const
    {
        std::string const prefix = locator("");
        if (!path.starts_with(prefix)) return std::nullopt;
        std::lock_guard<std::mutex> lock(state_->mutex);
        auto const it = state_->rows.find(std::string_view(path).substr(prefix.size()));
        if (it == state_->rows.end()) return std::nullopt;
        return listed(it->first, it->second);
    }

    read_outcome read_head(candidate const& c) const { return read_all(c); }
    read_outcome read_all(candidate const& c) const
    {
        std::lock_guard<std::mutex> lock(state_->mutex);
        read_outcome r;
        auto const it = state_->rows.find(c.command);
        if (it == state_->rows.end()) {
            r.error = "no longer in namespace " + ns_;
            r.absent = true;
            return r;
        }
        auto const& row = it->second;
        r.text = db_skill_text(row.name, row.description, row.triggers, row.content);
        r.complete = true;
        r.stamp = {0, 0, row.description.size() + row.content.size(), row.revision};
        return r;
    }

    bool watch(discovery const&) const
    {
        std::lock_guard<std::mutex> lock(state_->mutex);
        state_->watched = state_->stale ? -1 : state_->counter;
        return state_->watched >= 0;
    }
    bool unchanged() const
    {
        std::int64_t watched = -1;
        {
            std::lock_guard<std::mutex> lock(state_->mutex);
            watched = state_->watched;
        }
        if (watched < 0 || !store_) return false;
        auto const now = store_->counter(ns_, nullptr);
        return now && *now == watched;
    }

    /// Blocks until another process writes to this namespace (true), or `timeout` passes.
    bool wait(std::chrono::milliseconds timeout) const
    {
        std::uint64_t since = 0;
        std::int64_t seen = 0;
        {
            std::lock_guard<std::mutex> lock(state_->mutex);
            since = state_->generation;
            seen = state_->counter;
        }
        return store_ && store_->wait(ns_, timeout, since, seen);
    }
    /// The descriptor to poll for announcements (see `postgres_store::socket`).
    int change_fd() const { return store_ ? store_->socket() : -1; }

    /// `create_skill`: refused when a file skill or a database skill has the name, or
    /// when the skill fails validation. Of two agents creating one name at once, exactly
    /// one succeeds; the other gets `exists`.
    db_outcome create(db_skill const& s, skill_validator const& validate, file_skill_check const& is_file = {}) const
    {
        if (is_file && is_file(s.name))
            return {db_status::file_skill, "a file skill named '" + s.name + "' exists; files win and are not changed here", {}};
        if (!store_) return unavailable();
        if (auto bad = check(s, validate); !bad.ok()) return bad;
        return store_->insert(ns_, s);
    }

    /// `update_skill`: only the given fields change; the result is validated; with
    /// `u.revision`, only if the row is still at that revision.
    db_outcome update(std::string_view name, db_update const& u, skill_validator const& validate,
                      file_skill_check const& is_file = {}) const
    {
        if (is_file && is_file(name))
            return {db_status::file_skill, std::string("'").append(name) + "' is a file skill; file skills cannot be changed through the database", {}};
        if (!store_) return unavailable();
        return store_->modify(ns_, name, u, [&](db_skill const& next) { return check(next, validate); });
    }

    /// `delete_skill`: database skills only.
    db_outcome remove(std::string_view name, file_skill_check const& is_file = {}) const
    {
        if (!store_) return unavailable();
        if (is_file && is_file(name) && !store_->load(ns_, name))
            return {db_status::file_skill, std::string("'").append(name) + "' is a file skill; file skills cannot be deleted through the database", {}};
        return store_->erase(ns_, name);
    }

    std::string locator(std::string_view name) const { return "postgresql:" + ns_ + "#" + std::string(name); }

private:
    /// The candidate of the row `r`, named `name`.
    candidate listed(std::string const& name, db_skill const& r) const
    {
        candidate c;
        c.command = name;
        c.path = locator(name);
        c.directory_name = name;
        c.database = true;
        c.stamp = {0, 0, r.description.size() + r.content.size(), r.revision};
        return c;
    }

    static db_outcome unavailable() { return {db_status::error, "the database is not available", {}}; }

    db_outcome check(db_skill const& s, skill_validator const& validate) const
    {
        std::size_t const limit = store_->options().max_value_bytes;
        if (s.content.size() > limit)
            return {db_status::invalid, "the skill is not valid: its content is " + std::to_string(s.content.size()) +
                                            " bytes; the limit is " + std::to_string(limit),
                    {}};
        for (std::string_view f : {std::string_view(s.name), std::string_view(s.description), std::string_view(s.content)})
            if (f.find('\0') != std::string_view::npos) return {db_status::invalid, "the skill is not valid: it holds a NUL byte", {}};
        return check_db_skill(s, validate, locator(s.name));
    }

    struct state
    {
        std::mutex mutex;
        bool said = false;                 ///< the last discovery gave diagnostics
        std::vector<diagnostic> pending;   ///< what changes() met, for the next discovery
        std::map<std::string, db_skill, std::less<>> rows; ///< the last snapshot, contents included
        std::int64_t counter = -1;
        std::int64_t watched = -1;
        std::uint64_t generation = 0;
        bool stale = false;       ///< rows come from the local snapshot file
        bool delta = false;       ///< the last sync read the change feed
        std::string server;       ///< the server of the last sync (sync_result::server)
        bool cache_tried = false;
        bool cache_due = false;   ///< the file is behind the snapshot
        std::chrono::steady_clock::time_point cache_written{};
        std::string written_at;   ///< of the local snapshot in use
    };

    /// A row's revision in the snapshot `st`, as sync() asks for it.
    struct revision_of_in
    {
        state const& st;
        std::optional<std::int64_t> operator()(std::string const& name) const
        {
            auto const it = st.rows.find(name);
            if (it == st.rows.end()) return std::nullopt;
            return it->second.revision;
        }
    };

    /// Takes a sync into the snapshot of rows, and writes the local snapshot file when one
    /// is due (a problem doing so goes to `said`).
    void take(state& st, postgres_store::sync_result&& synced, std::vector<diagnostic>& said) const
    {
    bool const changed = synced.counter != st.counter || st.stale || !synced.changed.empty() || !synced.removed.empty() ||
                         (!synced.delta && synced.present.size() != st.rows.size());
    if (synced.delta) { // deletions first: a name deleted and made again comes back in `changed`
        for (auto const& name : synced.removed) st.rows.erase(name);
        for (auto& r : synced.changed) st.rows.insert_or_assign(r.name, std::move(r));
    } else {
        // Unchanged rows move over from the last snapshot; changed ones come whole.
        std::map<std::string, db_skill, std::less<>> next;
        for (auto& r : synced.changed) {
            std::string const name = r.name;
            next.emplace(name, std::move(r));
        }
        for (auto const& [name, rev] : synced.present)
            if (!next.contains(name))
                if (auto node = st.rows.extract(name); !node.empty()) next.insert(std::move(node));
        st.rows = std::move(next);
    }
    st.counter = synced.counter;
    st.server = synced.server;
    st.delta = synced.delta;
    st.stale = false;
    st.cache_due = st.cache_due || changed;
    auto const now = std::chrono::steady_clock::now();
    if (st.cache_due && !cache_path_.empty() &&
        (st.cache_written == std::chrono::steady_clock::time_point{} || now - st.cache_written >= store_->options().snapshot_every)) {
        if (std::string const why = write_cache(st); !why.empty())
            said.push_back({std::string(codes::database_cache), severity::warning, cache_path_, 0, 0, why});
        st.cache_written = now;
        st.cache_due = false;
    }
    }

    /// Writes the snapshot to `cache_path_` (a temporary file, then a rename); "" or why not.
    std::string write_cache(state const& st) const
    {
        boost::json::array skills;
        for (auto const& [name, r] : st.rows)
            skills.push_back(boost::json::object{{"name", r.name},
                                                 {"description", r.description},
                                                 {"triggers", boost::json::parse(detail::triggers_json(r.triggers))},
                                                 {"content", r.content},
                                                 {"created_at", r.created_at},
                                                 {"updated_at", r.updated_at},
                                                 {"revision", r.revision}});
        std::string const text = boost::json::serialize(boost::json::object{{"format", "skillmd-fleet-snapshot-1"},
                                                                            {"namespace", ns_},
                                                                            {"counter", st.counter},
                                                                            {"written_at", detail::utc_now()},
                                                                            {"skills", std::move(skills)}});
        // The file holds the namespace's whole contents: 0600 whatever the umask, in a
        // folder made 0700 if it has to be made. O_EXCL and O_NOFOLLOW: never through a
        // file or link someone else left under the temporary name.
        std::string const tmp = cache_path_ + ".tmp." + std::to_string(::getpid());
        auto const open_tmp = [&] { return ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600); };
        int fd = open_tmp();
        if (fd < 0 && errno == EEXIST && ::unlink(tmp.c_str()) == 0) fd = open_tmp(); // left by a crash of this pid's predecessor
        if (fd < 0 && errno == ENOENT && detail::make_private_dirs(std::filesystem::path(cache_path_).parent_path())) fd = open_tmp();
        if (fd < 0) return "cannot write the local snapshot " + tmp + ": " + std::strerror(errno);
        bool written = ::fchmod(fd, 0600) == 0;
        for (std::size_t at = 0; written && at < text.size();) {
            auto const n = ::write(fd, text.data() + at, text.size() - at);
            if (n < 0 && errno == EINTR) continue;
            written = n > 0;
            if (written) at += static_cast<std::size_t>(n);
        }
        written = ::close(fd) == 0 && written;
        if (!written) {
            ::unlink(tmp.c_str());
            return "cannot write the local snapshot " + tmp;
        }
        if (std::rename(tmp.c_str(), cache_path_.c_str()) != 0) {
            std::remove(tmp.c_str());
            return "cannot replace the local snapshot " + cache_path_;
        }
        return {};
    }

    /// Reads the local snapshot into `st` (stale); "" or why it was not used.
    std::string read_cache(state& st) const
    {
        std::ifstream f(cache_path_, std::ios::binary);
        if (!f) return {}; // none yet: nothing to say beyond the server's absence
        std::string text;
        constexpr std::size_t cap = 512u * 1024 * 1024;
        char buf[65536];
        while (f.read(buf, sizeof buf) || f.gcount() > 0) {
            text.append(buf, static_cast<std::size_t>(f.gcount()));
            if (text.size() > cap) return "the local snapshot is larger than 512 MiB; not used";
        }
        boost::json::parse_options po;
        po.max_depth = 8;
        boost::system::error_code ec;
        auto const v = boost::json::parse(text, ec, {}, po);
        auto const* o = ec ? nullptr : v.if_object();
        auto const str = [](boost::json::object const& x, char const* k) -> std::optional<std::string> {
            auto const* e = x.if_contains(k);
            if (e == nullptr || !e->is_string()) return std::nullopt;
            return std::string(e->as_string());
        };
        if (!o || str(*o, "format") != "skillmd-fleet-snapshot-1" || !o->if_contains("skills") || !o->at("skills").is_array())
            return "the local snapshot is not one skillmd wrote; not used";
        if (str(*o, "namespace") != ns_) return "the local snapshot is of another namespace; not used";
        std::map<std::string, db_skill, std::less<>> rows;
        for (auto const& e : o->at("skills").as_array()) {
            auto const* so = e.if_object();
            auto const* rev = so ? so->if_contains("revision") : nullptr;
            auto const* trig = so ? so->if_contains("triggers") : nullptr;
            db_skill r;
            auto name = so ? str(*so, "name") : std::nullopt;
            auto desc = so ? str(*so, "description") : std::nullopt;
            auto content = so ? str(*so, "content") : std::nullopt;
            if (!name || !desc || !content || !rev || !rev->is_int64() || !trig || !trig->is_array())
                return "the local snapshot has a malformed skill; not used";
            r.name = *name;
            r.description = *desc;
            r.content = *content;
            r.triggers = detail::parse_triggers_json(boost::json::serialize(*trig));
            r.created_at = str(*so, "created_at").value_or("");
            r.updated_at = str(*so, "updated_at").value_or("");
            r.revision = std::max<std::int64_t>(1, rev->as_int64());
            rows.emplace(r.name, std::move(r));
        }
        st.rows = std::move(rows);
        st.stale = true;
        st.written_at = str(*o, "written_at").value_or("at an unknown time");
        return {};
    }

    std::string label_, ns_, cache_path_;
    std::shared_ptr<postgres_store> store_;
    std::shared_ptr<state> state_;
};

static_assert(skill_source<postgres_source>, "postgres_source must model skill_source");

} // namespace skillmd

#endif
