// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
//
// skillmd/mcp: digests (the discovery RFC's worked example), URIs, frontmatter as JSON,
// and the server's answers to malformed and hostile messages. The server end to end,
// driven by the official MCP TypeScript SDK, is tests/mcp/sdk_client.mjs.

#include "../support/test_support.hpp"

#include <skillmd/mcp.hpp>
#include <skillmd/presets/systems.hpp>
#include <skillmd/presets/koshi.hpp>
#include <skillmd/frontmatter/split.hpp>
#include <skillmd/frontmatter/x3_parser.hpp>

#include <boost/json/parse.hpp>
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <map>
#include <set>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

using namespace skillmd;
using namespace skillmd::test;
namespace fs = std::filesystem;

namespace {

boost::json::object reply(std::vector<std::string> const& out)
{
    BOOST_TEST_REQUIRE(out.size() == 1u);
    return boost::json::parse(out.front()).as_object();
}

std::int64_t error_code(std::vector<std::string> const& out)
{
    auto const r = reply(out);
    BOOST_TEST_REQUIRE(r.contains("error"), out.front());
    return r.at("error").at("code").as_int64();
}

/// The agent-skills preset over `t/skills` as its only tier (not loaded yet).
presets::agent_skills user_skills(temp_dir const& t)
{
    presets::locations at;
    at.home = t / "none";
    at.project = t / "none";
    at.overrides["user"] = (t / "skills").string();
    return presets::make_agent_skills(at);
}

} // namespace

BOOST_AUTO_TEST_SUITE(mcp_digests)

BOOST_AUTO_TEST_CASE(sha256_is_libcrypto_s)
{
    BOOST_TEST(mcp::sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    BOOST_TEST(mcp::sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

// The Agent Skills discovery RFC's worked example: two files, their digests, the skill's.
BOOST_AUTO_TEST_CASE(the_discovery_rfc_worked_example)
{
    temp_dir t;
    write(t / "s/SKILL.md", "# Hello\n");
    write(t / "s/scripts/run.sh", "#!/bin/sh\n");
    auto const m = mcp::manifest_of((t / "s").string());
    BOOST_TEST_REQUIRE(m.complete(), m.error);
    BOOST_TEST_REQUIRE(m.files.size() == 2u);
    BOOST_TEST(m.files[0].path == "SKILL.md");
    BOOST_TEST(m.files[0].hex == "90f8ec5669cd34183b9b0fdf8b94f5efb4c3672876330f4aa76088c2b4ad17be");
    BOOST_TEST(m.files[0].size == 8u);
    BOOST_TEST(m.files[1].path == "scripts/run.sh");
    BOOST_TEST(m.files[1].hex == "a8076d3d28d21e02012b20eaf7dbf75409a6277134439025f282e368e3305abf");
    BOOST_TEST(mcp::draft_manifest_digest(m.files) == "sha256:34f7a8c484e9991f3e71a309f31332d6335efc01f544105c4185a7c4ab12eb1e");
    // The order the files come in does not matter.
    std::vector<mcp::file_digest> reversed(m.files.rbegin(), m.files.rend());
    BOOST_TEST(mcp::draft_manifest_digest(reversed) == mcp::draft_manifest_digest(m.files));
}

// Links out of the skill are not part of it; over the extension's limits the manifest
// says it is incomplete instead of listing part of the skill.
BOOST_AUTO_TEST_CASE(manifests_stay_inside_and_within_limits)
{
    temp_dir t;
    write(t / "secret.txt", "secret\n");
    write(t / "s/SKILL.md", "---\nname: s\n---\n");
    fs::create_symlink(t / "secret.txt", t / "s/leak.txt");
    fs::create_directory_symlink(t.path, t / "s/up");
    write(t / "s/inner.txt", "inner\n");
    fs::create_symlink(t / "s/inner.txt", t / "s/alias.txt"); // a link inside the skill is a file of it
    auto const m = mcp::manifest_of((t / "s").string());
    BOOST_TEST_REQUIRE(m.complete(), m.error);
    std::vector<std::string> paths;
    for (auto const& f : m.files) paths.push_back(f.path);
    BOOST_TEST(paths == (std::vector<std::string>{"SKILL.md", "alias.txt", "inner.txt"}), boost::test_tools::per_element());

    for (int i = 0; i < 512; ++i) write(t / ("many/f" + std::to_string(1000 + i)), "x");
    write(t / "many/SKILL.md", "---\nname: many\n---\n");
    BOOST_TEST(!mcp::manifest_of((t / "many").string()).complete()); // 513 files
    write(t / "big/SKILL.md", "---\nname: big\n---\n");
    write(t / "big/blob", std::string(17 * 1024 * 1024, 'x'));
    BOOST_TEST(!mcp::manifest_of((t / "big").string()).complete()); // over 16 MiB
    BOOST_TEST(!mcp::manifest_of((t / "none").string()).complete());

    // Links back up the skill are not followed (three to `.` listed it 3^16 times); a
    // second path to a folder still lists its files under both.
    write(t / "looped/SKILL.md", "---\nname: looped\n---\n");
    write(t / "looped/loop/x.txt", "x\n");
    for (char const* l : {"a", "b", "c"}) fs::create_directory_symlink(".", t / "looped/loop" / l);
    fs::create_directory_symlink("..", t / "looped/loop/up");
    fs::create_directory_symlink("loop", t / "looped/again");
    auto const looped = mcp::manifest_of((t / "looped").string());
    BOOST_TEST_REQUIRE(looped.complete(), looped.error);
    paths.clear();
    for (auto const& f : looped.files) paths.push_back(f.path);
    BOOST_TEST(paths == (std::vector<std::string>{"SKILL.md", "again/x.txt", "loop/x.txt"}), boost::test_tools::per_element());
    // Folders with two links each to the next: 2^16 paths and no file; the folder limit ends it.
    write(t / "paths/SKILL.md", "---\nname: paths\n---\n");
    for (int i = 0; i < 20; ++i) {
        fs::path const d = t / "paths" / ("d" + std::to_string(i));
        fs::create_directories(d);
        fs::create_directory_symlink("../d" + std::to_string(i + 1), d / "x");
        fs::create_directory_symlink("../d" + std::to_string(i + 1), d / "y");
    }
    auto const many_paths = mcp::manifest_of((t / "paths").string());
    BOOST_TEST(!many_paths.complete());
    BOOST_TEST(many_paths.error.find("deeper than 16 levels") != std::string::npos, many_paths.error);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(mcp_uris)

BOOST_AUTO_TEST_CASE(uris_are_made_encoded_and_read_strictly)
{
    BOOST_TEST(mcp::skill_uri("acme/refunds", "examples/email.md") == "skill://acme/refunds/examples/email.md");
    BOOST_TEST(mcp::skill_uri("a", "my file#1.md") == "skill://a/my%20file%231.md");
    BOOST_TEST(mcp::parse_skill_uri("skill://a/my%20file%231.md")->path == "a/my file#1.md");
    BOOST_TEST(mcp::parse_skill_uri("skill://a/b/SKILL.md")->path == "a/b/SKILL.md");
    for (std::string_view bad : {"skill://a/../b", "skill://a/%2e%2e/b", "skill://a/%2E%2E/b", "skill://a/.%2e/b", "skill://a/./b",
                                 "skill://a//b", "skill:///etc/passwd", "skill://a/%2Fetc", "skill://a/%00", "skill://a/b?x",
                                 "skill://a/b#f", "skill://a/b\\c", "skill://a/%zz", "skill://a/%2", "file:///etc/passwd",
                                 "skill://", "skill://a/b/"})
        BOOST_TEST(!mcp::parse_skill_uri(bad).has_value(), bad);
}

BOOST_AUTO_TEST_CASE(frontmatter_becomes_the_json_a_yaml_loader_gives)
{
    BOOST_TEST(mcp::scalar_json("true", true) == boost::json::value(true));
    BOOST_TEST(mcp::scalar_json("true", false) == boost::json::value("true"));
    BOOST_TEST(mcp::scalar_json("~", true).is_null());
    BOOST_TEST(mcp::scalar_json("", true).is_null());
    BOOST_TEST(mcp::scalar_json("-12", true) == boost::json::value(-12));
    BOOST_TEST(mcp::scalar_json("+7", true) == boost::json::value(7));
    BOOST_TEST(mcp::scalar_json("0x1F", true) == boost::json::value(31u));
    BOOST_TEST(mcp::scalar_json("2.5e3", true) == boost::json::value(2500.0));
    BOOST_TEST(mcp::scalar_json(".5", true) == boost::json::value(0.5));
    BOOST_TEST(mcp::scalar_json("1.2.3", true) == boost::json::value("1.2.3"));
    BOOST_TEST(mcp::scalar_json("yes", true) == boost::json::value("yes")); // YAML 1.2: a string
    // The core schema's other integers and floats, each as a loader types it.
    BOOST_TEST(mcp::scalar_json("0o17", true) == boost::json::value(15));
    BOOST_TEST(mcp::scalar_json("0o18", true) == boost::json::value("0o18"));
    BOOST_TEST(mcp::scalar_json("-0x1F", true) == boost::json::value("-0x1F")); // no sign on hex
    BOOST_TEST(mcp::scalar_json("007", true) == boost::json::value(7));
    BOOST_TEST(mcp::scalar_json("9223372036854775808", true) == boost::json::value(9223372036854775808u));
    BOOST_TEST(mcp::scalar_json("-9223372036854775808", true) == boost::json::value(INT64_MIN));
    BOOST_TEST(frontmatter::number_text(mcp::scalar_json("99999999999999999999", true)) == "99999999999999999999");
    BOOST_TEST(frontmatter::number_text(mcp::scalar_json("-00099999999999999999999", true)) == "-99999999999999999999");
    BOOST_TEST(frontmatter::number_text(mcp::scalar_json("0x10000000000000000", true)) == "18446744073709551616");
    BOOST_TEST(frontmatter::number_text(mcp::scalar_json("0o2000000000000000000000", true)) == "18446744073709551616");
    double const inf = std::numeric_limits<double>::infinity();
    BOOST_TEST(mcp::scalar_json(".inf", true) == boost::json::value(inf));
    BOOST_TEST(mcp::scalar_json("-.Inf", true) == boost::json::value(-inf));
    BOOST_TEST(mcp::scalar_json("+.INF", true) == boost::json::value(inf));
    BOOST_TEST(mcp::scalar_json(".inf", false) == boost::json::value(".inf"));
    BOOST_TEST(std::isnan(mcp::scalar_json(".NaN", true).as_double()));
    BOOST_TEST(mcp::scalar_json("1e999", true) == boost::json::value(inf)); // too large for a double
    BOOST_TEST(mcp::scalar_json("-1e999", true) == boost::json::value(-inf));
    BOOST_TEST(mcp::scalar_json("1e-999", true) == boost::json::value(0.0));
    BOOST_TEST(mcp::scalar_json("0.000e999", true) == boost::json::value(0.0));
    BOOST_TEST(mcp::scalar_json("1e5", true) == boost::json::value(100000.0));
    BOOST_TEST(mcp::scalar_json("1.", true) == boost::json::value(1.0));
    for (std::string_view text : {"1_000", "12:30", "1e", "e5", ".", "0x", "+0o7", ".Nan", "-.nan", "0b101"})
        BOOST_TEST(mcp::scalar_json(text, true) == boost::json::value(text), text);
}

// The entry carries every value as the JSON a YAML 1.2 loader gives: integers of any
// size digit for digit, infinities as `1e999`; what JSON cannot carry (NaN) keeps the
// skill out, said why. A strict JSON reader takes the wire, and a host that reads the
// SKILL.md itself finds the same data.
BOOST_AUTO_TEST_CASE(entry_numbers_are_typed_as_a_loader_types_them_on_valid_json)
{
    std::string const md = "---\nname: n\ndescription: d\noctal: 0o17\nbig: 123456789012345678901234567890\n"
                           "neg: -99999999999999999999\nhuge: 1e999\ninf: -.inf\nhex: 0xFF\nlist: [0o10, .inf]\n---\n";
    std::string error;
    auto const fm = mcp::frontmatter_json(md, error);
    BOOST_TEST_REQUIRE(fm.has_value(), error);
    std::string const wire = mcp::json_text(*fm);
    BOOST_TEST(wire.find(R"("big":123456789012345678901234567890)") != std::string::npos, wire);
    BOOST_TEST(wire.find(R"("neg":-99999999999999999999)") != std::string::npos, wire);
    BOOST_TEST(wire.find(R"("huge":1e999)") != std::string::npos, wire);
    BOOST_TEST(wire.find(R"("inf":-1e999)") != std::string::npos, wire);
    BOOST_TEST(wire.find(R"("octal":15)") != std::string::npos, wire);
    BOOST_TEST(wire.find(R"("list":[8,1e999])") != std::string::npos, wire);
    BOOST_TEST(wire.find("Infinity") == std::string::npos, wire);
    boost::system::error_code ec;
    auto const peer = boost::json::parse(wire, ec); // what a host's JSON reader gets
    BOOST_TEST_REQUIRE(!ec, wire);
    BOOST_TEST(mcp::same_json(peer, *fm));
    BOOST_TEST(mcp::same_json(*fm, peer));
    BOOST_TEST(peer.at("huge").as_double() == std::numeric_limits<double>::infinity());
    auto other = peer;
    other.as_object()["big"] = 123456789012345678901234567891.0 * 2;
    BOOST_TEST(!mcp::same_json(other, *fm));
    // Written back as a SKILL.md head (the host's record), it reads as the same data.
    std::string back_error;
    auto const back = mcp::frontmatter_json(mcp::frontmatter_text(peer.as_object()), back_error);
    BOOST_TEST_REQUIRE(back.has_value(), back_error);
    BOOST_TEST(mcp::same_json(*back, peer));

    BOOST_TEST(!mcp::frontmatter_json("---\nname: n\ndescription: d\nx: .nan\n---\n", error).has_value());
    BOOST_TEST(error.find(".nan") != std::string::npos, error);
    // Keys as loaders name them: typed plain keys written as their values, quoted keys as written.
    auto const keys = mcp::frontmatter_json("---\nname: n\ndescription: d\nmetadata:\n  0x10: a\n  TRUE: b\n  ~: c\n"
                                            "  '0x11': d\n  1.50: e\n  123456789012345678901234567890: f\n---\n", error);
    BOOST_TEST_REQUIRE(keys.has_value(), error);
    BOOST_TEST(mcp::json_text(keys->at("metadata")) ==
                   R"({"16":"a","true":"b","null":"c","0x11":"d","1.50":"e","123456789012345678901234567890":"f"})");
    BOOST_TEST(!mcp::frontmatter_json("---\nname: n\ndescription: d\nmetadata:\n  16: a\n  0x10: b\n---\n", error).has_value());
    BOOST_TEST(error.find("two keys a YAML loader reads as one") != std::string::npos, error);
    BOOST_TEST(!mcp::frontmatter_json("---\nname: n\ndescription: d \xff\n---\n", error).has_value());
    BOOST_TEST(error.find("UTF-8") != std::string::npos, error);
    // A string that looks like a marked number but for the mark's random part stays a string.
    boost::json::object forged{{"x", "\xff" "0000000000000000:5"}};
    BOOST_TEST(mcp::json_text(forged).find(":5}") == std::string::npos);
}

// The host builds a record from an entry alone: the JSON frontmatter written back as a
// SKILL.md head must read as the same JSON. Checked over every corpus file skillmd reads.
BOOST_AUTO_TEST_CASE(entry_frontmatter_reads_back_the_same_over_the_corpus, *needs_corpus())
{
    std::size_t checked = 0;
    for (auto const& file : skill_files(corpus_dir())) {
        std::string const text = slurp(file);
        auto const parts = frontmatter::split(text, "SKILL.md");
        if (!parts.has_frontmatter) continue;
        auto const parsed = frontmatter::x3_parser{}.parse(parts.frontmatter, "SKILL.md", parts.frontmatter_line);
        if (!parsed.ok() || parsed.doc->empty() || !parsed.doc->root().is_mapping()) continue;
        bool ok = true;
        auto const fm = mcp::to_json(parsed.doc->root(), ok).as_object();
        if (!ok) continue; // `.nan`: not carried
        std::string const head = mcp::frontmatter_text(fm);
        auto const back = frontmatter::x3_parser{}.parse(frontmatter::split(head, "SKILL.md").frontmatter, "SKILL.md", 2);
        BOOST_TEST_REQUIRE(back.ok(), file.string() << "\n" << head);
        BOOST_TEST(mcp::same_json(mcp::to_json(back.doc->root(), ok), fm), file.string() << "\n" << head);
        ++checked;
    }
    BOOST_TEST(checked > 800u);
    BOOST_TEST_MESSAGE(checked << " corpus frontmatters written from JSON and read back the same");
}

BOOST_AUTO_TEST_CASE(same_json_is_equality_of_json_data)
{
    using boost::json::parse;
    BOOST_TEST(mcp::same_json(parse(R"({"a":1,"b":[1,2.5,"x"]})"), parse(R"({"b":[1.0,2.5,"x"],"a":1})")));
    BOOST_TEST(mcp::same_json(parse("31"), boost::json::value(31u)));
    BOOST_TEST(!mcp::same_json(parse(R"({"a":1})"), parse(R"({"a":"1"})")));
    BOOST_TEST(!mcp::same_json(parse(R"({"a":1})"), parse(R"({"a":1,"b":null})")));
    BOOST_TEST(!mcp::same_json(parse("[1,2]"), parse("[2,1]")));
    BOOST_TEST(!mcp::same_json(parse("null"), parse("false")));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(mcp_server)

// Whatever arrives, the server answers with a JSON-RPC error or nothing; it never throws.
BOOST_AUTO_TEST_CASE(malformed_messages_get_errors)
{
    temp_dir t;
    write(t / "skills/a/SKILL.md", "---\nname: a\ndescription: A\n---\nbody\n");
    auto agent = user_skills(t);
    agent.load();
    mcp::server_options o;
    o.max_message_bytes = 1000;
    mcp::server<decltype(agent)> srv(agent, o);

    BOOST_TEST(error_code(srv.handle("{not json")) == -32700);
    BOOST_TEST(error_code(srv.handle("[]")) == -32600);
    BOOST_TEST(error_code(srv.handle("42")) == -32600);
    BOOST_TEST(error_code(srv.handle(R"({"jsonrpc":"2.0","id":{"a":1},"method":"ping"})")) == -32600);
    BOOST_TEST(error_code(srv.handle(R"({"jsonrpc":"1.0","id":1,"method":"ping"})")) == -32600);
    BOOST_TEST(error_code(srv.handle(R"({"jsonrpc":"2.0","id":1,"method":"ping","params":[1]})")) == -32602);
    BOOST_TEST(error_code(srv.handle(R"({"jsonrpc":"2.0","id":1,"method":"tools/call"})")) == -32601);
    BOOST_TEST(error_code(srv.handle(std::string(2000, ' '))) == -32600);
    // Before `initialize` only it and `ping` are served; an id without a method is answered.
    BOOST_TEST(error_code(srv.handle(R"({"jsonrpc":"2.0","id":1,"method":"skills/list"})")) == -32002);
    BOOST_TEST(error_code(srv.handle(R"({"jsonrpc":"2.0","id":9})")) == -32600);
    BOOST_TEST(!srv.handle(R"({"jsonrpc":"2.0","id":1,"method":"ping"})").empty());
    srv.handle(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}})");
    BOOST_TEST(error_code(srv.handle(R"({"jsonrpc":"2.0","id":1,"method":"skills/list","params":{"cursor":"99"}})")) == -32602);
    BOOST_TEST(error_code(srv.handle(R"({"jsonrpc":"2.0","id":1,"method":"skills/list","params":{"cursor":7}})")) == -32602);
    BOOST_TEST(error_code(srv.handle(R"({"jsonrpc":"2.0","id":1,"method":"resources/read","params":{}})")) == -32602);
    BOOST_TEST(error_code(srv.handle(R"({"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":5}})")) == -32602);
    BOOST_TEST(srv.handle(R"({"jsonrpc":"2.0","method":"notifications/initialized"})").empty());
    BOOST_TEST(srv.handle(R"({"jsonrpc":"2.0","id":3,"result":{}})").empty()); // a response: nothing to answer

    auto const init = reply(srv.handle(R"({"jsonrpc":"2.0","id":"x","method":"initialize","params":{"protocolVersion":"2025-06-18"}})"));
    BOOST_TEST(init.at("id") == boost::json::value("x"));
    BOOST_TEST(init.at("result").at("protocolVersion") == boost::json::value("2025-06-18"));
    auto const list = reply(srv.handle(R"({"jsonrpc":"2.0","id":2,"method":"skills/list"})"));
    BOOST_TEST(list.at("result").at("skills").as_array().size() == 1u);
    BOOST_TEST(list.at("result").at("skills").at(0).at("uri") == boost::json::value("skill://a/SKILL.md"));
    BOOST_TEST(!srv.changes().has_value());
    write(t / "skills/b/SKILL.md", "---\nname: b\ndescription: B\n---\n");
    BOOST_TEST(srv.changes().has_value());
    BOOST_TEST(!srv.changes().has_value());
}

// A bundled file made, removed or resized, in the skill's folder or one below it, changes
// no SKILL.md: resources/list gives the files as they are, and changes() announces the
// files made or removed (a size alone is listed, not news).
BOOST_AUTO_TEST_CASE(bundled_files_made_or_removed_change_the_resources_listed)
{
    temp_dir t;
    write(t / "skills/a/SKILL.md", "---\nname: a\ndescription: A\n---\nbody\n");
    write(t / "skills/a/scripts/run.sh", "echo\n");
    auto agent = user_skills(t);
    agent.load();
    mcp::server_options o;
    o.files_recheck_ms = 0;
    mcp::server<decltype(agent)> srv(agent, o);
    srv.handle(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}})");
    auto const uris = [&] {
        std::set<std::string> out;
        auto const r = reply(srv.handle(R"({"jsonrpc":"2.0","id":1,"method":"resources/list"})"));
        for (auto const& res : r.at("result").at("resources").as_array())
            out.insert(std::string(res.at("uri").as_string()) + " " + std::to_string(res.at("size").to_number<std::uint64_t>()));
        return out;
    };
    BOOST_TEST(uris() == (std::set<std::string>{"skill://a/SKILL.md 36", "skill://a/scripts/run.sh 5"}));
    BOOST_TEST(!srv.changes().has_value());
    write(t / "skills/a/scripts/deep/more.py", "print(1)\n");
    BOOST_TEST(srv.changes().has_value());
    BOOST_TEST(!srv.changes().has_value());
    // The listing announced is kept: a file made after it is news, listed or not.
    write(t / "skills/a/scripts/deep/other.py", "print(2)\n");
    BOOST_TEST(srv.changes().has_value());
    fs::remove(t / "skills/a/scripts/deep/other.py");
    BOOST_TEST(srv.changes().has_value());
    BOOST_TEST(uris() == (std::set<std::string>{"skill://a/SKILL.md 36", "skill://a/scripts/deep/more.py 9", "skill://a/scripts/run.sh 5"}));
    write(t / "skills/a/scripts/deep/more.py", "print(12)\n"); // a size changed: listed, not news
    BOOST_TEST(!srv.changes().has_value());
    BOOST_TEST(uris() == (std::set<std::string>{"skill://a/SKILL.md 36", "skill://a/scripts/deep/more.py 10", "skill://a/scripts/run.sh 5"}));
    fs::remove(t / "skills/a/scripts/run.sh");
    BOOST_TEST(srv.changes().has_value());
    BOOST_TEST(uris() == (std::set<std::string>{"skill://a/SKILL.md 36", "skill://a/scripts/deep/more.py 10"}));
    // A skill edited is announced once, not again for the files it lists.
    write(t / "skills/a/SKILL.md", "---\nname: a\ndescription: A2\n---\nbody\n");
    BOOST_TEST(srv.changes().has_value());
    BOOST_TEST(!srv.changes().has_value());
    BOOST_TEST(uris() == (std::set<std::string>{"skill://a/SKILL.md 37", "skill://a/scripts/deep/more.py 10"}));
    fs::remove_all(t / "skills/a/scripts");
    BOOST_TEST(srv.changes().has_value());
    BOOST_TEST(uris() == (std::set<std::string>{"skill://a/SKILL.md 37"}));
    // Not listed again before its time.
    o.files_recheck_ms = 3600 * 1000;
    mcp::server<decltype(agent)> slow(agent, o);
    slow.handle(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}})");
    slow.handle(R"({"jsonrpc":"2.0","id":1,"method":"resources/list"})");
    write(t / "skills/a/notes.md", "notes\n");
    BOOST_TEST(!slow.changes().has_value());
    BOOST_TEST(srv.changes().has_value());
}

// A skill over the extension's limits is left out of the listing, and skills/get says why.
BOOST_AUTO_TEST_CASE(skills_over_the_limits_are_not_served)
{
    temp_dir t;
    write(t / "skills/huge/SKILL.md", "---\nname: huge\ndescription: too many files\n---\n");
    for (int i = 0; i < 520; ++i) write(t / ("skills/huge/data/f" + std::to_string(i)), "x");
    write(t / "skills/ok/SKILL.md", "---\nname: ok\ndescription: fine\n---\n");
    auto agent = user_skills(t);
    agent.load();
    mcp::server<decltype(agent)> srv(agent);
    srv.handle(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}})");
    auto const list = reply(srv.handle(R"({"jsonrpc":"2.0","id":1,"method":"skills/list"})"));
    BOOST_TEST(list.at("result").at("skills").as_array().size() == 1u);
    BOOST_TEST(error_code(srv.handle(R"({"jsonrpc":"2.0","id":2,"method":"skills/get","params":{"uri":"skill://huge/SKILL.md"}})")) ==
               -32603);
}

namespace {
/// A request of the stateless revision, as the conformance suite's client sends it.
std::string stateless(std::string const& method, boost::json::object params = {}, std::string version = "2026-07-28",
                      std::int64_t id = 7)
{
    params["_meta"] = boost::json::object{{"io.modelcontextprotocol/protocolVersion", version},
                                          {"io.modelcontextprotocol/clientCapabilities", boost::json::object{}}};
    return boost::json::serialize(boost::json::object{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}});
}
mcp::request_context over_http(std::string const& method, std::string version = "2026-07-28")
{
    mcp::request_context c;
    c.http = true;
    c.protocol_version = std::move(version);
    c.method = method;
    return c;
}
} // namespace

// 2026-07-28 is stateless: no `initialize` first, the revision in each request's `_meta`
// (and over HTTP in its headers, which must agree), `server/discover` to learn the
// server, `resultType` on every result and cache hints on every list; each refusal with
// its code and HTTP status.
BOOST_AUTO_TEST_CASE(the_stateless_revision_needs_no_session)
{
    temp_dir t;
    write(t / "skills/s/SKILL.md", "---\nname: s\ndescription: S\n---\nbody\n");
    write(t / "skills/s/ref/a.md", "a\n");
    auto agent = user_skills(t);
    agent.load();
    mcp::server<decltype(agent)> srv(agent);
    // Without `initialize`, over stdio and over HTTP.
    auto const disc = reply(srv.handle(stateless("server/discover")));
    auto const& d = disc.at("result").as_object();
    BOOST_TEST(d.at("resultType") == "complete");
    BOOST_TEST(d.at("supportedVersions").as_array().at(0) == "2026-07-28");
    BOOST_TEST(d.at("ttlMs").is_int64());
    BOOST_TEST(d.at("cacheScope") == "public");
    BOOST_TEST(d.at("capabilities").at("extensions").at("io.modelcontextprotocol/skills").at("directoryRead") == true);
    BOOST_TEST(d.at("capabilities").at("resources").as_object().empty()); // no session: no list_changed to send
    BOOST_TEST(d.at("_meta").at("io.modelcontextprotocol/serverInfo").at("name") == "skillmd");
    for (std::string method : {"skills/list", "resources/list", "resources/templates/list", "tools/list", "prompts/list"}) {
        auto const r = srv.respond(stateless(method), over_http(method));
        BOOST_TEST(r.status == 200u, method);
        auto const o = reply(r.messages);
        auto const& res = o.at("result").as_object();
        BOOST_TEST(res.at("resultType") == "complete", method);
        BOOST_TEST(res.contains("ttlMs"), method);
        BOOST_TEST(res.contains("cacheScope"), method);
    }
    auto const dir = srv.respond(stateless("resources/directory/read", {{"uri", "skill://s"}}), over_http("resources/directory/read"));
    BOOST_TEST(reply(dir.messages).at("result").at("resultType") == "complete");
    auto read_ctx = over_http("resources/read");
    read_ctx.name = "skill://s/SKILL.md";
    auto const read = srv.respond(stateless("resources/read", {{"uri", "skill://s/SKILL.md"}}), read_ctx);
    BOOST_TEST(reply(read.messages).at("result").at("contents").at(0).at("text").as_string().starts_with("---"));

    // Refusals, in the order the revision checks them.
    auto const refusal = [&](std::string const& message, mcp::request_context const& ctx) {
        auto const r = srv.respond(message, ctx);
        auto const o = reply(r.messages);
        BOOST_TEST_REQUIRE(o.contains("error"), r.messages.front());
        BOOST_TEST(o.at("id") == 7); // the request's id, always
        return std::pair{o.at("error").at("code").as_int64(), r.status};
    };
    std::string const bare = R"({"jsonrpc":"2.0","id":7,"method":"server/discover","params":{}})";
    BOOST_TEST((refusal(bare, over_http("server/discover")) == std::pair<std::int64_t, unsigned>{-32602, 400}));
    std::string const no_caps =
        R"({"jsonrpc":"2.0","id":7,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}})";
    BOOST_TEST((refusal(no_caps, over_http("server/discover")) == std::pair<std::int64_t, unsigned>{-32602, 400}));
    BOOST_TEST((refusal(stateless("server/discover", {}, "v999"), over_http("server/discover")) ==
                std::pair<std::int64_t, unsigned>{-32020, 400})); // the header says 2026-07-28
    BOOST_TEST((refusal(stateless("skills/list"), over_http("skills/get")) == std::pair<std::int64_t, unsigned>{-32020, 400}));
    auto wrong_name = read_ctx;
    wrong_name.name = "skill://other/SKILL.md";
    BOOST_TEST((refusal(stateless("resources/read", {{"uri", "skill://s/SKILL.md"}}), wrong_name) ==
                std::pair<std::int64_t, unsigned>{-32020, 400}));
    auto const unsupported = srv.respond(stateless("server/discover", {}, "v999"), over_http("server/discover", "v999"));
    BOOST_TEST(unsupported.status == 400u);
    auto const u = reply(unsupported.messages).at("error").as_object();
    BOOST_TEST(u.at("code") == -32022);
    BOOST_TEST(u.at("data").at("requested") == "v999");
    BOOST_TEST(u.at("data").at("supported").as_array().at(0) == "2026-07-28");
    for (std::string method : {"initialize", "ping", "logging/setLevel", "resources/subscribe", "unknown/method"})
        BOOST_TEST((refusal(stateless(method), over_http(method)) == std::pair<std::int64_t, unsigned>{-32601, 404}), method);
    // Over stdio the same request needs no headers; an unknown resource says which.
    auto const missing = reply(srv.handle(stateless("resources/read", {{"uri", "skill://s/nothing.md"}})));
    BOOST_TEST(missing.at("error").at("code") == -32602);
    BOOST_TEST(missing.at("error").at("data").at("uri") == "skill://s/nothing.md");
}

// Skills that are not folders: a database row and a files layout's `NAME.md` are each
// served as one SKILL.md, never with the folder around them, even when a `SKILL.md` link
// in that folder makes the file look like a skill folder's; one over the size cap is not
// served at all.
BOOST_AUTO_TEST_CASE(one_file_and_database_skills_are_served_as_their_skill_md_alone)
{
    temp_dir t;
    write(t / "files/skill.md", "---\nname: skill\ndescription: The one file\ntriggers: [x]\n---\nOne file.\n");
    write(t / "files/secret.txt", "TOPSECRET\n");
    write(t / "files/sub/inner.txt", "inner\n");
    fs::create_symlink("skill.md", t / "files/SKILL.md");
    presets::locations at;
    at.home = t / "home";
    at.project = t / "none";
    at.overrides["user"] = (t / "files").string();
    at.overrides["db"] = (t / "db.sqlite").string();
    auto agent = presets::make_koshi(at);
    agent.load();
    db_skill row_skill;
    row_skill.name = "row";
    row_skill.description = "A database skill";
    row_skill.triggers = {"row"};
    row_skill.content = "Row body.";
    auto const created = presets::create_skill(agent, row_skill);
    BOOST_TEST_REQUIRE(created.ok(), created.message);
    mcp::server<decltype(agent)> srv(agent);
    srv.handle(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}})");
    auto const listed = reply(srv.handle(R"({"jsonrpc":"2.0","id":1,"method":"resources/list","params":{}})"));
    std::vector<std::string> uris;
    for (auto const& r : listed.at("result").at("resources").as_array()) uris.emplace_back(r.at("uri").as_string());
    BOOST_TEST(uris == (std::vector<std::string>{"skill://row/SKILL.md", "skill://skill/SKILL.md"}), boost::test_tools::per_element());
    auto const read = reply(srv.handle(R"({"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"skill://skill/SKILL.md"}})"));
    BOOST_TEST(read.at("result").at("contents").at(0).at("text").as_string().find("One file.") != std::string::npos);
    for (std::string const uri : {"skill://skill/secret.txt", "skill://skill/sub/inner.txt", "skill://row/other.md"})
        BOOST_TEST(error_code(srv.handle(R"({"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":")" + uri + R"("}})")) == -32602, uri);
    auto const row = reply(srv.handle(R"({"jsonrpc":"2.0","id":4,"method":"skills/get","params":{"uri":"skill://row/SKILL.md"}})"));
    BOOST_TEST(row.at("result").at("skill").at("frontmatter").at("description") == "A database skill");
    BOOST_TEST(row.at("result").at("skill").at("resources").as_array().size() == 1u);
    // A text over the cap is left out, said why.
    std::vector<std::string> skipped;
    auto const served = mcp::served(*agent.snapshot(), &skipped, [](skill_record const&) {
        return std::optional<std::string>(std::string(mcp::max_skill_bytes + 1, 'x'));
    });
    BOOST_TEST(served.empty());
    BOOST_TEST(skipped.size() == 2u);
    for (auto const& why : skipped) BOOST_TEST(why.find("is over 16777216 bytes") != std::string::npos, why);
}

// The streamable HTTP endpoint: what reaches the server and what it refuses first.
BOOST_AUTO_TEST_CASE(the_http_endpoint_takes_one_post_with_its_headers_once)
{
    temp_dir t;
    write(t / "skills/s/SKILL.md", "---\nname: s\ndescription: S\n---\nbody\n");
    auto agent = user_skills(t);
    agent.load();
    mcp::server<decltype(agent)> srv(agent);
    int refreshed = 0;
    auto endpoint = mcp::http_endpoint(srv, [&] { ++refreshed; });
    auto const call = [&](std::string method, std::string target, std::vector<std::pair<std::string, std::string>> headers,
                          std::string body) {
        net::http_request r;
        r.method = std::move(method);
        r.target = std::move(target);
        r.headers = std::move(headers);
        r.body = std::move(body);
        return endpoint(r);
    };
    std::string const list = stateless("skills/list");
    std::vector<std::pair<std::string, std::string>> const ok{
        {"content-type", "Application/JSON; charset=utf-8"}, {"Accept", "application/json, text/event-stream"},
        {"MCP-Protocol-Version", " 2026-07-28 "}, {"Mcp-Method", "skills/list"}};
    auto r = call("POST", "/mcp?x=1", ok, list);
    BOOST_TEST(r.status == 200u);
    BOOST_TEST(r.content_type == "application/json");
    BOOST_TEST(boost::json::parse(r.body).at("result").at("skills").as_array().size() == 1u);
    BOOST_TEST(refreshed == 1);
    BOOST_TEST(call("POST", "/other", ok, list).status == 404u);
    BOOST_TEST(call("GET", "/mcp", ok, "").status == 405u);
    BOOST_TEST(call("DELETE", "/mcp", ok, "").status == 405u);
    BOOST_TEST(call("POST", "/mcp", {{"Content-Type", "text/plain"}}, list).status == 415u);
    auto q0 = ok;
    q0[1].second = "application/json;q=0, text/html";
    BOOST_TEST(call("POST", "/mcp", q0, list).status == 406u);
    for (std::string twice : {"Content-Type", "mcp-protocol-version", "Mcp-Method", "Mcp-Name"}) {
        auto dup = ok;
        dup.emplace_back(twice, twice == "Content-Type" ? "application/json" : "x");
        dup.emplace_back(twice, "y");
        BOOST_TEST(call("POST", "/mcp", dup, list).status == 400u, twice);
    }
    BOOST_TEST(refreshed == 1); // none of those reached the server
    // A header naming one revision and a body naming another: refused, whichever they are.
    auto older = ok;
    older[2].second = "2025-11-25";
    r = call("POST", "/mcp", older, list);
    BOOST_TEST(r.status == 400u);
    BOOST_TEST(boost::json::parse(r.body).at("error").at("code") == -32020);
    // `Mcp-Name` is required of resources/read, and only of the methods that name a target.
    auto read = ok;
    read[3].second = "resources/read";
    std::string const read_body = stateless("resources/read", {{"uri", "skill://s/SKILL.md"}});
    BOOST_TEST(call("POST", "/mcp", read, read_body).status == 400u);
    read.emplace_back("Mcp-Name", "skill://s/SKILL.md");
    BOOST_TEST(call("POST", "/mcp", read, read_body).status == 200u);
    auto get = ok;
    get[3].second = "skills/get";
    get.emplace_back("Mcp-Name", "whatever");
    BOOST_TEST(call("POST", "/mcp", get, stateless("skills/get", {{"uri", "skill://s/SKILL.md"}})).status == 200u);
}

// A nested skill's files are files of the skill around it too: a file that only the
// outer skill's listing holds (a link leaving the inner folder, not the outer) is read.
BOOST_AUTO_TEST_CASE(a_file_the_outer_skill_lists_is_read_through_it)
{
    temp_dir t;
    write(t / "skills/good/SKILL.md", "---\nname: good\ndescription: Outer\n---\nbody\n");
    write(t / "skills/good/a.txt", "outer file\n");
    write(t / "skills/good/sub/SKILL.md", "---\nname: sub\ndescription: Inner\n---\nbody\n");
    fs::create_symlink("../a.txt", t / "skills/good/sub/a-up.txt");
    auto agent = user_skills(t);
    agent.load();
    mcp::server<decltype(agent)> srv(agent);
    srv.handle(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}})");
    auto const listed = srv.handle(R"({"jsonrpc":"2.0","id":1,"method":"resources/list"})");
    BOOST_TEST(listed.front().find("skill://good/sub/a-up.txt") != std::string::npos);
    auto const read = reply(srv.handle(R"({"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"skill://good/sub/a-up.txt"}})"));
    BOOST_TEST_REQUIRE(read.contains("result"), boost::json::serialize(read));
    BOOST_TEST(read.at("result").at("contents").at(0).at("text") == "outer file\n");
    BOOST_TEST(error_code(srv.handle(R"({"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"skill://good/sub"}})")) == -32602);
}

// The earlier revisions keep their lifecycle over stdio; over HTTP (no session) each
// request stands alone. `initialize` never offers 2026-07-28, which has no `initialize`;
// `ping` is `{}`; errors there are HTTP 200 and notifications 202.
BOOST_AUTO_TEST_CASE(the_session_revisions_keep_their_lifecycle)
{
    temp_dir t;
    write(t / "skills/s/SKILL.md", "---\nname: s\ndescription: S\n---\nbody\n");
    auto agent = user_skills(t);
    agent.load();
    mcp::server<decltype(agent)> srv(agent);
    std::string const list = R"({"jsonrpc":"2.0","id":1,"method":"skills/list"})";
    BOOST_TEST(error_code(srv.handle(list)) == -32002);
    auto const init = reply(srv.handle(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2026-07-28"}})"));
    BOOST_TEST(init.at("result").at("protocolVersion") == "2025-11-25");
    BOOST_TEST(init.at("result").at("capabilities").at("resources").at("listChanged") == true);
    BOOST_TEST(reply(srv.handle(list)).at("result").at("skills").as_array().size() == 1u);
    BOOST_TEST(reply(srv.handle(R"({"jsonrpc":"2.0","id":2,"method":"ping"})")).at("result").as_object().empty());

    mcp::server<decltype(agent)> fresh(agent);
    mcp::request_context http;
    http.http = true; // the SDK's first request carries no version header
    auto const r = fresh.respond(list, http);
    BOOST_TEST(r.status == 200u);
    BOOST_TEST(reply(r.messages).at("result").at("skills").as_array().size() == 1u);
    http.protocol_version = "2025-11-25";
    auto const init_http = reply(fresh.respond(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}})", http).messages);
    BOOST_TEST(!init_http.at("result").at("capabilities").at("resources").as_object().contains("listChanged"));
    auto const note = fresh.respond(R"({"jsonrpc":"2.0","method":"notifications/initialized"})", http);
    BOOST_TEST(note.messages.empty());
    BOOST_TEST(note.status == 202u);
    auto const bad = fresh.respond(R"({"jsonrpc":"2.0","id":3,"method":"skills/get","params":{"uri":"skill://none/SKILL.md"}})", http);
    BOOST_TEST(bad.status == 200u);
    BOOST_TEST(error_code(bad.messages) == -32602);
    BOOST_TEST(fresh.respond("{not json", http).status == 400u);
}

// The extension serves only skills whose names follow the Agent Skills rules: the others
// are said to be left out, and asking for them is -32602, as for anything not served.
BOOST_AUTO_TEST_CASE(only_names_that_follow_the_naming_rules_are_served)
{
    temp_dir t;
    for (std::string name : {"Bad_Name", "double--hyphen", "-edge", "ok-name", "caf\xc3\xa9", "UPPER"})
        write(t / "skills" / name / "SKILL.md", "---\nname: " + name + "\ndescription: D\n---\n");
    presets::locations at;
    at.home = t / "none";
    at.project = t / "none";
    at.overrides["user"] = (t / "skills").string();
    auto agent = presets::make_claude_code(at); // a dialect that takes all of these names
    agent.load();
    std::vector<std::string> skipped;
    std::vector<std::string> paths;
    for (auto const& s : mcp::served(*agent.snapshot(), &skipped)) paths.push_back(s.path);
    BOOST_TEST(paths == (std::vector<std::string>{"caf\xc3\xa9", "ok-name"}), boost::test_tools::per_element());
    BOOST_TEST(skipped.size() == 4u);
    for (auto const& why : skipped) BOOST_TEST(why.find("naming rules") != std::string::npos, why);
    mcp::server<decltype(agent)> srv(agent);
    srv.handle(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}})");
    BOOST_TEST(error_code(srv.handle(R"({"jsonrpc":"2.0","id":1,"method":"skills/get","params":{"uri":"skill://Bad_Name/SKILL.md"}})")) == -32602);
    BOOST_TEST(error_code(srv.handle(R"({"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"skill://double--hyphen/SKILL.md"}})")) == -32602);
}

// A file has one MIME type wherever it is named, whatever its bytes: the listing does not
// read them, so the type comes from the name alone.
BOOST_AUTO_TEST_CASE(a_file_has_one_mime_type_everywhere)
{
    temp_dir t;
    write(t / "skills/m/SKILL.md", "---\nname: m\ndescription: D\n---\n");
    write(t / "skills/m/data.bin", std::string("\0\x01\x02binary", 9));
    write(t / "skills/m/NOTES", "plain text\n");
    write(t / "skills/m/logo.PNG", "not really a png\n");
    write(t / "skills/m/ref/guide.md", "# Guide\n");
    auto agent = user_skills(t);
    agent.load();
    mcp::server<decltype(agent)> srv(agent);
    srv.handle(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}})");
    auto const list = reply(srv.handle(R"({"jsonrpc":"2.0","id":1,"method":"resources/list"})"));
    std::map<std::string, std::string> listed;
    for (auto const& r : list.at("result").at("resources").as_array())
        listed[std::string(r.at("uri").as_string())] = std::string(r.at("mimeType").as_string());
    BOOST_TEST(listed.at("skill://m/SKILL.md") == "text/markdown");
    BOOST_TEST(listed.at("skill://m/data.bin") == "application/octet-stream");
    BOOST_TEST(listed.at("skill://m/NOTES") == "application/octet-stream");
    BOOST_TEST(listed.at("skill://m/logo.PNG") == "image/png");
    int id = 2;
    for (auto const& [uri, type] : listed) {
        auto const read = reply(srv.handle(boost::json::serialize(boost::json::object{
            {"jsonrpc", "2.0"}, {"id", id++}, {"method", "resources/read"}, {"params", boost::json::object{{"uri", uri}}}})));
        BOOST_TEST(read.at("result").at("contents").at(0).at("mimeType").as_string() == type, uri);
    }
    auto const dir = reply(srv.handle(R"({"jsonrpc":"2.0","id":90,"method":"resources/directory/read","params":{"uri":"skill://m"}})"));
    for (auto const& r : dir.at("result").at("resources").as_array())
        if (auto const it = listed.find(std::string(r.at("uri").as_string())); it != listed.end())
            BOOST_TEST(r.at("mimeType").as_string() == it->second);
}

// A file name that is not UTF-8 reaches a reply as U+FFFD: every reply stays JSON a
// strict reader takes (Boost.JSON refuses invalid UTF-8), and the URI stays exact.
BOOST_AUTO_TEST_CASE(names_that_are_not_utf8_leave_replies_valid_json)
{
    temp_dir t;
    write(t / "skills/g/SKILL.md", "---\nname: g\ndescription: G\n---\nbody\n");
    write(t / "skills/g/f\xfe.txt", "x");
    auto agent = user_skills(t);
    agent.load();
    mcp::server<decltype(agent)> srv(agent);
    srv.handle(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}})");
    for (auto const* request : {R"({"jsonrpc":"2.0","id":1,"method":"resources/list"})",
                                R"({"jsonrpc":"2.0","id":2,"method":"resources/directory/read","params":{"uri":"skill://g/"}})"}) {
        auto const out = srv.handle(request);
        BOOST_TEST_REQUIRE(out.size() == 1u);
        boost::system::error_code ec;
        boost::json::parse(out.front(), ec);
        BOOST_TEST(!ec, request << ": " << out.front());
        BOOST_TEST(out.front().find("f\xfe") == std::string::npos);
    }
    BOOST_TEST(skillmd::detail::escape_hidden_in_json("{\"a\":\"x\xff\xc3\"}") == "{\"a\":\"x\\ufffd\\ufffd\"}");
}

BOOST_AUTO_TEST_SUITE_END()
