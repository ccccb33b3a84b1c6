// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
//
// A separate process for the database tests (several processes writing at once, a
// writer killed mid-transaction):
//   db_worker write DB ID N   create N skills w<ID>-<k>, update each, delete every fourth
//   db_worker read DB MS      list and load for MS milliseconds; fail on a partial row
//   db_worker churn DB        write forever (to be killed mid-transaction)
//   db_worker pg-write CONNINFO NAMESPACE ID N   the write steps on the fleet tier
// Exit 0 when every operation did what it should; messages on stderr otherwise.

#include <skillmd/storage/sources/postgres_source.hpp>
#include <skillmd/storage/sources/sqlite_source.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <string>
#include <string_view>

namespace {

/// Joins parts by appending (gcc 12 warns falsely on chains of `+`: -Wrestrict).
std::string cat(std::initializer_list<std::string_view> parts)
{
    std::string s;
    for (auto p : parts) s.append(p);
    return s;
}

std::string body(std::string const& name, int rev)
{
    return cat({"body of ", name, " rev ", std::to_string(rev), "\n", std::string(200, 'x')});
}
std::string desc(std::string const& name, int rev) { return cat({"desc of ", name, " rev ", std::to_string(rev)}); }

/// A row is whole when its description and content carry the same revision.
bool whole(skillmd::db_skill const& s)
{
    auto const d = s.description.rfind(" rev ");
    auto const c = s.content.find(" rev ");
    if (d == std::string::npos || c == std::string::npos) return false;
    std::string const dr = s.description.substr(d + 5);
    std::string const cr = s.content.substr(c + 5, s.content.find('\n') - c - 5);
    return dr == cr && s.description == desc(s.name, std::stoi(dr)) && s.content == body(s.name, std::stoi(cr));
}

/// Creates N skills w<ID>-<k>, updates each, deletes every fourth: any database tier.
template <class Source>
int write_steps(Source const& src, std::string const& id, int n)
{
    for (int k = 0; k < n; ++k) {
        std::string const name = cat({"w", id, "-", std::to_string(k)});
        auto r = src.create({name, desc(name, 0), {cat({"t", id})}, body(name, 0), {}, {}, 0}, {});
        if (!r.ok()) return std::fprintf(stderr, "create %s: %s\n", name.c_str(), r.message.c_str()), 1;
        skillmd::db_update u;
        u.description = desc(name, 1);
        u.content = body(name, 1);
        r = src.update(name, u, {});
        if (!r.ok()) return std::fprintf(stderr, "update %s: %s\n", name.c_str(), r.message.c_str()), 1;
        if (k % 4 == 3) {
            r = src.remove(name);
            if (!r.ok()) return std::fprintf(stderr, "delete %s: %s\n", name.c_str(), r.message.c_str()), 1;
        }
    }
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 3) return 2;
    std::string const mode = argv[1];
    if (mode == "pg-write" && argc == 6) {
        skillmd::postgres_options o;
        o.conninfo = argv[2];
        o.statement_timeout_ms = 30000;
        std::string error;
        skillmd::postgres_source const src("db", skillmd::postgres_store::open(o, error), argv[3]);
        return write_steps(src, argv[4], std::atoi(argv[5]));
    }
    std::string error;
    auto store = skillmd::sqlite_store::open(argv[2], error);
    if (!store) {
        std::fprintf(stderr, "open: %s\n", error.c_str());
        return 1;
    }
    skillmd::sqlite_source const src("db", store);
    if (mode == "write" && argc == 5) return write_steps(src, argv[3], std::atoi(argv[4]));
    if (mode == "read" && argc == 4) {
        auto const until = std::chrono::steady_clock::now() + std::chrono::milliseconds(std::atoi(argv[3]));
        long seen = 0;
        while (std::chrono::steady_clock::now() < until) {
            auto rows = store->list(nullptr, &error);
            if (!rows) return std::fprintf(stderr, "list: %s\n", error.c_str()), 1;
            for (auto const& s : *rows) {
                ++seen;
                if (!whole(s)) return std::fprintf(stderr, "partial row %s\n", s.name.c_str()), 1;
            }
            if (!rows->empty()) {
                auto one = store->load(rows->back().name, &error);
                if (!error.empty()) return std::fprintf(stderr, "load: %s\n", error.c_str()), 1;
                if (one && !whole(*one)) return std::fprintf(stderr, "partial row %s\n", one->name.c_str()), 1;
            }
        }
        return seen >= 0 ? 0 : 1;
    }
    if (mode == "churn") {
        for (int k = 0;; ++k) {
            std::string const name = cat({"c", std::to_string(k % 50)});
            skillmd::db_update u;
            u.description = desc(name, k);
            u.content = body(name, k);
            auto r = src.update(name, u, {});
            if (r.status == skillmd::db_status::not_found) r = src.create({name, desc(name, k), {}, body(name, k), {}, {}, 0}, {});
            if (!r.ok()) return std::fprintf(stderr, "churn: %s\n", r.message.c_str()), 1;
        }
    }
    return 2;
}
