// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_NET_HPP
#define SKILLMD_NET_HPP

// A small, hardened HTTP/1.1 server for local tools and a client for one server, on
// Boost.Beast and Boost.Asio (headers only), TLS through OpenSSL. Needs nothing else of
// skillmd: link skillmd::net (Boost headers, threads, OpenSSL's libssl).
//   origin.hpp        the Host and Origin checks against DNS rebinding, read strictly
//   http_types.hpp    the request a handler gets, the response it returns, the server's limits
//   http_server.hpp   the server: checks before the handler, caps, timeouts, graceful stop
//   http_client.hpp   the client: one deadline per request, caps, https with certificates checked
//   sse.hpp           server-sent events read from a body

#include <skillmd/net/origin.hpp>
#include <skillmd/net/http_types.hpp>
#include <skillmd/net/http_server.hpp>
#include <skillmd/net/http_client.hpp>
#include <skillmd/net/sse.hpp>

#endif
