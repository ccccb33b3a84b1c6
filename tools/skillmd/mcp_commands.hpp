// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
//
// `skillmd digest` and `skillmd mcp`: the command line's side of skillmd/mcp.hpp.
#ifndef SKILLMD_EXAMPLES_MCP_COMMANDS_HPP
#define SKILLMD_EXAMPLES_MCP_COMMANDS_HPP

#include "author_commands.hpp"

#include <skillmd/mcp.hpp>
#include <skillmd/model/diagnostic.hpp>

#include <boost/json/serialize.hpp>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include <cerrno>
#include <poll.h>
#include <unistd.h>

namespace cli {

/// Prints each skill folder's files with their SHA-256 digests and sizes, then the
/// skill's digest as the Agent Skills discovery RFC defines it. A path may name the
/// folder or its SKILL.md. Exit 1 when a manifest is incomplete.
inline int cmd_digest(std::vector<std::string> const& paths, bool json)
{
    int rc = 0;
    std::string out;
    for (auto const& given : paths) {
        std::filesystem::path dir = given;
        if (dir.filename() == "SKILL.md") dir = dir.parent_path();
        if (dir.empty()) dir = ".";
        auto const m = skillmd::mcp::manifest_of(dir.string());
        if (!m.complete()) {
            std::cerr << "skillmd: " << skillmd::detail::terminal_safe(given) << ": " << skillmd::detail::terminal_safe(m.error)
                      << "\n";
            rc = 1;
            continue;
        }
        // What the rules leave out is said, never skipped in silence.
        for (auto const& x : m.excluded)
            std::cerr << "skillmd: " << skillmd::detail::terminal_safe(given) << ": excluded " << skillmd::detail::terminal_safe(x) << "\n";
        std::string const skill = skillmd::mcp::rfc_skill_digest(m.files);
        if (json) {
            boost::json::array files;
            for (auto const& f : m.files)
                files.push_back(boost::json::object{{"path", f.path}, {"digest", f.digest()}, {"size", f.size}});
            out += json_line(boost::json::object{{"skill", dir.string()}, {"files", std::move(files)}, {"digest", skill}});
        } else {
            out += skillmd::detail::terminal_safe(dir.string()) + "\n";
            for (auto const& f : m.files)
                out += "  " + f.digest() + "  " + std::to_string(f.size) + "  " + skillmd::detail::terminal_safe(f.path) + "\n";
            out += "  skill " + skill + "\n";
        }
    }
    std::fwrite(out.data(), 1, out.size(), stdout); // a failed write fails the command in main()
    return rc;
}

/// Serves `agent` over stdio: one JSON-RPC message per line in, one per line out, until
/// the end of the input. A line over the size cap is answered with an error and skipped.
/// The registry is refreshed before each message and once a second while the client is
/// quiet; a change of the skills served is announced as it is seen.
template <class System>
int cmd_mcp(System& agent, std::size_t page_size)
{
    skillmd::mcp::server_options so;
    if (page_size > 0) so.page_size = page_size;
    skillmd::mcp::server<System> srv(agent, so);
    if (auto const snap = agent.snapshot()) { // what is not served is said once, at the start
        std::vector<std::string> skipped;
        for (auto const& s : skillmd::mcp::served(*snap, &skipped)) {
            auto const id = s.listed();
            if (auto const m = skillmd::mcp::list_skill(s.directory, &id); !m.complete())
                skipped.push_back(s.record->where.path.str() + ": its files cannot all be listed: " + m.error);
        }
        for (auto const& why : skipped) std::cerr << "skillmd: not served: " << skillmd::detail::terminal_safe(why) << "\n";
    }
    auto const send = [](std::string const& m) {
        std::fwrite(m.data(), 1, m.size(), stdout);
        std::fputc('\n', stdout);
        std::fflush(stdout);
    };
    std::string said; // the refresh failure last reported, so each is said once
    auto const announce = [&] {
        if (auto note = srv.changes()) send(*note);
        if (srv.refreshed()) {
            said.clear();
        } else if (auto why = agent.registry().last_error(); why != said) {
            std::cerr << "skillmd: the skills could not be refreshed; the previous ones are still served: "
                      << skillmd::detail::terminal_safe(why) << "\n";
            said = std::move(why);
        }
    };
    std::string line;
    bool too_long = false;
    auto const answer_line = [&] {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        announce();
        if (too_long) send(R"({"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"message too large"}})");
        else if (line.find_first_not_of(" \t") != std::string::npos)
            for (auto const& reply : srv.handle(line)) send(reply);
        line.clear();
        too_long = false;
    };
    std::vector<char> buf(64 * 1024);
    while (true) {
        pollfd p{0, POLLIN, 0};
        int const ready = ::poll(&p, 1, 1000);
        if (ready < 0 && errno == EINTR) continue;
        if (ready == 0) {
            announce();
            continue;
        }
        ssize_t const n = ::read(0, buf.data(), buf.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        std::string_view rest(buf.data(), static_cast<std::size_t>(n));
        while (!rest.empty()) {
            auto const nl = rest.find('\n');
            std::string_view const chunk = rest.substr(0, nl);
            rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
            if (!too_long && line.size() + chunk.size() > so.max_message_bytes) {
                too_long = true;
                line.clear();
                line.shrink_to_fit();
            }
            if (!too_long) line += chunk;
            if (nl == std::string_view::npos) break;
            answer_line();
        }
    }
    // A last message without its newline is still a message.
    if (too_long || !line.empty()) answer_line();
    return 0;
}

} // namespace cli

#endif
