// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_TESTS_SUPPORT_PG_CLUSTER_HPP
#define SKILLMD_TESTS_SUPPORT_PG_CLUSTER_HPP

// A throw-away PostgreSQL cluster for one test suite (tests/postgres/cluster.sh: initdb
// in a temporary folder, Unix socket only, run by an unprivileged user when the tests
// run as root), and plain SQL over libpq as any of its roles. A suite derives its
// fixture from `pg_cluster` and creates the roles it needs in the constructor.

#include "test_support.hpp"

#include <boost/test/unit_test.hpp>

#include <libpq-fe.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace skillmd::test {

struct pg_cluster
{
    static inline std::string dir;
    temp_dir t;
    pg_cluster()
    {
        dir = (t / "pg").string();
        // The server runs as an unprivileged user (as root: nobody), who must reach its folder.
        std::filesystem::permissions(t.path, std::filesystem::perms::others_exec | std::filesystem::perms::group_exec,
                                     std::filesystem::perm_options::add);
        BOOST_TEST_REQUIRE(std::system(("bash '" + script() + "' start '" + dir + "'").c_str()) == 0);
    }
    ~pg_cluster() { std::system(("bash '" + script() + "' stop '" + dir + "' 2>/dev/null").c_str()); }
    pg_cluster(pg_cluster const&) = delete;
    pg_cluster& operator=(pg_cluster const&) = delete;

    static std::string script() { return std::string(SKILLMD_TEST_SOURCE_DIR) + "/tests/postgres/cluster.sh"; }

    static void control(std::string const& what)
    {
        BOOST_TEST_REQUIRE(std::system(("bash '" + script() + "' " + what + " '" + dir + "'").c_str()) == 0);
    }
    static std::string conninfo(std::string const& user, std::string const& dbname = "skillmd")
    {
        return "host=" + dir + " dbname=" + dbname + " user=" + user;
    }

    /// Runs SQL as `user` over libpq; the error message, or "" when it succeeded.
    static std::string sql(std::string const& user, std::string const& text, int* rows = nullptr)
    {
        PGconn* c = PQconnectdb(conninfo(user).c_str());
        std::string out;
        if (PQstatus(c) != CONNECTION_OK) {
            out = PQerrorMessage(c);
        } else {
            PGresult* r = PQexec(c, text.c_str());
            auto const st = PQresultStatus(r);
            if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) out = PQresultErrorMessage(r);
            else if (rows) *rows = st == PGRES_TUPLES_OK ? PQntuples(r) : std::atoi(PQcmdTuples(r));
            PQclear(r);
        }
        PQfinish(c);
        return out;
    }
    static void admin_sql(std::string const& text) { BOOST_TEST_REQUIRE(sql("skillmd_admin", text) == ""); }
};

} // namespace skillmd::test

#endif
