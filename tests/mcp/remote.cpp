// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
//
// The host side over streamable HTTP: mcp::source with a remote_client, against skillmd's
// own server behind net::http_server (in this process, on 127.0.0.1) in both revisions,
// and against HTTP servers that misbehave on purpose. TLS, with a private CA and nginx in
// front, is tests/mcp/remote_fleet.sh.

#include "../support/test_support.hpp"

#include <skillmd/mcp.hpp>
#include <skillmd/mcp/remote.hpp>
#include <skillmd/net.hpp>
#include <skillmd/net/sse.hpp>
#include <skillmd/presets/systems.hpp>
#include <skillmd/frontmatter/x3_parser.hpp>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

using namespace skillmd;
using namespace skillmd::test;
namespace fs = std::filesystem;

namespace {

/// An HTTP server on 127.0.0.1 running `handler` on its own thread while it lives.
struct running_server
{
    net::http_server server;
    std::thread thread;
    std::string url;
    running_server(net::http_handler handler, std::optional<std::string> token = std::nullopt)
        : server([&] {
              net::http_server_options o;
              o.bearer_token = std::move(token);
              o.request_timeout = std::chrono::milliseconds(5000);
              return o;
          }(),
                 std::move(handler))
    {
        url = "http://127.0.0.1:" + std::to_string(server.start()) + "/mcp";
        thread = std::thread([this] { server.run(); });
    }
    ~running_server()
    {
        server.stop();
        thread.join();
    }
};

mcp::source_options quick()
{
    mcp::source_options o;
    o.first_retry = std::chrono::milliseconds(1);
    o.last_retry = std::chrono::milliseconds(1);
    return o;
}

mcp::remote_options remote(std::string token = "", std::string version = "")
{
    mcp::remote_options o;
    o.token = std::move(token);
    o.protocol_version = std::move(version);
    o.http.timeout = std::chrono::milliseconds(1500);
    o.http.max_body_bytes = 256 * 1024;
    return o;
}

mcp::source source_at(std::string const& url, mcp::remote_options o)
{
    return mcp::source("team", "team", std::make_unique<mcp::remote_client>(url, std::move(o)), quick());
}

std::string all(std::vector<diagnostic> const& ds)
{
    std::string out;
    for (auto const& d : ds) out += d.message + "\n";
    return out;
}

using remote_registry = basic_registry<frontmatter::x3_parser, first_tier_wins, mcp::source>;

/// The agent-skills preset over `t/skills` as its only tier, loaded.
presets::agent_skills user_skills(temp_dir const& t)
{
    presets::locations at;
    at.home = t / "none";
    at.project = t / "none";
    at.overrides["user"] = (t / "skills").string();
    auto agent = presets::make_agent_skills(at);
    agent.load();
    return agent;
}

/// The id and method of a JSON-RPC request body.
std::pair<boost::json::value, std::string> id_and_method(std::string const& body)
{
    auto const v = boost::json::parse(body).as_object();
    return {v.contains("id") ? v.at("id") : boost::json::value(), std::string(v.at("method").as_string())};
}

std::string answer(boost::json::value const& id, boost::json::object result)
{
    return boost::json::serialize(boost::json::object{{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}});
}

/// What a server of the stateless revision says to `server/discover`.
boost::json::object discovered()
{
    return {{"supportedVersions", boost::json::array{"2026-07-28"}},
            {"capabilities", boost::json::object{{"extensions", boost::json::object{{mcp::extension_id, boost::json::object{}}}}}}};
}

} // namespace

BOOST_AUTO_TEST_SUITE(mcp_remote)

// skillmd's server behind HTTP with a token: the same skills, bodies and files in the
// stateless revision (asked for by default) and in 2025-11-25; a skill added on the
// server appears on the next refresh.
BOOST_AUTO_TEST_CASE(a_remote_server_is_read_in_both_revisions)
{
    temp_dir t;
    write(t / "skills/alpha/SKILL.md", "---\nname: alpha\ndescription: Alpha\n---\nAlpha body.\n");
    write(t / "skills/alpha/references/guide.md", "# Guide\n");
    write(t / "skills/beta/SKILL.md", "---\nname: beta\ndescription: Beta\n---\nBeta.\n");
    auto agent = user_skills(t);
    mcp::server<decltype(agent)> srv(agent);
    running_server http(mcp::http_endpoint(srv, [&] { srv.changes(); }), std::string("s3cret"));

    for (std::string const version : {"", "2025-11-25"}) {
        BOOST_TEST_CONTEXT("revision asked for: " << (version.empty() ? "default" : version))
        {
            mcp::remote_client probe(http.url, remote("s3cret", version));
            BOOST_TEST(probe.start() == "");
            BOOST_TEST(probe.protocol_version() == (version.empty() ? "2026-07-28" : version));
            BOOST_TEST(probe.capabilities().at("extensions").as_object().contains(mcp::extension_id));

            remote_registry reg(registry_options{}, source_at(http.url, remote("s3cret", version)));
            reg.load();
            auto snap = reg.snapshot();
            BOOST_TEST(all(snap->diagnostics()) == "");
            std::vector<std::string> got;
            for (auto const& r : snap->skills()) got.push_back(r.command + " " + r.meta.description);
            BOOST_TEST(got == (std::vector<std::string>{"team:alpha Alpha", "team:beta Beta"}), boost::test_tools::per_element());
            BOOST_TEST(reg.body(*snap->find("team:alpha")).value_or("") == "Alpha body.\n");
            auto const guide = reg.source<0>().read_file(snap->find("team:alpha")->where, "references/guide.md");
            BOOST_TEST(guide.text.value_or(guide.error) == "# Guide\n");

            write(t / "skills/gamma/SKILL.md", "---\nname: gamma\ndescription: Gamma\n---\nGamma.\n");
            reg.refresh();
            BOOST_TEST(reg.snapshot()->find("team:gamma") != nullptr);
            fs::remove_all(t / "skills/gamma");
        }
    }
}

// No token, a wrong one, a URL that is not usable: nothing is listed, and the
// diagnostic says why.
BOOST_AUTO_TEST_CASE(the_token_and_the_url_are_checked)
{
    temp_dir t;
    write(t / "skills/alpha/SKILL.md", "---\nname: alpha\ndescription: Alpha\n---\nA.\n");
    auto agent = user_skills(t);
    mcp::server<decltype(agent)> srv(agent);
    running_server http(mcp::http_endpoint(srv), std::string("s3cret"));
    for (std::string const token : {"", "wrong"}) {
        auto const d = source_at(http.url, remote(token)).discover();
        BOOST_TEST(d.skills.empty());
        BOOST_TEST(all(d.diagnostics).find("HTTP 401") != std::string::npos, all(d.diagnostics));
    }
    auto const refused = [](std::string const& url) { return all(source_at(url, remote()).discover().diagnostics); };
    BOOST_TEST(refused("http://example.invalid/mcp").find("reaches only this machine") != std::string::npos);
    BOOST_TEST(refused("http://user@127.0.0.1:1/mcp").find("user info is refused") != std::string::npos);
    BOOST_TEST(refused("ftp://127.0.0.1/mcp").find("not an http:// or https:// URL") != std::string::npos);
    BOOST_TEST(refused("http://127.0.0.1:1/mcp").find("cannot connect") != std::string::npos);
    // A header value with a line break never reaches the wire.
    net::http_client plain(http.url);
    std::string why;
    BOOST_TEST(!plain.request("POST", {{"X-Evil", "a\r\nHost: evil"}}, "{}", why).has_value());
    BOOST_TEST(why.find("could split the request") != std::string::npos);
}

// Answers as server-sent events: notifications and stray answers before the one asked
// for are read past, and a list_changed among them is noticed.
BOOST_AUTO_TEST_CASE(answers_may_come_as_server_sent_events)
{
    running_server http([](net::http_request const& req) {
        auto const [id, method] = id_and_method(req.body);
        net::http_response res;
        if (method == "server/discover") {
            res.content_type = "application/json";
            res.body = answer(id, discovered());
            return res;
        }
        res.content_type = "text/event-stream";
        res.body = ": a comment\r\nevent: message\r\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/resources/list_changed\"}\r\n\r\n"
                   "data: " + answer(999, {}) + "\n\n" +
                   "id: 7\ndata: " + answer(id, {{"skills", boost::json::array{}}}) + "\n\n";
        return res;
    });
    mcp::remote_client c(http.url, remote());
    BOOST_TEST_REQUIRE(c.start() == "");
    auto const r = c.request("skills/list", {});
    BOOST_TEST_REQUIRE(r.result.has_value(), r.error);
    BOOST_TEST(r.result->at("skills").as_array().empty());
    BOOST_TEST(c.take_list_changed());
    BOOST_TEST(!c.take_list_changed());
}

// Servers that misbehave: each is a failure with its reason, never a hang or a crash.
BOOST_AUTO_TEST_CASE(hostile_http_servers_are_refused_with_a_reason)
{
    struct hostile
    {
        std::string mode, expected;
    };
    for (auto const& h : std::vector<hostile>{
             {"redirect", "redirects (HTTP 302) to http://evil.example/mcp: not followed"},
             {"html", "with text/html"},
             {"huge", "longer than 262144 bytes"},
             {"slow", "within 1500 ms"},
             {"other-id", "without the answer to request"},
             {"not-json", "not a JSON object"},
             {"session-control", "session id that is not visible ASCII"},
             {"session-only-404", "ended the session"},
         }) {
        BOOST_TEST_CONTEXT(h.mode)
        {
            std::atomic<int> calls{0};
            running_server http([&](net::http_request const& req) {
                auto const [id, method] = id_and_method(req.body);
                net::http_response res;
                res.content_type = "application/json";
                bool const session = h.mode.starts_with("session");
                if (method == "server/discover") {
                    if (session) {
                        res.status = 404;
                        res.body = R"({"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"unknown method"}})";
                    } else {
                        res.body = answer(id, discovered());
                    }
                    return res;
                }
                if (method == "initialize") {
                    res.body = answer(id, {{"protocolVersion", "2025-11-25"}, {"capabilities", boost::json::object{}}});
                    res.headers.emplace_back("Mcp-Session-Id", h.mode == "session-control" ? "a b" : "abc");
                    return res;
                }
                if (method == "notifications/initialized") {
                    res.status = 202;
                    res.content_type.clear();
                    return res;
                }
                ++calls;
                if (h.mode == "redirect") {
                    res.status = 302;
                    res.headers.emplace_back("Location", "http://evil.example/mcp");
                } else if (h.mode == "html") {
                    res.content_type = "text/html";
                    res.body = "<html></html>";
                } else if (h.mode == "huge") {
                    res.body = answer(id, {{"skills", boost::json::array{}}, {"pad", std::string(300 * 1024, 'x')}});
                } else if (h.mode == "slow") {
                    std::this_thread::sleep_for(std::chrono::milliseconds(2500));
                    res.body = answer(id, {});
                } else if (h.mode == "other-id") {
                    res.body = answer(12345, {});
                } else if (h.mode == "not-json") {
                    res.body = "[1,2";
                } else { // session-only-404: the session is gone
                    res.status = 404;
                    res.body = "no such session";
                }
                return res;
            });
            mcp::remote_client c(http.url, remote());
            std::string const started = c.start();
            if (h.mode == "session-control") {
                BOOST_TEST(started.find(h.expected) != std::string::npos, started);
                continue;
            }
            BOOST_TEST_REQUIRE(started == "");
            auto const r = c.request("skills/list", {});
            BOOST_TEST(!r.result.has_value());
            BOOST_TEST(r.code == 0);
            BOOST_TEST(r.error.find(h.expected) != std::string::npos, r.error);
            BOOST_TEST(!c.running()); // a transport that lied once is not trusted again
            BOOST_TEST(calls.load() == 1);
        }
    }
}

// What a raw server sends, byte for byte: each connection answers its requests with the
// next canned replies in turn, then closes.
struct raw_server
{
    int fd = -1;
    unsigned short port = 0;
    std::thread thread;
    std::atomic<int> requests{0};
    explicit raw_server(std::vector<std::vector<std::string>> connections)
    {
        fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t n = sizeof a;
        BOOST_TEST_REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&a), n) == 0);
        ::listen(fd, 8);
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &n);
        port = ntohs(a.sin_port);
        thread = std::thread([this, connections = std::move(connections)] {
            for (auto const& replies : connections) {
                int const c = ::accept(fd, nullptr, nullptr);
                if (c < 0) return;
                for (auto const& reply : replies) {
                    std::string in;
                    char buf[4096];
                    std::size_t need = std::string::npos;
                    while (need == std::string::npos || in.size() < need) {
                        auto const got = ::recv(c, buf, sizeof buf, 0);
                        if (got <= 0) break;
                        in.append(buf, static_cast<std::size_t>(got));
                        if (auto const end = in.find("\r\n\r\n"); end != std::string::npos && need == std::string::npos) {
                            auto const cl = in.find("Content-Length: ");
                            need = end + 4 + (cl < end ? std::stoul(in.substr(cl + 16)) : 0);
                        }
                    }
                    ++requests;
                    for (std::size_t sent = 0; sent < reply.size();) {
                        auto const w = ::send(c, reply.data() + sent, reply.size() - sent, MSG_NOSIGNAL);
                        if (w <= 0) break;
                        sent += static_cast<std::size_t>(w);
                    }
                }
                ::shutdown(c, SHUT_RDWR);
                ::close(c);
            }
        });
    }
    ~raw_server()
    {
        ::shutdown(fd, SHUT_RDWR);
        ::close(fd);
        thread.join();
    }
    std::string url() const { return "http://127.0.0.1:" + std::to_string(port) + "/mcp"; }
};

std::string reply(std::string status, std::string body, std::string extra = "")
{
    return "HTTP/1.1 " + status + "\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) + "\r\n" +
           extra + "\r\n" + body;
}

// The answer's framing, read as HTTP says and never reused out of step.
BOOST_AUTO_TEST_CASE(interim_answers_leftovers_and_closed_connections)
{
    std::string why;
    { // 100 Continue and 103 Early Hints before the answer are read past.
        raw_server raw({{"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </x>\r\n\r\n" + reply("200 OK", "{}")}});
        net::http_client c(raw.url());
        auto const r = c.request("POST", {}, "{}", why);
        BOOST_TEST_REQUIRE(r.has_value(), why);
        BOOST_TEST(r->status == 200u);
    }
    { // Bytes after an answer: the connection is dropped, and the next request gets a new one.
        raw_server raw({{reply("200 OK", "\"first\"") + reply("200 OK", "\"smuggled\"")}, {reply("200 OK", "\"second\"")}});
        net::http_client c(raw.url());
        BOOST_TEST(c.request("POST", {}, "{}", why).value().body == "\"first\"");
        BOOST_TEST(c.request("POST", {}, "{}", why).value().body == "\"second\"");
    }
    { // A kept connection the server closed meanwhile: the next request opens a new one, and is sent once.
        raw_server raw({{reply("200 OK", "1")}, {reply("200 OK", "2")}});
        net::http_client c(raw.url());
        BOOST_TEST(c.request("POST", {}, "{}", why).value().body == "1");
        std::this_thread::sleep_for(std::chrono::milliseconds(100)); // the server's close arrives
        auto const second = c.request("POST", {}, "{}", why);
        BOOST_TEST_REQUIRE(second.has_value(), why);
        BOOST_TEST(second->body == "2");
        BOOST_TEST(raw.requests.load() == 2);
    }
    { // A server that reads a request and closes without answering: a failure, not a second try.
        raw_server raw({{""}, {reply("200 OK", "again")}});
        net::http_client c(raw.url());
        BOOST_TEST(!c.request("POST", {}, "{}", why).has_value());
        BOOST_TEST(raw.requests.load() == 1);
    }
    { // Chunk extensions without end: refused at the header cap, long before the deadline.
        net::http_client_options o;
        o.timeout = std::chrono::milliseconds(10000);
        raw_server raw({{"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1;" + std::string(4 << 20, 'x')}});
        net::http_client c(raw.url(), o);
        auto const started = std::chrono::steady_clock::now();
        BOOST_TEST(!c.request("POST", {}, "{}", why).has_value());
        BOOST_TEST(why.find("longer than") != std::string::npos, why);
        BOOST_TEST((std::chrono::steady_clock::now() - started < std::chrono::milliseconds(5000)));
    }
    { // A result is taken only from a successful answer.
        raw_server raw({{reply("200 OK", answer(1, discovered())), reply("500 Internal Server Error", answer(2, {{"skills", boost::json::array{}}}))}});
        mcp::remote_client c(raw.url(), remote());
        BOOST_TEST_REQUIRE(c.start() == "");
        auto const r = c.request("skills/list", {});
        BOOST_TEST(!r.result.has_value());
        BOOST_TEST(r.error.find("HTTP 500 with a result") != std::string::npos, r.error);
    }
}

// The event stream format, as the HTML standard reads it.
BOOST_AUTO_TEST_CASE(server_sent_events_are_read_as_the_standard_says)
{
    using v = std::vector<std::string>;
    BOOST_TEST(net::sse_data("data: a\n\n") == (v{"a"}), boost::test_tools::per_element());
    BOOST_TEST(net::sse_data("data:a\r\ndata: b\r\n\r\n") == (v{"a\nb"}), boost::test_tools::per_element());
    BOOST_TEST(net::sse_data("data: a\r\rdata: b\n\n") == (v{"a", "b"}), boost::test_tools::per_element());
    BOOST_TEST(net::sse_data(": note\nevent: x\nid: 1\nretry: 5\n\n") == v{}, boost::test_tools::per_element());
    BOOST_TEST(net::sse_data("data\n\n") == (v{""}), boost::test_tools::per_element());
    BOOST_TEST(net::sse_data("\xEF\xBB\xBF" "data:  two spaces\n\n") == (v{" two spaces"}), boost::test_tools::per_element());
    BOOST_TEST(net::sse_data("data: whole\n\ndata: cut off") == (v{"whole"}), boost::test_tools::per_element());
    BOOST_TEST(net::sse_data("data: no blank line after\n") == v{}, boost::test_tools::per_element());
    BOOST_TEST(net::sse_data("data\n\ndata\n\ndata\n\ndata\n\n", 2).size() == 3u); // one past the cap says there are more
}

BOOST_AUTO_TEST_CASE(urls_are_split_strictly)
{
    std::string why;
    auto const u = net::split_url("HTTPS://Example.com:8443/a/mcp?x=1", why);
    BOOST_TEST_REQUIRE(u.has_value());
    BOOST_TEST(u->tls);
    BOOST_TEST(u->host == "Example.com");
    BOOST_TEST(u->port == "8443");
    BOOST_TEST(u->target == "/a/mcp?x=1");
    BOOST_TEST(u->authority() == "Example.com:8443");
    auto const v6 = net::split_url("http://[::1]/", why);
    BOOST_TEST_REQUIRE(v6.has_value());
    BOOST_TEST(v6->bare_host() == "::1");
    BOOST_TEST(v6->authority() == "[::1]");
    BOOST_TEST(net::split_url("http://h?q", why)->target == "/?q");
    for (std::string bad : {"http://", "http://a b/", "http://[::1]x80/", "http://[::1]]80/", "http://a/#f", "http://a:0/", "http://a:65536/", "http://a:08/", "http://u:p@a/",
                            "https://a/\xc3\xa9", "file:///etc/passwd", "http://[::1/"})
        BOOST_TEST(!net::split_url(bad, why).has_value(), bad);
}

BOOST_AUTO_TEST_SUITE_END()
