// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
//
// skillmd/mcp: digests (the discovery RFC's worked example), URIs, frontmatter as JSON,
// and the server's answers to malformed and hostile messages. The server end to end,
// driven by the official MCP TypeScript SDK, is tests/mcp/sdk_client.mjs.

#include "../support/test_support.hpp"

#include <skillmd/mcp.hpp>
#include <skillmd/presets/systems.hpp>
#include <skillmd/frontmatter/split.hpp>
#include <skillmd/frontmatter/x3_parser.hpp>

#include <boost/json/parse.hpp>
#include <boost/test/unit_test.hpp>

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
    BOOST_TEST(mcp::rfc_skill_digest(m.files) == "sha256:34f7a8c484e9991f3e71a309f31332d6335efc01f544105c4185a7c4ab12eb1e");
    // The order the files come in does not matter.
    std::vector<mcp::file_digest> reversed(m.files.rbegin(), m.files.rend());
    BOOST_TEST(mcp::rfc_skill_digest(reversed) == mcp::rfc_skill_digest(m.files));
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
    BOOST_TEST(mcp::scalar_json("99999999999999999999", true) == boost::json::value("99999999999999999999"));
    BOOST_TEST(mcp::scalar_json(".inf", true) == boost::json::value(".inf"));
    BOOST_TEST(mcp::scalar_json("yes", true) == boost::json::value("yes")); // YAML 1.2: a string
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
        auto const fm = mcp::to_json(parsed.doc->root()).as_object();
        std::string const head = mcp::frontmatter_text(fm);
        auto const back = frontmatter::x3_parser{}.parse(frontmatter::split(head, "SKILL.md").frontmatter, "SKILL.md", 2);
        BOOST_TEST_REQUIRE(back.ok(), file.string() << "\n" << head);
        BOOST_TEST(mcp::same_json(mcp::to_json(back.doc->root()), fm), file.string() << "\n" << head);
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
    presets::locations at;
    at.home = t / "none";
    at.project = t / "none";
    at.overrides["user"] = (t / "skills").string();
    auto agent = presets::make_agent_skills(at);
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
