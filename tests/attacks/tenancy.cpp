// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
//
// Tenancy against an attacker who holds one tenant's agent role and sends plain SQL
// over libpq: what the server tells it about the other tenants through plans,
// statistics, notifications and locks, what an agent keeps of notifications not meant
// for it, and who can read the local snapshot file. One case per leak found; each
// failed on the schema v1 code (row-level security with table privileges for PUBLIC).
// docs/security-tenancy.md says what each checks.

#include "../support/pg_cluster.hpp"
#include "../support/test_support.hpp"

#include <skillmd/presets/fleet.hpp>
#include <skillmd/storage/sources/postgres_source.hpp>

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <regex>
#include <string>
#include <vector>

#include <poll.h>
#include <sys/stat.h>
#include <sys/wait.h>

using namespace skillmd;
using namespace skillmd::test;
namespace fs = std::filesystem;

namespace {

/// team-a is written by team_a (agent_a is a member); team-b by agent_b. The attacker is
/// agent_a; its target is team-b.
struct cluster : pg_cluster
{
    cluster()
    {
        admin_sql("CREATE ROLE team_a NOLOGIN; CREATE ROLE agent_a LOGIN; CREATE ROLE agent_b LOGIN; GRANT team_a TO agent_a;");
    }
};

postgres_options opts(std::string const& user, std::string const& dbname = "skillmd")
{
    postgres_options o;
    o.conninfo = cluster::conninfo(user, dbname);
    o.first_retry = std::chrono::milliseconds(20);
    o.last_retry = std::chrono::milliseconds(200);
    o.snapshot_every = std::chrono::milliseconds(0);
    return o;
}

std::shared_ptr<postgres_store> store_as(std::string const& user)
{
    std::string error;
    auto s = postgres_store::open(opts(user), error);
    BOOST_TEST(error == "");
    return s;
}

db_skill skill(std::string name) { return {std::move(name), "Does a thing", {"deploy"}, "Steps.\n", {}, {}, 0}; }

/// The schema, the grants, and team-b holding three skills the attacker must not learn of.
void tenants()
{
    auto admin = store_as("skillmd_admin");
    BOOST_TEST_REQUIRE(admin->grant("team-a", "team_a", namespace_access::write).ok());
    BOOST_TEST_REQUIRE(admin->grant("team-b", "agent_b", namespace_access::write).ok());
    postgres_source const b("db", store_as("agent_b"), "team-b");
    for (auto const* n : {"b-alpha", "b-beta", "b-gamma"}) {
        auto const r = b.create(skill(n), {});
        BOOST_TEST_REQUIRE((r.ok() || r.status == db_status::exists), r.message);
    }
}

/// One plain libpq connection, as an attacker holds it.
struct connection
{
    PGconn* c;
    explicit connection(std::string const& user, std::string const& dbname = "skillmd")
        : c(PQconnectdb(cluster::conninfo(user, dbname).c_str()))
    {
        BOOST_TEST_REQUIRE(PQstatus(c) == CONNECTION_OK);
    }
    ~connection() { PQfinish(c); }
    connection(connection const&) = delete;
    connection& operator=(connection const&) = delete;

    struct answer
    {
        std::string error; ///< "" when the statement succeeded
        std::string text;  ///< every row's every value, one row a line, values tab-separated
        bool null = false; ///< some value was NULL
    };
    answer run(std::string const& sql) const
    {
        answer a;
        PGresult* r = PQexec(c, sql.c_str());
        auto const st = PQresultStatus(r);
        if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) a.error = PQresultErrorMessage(r);
        for (int i = 0; i < PQntuples(r); ++i) {
            for (int j = 0; j < PQnfields(r); ++j) {
                if (PQgetisnull(r, i, j)) a.null = true;
                if (j) a.text += '\t';
                a.text.append(PQgetvalue(r, i, j));
            }
            a.text += "\n";
        }
        PQclear(r);
        return a;
    }
};

std::vector<std::string> names_of(discovery const& d)
{
    std::vector<std::string> out;
    for (auto const& c : d.skills) out.push_back(c.command);
    std::sort(out.begin(), out.end());
    return out;
}

/// The sum of every "Rows Removed by Filter: N" in a plan.
long removed_by_filter(std::string const& plan)
{
    static std::regex const line("Rows Removed by Filter: ([0-9]+)");
    long sum = 0;
    for (std::sregex_iterator it(plan.begin(), plan.end(), line), end; it != end; ++it) sum += std::stol((*it)[1]);
    return sum;
}

} // namespace

BOOST_AUTO_TEST_SUITE(attacks_tenancy, *boost::unit_test::fixture<cluster>())

// Leak 1: EXPLAIN ANALYZE counted the rows row-level security removed, so a walk over
// name prefixes spelled out every other tenant's skills. Now the tables cannot be read
// at all, and a plan of the functions shows only the caller's rows.
BOOST_AUTO_TEST_CASE(explain_analyze_reveals_no_foreign_rows)
{
    tenants();
    connection const attacker("agent_a");
    for (std::string const q : {"EXPLAIN ANALYZE SELECT * FROM skillmd.skills WHERE namespace = 'team-b' AND name >= 'b'",
                                "EXPLAIN ANALYZE SELECT * FROM skillmd.skills WHERE namespace > ''",
                                "EXPLAIN ANALYZE SELECT * FROM skillmd.changes",
                                "EXPLAIN ANALYZE SELECT * FROM skillmd.grants",
                                "SET enable_seqscan = off; EXPLAIN ANALYZE SELECT * FROM skillmd.skills WHERE namespace = 'team-b' "
                                "AND name >= 'b-b'"}) {
        auto const a = attacker.run(q);
        BOOST_TEST(removed_by_filter(a.text) == 0, q << "\n" << a.text);
        if (a.error.empty()) BOOST_TEST(a.text.find("team-b") == std::string::npos, a.text);
        else BOOST_TEST(a.error.find("permission denied") != std::string::npos, a.error);
    }
    // Through the functions: nothing of team-b, in the rows or in the plan.
    for (std::string const q : {"EXPLAIN ANALYZE SELECT * FROM skillmd.skill_names('team-b')",
                                "EXPLAIN ANALYZE SELECT * FROM skillmd.skill_rows('team-b', '[\"b-alpha\"]')"}) {
        auto const a = attacker.run(q);
        BOOST_TEST(a.error == "", q << ": " << a.error);
        BOOST_TEST(removed_by_filter(a.text) == 0, a.text);
        BOOST_TEST(a.text.find("actual time=") != std::string::npos, a.text);
        BOOST_TEST(std::regex_search(a.text, std::regex("Function Scan[^\n]*actual [^\n]*rows=0 ")), a.text);
    }
    BOOST_TEST(attacker.run("SELECT * FROM skillmd.skill_names('team-b')").text == "");
    BOOST_TEST(attacker.run("SELECT * FROM skillmd.skill_rows('team-b', '[\"b-alpha\"]')").text == "");
}

// Leak 2: plain EXPLAIN estimates, pg_stats and the per-table statistics views gave row
// counts (and the commonest values) of every tenant.
BOOST_AUTO_TEST_CASE(plans_and_statistics_reveal_no_counts)
{
    tenants();
    cluster::admin_sql("ANALYZE skillmd.skills");
    connection const attacker("agent_a");
    for (std::string const q : {"EXPLAIN SELECT * FROM skillmd.skills WHERE namespace = 'team-b'",
                                "EXPLAIN SELECT * FROM skillmd.changes WHERE namespace = 'team-b'",
                                "EXPLAIN SELECT * FROM skillmd.grants"}) {
        auto const a = attacker.run(q);
        BOOST_TEST(a.error.find("permission denied") != std::string::npos, q << " gave\n" << a.text);
    }
    for (std::string const view : {"pg_stat_user_tables", "pg_stat_all_tables", "pg_stat_xact_user_tables"}) {
        auto const a = attacker.run("SELECT n_live_tup, n_tup_ins, n_tup_upd, n_tup_del FROM " + view +
                                    " WHERE schemaname = 'skillmd'");
        BOOST_TEST((a.error != "" || a.text == "" || a.null), view << " gave\n" << a.text);
        if (view == "pg_stat_xact_user_tables") continue;
        auto const live = attacker.run("SELECT n_live_tup FROM " + view + " WHERE schemaname = 'skillmd'");
        BOOST_TEST((live.error != "" || live.null), view << " gave\n" << live.text);
    }
    auto const io = attacker.run("SELECT heap_blks_read, heap_blks_hit FROM pg_statio_user_tables WHERE schemaname = 'skillmd'");
    BOOST_TEST((io.error != "" || io.null), io.text);
    auto const stats = attacker.run("SELECT attname, most_common_vals::text, histogram_bounds::text FROM pg_stats "
                                    "WHERE schemaname = 'skillmd'");
    BOOST_TEST(stats.text == "", stats.text);
    // The owner still sees them: the statistics are there, only hidden.
    connection const admin("skillmd_admin");
    BOOST_TEST(admin.run("SELECT n_live_tup FROM pg_stat_user_tables WHERE schemaname = 'skillmd' AND relname = 'skills'").error == "");
    BOOST_TEST(admin.run("SELECT 1 FROM pg_stats WHERE schemaname = 'skillmd'").text != "");
}

// Leak 3: any role could LISTEN on the shared channel and read every namespace's name
// (and the timing of its writes) in the payloads.
BOOST_AUTO_TEST_CASE(notifications_name_no_other_namespace)
{
    tenants();
    connection const attacker("agent_a");
    BOOST_TEST_REQUIRE(attacker.run("LISTEN skillmd_changes; LISTEN attack_marker").error == "");
    // What the attacker can learn of its own namespace's channel it may LISTEN to; team-b's it cannot learn.
    auto const own = attacker.run("SELECT skillmd.namespace_channel('team-a')");
    auto const foreign = attacker.run("SELECT skillmd.namespace_channel('team-b')");
    BOOST_TEST((own.error == "" && !own.null && own.text.find("team-a") == std::string::npos), own.error << own.text);
    BOOST_TEST((foreign.error != "" || foreign.null), foreign.text);

    postgres_source const b("db", store_as("agent_b"), "team-b");
    BOOST_TEST(b.create(skill("b-written-now"), {}).ok());
    BOOST_TEST(b.remove("b-written-now").ok());
    // Notifications arrive in commit order: once the marker is in, team-b's would be too.
    cluster::admin_sql("NOTIFY attack_marker, 'end'");
    std::vector<std::string> heard;
    bool marker = false;
    auto const until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (!marker && std::chrono::steady_clock::now() < until) {
        pollfd p{PQsocket(attacker.c), POLLIN, 0};
        ::poll(&p, 1, 200);
        BOOST_TEST_REQUIRE(PQconsumeInput(attacker.c) == 1);
        while (PGnotify* n = PQnotifies(attacker.c)) {
            std::string const channel = n->relname, payload = n->extra ? n->extra : "";
            if (channel == "attack_marker") marker = true;
            else heard.push_back(channel + " " + payload);
            PQfreemem(n);
        }
    }
    BOOST_TEST_REQUIRE(marker);
    for (auto const& h : heard) BOOST_TEST(h.find("team-b") == std::string::npos, h);
    BOOST_TEST(heard.empty());
}

// Leak 4: DELETE was granted to PUBLIC, so any role could LOCK TABLE in ACCESS EXCLUSIVE
// mode and stop every tenant's writes for as long as it held the lock.
BOOST_AUTO_TEST_CASE(lock_table_is_refused_and_blocks_no_one)
{
    tenants();
    connection const attacker("agent_a");
    for (std::string const table : {"skills", "changes", "grants", "meta"})
        for (std::string const mode : {"ACCESS EXCLUSIVE", "EXCLUSIVE", "SHARE ROW EXCLUSIVE", "SHARE", "ROW EXCLUSIVE", "ACCESS SHARE"}) {
            std::string const q = "BEGIN; LOCK TABLE skillmd." + table + " IN " + mode + " MODE";
            auto const a = attacker.run(q);
            BOOST_TEST(a.error.find("permission denied") != std::string::npos, q << ": " << a.error);
            attacker.run("ROLLBACK");
        }
    // The attacker holds what it can (its own rows, and an attempt at the table) while
    // team-b writes: the write does not wait for it.
    attacker.run("BEGIN");
    for (std::string const q : {"LOCK TABLE skillmd.skills IN ACCESS EXCLUSIVE MODE", "LOCK TABLE skillmd.changes IN EXCLUSIVE MODE",
                                "SELECT * FROM skillmd.skill_lock('team-a', 'a-held')"}) {
        attacker.run("SAVEPOINT attempt");
        if (attacker.run(q).error != "") attacker.run("ROLLBACK TO SAVEPOINT attempt");
    }
    postgres_options o = opts("agent_b");
    o.statement_timeout_ms = 2000;
    std::string error;
    postgres_source const b("db", postgres_store::open(o, error), "team-b");
    auto const start = std::chrono::steady_clock::now();
    auto const r = b.create(skill("b-during-lock"), {});
    BOOST_TEST(r.ok(), r.message);
    BOOST_TEST((std::chrono::steady_clock::now() - start < std::chrono::milliseconds(1500)));
    attacker.run("ROLLBACK");
    BOOST_TEST(b.remove("b-during-lock").ok());
}

// Leak 5: every payload on the shared channel was kept until its namespace was asked
// for, so a flood of distinct ones grew every listening agent without bound.
BOOST_AUTO_TEST_CASE(a_flood_of_notifications_keeps_memory_bounded)
{
    tenants();
    auto victim = store_as("agent_a");
    postgres_source const watched("db", victim, "team-a");
    BOOST_TEST(watched.discover().diagnostics.empty());
    auto const generation = victim->generation();

    // The flood: distinct payloads on every channel the attacker (agent_b) knows of.
    connection const attacker("agent_b");
    auto const channel = attacker.run("SELECT skillmd.namespace_channel('team-b')");
    std::string const own = channel.error.empty() && !channel.null ? channel.text.substr(0, channel.text.size() - 1) : "skillmd_changes";
    for (std::string const& c : {std::string("skillmd_changes"), own}) {
        auto const f = attacker.run("SELECT count(pg_notify('" + c + "', 'flood-' || i)) FROM generate_series(1, 20000) i");
        BOOST_TEST(f.error == "", f.error);
    }
    postgres_source const b("db", store_as("agent_b"), "team-b");
    for (int i = 0; i < 20; ++i) BOOST_TEST(b.create(skill("b-flood-" + std::to_string(i)), {}).ok());

    // Then a write the victim watches; it arrives after the flood (commit order).
    postgres_source const a("db", store_as("agent_a"), "team-a");
    BOOST_TEST(a.create(skill("a-after-flood"), {}).ok());
    BOOST_TEST(victim->wait("team-a", std::chrono::seconds(30), generation));
    BOOST_TEST(victim->pending_notifications() <= 1u);
    victim->notified("team-a");
    BOOST_TEST(victim->pending_notifications() == 0u);
    BOOST_TEST(a.remove("a-after-flood").ok());
    for (int i = 0; i < 20; ++i) BOOST_TEST(b.remove("b-flood-" + std::to_string(i)).ok());
}

// Leak 6: the local snapshot file (a namespace's whole contents) followed the umask:
// 0644 in a 0755 folder, readable by every user of the machine.
BOOST_AUTO_TEST_CASE(the_local_snapshot_is_private)
{
    tenants();
    mode_t const saved = ::umask(022);
    temp_dir t;
    presets::locations at;
    at.home = t / "home";
    at.overrides["user"] = (t / "files").string();
    at.overrides["cache"] = (t / "private/deeper/snapshot.json").string();
    {
        postgres_source const writer("db", store_as("agent_a"), "team-a");
        auto const r = writer.create(skill("a-secret"), {});
        BOOST_TEST((r.ok() || r.status == db_status::exists));
    }
    auto agent = presets::make_fleet(at, opts("agent_a"), "team-a");
    agent.load();
    ::umask(saved);
    BOOST_TEST(agent.snapshot()->find("a-secret") != nullptr);
    struct stat file{}, folder{}, parent{};
    BOOST_TEST_REQUIRE(::stat((t / "private/deeper/snapshot.json").c_str(), &file) == 0);
    BOOST_TEST_REQUIRE(::stat((t / "private/deeper").c_str(), &folder) == 0);
    BOOST_TEST_REQUIRE(::stat((t / "private").c_str(), &parent) == 0);
    BOOST_TEST((file.st_mode & 07777) == 0600u);
    BOOST_TEST((folder.st_mode & 07777) == 0700u);
    BOOST_TEST((parent.st_mode & 07777) == 0700u);
    // A folder that was there already is left as it was (it may be /tmp); the file is still 0600.
    fs::create_directories(t / "shared");
    fs::permissions(t / "shared", fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec | fs::perms::others_read |
                                      fs::perms::others_exec);
    at.overrides["cache"] = (t / "shared/snapshot.json").string();
    auto other = presets::make_fleet(at, opts("agent_a"), "team-a");
    other.load();
    BOOST_TEST_REQUIRE(::stat((t / "shared/snapshot.json").c_str(), &file) == 0);
    BOOST_TEST_REQUIRE(::stat((t / "shared").c_str(), &folder) == 0);
    BOOST_TEST((file.st_mode & 07777) == 0600u);
    BOOST_TEST((folder.st_mode & 07777) == 0755u);
}

// With the server unreachable, no `db` command passes for an empty namespace or a
// missing skill: each exits 3 and says why.
BOOST_AUTO_TEST_CASE(every_db_command_exits_3_when_the_server_is_unreachable)
{
    temp_dir t;
    fs::create_directories(t / "nosocket");
    std::string const db = " --db 'host=" + (t / "nosocket").string() + " dbname=skillmd user=agent_a connect_timeout=2'" +
                           " --namespace team-a --dir user=" + (t / "files").string() + " --dir cache=" + (t / "c.json").string();
    for (std::string const op : {"list", "list --format json", "load --name a-secret", "create --name x --description x --triggers x --content x",
                                 "update --name x --description y", "delete --name x", "grant --role agent_b --access read",
                                 "revoke --role agent_b"}) {
        std::string const cmd = std::string(SKILLMD_TEST_CLI) + " db " + op + db + " > '" + (t / "out").string() + "' 2> '" +
                                (t / "err").string() + "'";
        int const status = std::system(cmd.c_str());
        std::string const out = slurp(t / "out"), err = slurp(t / "err");
        BOOST_TEST((WIFEXITED(status) && WEXITSTATUS(status) == 3), op << ": exit " << WEXITSTATUS(status) << "\n" << out << err);
        BOOST_TEST(out == "", op << " printed " << out);
        BOOST_TEST(err.find("no skill named") == std::string::npos, op << ": " << err);
        BOOST_TEST(err.find("skillmd: ") != std::string::npos, op << ": " << err);
        BOOST_TEST(err.find("connect") != std::string::npos, op << ": " << err);
    }
}

// A version-1 schema (tests/postgres/schema_v1.sql, as the old code made it) is upgraded
// when its owner connects, rows kept; an agent that finds it first is refused and told
// what to do; afterwards v1's openings are closed.
BOOST_AUTO_TEST_CASE(a_version_1_schema_is_upgraded_by_its_owner_only)
{
    cluster::admin_sql("CREATE DATABASE legacy");
    std::string const v1 = slurp(fs::path(SKILLMD_TEST_SOURCE_DIR) / "tests/postgres/schema_v1.sql");
    {
        connection const owner("skillmd_admin", "legacy");
        auto const made = owner.run("BEGIN;\n" + v1 +
                                    "INSERT INTO skillmd.grants VALUES ('team-a', 'team_a', true);"
                                    "INSERT INTO skillmd.skills (namespace, name, description, triggers, content) "
                                    "VALUES ('team-a', 'kept', 'From v1', '[\"deploy\"]', 'Old steps.');"
                                    "COMMIT");
        BOOST_TEST_REQUIRE(made.error == "");
        BOOST_TEST(owner.run("SELECT value FROM skillmd.meta").text == "1\n");
    }
    std::string error;
    postgres_store::open(opts("agent_a", "legacy"), error);
    BOOST_TEST(error.find("is at v1") != std::string::npos, error);
    BOOST_TEST(error.find("owner") != std::string::npos, error);
    // The agent's refusal changed nothing; the owner's connection upgrades.
    postgres_store::open(opts("skillmd_admin", "legacy"), error);
    BOOST_TEST(error == "");
    auto agent = postgres_store::open(opts("agent_a", "legacy"), error);
    BOOST_TEST(error == "");
    auto const kept = agent->load("team-a", "kept");
    BOOST_TEST_REQUIRE(kept.has_value());
    BOOST_TEST(kept->content == "Old steps.");
    BOOST_TEST(kept->triggers == std::vector<std::string>{"deploy"});
    postgres_source const src("db", agent, "team-a");
    BOOST_TEST(src.create(skill("made-in-v2"), {}).ok());
    db_update u;
    u.description = "Changed in v2";
    u.revision = kept->revision;
    BOOST_TEST(src.update("kept", u, {}).ok());
    BOOST_TEST(names_of(src.discover()) == (std::vector<std::string>{"kept", "made-in-v2"}), boost::test_tools::per_element());
    connection const attacker("agent_a", "legacy");
    for (std::string const q : {"SELECT * FROM skillmd.skills", "UPDATE skillmd.skills SET content = 'x'", "DELETE FROM skillmd.skills",
                                "SELECT * FROM skillmd.meta", "BEGIN; LOCK TABLE skillmd.skills IN ACCESS EXCLUSIVE MODE"}) {
        BOOST_TEST(attacker.run(q).error.find("permission denied") != std::string::npos, q);
        attacker.run("ROLLBACK");
    }
    BOOST_TEST(attacker.run("SELECT skillmd.schema_version()").text == "2\n");
}

BOOST_AUTO_TEST_SUITE_END()
