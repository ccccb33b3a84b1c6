// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_NET_HTTP_CLIENT_HPP
#define SKILLMD_NET_HTTP_CLIENT_HPP

// A small HTTP/1.1 client for one server (one base URL), on Boost.Beast, with TLS through
// OpenSSL. The server is hostile until checked: every request has one deadline for all
// its steps (name lookup, connect, TLS handshake, write, read), the answer's header and
// body have caps, redirects are returned rather than followed, and a certificate must
// chain to a trusted root and name the host. Plain `http://` reaches only loopback hosts
// unless allowed. Synchronous on purpose: each call runs its own io_context until done.
// Needs OpenSSL's libssl: link skillmd::net.

#include <skillmd/config.hpp>
#include <skillmd/net/impl/ascii.hpp>
#include <skillmd/net/impl/http_rules.hpp>
#include <skillmd/net/origin.hpp>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/host_name_verification.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>

#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <poll.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace skillmd::net {

/// A URL this client accepts, split: `http` or `https`, a host (a name, an IPv4 address or
/// an IPv6 address in brackets), an optional port, a path and an optional query.
struct url_parts
{
    bool tls = false;
    std::string host;   ///< as written; IPv6 in brackets
    std::string port;   ///< "80" or "443" when none was written
    std::string target; ///< path and query, "/" when none was written
    /// The host as the resolver and certificate check want it: IPv6 without brackets.
    std::string bare_host() const { return host.size() > 1 && host.front() == '[' ? host.substr(1, host.size() - 2) : host; }
    /// What the Host header says: the host, and the port unless it is the scheme's own.
    std::string authority() const { return host + (port == (tls ? "443" : "80") ? "" : ":" + port); }
};

/// Splits `url`, or says why not. Only the narrow form above is accepted: no user info,
/// no fragment, nothing that is not visible ASCII; the authority is read by the same
/// strict rules as a Host header (origin.hpp).
inline std::optional<url_parts> split_url(std::string_view url, std::string& why)
{
    url_parts out;
    if (detail::istarts_with(url, "https://")) {
        out.tls = true;
        url.remove_prefix(8);
    } else if (detail::istarts_with(url, "http://")) {
        url.remove_prefix(7);
    } else {
        why = "not an http:// or https:// URL";
        return std::nullopt;
    }
    for (char const c : url)
        if (c <= ' ' || c >= 0x7f || c == '#') {
            why = "the URL holds a blank, a control or non-ASCII character, or a fragment";
            return std::nullopt;
        }
    auto const slash = url.find_first_of("/?");
    std::string_view const authority = url.substr(0, slash);
    auto const name = detail::host_name(authority);
    if (!name) {
        why = "the URL's host is not a host name, an address or [IPv6] with an optional port (user info is refused)";
        return std::nullopt;
    }
    out.host = std::string(*name);
    out.port = authority.size() > name->size() ? std::string(authority.substr(name->size() + 1)) : (out.tls ? "443" : "80");
    out.target = slash == std::string_view::npos ? "/" : std::string(url.substr(slash));
    if (out.target.front() == '?') out.target.insert(0, "/");
    return out;
}

struct http_client_options
{
    std::chrono::milliseconds timeout{10000};       ///< one request, from the name lookup to the last byte of the answer
    std::size_t max_body_bytes = 32 * 1024 * 1024;  ///< a longer answer fails the request
    std::size_t max_header_bytes = 64 * 1024;       ///< the status line and the headers together
    std::string ca_file; ///< PEM certificates trusted besides the system's store (a private CA)
    bool system_store = true; ///< trust the system's store (OpenSSL's default paths)
    bool allow_http = false;  ///< plain http:// to a host that is not loopback
    std::string user_agent = "skillmd";
};

struct http_client_response
{
    unsigned status = 0;
    std::vector<std::pair<std::string, std::string>> headers; ///< as received
    std::string body;
    /// The value of the first header of that name (ASCII case aside), or none.
    std::optional<std::string_view> header(std::string_view name) const
    {
        for (auto const& [n, v] : headers)
            if (detail::iequals(n, name)) return std::string_view(v);
        return std::nullopt;
    }
    /// How many headers have that name.
    std::size_t count(std::string_view name) const
    {
        std::size_t n = 0;
        for (auto const& h : headers) n += detail::iequals(h.first, name) ? 1u : 0u;
        return n;
    }
};

/** A client for the server of one base URL. It keeps one connection open between
    requests and opens a new one when the server closed it. Not thread-safe.
*/
class http_client
{
public:
    explicit http_client(std::string url, http_client_options opts = {}) : opts_(std::move(opts))
    {
        if (auto parts = split_url(url, error_)) {
            url_ = std::move(*parts);
            if (!url_.tls && !opts_.allow_http && !is_loopback_host(url_.host))
                error_ = "plain http:// reaches only this machine (localhost, 127.0.0.1, [::1]); use https://";
        }
    }
    http_client(http_client const&) = delete;
    http_client& operator=(http_client const&) = delete;

    /// Empty when the URL is usable; otherwise why it is not (every request fails with it).
    std::string const& url_error() const noexcept { return error_; }
    url_parts const& url() const noexcept { return url_; }

    /// Sends one request to the base URL's target and reads the answer; nothing (and
    /// `why`) on a transport failure. A redirect is an answer like any other.
    std::optional<http_client_response> request(std::string_view method, std::vector<std::pair<std::string, std::string>> const& headers,
                                                std::string body, std::string& why)
    {
        if (!error_.empty()) {
            why = error_;
            return std::nullopt;
        }
        for (auto const& [name, value] : headers)
            if (!detail::is_token(name) || !detail::is_field_value(value)) {
                why = "a header field that could split the request is not sent";
                return std::nullopt;
            }
        auto const deadline = std::chrono::steady_clock::now() + opts_.timeout;
        // A kept connection the server has closed (or sent more on) is not used: a request
        // is sent once, never again after a failure, as the server may have acted on it.
        if (conn_ && stale(*conn_)) conn_.reset();
        return attempt(method, headers, body, deadline, why);
    }

    /// Closes the connection (the next request opens one).
    void close() noexcept { conn_.reset(); }

private:
    using error_code = boost::system::error_code;
    using tcp = boost::asio::ip::tcp;

    struct connection
    {
        // The buffer holds a header and chunk framing (a body goes to the parser): capped,
        // so chunk extensions or trailers without end cannot grow it past the header cap.
        explicit connection(std::size_t limit) : buffer(limit) {}
        boost::asio::io_context io;
        std::optional<boost::beast::tcp_stream> plain;
        std::optional<boost::beast::ssl_stream<boost::beast::tcp_stream>> secure;
        boost::beast::flat_buffer buffer;
        boost::beast::tcp_stream& lowest() { return secure ? boost::beast::get_lowest_layer(*secure) : *plain; }
    };

    /// Runs one asynchronous step to its end: `initiate(handler)` starts it; the stream's
    /// deadline (or a timer) ends a step that hangs.
    template <class Initiate>
    static error_code run(boost::asio::io_context& io, Initiate&& initiate)
    {
        std::optional<error_code> result;
        std::forward<Initiate>(initiate)([&](error_code ec, auto&&...) { result = ec; });
        io.restart();
        io.run();
        return result.value_or(boost::asio::error::operation_aborted);
    }

    /// True when the socket has something to read (the server's close, a TLS alert, or
    /// bytes nobody asked for) while no request is under way.
    static bool stale(connection& c)
    {
        if (c.buffer.size() != 0) return true;
        auto& socket = c.lowest().socket();
        pollfd p{socket.native_handle(), POLLIN, 0};
        return ::poll(&p, 1, 0) != 0;
    }

    static bool late(std::chrono::steady_clock::time_point deadline) { return std::chrono::steady_clock::now() >= deadline; }

    std::string timed_out() const { return "no complete answer from " + url_.authority() + " within " + std::to_string(opts_.timeout.count()) + " ms"; }

    std::string describe(error_code ec) const
    {
        namespace http = boost::beast::http;
        if (ec == boost::beast::error::timeout || ec == boost::asio::error::operation_aborted) return timed_out();
        if (ec == http::error::body_limit) return "the answer is longer than " + std::to_string(opts_.max_body_bytes) + " bytes";
        if (ec == http::error::buffer_overflow)
            return "the answer's framing (chunk extensions, trailers) is longer than " + std::to_string(opts_.max_header_bytes) + " bytes";
        if (ec == http::error::header_limit)
            return "the answer's header is longer than " + std::to_string(opts_.max_header_bytes) + " bytes";
        return ec.message();
    }

    boost::asio::ssl::context* tls_context(std::string& why)
    {
        if (!tls_error_.empty()) {
            why = tls_error_;
            return nullptr;
        }
        if (!tls_) {
            tls_ = std::make_unique<boost::asio::ssl::context>(boost::asio::ssl::context::tls_client);
            tls_->set_options(boost::asio::ssl::context::default_workarounds | boost::asio::ssl::context::no_sslv2 |
                              boost::asio::ssl::context::no_sslv3 | boost::asio::ssl::context::no_tlsv1 |
                              boost::asio::ssl::context::no_tlsv1_1);
            error_code ec;
            if (opts_.system_store) tls_->set_default_verify_paths(ec);
            if (!ec && !opts_.ca_file.empty()) {
                tls_->load_verify_file(opts_.ca_file, ec);
                if (ec) {
                    tls_error_ = "cannot read the certificates in " + opts_.ca_file + ": " + ec.message();
                    why = tls_error_;
                    return nullptr;
                }
            }
            tls_->set_verify_mode(boost::asio::ssl::verify_peer);
        }
        return tls_.get();
    }

    /// A new connection: the name looked up, connected, and for https the handshake done
    /// with the certificate checked against the trusted roots and the host.
    std::unique_ptr<connection> open(std::chrono::steady_clock::time_point deadline, std::string& why)
    {
        auto c = std::make_unique<connection>(opts_.max_header_bytes + 65536);
        tcp::resolver resolver(c->io);
        boost::asio::steady_timer timer(c->io, deadline);
        tcp::resolver::results_type found;
        std::optional<error_code> resolved;
        timer.async_wait([&](error_code ec) {
            if (!ec) resolver.cancel();
        });
        resolver.async_resolve(url_.bare_host(), url_.port, [&](error_code ec, tcp::resolver::results_type r) {
            resolved = ec;
            found = std::move(r);
            timer.cancel();
        });
        c->io.run();
        if (!resolved || *resolved || late(deadline)) { // a lookup cannot be cut short: one that ends late fails
            if (resolved && !*resolved) resolved = boost::asio::error::operation_aborted;
            why = "cannot find " + url_.host + ": " + (resolved && *resolved != boost::asio::error::operation_aborted ? resolved->message() : timed_out());
            return nullptr;
        }
        if (url_.tls) {
            auto* ctx = tls_context(why);
            if (ctx == nullptr) return nullptr;
            c->secure.emplace(c->io, *ctx);
        } else {
            c->plain.emplace(c->io);
        }
        c->lowest().expires_at(deadline);
        if (auto const ec = run(c->io, [&](auto h) { c->lowest().async_connect(found, std::move(h)); }); ec || late(deadline)) {
            why = "cannot connect to " + url_.authority() + ": " + describe(ec ? ec : error_code(boost::beast::error::timeout));
            return nullptr;
        }
        if (!url_.tls) return c;
        SSL* const ssl = c->secure->native_handle();
        std::string const host = url_.bare_host();
        error_code not_ip;
        boost::asio::ip::make_address(host, not_ip);
        // OpenSSL's own host check, so that a mismatch is named as such.
        bool const named = not_ip ? SSL_set_tlsext_host_name(ssl, host.c_str()) == 1 && SSL_set1_host(ssl, host.c_str()) == 1
                                  : X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), host.c_str()) == 1;
        if (!named) {
            why = "cannot check certificates for " + host;
            return nullptr;
        }
        c->lowest().expires_at(deadline);
        if (auto ec = run(c->io, [&](auto h) { c->secure->async_handshake(boost::asio::ssl::stream_base::client, std::move(h)); });
            ec || late(deadline)) {
            if (!ec) ec = boost::beast::error::timeout;
            long const verdict = SSL_get_verify_result(ssl);
            why = verdict != X509_V_OK ? "the certificate of " + url_.authority() + " is refused: " + X509_verify_cert_error_string(verdict)
                                       : "the TLS handshake with " + url_.authority() + " failed: " + describe(ec);
            return nullptr;
        }
        return c;
    }

    std::optional<http_client_response> attempt(std::string_view method, std::vector<std::pair<std::string, std::string>> const& headers,
                                                std::string const& body, std::chrono::steady_clock::time_point deadline,
                                                std::string& why)
    {
        namespace http = boost::beast::http;
        if (!conn_) {
            conn_ = open(deadline, why);
            if (!conn_) return std::nullopt;
        }
        auto& c = *conn_;
        http::request<http::string_body> req;
        req.method_string(boost::beast::string_view(method.data(), method.size()));
        req.target(url_.target);
        req.version(11);
        req.set(http::field::host, url_.authority());
        req.set(http::field::user_agent, opts_.user_agent);
        for (auto const& [name, value] : headers) req.insert(name, value);
        req.body() = body;
        req.prepare_payload();
        c.lowest().expires_at(deadline);
        auto ec = late(deadline) ? error_code(boost::beast::error::timeout) : error_code();
        if (!ec) ec = run(c.io, [&](auto h) {
            if (c.secure)
                http::async_write(*c.secure, req, std::move(h));
            else
                http::async_write(*c.plain, req, std::move(h));
        });
        std::optional<http::response_parser<http::string_body>> parser;
        // Interim answers (100 Continue, 103 Early Hints) come before the answer: read past.
        for (int interim = 0; !ec && interim < 8 && (!parser || parser->get().result_int() / 100 == 1); ++interim) {
            parser.emplace();
            parser->body_limit(opts_.max_body_bytes);
            parser->header_limit(static_cast<std::uint32_t>(std::min<std::size_t>(opts_.max_header_bytes, 0xffffffffu)));
            if (late(deadline)) {
                ec = boost::beast::error::timeout;
                break;
            }
            c.lowest().expires_at(deadline);
            ec = run(c.io, [&](auto h) {
                if (c.secure)
                    http::async_read(*c.secure, c.buffer, *parser, std::move(h));
                else
                    http::async_read(*c.plain, c.buffer, *parser, std::move(h));
            });
        }
        if (!ec && parser->get().result_int() / 100 == 1) ec = http::error::bad_status; // 101, or interim answers without end
        if (ec) {
            conn_.reset();
            why = url_.authority() + ": " + describe(ec);
            return std::nullopt;
        }
        auto& res = parser->get();
        http_client_response out;
        out.status = res.result_int();
        for (auto const& field : res) out.headers.emplace_back(std::string(field.name_string()), std::string(field.value()));
        bool const keep = res.keep_alive();
        out.body = std::move(res.body());
        if (!keep || c.buffer.size() != 0) conn_.reset(); // bytes after the answer: the stream is out of step
        return out;
    }

    http_client_options opts_;
    url_parts url_;
    std::string error_;
    std::unique_ptr<boost::asio::ssl::context> tls_;
    std::unique_ptr<connection> conn_;
    std::string tls_error_; ///< the trusted certificates could not be loaded: every https request fails with it
};

} // namespace skillmd::net

#endif
