// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_NET_IMPL_HTTP_RULES_HPP
#define SKILLMD_NET_IMPL_HTTP_RULES_HPP

// What http_server decides without the handler: whether a request's header lets it in
// (Host, Origin, bearer token), and how a handler's http_response becomes a message on the
// wire, or why it cannot.

#include <skillmd/net/http_types.hpp>
#include <skillmd/net/impl/ascii.hpp>
#include <skillmd/net/origin.hpp>
#include <skillmd/detail/trim.hpp>

#include <boost/beast/http/field.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace skillmd::net::detail {

namespace http = boost::beast::http;

inline std::string_view sv(boost::beast::string_view s) noexcept
{
    return {s.data(), s.size()};
}

/// Equal, in a time that depends on the length of `expected` only, so that the moment a
/// wrong guess is refused says nothing about how much of it was right.
inline bool constant_time_equal(std::string_view given, std::string_view expected) noexcept
{
    unsigned char difference = given.size() == expected.size() ? 0 : 1;
    for (std::size_t i = 0; i < expected.size(); ++i) {
        auto const g = i < given.size() ? static_cast<unsigned char>(given[i]) : static_cast<unsigned char>(0);
        difference = static_cast<unsigned char>(difference | (g ^ static_cast<unsigned char>(expected[i])));
    }
    return difference == 0;
}

/// `Authorization: Bearer <token>` with this token (the scheme's case aside, RFC 6750).
inline bool bearer_matches(std::string_view credentials, std::string_view token) noexcept
{
    if (credentials.size() < 7 || !iequals(credentials.substr(0, 6), "bearer") || credentials[6] != ' ') return false;
    credentials.remove_prefix(7);
    credentials.remove_prefix(std::min(credentials.find_first_not_of(' '), credentials.size()));
    return constant_time_equal(credentials, token);
}

/// A request turned away before its body is read.
struct refusal
{
    unsigned status;
    std::string_view text;
    std::string_view www_authenticate; ///< for 401
    bool preflight = false;            ///< a CORS preflight: answered by preflight_answer instead
};

/// Whether pages of `origin` get CORS: only origins listed in `allowed_origins`, never
/// merely loopback ones (any local development server is one), and only when the server
/// offers CORS at all.
inline bool cors_origin(std::string_view origin, http_server_options const& options) noexcept
{
    return !options.cors_methods.empty() && std::any_of(options.allowed_origins.begin(), options.allowed_origins.end(),
                                                         [&](std::string const& a) { return iequals(a, origin); });
}

/// The checks on a request's header, in order: its framing, Host, Origin, the bearer
/// token. `listened` is the address the server listens on (empty: every address).
template <class Fields>
std::optional<refusal> judge(http::header<true, Fields> const& head, http_server_options const& options,
                             std::string_view listened)
{
    // A body is framed by a length or by `chunked` alone (RFC 9112, 6.1): any other coding,
    // or `chunked` in HTTP/1.0, would leave the body's end to a guess, and the rest of the
    // bytes to be read as the next request (smuggling). Beast would take the body as empty.
    auto const codings = head.equal_range(http::field::transfer_encoding);
    if (auto const n = std::distance(codings.first, codings.second); n > 0) {
        if (n > 1 || head.version() < 11) return refusal{400, "malformed request\n", {}};
        std::string_view v = sv(codings.first->value());
        while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
        while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) v.remove_suffix(1);
        if (!iequals(v, "chunked")) {
            auto const comma = v.rfind(',');
            std::string_view last = comma == std::string_view::npos ? v : v.substr(comma + 1);
            while (!last.empty() && (last.front() == ' ' || last.front() == '\t')) last.remove_prefix(1);
            if (iequals(last, "chunked")) return refusal{501, "transfer coding not supported\n", {}};
            return refusal{400, "malformed request\n", {}};
        }
    }
    // HTTP/1.1 requires one Host (RFC 9112, 3.2); an HTTP/1.0 client may leave it out.
    auto const hosts = head.equal_range(http::field::host);
    auto const n_hosts = std::distance(hosts.first, hosts.second);
    if (n_hosts > 1 || (n_hosts == 0 && head.version() >= 11)) return refusal{400, "one Host header required\n", {}};
    if (n_hosts == 1 && !host_allowed(sv(hosts.first->value()), options.allowed_hosts, listened))
        return refusal{403, "host not allowed\n", {}};
    // Two Origin or Authorization headers are a request built to confuse: never a browser's.
    auto const origins = head.equal_range(http::field::origin);
    auto const n_origins = std::distance(origins.first, origins.second);
    if (n_origins > 1 ||
        (n_origins == 1 && !origin_allowed(sv(origins.first->value()), options.allowed_origins, options.loopback_origins)))
        return refusal{403, "origin not allowed\n", {}};
    if (n_origins == 1 && head.method() == http::verb::options && cors_origin(sv(origins.first->value()), options) &&
        head.find("Access-Control-Request-Method") != head.end())
        return refusal{204, {}, {}, true};
    if (options.bearer_token) {
        auto const auth = head.equal_range(http::field::authorization);
        if (std::distance(auth.first, auth.second) != 1) return refusal{401, "authorization required\n", "Bearer"};
        if (!bearer_matches(sv(auth.first->value()), *options.bearer_token))
            return refusal{401, "invalid token\n", "Bearer error=\"invalid_token\""};
    }
    return std::nullopt;
}

/// An RFC 9110 token: what a header name must be.
inline bool is_token(std::string_view s) noexcept
{
    constexpr std::string_view punctuation = "!#$%&'*+-.^_`|~";
    return !s.empty() && std::all_of(s.begin(), s.end(), [&](char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
               punctuation.find(c) != std::string_view::npos;
    });
}

/// No control character but tab: a CR or LF would end the header and start another.
inline bool is_field_value(std::string_view s) noexcept
{
    return std::none_of(s.begin(), s.end(), [](char c) {
        auto const u = static_cast<unsigned char>(c);
        return (u < 0x20 && c != '\t') || u == 0x7f;
    });
}

/// Headers that frame the message or the connection: the server sets them.
inline bool is_framing_header(std::string_view name) noexcept
{
    for (std::string_view const f : {"content-length", "transfer-encoding", "connection", "keep-alive", "upgrade"})
        if (iequals(name, f)) return true;
    return false;
}

/// Why `r` cannot be sent as it is; empty when it can.
inline std::string response_problem(http_response const& r)
{
    if (r.status < 200 || r.status > 599) return "status " + std::to_string(r.status) + " is not a final status";
    if ((r.status == 204 || r.status == 304) && !r.body.empty())
        return "a " + std::to_string(r.status) + " response has a body";
    if (!is_field_value(r.content_type)) return "the content type holds a control character";
    for (auto const& [name, value] : r.headers) {
        if (!is_token(name)) return "a header name is not a token";
        if (!is_field_value(value)) return "header " + name + " holds a control character";
        if (is_framing_header(name)) return "header " + name + " is set by the server";
    }
    return {};
}

/// `r` (checked by response_problem) as the answer to a request of this version and method.
inline http::response<http::string_body> to_message(http_response&& r, unsigned version, bool keep_alive, bool head)
{
    http::response<http::string_body> m;
    m.version(version);
    m.result(r.status);
    bool has_type = false, has_cache = false, has_nosniff = false;
    for (auto& [name, value] : r.headers) {
        m.insert(name, value);
        has_type = has_type || iequals(name, "content-type");
        has_cache = has_cache || iequals(name, "cache-control");
        has_nosniff = has_nosniff || iequals(name, "x-content-type-options");
    }
    if (!r.content_type.empty())
        m.set(http::field::content_type, r.content_type);
    else if (!has_type && !r.body.empty())
        m.set(http::field::content_type, "text/plain; charset=utf-8");
    if (!has_cache) m.set(http::field::cache_control, "no-store"); // answers are live state, never a cache's
    if (!has_nosniff) m.set("X-Content-Type-Options", "nosniff");
    if (head) {
        m.content_length(r.body.size()); // what a GET would carry, and no body
    } else if (r.status != 204 && r.status != 304) {
        m.body() = std::move(r.body);
        m.prepare_payload();
    }
    m.keep_alive(keep_alive);
    return m;
}

inline std::string joined(std::vector<std::string> const& items)
{
    std::string out;
    for (auto const& i : items) out += (out.empty() ? "" : ", ") + i;
    return out;
}

/// The answer to a CORS preflight from an allowed origin (judge says when): 204 with what
/// a page of that origin may send, or 403 when it asks for a method or a header not offered.
template <class Fields>
http::response<http::string_body> preflight_answer(http::header<true, Fields> const& head, http_server_options const& options)
{
    using skillmd::detail::trim;
    std::string_view const method = trim(sv(head["Access-Control-Request-Method"]));
    bool ok = std::find(options.cors_methods.begin(), options.cors_methods.end(), method) != options.cors_methods.end();
    for (std::string_view asked = sv(head["Access-Control-Request-Headers"]); ok && !asked.empty();) {
        auto const comma = asked.find(',');
        std::string_view const one = trim(asked.substr(0, comma));
        asked = comma == std::string_view::npos ? std::string_view() : asked.substr(comma + 1);
        ok = one.empty() || std::any_of(options.cors_headers.begin(), options.cors_headers.end(),
                                        [&](std::string const& h) { return iequals(h, one); });
    }
    http_response r;
    r.status = ok ? 204 : 403;
    if (ok) {
        r.headers = {{"Access-Control-Allow-Origin", std::string(sv(head[http::field::origin]))},
                     {"Access-Control-Allow-Methods", joined(options.cors_methods)},
                     {"Access-Control-Max-Age", "600"}};
        if (!options.cors_headers.empty()) r.headers.emplace_back("Access-Control-Allow-Headers", joined(options.cors_headers));
    } else {
        r.body = "method or header not allowed by CORS\n";
    }
    r.headers.emplace_back("Vary", "Origin");
    return to_message(std::move(r), head.version(), false, false);
}

/// One of the server's own answers (400, 401, 403, 413, 431, 500); the connection closes after it.
inline http::response<http::string_body> plain_answer(unsigned status, std::string_view text, unsigned version,
                                                      bool keep_alive = false, std::string_view www_authenticate = {})
{
    http_response r;
    r.status = status;
    r.body = text;
    if (!www_authenticate.empty()) r.headers.emplace_back("WWW-Authenticate", www_authenticate);
    return to_message(std::move(r), version, keep_alive, false);
}

} // namespace skillmd::net::detail

#endif
