// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)

// Attacks on contained reads: a skill's folder, or a folder inside it, is swapped for a
// link to another place while readers read. Every reader opens below a descriptor of the
// folder it checked (device and inode of its SKILL.md), so no byte from outside the skill
// may come back, however the swaps fall. And a manifest is complete or says why.

#include "../support/test_support.hpp"

#include <skillmd/mcp/server.hpp>
#include <skillmd/presets.hpp>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>

#include <sys/stat.h>

using namespace skillmd;
namespace fs = std::filesystem;

namespace {

/// An agent over the user tier `skills` below `root`, and an initialized MCP server over it.
struct served_tree
{
    presets::agent_skills agent;
    mcp::server<presets::agent_skills> srv;
    explicit served_tree(fs::path const& root) : agent(make(root)), srv(agent)
    {
        BOOST_TEST_REQUIRE(agent.load());
        srv.handle(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}})");
    }
    static presets::agent_skills make(fs::path const& root)
    {
        presets::locations at;
        at.overrides["user"] = root / "skills";
        at.overrides["project"] = root / "none";
        return presets::make_agent_skills(at);
    }
};

std::string request(int id, std::string_view method, std::string_view uri)
{
    return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"method":")" + std::string(method) +
           R"(","params":{"uri":")" + std::string(uri) + R"("}})";
}

} // namespace

BOOST_AUTO_TEST_SUITE(attacks_containment)

BOOST_AUTO_TEST_CASE(swapping_folders_for_links_leaks_no_foreign_byte)
{
    test::temp_dir t;
    test::write(t / "skills/s/SKILL.md", "---\nname: s\ndescription: inside\n---\nINSIDE body\n");
    test::write(t / "skills/s/data/file.txt", "INSIDE data\n");
    // What a swapped link would lead to: a folder that looks like the skill.
    test::write(t / "outside/SKILL.md", "---\nname: s\ndescription: FOREIGN\n---\nFOREIGN body\n");
    test::write(t / "outside/data/file.txt", "FOREIGN data\n");
    served_tree tree(t.path);
    auto& agent = tree.agent;
    auto& srv = tree.srv;

    std::atomic<bool> stop{false};
    std::atomic<long> swaps{0};
    std::thread swapper([&] {
        fs::path const skill = t / "skills/s", kept = t / "skills/s.kept";
        fs::path const data = t / "skills/s.kept/data", data_kept = t / "skills/s.kept/data.kept";
        while (!stop) {
            // The skill's folder, then a folder inside it, each replaced by a link for a moment.
            if (std::rename(skill.c_str(), kept.c_str()) == 0) {
                ::symlink((t / "outside").c_str(), skill.c_str());
                std::this_thread::yield();
                ::unlink(skill.c_str());
                std::rename(data.c_str(), data_kept.c_str());
                ::symlink((t / "outside/data").c_str(), data.c_str());
                std::rename(kept.c_str(), skill.c_str());
                std::this_thread::yield();
                ::unlink((skill / "data").c_str());
                std::rename((skill / "data.kept").c_str(), (skill / "data").c_str());
            }
            ++swaps;
        }
    });

    long reads = 0, answered = 0, foreign = 0;
    auto const deadline = std::chrono::steady_clock::now() + std::chrono::seconds(3);
    while (std::chrono::steady_clock::now() < deadline) {
        for (auto const& m : {request(1, "resources/read", "skill://s/data/file.txt"), request(2, "resources/read", "skill://s/SKILL.md"),
                              request(3, "skills/get", "skill://s/SKILL.md"), request(4, "resources/directory/read", "skill://s/data")}) {
            for (auto const& reply : srv.handle(m)) {
                ++reads;
                answered += reply.find("\"result\"") != std::string::npos;
                foreign += reply.find("FOREIGN") != std::string::npos;
            }
        }
        auto const inv = agent.invoke("s", caller::user);
        ++reads;
        foreign += inv.content.find("FOREIGN") != std::string::npos;
    }
    stop = true;
    swapper.join();
    BOOST_TEST_MESSAGE(reads << " reads, " << answered << " answered, " << swaps << " swaps");
    BOOST_TEST(swaps > 10);
    BOOST_TEST(answered > 0); // between swaps the skill is read as usual
    BOOST_TEST(foreign == 0);
}

// A link out of the skill, inside a folder of it, is not part of the skill and is never read.
BOOST_AUTO_TEST_CASE(reads_never_follow_a_link_out)
{
    test::temp_dir t;
    test::write(t / "secret.txt", "SECRET\n");
    test::write(t / "skills/s/SKILL.md", "---\nname: s\ndescription: d\n---\nB\n");
    test::write(t / "skills/s/ok.txt", "fine\n");
    fs::create_directories(t / "skills/s/sub");
    fs::create_symlink(t / "secret.txt", t / "skills/s/sub/leak.txt");
    fs::create_directory_symlink(t.path, t / "skills/s/up");
    served_tree tree(t.path);
    auto& srv = tree.srv;
    for (auto const& uri : {"skill://s/sub/leak.txt", "skill://s/up/secret.txt", "skill://s/../secret.txt", "skill://s/%2e%2e/secret.txt"})
        for (auto const& reply : srv.handle(request(1, "resources/read", uri))) BOOST_TEST(reply.find("SECRET") == std::string::npos, uri);
    auto const listed = srv.handle(R"({"jsonrpc":"2.0","id":5,"method":"resources/list"})");
    BOOST_TEST_REQUIRE(listed.size() == 1u);
    BOOST_TEST(listed[0].find("leak.txt") == std::string::npos);
    BOOST_TEST(listed[0].find("ok.txt") != std::string::npos);
}

// A SKILL.md linked to a file elsewhere in the tier is the registry's skill (the link stays
// in the tier), but MCP reads only below a skill's folder: it is not served, and the
// refusal says so rather than that the folder changed.
BOOST_AUTO_TEST_CASE(a_skill_md_linked_out_of_its_folder_is_refused_for_that)
{
    test::temp_dir t;
    test::write(t / "skills/.store/kept.md", "---\nname: kept\ndescription: d\n---\nKEPT BODY\n");
    fs::create_directories(t / "skills/kept");
    fs::create_symlink("../.store/kept.md", t / "skills/kept/SKILL.md");
    served_tree tree(t.path);
    BOOST_TEST_REQUIRE(tree.agent.snapshot()->find("kept") != nullptr);
    for (auto const& reply : tree.srv.handle(request(1, "skills/get", "skill://kept/SKILL.md"))) {
        BOOST_TEST(reply.find("KEPT BODY") == std::string::npos);
        BOOST_TEST(reply.find("a link out of the skill's folder") != std::string::npos, reply);
        BOOST_TEST(reply.find("changed since") == std::string::npos, reply);
    }
}

// What a client sends and the server echoes (an id, a method) reaches the wire escaped.
BOOST_AUTO_TEST_CASE(echoed_ids_and_methods_are_escaped)
{
    test::temp_dir t;
    test::write(t / "skills/s/SKILL.md", "---\nname: s\ndescription: d\n---\nB\n");
    served_tree tree(t.path);
    for (auto const& m : {std::string(R"({"jsonrpc":"2.0","id":"\u009b\u202e\u007f\u3164","method":"ping"})"),
                          std::string(R"({"jsonrpc":"2.0","id":1,"method":"x\u009b\u202ey"})")})
        for (auto const& reply : tree.srv.handle(m)) {
            BOOST_TEST(reply.find("\xc2\x9b") == std::string::npos, reply);
            BOOST_TEST(reply.find("\xe2\x80\xae") == std::string::npos, reply);
            BOOST_TEST(reply.find('\x7f') == std::string::npos, reply);
            BOOST_TEST(reply.find("\\u009b") != std::string::npos, reply);
        }
}

// Digests are complete or say so: no file is left out in silence.
BOOST_AUTO_TEST_CASE(manifests_are_complete_or_say_why)
{
    test::temp_dir t;
    test::write(t / "s/SKILL.md", "---\nname: s\n---\n");
    fs::path deep = t / "s";
    for (int i = 0; i < 17; ++i) deep /= "d" + std::to_string(i);
    test::write(deep / "run.sh", "echo changed\n");
    auto const m = mcp::manifest_of((t / "s").string());
    BOOST_TEST(!m.complete());
    BOOST_TEST(m.error.find("deeper than 16") != std::string::npos, m.error);
    // Sixteen levels are inside the bound, and listed.
    test::write(t / "ok/SKILL.md", "---\nname: ok\n---\n");
    fs::path sixteen = t / "ok";
    for (int i = 0; i < 16; ++i) sixteen /= "d" + std::to_string(i);
    test::write(sixteen / "run.sh", "echo\n");
    auto const ok = mcp::manifest_of((t / "ok").string());
    BOOST_TEST_REQUIRE(ok.complete(), ok.error);
    BOOST_TEST(ok.files.size() == 2u);
    // Version-control data is left out by rule, and the manifest names it.
    test::write(t / "ok/.git/config", "x\n");
    auto const with_git = mcp::manifest_of((t / "ok").string());
    BOOST_TEST(with_git.complete());
    BOOST_TEST_REQUIRE(with_git.excluded.size() == 1u);
    BOOST_TEST(with_git.excluded[0].starts_with(".git:"));
    BOOST_TEST_REQUIRE(::mkfifo((t / "ok/pipe").c_str(), 0600) == 0);
    auto const with_fifo = mcp::manifest_of((t / "ok").string());
    BOOST_TEST(with_fifo.excluded.size() == 2u); // the FIFO is named, not skipped in silence
    // A folder that is not the listed one (its SKILL.md is another file) is refused.
    struct stat st {};
    BOOST_TEST_REQUIRE(::stat((t / "s/SKILL.md").c_str(), &st) == 0);
    skillmd::detail::file_id const other{static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino)};
    BOOST_TEST(!mcp::manifest_of((t / "ok").string(), &other).complete());
}

// A skill whose files cannot all be listed (one 17 folders down) is not served: not
// listed, and not read either, though its SKILL.md is there; and a cursor from before the
// skills changed is refused rather than applied to another list.
BOOST_AUTO_TEST_CASE(what_is_not_listed_is_not_read)
{
    test::temp_dir t;
    test::write(t / "skills/deep/SKILL.md", "---\nname: deep\ndescription: d\n---\nDEEP\n");
    test::write(t / "skills/deep/notes.txt", "NOTES\n");
    fs::path deep = t / "skills/deep";
    for (int i = 0; i < 17; ++i) deep /= "d";
    test::write(deep / "run.sh", "echo\n");
    test::write(t / "skills/a/SKILL.md", "---\nname: a\ndescription: d\n---\nA\n");
    test::write(t / "skills/b/SKILL.md", "---\nname: b\ndescription: d\n---\nB\n");
    served_tree tree(t.path);
    auto& srv = tree.srv;
    for (auto const* uri : {"skill://deep/SKILL.md", "skill://deep/notes.txt"}) {
        auto const replies = srv.handle(request(1, "resources/read", uri));
        BOOST_TEST_REQUIRE(replies.size() == 1u);
        BOOST_TEST(replies[0].find("\"error\"") != std::string::npos, replies[0]);
        BOOST_TEST(replies[0].find("DEEP") == std::string::npos);
        BOOST_TEST(replies[0].find("NOTES") == std::string::npos);
    }
    auto const listed = srv.handle(R"({"jsonrpc":"2.0","id":2,"method":"resources/list"})");
    BOOST_TEST_REQUIRE(listed.size() == 1u);
    BOOST_TEST(listed[0].find("skill://deep/") == std::string::npos);

    mcp::server_options o;
    o.page_size = 1;
    mcp::server<presets::agent_skills> paging(tree.agent, o);
    paging.handle(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}})");
    auto const first = boost::json::parse(paging.handle(R"({"jsonrpc":"2.0","id":3,"method":"skills/list"})").at(0));
    std::string const cursor(first.at("result").at("nextCursor").as_string());
    std::string const next = R"({"jsonrpc":"2.0","id":4,"method":"skills/list","params":{"cursor":")" + cursor + R"("}})";
    BOOST_TEST(paging.handle(next).at(0).find("\"result\"") != std::string::npos);
    test::write(t / "skills/0/SKILL.md", "---\nname: 0\ndescription: d\n---\nZ\n");
    BOOST_TEST_REQUIRE(tree.agent.refresh());
    auto const stale = paging.handle(next);
    BOOST_TEST(stale.at(0).find("\"error\"") != std::string::npos, stale.at(0));
}

BOOST_AUTO_TEST_SUITE_END()
