// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_NET_IMPL_HTTP_SERVER_HPP
#define SKILLMD_NET_IMPL_HTTP_SERVER_HPP

// http_server's definitions: the listening socket, the accept loop with its connection
// cap, the threads, and stopping. The acceptor, the signals and stopping share one
// strand, so stop() from any thread only posts to it.

#include <skillmd/net/http_server.hpp>
#include <skillmd/net/impl/http_session.hpp>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/v6_only.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>

#include <algorithm>
#include <csignal>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

namespace skillmd::net {

namespace detail {

struct http_server_io
{
    asio::io_context context;
    asio::strand<asio::io_context::executor_type> strand{asio::make_strand(context)};
    tcp::acceptor acceptor{strand};
    asio::signal_set signals{strand};
    asio::steady_timer backoff{strand};
    bool started = false;
    unsigned short port = 0;
};

/// Answers 503 to a connection over the cap and closes it, without reading from it or
/// keeping anything for it: one small write to a fresh socket's empty send buffer.
inline void turn_away(tcp::socket& socket) noexcept
{
    static constexpr std::string_view answer = "HTTP/1.1 503 Service Unavailable\r\n"
                                               "Content-Type: text/plain; charset=utf-8\r\n"
                                               "Content-Length: 21\r\n"
                                               "Cache-Control: no-store\r\n"
                                               "Retry-After: 1\r\n"
                                               "Connection: close\r\n"
                                               "\r\n"
                                               "too many connections\n";
    error_code ec;
    socket.non_blocking(true, ec);
    socket.write_some(asio::buffer(answer.data(), answer.size()), ec);
    socket.shutdown(tcp::socket::shutdown_both, ec);
    socket.close(ec);
}

inline void accept_next(http_server_io& io, std::shared_ptr<http_server_state> const& state)
{
    // Each connection gets a strand of its own: with several threads, connections run in
    // parallel and each one's steps in order.
    io.acceptor.async_accept(asio::make_strand(io.context), [&io, state](error_code ec, tcp::socket socket) {
        if (!io.acceptor.is_open()) return; // stopped
        if (ec) {
            // Out of file descriptors, most likely: try again shortly instead of spinning.
            io.backoff.expires_after(std::chrono::milliseconds(50));
            io.backoff.async_wait([&io, state](error_code waited) {
                if (!waited && io.acceptor.is_open()) accept_next(io, state);
            });
            return;
        }
        if (state->open.load() >= state->options.max_connections) {
            turn_away(socket);
        } else {
            try {
                std::make_shared<http_session>(state, std::move(socket))->start();
            } catch (...) { // out of memory for one more connection: that connection closes, the server goes on
                error_code ignored;
                socket.close(ignored);
            }
        }
        accept_next(io, state);
    });
}

/// Where to listen: an address (IPv6 with or without brackets) or a name resolved now.
inline tcp::endpoint listen_endpoint(asio::io_context& context, std::string host, unsigned short port, error_code& ec)
{
    if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
    auto const address = asio::ip::make_address(host, ec);
    if (!ec) return {address, port};
    tcp::resolver resolver(context);
    auto const found = resolver.resolve(host, std::to_string(port), tcp::resolver::passive | tcp::resolver::numeric_service, ec);
    if (ec) return {};
    if (found.empty()) {
        ec = asio::error::host_not_found;
        return {};
    }
    return found.begin()->endpoint();
}

} // namespace detail

inline http_server::http_server(http_server_options options, http_handler handler)
    : state_(std::make_shared<detail::http_server_state>()), io_(std::make_unique<detail::http_server_io>())
{
    if (!handler) throw std::invalid_argument("http_server: no handler");
    if (options.bearer_token && options.bearer_token->empty())
        throw std::invalid_argument("http_server: the bearer token is empty");
    if (options.max_header_bytes == 0 || options.max_connections == 0)
        throw std::invalid_argument("http_server: max_header_bytes and max_connections must be above 0");
    if (options.idle_timeout.count() <= 0 || options.request_timeout.count() <= 0)
        throw std::invalid_argument("http_server: the timeouts must be above 0");
    state_->options = std::move(options);
    state_->handler = std::move(handler);
}

inline http_server::~http_server() = default;

inline unsigned short http_server::start()
{
    if (io_->started) return io_->port;
    auto const& o = state_->options;
    bool const v6 = o.host.find(':') != std::string::npos;
    std::string const where = (v6 && o.host.front() != '[' ? "[" + o.host + "]" : o.host) + ":" + std::to_string(o.port);
    auto fail = [&](detail::error_code const& ec, std::string const& doing) {
        detail::error_code ignored;
        io_->acceptor.close(ignored);
        throw std::system_error(static_cast<std::error_code>(ec), "cannot listen on " + where + doing);
    };
    detail::error_code ec;
    auto const endpoint = detail::listen_endpoint(io_->context, o.host, o.port, ec);
    if (ec) fail(ec, " (resolving the host)");
    auto& acceptor = io_->acceptor;
    acceptor.open(endpoint.protocol(), ec);
    if (ec) fail(ec, "");
    if (endpoint.address().is_v6()) acceptor.set_option(boost::asio::ip::v6_only(true), ec); // that address only
    if (!ec) acceptor.set_option(detail::tcp::acceptor::reuse_address(true), ec); // restart at once after a stop
    if (ec) fail(ec, "");
    acceptor.bind(endpoint, ec);
    if (ec) fail(ec, "");
    acceptor.listen(boost::asio::socket_base::max_listen_connections, ec);
    if (ec) fail(ec, "");
    io_->port = acceptor.local_endpoint(ec).port();
    auto const address = endpoint.address();
    if (!address.is_unspecified()) state_->listened = address.is_v6() ? "[" + address.to_string() + "]" : address.to_string();
    io_->started = true;
    boost::asio::post(io_->strand, [io = io_.get(), state = state_] {
        if (!state->is_stopping()) return detail::accept_next(*io, state);
        detail::error_code ignored;
        io->acceptor.close(ignored); // stop() came first
    });
    return io_->port;
}

inline void http_server::run()
{
    start();
    unsigned const n = std::max(1u, state_->options.threads);
    std::mutex failed_mutex;
    std::exception_ptr failed;
    auto const work = [&] {
        try {
            io_->context.run();
        } catch (...) { // not a handler's (those are caught per request): the server cannot go on
            std::lock_guard lock(failed_mutex);
            if (!failed) failed = std::current_exception();
            io_->context.stop();
        }
    };
    std::vector<std::thread> helpers;
    helpers.reserve(n - 1);
    for (unsigned i = 1; i < n; ++i) helpers.emplace_back(work);
    work();
    for (auto& t : helpers) t.join();
    if (failed) std::rethrow_exception(failed);
}

inline void http_server::stop()
{
    boost::asio::post(io_->strand, [io = io_.get()] {
        detail::error_code ignored;
        io->acceptor.close(ignored);
        io->backoff.cancel();
        io->signals.clear(ignored); // a second Ctrl-C now ends the process
        io->signals.cancel(ignored);
    });
    state_->stop_all();
}

inline void http_server::stop_on_signals()
{
    io_->signals.add(SIGINT);
    io_->signals.add(SIGTERM);
    io_->signals.async_wait([this](detail::error_code ec, int) {
        if (!ec) stop();
    });
}

inline unsigned short http_server::port() const noexcept
{
    return io_->port;
}

inline std::size_t http_server::connections() const noexcept
{
    return state_->open.load();
}

} // namespace skillmd::net

#endif
