// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_NET_HTTP_TYPES_HPP
#define SKILLMD_NET_HTTP_TYPES_HPP

// What http_server (net/http_server.hpp) hands its handler, what the handler returns,
// and the server's limits and rules.

#include <skillmd/config.hpp>
#include <skillmd/net/impl/ascii.hpp>

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace skillmd::net {

struct http_request
{
    std::string method;    ///< as sent: `GET`, `POST`...
    std::string target;    ///< as sent: `/mcp`, `/mcp?session=1`
    unsigned version = 11; ///< 11 for HTTP/1.1, 10 for HTTP/1.0
    /// Names as sent, in the order sent but for a repeated name, whose later fields follow its first.
    std::vector<std::pair<std::string, std::string>> headers;
    std::string body; ///< decoded (a chunked body arrives whole)
    std::string peer; ///< the client's address and port: `127.0.0.1:50312`, `[::1]:50312`

    /// The value of the first header of that name (ASCII case aside), or none.
    std::optional<std::string_view> header(std::string_view name) const
    {
        for (auto const& [n, v] : headers)
            if (detail::iequals(n, name)) return std::string_view(v);
        return std::nullopt;
    }
};

struct http_response
{
    unsigned status = 200; ///< 200-599; 204 and 304 without a body
    std::string content_type; ///< empty: `text/plain; charset=utf-8` when there is a body
    std::string body;
    /// Further headers. The framing ones (Content-Length, Transfer-Encoding, Connection,
    /// Keep-Alive, Upgrade) are the server's; a response naming one, or a name or value
    /// that could split the response, is not sent: the client gets 500. A Cache-Control
    /// here replaces the default `no-store`.
    std::vector<std::pair<std::string, std::string>> headers;
};

struct http_server_options
{
    std::string host = "127.0.0.1"; ///< an address (`::1` or `[::1]` for IPv6) or a name resolved once, at start()
    unsigned short port = 0;        ///< 0: any free port (start() says which)
    std::size_t max_body_bytes = 4 * 1024 * 1024;     ///< a longer body gets 413; a longer Content-Length, unread
    std::size_t max_header_bytes = 16 * 1024;         ///< the request line and the headers together; more gets 431
    std::size_t max_connections = 64;                 ///< open at once; each may hold a body of max_body_bytes
    std::chrono::milliseconds idle_timeout{30000};    ///< with no request under way; also to write an answer
    std::chrono::milliseconds request_timeout{10000}; ///< from a request's first byte to its last
    /// Whole origins allowed besides the loopback ones, e.g. `https://app.example`.
    std::vector<std::string> allowed_origins;
    bool loopback_origins = true; ///< allow http(s)://localhost, 127.0.0.1 and [::1], any port
    /// Host names allowed in the Host header, with any port, besides localhost, 127.0.0.1,
    /// [::1] and the address listened on: those a client may use to reach a server that
    /// listens on every address (0.0.0.0, ::), or by a name of the machine.
    std::vector<std::string> allowed_hosts;
    std::optional<std::string> bearer_token; ///< when set (not empty), `Authorization: Bearer <token>` is required
    /// CORS, for pages of the origins listed in `allowed_origins` (not the loopback ones:
    /// any local development server is one of those). When `cors_methods` is not empty, a
    /// preflight (OPTIONS with Origin and Access-Control-Request-Method) is answered by the
    /// server itself, before any token is asked for (a browser sends none with it): 204
    /// when it asks for one of these methods and only request headers among `cors_headers`
    /// (ASCII case aside), else 403; and each answer to a request with an Origin says
    /// `Access-Control-Allow-Origin` and `Vary: Origin`, and exposes `cors_expose`.
    std::vector<std::string> cors_methods;
    std::vector<std::string> cors_headers;
    std::vector<std::string> cors_expose;
    unsigned threads = 1;                    ///< I/O threads run() uses, the caller's among them
    /// Told, from an I/O thread, why a request was answered 500 (what the handler threw,
    /// what was wrong with its response); the client only learns that it failed.
    std::function<void(std::string_view)> on_error;
};

using http_handler = std::function<http_response(http_request const&)>;

} // namespace skillmd::net

#endif
