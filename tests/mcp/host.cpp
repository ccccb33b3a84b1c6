// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
//
// The host side of skillmd/mcp: a registry with MCP tiers, against `skillmd mcp`, against
// a server built on the official MCP TypeScript SDK (sdk_server.mjs), and against servers
// that misbehave on purpose (hostile_server.mjs).

#include "../support/test_support.hpp"

#include <skillmd/mcp.hpp>
#include <skillmd/frontmatter/x3_parser.hpp>
#include <skillmd/storage.hpp>

#include <boost/test/unit_test.hpp>

#include <chrono>
#include <csignal>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

using namespace skillmd;
using namespace skillmd::test;
namespace fs = std::filesystem;

namespace {

std::string const cli = SKILLMD_TEST_CLI;
std::string const node = SKILLMD_TEST_NODE;
std::string const scripts = SKILLMD_TEST_MCP_DIR;

std::vector<std::string> skillmd_server(fs::path const& skills, fs::path const& empty)
{
    return {cli, "mcp", "--preset", "agent-skills", "--dir", "user=" + skills.string(), "--dir", "project=" + empty.string()};
}

std::vector<std::string> hostile(std::string const& mode) { return {node, scripts + "/hostile_server.mjs", mode}; }

/// Short limits, so the hostile cases end quickly.
mcp::source_options quick()
{
    mcp::source_options o;
    o.client.timeout = std::chrono::milliseconds(1500);
    o.client.max_message_bytes = 1024 * 1024;
    o.client.max_unrelated = 200;
    o.first_retry = std::chrono::milliseconds(50);
    return o;
}

bool has(std::vector<diagnostic> const& ds, std::string_view text)
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

std::vector<std::string> commands(discovery const& d)
{
    std::vector<std::string> out;
    for (auto const& c : d.skills) out.push_back(c.command);
    return out;
}

candidate const& by_command(discovery const& d, std::string const& command)
{
    for (auto const& c : d.skills)
        if (c.command == command) return c;
    BOOST_FAIL("no candidate " + command);
    return d.skills.front();
}

using registry = basic_registry<frontmatter::x3_parser, first_tier_wins, directory_source, mcp::source, mcp::source>;

} // namespace

BOOST_AUTO_TEST_SUITE(mcp_host)

// Two servers (skillmd's and one built on the SDK) and a folder of files, each serving a
// skill named `alpha`: three skills, each in its own namespace, none shadowing another.
BOOST_AUTO_TEST_CASE(a_registry_loads_each_server_in_its_own_namespace)
{
    temp_dir t;
    write(t / "local/alpha/SKILL.md", "---\nname: alpha\ndescription: The local alpha\n---\nLocal.\n");
    write(t / "served/alpha/SKILL.md", "---\nname: alpha\ndescription: Served by skillmd\n---\nServed alpha body.\n");
    write(t / "served/alpha/references/guide.md", "# Guide\n");
    write(t / "served/alpha/assets/logo.bin", std::string("\x89PNG\0\x01\xff", 7));
    write(t / "served/beta/SKILL.md", "---\nname: beta\ndescription: Beta\n---\nBeta.\n");
    write(t / "sdk/alpha/SKILL.md", "---\nname: alpha\ndescription: Served by the SDK\n---\nSDK alpha body.\n");
    write(t / "sdk/gamma/SKILL.md", "---\nname: gamma\ndescription: Gamma from the SDK\n---\nGamma.\n");
    write(t / "sdk/gamma/scripts/run.sh", "#!/bin/sh\necho gamma\n");
    fs::create_directories(t / "empty");

    registry reg(registry_options{}, directory_source("local", (t / "local").string()),
                 mcp::source("skillmd-server", "remote", skillmd_server(t / "served", t / "empty"), quick()),
                 mcp::source("sdk-server", "sdk", {node, scripts + "/sdk_server.mjs", (t / "sdk").string()}, quick()));
    reg.load();
    auto const snap = reg.snapshot();
    BOOST_TEST(all(snap->diagnostics()) == "");
    std::vector<std::string> got;
    for (auto const& r : snap->skills()) got.push_back(r.command + " " + r.tier + " " + r.meta.description);
    BOOST_TEST(got == (std::vector<std::string>{"alpha local The local alpha", "remote:alpha skillmd-server Served by skillmd",
                                                "remote:beta skillmd-server Beta", "sdk:alpha sdk-server Served by the SDK",
                                                "sdk:gamma sdk-server Gamma from the SDK"}),
               boost::test_tools::per_element());
    BOOST_TEST(snap->shadowed().empty());

    // Bodies and bundled files come through the server, checked against their digests.
    BOOST_TEST(*reg.body(*snap->find("remote:alpha")) == "Served alpha body.\n");
    BOOST_TEST(*reg.body(*snap->find("sdk:alpha")) == "SDK alpha body.\n");
    BOOST_TEST(reg.bundled_files(*snap->find("remote:alpha")) ==
                   (std::vector<std::string>{"assets/logo.bin", "references/guide.md"}),
               boost::test_tools::per_element());
    auto const& remote = reg.source<1>();
    auto const logo = remote.read_file(snap->find("remote:alpha")->where, "assets/logo.bin");
    BOOST_TEST_REQUIRE(logo.text.has_value(), logo.error);
    BOOST_TEST(*logo.text == std::string("\x89PNG\0\x01\xff", 7)); // a blob, decoded and verified
    auto const script = reg.source<2>().read_file(snap->find("sdk:gamma")->where, "scripts/run.sh");
    BOOST_TEST(script.text.value_or("") == "#!/bin/sh\necho gamma\n");
    BOOST_TEST(!remote.read_file(snap->find("remote:alpha")->where, "../beta/SKILL.md").text.has_value());

    // A refresh with nothing changed reads nothing again; a changed skill is read again.
    reg.refresh();
    BOOST_TEST(reg.snapshot()->find("remote:alpha") == snap->find("remote:alpha"));
    write(t / "served/beta/SKILL.md", "---\nname: beta\ndescription: Beta, edited\n---\nBeta.\n");
    reg.refresh();
    BOOST_TEST(reg.snapshot()->find("remote:beta")->meta.description == "Beta, edited");
    BOOST_TEST(reg.snapshot()->find("remote:alpha") == snap->find("remote:alpha"));
}

// A file that changes between the listing and the read no longer matches its digest:
// the read is refused, with the published digest in the message.
BOOST_AUTO_TEST_CASE(tampered_content_is_refused)
{
    temp_dir t;
    write(t / "served/alpha/SKILL.md", "---\nname: alpha\ndescription: A\n---\nBody.\n");
    fs::create_directories(t / "empty");
    mcp::source src("s", "remote", skillmd_server(t / "served", t / "empty"), quick());
    auto const d = src.discover();
    BOOST_TEST_REQUIRE(commands(d) == std::vector<std::string>{"remote:alpha"}, all(d.diagnostics));
    BOOST_TEST(src.read_all(d.skills[0]).text.has_value());
    write(t / "served/alpha/SKILL.md", "---\nname: alpha\ndescription: A\n---\nBody, changed behind the listing.\n");
    auto const r = src.read_all(d.skills[0]);
    BOOST_TEST(!r.text.has_value());
    BOOST_TEST(r.error.find("do not match its published digest (sha256:") != std::string::npos, r.error);

    // A server that sends other bytes than it published: text and blob alike. Loading
    // fetches nothing (the listing is enough, as the extension requires); the body, read
    // when the skill is used, is refused.
    mcp::source tamper("t", "evil", hostile("tamper"), quick());
    basic_registry<frontmatter::x3_parser, first_tier_wins, mcp::source> reg(registry_options{}, tamper);
    reg.load();
    BOOST_TEST_REQUIRE(reg.snapshot()->skills().size() == 1u, all(reg.snapshot()->diagnostics()));
    std::string error;
    BOOST_TEST(!reg.body(*reg.snapshot()->find("evil:good"), &error).has_value());
    BOOST_TEST(error.find("do not match its published digest") != std::string::npos, error);
    mcp::source blob("b", "evil", hostile("blob-tamper"), quick());
    auto const bd = blob.discover();
    BOOST_TEST_REQUIRE(bd.skills.size() == 1u, all(bd.diagnostics));
    BOOST_TEST(blob.read_all(bd.skills[0]).text.has_value());
    auto const data = blob.read_file(bd.skills[0], "data.bin");
    BOOST_TEST(!data.text.has_value());
    BOOST_TEST(data.error.find("do not match") != std::string::npos, data.error);
}

// The entry's frontmatter is what the index shows; a SKILL.md whose frontmatter differs
// (with a digest that matches) is refused when it is used. Permission keys from a server
// are never honoured.
BOOST_AUTO_TEST_CASE(frontmatter_is_verified_and_permissions_never_granted)
{
    mcp::source lie("l", "lie", hostile("frontmatter-lie"), quick());
    basic_registry<frontmatter::x3_parser, first_tier_wins, mcp::source> reg(registry_options{}, lie);
    reg.load();
    auto const* r = reg.snapshot()->find("lie:good");
    BOOST_TEST_REQUIRE(r != nullptr, all(reg.snapshot()->diagnostics()));
    BOOST_TEST(r->meta.description == "A harmless helper");
    std::string error;
    BOOST_TEST(!reg.body(*r, &error).has_value());
    BOOST_TEST(error.find("its frontmatter is not the one its entry published") != std::string::npos, error);

    mcp::source tools("a", "tools", hostile("allowed-tools"), quick());
    basic_registry<frontmatter::x3_parser, first_tier_wins, mcp::source> treg(registry_options{}, tools);
    treg.load();
    auto const* g = treg.snapshot()->find("tools:good");
    BOOST_TEST_REQUIRE(g != nullptr, all(treg.snapshot()->diagnostics()));
    BOOST_TEST(g->meta.allowed_tools.empty());
    BOOST_TEST(has(treg.snapshot()->diagnostics(), "asks for `allowed-tools`: ignored for a skill served over MCP"));
    BOOST_TEST(treg.body(*g).value_or("") == "Good body.\n");
}

// Whatever a server does, the host gets an answer or a diagnostic within its time-outs,
// and never a crash.
BOOST_AUTO_TEST_CASE(misbehaving_servers_cannot_hang_or_crash_the_host)
{
    struct expectation
    {
        std::string mode, says;
    };
    for (auto const& [mode, says] : std::vector<expectation>{
             {"garbage", "not a JSON object"},
             {"huge", "longer than 1048576 bytes"},
             {"endless", "longer than 1048576 bytes"},
             {"silent", "did not answer within 1500 ms"},
             {"silent-list", "did not answer within 1500 ms"},
             {"wrong-ids", "were not the answer"},
             {"flood", "were not the answer"},
             {"crash", "ended its output"},
             {"cursor-loop", "`nextCursor` that is not a new string"},
             {"no-extension", "does not offer the Skills extension"},
         }) {
        mcp::source src("h", "h", hostile(mode), quick());
        auto const start = std::chrono::steady_clock::now();
        auto const d = src.discover();
        auto const took = std::chrono::steady_clock::now() - start;
        BOOST_TEST(d.skills.empty(), mode);
        BOOST_TEST(has(d.diagnostics, says), mode << ": " << all(d.diagnostics));
        BOOST_TEST(took < std::chrono::seconds(20), mode); // a hang guard, not a speed target
    }
    // A command that does not exist.
    mcp::source none("n", "n", {"/nonexistent/mcp-server"}, quick());
    auto const d = none.discover();
    BOOST_TEST(d.skills.empty());
    BOOST_TEST(has(d.diagnostics, "cannot start /nonexistent/mcp-server"), all(d.diagnostics));
    // A namespace that could pose as another tier's name.
    mcp::source bad_ns("n", "a:b", hostile("tamper"), quick());
    BOOST_TEST(has(bad_ns.discover().diagnostics, "is not a namespace"));
}

// Requests from the server are answered with an error and the listing goes on; a listing's
// bad entries are each skipped with a diagnostic.
BOOST_AUTO_TEST_CASE(bad_entries_are_skipped_and_server_requests_refused)
{
    mcp::source asks("a", "a", hostile("server-request"), quick());
    auto const d = asks.discover();
    BOOST_TEST(commands(d) == std::vector<std::string>{"a:good"}, all(d.diagnostics));

    mcp::source bad("b", "b", hostile("bad-entries"), quick());
    auto const e = bad.discover();
    BOOST_TEST(commands(e) == std::vector<std::string>{"b:good"});
    BOOST_TEST(e.diagnostics.size() == 13u, all(e.diagnostics));
    for (std::string_view why :
         {"not a canonical skill://<path>/SKILL.md", "skill://outside/SKILL.md: a resource without a canonical `uri` inside",
          "skill://dotdot/SKILL.md: a resource without", "skill://baddigest/SKILL.md: a resource without",
          "skill://toobig/SKILL.md: more than 16777216 bytes", "skill://toomany/SKILL.md: more than 512 files",
          "SKILL.md is not among its resources", "an entry without a `uri`", "listed twice",
          "skill://misnamed/SKILL.md: its frontmatter's `name` is not its last path segment",
          "skill://dynamic/SKILL.md: its content is dynamic"})
        BOOST_TEST(has(e.diagnostics, why), why);
    BOOST_TEST(bad.read_all(by_command(e, "b:good")).text.has_value());
}

// A server that dies: the tier keeps its last listing (with a diagnostic) and starts the
// server again after a pause.
BOOST_AUTO_TEST_CASE(a_failed_server_keeps_its_listing_and_is_restarted)
{
    temp_dir t;
    write(t / "served/alpha/SKILL.md", "---\nname: alpha\ndescription: A\n---\nBody.\n");
    fs::create_directories(t / "empty");
    std::string script = "if [ -e '" + (t / "down").string() + "' ]; then exit 1; fi; echo $$ > '" + (t / "pid").string() +
                         "'; exec";
    for (auto const& a : skillmd_server(t / "served", t / "empty")) script += " '" + a + "'";
    mcp::source src("s", "remote", {"sh", "-c", script}, quick());
    BOOST_TEST_REQUIRE(src.discover().skills.size() == 1u);

    write(t / "down", "");
    pid_t const pid = std::stoi(slurp(t / "pid"));
    ::kill(pid, SIGKILL);
    auto const down = src.discover();
    BOOST_TEST(commands(down) == std::vector<std::string>{"remote:alpha"});
    BOOST_TEST(has(down.diagnostics, "its last listing stays"), all(down.diagnostics));
    // Kept: the retry pause (first_retry, 50 ms) must pass for the next look to try a restart.
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    BOOST_TEST(has(src.discover().diagnostics, "its last listing stays")); // the restart fails: still down

    fs::remove(t / "down");
    // Kept: the pause under test; the next look restarts the server only once it has passed.
    std::this_thread::sleep_for(std::chrono::milliseconds(500)); // past the doubled pause
    auto const up = src.discover();
    BOOST_TEST(up.diagnostics.empty(), all(up.diagnostics));
    BOOST_TEST(src.read_all(up.skills.at(0)).text.has_value());
}

BOOST_AUTO_TEST_SUITE_END()
