// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_PACKAGES_FETCH_HPP
#define SKILLMD_PACKAGES_FETCH_HPP

// Downloads for packages: GET through net::http_client (Boost.Beast, OpenSSL: the system's
// certificates, TLS 1.2 or later, the whole request under one deadline, the answer's size
// capped), redirects followed a bounded number of times, never in a loop and never from
// https:// down to http://. Plain http:// is for tests and local mirrors: only with
// allow_http, and only to this machine.

#include <skillmd/packages/limits.hpp>
#include <skillmd/net/http_client.hpp>

#include <algorithm>
#include <chrono>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace skillmd::packages {

/// How downloads reach their servers.
struct fetch_options
{
    package_limits limits;
    bool allow_http = false; ///< plain http:// (and git://), to this machine only (`--allow-http`)
    std::string ca_file;     ///< PEM certificates trusted besides the system's store
    /// When everything fetched for one source must be done (fetch_package sets it from
    /// `limits.total_timeout`); each download ends by then even within its own timeout.
    std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();

    /// The time one download or git run may take now: its own bound, or what is left.
    std::chrono::milliseconds time_left(std::string& why) const
    {
        if (deadline == std::chrono::steady_clock::time_point::max()) return limits.timeout;
        auto const left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            why = "the source took longer than its " + std::to_string(limits.total_timeout.count()) + " ms in all";
            return std::chrono::milliseconds(0);
        }
        return std::min(limits.timeout, left);
    }
};

struct downloaded
{
    std::string bytes;
    std::string url;          ///< where it was found, after redirects
    std::string content_type; ///< as the server said, parameters dropped, lower case
};

namespace detail {

/// RFC 3986's remove_dot_segments on a path.
inline std::string without_dot_segments(std::string_view in)
{
    std::vector<std::string_view> out;
    bool const absolute = in.starts_with('/');
    bool trailing = false;
    std::size_t pos = absolute ? 1 : 0;
    while (pos <= in.size()) {
        auto const slash = in.find('/', pos);
        auto const seg = in.substr(pos, slash == std::string_view::npos ? std::string_view::npos : slash - pos);
        trailing = seg == "." || seg == ".." || (slash == std::string_view::npos && seg.empty());
        if (seg == "..") {
            if (!out.empty()) out.pop_back();
        } else if (seg != ".") {
            if (!(slash == std::string_view::npos && seg.empty())) out.push_back(seg);
        }
        if (slash == std::string_view::npos) break;
        pos = slash + 1;
    }
    std::string path = absolute ? "/" : "";
    for (std::size_t i = 0; i < out.size(); ++i) {
        if (i) path += '/';
        path += out[i];
    }
    if (trailing && !out.empty()) path += '/';
    return path;
}

} // namespace detail

/** `ref` resolved against the http(s) URL `base` as RFC 3986 section 5 says, for the forms
    an index or a Location header uses: absolute (`https://...`), network-path (`//host/x`),
    absolute-path (`/x`) and relative-path (`x`, `../x`, `?q`). Fragments are dropped.
*/
inline std::string resolve_url(std::string const& base, std::string_view ref)
{
    if (auto const hash = ref.find('#'); hash != std::string_view::npos) ref = ref.substr(0, hash);
    auto const colon = ref.find(':');
    auto const slash = ref.find('/');
    if (colon != std::string_view::npos && (slash == std::string_view::npos || colon < slash) && colon > 0)
        return std::string(ref); // has a scheme
    auto const scheme_end = base.find("://");
    if (scheme_end == std::string::npos) return std::string(ref);
    std::string const scheme = base.substr(0, scheme_end + 1);
    auto const path_start = base.find('/', scheme_end + 3);
    std::string const origin = base.substr(0, path_start);
    if (ref.starts_with("//")) return scheme + std::string(ref);
    std::string base_path = path_start == std::string::npos ? "/" : base.substr(path_start);
    std::string base_query;
    if (auto const q = base_path.find('?'); q != std::string::npos) {
        base_query = base_path.substr(q);
        base_path.erase(q);
    }
    if (ref.empty()) return origin + base_path + base_query;
    if (ref.starts_with('?')) return origin + base_path + std::string(ref);
    std::string ref_path(ref), ref_query;
    if (auto const q = ref_path.find('?'); q != std::string::npos) {
        ref_query = ref_path.substr(q);
        ref_path.erase(q);
    }
    if (ref_path.starts_with('/')) return origin + detail::without_dot_segments(ref_path) + ref_query;
    std::string const merged = base_path.substr(0, base_path.rfind('/') + 1) + ref_path;
    return origin + detail::without_dot_segments(merged) + ref_query;
}

/** GETs `url`, following up to `opts.limits.max_redirects` redirects (301, 302, 303, 307,
    308). Refused with `why`: a URL net::split_url refuses, http:// to another machine
    without allow_http, https:// redirected to http://, a redirect loop or too many, an
    answer that is not 200, larger than the limit or slower than the deadline.
*/
inline std::optional<downloaded> fetch(std::string url, fetch_options const& opts, std::string& why)
{
    net::http_client_options client_opts;
    client_opts.max_body_bytes = opts.limits.max_download_bytes;
    client_opts.ca_file = opts.ca_file;
    client_opts.allow_http = false; // plain http:// reaches loopback only, and only with opts.allow_http
    client_opts.user_agent = "skillmd (package install)";
    std::set<std::string> visited;
    for (unsigned hop = 0;; ++hop) {
        if (!visited.insert(url).second) {
            why = "a redirect loop at " + url;
            return std::nullopt;
        }
        client_opts.timeout = opts.time_left(why);
        if (client_opts.timeout.count() == 0) return std::nullopt;
        if (net::detail::istarts_with(url, "http://") && !opts.allow_http) {
            why = url + ": plain http:// is refused without --allow-http (which allows it to this machine only)";
            return std::nullopt;
        }
        net::http_client client(url, client_opts);
        std::string error;
        auto answer = client.request("GET", {{"Accept", "*/*"}}, {}, error);
        if (!answer) {
            why = url + ": " + error;
            return std::nullopt;
        }
        if (answer->status == 301 || answer->status == 302 || answer->status == 303 || answer->status == 307 || answer->status == 308) {
            auto const location = answer->header("Location");
            if (!location || location->empty()) {
                why = url + ": a redirect (" + std::to_string(answer->status) + ") without a Location";
                return std::nullopt;
            }
            if (hop + 1 > opts.limits.max_redirects) {
                why = url + ": more than " + std::to_string(opts.limits.max_redirects) + " redirects";
                return std::nullopt;
            }
            std::string next = resolve_url(url, *location);
            if (client.url().tls && !net::detail::istarts_with(next, "https://")) {
                why = url + ": redirected from https:// to " + next + ", which is not https://";
                return std::nullopt;
            }
            url = std::move(next);
            continue;
        }
        if (answer->status != 200) {
            why = url + ": HTTP " + std::to_string(answer->status);
            return std::nullopt;
        }
        downloaded d;
        d.bytes = std::move(answer->body);
        d.url = url;
        if (auto const type = answer->header("Content-Type")) {
            std::string t(type->substr(0, type->find(';')));
            while (!t.empty() && (t.back() == ' ' || t.back() == '\t')) t.pop_back();
            for (auto& c : t)
                if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
            d.content_type = std::move(t);
        }
        return d;
    }
}

} // namespace skillmd::packages

#endif
