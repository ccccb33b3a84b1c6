// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_MCP_HTTP_HPP
#define SKILLMD_MCP_HTTP_HPP

// MCP's streamable HTTP transport for mcp::server: the handler a net::http_server runs
// for the endpoint (`/mcp`). A POST carries one JSON-RPC message and gets its reply as
// JSON (a notification gets 202 and no body). The server sends nothing unasked, so there
// is no stream to open (GET) and no session to end (DELETE): both are 405. The HTTP
// server in front has already refused foreign origins, missing tokens and oversized
// requests (net/http_server.hpp).

#include <skillmd/mcp/server.hpp>
#include <skillmd/net/http_types.hpp>
#include <skillmd/net/impl/ascii.hpp>

#include <algorithm>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

namespace skillmd::mcp {

namespace impl {

/// A header's value without the blanks around it.
inline std::string trimmed(std::string_view v)
{
    auto const first = v.find_first_not_of(" \t");
    if (first == std::string_view::npos) return {};
    return std::string(v.substr(first, v.find_last_not_of(" \t") - first + 1));
}

inline std::string lowered(std::string s)
{
    for (char& c : s) c = net::detail::ascii_lower(c);
    return s;
}

/// True when an `Accept` header takes JSON (`application/json`, `application/*`, `*/*`,
/// but not with `q=0`).
inline bool accepts_json(std::string_view accept)
{
    std::size_t at = 0;
    while (at <= accept.size()) {
        auto const comma = accept.find(',', at);
        std::string const item = lowered(trimmed(accept.substr(at, comma == std::string_view::npos ? std::string_view::npos : comma - at)));
        std::string const range = trimmed(item.substr(0, item.find(';')));
        bool refused = false; // `q=0`, `q=0.0`, `q=0.000`
        for (auto p = item.find(';'); p != std::string::npos; p = item.find(';', p + 1)) {
            std::string const param = trimmed(std::string_view(item).substr(p + 1, item.find(';', p + 1) - p - 1));
            if (param.starts_with("q=")) refused = param.find_first_not_of("0.", 2) == std::string::npos && param.size() > 2;
        }
        if (!refused && (range == "application/json" || range == "application/*" || range == "*/*")) return true;
        if (comma == std::string_view::npos) break;
        at = comma + 1;
    }
    return false;
}

} // namespace impl

/// What a page of an allowed origin needs to call the endpoint from a browser: POST with
/// a token and the MCP headers. Set on a net::http_server's options, the server answers
/// the browser's CORS preflights itself.
inline void offer_cors(net::http_server_options& o)
{
    o.cors_methods = {"POST"};
    o.cors_headers = {"Authorization", "Content-Type", "Accept", "MCP-Protocol-Version", "Mcp-Method", "Mcp-Name"};
}

/** The handler serving `srv` at `path` over streamable HTTP. `before` runs ahead of
    each message (`skillmd mcp` refreshes the skills there). Calls into the server are
    taken one at a time, so the handler may run on several I/O threads.
*/
template <class Source>
net::http_handler http_endpoint(server<Source>& srv, std::function<void()> before = {}, std::string path = "/mcp")
{
    auto lock = std::make_shared<std::mutex>();
    return [&srv, before = std::move(before), path = std::move(path), lock](net::http_request const& req) {
        net::http_response res;
        auto const plain = [&](unsigned status, std::string body) {
            res.status = status;
            res.body = std::move(body);
            return res;
        };
        if (std::string_view(req.target).substr(0, req.target.find('?')) != path) return plain(404, "no MCP endpoint here: use " + path + "\n");
        if (req.method != "POST") {
            res.headers.emplace_back("Allow", "POST");
            return plain(405, "this endpoint takes POST only: the server sends nothing unasked and keeps no session\n");
        }
        // The headers the request is judged by come once each: a second copy is a request
        // built to be read two ways.
        for (std::string_view once : {"Content-Type", "MCP-Protocol-Version", "Mcp-Method", "Mcp-Name"})
            if (std::count_if(req.headers.begin(), req.headers.end(), [&](auto const& h) {
                    return net::detail::iequals(h.first, once);
                }) > 1)
                return plain(400, "one " + std::string(once) + " header at most\n");
        auto const type = req.header("Content-Type");
        if (!type || !net::detail::iequals(impl::trimmed(type->substr(0, type->find(';'))), "application/json"))
            return plain(415, "a message is sent as application/json\n");
        if (auto const accept = req.header("Accept"); accept && !impl::accepts_json(*accept))
            return plain(406, "replies are application/json: the Accept header must allow it\n");
        request_context ctx;
        ctx.http = true;
        if (auto const v = req.header("MCP-Protocol-Version")) ctx.protocol_version = impl::trimmed(*v);
        if (auto const v = req.header("Mcp-Method")) ctx.method = impl::trimmed(*v);
        if (auto const v = req.header("Mcp-Name")) ctx.name = impl::trimmed(*v);
        response r;
        {
            std::lock_guard<std::mutex> held(*lock);
            if (before) before();
            r = srv.respond(req.body, ctx);
        }
        res.status = r.status;
        if (!r.messages.empty()) { // one message in, at most one reply out
            res.content_type = "application/json";
            res.body = std::move(r.messages.front());
        }
        return res;
    };
}

} // namespace skillmd::mcp

#endif
