// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_TESTS_FUZZ_EXERCISE_MCP_HPP
#define SKILLMD_TESTS_FUZZ_EXERCISE_MCP_HPP

// What the protocol-side fuzzers run on every input, and what the test suite replays:
// exercise_mcp takes the input's lines as JSON-RPC messages into an MCP server over a
// small skill tree (after an `initialize`, or not): every reply is one JSON-RPC 2.0
// object, a request is answered exactly once, a notification never, and nothing read
// comes from outside the tree. exercise_tool_call takes the input as a model's tool call
// into call_tool(), exercise_settings as a settings file's JSON.

#include "expect.hpp"

#include <skillmd/mcp/server.hpp>
#include <skillmd/presets.hpp>
#include <skillmd/storage/overrides.hpp>

#include <boost/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <unistd.h>

namespace skillmd::fuzz {

/// The tree every input runs against: made once per process, in a fresh folder.
struct mcp_fixture
{
    /// What the file outside the tree holds: random per process, so the fuzzer cannot
    /// learn it, and a reply can hold it only by echoing an input that did.
    std::string secret = make_secret();
    std::filesystem::path root;
    presets::agent_skills agent;
    mcp_fixture() : root(make_tree(secret)), agent(make(root)) { agent.load(); }
    ~mcp_fixture()
    {
        std::error_code ec;
        std::filesystem::remove_all(root, ec);
    }
    mcp_fixture(mcp_fixture const&) = delete;
    mcp_fixture& operator=(mcp_fixture const&) = delete;

    static std::string make_secret()
    {
        std::random_device rd;
        std::string s = "secret-";
        for (int i = 0; i < 4; ++i) s += std::to_string(rd());
        return s;
    }

    static std::filesystem::path make_tree(std::string const& secret)
    {
        std::string tmpl = (std::filesystem::temp_directory_path() / "skillmd-fuzz-mcp-XXXXXX").string();
        std::filesystem::path const root = ::mkdtemp(tmpl.data());
        auto const put = [&](std::filesystem::path const& p, std::string const& text) {
            std::filesystem::create_directories(p.parent_path());
            std::ofstream(p, std::ios::binary) << text;
        };
        put(root / "outside.txt", secret + "\n");
        put(root / "skills/alpha/SKILL.md", "---\nname: alpha\ndescription: First $ARGUMENTS\narguments: [who]\n---\nHello $who.\n");
        put(root / "skills/alpha/docs/guide.md", "# Guide\n");
        put(root / "skills/beta/SKILL.md", "---\nname: beta\ndescription: Second\ndisable-model-invocation: true\n---\nB\n");
        std::filesystem::create_symlink(root / "outside.txt", root / "skills/alpha/docs/leak.txt");
        return root;
    }
    static presets::agent_skills make(std::filesystem::path const& root)
    {
        presets::locations at;
        at.overrides["user"] = root / "skills";
        at.overrides["project"] = root / "none";
        return presets::make_agent_skills(at);
    }
};

inline mcp_fixture& mcp_tree()
{
    static mcp_fixture f;
    return f;
}

/// Input: a control byte, then lines (messages). Bit 0 of the control: `initialize` first;
/// bit 1: over HTTP, with the MCP headers bits 2-3 choose (none, a session revision, the
/// stateless one, an unknown one), the method header the message's own unless bit 4.
inline void exercise_mcp(std::string_view in)
{
    if (in.empty()) return;
    unsigned const control = static_cast<unsigned char>(in[0]);
    in.remove_prefix(1);
    auto& fx = mcp_tree();
    mcp::server_options o;
    o.page_size = 1 + control % 3;
    o.max_message_bytes = 4096;
    mcp::server<presets::agent_skills> srv(fx.agent, o);
    if (control & 1)
        expect(srv.handle(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}})").size() == 1);
    std::size_t pos = 0;
    while (pos <= in.size()) {
        auto const nl = std::min(in.find('\n', pos), in.size());
        std::string_view const line = in.substr(pos, nl - pos);
        pos = nl + 1;
        std::vector<std::string> replies;
        if (control & 2) {
            mcp::request_context ctx;
            ctx.http = true;
            constexpr std::string_view versions[] = {"", "2025-11-25", "2026-07-28", "v999"};
            if (auto const v = versions[(control >> 2) & 3]; !v.empty()) ctx.protocol_version = std::string(v);
            boost::system::error_code ec;
            auto const parsed = boost::json::parse(line, ec);
            auto const* obj = ec ? nullptr : parsed.if_object();
            auto const* method = obj ? obj->if_contains("method") : nullptr;
            ctx.method = control & 16 || method == nullptr || !method->is_string() ? "x" : std::string(method->as_string());
            auto const r = srv.respond(line, ctx);
            expect(r.status == 200 || r.status == 202 || r.status == 400 || r.status == 404 || r.status == 413);
            expect(r.messages.empty() == (r.status == 202) || (r.messages.empty() && r.status == 400));
            replies = r.messages;
        } else {
            replies = srv.handle(line);
        }
        expect(replies.size() <= 1);
        for (auto const& r : replies) {
            boost::system::error_code ec;
            auto const v = boost::json::parse(r, ec);
            expect(!ec && v.is_object());
            auto const& obj = v.as_object();
            expect(obj.contains("jsonrpc") && obj.at("jsonrpc") == "2.0");
            expect(obj.contains("result") != obj.contains("error"));
            expect(in.find(fx.secret) != std::string_view::npos || r.find(fx.secret) == std::string::npos);
        }
        // A well-formed request with an id is always answered.
        boost::system::error_code ec;
        auto const msg = boost::json::parse(line, ec);
        if (!ec && line.size() <= o.max_message_bytes && msg.is_object() && msg.as_object().contains("id")) {
            auto const& id = msg.as_object().at("id");
            if ((id.is_string() || id.is_int64() || id.is_uint64()) && !msg.as_object().contains("result") &&
                !msg.as_object().contains("error"))
                expect(replies.size() == 1);
        }
    }
}

/// The input as a model's tool call: a result, or a failure that says why; nothing thrown,
/// nothing from outside the tree.
inline void exercise_tool_call(std::string_view in)
{
    auto& fx = mcp_tree();
    auto const inv = fx.agent.call_tool(in);
    if (inv.status() == invoke_status::failed) expect(!inv.message.empty());
    expect(in.find(fx.secret) != std::string_view::npos || inv.content.find(fx.secret) == std::string::npos);
}

/// The input as a settings file: rules or diagnostics that say why, and a decision for a
/// skill that only a rule of the file can have made.
inline void exercise_settings(std::string_view in)
{
    std::vector<diagnostic> ds;
    auto layer = read_override_layer(in, "user settings", "settings.json", std::filesystem::path("/base"), ds);
    for (auto const& d : ds) expect(!d.message.empty() && d.severity == severity::error);
    for (auto const& r : layer.rules) expect(!r.pattern.empty() && (!r.by_path || r.pattern.front() == '/'));
    auto const rules = layer.rules;
    overrides o;
    o.add(std::move(layer));
    for (auto const& [command, path] : {std::pair{"alpha", "/base/skills/alpha/SKILL.md"}, std::pair{"beta", "/elsewhere/beta/SKILL.md"}}) {
        auto const d = o.decide(command, command, path);
        if (d.layer.empty()) expect(d.mode == override_mode::on && d.pattern.empty());
        else expect(std::any_of(rules.begin(), rules.end(), [&](override_rule const& r) { return r.pattern == d.pattern && r.mode == d.mode; }));
    }
}

} // namespace skillmd::fuzz

#endif
