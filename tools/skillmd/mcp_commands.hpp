// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
//
// `skillmd digest` and `skillmd mcp` (stdio or streamable HTTP): the command line's side
// of skillmd/mcp.hpp.
#ifndef SKILLMD_EXAMPLES_MCP_COMMANDS_HPP
#define SKILLMD_EXAMPLES_MCP_COMMANDS_HPP

#include "author_commands.hpp"

#include <skillmd/mcp.hpp>
#include <skillmd/packages/artifact.hpp>
#include <skillmd/net/http_server.hpp>
#include <skillmd/model/diagnostic.hpp>

#include <boost/json/serialize.hpp>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <cerrno>
#include <poll.h>
#include <unistd.h>

namespace cli {

/// Prints each skill folder's files with their SHA-256 digests and sizes, then the digest
/// of the artifact `skillmd publish` would write for it (the discovery RFC's digest), and
/// the 2026-02 draft's manifest digest. A path may name the folder or its SKILL.md.
/// Exit 1 when a manifest is incomplete.
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
        std::string const draft = skillmd::mcp::draft_manifest_digest(m.files);
        std::string why;
        auto const artifact = skillmd::packages::artifact_of(dir.string(), why);
        if (!artifact) {
            std::cerr << "skillmd: " << skillmd::detail::terminal_safe(given) << ": " << skillmd::detail::terminal_safe(why) << "\n";
            rc = 1;
            continue;
        }
        if (json) {
            boost::json::array files;
            for (auto const& f : m.files)
                files.push_back(boost::json::object{{"path", f.path}, {"digest", f.digest()}, {"size", f.size}});
            out += json_line(boost::json::object{{"skill", dir.string()},
                                                 {"files", std::move(files)},
                                                 {"artifact", boost::json::object{{"type", artifact->type}, {"digest", artifact->digest}}},
                                                 {"draft_manifest_digest", draft}});
        } else {
            out += skillmd::detail::terminal_safe(dir.string()) + "\n";
            for (auto const& f : m.files)
                out += "  " + f.digest() + "  " + std::to_string(f.size) + "  " + skillmd::detail::terminal_safe(f.path) + "\n";
            out += "  artifact " + artifact->digest + "  " + artifact->type + "\n";
            out += "  draft-manifest " + draft + "\n";
        }
    }
    std::fwrite(out.data(), 1, out.size(), stdout); // a failed write fails the command in main()
    return rc;
}

/// Refreshes what `srv` serves, under the settings as they are now: the `list_changed`
/// notification when the skills served changed; a failed refresh (the previous skills are
/// still served) said on stderr once.
template <class Server, class System>
std::optional<std::string> refresh_served(Server& srv, System& agent, settings_follower& settings, std::string& said)
{
    settings.follow(agent.registry());
    auto note = srv.changes();
    if (srv.refreshed()) {
        said.clear();
    } else if (auto why = agent.registry().last_error(); why != said) {
        std::cerr << "skillmd: the skills could not be refreshed; the previous ones are still served: "
                  << skillmd::detail::terminal_safe(why) << "\n";
        said = std::move(why);
    }
    return note;
}

/// Serves `agent` over stdio: one JSON-RPC message per line in, one per line out, until
/// the end of the input. A line over the size cap is answered with an error and skipped.
/// The registry (and the settings files) are read again before each message and once a
/// second while the client is quiet; a change of the skills served is announced as it is
/// seen.
template <class System>
int cmd_mcp(System& agent, std::size_t page_size, settings_follower& settings)
{
    skillmd::mcp::server_options so;
    if (page_size > 0) so.page_size = page_size;
    skillmd::mcp::server<System> srv(agent, so);
    // What is not served is said once, at the start.
    for (auto const& why : srv.not_served()) std::cerr << "skillmd: not served: " << skillmd::detail::terminal_safe(why) << "\n";
    auto const send = [](std::string const& m) {
        std::fwrite(m.data(), 1, m.size(), stdout);
        std::fputc('\n', stdout);
        std::fflush(stdout);
    };
    std::string said; // the refresh failure last reported, so each is said once
    auto const announce = [&] {
        if (auto note = refresh_served(srv, agent, settings, said)) send(*note);
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

/// Where `skillmd mcp --http` listens and whom it lets in.
struct http_settings
{
    std::string address;                  ///< HOST:PORT, `[::1]:PORT` for IPv6
    std::string token_file;               ///< "" : no token
    std::vector<std::string> allow_origins;
    std::vector<std::string> allow_hosts;
};

/// Serves `agent` over MCP's streamable HTTP at http://HOST:PORT/mcp until SIGTERM or
/// SIGINT. The skills and the settings files are read again before each request (the
/// one I/O thread runs the handler, so one refresh runs at a time). The address listened on is
/// printed on stderr (with the port chosen when 0 was asked). Exit 1 when it cannot
/// listen or read the token, 2 for a malformed address.
template <class System>
int cmd_mcp_http(System& agent, std::size_t page_size, http_settings const& how, settings_follower& settings)
{
    skillmd::net::http_server_options ho;
    auto const colon = how.address.rfind(':');
    std::string host = colon == std::string::npos ? "" : how.address.substr(0, colon);
    if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
    unsigned port = 65536;
    if (colon != std::string::npos) {
        std::string_view const p = std::string_view(how.address).substr(colon + 1);
        auto const [end, ec] = std::from_chars(p.data(), p.data() + p.size(), port);
        if (ec != std::errc() || end != p.data() + p.size() || p.empty()) port = 65536;
    }
    if (host.empty() || port > 65535) {
        std::cerr << "skillmd: --http takes HOST:PORT (a port from 0 to 65535): "
                  << skillmd::detail::terminal_safe(how.address) << "\n";
        return 2;
    }
    ho.host = host;
    ho.port = static_cast<unsigned short>(port);
    ho.allowed_origins = how.allow_origins;
    ho.allowed_hosts = how.allow_hosts;
    skillmd::mcp::offer_cors(ho); // pages of the allowed origins may call it from a browser
    if (!how.token_file.empty()) {
        std::ifstream in(how.token_file, std::ios::binary);
        std::string token;
        if (!in || !std::getline(in, token)) {
            std::cerr << "skillmd: cannot read the token from " << skillmd::detail::terminal_safe(how.token_file) << "\n";
            return 1;
        }
        if (!token.empty() && token.back() == '\r') token.pop_back();
        if (token.empty()) {
            std::cerr << "skillmd: the token file " << skillmd::detail::terminal_safe(how.token_file) << " holds no token\n";
            return 1;
        }
        // A bearer token is visible ASCII (RFC 6750): one with a blank or another byte could
        // never be sent, and would lock every client out.
        if (std::any_of(token.begin(), token.end(), [](char c) { return c < '!' || c > '~'; })) {
            std::cerr << "skillmd: the token in " << skillmd::detail::terminal_safe(how.token_file)
                      << " holds a blank or a character that is not visible ASCII\n";
            return 1;
        }
        ho.bearer_token = std::move(token);
    }
    ho.on_error = [](std::string_view why) { std::cerr << "skillmd: a request failed: " << skillmd::detail::terminal_safe(why) << "\n"; };
    skillmd::mcp::server_options so;
    if (page_size > 0) so.page_size = page_size;
    skillmd::mcp::server<System> srv(agent, so);
    for (auto const& why : srv.not_served()) std::cerr << "skillmd: not served: " << skillmd::detail::terminal_safe(why) << "\n";
    std::string said; // the refresh failure last reported, so each is said once
    // Over HTTP nobody listens for list_changed: clients keep to ttlMs.
    auto const refresh = [&] { refresh_served(srv, agent, settings, said); };
    skillmd::net::http_server http(std::move(ho), skillmd::mcp::http_endpoint(srv, refresh));
    try {
        auto const bound = http.start();
        std::string const shown_host = host.find(':') != std::string::npos ? "[" + host + "]" : host;
        std::cerr << "skillmd: serving MCP at http://" << skillmd::detail::terminal_safe(shown_host) << ":" << bound << "/mcp\n"
                  << std::flush;
    } catch (std::exception const& e) {
        std::cerr << "skillmd: cannot listen on " << skillmd::detail::terminal_safe(how.address) << ": "
                  << skillmd::detail::terminal_safe(e.what()) << "\n";
        return 1;
    }
    http.stop_on_signals();
    http.run();
    return 0;
}

} // namespace cli

#endif
