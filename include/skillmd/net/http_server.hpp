// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_NET_HTTP_SERVER_HPP
#define SKILLMD_NET_HTTP_SERVER_HPP

// A small HTTP/1.1 server on Boost.Beast for serving a local tool (MCP's streamable HTTP
// transport first) to programs and browsers on the same machine. A local server is
// reachable from every web page the user opens, so each request is judged before the
// handler sees it, in this order:
//   1. framing: a malformed request (HTTP/2's preface among them) gets 400, a header
//      section over max_header_bytes 431, a body over max_body_bytes 413 (a Content-Length
//      over it before a byte of the body is read, a chunked body as soon as it passes
//      it), and the connection closes;
//   2. Host and Origin (net/origin.hpp), against DNS rebinding: a Host that is not a
//      loopback host, the address listened on or an allowed name gets 403, and so does an
//      Origin that is not a loopback origin or an allowed one (a page of another site);
//      a request without Origin (curl, SDKs) goes on; an HTTP/1.1 request without one
//      Host gets 400;
//   3. the bearer token, when one is set: missing or wrong gets 401.
// Nothing grows without bound: max_connections caps the connections (the next one is
// answered 503 and closed), idle_timeout closes a connection with no request under way,
// and a request must arrive whole within request_timeout, however slowly it trickles.
// A handler that throws, or returns a response that cannot be sent as it is, gets the
// client a 500 and the server goes on. Responses carry Content-Length and, unless the
// handler says otherwise, `Cache-Control: no-store`; keep-alive is honoured.
//
// The handler runs on an I/O thread and holds it while it runs: with `threads` > 1 it is
// called concurrently, from several threads, and must be thread-safe.
// Needs Boost.Beast and Boost.Asio (headers only) and threads: link skillmd::net.

#include <skillmd/net/http_types.hpp>

#include <cstddef>
#include <memory>

namespace skillmd::net {

namespace detail {
struct http_server_state;
struct http_server_io;
} // namespace detail

class http_server
{
public:
    /// Throws std::invalid_argument without a handler, for an empty bearer token, a
    /// max_header_bytes or max_connections of 0, or a timeout that is not above 0.
    http_server(http_server_options options, http_handler handler);
    http_server(http_server const&) = delete;
    http_server& operator=(http_server const&) = delete;
    /// Destroy it once run() has returned, or without ever calling run().
    ~http_server();

    /// Binds and listens; returns the port. Throws std::system_error saying which address
    /// it could not listen on and why (address in use, no such address, permission).
    unsigned short start();
    /// Serves until stop(), on `threads` threads (the caller's and threads - 1 more);
    /// calls start() first if it was not called. Returns once every connection is closed.
    void run();
    /// From any thread: stops accepting, closes idle connections, lets the requests under
    /// way be answered (with `Connection: close`) and then closes their connections, so
    /// run() returns: once each such client closes its end, or after at most 2 s
    /// (request_timeout if shorter). Not for a signal handler: use stop_on_signals().
    void stop();
    /// SIGINT and SIGTERM call stop() (through asio::signal_set, so no code runs in the
    /// handler itself); after that, the signals' default action is back, so a second
    /// Ctrl-C ends the process. Call before run().
    void stop_on_signals();

    unsigned short port() const noexcept;   ///< the port listened on, once started
    std::size_t connections() const noexcept; ///< the connections open now

private:
    std::shared_ptr<detail::http_server_state> state_; // shared with the connections
    std::unique_ptr<detail::http_server_io> io_;       // destroyed first: its handlers hold state_
};

} // namespace skillmd::net

#include <skillmd/net/impl/http_server.hpp>

#endif
