// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
//
// The fleet tier on a real PostgreSQL 15 server (a throw-away cluster this program starts
// with tests/postgres/cluster.sh: Unix socket, fsync on, synchronous commit), read by an
// agent role through the schema's SECURITY DEFINER functions:
//   - a full load of 10,000 skills, beside the same skills from SQLite and from files;
//   - refresh() with nothing changed;
//   - the time from a commit in one process to the change being in another process's
//     registry (that process waits on the tier, then refreshes): median and 99th
//     percentile over many writes;
//   - creates per second with 1, 4 and 16 writer processes;
//   - capacity: 1, 10 and 100 agent processes watch a namespace of 1,000 skills, told of
//     writes (LISTEN) or polling the change counter as they must on a standby or behind a
//     transaction pooler; the server's CPU and connections, and commit to visible.

#include <skillmd/presets/fleet.hpp>
#include <skillmd/presets/koshi.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iterator>
#include <mutex>
#include <fstream>
#include <sstream>
#include <thread>
#include <utility>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;
constexpr int skills = 10000;
constexpr int capacity_skills = 1000;

std::string name_of(int i)
{
    std::string n = "skill-";
    n += std::to_string(i);
    return n;
}

std::string content_of(int i)
{
    std::string c = "## Steps\n1. Read the files.\n2. Do the work for area ";
    c += std::to_string(i);
    c += ".\n";
    c += std::string(400, 'x');
    c += "\n";
    return c;
}

skillmd::db_skill make(int i)
{
    std::string d = "Use when the task is about area ";
    d += std::to_string(i);
    return {name_of(i), d, {"topic"}, content_of(i), {}, {}, 0};
}

std::int64_t now_ns()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/// The cluster, 10,000 skills in namespace `bench` (read and written by role `agent`),
/// the same skills in a SQLite file and as Markdown files.
struct world
{
    fs::path dir;
    std::string script = std::string(SKILLMD_BENCH_SOURCE_DIR) + "/tests/postgres/cluster.sh";
    world()
    {
        char tmpl[] = "/tmp/skillmd-bench-fleet-XXXXXX";
        dir = ::mkdtemp(tmpl);
        fs::permissions(dir, fs::perms::others_exec | fs::perms::group_exec, fs::perm_options::add);
        if (std::system(("bash '" + script + "' start '" + (dir / "pg").string() + "'").c_str()) != 0) std::abort();
        admin("CREATE ROLE agent LOGIN");
        auto store = std::make_shared<skillmd::postgres_store>(options("skillmd_admin"));
        if (!store->grant("bench", "agent", skillmd::namespace_access::write).ok()) std::abort();
        // The rows in one statement (the trigger stamps each): the benchmarks measure reads.
        admin("INSERT INTO skillmd.skills (namespace, name, description, triggers, content) "
              "SELECT 'bench', 'skill-' || i, 'Use when the task is about area ' || i, '[\"topic\"]', "
              "E'## Steps\\n1. Read the files.\\n2. Do the work for area ' || i || E'.\\n' || repeat('x', 400) || E'\\n' "
              "FROM generate_series(0, 9999) AS i");
        admin("INSERT INTO skillmd.skills (namespace, name, description, triggers, content) "
              "SELECT 'capacity', 'skill-' || i, 'Use when the task is about area ' || i, '[\"topic\"]', "
              "E'## Steps\\n' || repeat('x', 400) FROM generate_series(0, " + std::to_string(capacity_skills - 1) + ") AS i");
        if (!store->grant("capacity", "agent", skillmd::namespace_access::write).ok()) std::abort();
        std::string error;
        auto db = skillmd::sqlite_store::open((dir / "skills.db").string(), error);
        skillmd::sqlite_source const src("db", db);
        for (int i = 0; i < skills; ++i) src.create(make(i), {});
        fs::create_directories(dir / "files");
        fs::create_directories(dir / "empty");
        for (int i = 0; i < skills; ++i) {
            auto const s = make(i);
            std::ofstream(dir / "files" / (s.name + ".md")) << skillmd::db_skill_text(s.name, s.description, s.triggers, s.content);
        }
    }
    ~world()
    {
        std::system(("bash '" + script + "' stop '" + (dir / "pg").string() + "'").c_str());
        std::error_code ec;
        fs::remove_all(dir, ec);
    }
    void admin(std::string const& sql) const
    {
        PGconn* c = PQconnectdb(conninfo("skillmd_admin").c_str());
        PGresult* r = PQexec(c, sql.c_str());
        PQclear(r);
        PQfinish(c);
    }
    /// The single number `sql` answers, as the administrator.
    int count(std::string const& sql) const
    {
        PGconn* c = PQconnectdb(conninfo("skillmd_admin").c_str());
        PGresult* r = PQexec(c, sql.c_str());
        int const n = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1 ? std::atoi(PQgetvalue(r, 0, 0)) : -1;
        PQclear(r);
        PQfinish(c);
        return n;
    }
    std::string conninfo(std::string const& user) const { return "host=" + (dir / "pg").string() + " dbname=skillmd user=" + user; }
    skillmd::postgres_options options(std::string const& user) const
    {
        skillmd::postgres_options o;
        o.conninfo = conninfo(user);
        o.statement_timeout_ms = 60000;
        return o;
    }
    skillmd::presets::locations at(char const* files) const
    {
        skillmd::presets::locations l;
        l.home = dir / "home";
        l.overrides["user"] = (dir / files).string();
        l.overrides["db"] = (dir / (std::string(files) == "files" ? "empty.db" : "skills.db")).string();
        l.overrides["cache"] = (dir / "cache.json").string();
        return l;
    }
};

world& the_world()
{
    static world w;
    return w;
}

/// One full load of the registry `make()` builds, timed per iteration.
template <class Make>
void time_full_load(benchmark::State& state, Make make)
{
    std::size_t n = 0;
    for (auto _ : state) {
        auto reg = make();
        reg.load();
        n = reg.snapshot()->skills().size();
    }
    state.counters["skills"] = static_cast<double>(n);
}

void full_load_postgres(benchmark::State& state)
{
    auto& w = the_world();
    time_full_load(state, [&] { return skillmd::presets::make_fleet(w.at("empty"), w.options("agent"), "bench"); });
}

void full_load_sqlite(benchmark::State& state)
{
    auto& w = the_world();
    time_full_load(state, [&] { return skillmd::presets::make_koshi(w.at("empty")); });
}

void full_load_files(benchmark::State& state)
{
    auto& w = the_world();
    time_full_load(state, [&] { return skillmd::presets::make_koshi(w.at("files")); });
}

void refresh_unchanged_postgres(benchmark::State& state)
{
    auto& w = the_world();
    auto reg = skillmd::presets::make_fleet(w.at("empty"), w.options("agent"), "bench");
    reg.load();
    reg.refresh();
    for (auto _ : state) reg.refresh();
    state.counters["skills"] = static_cast<double>(reg.snapshot()->skills().size());
}

/// A writer process updates one skill per request (a byte on a pipe) and answers with
/// the steady-clock time its commit returned; this process waits on the tier, refreshes
/// until its registry holds the new description, and takes the difference.
void commit_to_visible(benchmark::State& state)
{
    auto& w = the_world();
    int const writes = 300;
    // The namespace of range(0) skills: `bench` (10,000), or one made now for another size.
    int const size = static_cast<int>(state.range(0));
    std::string const ns = size == skills ? "bench" : "bench-" + std::to_string(size);
    if (size != skills && w.count("SELECT count(*) FROM skillmd.skills WHERE namespace = '" + ns + "'") != size) {
        auto store = std::make_shared<skillmd::postgres_store>(w.options("skillmd_admin"));
        if (!store->grant(ns, "agent", skillmd::namespace_access::write).ok()) std::abort();
        w.admin("INSERT INTO skillmd.skills (namespace, name, description, triggers, content) "
                "SELECT '" + ns + "', 'skill-' || i, 'Use when the task is about area ' || i, '[\"topic\"]', "
                "E'## Steps\\n1. Read the files.\\n2. Do the work for area ' || i || E'.\\n' || repeat('x', 400) || E'\\n' "
                "FROM generate_series(0, " + std::to_string(size - 1) + ") AS i");
    }
    static int round = 0;
    ++round; // each run writes descriptions no earlier run wrote
    int ask[2], told[2];
    if (::pipe(ask) != 0 || ::pipe(told) != 0) std::abort();
    pid_t const pid = ::fork();
    if (pid == 0) {
        ::close(ask[1]);
        ::close(told[0]);
        skillmd::postgres_source const src("db", std::make_shared<skillmd::postgres_store>(w.options("agent")), ns);
        char c;
        for (int i = 0; ::read(ask[0], &c, 1) == 1; ++i) {
            skillmd::db_update u;
            u.description = "Changed " + std::to_string(round) + "-" + std::to_string(i);
            src.update(name_of(i % size), u, {});
            std::int64_t const t = now_ns();
            if (::write(told[1], &t, sizeof t) != sizeof t) break;
        }
        ::_exit(0);
    }
    ::close(ask[0]);
    ::close(told[1]);
    auto reg = skillmd::presets::make_fleet(w.at("empty"), w.options("agent"), ns);
    reg.load();
    std::vector<double> ms;
    for (auto _ : state) {
        for (int i = 0; i < writes; ++i) {
            std::string const want = "Changed " + std::to_string(round) + "-" + std::to_string(i);
            char const c = 'w';
            if (::write(ask[1], &c, 1) != 1) std::abort();
            auto const* r = reg.snapshot()->find(name_of(i % size));
            while (!r || r->meta.description != want) {
                reg.source<1>().wait(std::chrono::milliseconds(50));
                reg.refresh();
                r = reg.snapshot()->find(name_of(i % size));
            }
            std::int64_t const seen = now_ns();
            std::int64_t committed = 0;
            if (::read(told[0], &committed, sizeof committed) != sizeof committed) std::abort();
            ms.push_back(static_cast<double>(seen - committed) / 1e6);
        }
    }
    ::close(ask[1]);
    ::close(told[0]);
    ::waitpid(pid, nullptr, 0);
    std::sort(ms.begin(), ms.end());
    state.counters["median_ms"] = ms[ms.size() / 2];
    state.counters["p99_ms"] = ms[ms.size() * 99 / 100];
    state.counters["writes"] = static_cast<double>(ms.size());
}

/// N writer processes, each creating its share of 2,000 skills (one transaction each,
/// validated with the koshi dialect as agents' writes are).
void creates_per_second(benchmark::State& state)
{
    auto& w = the_world();
    int const writers = static_cast<int>(state.range(0)), total = 2000;
    static int round = 0;
    for (auto _ : state) {
        ++round;
        auto const start = std::chrono::steady_clock::now();
        std::vector<pid_t> pids;
        for (int p = 0; p < writers; ++p) {
            pid_t const pid = ::fork();
            if (pid == 0) {
                skillmd::postgres_source const src("db", std::make_shared<skillmd::postgres_store>(w.options("agent")), "bench");
                auto const validate = skillmd::presets::koshi_validator();
                for (int k = p; k < total; k += writers) {
                    auto s = make(k);
                    s.name = "new-" + std::to_string(round) + "-" + std::to_string(k);
                    if (!src.create(s, validate).ok()) ::_exit(1);
                }
                ::_exit(0);
            }
            pids.push_back(pid);
        }
        bool ok = true;
        for (auto p : pids) {
            int status = 0;
            ::waitpid(p, &status, 0);
            ok = ok && WIFEXITED(status) && WEXITSTATUS(status) == 0;
        }
        if (!ok) state.SkipWithError("a writer failed");
        double const s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        state.counters["creates_per_s"] = total / s;
        w.admin("DELETE FROM skillmd.skills WHERE name LIKE 'new-%'");
    }
}

/// CPU ticks (user and system) of the server: the postmaster, every process it runs, and
/// those that ended (the postmaster waited for them: its children's times).
long long server_ticks(fs::path const& data)
{
    std::ifstream pidfile(data / "postmaster.pid");
    long long postmaster = 0;
    pidfile >> postmaster;
    long long total = 0;
    for (auto const& e : fs::directory_iterator("/proc")) {
        std::string const name = e.path().filename().string();
        if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue; // processes only
        // Read with read(2): a process that ends meanwhile fails the read (ESRCH), which
        // a stream's buffer would throw from.
        int const fd = ::open((e.path() / "stat").c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) continue;
        char buf[1024];
        auto const n = ::read(fd, buf, sizeof buf);
        ::close(fd);
        if (n <= 0) continue;
        std::string const stat(buf, static_cast<std::size_t>(n));
        auto const close = stat.rfind(')');
        if (close == std::string::npos) continue;
        std::istringstream fields(stat.substr(close + 2));
        std::string state;
        long long ppid = 0, skip = 0, utime = 0, stime = 0, cutime = 0, cstime = 0;
        fields >> state >> ppid;
        for (int k = 0; k < 9; ++k) fields >> skip;
        fields >> utime >> stime >> cutime >> cstime;
        long long const pid = std::atoll(name.c_str());
        if (pid == postmaster) total += utime + stime + cutime + cstime;
        else if (ppid == postmaster) total += utime + stime;
    }
    return total;
}

/// N agent processes watch namespace `capacity` (1,000 skills) while this process updates
/// one skill every 50 ms, 60 times. Agents are told of writes (LISTEN), or poll the
/// counter every 250 ms (`polling`), as on a standby or behind a transaction pooler. Each
/// agent notes when each write reaches its registry. Counters: the server's CPU (percent
/// of one core) and client connections during the writes, and commit to visible over
/// every agent and write.
void watching_agents(benchmark::State& state, bool polling)
{
    auto& w = the_world();
    int const agents = static_cast<int>(state.range(0)), writes = 60;
    static int round = 0;
    for (auto _ : state) {
        ++round;
        int seen[2], ready[2];
        if (::pipe(seen) != 0 || ::pipe(ready) != 0) std::abort();
        std::vector<pid_t> pids;
        for (int a = 0; a < agents; ++a) {
            pid_t const pid = ::fork();
            if (pid == 0) {
                ::close(seen[0]);
                ::close(ready[0]);
                auto o = w.options("agent");
                o.transaction_pooler = polling; // no LISTEN, no session: what a pooler or a standby gets
                o.poll_interval = std::chrono::milliseconds(250);
                auto reg = skillmd::presets::make_fleet(w.at("empty"), o, "capacity");
                reg.load();
                char const r = 'r';
                if (::write(ready[1], &r, 1) != 1) ::_exit(1);
                for (int i = 0; i < writes; ++i) {
                    std::string const want = "Capacity " + std::to_string(round) + "-" + std::to_string(i);
                    auto const* rec = reg.snapshot()->find(name_of(i));
                    while (!rec || rec->meta.description != want) {
                        reg.source<1>().wait(std::chrono::milliseconds(1000));
                        reg.refresh();
                        rec = reg.snapshot()->find(name_of(i));
                    }
                    std::int64_t const note[2] = {i, now_ns()};
                    if (::write(seen[1], note, sizeof note) != sizeof note) ::_exit(1);
                }
                ::_exit(0);
            }
            pids.push_back(pid);
        }
        ::close(seen[1]);
        ::close(ready[1]);
        for (int a = 0; a < agents; ++a) {
            char r;
            if (::read(ready[0], &r, 1) != 1) std::abort();
        }
        ::close(ready[0]);
        skillmd::postgres_source const src("db", std::make_shared<skillmd::postgres_store>(w.options("agent")), "capacity");
        std::vector<std::int64_t> committed(writes);
        long long const ticks_before = server_ticks(w.dir / "pg" / "data");
        auto const start = std::chrono::steady_clock::now();
        int connections = 0;
        std::vector<std::pair<std::int64_t, std::int64_t>> notes; // (write, when an agent saw it)
        std::mutex m;
        std::thread collector([&] {
            std::int64_t note[2];
            while (::read(seen[0], note, sizeof note) == sizeof note) {
                std::lock_guard<std::mutex> lock(m);
                notes.emplace_back(note[0], note[1]);
            }
        });
        for (int i = 0; i < writes; ++i) {
            skillmd::db_update u;
            u.description = "Capacity " + std::to_string(round) + "-" + std::to_string(i);
            if (!src.update(name_of(i), u, {}).ok()) std::abort();
            committed[static_cast<std::size_t>(i)] = now_ns();
            if (i == writes / 2) connections = w.count("SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend'");
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        // The server's share is taken once every agent has seen every write, before they
        // disconnect (at most a minute later: an agent that missed one is reported below).
        auto const all_seen = std::chrono::steady_clock::now() + std::chrono::minutes(1);
        auto const seen_count = [&] {
            std::lock_guard<std::mutex> lock(m);
            return notes.size();
        };
        while (seen_count() < static_cast<std::size_t>(agents * writes) && std::chrono::steady_clock::now() < all_seen)
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        double const seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        long long const ticks = server_ticks(w.dir / "pg" / "data") - ticks_before;
        for (auto p : pids) ::waitpid(p, nullptr, 0);
        collector.join();
        ::close(seen[0]);
        std::vector<double> ms;
        for (auto const& [i, t] : notes) ms.push_back(static_cast<double>(t - committed[static_cast<std::size_t>(i)]) / 1e6);
        std::sort(ms.begin(), ms.end());
        if (ms.size() != static_cast<std::size_t>(agents * writes)) state.SkipWithError("an agent did not see every write");
        if (ms.empty()) continue;
        state.counters["server_cpu_pct"] = 100.0 * static_cast<double>(ticks) / static_cast<double>(::sysconf(_SC_CLK_TCK)) / seconds;
        state.counters["connections"] = connections;
        state.counters["median_ms"] = ms[ms.size() / 2];
        state.counters["p99_ms"] = ms[ms.size() * 99 / 100];
    }
}
void watching_agents_told(benchmark::State& state) { watching_agents(state, false); }
void watching_agents_polling(benchmark::State& state) { watching_agents(state, true); }

} // namespace

BENCHMARK(full_load_postgres)->Unit(benchmark::kMillisecond);
BENCHMARK(full_load_sqlite)->Unit(benchmark::kMillisecond);
BENCHMARK(full_load_files)->Unit(benchmark::kMillisecond);
BENCHMARK(refresh_unchanged_postgres)->Unit(benchmark::kMicrosecond);
BENCHMARK(commit_to_visible)->Arg(skills)->Arg(100000)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(watching_agents_told)->Arg(1)->Arg(10)->Arg(100)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(watching_agents_polling)->Arg(1)->Arg(10)->Arg(100)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(creates_per_second)->Arg(1)->Arg(4)->Arg(16)->Unit(benchmark::kMillisecond)->Iterations(1);

BENCHMARK_MAIN();
