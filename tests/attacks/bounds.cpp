// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)

// Attacks on bounded work: every cost an input drives has a bound, and a test at the
// bound (the table in docs/security.md). Times are never asserted here; what is shown is
// that the bound holds and that what it leaves out is said.

#include "../support/test_support.hpp"

#include <skillmd/authoring/portability.hpp>
#include <skillmd/invoke/arguments.hpp>
#include <skillmd/mcp/server.hpp>
#include <skillmd/presets.hpp>
#include <skillmd/presets/koshi.hpp>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <sqlite3.h>

#include <cstdlib>
#include <random>
#include <string>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace skillmd;

namespace {

bool has_message(std::vector<diagnostic> const& ds, std::string_view code, std::string_view part)
{
    return std::any_of(ds.begin(), ds.end(), [&](auto const& d) { return d.code == code && d.message.find(part) != std::string::npos; });
}

/// `$name` as the substitution rules define it, by trying every name: the reference the
/// table-driven pass must agree with.
std::string named_by_definition(std::string_view body, std::vector<std::string> const& names, std::vector<std::string> const& args)
{
    auto const word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    std::string out;
    for (std::size_t i = 0; i < body.size();) {
        if (body[i] != '$' || i + 1 >= body.size()) {
            out += body[i++];
            continue;
        }
        std::string_view const rest = body.substr(i + 1);
        std::size_t best = 0, at = 0;
        for (std::size_t n = 0; n < names.size(); ++n) {
            auto const& nm = names[n];
            if (nm.empty() || nm.size() <= best || !rest.starts_with(nm) || (nm.size() < rest.size() && word(rest[nm.size()]))) continue;
            best = nm.size();
            at = n;
        }
        if (best == 0) {
            out += body[i++];
            continue;
        }
        if (at < args.size()) out += args[at];
        i += 1 + best;
    }
    return out;
}

/// The koshi preset over `t/files` and a database in koshi's own table holding `rows`
/// (`(name, description)` SQL expressions), loaded.
std::shared_ptr<snapshot const> koshi_with_rows(test::temp_dir const& t, std::vector<std::pair<std::string, std::string>> const& rows)
{
    sqlite3* db = nullptr;
    BOOST_TEST_REQUIRE(sqlite3_open((t / "k.db").c_str(), &db) == SQLITE_OK);
    std::string sql = "CREATE TABLE skills (name TEXT PRIMARY KEY, description TEXT NOT NULL, triggers TEXT NOT NULL DEFAULT '[]', "
                      "content TEXT NOT NULL, created_at DATETIME DEFAULT CURRENT_TIMESTAMP, updated_at DATETIME DEFAULT CURRENT_TIMESTAMP);";
    for (auto const& [name, description] : rows)
        sql += "INSERT INTO skills (name, description, triggers, content) VALUES (" + name + ", " + description + ", '[\"t\"]', 'Body');";
    BOOST_TEST_REQUIRE(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK);
    sqlite3_close(db);
    presets::locations at;
    at.overrides["user"] = t / "files";
    at.overrides["db"] = t / "k.db";
    auto agent = presets::make_koshi(at);
    BOOST_TEST_REQUIRE(agent.load());
    return agent.snapshot();
}

} // namespace

BOOST_AUTO_TEST_SUITE(attacks_bounds)

// 18,000 declared names tried at every `$` cost 20 s for one invocation: names are capped
// and looked up in a table, with the same results as trying each.
BOOST_AUTO_TEST_CASE(named_arguments_are_capped_and_found_in_one_pass)
{
    std::vector<std::string> many;
    for (int i = 0; i < 18000; ++i) many.push_back("n" + std::to_string(i));
    substitution_policy p;
    p.indexed = false;
    p.variables = false;
    p.append_unconsumed = false;
    std::string body;
    for (int i = 0; i < 2000; ++i) body += "$n" + std::to_string(i % 300) + " ";
    auto const r = substitute(body, "a b c", many, {}, p);
    BOOST_TEST(r.ignored_names == 18000u - p.max_names);
    BOOST_TEST(r.text.starts_with("a b c  ")); // $n3 names no given argument: empty
    BOOST_TEST(r.text.find("$n255 ") == std::string::npos);
    BOOST_TEST(r.text.find("$n256 ") != std::string::npos); // past the cap: text
    std::vector<std::string> const too_long{std::string(p.max_name_bytes + 1, 'x'), "y"};
    BOOST_TEST(substitute("$" + too_long[0] + " $y", "A B", too_long, {}, p).ignored_names == 1u);

    // The table agrees with the definition: longest name at a word boundary, first of equals.
    std::mt19937 rng(7);
    char const* parts[] = {"$", "a", "b", "ab", "-", "_", " ", "a-b", "$ab"};
    for (int round = 0; round < 3000; ++round) {
        std::vector<std::string> names;
        for (int k = rng() % 5; k > 0; --k) names.push_back(std::string(parts[1 + rng() % 4]) + (rng() % 2 ? "-b" : ""));
        std::string b;
        for (int k = rng() % 12; k > 0; --k) b += parts[rng() % std::size(parts)];
        std::vector<std::string> const args{"X", "Y", "Z", "W", "V"};
        BOOST_TEST(substitute(b, "X Y Z W V", names, {}, p).text == named_by_definition(b, names, args), b);
    }
}

// A SQLite file whose rows hold megabytes of description each (under SQLite's own row
// limit) is read within bounds: such rows are skipped, each with a diagnostic, and the
// rest of the registry, file skills included, loads.
BOOST_AUTO_TEST_CASE(hostile_database_rows_are_bounded_and_said)
{
    test::temp_dir t;
    test::write(t / "files/f.md", "---\nname: f\ndescription: a file skill\ntriggers: [f]\n---\nF\n");
    std::vector<std::pair<std::string, std::string>> rows{{"'good'", "'Fine'"}};
    for (int i = 0; i < 8; ++i) rows.emplace_back("'big" + std::to_string(i) + "'", "printf('%.*c', 1048576, 'x')");
    auto const snap = koshi_with_rows(t, rows);
    BOOST_TEST(snap->find("good") != nullptr);
    BOOST_TEST(snap->find("f") != nullptr);
    BOOST_TEST(snap->find("big0") == nullptr);
    std::size_t said = 0;
    for (auto const& d : snap->diagnostics()) said += d.code == codes::database && d.message.find("over the bound") != std::string::npos;
    BOOST_TEST(said == 8u);
}

// A value over SQLite's own length bound stopped the whole listing at its row, and the
// database tier came back empty: now that row alone is skipped, and said.
BOOST_AUTO_TEST_CASE(a_row_over_the_databases_length_bound_is_skipped_alone)
{
    test::temp_dir t;
    auto const snap = koshi_with_rows(t, {{"'a-good'", "'Fine'"}, {"'huge'", "printf('%.*c', 16777216, 'x')"}, {"'z-good'", "'Fine'"}});
    BOOST_TEST(snap->find("a-good") != nullptr);
    BOOST_TEST(snap->find("z-good") != nullptr);
    BOOST_TEST(snap->find("huge") == nullptr);
    BOOST_TEST(has_message(snap->diagnostics(), codes::database, "longer than the database's bound"));
}

// The listing's total bound: past it, rows are skipped with one diagnostic.
BOOST_AUTO_TEST_CASE(a_database_listing_has_a_total_bound)
{
    test::temp_dir t;
    std::string error;
    sqlite_options o;
    o.max_listing_bytes = 64;
    auto store = sqlite_store::open((t / "k.db").string(), error, o);
    BOOST_TEST_REQUIRE(store, error);
    for (int i = 0; i < 10; ++i) {
        db_skill s;
        s.name = "s" + std::to_string(i);
        s.description = "sixteen bytes...";
        s.triggers = {"t"};
        s.content = "B";
        BOOST_TEST_REQUIRE(store->insert(s).ok());
    }
    sqlite_source const src("db", store);
    auto const d = src.discover();
    BOOST_TEST(d.skills.size() < 10u);
    BOOST_TEST(!d.skills.empty());
    BOOST_TEST(has_message(d.diagnostics, codes::database, "over its bound of 64 bytes"));
}

// `--page-size 18446744073709551615` wrapped the paging: a page is at most what is left.
BOOST_AUTO_TEST_CASE(paging_never_wraps)
{
    test::temp_dir t;
    for (char const* n : {"a", "b", "c"}) test::write(t / "skills" / n / "SKILL.md", std::string("---\nname: ") + n + "\ndescription: d\n---\nB\n");
    presets::locations at;
    at.overrides["user"] = t / "skills";
    at.overrides["project"] = t / "none";
    auto agent = presets::make_agent_skills(at);
    BOOST_TEST_REQUIRE(agent.load());
    std::string const init = R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}})";
    mcp::server_options one;
    one.page_size = 1;
    mcp::server<decltype(agent)> first(agent, one); // a cursor to the second skill
    first.handle(init);
    auto const page = boost::json::parse(first.handle(R"({"jsonrpc":"2.0","id":1,"method":"skills/list"})").at(0));
    std::string const cursor(page.at("result").at("nextCursor").as_string());
    mcp::server_options o;
    o.page_size = std::numeric_limits<std::size_t>::max();
    mcp::server<decltype(agent)> srv(agent, o);
    srv.handle(init);
    auto const out = srv.handle(R"({"jsonrpc":"2.0","id":1,"method":"skills/list","params":{"cursor":")" + cursor + R"("}})");
    BOOST_TEST_REQUIRE(out.size() == 1u);
    auto const v = boost::json::parse(out[0]);
    BOOST_TEST(v.at("result").at("skills").as_array().size() == 2u);
    BOOST_TEST(!v.at("result").as_object().contains("nextCursor"));
}

// fmt stopped after 256 edits and called the rest unfixable: a file is fixed whole, or
// left untouched with the reason.
BOOST_AUTO_TEST_CASE(fmt_fixes_a_file_whole_or_not_at_all)
{
    auto const file_with = [](std::size_t keys) {
        std::string f = "---\nname: many\ndescription: d\nmetadata:\n";
        for (std::size_t i = 0; i < keys; ++i) f += "  k" + std::to_string(i) + ": use when: " + std::to_string(i) + "\n";
        return f + "---\nBody.\n";
    };
    auto const within = fix_portability(file_with(600), "within.md");
    BOOST_TEST(!within.refused);
    BOOST_TEST(within.changed);
    BOOST_TEST(within.edits.size() == 600u);
    std::string const over_text = file_with(max_fmt_edits + 10);
    auto const over = fix_portability(over_text, "over.md");
    BOOST_TEST(over.refused);
    BOOST_TEST(!over.changed);
    BOOST_TEST(over.text == over_text);
    BOOST_TEST(has_message(over.notes, "fmt-unsafe", "more than 1024 edits"));
}

// A skill whose path the kernel cannot open whole is not listed: what is listed loads.
BOOST_AUTO_TEST_CASE(a_listed_skill_can_be_loaded)
{
    test::temp_dir t;
    std::string const segment(240, 'x');
    {
        // Made and written through a chain of folder descriptors: the whole path is
        // longer than mkdir() and open() take.
        std::filesystem::create_directories(t / "tier");
        int fd = ::open((t / "tier").c_str(), O_RDONLY | O_DIRECTORY);
        for (int i = 0; i < 18 && fd >= 0; ++i) {
            std::string const name = segment + std::to_string(i);
            BOOST_TEST_REQUIRE(::mkdirat(fd, name.c_str(), 0755) == 0);
            int const next = ::openat(fd, name.c_str(), O_RDONLY | O_DIRECTORY);
            ::close(fd);
            fd = next;
        }
        BOOST_TEST_REQUIRE(fd >= 0);
        int const f = ::openat(fd, "SKILL.md", O_WRONLY | O_CREAT | O_TRUNC, 0644);
        std::string const text = "---\nname: deep\ndescription: d\n---\nB\n";
        BOOST_TEST_REQUIRE(::write(f, text.data(), text.size()) == static_cast<ssize_t>(text.size()));
        ::close(f);
        ::close(fd);
    }
    test::write(t / "tier/ok/SKILL.md", "---\nname: ok\ndescription: d\n---\nB\n");
    presets::locations at;
    at.overrides["project-sven"] = t / "tier";
    auto agent = presets::make_sven(at);
    BOOST_TEST_REQUIRE(agent.load());
    auto const snap = agent.snapshot();
    for (auto const* r : snap->list()) {
        auto const inv = agent.invoke(std::string(r->command.view()), caller::user);
        BOOST_TEST((inv.status() == invoke_status::run), r->command.view().substr(0, 40));
    }
    BOOST_TEST(snap->find("ok") != nullptr);
    BOOST_TEST(has_message(snap->diagnostics(), codes::skill_unreadable, "bytes long"));
    // std::filesystem cannot remove a path this long; rm walks it by descriptors.
    BOOST_TEST(std::system(("rm -rf '" + (t / "tier").string() + "'").c_str()) == 0);
}

BOOST_AUTO_TEST_SUITE_END()
