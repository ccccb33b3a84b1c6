// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_NET_IMPL_HTTP_SESSION_HPP
#define SKILLMD_NET_IMPL_HTTP_SESSION_HPP

// One connection of http_server, and what the server shares with its connections. A
// connection lives on its own strand, so its steps never run at once; it keeps itself
// alive through the shared_ptr each pending operation holds, and ends when none is left.
//
// Its life: wait for a request's first byte (idle_timeout), read the header (the whole
// request must arrive within request_timeout from that byte), judge it, read the body,
// call the handler, write the answer (idle_timeout), and again while keep-alive allows.
// Whenever it closes after an answer it first stops sending and reads what the client
// still sends for a moment, so that the answer is not lost to a reset (a close with
// unread bytes sends RST, and the client's stack may drop the answer it has not read).

#include <skillmd/net/http_types.hpp>
#include <skillmd/net/impl/http_rules.hpp>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <exception>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace skillmd::net::detail {

namespace asio = boost::asio;
namespace beast = boost::beast;
using tcp = asio::ip::tcp;
using error_code = boost::system::error_code;

class http_session;

struct http_server_state
{
    http_server_options options;
    http_handler handler;
    std::string listened; ///< the address listened on, IPv6 in brackets; empty for every address (set by start())
    std::atomic<std::size_t> open{0}; ///< connections alive; at max_connections the next one is turned away

    std::mutex mutex; // guards what follows
    bool stopping = false;
    std::vector<std::weak_ptr<http_session>> sessions;

    bool is_stopping()
    {
        std::lock_guard lock(mutex);
        return stopping;
    }

    /// Lists a new connection; false when the server is stopping (it should close).
    bool enroll(std::weak_ptr<http_session> s)
    {
        std::lock_guard lock(mutex);
        std::erase_if(sessions, [](auto const& w) { return w.expired(); }); // keeps the list within max_connections
        sessions.push_back(std::move(s));
        return !stopping;
    }

    void stop_all(); // below: it needs the session

    void report(std::string_view what) const noexcept
    {
        if (!options.on_error) return;
        try {
            options.on_error(what);
        } catch (...) { // a logger's failure is not the client's
        }
    }
};

class http_session : public std::enable_shared_from_this<http_session>
{
public:
    http_session(std::shared_ptr<http_server_state> state, tcp::socket socket)
        : state_(std::move(state)), executor_(socket.get_executor()), peer_(peer_of(socket)),
          stream_(std::move(socket)), buffer_(header_room(state_->options.max_header_bytes)), grace_(executor_)
    {
        ++state_->open;
        // Answers are whole messages, written at once: Nagle's wait would only delay the
        // second of two pipelined answers until the client's delayed ACK (40 ms).
        error_code ignored;
        stream_.socket().set_option(tcp::no_delay(true), ignored);
    }
    http_session(http_session const&) = delete;
    http_session& operator=(http_session const&) = delete;
    ~http_session() { --state_->open; }

    void start()
    {
        bool const stopping = !state_->enroll(weak_from_this());
        asio::dispatch(executor_, [self = shared_from_this(), stopping] {
            self->closing_ = self->closing_ || stopping;
            self->read_next();
        });
    }

    /// From any thread: close now if waiting for a request, give one under way a short
    /// while to arrive, and close after the answer.
    void stop()
    {
        asio::post(executor_, [self = shared_from_this()] {
            self->closing_ = true;
            if (self->idle_) return self->close();
            if (!self->reading_) return;
            // The stream's own timer cannot be shortened under a pending read: a second one
            // closes the connection if the request has not arrived by then.
            self->grace_.expires_after(self->stop_grace());
            self->grace_.async_wait([self](error_code ec) {
                if (!ec && self->reading_) self->close();
            });
        });
    }

private:
    /// The read buffer's cap: a header at the limit fits, so that it is the parser that
    /// says 431; a body only passes through.
    static std::size_t header_room(std::size_t max_header_bytes)
    {
        return std::max(max_header_bytes, max_header_bytes + 4096); // no wrap-around at SIZE_MAX
    }

    static std::string peer_of(tcp::socket const& socket)
    {
        error_code ec;
        auto const at = socket.remote_endpoint(ec);
        if (ec) return "unknown";
        auto const address = at.address().to_string();
        auto const port = std::to_string(at.port());
        return at.address().is_v6() ? "[" + address + "]:" + port : address + ":" + port;
    }

    /// How long a stopping server waits for the rest of a request under way.
    std::chrono::steady_clock::duration stop_grace() const
    {
        return std::min<std::chrono::steady_clock::duration>(state_->options.request_timeout, std::chrono::seconds(2));
    }

    static bool is_http_error(error_code const& ec)
    {
        return ec.category() == beast::http::make_error_code(beast::http::error::end_of_stream).category();
    }

    void read_next()
    {
        if (closing_) return close();
        auto const& o = state_->options;
        parser_.emplace();
        parser_->header_limit(static_cast<std::uint32_t>(std::min<std::size_t>(o.max_header_bytes, std::numeric_limits<std::uint32_t>::max())));
        parser_->body_limit(static_cast<std::uint64_t>(o.max_body_bytes));
        if (buffer_.size() > 0) return read_header(); // the next request was sent with the last one
        idle_ = true;
        stream_.expires_after(o.idle_timeout);
        stream_.async_read_some(buffer_.prepare(4096), [self = shared_from_this()](error_code ec, std::size_t n) {
            self->idle_ = false;
            if (ec) return self->close(); // the client left, stayed silent too long, or the server stops
            self->buffer_.commit(n);
            self->read_header();
        });
    }

    void read_header()
    {
        reading_ = true;
        stream_.expires_after(closing_ ? stop_grace() : state_->options.request_timeout); // once: it covers the body too
        beast::http::async_read_header(stream_, buffer_, *parser_, [self = shared_from_this()](error_code ec, std::size_t) {
            if (ec) return self->refuse_unread(ec);
            self->on_header();
        });
    }

    void on_header()
    {
        auto const& head = parser_->get();
        if (auto const no = judge(head, state_->options, state_->listened)) {
            if (no->preflight) return answer(preflight_answer(head, state_->options));
            return answer(plain_answer(no->status, no->text, head.version(), false, no->www_authenticate));
        }
        header_fields_ = static_cast<std::size_t>(std::distance(head.begin(), head.end()));
        if (parser_->is_done()) return on_request();
        // A client that waits for leave to send its body gets it now that the header passed.
        if (head.version() == 11 && iequals(sv(head[beast::http::field::expect]), "100-continue")) {
            static constexpr std::string_view go_on = "HTTP/1.1 100 Continue\r\n\r\n";
            return asio::async_write(stream_, asio::buffer(go_on.data(), go_on.size()),
                                     [self = shared_from_this()](error_code ec, std::size_t) {
                                         if (ec) return self->close();
                                         self->read_body();
                                     });
        }
        read_body();
    }

    void read_body()
    {
        beast::http::async_read(stream_, buffer_, *parser_, [self = shared_from_this()](error_code ec, std::size_t) {
            if (ec) return self->refuse_unread(ec);
            self->on_request();
        });
    }

    /// A request that could not be read: answered when the fault is the request's, else the connection just closes.
    void refuse_unread(error_code const& ec)
    {
        reading_ = false;
        namespace e = beast::http;
        if (ec == e::error::body_limit) return answer(plain_answer(413, "request body too large\n", 11));
        if (ec == e::error::header_limit || (ec == e::error::buffer_overflow && !parser_->is_header_done()))
            return answer(plain_answer(431, "request header too large\n", 11));
        if (is_http_error(ec) && ec != e::error::end_of_stream && ec != e::error::partial_message)
            return answer(plain_answer(400, "malformed request\n", 11));
        close(); // timeout, reset, the client gone mid-request: nobody to answer
    }

    void on_request()
    {
        reading_ = false;
        grace_.cancel();
        try {
            // Fields in a chunked body's trailer would join the header unseen by the checks
            // above, and by any proxy in front: such a request is refused.
            if (parser_->is_header_done() &&
                static_cast<std::size_t>(std::distance(parser_->get().begin(), parser_->get().end())) != header_fields_)
                return answer(plain_answer(400, "trailer fields are not accepted\n", 11));
            auto message = parser_->release();
            http_request request;
            request.method = sv(message.method_string());
            request.target = sv(message.target());
            request.version = message.version();
            for (auto const& field : message) request.headers.emplace_back(sv(field.name_string()), sv(field.value()));
            request.body = std::move(message.body());
            request.peer = peer_;
            auto out = respond(request);
            if (auto const origin = request.header("Origin"); out && origin && cors_origin(*origin, state_->options)) {
                // A page of a listed origin may read the answer.
                out->headers.emplace_back("Access-Control-Allow-Origin", std::string(*origin));
                out->headers.emplace_back("Vary", "Origin");
                if (!state_->options.cors_expose.empty())
                    out->headers.emplace_back("Access-Control-Expose-Headers", joined(state_->options.cors_expose));
            }
            // Asked after the handler, and of the server, not only of closing_: a stop()
            // that came meanwhile is still queued behind this step on the strand.
            bool const keep_alive = message.keep_alive() && !closing_ && !state_->is_stopping();
            bool const head = message.method() == beast::http::verb::head;
            if (out) return answer(to_message(std::move(*out), message.version(), keep_alive, head));
            answer(plain_answer(500, "internal server error\n", message.version(), keep_alive));
        } catch (...) { // out of memory building the request or the answer: drop this connection only
            close();
        }
    }

    /// The handler's answer, or none when it threw or cannot be sent (reported, the client gets 500).
    std::optional<http_response> respond(http_request const& request)
    {
        try {
            auto out = state_->handler(request);
            auto const problem = response_problem(out);
            if (problem.empty()) return out;
            state_->report("invalid response to " + request.method + " " + request.target + ": " + problem);
        } catch (std::exception const& e) {
            state_->report("handler failed on " + request.method + " " + request.target + ": " + e.what());
        } catch (...) {
            state_->report("handler failed on " + request.method + " " + request.target + ": unknown exception");
        }
        return std::nullopt;
    }

    void answer(beast::http::response<beast::http::string_body>&& message)
    {
        response_ = std::move(message);
        stream_.expires_after(state_->options.idle_timeout);
        beast::http::async_write(stream_, response_, [self = shared_from_this()](error_code ec, std::size_t) {
            if (ec) return self->close();
            if (!self->response_.keep_alive() || self->closing_) return self->linger();
            self->response_ = {};
            self->read_next();
        });
    }

    void linger()
    {
        error_code ec;
        stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
        stream_.expires_after(std::min<std::chrono::steady_clock::duration>(state_->options.request_timeout, std::chrono::seconds(2)));
        drain(0);
    }

    void drain(std::size_t drained)
    {
        constexpr std::size_t enough = 1024 * 1024; // a client still sending that much is not listening
        buffer_.clear();
        if (drained > enough) return close();
        stream_.async_read_some(buffer_.prepare(4096), [self = shared_from_this(), drained](error_code ec, std::size_t n) {
            if (ec) return self->close(); // the client closed too (or the moment passed)
            self->drain(drained + n);
        });
    }

    void close()
    {
        idle_ = false;
        reading_ = false;
        grace_.cancel();
        stream_.close();
    }

    std::shared_ptr<http_server_state> state_;
    asio::any_io_executor executor_; // the connection's strand
    std::string peer_;
    beast::tcp_stream stream_;
    beast::flat_buffer buffer_;
    std::optional<beast::http::request_parser<beast::http::string_body>> parser_;
    beast::http::response<beast::http::string_body> response_;
    bool idle_ = false;    // waiting for a request's first byte: stop() may close at once
    bool reading_ = false; // a request under way: stop() gives it stop_grace() to arrive
    std::size_t header_fields_ = 0; // the fields of the header checked, to tell a trailer
    asio::steady_timer grace_;      // a stopping server's wait for the request under way
    bool closing_ = false; // the server stops: no further request on this connection
};

inline void http_server_state::stop_all()
{
    std::vector<std::weak_ptr<http_session>> now;
    {
        std::lock_guard lock(mutex);
        stopping = true;
        now = sessions;
    }
    for (auto const& w : now)
        if (auto s = w.lock()) s->stop();
}

} // namespace skillmd::net::detail

#endif
