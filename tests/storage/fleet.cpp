// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
//
// The fleet tier against a real PostgreSQL server: a throw-away cluster per suite
// (tests/postgres/cluster.sh: initdb in a temporary folder, Unix socket only). The
// schema and its refusals, koshi's operations, concurrent writers in threads and in
// processes, tenancy enforced by the server (hand-written SQL included), change
// announcements, and faults: a restart, a killed connection, a server that is down.
// Then (suite fleet_replicas) a primary with a synchronous streaming standby and PgBouncer
// in transaction mode: agents on the standby and behind the pooler follow by polling, and
// a failover under four writer processes loses no acknowledged write.

#include "../support/pg_cluster.hpp"
#include "../support/test_support.hpp"
#include "../support/wait.hpp"

#include <skillmd/presets/fleet.hpp>
#include <skillmd/storage/sources/postgres_source.hpp>

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <mutex>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <poll.h>
#include <sys/wait.h>

using namespace skillmd;
using namespace skillmd::test;
namespace fs = std::filesystem;

namespace {

/// The suite's cluster (tests/support/pg_cluster.hpp) with its roles.
struct cluster : pg_cluster
{
    cluster()
    {
        admin_sql("CREATE ROLE team_a NOLOGIN; CREATE ROLE agent_a LOGIN; CREATE ROLE agent_b LOGIN; "
                  "CREATE ROLE reader LOGIN; GRANT team_a TO agent_a;");
    }
};

postgres_options opts(std::string const& user)
{
    postgres_options o;
    o.conninfo = cluster::conninfo(user);
    o.first_retry = std::chrono::milliseconds(20);
    o.last_retry = std::chrono::milliseconds(200);
    o.snapshot_every = std::chrono::milliseconds(0); // the local snapshot follows every change
    return o;
}

std::shared_ptr<postgres_store> store_as(std::string const& user)
{
    std::string error;
    auto s = postgres_store::open(opts(user), error);
    BOOST_TEST(error == "");
    return s;
}

/// The schema exists and the namespaces are granted (the admin's store creates it).
void grants()
{
    auto admin = store_as("skillmd_admin");
    for (auto const* ns : {"team-a", "events", "faults", "cli"})
        BOOST_TEST_REQUIRE(admin->grant(ns, "team_a", namespace_access::write).ok());
    BOOST_TEST_REQUIRE(admin->grant("team-b", "agent_b", namespace_access::write).ok());
    BOOST_TEST_REQUIRE(admin->grant("team-a", "reader", namespace_access::read).ok());
}

db_skill skill(std::string name, std::string description = "Does a thing", std::string content = "Steps.\n")
{
    return {std::move(name), std::move(description), {"deploy"}, std::move(content), {}, {}, 0};
}

std::vector<std::string> names(discovery const& d)
{
    std::vector<std::string> out;
    for (auto const& c : d.skills) out.push_back(c.command);
    return out;
}

bool mentions(std::vector<diagnostic> const& ds, std::string const& text)
{
    for (auto const& d : ds)
        if (d.message.find(text) != std::string::npos) return true;
    return false;
}

std::string all(std::vector<diagnostic> const& ds)
{
    std::string out;
    for (auto const& d : ds) out += to_text(d) + "\n";
    return out;
}

} // namespace

BOOST_AUTO_TEST_SUITE(fleet, *boost::unit_test::fixture<cluster>())

BOOST_AUTO_TEST_CASE(the_schema_is_created_versioned_and_checked)
{
    grants();
    // An agent's role cannot create the schema; a database without it is refused clearly.
    cluster::admin_sql("CREATE DATABASE empty");
    postgres_options o = opts("agent_a");
    o.conninfo = "host=" + cluster::dir + " dbname=empty user=agent_a";
    std::string error;
    postgres_store::open(o, error);
    BOOST_TEST(error.find("creating the schema needs a role that may create schemas") != std::string::npos, error);
    // A foreign schema called skillmd, and a newer version, are refused.
    BOOST_TEST(cluster::sql("skillmd_admin", "SELECT 1") == "");
    PGconn* c = PQconnectdb(("host=" + cluster::dir + " dbname=empty user=skillmd_admin").c_str());
    PQclear(PQexec(c, "CREATE SCHEMA skillmd; CREATE TABLE skillmd.skills (x int)"));
    PQfinish(c);
    o.conninfo = "host=" + cluster::dir + " dbname=empty user=skillmd_admin";
    postgres_store::open(o, error);
    BOOST_TEST(error.find("holds tables skillmd did not create") != std::string::npos, error);
    cluster::admin_sql("UPDATE skillmd.meta SET value = 3 WHERE key = 'schema_version'");
    postgres_store::open(opts("agent_a"), error);
    BOOST_TEST(error.find("unsupported schema v3 (this skillmd knows v2)") != std::string::npos, error);
    cluster::admin_sql("UPDATE skillmd.meta SET value = 2 WHERE key = 'schema_version'");
    postgres_store::open(opts("agent_a"), error);
    BOOST_TEST(error == "");
}

BOOST_AUTO_TEST_CASE(operations_and_refusals_as_in_the_sqlite_tier)
{
    grants();
    postgres_source const src("db", store_as("agent_a"), "team-a");
    auto const v = presets::koshi_validator();
    BOOST_TEST(src.create(skill("deploy-check"), v).ok());
    auto again = src.create(skill("deploy-check"), v);
    BOOST_TEST((again.status == db_status::exists));
    BOOST_TEST((src.update("nope", {}, v).status == db_status::not_found));
    BOOST_TEST((src.remove("nope").status == db_status::not_found));
    BOOST_TEST((src.create(skill("Bad Name!"), v).status == db_status::invalid));
    BOOST_TEST((src.create(skill("taken"), v, [](std::string_view n) { return n == "taken"; }).status == db_status::file_skill));

    // SQL-looking text in every field is data: stored and read back byte for byte.
    std::string const sqlish = "x'); DROP TABLE skillmd.skills; -- \" $1 \\ ";
    db_skill s{"sql-text", sqlish, {sqlish, "deploy"}, sqlish + "\n", {}, {}, 0};
    BOOST_TEST(src.create(s, v).ok());
    auto const d = src.discover();
    BOOST_TEST(names(d) == (std::vector<std::string>{"deploy-check", "sql-text"}), boost::test_tools::per_element());
    auto const row = src.store()->load("team-a", "sql-text");
    BOOST_TEST_REQUIRE(row.has_value());
    BOOST_TEST(row->description == sqlish);
    BOOST_TEST(row->triggers == (std::vector<std::string>{sqlish, "deploy"}), boost::test_tools::per_element());
    BOOST_TEST(row->content == sqlish + "\n");

    // 4 MB of content is kept whole; past 8 MiB, and a NUL byte, are refused.
    std::string big(4 * 1024 * 1024, 'a');
    big += "\n";
    BOOST_TEST(src.create(skill("big", "Large", big), v).ok());
    BOOST_TEST(src.store()->load("team-a", "big")->content == big);
    BOOST_TEST((src.create(skill("huge", "Too large", std::string(9 * 1024 * 1024, 'a')), v).status == db_status::invalid));
    BOOST_TEST((src.create(skill("nul", std::string("a\0b", 3)), v).status == db_status::invalid));

    // update changes only what it is given; with a revision, only at that revision.
    auto const before = *src.store()->load("team-a", "deploy-check");
    db_update u;
    u.triggers = std::vector<std::string>{"ship"};
    BOOST_TEST(src.update("deploy-check", u, v).ok());
    auto const after = *src.store()->load("team-a", "deploy-check");
    BOOST_TEST(after.description == before.description);
    BOOST_TEST(after.triggers == std::vector<std::string>{"ship"});
    BOOST_TEST(after.revision > before.revision);
    BOOST_TEST(after.created_at == before.created_at);
    u.revision = before.revision;
    auto const stale = src.update("deploy-check", u, v);
    BOOST_TEST((stale.status == db_status::conflict));
    BOOST_TEST(stale.message.find("read it again") != std::string::npos);
    u.revision = after.revision;
    BOOST_TEST(src.update("deploy-check", u, v).ok());
    BOOST_TEST(src.remove("deploy-check").ok());
    BOOST_TEST(src.remove("sql-text").ok());
    BOOST_TEST(src.remove("big").ok());
}

// Two agents on separate connections create one name at once: exactly one wins, every
// time; two updates at the same revision: one wins, the other is told to re-read.
BOOST_AUTO_TEST_CASE(concurrent_writers_one_wins_nothing_lost)
{
    grants();
    postgres_source const a("db", store_as("agent_a"), "team-a"), b("db", store_as("agent_a"), "team-a");
    for (int round = 0; round < 40; ++round) {
        std::string const name = "race-" + std::to_string(round);
        db_outcome ra, rb;
        std::thread ta([&] { ra = a.create(skill(name), {}); });
        std::thread tb([&] { rb = b.create(skill(name), {}); });
        ta.join();
        tb.join();
        BOOST_TEST((ra.ok() != rb.ok()), name);
        BOOST_TEST(((ra.ok() ? rb : ra).status == db_status::exists), name);

        auto const rev = a.store()->load("team-a", name)->revision;
        db_update ua, ub;
        ua.description = "from a";
        ua.revision = rev;
        ub.description = "from b";
        ub.revision = rev;
        std::thread tc([&] { ra = a.update(name, ua, {}); });
        std::thread td([&] { rb = b.update(name, ub, {}); });
        tc.join();
        td.join();
        BOOST_TEST((ra.ok() != rb.ok()), name);
        BOOST_TEST(((ra.ok() ? rb : ra).status == db_status::conflict), name);
        BOOST_TEST(a.store()->load("team-a", name)->description == (ra.ok() ? "from a" : "from b"));
    }
    // Partial updates without a revision never undo each other: each is read and
    // written under the row's lock.
    BOOST_TEST(a.create(skill("fields"), {}).ok());
    std::atomic<int> failed{0}; // Boost.Test's assertions stay on the main thread
    std::thread te([&] {
        for (int i = 0; i < 30; ++i) {
            db_update u;
            u.description = std::string("d").append(std::to_string(i));
            if (!a.update("fields", u, {}).ok()) ++failed;
        }
    });
    std::thread tf([&] {
        for (int i = 0; i < 30; ++i) {
            db_update u;
            u.content = std::string("c").append(std::to_string(i)).append("\n");
            if (!b.update("fields", u, {}).ok()) ++failed;
        }
    });
    te.join();
    tf.join();
    BOOST_TEST(failed.load() == 0);
    auto const f = *a.store()->load("team-a", "fields");
    BOOST_TEST(f.description == "d29");
    BOOST_TEST(f.content == "c29\n");
}

// N processes x M writes (create, update, every fourth deleted) on one namespace.
BOOST_AUTO_TEST_CASE(processes_lose_nothing)
{
    grants();
    int const processes = 4, writes = 40;
    std::vector<pid_t> pids;
    for (int p = 0; p < processes; ++p) {
        pid_t const pid = ::fork();
        if (pid == 0) {
            std::string const id = "p" + std::to_string(p), n = std::to_string(writes), ci = cluster::conninfo("agent_b");
            ::execl(SKILLMD_TEST_DB_WORKER, SKILLMD_TEST_DB_WORKER, "pg-write", ci.c_str(), "team-b", id.c_str(), n.c_str(),
                    static_cast<char*>(nullptr));
            ::_exit(127);
        }
        pids.push_back(pid);
    }
    for (auto pid : pids) {
        int status = 0;
        ::waitpid(pid, &status, 0);
        BOOST_TEST((WIFEXITED(status) && WEXITSTATUS(status) == 0));
    }
    auto const synced = store_as("agent_b")->sync("team-b", {}, nullptr);
    BOOST_TEST_REQUIRE(synced.has_value());
    BOOST_TEST(synced->changed.size() == static_cast<std::size_t>(processes * writes * 3 / 4));
    for (auto const& r : synced->changed) {
        BOOST_TEST(r.description == "desc of " + r.name + " rev 1");
        BOOST_TEST(r.content.find("body of " + r.name + " rev 1\n") == 0u);
    }
    // Every write bumped the counter once: creates, updates and deletes.
    BOOST_TEST(synced->counter >= processes * writes * 2 + processes * writes / 4);
}

// Which role reads or writes which namespace is PostgreSQL's decision: through skillmd
// and through hand-written SQL alike.
BOOST_AUTO_TEST_CASE(tenancy_is_enforced_by_the_server)
{
    grants();
    postgres_source const b("db", store_as("agent_b"), "team-b");
    BOOST_TEST(b.create(skill("b-secret", "Team B only"), {}).ok());

    postgres_source const a_on_b("db", store_as("agent_a"), "team-b");
    BOOST_TEST(a_on_b.discover().skills.empty());
    BOOST_TEST((a_on_b.create(skill("intruder"), {}).status == db_status::error));
    BOOST_TEST(a_on_b.create(skill("intruder2"), {}).message.find("permission denied") != std::string::npos);
    BOOST_TEST((a_on_b.update("b-secret", db_update{"changed", {}, {}, {}}, {}).status == db_status::not_found));
    BOOST_TEST((a_on_b.remove("b-secret").status == db_status::not_found));

    // The tables themselves are closed to agents (schema v2): every statement on them is
    // refused, whichever namespace it names.
    int rows = -1;
    for (std::string const q : {"SELECT * FROM skillmd.skills WHERE namespace = 'team-b'",
                                "SELECT * FROM skillmd.skills WHERE namespace = 'team-a'",
                                "SELECT * FROM skillmd.changes WHERE namespace = 'team-b'", "SELECT * FROM skillmd.grants",
                                "SELECT * FROM skillmd.secret",
                                "UPDATE skillmd.skills SET content = 'x' WHERE namespace = 'team-b'",
                                "DELETE FROM skillmd.skills WHERE namespace = 'team-b'",
                                "INSERT INTO skillmd.skills (namespace, name, description, content) VALUES ('team-b', 'x', 'x', 'x')"})
        BOOST_TEST(cluster::sql("agent_a", q).find("permission denied") != std::string::npos, q);
    // The functions answer for team-b as for an empty namespace, and refuse writes to it.
    BOOST_TEST(cluster::sql("agent_a", "SELECT * FROM skillmd.skill_names('team-b')", &rows) == "");
    BOOST_TEST(rows == 0);
    BOOST_TEST(cluster::sql("agent_a", "SELECT * FROM skillmd.skill_rows('team-b', '[\"b-secret\"]')", &rows) == "");
    BOOST_TEST(rows == 0);
    BOOST_TEST(cluster::sql("agent_a", "SELECT 1 WHERE skillmd.namespace_counter('team-b') = 0", &rows) == "");
    BOOST_TEST(rows == 1);
    BOOST_TEST(cluster::sql("agent_a", "SELECT 1 WHERE skillmd.skill_update('team-b', 'b-secret', 'x', '[]', 'x') IS NULL", &rows) == "");
    BOOST_TEST(rows == 1);
    BOOST_TEST(cluster::sql("agent_a", "SELECT 1 WHERE NOT skillmd.skill_delete('team-b', 'b-secret')", &rows) == "");
    BOOST_TEST(rows == 1);
    BOOST_TEST(cluster::sql("agent_a", "SELECT skillmd.skill_insert('team-b', 'x', 'x', '[]', 'x')").find("may not write") !=
               std::string::npos);
    // Functions that are not the interface cannot be called.
    for (std::string const q : {"SELECT skillmd.may('team-b', true)", "SELECT skillmd.channel_of('team-b')", "SELECT skillmd.caller()"})
        BOOST_TEST(cluster::sql("agent_a", q).find("permission denied") != std::string::npos, q);
    for (std::string const q : {"INSERT INTO skillmd.grants VALUES ('team-b', 'agent_a', true)",
                                "UPDATE skillmd.grants SET role = 'agent_a'", "TRUNCATE skillmd.skills",
                                "ALTER TABLE skillmd.skills DISABLE ROW LEVEL SECURITY", "DROP POLICY reads ON skillmd.skills",
                                "UPDATE skillmd.changes SET counter = 0",
                                "UPDATE skillmd.skills SET namespace = 'team-b' WHERE namespace = 'team-a'"})
        BOOST_TEST(cluster::sql("agent_a", q) != "", q);
    BOOST_TEST(cluster::sql("agent_a", "SET row_security = off; SELECT * FROM skillmd.skills") != "");
    BOOST_TEST(cluster::sql("agent_b", "SELECT * FROM skillmd.skill_rows('team-b', '[\"b-secret\"]')", &rows) == "");
    BOOST_TEST(rows == 1);

    // Membership counts (agent_a writes team-a through team_a); a read grant reads only.
    postgres_source const a("db", store_as("agent_a"), "team-a"), reader("db", store_as("reader"), "team-a");
    BOOST_TEST(a.create(skill("shared"), {}).ok());
    auto const seen = names(reader.discover());
    BOOST_TEST((std::find(seen.begin(), seen.end(), "shared") != seen.end()));
    BOOST_TEST((reader.create(skill("by-reader"), {}).status == db_status::error));
    BOOST_TEST((reader.remove("shared").status == db_status::not_found));
    BOOST_TEST(names(postgres_source("db", store_as("reader"), "team-b").discover()).empty());
    BOOST_TEST(a.remove("shared").ok());

    // The caller is the role SET ROLE chose, as for any statement: a login that is a
    // member of both tenants' roles sees both, and only one after SET ROLE.
    cluster::admin_sql("CREATE ROLE hub LOGIN; GRANT team_a, agent_b TO hub");
    BOOST_TEST(cluster::sql("hub", "SELECT * FROM skillmd.skill_rows('team-b', '[\"b-secret\"]')", &rows) == "");
    BOOST_TEST(rows == 1);
    BOOST_TEST(cluster::sql("hub", "SET ROLE team_a; SELECT * FROM skillmd.skill_rows('team-b', '[\"b-secret\"]')", &rows) == "");
    BOOST_TEST(rows == 0);
    BOOST_TEST(cluster::sql("hub", "SET ROLE team_a; SELECT skillmd.skill_insert('team-b', 'x', 'x', '[]', 'x')")
                   .find("role team_a may not write namespace team-b") != std::string::npos);
    BOOST_TEST(cluster::sql("hub", "SET ROLE agent_b; SELECT * FROM skillmd.skill_rows('team-b', '[\"b-secret\"]')", &rows) == "");
    BOOST_TEST(rows == 1);
    BOOST_TEST(b.remove("b-secret").ok());
}

// A write in one process is seen by another's next refresh, re-reading only what
// changed; an agent can wait for it (blocking, or by polling the descriptor).
BOOST_AUTO_TEST_CASE(changes_are_announced_and_seen)
{
    grants();
    temp_dir t;
    presets::locations at;
    at.home = t / "home";
    at.overrides["user"] = (t / "files").string();
    write(t / "files/notes.md", "---\nname: notes\ndescription: A file skill\ntriggers: [notes]\n---\nFile.\n");
    auto agent = presets::make_fleet(at, opts("agent_a"), "events");
    agent.load();
    BOOST_TEST(all(agent.snapshot()->diagnostics()) == "");
    postgres_source const other("db", store_as("agent_a"), "events");
    BOOST_TEST(other.create(skill("first"), {}).ok());
    BOOST_TEST((presets::create_skill(agent, skill("notes")).status == db_status::file_skill)); // files win
    agent.refresh();
    auto const* first = agent.snapshot()->find("first");
    BOOST_TEST_REQUIRE(first != nullptr);
    BOOST_TEST(*agent.body(*first) == "Steps.\n");
    BOOST_TEST(other.create(skill("second"), {}).ok());
    agent.refresh();
    BOOST_TEST(agent.snapshot()->find("second") != nullptr);
    BOOST_TEST(agent.snapshot()->find("first") == first); // not read again
    auto const before = agent.snapshot();
    agent.refresh(); // nothing changed: the same snapshot
    BOOST_TEST(agent.snapshot() == before);

    auto const& tier = agent.source<1>();
    std::atomic<bool> woke{false}, waiting{false};
    std::thread waiter([&] {
        waiting = true;
        woke = tier.wait(std::chrono::seconds(20));
    });
    // The write goes once the waiter is on its way into `wait`; its announcement takes a
    // round trip through the server, and one that came first would be held for `wait` anyway.
    BOOST_TEST_REQUIRE(wait_until([&] { return waiting.load(); }, std::chrono::seconds(20)), "the waiting thread never started");
    BOOST_TEST(other.create(skill("third"), {}).ok());
    waiter.join();
    BOOST_TEST(woke.load());
    BOOST_TEST(!tier.wait(std::chrono::milliseconds(100))); // nothing more

    int const fd = tier.change_fd();
    BOOST_TEST_REQUIRE(fd >= 0);
    BOOST_TEST(other.remove("third").ok());
    pollfd p{fd, POLLIN, 0};
    BOOST_TEST(::poll(&p, 1, 20000) == 1);
    BOOST_TEST(tier.store()->notified("events"));
    agent.refresh();
    BOOST_TEST(agent.snapshot()->find("third") == nullptr);
    for (auto const* n : {"first", "second"}) BOOST_TEST(other.remove(n).ok());
}

namespace {
/// Every row a discovery found, with its revision and (read back) its text.
std::string rows_of(postgres_source const& src)
{
    std::string out;
    for (auto const& c : src.discover().skills) {
        auto const text = src.read_all(c);
        out += c.command + "@" + std::to_string(c.stamp.mtime_ns) + "=" + text.text.value_or("?") + "\n";
    }
    return out;
}
} // namespace

// A reader that is behind reads only what was written after its last sync (the change
// feed): random creations, edits, deletions and names made again, checked after every
// batch against a reader that reads every name. A reader too far behind the remembered
// deletions, a schema made by an older skillmd (without the feed, then given it by its
// owner), and a grant taken away all fall back to reading every name.
BOOST_AUTO_TEST_CASE(the_change_feed_brings_what_changed)
{
    grants();
    auto admin = store_as("skillmd_admin");
    BOOST_TEST_REQUIRE(admin->grant("feed", "team_a", namespace_access::write).ok());
    BOOST_TEST_REQUIRE(admin->grant("feed", "agent_b", namespace_access::read).ok());
    postgres_source const writer("db", store_as("agent_a"), "feed");
    postgres_source const reader("db", store_as("agent_b"), "feed");
    BOOST_TEST(reader.store()->has_feed());
    auto const everything = store_as("agent_b"); // a new source on it reads every name
    auto const fresh = [&] { return rows_of(postgres_source("db", everything, "feed")); };
    BOOST_TEST(rows_of(reader) == "");
    std::mt19937 rng(43);
    std::vector<std::string> live;
    int made = 0, deltas = 0;
    for (int batch = 0; batch < 120; ++batch) {
        for (int k = std::uniform_int_distribution<int>(0, 4)(rng); k > 0; --k) {
            int const op = live.empty() ? 0 : std::uniform_int_distribution<int>(0, 3)(rng);
            std::size_t const at = live.empty() ? 0 : std::uniform_int_distribution<std::size_t>(0, live.size() - 1)(rng);
            if (op == 0) {
                live.push_back("s" + std::to_string(made++));
                BOOST_TEST_REQUIRE(writer.create(skill(live.back()), {}).ok());
            } else if (op == 1) {
                db_update u;
                u.content = "Edited in batch " + std::to_string(batch) + ".\n";
                BOOST_TEST_REQUIRE(writer.update(live[at], u, {}).ok());
            } else if (op == 2) {
                BOOST_TEST_REQUIRE(writer.remove(live[at]).ok());
                live.erase(live.begin() + static_cast<std::ptrdiff_t>(at));
            } else { // deleted and made again, with other text, between two syncs
                BOOST_TEST_REQUIRE(writer.remove(live[at]).ok());
                BOOST_TEST_REQUIRE(writer.create(skill(live[at], "Made again"), {}).ok());
            }
        }
        auto const seen = rows_of(reader);
        deltas += reader.followed_feed();
        BOOST_TEST_REQUIRE(seen == fresh(), "batch " << batch);
    }
    BOOST_TEST(deltas == 120); // every sync after the first read only the change
    BOOST_TEST(!live.empty());

    // More deletions than the feed remembers (64 to 128) while the reader is away: it
    // reads every name, and has them right. So do long names, sooner (the list stays
    // within 32 kB).
    for (int i = 0; i < 150; ++i) BOOST_TEST_REQUIRE(writer.create(skill("gone-" + std::to_string(i)), {}).ok());
    BOOST_TEST(rows_of(reader) == fresh());
    for (int i = 0; i < 150; ++i) BOOST_TEST_REQUIRE(writer.remove("gone-" + std::to_string(i)).ok());
    BOOST_TEST(rows_of(reader) == fresh());
    BOOST_TEST(!reader.followed_feed());
    std::string const long_name(250, 'l');
    for (int i = 0; i < 130; ++i) BOOST_TEST_REQUIRE(writer.create(skill(long_name + std::to_string(i)), {}).ok());
    BOOST_TEST(rows_of(reader) == fresh());
    for (int i = 0; i < 130; ++i) BOOST_TEST_REQUIRE(writer.remove(long_name + std::to_string(i)).ok());
    int rows = 0; // 130 deletions of 250-byte names: the list was cut by its size, before 128 entries
    BOOST_TEST(cluster::sql("skillmd_admin", "SELECT 1 FROM skillmd.changes WHERE namespace = 'feed' AND "
                                             "octet_length(removed::text) <= 32768 AND jsonb_array_length(removed) < 100", &rows) == "");
    BOOST_TEST(rows == 1);
    BOOST_TEST(rows_of(reader) == fresh());
    BOOST_TEST(!reader.followed_feed());
    BOOST_TEST(writer.remove(live.front()).ok());
    BOOST_TEST(rows_of(reader) == fresh());
    BOOST_TEST(reader.followed_feed());

    // Another server (here the same one restarted: a promoted standby, a restored backup
    // or another server behind a pooler look so too) may have another history where the
    // counters agree: the first sync of every source from it compares every name, a
    // second source on the same store too.
    postgres_source const reader_too("db", reader.store(), "feed");
    BOOST_TEST(rows_of(reader_too) == fresh());
    cluster::control("restart");
    BOOST_TEST(wait_until([&] { return writer.remove(live.back()).ok(); }, std::chrono::seconds(10))); // reconnects after its back-off
    BOOST_TEST(wait_until([&] { return rows_of(reader) == fresh(); }, std::chrono::seconds(10)));
    BOOST_TEST(!reader.followed_feed());
    BOOST_TEST(rows_of(reader_too) == fresh());
    BOOST_TEST(!reader_too.followed_feed());
    BOOST_TEST(rows_of(reader) == fresh());
    BOOST_TEST(reader.followed_feed());

    // A schema without the feed (as an older skillmd made it): agents read every name;
    // its owner's next connection adds the feed, and agents follow it again.
    cluster::admin_sql("DROP FUNCTION skillmd.skill_changes(text, bigint)");
    postgres_source const old_schema("db", store_as("agent_b"), "feed");
    BOOST_TEST(!old_schema.store()->has_feed());
    BOOST_TEST(rows_of(old_schema) == fresh());
    BOOST_TEST(writer.create(skill("while-old"), {}).ok());
    BOOST_TEST(rows_of(old_schema) == fresh());
    BOOST_TEST(!old_schema.followed_feed());
    BOOST_TEST(store_as("skillmd_admin")->has_feed());
    postgres_source const renewed("db", store_as("agent_b"), "feed");
    BOOST_TEST(renewed.store()->has_feed());
    BOOST_TEST(rows_of(renewed) == fresh());
    BOOST_TEST(writer.remove("while-old").ok());
    BOOST_TEST(rows_of(renewed) == fresh());
    BOOST_TEST(renewed.followed_feed());

    // The grant taken away: the namespace reads as empty, as it would from scratch.
    BOOST_TEST(wait_until([&] { return admin->revoke("feed", "agent_b").ok(); }, std::chrono::seconds(10))); // restarted above
    BOOST_TEST(wait_until([&] { return rows_of(renewed) == ""; }, std::chrono::seconds(10)));
    BOOST_TEST(rows_of(reader) == "");
}

namespace {
/// A source whose discoveries are counted: a refresh that lists nothing again applied
/// what the source said changed.
template <class Source>
struct discover_counting
{
    Source inner;
    std::shared_ptr<std::atomic<int>> discovers = std::make_shared<std::atomic<int>>(0);
    std::string_view label() const { return inner.label(); }
    discovery discover() const
    {
        ++*discovers;
        return inner.discover();
    }
    read_outcome read_head(candidate const& c) const { return inner.read_head(c); }
    read_outcome read_all(candidate const& c) const { return inner.read_all(c); }
    bool watch(discovery const& d) const { return inner.watch(d); }
    std::optional<std::vector<std::string>> changes() const { return inner.changes(); }
    std::optional<candidate> candidate_at(std::string const& path) const { return inner.candidate_at(path); }
};

/// What a snapshot lists, in one comparable text.
std::string listed_text(skillmd::snapshot const& s)
{
    std::string out;
    for (auto const& r : s.skills())
        out += std::string(r.command) + " @" + std::to_string(r.where.stamp.mtime_ns) + " " + std::string(r.meta.description) + " " +
               std::string(r.where.path) + "\n";
    for (auto const& d : s.diagnostics()) out += d.code + " " + d.message + "\n";
    return out;
}
} // namespace

// An agent's registry follows the change feed: skills made, edited, removed and made
// again reach its snapshot without listing the namespace again, and every snapshot
// equals what a registry loading afresh has.
BOOST_AUTO_TEST_CASE(an_agent_applies_the_feed_without_listing_again)
{
    grants();
    auto admin = store_as("skillmd_admin");
    BOOST_TEST_REQUIRE(admin->grant("applied", "team_a", namespace_access::write).ok());
    postgres_source const writer("db", store_as("agent_a"), "applied");
    using source_t = discover_counting<postgres_source>;
    using reg_t = basic_registry<frontmatter::x3_parser, first_tier_wins, source_t>;
    registry_options o;
    o.dialect = dialects::koshi();
    source_t const src{postgres_source("db", store_as("agent_a"), "applied")};
    reg_t reg(o, src);
    for (int i = 0; i < 5; ++i) BOOST_TEST_REQUIRE(writer.create(skill("s" + std::to_string(i)), {}).ok());
    reg.load();
    reg.refresh(); // the watch
    int const listed = *src.discovers;
    std::mt19937 rng(11);
    std::vector<std::string> live = {"s0", "s1", "s2", "s3", "s4"};
    int made = 5;
    for (int batch = 0; batch < 40; ++batch) {
        for (int k = 1 + static_cast<int>(rng() % 3); k > 0; --k) {
            unsigned const op = live.empty() ? 0 : rng() % 4;
            std::size_t const at = live.empty() ? 0 : rng() % live.size();
            if (op == 0) {
                live.push_back("s" + std::to_string(made++));
                BOOST_TEST_REQUIRE(writer.create(skill(live.back()), {}).ok());
            } else if (op == 1) {
                db_update u;
                u.description = "Edited in batch " + std::to_string(batch);
                BOOST_TEST_REQUIRE(writer.update(live[at], u, {}).ok());
            } else if (op == 2) {
                BOOST_TEST_REQUIRE(writer.remove(live[at]).ok());
                live.erase(live.begin() + static_cast<std::ptrdiff_t>(at));
            } else {
                BOOST_TEST_REQUIRE(writer.remove(live[at]).ok());
                BOOST_TEST_REQUIRE(writer.create(skill(live[at], "Made again"), {}).ok());
            }
        }
        BOOST_TEST_REQUIRE(reg.refresh());
        reg_t fresh(o, source_t{postgres_source("db", store_as("agent_a"), "applied")});
        fresh.load();
        BOOST_TEST_REQUIRE(listed_text(*reg.snapshot()) == listed_text(*fresh.snapshot()), "batch " << batch);
    }
    BOOST_TEST(*src.discovers == listed); // every batch applied from the feed
    BOOST_TEST(reg.snapshot()->skills().size() == live.size());
}

// A server that stops answering (its backend stopped with SIGSTOP): every call returns
// within the statement limit and a second, says why, and the store comes back when the
// server does. wait() returns by its own deadline even with its poll unanswered.
BOOST_AUTO_TEST_CASE(a_silent_server_cannot_hold_a_call)
{
    grants();
    auto o = opts("reader");
    o.statement_timeout_ms = 300;
    auto const store = std::make_shared<postgres_store>(o);
    postgres_source const src("db", store, "team-a");
    BOOST_TEST(src.discover().diagnostics.empty());
    std::string pid;
    {
        int rows = 0;
        BOOST_TEST_REQUIRE(cluster::sql("skillmd_admin", "SELECT pid FROM pg_stat_activity WHERE usename = 'reader'", &rows) == "");
        BOOST_TEST_REQUIRE(rows == 1);
        PGconn* c = PQconnectdb(cluster::conninfo("skillmd_admin").c_str());
        PGresult* r = PQexec(c, "SELECT pid FROM pg_stat_activity WHERE usename = 'reader'");
        pid = PQgetvalue(r, 0, 0);
        PQclear(r);
        PQfinish(c);
    }
    BOOST_TEST_REQUIRE(std::system(("kill -STOP " + pid).c_str()) == 0);
    auto const started = std::chrono::steady_clock::now();
    auto const d = src.discover();
    auto const took = std::chrono::steady_clock::now() - started;
    BOOST_TEST(all(d.diagnostics).find("no answer within 300 ms") != std::string::npos, all(d.diagnostics));
    BOOST_TEST(took < std::chrono::milliseconds(2500), std::chrono::duration<double>(took).count() << " s");
    BOOST_TEST(std::system(("kill -CONT " + pid).c_str()) == 0);
    BOOST_TEST(wait_until([&] { return src.discover().diagnostics.empty(); }, std::chrono::seconds(10)));
}

// The server restarted, a connection killed, the server down: the last snapshot stays,
// the connection comes back, no acknowledged write is lost, and an agent that starts
// while the server is down starts from its local snapshot.
BOOST_AUTO_TEST_CASE(faults_lose_nothing_acknowledged)
{
    grants();
    temp_dir t;
    presets::locations at;
    at.home = t / "home";
    at.overrides["user"] = (t / "files").string();
    at.overrides["cache"] = (t / "cache.json").string();
    write(t / "files/notes.md", "---\nname: notes\ndescription: A file skill\ntriggers: [notes]\n---\nFile.\n");
    postgres_source const writer("db", store_as("agent_a"), "faults");
    for (auto const* n : {"alpha", "beta"}) BOOST_TEST(writer.create(skill(n), {}).ok());
    auto agent = presets::make_fleet(at, opts("agent_a"), "faults");
    agent.load();
    BOOST_TEST(agent.snapshot()->skills().size() == 3u);

    // Writes keep going while the server restarts; every acknowledged one is kept.
    std::atomic<bool> stop{false};
    std::atomic<std::size_t> acknowledged_count{0};
    std::vector<std::string> acknowledged; // read once `writes` has ended
    std::thread writes([&] {
        for (int i = 0; !stop; ++i) {
            std::string const n = "during-" + std::to_string(i);
            if (writer.create(skill(n), {}).ok()) {
                acknowledged.push_back(n);
                ++acknowledged_count;
            }
            // Kept: it paces the writer (a steady stream across the restart), nothing is awaited.
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
    });
    auto const acknowledged_past = [&](std::size_t n) {
        return wait_until([&] { return acknowledged_count.load() > n; }, std::chrono::seconds(30));
    };
    BOOST_TEST(acknowledged_past(2), "no write acknowledged before the restart");
    cluster::control("restart");
    BOOST_TEST(acknowledged_past(acknowledged_count.load() + 2), "no write acknowledged after the restart");
    stop = true;
    writes.join();
    BOOST_TEST_REQUIRE(acknowledged.size() > 5u);
    auto const agent_has = [&](std::string const& name) {
        return wait_until(
            [&] {
                if (agent.snapshot()->find(name)) return true;
                agent.refresh();
                return agent.snapshot()->find(name) != nullptr;
            },
            std::chrono::seconds(10));
    };
    BOOST_TEST(agent_has(acknowledged.back()), "the agent never saw " << acknowledged.back());
    for (auto const& n : acknowledged) BOOST_TEST(agent.snapshot()->find(n) != nullptr, n);

    // A connection killed by the server: the next operation reconnects.
    cluster::admin_sql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = 'agent_a'");
    BOOST_TEST((writer.create(skill("after-kill"), {}).ok() || writer.create(skill("after-kill"), {}).ok()));
    BOOST_TEST(agent_has("after-kill"), "the agent never saw after-kill");
    std::size_t const count = agent.snapshot()->skills().size();

    // The server down: the last snapshot stays, with a diagnostic; writes are refused.
    cluster::control("kill");
    agent.refresh();
    BOOST_TEST(agent.snapshot()->skills().size() == count);
    BOOST_TEST(mentions(agent.snapshot()->diagnostics(), "stays"), all(agent.snapshot()->diagnostics()));
    BOOST_TEST((writer.create(skill("while-down"), {}).status == db_status::error));

    // An agent that starts now starts from the local snapshot, marked stale.
    auto late = presets::make_fleet(at, opts("agent_a"), "faults");
    late.load();
    BOOST_TEST(late.snapshot()->skills().size() == count);
    BOOST_TEST(late.source<1>().stale());
    BOOST_TEST(mentions(late.snapshot()->diagnostics(), "from the local snapshot written"), all(late.snapshot()->diagnostics()));
    BOOST_TEST(*late.body(*late.snapshot()->find("alpha")) == "Steps.\n");
    // Without a snapshot file: no database skills, an error, the file skills still there.
    presets::locations bare = at;
    bare.overrides["cache"] = (t / "none.json").string();
    auto cold = presets::make_fleet(bare, opts("agent_a"), "faults");
    cold.load();
    BOOST_TEST(cold.snapshot()->skills().size() == 1u);
    BOOST_TEST(cold.snapshot()->find("notes") != nullptr);

    // The server back: everyone resynchronises.
    cluster::control("up");
    BOOST_TEST(wait_until(
                   [&] {
                       late.refresh();
                       return !late.source<1>().stale();
                   },
                   std::chrono::seconds(10)),
               "the late agent never left its local snapshot");
    BOOST_TEST(all(late.snapshot()->diagnostics()) == "");
    BOOST_TEST((writer.create(skill("back"), {}).ok() || writer.create(skill("back"), {}).ok()));
    BOOST_TEST(agent_has("back"), "the agent never saw back");
    BOOST_TEST(all(agent.snapshot()->diagnostics()) == "");
}

// `skillmd db` and `skillmd watch` on the fleet tier.
BOOST_AUTO_TEST_CASE(the_command_line_on_the_fleet_tier)
{
    grants();
    temp_dir t;
    std::string const cli = std::string(SKILLMD_TEST_CLI) + " ";
    std::string const db = " --db '" + cluster::conninfo("agent_a") + "' --namespace cli --dir user=" + (t / "files").string() +
                           " --dir cache=" + (t / "cache.json").string();
    std::string const out = (t / "watch.out").string();
    std::string const pid_file = (t / "watch.pid").string();
    std::string const watch = cli + "watch" + db + " --for 6 > " + out + " 2>&1 & echo $! > " + pid_file;
    BOOST_TEST(std::system(watch.c_str()) == 0);
    // What a file holds, "" while it does not exist (the shell makes `out` in its own time).
    auto const text_of = [](std::string const& path) {
        std::ifstream in(path, std::ios::binary);
        return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    };
    BOOST_TEST_REQUIRE(wait_until([&] { return text_of(out).find("watching ") != std::string::npos; }, std::chrono::seconds(20)),
                       "watch never started: " << text_of(out));
    auto run = [&](std::string const& args) { return WEXITSTATUS(std::system((cli + args + db + " > /dev/null 2>&1").c_str())); };
    BOOST_TEST(run("db create --name cli-made --description 'Made by the CLI' --content 'Body.' --triggers cli") == 0);
    BOOST_TEST(run("db create --name cli-made --description 'Again' --content 'Body.' --triggers cli") == 1);
    BOOST_TEST(run("db update --name cli-made --description 'Changed' --revision 99") == 1); // not its revision (it is at 1)
    BOOST_TEST(run("db update --name cli-made --description 'Changed'") == 0);
    BOOST_TEST(run("db load --name cli-made") == 0);
    BOOST_TEST(run("db list --format json") == 0);
    BOOST_TEST(WEXITSTATUS(std::system((cli + "db list" + db + " | grep -q '^cli-made\tdatabase\tcli\tChanged$'").c_str())) == 0);
    BOOST_TEST(run("db delete --name cli-made") == 0);
    BOOST_TEST(run("db grant --role agent_a --access write") == 3); // only the owner grants
    BOOST_TEST(wait_until([&] { return text_of(out).find("- cli-made") != std::string::npos; }, std::chrono::seconds(20)),
               "watch never reported the deletion");
    std::string const seen = slurp(out);
    BOOST_TEST(seen.find("watching ") != std::string::npos, seen);
    BOOST_TEST(seen.find("+ cli-made") != std::string::npos, seen);
    BOOST_TEST(seen.find("- cli-made") != std::string::npos, seen);
    // `watch --for 6` ends by itself; the test ends after it, not while it still writes in `t`.
    auto const running = [&, pid = text_of(pid_file)] {
        std::string const stat = text_of("/proc/" + pid.substr(0, pid.find('\n')) + "/stat");
        auto const p = stat.rfind(')');
        return p != std::string::npos && p + 2 < stat.size() && stat[p + 2] != 'Z';
    };
    BOOST_TEST(wait_until([&] { return !running(); }, std::chrono::seconds(30)), "watch --for 6 never ended");
}

BOOST_AUTO_TEST_SUITE_END()

namespace {

/// A primary (pg_cluster) with a streaming hot standby the primary waits for at every
/// commit, and PgBouncer in transaction mode in front of the primary.
struct replicated : pg_cluster
{
    static inline std::string standby, pooler;
    replicated()
    {
        admin_sql("CREATE ROLE agent_a LOGIN;");
        standby = (t / "standby").string();
        pooler = (t / "pooler").string();
        BOOST_TEST_REQUIRE(std::system(("bash '" + script() + "' standby '" + standby + "' '" + dir + "' sync").c_str()) == 0);
        BOOST_TEST_REQUIRE(std::system(("bash '" + bouncer() + "' start '" + pooler + "' '" + dir + "' skillmd_admin agent_a").c_str()) == 0);
        auto admin = store_as("skillmd_admin");
        for (auto const* ns : {"replica", "pooled", "failover"}) BOOST_TEST_REQUIRE(admin->grant(ns, "agent_a", namespace_access::write).ok());
    }
    ~replicated()
    {
        std::system(("bash '" + bouncer() + "' stop '" + pooler + "' 2>/dev/null").c_str());
        std::system(("bash '" + script() + "' stop '" + standby + "' 2>/dev/null").c_str());
    }
    static std::string bouncer() { return std::string(SKILLMD_TEST_SOURCE_DIR) + "/tests/postgres/pgbouncer.sh"; }
    replicated(replicated const&) = delete;
    replicated& operator=(replicated const&) = delete;

    /// Both servers, as libpq tries them: the first that has what `attrs` asks for.
    static std::string both(std::string const& first, std::string const& second, std::string const& attrs)
    {
        return "host=" + first + "," + second + " dbname=skillmd user=agent_a target_session_attrs=" + attrs;
    }
    static std::string readers() { return both(standby, dir, "prefer-standby"); }
    static std::string writers() { return both(dir, standby, "read-write"); }
    static std::string through_pooler(std::string const& user) { return "host=" + pooler + " port=6432 dbname=skillmd user=" + user; }
};

postgres_options replica_opts(std::string conninfo)
{
    auto o = opts("agent_a");
    o.conninfo = std::move(conninfo);
    o.poll_interval = std::chrono::milliseconds(20);
    o.connect_timeout_s = 2;
    return o;
}

/// Waits on the tier, then refreshes, until `agent` has `name`; false after 20 seconds.
template <class Registry>
bool follows_to(Registry& agent, std::string const& name)
{
    auto const until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (!agent.snapshot()->find(name)) {
        if (std::chrono::steady_clock::now() > until) return false;
        agent.template source<1>().wait(std::chrono::milliseconds(500));
        agent.refresh();
    }
    return true;
}

} // namespace

BOOST_AUTO_TEST_SUITE(fleet_replicas, *boost::unit_test::fixture<replicated>())

// An agent given both servers with prefer-standby reads the standby. A standby cannot
// LISTEN and is sent no notification: the tier polls the namespace's counter, so a
// write to the primary is still seen, and a quiet namespace wakes nobody.
BOOST_AUTO_TEST_CASE(agents_read_a_standby_and_poll_it)
{
    temp_dir t;
    presets::locations at;
    at.home = t / "home";
    at.overrides["user"] = (t / "files").string();
    postgres_source const writer("db", std::make_shared<postgres_store>(replica_opts(replicated::writers())), "replica");
    BOOST_TEST_REQUIRE(writer.create(skill("before"), {}).ok());
    BOOST_TEST((writer.store()->standby() == std::optional<bool>(false)));

    auto agent = presets::make_fleet(at, replica_opts(replicated::readers()), "replica");
    agent.load();
    BOOST_TEST(all(agent.snapshot()->diagnostics()) == "");
    BOOST_TEST((agent.source<1>().store()->standby() == std::optional<bool>(true)));
    BOOST_TEST_REQUIRE(follows_to(agent, "before"));
    BOOST_TEST(!agent.source<1>().wait(std::chrono::milliseconds(200))); // quiet: the counter did not move

    auto const& tier = agent.source<1>();
    BOOST_TEST(tier.change_fd() == -1); // nothing will ever be readable there: poll
    // Woken by the counter's move, once: a caller that does not (or cannot) sync is not
    // woken again at once by the same move, as a notification comes once.
    BOOST_TEST_REQUIRE(writer.create(skill("wakes"), {}).ok());
    BOOST_TEST(tier.wait(std::chrono::seconds(20)));
    auto const again = std::chrono::steady_clock::now();
    BOOST_TEST(!tier.wait(std::chrono::milliseconds(300)));
    BOOST_TEST((std::chrono::steady_clock::now() - again >= std::chrono::milliseconds(250)));
    agent.refresh();
    BOOST_TEST(agent.snapshot()->find("wakes") != nullptr);
    BOOST_TEST_REQUIRE(writer.create(skill("noticed"), {}).ok());
    BOOST_TEST(wait_until([&] { return tier.store()->notified("replica"); }, std::chrono::seconds(20)));

    std::vector<double> ms;
    for (int i = 0; i < 20; ++i) {
        std::string const name = "seen-" + std::to_string(i);
        agent.refresh();
        BOOST_TEST_REQUIRE(writer.create(skill(name), {}).ok());
        auto const committed = std::chrono::steady_clock::now();
        while (!agent.snapshot()->find(name)) {
            BOOST_TEST_REQUIRE(tier.wait(std::chrono::seconds(20)), name << " never woke the agent on the standby");
            agent.refresh();
        }
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - committed).count());
    }
    std::sort(ms.begin(), ms.end());
    BOOST_TEST_MESSAGE("commit to visible through the standby, polled every 20 ms: median " << ms[ms.size() / 2] << " ms, max " << ms.back() << " ms");

    // The standby refuses writes, and says so.
    auto const refused = presets::create_skill(agent, skill("on-the-standby"));
    BOOST_TEST((refused.status == db_status::error));
    BOOST_TEST(refused.message.find("read-only") != std::string::npos, refused.message);
}

// Behind PgBouncer in transaction mode the tier is told so: it polls, sets its limits per
// transaction and leaves nothing in the server sessions other clients then get.
BOOST_AUTO_TEST_CASE(a_transaction_pooler_is_polled)
{
    temp_dir t;
    presets::locations at;
    at.home = t / "home";
    at.overrides["user"] = (t / "files").string();
    auto o = replica_opts(replicated::through_pooler("agent_a"));
    o.transaction_pooler = true;
    postgres_source const writer("db", std::make_shared<postgres_store>(o), "pooled");
    auto agent = presets::make_fleet(at, o, "pooled");
    agent.load();
    BOOST_TEST(all(agent.snapshot()->diagnostics()) == "");
    for (int i = 0; i < 10; ++i) {
        std::string const name = "pooled-" + std::to_string(i);
        BOOST_TEST_REQUIRE(writer.create(skill(name), {}).ok());
        BOOST_TEST_REQUIRE(follows_to(agent, name), name << " never reached the agent behind the pooler");
    }
    db_update u;
    u.description = "Changed through the pooler";
    BOOST_TEST(writer.update("pooled-3", u, {}).ok());
    BOOST_TEST(agent.source<1>().wait(std::chrono::seconds(20)));
    agent.refresh();
    BOOST_TEST(agent.snapshot()->find("pooled-3")->meta.description == "Changed through the pooler");
    BOOST_TEST(!agent.source<1>().wait(std::chrono::milliseconds(200)));

    // The command line, told the same.
    std::string const cli = std::string(SKILLMD_TEST_CLI) + " ";
    std::string const db = " --db '" + replicated::through_pooler("agent_a") + "' --namespace pooled --pooler transaction";
    BOOST_TEST(std::system((cli + "db create --name from-cli --description 'Made through the pooler' --triggers pool --content Body." + db + " > /dev/null").c_str()) == 0);
    BOOST_TEST(follows_to(agent, "from-cli"));
    BOOST_TEST(WEXITSTATUS(std::system((cli + "list --preset fleet" + db + " | grep -q from-cli").c_str())) == 0);
    BOOST_TEST(WEXITSTATUS(std::system((cli + "list --preset koshi --pooler transaction > /dev/null 2>&1").c_str())) == 2);

    // Every server session of agent_a's pool (PgBouncer pools by role and database; four
    // clients each inside a transaction hold all four): none carries the tier's limits or
    // listens (a session SET or LISTEN would stay with the server connection, for whichever
    // client the pooler gives it next).
    std::vector<PGconn*> held;
    for (int i = 0; i < 4; ++i) {
        held.push_back(PQconnectdb(replicated::through_pooler("agent_a").c_str()));
        BOOST_TEST_REQUIRE(PQstatus(held.back()) == CONNECTION_OK, PQerrorMessage(held.back()));
        PQclear(PQexec(held.back(), "BEGIN"));
    }
    std::set<std::string> sessions;
    for (auto* c : held) {
        PGresult* r = PQexec(c, "SELECT current_setting('statement_timeout'), (SELECT count(*) FROM pg_listening_channels()), pg_backend_pid()");
        BOOST_TEST_REQUIRE(PQresultStatus(r) == PGRES_TUPLES_OK);
        BOOST_TEST(std::string(PQgetvalue(r, 0, 0)) == "0");
        BOOST_TEST(std::string(PQgetvalue(r, 0, 1)) == "0");
        sessions.insert(PQgetvalue(r, 0, 2));
        PQclear(r);
    }
    BOOST_TEST(sessions.size() == 4u); // four server sessions: the whole pool

    // With the pool held, a statement waits in PgBouncer's queue, where no server limit
    // runs: the tier gives up after its own limit (and a second for the cancel), says
    // so, and works again once the pool has room.
    auto quick = o;
    quick.statement_timeout_ms = 300;
    quick.first_retry = quick.last_retry = std::chrono::milliseconds(50);
    postgres_source const queued("db", std::make_shared<postgres_store>(quick), "pooled");
    auto const started = std::chrono::steady_clock::now();
    auto const refused = queued.create(skill("while-full"), {});
    auto const took = std::chrono::steady_clock::now() - started;
    BOOST_TEST(!refused.ok());
    BOOST_TEST(refused.message.find("no answer within 300 ms") != std::string::npos, refused.message);
    BOOST_TEST(took < std::chrono::seconds(4), std::chrono::duration<double>(took).count() << " s");
    auto const listed = queued.discover();
    BOOST_TEST(listed.skills.empty());
    BOOST_TEST(all(listed.diagnostics).find("no answer within 300 ms") != std::string::npos, all(listed.diagnostics));
    for (auto* c : held) PQfinish(c);
    BOOST_TEST(wait_until([&] { return queued.create(skill("after-full"), {}).ok(); }, std::chrono::seconds(20)));
    BOOST_TEST(follows_to(agent, "after-full"));
}

// A COMMIT whose wait for the synchronous standby ends without it (here: no standby of
// that name; the wait outlasts the tier's limit) is never reported as a success: either
// the server warned that the write is on the primary only, or no answer came and the
// outcome is unknown.
BOOST_AUTO_TEST_CASE(an_unreplicated_commit_is_not_acknowledged)
{
    cluster::admin_sql("ALTER SYSTEM SET synchronous_standby_names = 'nobody'");
    cluster::admin_sql("SELECT pg_reload_conf()");
    auto o = replica_opts(replicated::writers());
    o.statement_timeout_ms = 300;
    postgres_source const w("db", std::make_shared<postgres_store>(o), "replica");
    auto const r = w.create(skill("unreplicated"), {});
    cluster::admin_sql("ALTER SYSTEM SET synchronous_standby_names = 'standby'"); // as cluster.sh set it
    cluster::admin_sql("SELECT pg_reload_conf()");
    BOOST_TEST(!r.ok());
    BOOST_TEST((r.message.find("may not be on a standby") != std::string::npos ||
                r.message.find("whether the write was kept is unknown") != std::string::npos),
               r.message);
}

// Four writer processes create skills while the primary is killed and the standby
// promoted. Every write acknowledged (the standby is synchronous) is on the new primary;
// the writers go on without a restart; the agent on the standby serves its last snapshot
// throughout, then catches up.
BOOST_AUTO_TEST_CASE(failover_loses_no_acknowledged_write)
{
    temp_dir t;
    std::string const stop_file = (t / "stop").string();
    int acks[2];
    BOOST_TEST_REQUIRE(::pipe(acks) == 0);
    std::vector<pid_t> pids;
    for (int p = 0; p < 4; ++p) {
        pid_t const pid = ::fork();
        if (pid == 0) {
            ::close(acks[0]);
            auto o = replica_opts(replicated::writers());
            o.first_retry = std::chrono::milliseconds(10);
            o.last_retry = std::chrono::milliseconds(100);
            postgres_source const w("db", std::make_shared<postgres_store>(o), "failover");
            auto const until = std::chrono::steady_clock::now() + std::chrono::seconds(90);
            for (int i = 0; !std::filesystem::exists(stop_file) && std::chrono::steady_clock::now() < until; ++i) {
                std::string const name = "w" + std::to_string(p) + "-" + std::to_string(i) + "\n";
                if (w.create(skill(name.substr(0, name.size() - 1)), {}).ok()) {
                    if (::write(acks[1], name.data(), name.size()) != static_cast<ssize_t>(name.size())) ::_exit(2);
                } else {
                    std::this_thread::sleep_for(std::chrono::milliseconds(5)); // the store backs off by itself too
                }
            }
            ::_exit(0);
        }
        pids.push_back(pid);
    }
    ::close(acks[1]);
    std::mutex m;
    std::vector<std::string> acknowledged;
    std::thread reader([&] {
        std::string buf;
        char chunk[4096];
        for (ssize_t n; (n = ::read(acks[0], chunk, sizeof chunk)) > 0;) {
            buf.append(chunk, static_cast<std::size_t>(n));
            for (std::size_t nl; (nl = buf.find('\n')) != std::string::npos; buf.erase(0, nl + 1)) {
                std::lock_guard<std::mutex> lock(m);
                acknowledged.push_back(buf.substr(0, nl));
            }
        }
    });
    auto const count = [&] {
        std::lock_guard<std::mutex> lock(m);
        return acknowledged.size();
    };
    auto const more_than = [&](std::size_t n) { return wait_until([&] { return count() > n; }, std::chrono::seconds(60)); };

    presets::locations at;
    at.home = t / "home";
    at.overrides["user"] = (t / "files").string();
    auto agent = presets::make_fleet(at, replica_opts(replicated::readers()), "failover");
    agent.load();
    BOOST_TEST_REQUIRE(more_than(40), "the writers acknowledged nothing before the failover");
    agent.refresh();
    BOOST_TEST((agent.source<1>().store()->standby() == std::optional<bool>(true)));
    std::size_t served = agent.snapshot()->skills().size();
    BOOST_TEST(served > 0u);

    pg_cluster::control("kill");
    // Primary gone, standby not yet promoted: refreshes keep the skills they had.
    for (int i = 0; i < 10; ++i) {
        agent.refresh();
        BOOST_TEST(agent.snapshot()->skills().size() >= served);
        served = agent.snapshot()->skills().size();
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    std::size_t const at_promotion = count();
    BOOST_TEST_REQUIRE(std::system(("bash '" + pg_cluster::script() + "' promote '" + replicated::standby + "'").c_str()) == 0);
    BOOST_TEST(more_than(at_promotion + 40), "the writers did not go on against the new primary");
    { std::ofstream(stop_file) << "stop\n"; }
    for (auto pid : pids) {
        int status = 0;
        ::waitpid(pid, &status, 0);
        BOOST_TEST((WIFEXITED(status) && WEXITSTATUS(status) == 0));
    }
    reader.join();
    ::close(acks[0]);

    // Everything acknowledged is on the new primary.
    PGconn* c = PQconnectdb(("host=" + replicated::standby + " dbname=skillmd user=skillmd_admin").c_str());
    BOOST_TEST_REQUIRE(PQstatus(c) == CONNECTION_OK, PQerrorMessage(c));
    PGresult* r = PQexec(c, "SELECT name FROM skillmd.skills WHERE namespace = 'failover'");
    BOOST_TEST_REQUIRE(PQresultStatus(r) == PGRES_TUPLES_OK);
    std::set<std::string> stored;
    for (int i = 0; i < PQntuples(r); ++i) stored.insert(PQgetvalue(r, i, 0));
    PQclear(r);
    PQfinish(c);
    std::size_t lost = 0;
    for (auto const& n : acknowledged) lost += stored.count(n) ? 0 : 1;
    BOOST_TEST(lost == 0u, lost << " of " << acknowledged.size() << " acknowledged writes are not on the new primary");
    BOOST_TEST_MESSAGE(acknowledged.size() << " writes acknowledged, " << at_promotion << " before the promotion");

    // The agent catches up with all of it.
    BOOST_TEST(wait_until(
        [&] {
            agent.refresh();
            return agent.snapshot()->skills().size() >= acknowledged.size();
        },
        std::chrono::seconds(20)));
    for (auto const& n : acknowledged) BOOST_TEST(agent.snapshot()->find(n) != nullptr, n);
}

BOOST_AUTO_TEST_SUITE_END()

