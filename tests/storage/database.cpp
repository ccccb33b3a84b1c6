// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
//
// The database tier and the koshi preset: operations, validation, files winning, refresh
// across processes, and the faults a database meets (several processes at once, a writer
// killed mid-transaction, corrupt and foreign files, a full disk, read-only storage, fork).

#include "../fuzz/exercise_store.hpp"
#include "../support/test_support.hpp"

#include <skillmd/index/formats.hpp>
#include <skillmd/presets/koshi.hpp>
#include <skillmd/invoke/tools.hpp>

#include <boost/json/serialize.hpp>
#include <boost/test/unit_test.hpp>

#include <csignal>
#include <random>
#include <string>
#include <vector>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace skillmd;
namespace fs = std::filesystem;

namespace {

std::shared_ptr<sqlite_store> open_db(fs::path const& p, sqlite_options o = {})
{
    std::string error;
    auto s = sqlite_store::open(p.string(), error, o);
    BOOST_TEST_REQUIRE(s != nullptr, error);
    return s;
}

db_skill skill(std::string name, std::string description, std::vector<std::string> triggers, std::string content)
{
    return {std::move(name), std::move(description), std::move(triggers), std::move(content), {}, {}, 0};
}

/// Runs the worker binary and returns its exit status.
pid_t spawn(std::vector<std::string> args)
{
    pid_t const pid = ::fork();
    if (pid == 0) {
        std::vector<char*> argv;
        std::string const exe = SKILLMD_TEST_DB_WORKER;
        argv.push_back(const_cast<char*>(exe.c_str()));
        for (auto& a : args) argv.push_back(a.data());
        argv.push_back(nullptr);
        ::execv(exe.c_str(), argv.data());
        ::_exit(127);
    }
    return pid;
}

int wait_for(pid_t pid)
{
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

void write_file(fs::path const& p, std::string const& text) { test::write(p, text); }

presets::locations koshi_at(test::temp_dir const& t)
{
    presets::locations at;
    at.home = t.path;
    at.overrides["user"] = t / "config/koshi/skills";
    at.overrides["db"] = t / "data/koshi/skills.db";
    return at;
}

} // namespace

BOOST_AUTO_TEST_SUITE(database)

BOOST_AUTO_TEST_CASE(schema_and_operations)
{
    test::temp_dir t;
    auto store = open_db(t / "skills.db");
    sqlite_source const src("db", store);
    BOOST_TEST(src.create(skill("deploy-check", "Pre-deployment checklist", {"deploy", "ship"}, "## Steps\n1. Test\n"), {}).ok());
    auto const again = src.create(skill("deploy-check", "x", {}, "y"), {});
    BOOST_TEST((again.status == db_status::exists));
    db_update u;
    u.triggers = std::vector<std::string>{"deploy", "ship", "go live"};
    BOOST_TEST(src.update("deploy-check", u, {}).ok());
    auto const row = store->load("deploy-check");
    BOOST_TEST_REQUIRE(row.has_value());
    BOOST_TEST(row->description == "Pre-deployment checklist"); // partial: untouched
    BOOST_TEST(row->content == "## Steps\n1. Test\n");
    BOOST_TEST(row->triggers == (std::vector<std::string>{"deploy", "ship", "go live"}), boost::test_tools::per_element());
    BOOST_TEST(row->updated_at >= row->created_at);
    BOOST_TEST((src.update("nope", u, {}).status == db_status::not_found));
    BOOST_TEST((src.remove("nope").status == db_status::not_found));
    BOOST_TEST(src.remove("deploy-check").ok());
    BOOST_TEST(!store->load("deploy-check").has_value());
    BOOST_TEST(store->integrity() == "ok");
}

BOOST_AUTO_TEST_CASE(hostile_values_are_stored_as_given)
{
    test::temp_dir t;
    auto store = open_db(t / "skills.db");
    sqlite_source const src("db", store);
    std::string const name = "'); DROP TABLE skills;--";
    std::string const desc = "quote \" backslash \\ newline\n---\nname: forged";
    BOOST_TEST(src.create(skill(name, desc, {"a\"b", "c\\d", "\xc3\xa9"}, "body"), {}).ok());
    auto const row = store->load(name);
    BOOST_TEST_REQUIRE(row.has_value());
    BOOST_TEST(row->description == desc);
    BOOST_TEST(row->triggers == (std::vector<std::string>{"a\"b", "c\\d", "\xc3\xa9"}), boost::test_tools::per_element());
    // The row's SKILL.md cannot be broken out of: the description is one quoted scalar.
    auto const text = db_skill_text(row->name, row->description, row->triggers, row->content);
    auto const read = test::read_skill(dialects::koshi(), validation_mode::lenient, text, {"db#x", "x"});
    BOOST_TEST_REQUIRE(read.skill.has_value());
    BOOST_TEST(read.skill->description == desc);
    BOOST_TEST(store->list()->size() == 1u);
}

BOOST_AUTO_TEST_CASE(rows_are_validated_like_files)
{
    test::temp_dir t;
    auto store = open_db(t / "skills.db");
    sqlite_source const src("db", store);
    auto const v = presets::koshi_validator();
    auto bad = src.create(skill("Bad Name", "x", {"t"}, "b"), v);
    BOOST_TEST((bad.status == db_status::invalid));
    BOOST_TEST(!bad.diagnostics.empty());
    bad = src.create(skill("no-triggers", "Does things", {}, "b"), v); // koshi requires triggers
    BOOST_TEST((bad.status == db_status::invalid));
    bad = src.create(skill("no-desc", "", {"t"}, "b"), v);
    BOOST_TEST((bad.status == db_status::invalid));
    BOOST_TEST(store->list()->empty());
    BOOST_TEST(src.create(skill("good", "Does things", {"thing"}, "b"), v).ok());
    db_update u;
    u.description = std::string();
    BOOST_TEST((src.update("good", u, v).status == db_status::invalid)); // the result is checked
    BOOST_TEST(store->load("good")->description == "Does things");
}

BOOST_AUTO_TEST_CASE(tool_schemas)
{
    auto const create = tool_definition(db_tool::create_skill);
    BOOST_TEST(create.at("name").as_string() == "create_skill");
    BOOST_TEST(create.at("input_schema").at("required").as_array().size() == 4u);
    auto const update = tool_definition(db_tool::update_skill);
    BOOST_TEST(update.at("input_schema").at("required").as_array().size() == 1u);
    BOOST_TEST(update.at("input_schema").at("properties").as_object().contains("triggers"));
    BOOST_TEST(tool_definition(db_tool::list_skills).at("input_schema").at("properties").as_object().empty());
    BOOST_TEST(tool_definition(db_tool::delete_skill).at("name").as_string() == "delete_skill");
}

BOOST_AUTO_TEST_CASE(corrupt_foreign_and_newer_files)
{
    test::temp_dir t;
    std::string error;
    write_file(t / "text.db", "this is a text file posing as a database, long enough to have a header......\n");
    BOOST_TEST(!sqlite_store::open((t / "text.db").string(), error));
    BOOST_TEST(error.find("not a SQLite database") != std::string::npos, error);

    // A real database with bytes flipped in its pages.
    {
        auto s = open_db(t / "flip.db");
        sqlite_source const src("db", s);
        for (int i = 0; i < 50; ++i) {
            std::string n = "s";
            n += std::to_string(i);
            BOOST_TEST(src.create(skill(n, std::string(300, 'd'), {"t"}, std::string(2000, 'c')), {}).ok());
        }
    }
    {
        std::string bytes = test::slurp(t / "flip.db");
        BOOST_TEST_REQUIRE(bytes.size() > 8192u);
        std::mt19937 rng(7);
        for (int i = 0; i < 200; ++i) bytes[4096 + rng() % (bytes.size() - 4096)] ^= static_cast<char>(0x5a);
        for (std::size_t page = 1; page < 6; ++page) bytes[page * 4096] = static_cast<char>(0x7b); // no valid page type
        write_file(t / "flip.db", bytes);
        ::unlink((t / "flip.db-wal").c_str());
        ::unlink((t / "flip.db-shm").c_str());
    }
    error.clear();
    auto flipped = sqlite_store::open((t / "flip.db").string(), error);
    BOOST_TEST(!flipped);
    BOOST_TEST(error.find("corrupt") != std::string::npos, error);

    // Truncated to half.
    {
        auto s = open_db(t / "cut.db");
        sqlite_source const src("db", s);
        for (int i = 0; i < 40; ++i) {
            std::string n = "s";
            n += std::to_string(i);
            BOOST_TEST(src.create(skill(n, "d", {"t"}, std::string(3000, 'c')), {}).ok());
        }
    }
    {
        auto const bytes = test::slurp(t / "cut.db");
        write_file(t / "cut.db", bytes.substr(0, bytes.size() / 2));
        ::unlink((t / "cut.db-wal").c_str());
        ::unlink((t / "cut.db-shm").c_str());
    }
    error.clear();
    BOOST_TEST(!sqlite_store::open((t / "cut.db").string(), error));
    BOOST_TEST(!error.empty());

    // A newer schema, and objects skillmd did not create.
    {
        auto s = open_db(t / "newer.db");
    }
    {
        sqlite3* db = nullptr;
        sqlite3_open((t / "newer.db").c_str(), &db);
        sqlite3_exec(db, "PRAGMA user_version = 9", nullptr, nullptr, nullptr);
        sqlite3_close(db);
    }
    error.clear();
    BOOST_TEST(!sqlite_store::open((t / "newer.db").string(), error));
    BOOST_TEST(error.find("unsupported schema v9") != std::string::npos, error);
    {
        auto s = open_db(t / "trig.db");
    }
    {
        sqlite3* db = nullptr;
        sqlite3_open((t / "trig.db").c_str(), &db);
        sqlite3_exec(db, "CREATE TRIGGER evil AFTER INSERT ON skills BEGIN DELETE FROM skills; END", nullptr, nullptr, nullptr);
        sqlite3_close(db);
    }
    error.clear();
    BOOST_TEST(!sqlite_store::open((t / "trig.db").string(), error));
    BOOST_TEST(error.find("trigger evil") != std::string::npos, error);

    // Objects are judged by what they are, not by their names: a trigger or a view named
    // `skills`, a second index, a generated column are all refused at open.
    int k = 0;
    for (char const* trap :
         {"CREATE TRIGGER skills AFTER INSERT ON skillmd_meta BEGIN DELETE FROM skills WHERE rowid > 1; END",
          "CREATE TRIGGER skillmd_meta BEFORE UPDATE ON skills BEGIN SELECT 1; END",
          "CREATE INDEX skills_by_description ON skills(description)",
          "ALTER TABLE skills ADD COLUMN evil TEXT GENERATED ALWAYS AS (content || content) VIRTUAL",
          "CREATE TABLE extra(x)"}) {
        auto const file = t / ("trap" + std::to_string(k++) + ".db");
        {
            auto s = open_db(file);
            BOOST_TEST(sqlite_source("db", s).create(skill("keep", "d", {"t"}, "b"), {}).ok());
        }
        sqlite3* db = nullptr;
        sqlite3_open(file.c_str(), &db);
        int const rc = sqlite3_exec(db, trap, nullptr, nullptr, nullptr);
        sqlite3_close(db);
        BOOST_TEST_REQUIRE(rc == SQLITE_OK, trap);
        error.clear();
        BOOST_TEST(!sqlite_store::open(file.string(), error), trap);
        BOOST_TEST(error.find("refusing to use it") != std::string::npos, error);
    }
    {
        // A table `skills` replaced by a recursive view: refused before any query runs.
        auto const file = t / "view.db";
        sqlite3* db = nullptr;
        sqlite3_open(file.c_str(), &db);
        sqlite3_exec(db, "CREATE TABLE skillmd_meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);"
                         "CREATE VIEW skills AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) "
                         "SELECT 'x' AS name, 'd' AS description, '[]' AS triggers, randomblob(1000) AS content, "
                         "0 AS created_at, 0 AS updated_at, n AS revision FROM r; PRAGMA user_version = 1;",
                     nullptr, nullptr, nullptr);
        sqlite3_close(db);
        error.clear();
        BOOST_TEST(!sqlite_store::open(file.string(), error));
        BOOST_TEST(error.find("view skills") != std::string::npos, error);
    }

    // koshi's own table, without skillmd's column, is adopted.
    {
        sqlite3* db = nullptr;
        sqlite3_open((t / "koshi.db").c_str(), &db);
        sqlite3_exec(db, "CREATE TABLE skills (name TEXT PRIMARY KEY, description TEXT NOT NULL, triggers TEXT NOT NULL DEFAULT '[]', "
                         "content TEXT NOT NULL, created_at DATETIME DEFAULT CURRENT_TIMESTAMP, updated_at DATETIME DEFAULT CURRENT_TIMESTAMP);"
                         "INSERT INTO skills (name, description, triggers, content) VALUES ('old', 'From koshi', '[\"old\"]', 'Body');",
                     nullptr, nullptr, nullptr);
        sqlite3_close(db);
    }
    auto adopted = open_db(t / "koshi.db");
    auto const old = adopted->load("old");
    BOOST_TEST_REQUIRE(old.has_value());
    BOOST_TEST(old->triggers == std::vector<std::string>{"old"}, boost::test_tools::per_element());
}

// A cheap version of the database fuzzer: a few bytes flipped anywhere, many times.
// Sparse flips are the hard case: the quick check on open may pass while a row's bytes
// changed. Whatever the file holds, the store (the database fuzzer's checks) and the
// koshi preset end in a result or a clear error, never a crash (ASan and UBSan in CI).
BOOST_AUTO_TEST_CASE(sparse_byte_flips_end_in_results_or_errors)
{
    test::temp_dir t;
    auto const at = koshi_at(t);
    fs::path const db = t / "data/koshi/skills.db";
    fs::create_directories(db.parent_path());
    write_file(t / "config/koshi/skills/reminders.md", "---\nname: reminders\ndescription: Set reminders\ntriggers: [remind]\n---\nBody\n");
    {
        auto s = open_db(db);
        sqlite_source const src("db", s);
        for (int i = 0; i < 30; ++i) {
            std::string n = "skill-";
            n += std::to_string(i);
            BOOST_TEST(src.create(skill(n, "Use when the task needs step " + std::to_string(i), {"step " + std::to_string(i)},
                                        "# Step\n" + std::string(200 + 40 * i, 'c')),
                                  {})
                           .ok());
        }
    }
    ::unlink((db.string() + "-wal").c_str());
    ::unlink((db.string() + "-shm").c_str());
    std::string const pristine = test::slurp(db);
    BOOST_TEST_REQUIRE(pristine.size() > 4096u);
    std::mt19937 rng(2026);
    std::size_t opened = 0, refused = 0;
    for (int round = 0; round < 300; ++round) {
        std::string bytes = pristine;
        int const flips = 1 + static_cast<int>(rng() % 6);
        for (int f = 0; f < flips; ++f) bytes[rng() % bytes.size()] ^= static_cast<char>(1 + rng() % 255);
        write_file(db, bytes);
        ::unlink((db.string() + "-wal").c_str());
        ::unlink((db.string() + "-shm").c_str());
        BOOST_TEST_CHECKPOINT("byte flips, round " << round);
        // The store alone: open, list, load, write, read back (aborts on a silent failure).
        if (fuzz::exercise_store_file(db.string())) ++opened;
        else ++refused;
        // The whole preset over the same file: file skills load whatever the database holds.
        auto reg = presets::make_koshi(at);
        reg.load();
        auto const snap = reg.snapshot();
        for (auto const& r : snap->skills()) BOOST_TEST(!r.meta.name.empty(), "round " << round);
        BOOST_TEST(snap->find("reminders") != nullptr, "round " << round << ": the file skill is lost");
        auto const w = presets::create_skill(reg, skill("new-one", "Added after the flips", {"added"}, "Body"));
        BOOST_TEST((w.ok() || !w.message.empty()), "round " << round);
    }
    BOOST_TEST_MESSAGE("byte flips: " << opened << " opened, " << refused << " refused");
    // Both paths were taken: files that still open (and were read row by row) and files refused.
    BOOST_TEST(opened > 0u);
    BOOST_TEST(refused > 0u);
}

BOOST_AUTO_TEST_CASE(file_skills_still_load_when_the_database_is_broken)
{
    test::temp_dir t;
    auto const at = koshi_at(t);
    write_file(t / "config/koshi/skills/reminders.md", "---\nname: reminders\ndescription: Set reminders\ntriggers: [remind]\n---\nBody\n");
    write_file(t / "data/koshi/skills.db", "not a database at all, just some text that is long enough....\n");
    auto reg = presets::make_koshi(at);
    reg.load();
    auto const snap = reg.snapshot();
    BOOST_TEST(snap->skills().size() == 1u);
    bool reported = false;
    for (auto const& d : snap->diagnostics()) reported = reported || (d.code == "database" && d.message.find("not a SQLite database") != std::string::npos);
    BOOST_TEST(reported);
    auto const r = presets::create_skill(reg, skill("x-y", "d", {"t"}, "b"));
    BOOST_TEST((r.status == db_status::error));
}

BOOST_AUTO_TEST_CASE(read_only_database)
{
    test::temp_dir t;
    {
        auto s = open_db(t / "ro.db");
        BOOST_TEST(sqlite_source("db", s).create(skill("keep", "d", {"t"}, "b"), {}).ok());
    }
    sqlite_options ro;
    ro.read_only = true;
    auto s = open_db(t / "ro.db", ro);
    sqlite_source const src("db", s);
    auto const r = src.create(skill("new", "d", {"t"}, "b"), {});
    BOOST_TEST((r.status == db_status::error));
    BOOST_TEST(r.message.find("read-only") != std::string::npos, r.message);
    BOOST_TEST(s->list()->size() == 1u);

    // Without write access to the file and its directory (a child as an unprivileged user).
    fs::permissions(t.path, fs::perms::owner_all | fs::perms::group_exec | fs::perms::others_exec);
    pid_t const pid = ::fork();
    if (pid == 0) {
        if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0)) ::_exit(3);
        std::string error;
        auto w = sqlite_store::open((t / "ro.db").string(), error);
        if (w) {
            auto const out = sqlite_source("db", w).create(skill("new", "d", {"t"}, "b"), {});
            ::_exit(out.ok() ? 1 : out.message.empty() ? 2 : 0);
        }
        ::_exit(error.empty() ? 2 : 0); // refused with a message
    }
    BOOST_TEST(wait_for(pid) == 0);
    BOOST_TEST(open_db(t / "ro.db")->list()->size() == 1u);
}

BOOST_AUTO_TEST_CASE(full_disk_rolls_back)
{
    test::temp_dir t;
    {
        auto s = open_db(t / "full.db");
        BOOST_TEST(sqlite_source("db", s).create(skill("keep", "d", {"t"}, "b"), {}).ok());
    }
    pid_t const pid = ::fork();
    if (pid == 0) {
        std::signal(SIGXFSZ, SIG_IGN);
        rlimit lim{64 * 1024, 64 * 1024};
        ::setrlimit(RLIMIT_FSIZE, &lim);
        std::string error;
        auto s = sqlite_store::open((t / "full.db").string(), error);
        if (!s) ::_exit(4);
        auto const out = sqlite_source("db", s).create(skill("huge", "d", {"t"}, std::string(1 << 20, 'x')), {});
        ::_exit(out.status == db_status::error && !out.message.empty() ? 0 : 1);
    }
    BOOST_TEST(wait_for(pid) == 0);
    auto s = open_db(t / "full.db");
    BOOST_TEST(s->integrity() == "ok");
    auto const rows = s->list();
    BOOST_TEST_REQUIRE(rows.has_value());
    BOOST_TEST(rows->size() == 1u);
    BOOST_TEST(rows->front().name == "keep");
}

BOOST_AUTO_TEST_CASE(fork_gets_its_own_connection)
{
    test::temp_dir t;
    auto s = open_db(t / "fork.db");
    sqlite_source const src("db", s);
    BOOST_TEST(src.create(skill("parent-1", "d", {"t"}, "b"), {}).ok());
    pid_t const pid = ::fork();
    if (pid == 0) {
        bool ok = true;
        for (int i = 0; i < 20; ++i) {
            std::string n = "child-";
            n += std::to_string(i);
            ok = ok && src.create(skill(n, "d", {"t"}, "b"), {}).ok();
        }
        ::_exit(ok ? 0 : 1);
    }
    for (int i = 0; i < 20; ++i) {
        std::string n = "parent-x";
        n += std::to_string(i);
        BOOST_TEST(src.create(skill(n, "d", {"t"}, "b"), {}).ok());
    }
    BOOST_TEST(wait_for(pid) == 0);
    BOOST_TEST(s->integrity() == "ok");
    BOOST_TEST(s->list()->size() == 41u);
}

BOOST_AUTO_TEST_CASE(writers_and_readers_in_several_processes_lose_nothing)
{
    for (int round = 0; round < 3; ++round) {
        test::temp_dir t;
        auto const db = (t / "mp.db").string();
        open_db(db); // the schema, before the crowd
        int const per_writer = 120;
        std::vector<pid_t> writers, readers;
        for (int w = 0; w < 4; ++w) writers.push_back(spawn({"write", db, std::to_string(w), std::to_string(per_writer)}));
        for (int r = 0; r < 2; ++r) readers.push_back(spawn({"read", db, "1500"}));
        for (auto p : writers) BOOST_TEST(wait_for(p) == 0);
        for (auto p : readers) BOOST_TEST(wait_for(p) == 0);
        auto s = open_db(db);
        BOOST_TEST(s->integrity() == "ok");
        auto const rows = s->list();
        BOOST_TEST_REQUIRE(rows.has_value());
        // Each writer keeps three of every four skills, each updated once.
        BOOST_TEST(rows->size() == 4u * (per_writer - per_writer / 4));
        for (auto const& r : *rows) BOOST_TEST(r.description == "desc of " + r.name + " rev 1");
        BOOST_TEST(*s->changes() == 4 * (per_writer * 2 + per_writer / 4));
    }
}

BOOST_AUTO_TEST_CASE(a_writer_killed_mid_transaction_leaves_a_consistent_database)
{
    test::temp_dir t;
    auto const db = (t / "kill.db").string();
    open_db(db);
    std::mt19937 rng(42);
    for (int i = 0; i < 20; ++i) {
        pid_t const churn = spawn({"churn", db});
        // Kept: a random moment to kill the writer at, mid-write (nothing is awaited).
        ::usleep(static_cast<useconds_t>(5000 + rng() % 40000));
        ::kill(churn, SIGKILL);
        wait_for(churn);
        // Three processes open at once, while recovery may hold its lock.
        std::vector<pid_t> readers;
        for (int r = 0; r < 3; ++r) readers.push_back(spawn({"read", db, "50"}));
        for (auto p : readers) BOOST_TEST(wait_for(p) == 0, "round " << i);
    }
    auto s = open_db(db);
    BOOST_TEST(s->integrity() == "ok");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(koshi_preset)

BOOST_AUTO_TEST_CASE(koshi_behaviour)
{
    test::temp_dir t;
    auto const at = koshi_at(t);
    write_file(t / "shipped/reminders.md", "---\nname: reminders\ndescription: Set reminders and scheduled notifications\n"
                                           "triggers: [remind, reminder, schedule]\n---\n# Reminders\nUse the scheduler.\n");
    write_file(t / "shipped/code-review.md", "---\nname: code-review\ndescription: Review code changes\ntriggers:\n  - code review\n"
                                             "tools: [Read, Grep]\nmodel: opus\n---\n# Review\nRead the diff.\n");
    // First start: the skills directory does not exist and is seeded.
    std::vector<diagnostic> seeding;
    auto reg = presets::make_koshi(at, t / "shipped", validation_mode::lenient, &seeding);
    BOOST_TEST(fs::exists(t / "config/koshi/skills/reminders.md"));
    reg.load();
    BOOST_TEST(reg.snapshot()->skills().size() == 2u);

    // The agent creates a skill; it is refused for a file skill's name.
    BOOST_TEST(presets::create_skill(reg, skill("deploy-check", "Pre-deployment verification checklist",
                                                {"deploy", "deployment", "release", "ship"}, "## Steps\n1. Run tests\n")).ok());
    auto const taken = presets::create_skill(reg, skill("reminders", "Mine", {"x"}, "b"));
    BOOST_TEST((taken.status == db_status::file_skill));
    BOOST_TEST(reg.snapshot()->skills().size() == 3u);
    auto const* db = reg.snapshot()->find("deploy-check");
    BOOST_TEST_REQUIRE(db != nullptr);
    BOOST_TEST(db->tier == "db");
    BOOST_TEST(db->where.database);
    BOOST_TEST(*reg.body(*db) == "## Steps\n1. Run tests\n");

    // Partial update; file skills cannot be changed or deleted through the database.
    db_update u;
    u.triggers = std::vector<std::string>{"deploy", "go live"};
    BOOST_TEST(presets::update_skill(reg, "deploy-check", u).ok());
    BOOST_TEST(reg.snapshot()->find("deploy-check")->meta.triggers.size() == 2u);
    BOOST_TEST(reg.snapshot()->find("deploy-check")->meta.description == "Pre-deployment verification checklist");
    BOOST_TEST((presets::update_skill(reg, "reminders", u).status == db_status::file_skill));
    BOOST_TEST((presets::delete_skill(reg, "code-review").status == db_status::file_skill));

    // A human overrides an agent skill by writing a file of the same name: the file wins.
    write_file(t / "config/koshi/skills/deploy-check.md",
               "---\nname: deploy-check\ndescription: The human's checklist\ntriggers: [deploy]\n---\nHuman steps.\n");
    reg.refresh();
    auto const* won = reg.snapshot()->find("deploy-check");
    BOOST_TEST_REQUIRE(won != nullptr);
    BOOST_TEST(won->tier == "user");
    BOOST_TEST(reg.snapshot()->shadowed().size() == 1u);
    // ... and the shadowed row can still be deleted, the file never.
    BOOST_TEST(presets::delete_skill(reg, "deploy-check").ok());
    BOOST_TEST(fs::exists(t / "config/koshi/skills/deploy-check.md"));
    BOOST_TEST(reg.snapshot()->shadowed().empty());

    // Triggers inject the matching skills' full content.
    auto const active = presets::active_skills_for(reg, "Please remind me to do a code review");
    BOOST_TEST(active == "## Active Skills\n\n### code-review\n\n# Review\nRead the diff.\n\n### reminders\n\n# Reminders\nUse the scheduler.\n");
    BOOST_TEST(presets::active_skills_for(reg, "nothing relevant").empty());

    // The index lists names and descriptions only, in koshi's Markdown.
    auto const index = render_index(*reg.snapshot(), index_formats::koshi{}, index_formats::policies::koshi()).text;
    BOOST_TEST(index.find("- **reminders**: Set reminders and scheduled notifications\n") != std::string::npos);

    // An agent keeps its trigger indexes between messages: each derived from the last.
    trigger_indexes kept;
    BOOST_TEST(presets::active_skills_for(reg, "Please remind me to do a code review", kept) == active);
    write_file(t / "config/koshi/skills/reminders.md", "---\nname: reminders\ndescription: Nudges\ntriggers: [nudge]\n---\n# Nudge\n");
    reg.refresh();
    BOOST_TEST(presets::active_skills_for(reg, "Please remind me to do a code review", kept) ==
               "## Active Skills\n\n### code-review\n\n# Review\nRead the diff.\n");
    BOOST_TEST(presets::active_skills_for(reg, "a nudge, then a code review", kept) ==
               presets::active_skills_for(reg, "a nudge, then a code review", trigger_index(reg.snapshot())));
    // The system keeps one too (what the two-argument call uses), made once per snapshot.
    BOOST_TEST(reg.triggers() == reg.triggers());
    BOOST_TEST(presets::active_skills_for(reg, "a nudge, then a code review") ==
               presets::active_skills_for(reg, "a nudge, then a code review", kept));
    BOOST_TEST(presets::active_skills_for(reg, "a nudge", kept).find("# Nudge") != std::string::npos);

    // A second start does not seed again.
    fs::remove(t / "config/koshi/skills/reminders.md");
    std::vector<diagnostic> second;
    auto again = presets::make_koshi(at, t / "shipped", validation_mode::lenient, &second);
    BOOST_TEST(!fs::exists(t / "config/koshi/skills/reminders.md"));
}

BOOST_AUTO_TEST_CASE(model_tool_calls_reach_the_database)
{
    test::temp_dir t;
    auto const at = koshi_at(t);
    write_file(t / "config/koshi/skills/reminders.md", "---\nname: reminders\ndescription: Set reminders\ntriggers: [remind]\n---\nUse it.\n");
    auto agent = presets::make_koshi(at);
    agent.load();
    auto field = [](boost::json::object const& o, char const* k) { return boost::json::serialize(o.at(k)); };
    auto const created = presets::call_tool(agent, R"({"name":"create_skill","input":{"name":"deploy-check",
        "description":"Pre-deployment checklist","triggers":["deploy"],"content":"## Steps\n1. Test\n"}})");
    BOOST_TEST(field(created, "ok") == "true");
    BOOST_TEST(agent.snapshot()->find("deploy-check") != nullptr);
    // koshi's refusals come back as results, not exceptions.
    auto const taken = presets::call_tool(agent, R"({"name":"create_skill","input":{"name":"reminders",
        "description":"d","triggers":["x"],"content":"x"}})");
    BOOST_TEST(field(taken, "error") == "\"file_skill\"");
    auto const invalid = presets::call_tool(agent, R"({"name":"create_skill","input":{"name":"Bad Name",
        "description":"d","triggers":["x"],"content":"x"}})");
    BOOST_TEST(field(invalid, "error") == "\"invalid\"");
    auto const updated = presets::call_tool(agent, R"({"name":"update_skill","arguments":"{\"name\":\"deploy-check\",\"triggers\":[\"ship\"]}"})");
    BOOST_TEST(field(updated, "ok") == "true");
    auto const listed = presets::call_tool(agent, R"({"name":"list_skills","input":{}})");
    BOOST_TEST(listed.at("skills").as_array().size() == 2u);
    auto const loaded = presets::call_tool(agent, R"({"name":"load_skill","input":{"name":"deploy-check"}})");
    BOOST_TEST(field(loaded, "status") == "\"run\""); // koshi has no approval step: the model's call runs
    auto const deleted = presets::call_tool(agent, R"({"name":"delete_skill","input":{"name":"deploy-check"}})");
    BOOST_TEST(field(deleted, "ok") == "true");
    BOOST_TEST(agent.snapshot()->find("deploy-check") == nullptr);
    for (char const* bad : {"{", R"({"name":"drop_table","input":{}})", R"({"name":"delete_skill","input":{"name":1}})",
                            R"({"name":"Skill","input":{"skill":"reminders"}})"})
        BOOST_TEST(field(presets::call_tool(agent, bad), "ok") == "false", bad);
}

BOOST_AUTO_TEST_CASE(refresh_sees_another_process_writes)
{
    test::temp_dir t;
    auto const at = koshi_at(t);
    fs::create_directories(t / "config/koshi/skills");
    auto reg = presets::make_koshi(at);
    reg.load();
    reg.refresh(); // watches set
    BOOST_TEST(reg.snapshot()->skills().empty());
    pid_t const pid = spawn({"write", (t / "data/koshi/skills.db").string(), "9", "4"});
    BOOST_TEST(wait_for(pid) == 0);
    reg.refresh();
    BOOST_TEST(reg.snapshot()->skills().size() == 3u);
    auto const before = reg.snapshot();
    reg.refresh(); // nothing changed: the same snapshot
    BOOST_TEST(reg.snapshot() == before);
}

BOOST_AUTO_TEST_SUITE_END()
