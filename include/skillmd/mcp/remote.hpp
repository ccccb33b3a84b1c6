// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_MCP_REMOTE_HPP
#define SKILLMD_MCP_REMOTE_HPP

// A connection to an MCP server over streamable HTTP (a POST to one endpoint per
// message; the answer as JSON or as server-sent events), for mcp::source. Either
// revision is spoken: the stateless 2026-07-28 (`server/discover`, then each request
// naming its revision in `params._meta` and the MCP headers), or the session revisions
// (`initialize`, the `MCP-Protocol-Version` header, and `Mcp-Session-Id` when the server
// gives one). By default it asks for 2026-07-28 and falls back to `initialize` when the
// server does not speak it. The server is as hostile as a child process: answers are
// capped and timed (net/http_client.hpp), and an answer that is not the one asked for
// is a failure. Link skillmd::mcp and skillmd::net.

#include <skillmd/mcp/client.hpp>
#include <skillmd/mcp/revisions.hpp>
#include <skillmd/net/http_client.hpp>
#include <skillmd/net/sse.hpp>

#include <boost/json.hpp>

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace skillmd::mcp {

struct remote_options
{
    net::http_client_options http; ///< time-out per request, size caps, trusted certificates
    std::string token;             ///< sent as `Authorization: Bearer <token>` when not empty
    /// The revision to speak: empty asks for 2026-07-28 and falls back to the session
    /// revisions; a session revision (`2025-11-25`...) goes straight to `initialize`.
    std::string protocol_version;
    std::size_t max_unrelated = 1000; ///< notifications and stray answers tolerated in one answer's stream
    std::string client_name = "skillmd";
};

namespace detail {

/// What one HTTP answer to request `id` says: the reply (`code` 0 when the transport is
/// not to be trusted any more), whether the answer to `id` was among its messages, and
/// whether a `list_changed` notification came with it. The answer is JSON or server-sent
/// events; errors of the stateless revision come with 4xx statuses, a result only with
/// success; notifications and answers to other requests are read past, up to a cap.
struct http_answer
{
    rpc_reply reply;
    bool answered = false;
    bool list_changed = false;
};

inline http_answer read_http_answer(net::http_client_response& res, std::int64_t id, bool in_session, std::size_t max_unrelated)
{
    http_answer a;
    auto const failed = [&](std::string why) {
        a.reply.error = std::move(why);
        a.reply.code = 0;
        return a;
    };
    std::string const status = "HTTP " + std::to_string(res.status);
    if (res.status == 401 || res.status == 403) return failed("the server refused this client (" + status + "): check the token");
    if (res.status / 100 == 3) {
        std::string where(res.header("Location").value_or("nowhere").substr(0, 200));
        for (char& c : where)
            if (c < ' ' || c == 0x7f) c = '?';
        return failed("the server redirects (" + status + ") to " + where + ": not followed");
    }
    if (res.status == 404 && in_session) return failed("the server ended the session (HTTP 404)");
    auto const type = res.header("Content-Type").value_or("");
    std::vector<std::string> messages;
    if (net::detail::istarts_with(type, "application/json")) {
        messages.push_back(std::move(res.body));
    } else if (net::detail::istarts_with(type, "text/event-stream")) {
        messages = net::sse_data(res.body, max_unrelated + 1);
    } else {
        std::string shown(type.substr(0, 100));
        for (char& c : shown)
            if (c < ' ' || c == 0x7f) c = '?';
        return failed("the server answered " + status + (shown.empty() ? std::string(" without a body type") : " with " + shown));
    }
    if (messages.size() > max_unrelated + 1)
        return failed("the server sent more than " + std::to_string(max_unrelated) + " messages that were not the answer");
    for (auto const& m : messages) {
        boost::system::error_code ec;
        boost::json::value v = boost::json::parse(m, ec);
        if (ec || !v.is_object()) return failed("the server sent a message that is not a JSON object");
        auto const& o = v.as_object();
        if (auto const* meth = o.if_contains("method")) {
            if (meth->is_string() && meth->as_string() == "notifications/resources/list_changed") a.list_changed = true;
            continue; // a notification, or a request this client does not take (it offers nothing)
        }
        auto const* mid = o.if_contains("id");
        if (!mid || !mid->is_int64() || mid->as_int64() != id) continue;
        a.answered = true;
        if (auto const* e = o.if_contains("error"); e && e->is_object()) {
            auto const& eo = e->as_object();
            if (auto const* c = eo.if_contains("code"); c && c->is_int64()) a.reply.code = c->as_int64();
            if (auto const* msg = eo.if_contains("message"); msg && msg->is_string())
                a.reply.error = std::string(msg->as_string().subview().substr(0, 500));
            if (a.reply.error.empty()) a.reply.error = "an error without a message";
            if (a.reply.code == 0) a.reply.code = -32603; // an answered error is never a transport failure
            return a;
        }
        if (res.status / 100 != 2) return failed("the server answered " + status + " with a result");
        auto const* result = o.if_contains("result");
        if (!result || !result->is_object()) return failed("the server's answer has no result object");
        a.reply.result = result->as_object();
        return a;
    }
    return failed("the server answered " + status + " without the answer to request " + std::to_string(id));
}

} // namespace detail

/// An MCP server at an `http://` or `https://` URL (its endpoint, such as `https://host/mcp`).
class remote_client final : public connection
{
public:
    remote_client(std::string url, remote_options opts) : opts_(std::move(opts)), http_(std::move(url), opts_.http) {}
    ~remote_client() override { stop(); }

    std::string start() override
    {
        stop();
        if (!http_.url_error().empty()) return http_.url_error();
        if (opts_.protocol_version.empty() || is_stateless(opts_.protocol_version)) {
            version_ = std::string(stateless_versions[0]);
            stateless_ = true;
            auto r = request("server/discover", {});
            auto const* supported = r ? r.result->if_contains("supportedVersions") : nullptr;
            bool const speaks = supported && supported->is_array() &&
                                std::any_of(supported->as_array().begin(), supported->as_array().end(),
                                            [&](auto const& v) { return v.is_string() && v.as_string() == version_; });
            if (speaks) {
                if (auto const* c = r.result->if_contains("capabilities"); c && c->is_object()) capabilities_ = c->as_object();
                running_ = true;
                return "";
            }
            stateless_ = false;
            if (!opts_.protocol_version.empty())
                return "the server does not speak " + version_ + (r ? "" : ": " + r.error);
            if (!r && r.code == 0 && !http_status_) return "the server: " + r.error; // nothing answered at all
        }
        version_ = opts_.protocol_version.empty() ? std::string(session_versions[0]) : opts_.protocol_version;
        boost::json::object params{{"protocolVersion", version_},
                                   {"capabilities", boost::json::object{}},
                                   {"clientInfo", boost::json::object{{"name", opts_.client_name}, {"version", "0.1.0"}}}};
        in_handshake_ = true;
        auto r = request("initialize", std::move(params));
        in_handshake_ = false;
        if (!r) return "the server did not initialize: " + r.error;
        auto const* v = r.result->if_contains("protocolVersion");
        if (!v || !v->is_string() ||
            std::find(std::begin(session_versions), std::end(session_versions), std::string_view(v->as_string())) == std::end(session_versions))
            return "the server answered initialize with a revision this client does not speak";
        version_ = std::string(v->as_string());
        if (auto const* c = r.result->if_contains("capabilities"); c && c->is_object()) capabilities_ = c->as_object();
        running_ = true;
        std::string why;
        auto sent = post(R"({"jsonrpc":"2.0","method":"notifications/initialized"})", "notifications/initialized", "", why);
        if (!sent || sent->status / 100 != 2) {
            stop();
            return "the server refused notifications/initialized: " + (sent ? "HTTP " + std::to_string(sent->status) : why);
        }
        return "";
    }

    bool running() const noexcept override { return running_; }
    boost::json::object const& capabilities() const noexcept override { return capabilities_; }
    /// The revision in use once started.
    std::string const& protocol_version() const noexcept { return version_; }

    rpc_reply request(std::string_view method, boost::json::object params) override
    {
        rpc_reply out;
        http_status_ = 0;
        if (!running_ && !in_start()) {
            out.error = "the server is not connected";
            return out;
        }
        std::string name;
        if (method == "resources/read") {
            if (auto const* u = params.if_contains("uri"); u && u->is_string()) name = u->as_string();
        } else if (method == "tools/call" || method == "prompts/get") {
            if (auto const* n = params.if_contains("name"); n && n->is_string()) name = n->as_string();
        }
        if (stateless_) {
            auto& meta = params["_meta"];
            if (!meta.is_object()) meta = boost::json::object{};
            meta.as_object()[meta_version] = version_;
            meta.as_object()[meta_client_capabilities] = boost::json::object{};
        }
        std::int64_t const id = ++last_id_;
        std::string const body = boost::json::serialize(
            boost::json::object{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}});
        std::string why;
        auto res = post(body, method, name, why);
        if (!res) return fail(out, why);
        http_status_ = res->status;
        auto a = detail::read_http_answer(*res, id, !session_.empty(), opts_.max_unrelated);
        list_changed_ = list_changed_ || a.list_changed;
        if (a.answered && in_handshake_ && res->status / 100 == 2)
            if (auto const s = res->header("Mcp-Session-Id")) {
                if (s->empty() || s->size() > 1024 || !std::all_of(s->begin(), s->end(), [](char c) { return c > ' ' && c < 0x7f; }))
                    return fail(out, "the server gave a session id that is not visible ASCII");
                session_ = std::string(*s);
            }
        if (!a.reply.result && a.reply.code == 0) return fail(out, std::move(a.reply.error));
        return a.reply;
    }

    bool take_list_changed() override { return std::exchange(list_changed_, false); }
    std::string const& failure() const noexcept override { return failure_; }

    /// Ends the session (DELETE, when the server gave one) and closes the connection.
    void stop() noexcept override
    {
        if (!session_.empty()) {
            try {
                std::string why;
                http_.request("DELETE", headers("", ""), "", why); // its answer changes nothing
            } catch (...) {
            }
        }
        session_.clear();
        running_ = false;
        stateless_ = false;
        capabilities_.clear();
        http_.close();
    }

private:
    static bool is_stateless(std::string_view v)
    {
        return std::find(std::begin(stateless_versions), std::end(stateless_versions), v) != std::end(stateless_versions);
    }

    bool in_start() const noexcept { return in_handshake_ || (stateless_ && !running_); }

    std::vector<std::pair<std::string, std::string>> headers(std::string_view method, std::string_view name) const
    {
        std::vector<std::pair<std::string, std::string>> h{{"Accept", "application/json, text/event-stream"}};
        if (!opts_.token.empty()) h.emplace_back("Authorization", "Bearer " + opts_.token);
        if (!in_handshake_) h.emplace_back("MCP-Protocol-Version", version_);
        if (!session_.empty()) h.emplace_back("Mcp-Session-Id", session_);
        if (stateless_ && !method.empty()) {
            h.emplace_back("Mcp-Method", std::string(method));
            if (!name.empty()) h.emplace_back("Mcp-Name", std::string(name));
        }
        return h;
    }

    std::optional<net::http_client_response> post(std::string const& body, std::string_view method, std::string_view name, std::string& why)
    {
        auto h = headers(method, name);
        h.emplace_back("Content-Type", "application/json");
        return http_.request("POST", h, body, why);
    }

    rpc_reply& fail(rpc_reply& out, std::string why)
    {
        out.error = std::move(why);
        out.code = 0;
        failure_ = out.error;
        if (running_) stop(); // a transport that lied once is not trusted again
        return out;
    }

    remote_options opts_;
    net::http_client http_;
    std::string version_;
    std::string session_;
    bool stateless_ = false;
    bool running_ = false;
    bool in_handshake_ = false;
    bool list_changed_ = false;
    unsigned http_status_ = 0;
    std::int64_t last_id_ = 0;
    std::string failure_;
    boost::json::object capabilities_;
};

} // namespace skillmd::mcp

#endif
