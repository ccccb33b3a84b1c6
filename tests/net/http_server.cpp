// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
//
// skillmd/net: the HTTP server driven over real sockets on 127.0.0.1 (and ::1 when the
// machine has it). The clients are raw sockets, so a test can send what no HTTP library
// would (garbage, two Origin headers, a body that never ends); every wait is bounded, so a
// server that fails to answer fails the test instead of hanging it. The timeouts under
// test are tens of milliseconds; the others are long enough for a sanitizer build.

#define BOOST_TEST_MODULE skillmd_net
#include <skillmd/net.hpp>

#include <boost/asio/buffer.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/test/unit_test.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <future>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <vector>

namespace net = skillmd::net;
namespace http = boost::beast::http;
using namespace std::chrono_literals;
using clock_type = std::chrono::steady_clock;
using response = http::response<http::string_body>;

namespace {

/// A client on a raw socket. Every read waits at most until a deadline.
class client
{
public:
    explicit client(unsigned short port, std::string const& address = "127.0.0.1")
    {
        bool const v6 = address.find(':') != std::string::npos;
        fd_ = ::socket(v6 ? AF_INET6 : AF_INET, SOCK_STREAM, 0);
        if (fd_ < 0) return;
        if (v6) {
            sockaddr_in6 a{};
            a.sin6_family = AF_INET6;
            a.sin6_port = htons(port);
            ::inet_pton(AF_INET6, address.c_str(), &a.sin6_addr);
            connected_ = ::connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
        } else {
            sockaddr_in a{};
            a.sin_family = AF_INET;
            a.sin_port = htons(port);
            ::inet_pton(AF_INET, address.c_str(), &a.sin_addr);
            connected_ = ::connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
        }
    }
    client(client&& other) noexcept : fd_(other.fd_), connected_(other.connected_), pending_(std::move(other.pending_))
    {
        other.fd_ = -1;
    }
    client(client const&) = delete;
    client& operator=(client const&) = delete;
    ~client() { close(); }

    bool connected() const { return connected_; }
    void close()
    {
        if (fd_ >= 0) ::close(fd_);
        fd_ = -1;
    }

    bool send(std::string_view data)
    {
        while (!data.empty()) {
            auto const n = ::send(fd_, data.data(), data.size(), MSG_NOSIGNAL);
            if (n <= 0) return false;
            data.remove_prefix(static_cast<std::size_t>(n));
        }
        return true;
    }

    /// The next response; none when the connection closed or nothing came in time (`why`).
    std::optional<response> read(bool head = false, std::chrono::milliseconds wait = 10s)
    {
        http::response_parser<http::string_body> p;
        p.eager(true);
        p.body_limit(64 * 1024 * 1024);
        if (head) p.skip(true);
        auto const deadline = clock_type::now() + wait;
        for (;;) {
            if (!pending_.empty()) {
                boost::system::error_code ec;
                auto const used = p.put(boost::asio::buffer(pending_), ec);
                pending_.erase(0, used);
                if (ec && ec != http::error::need_more) {
                    why = "unparsable response: " + ec.message();
                    return std::nullopt;
                }
                if (p.is_done()) return p.release();
                if (!ec && used > 0 && !pending_.empty()) continue;
            }
            int const r = receive(deadline);
            if (r <= 0) {
                why = r == 0 ? "connection closed" : r == -1 ? "connection reset" : "no response in time";
                return std::nullopt;
            }
        }
    }

    /// Whether the server closes the connection (end of stream or reset) within `wait`;
    /// whatever it sends first is dropped.
    bool closed_within(std::chrono::milliseconds wait)
    {
        auto const deadline = clock_type::now() + wait;
        for (;;) {
            int const r = receive(deadline);
            pending_.clear();
            if (r == 0 || r == -1) return true;
            if (r == -2) return false;
        }
    }

    std::string why;

private:
    /// 1: bytes came; 0: end of stream; -1: reset or error; -2: the deadline passed.
    int receive(clock_type::time_point deadline)
    {
        for (;;) {
            auto const left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock_type::now()).count();
            if (left <= 0) return -2;
            pollfd p{fd_, POLLIN, 0};
            int const ready = ::poll(&p, 1, static_cast<int>(left));
            if (ready < 0 && errno == EINTR) continue;
            if (ready < 0) return -1;
            if (ready == 0) return -2;
            char bytes[16384];
            auto const n = ::recv(fd_, bytes, sizeof bytes, 0);
            if (n > 0) {
                pending_.append(bytes, static_cast<std::size_t>(n));
                return 1;
            }
            return n == 0 ? 0 : -1;
        }
    }

    int fd_ = -1;
    bool connected_ = false;
    std::string pending_;
};

std::string get(std::string_view target = "/", std::string_view headers = "")
{
    return "GET " + std::string(target) + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + std::string(headers) + "\r\n";
}

std::string post(std::string_view target, std::string_view body, std::string_view headers = "")
{
    return "POST " + std::string(target) + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: " +
           std::to_string(body.size()) + "\r\n" + std::string(headers) + "\r\n" + std::string(body);
}

/// Options with generous time limits: only the tests of the timeouts shorten them.
net::http_server_options options()
{
    net::http_server_options o;
    o.idle_timeout = 10s;
    o.request_timeout = 10s;
    return o;
}

/// A server running on its own thread, stopped and joined at the end of the test.
struct running
{
    running(net::http_server_options o, net::http_handler h) : server(std::move(o), std::move(h))
    {
        port = server.start();
        thread = std::thread([this] {
            server.run();
            done.set_value();
        });
    }
    running(running const&) = delete;
    running& operator=(running const&) = delete;
    ~running()
    {
        server.stop();
        thread.join();
    }
    /// Whether run() returned within `wait`.
    bool finished_within(std::chrono::milliseconds wait) { return finished.wait_for(wait) == std::future_status::ready; }
    client connect() { return client(port); }

    net::http_server server;
    unsigned short port = 0;
    std::promise<void> done;
    std::future<void> finished = done.get_future();
    std::thread thread;
};

/// A handler that counts its calls and answers with what it got.
struct echo
{
    std::shared_ptr<std::atomic<int>> calls = std::make_shared<std::atomic<int>>(0);
    net::http_handler handler() const
    {
        return [calls = calls](net::http_request const& r) {
            ++*calls;
            net::http_response out;
            out.body = r.method + " " + r.target + " " + r.body;
            return out;
        };
    }
};

/// Sends `request` on a fresh connection; the response, which must come, then the connection must close.
response refused(running& s, std::string const& request)
{
    auto c = s.connect();
    BOOST_TEST_REQUIRE(c.connected());
    BOOST_TEST_REQUIRE(c.send(request));
    auto r = c.read();
    BOOST_TEST_REQUIRE(r.has_value(), c.why);
    BOOST_TEST(!r->keep_alive());
    BOOST_TEST(c.closed_within(5s));
    return std::move(*r);
}

int status(response const& r)
{
    return static_cast<int>(r.result_int());
}

std::string field(response const& r, std::string_view name)
{
    auto const it = r.find(name);
    return it == r.end() ? std::string("<none>") : std::string(it->value());
}

/// Polls `condition` for up to `wait`.
template <class Condition>
bool eventually(Condition condition, std::chrono::milliseconds wait = 5s)
{
    auto const deadline = clock_type::now() + wait;
    while (!condition()) {
        if (clock_type::now() > deadline) return false;
        std::this_thread::sleep_for(2ms);
    }
    return true;
}

} // namespace

BOOST_AUTO_TEST_SUITE(net_http_server)

BOOST_AUTO_TEST_CASE(loopback_origins_are_read_strictly)
{
    for (std::string_view const o : {"http://localhost", "http://localhost:3000", "https://localhost:443", "http://127.0.0.1",
                                     "http://127.0.0.1:65535", "http://[::1]", "https://[::1]:8443", "HTTP://LocalHost:1"})
        BOOST_TEST(net::is_loopback_origin(o), o);
    for (std::string_view const o :
         {"", "null", "localhost", "127.0.0.1", "http://localhost.evil.com", "http://localhost@evil.com",
          "http://evil.com@localhost", "http://localhost:80@evil.com", "http://user:pw@localhost", "http://localhost/",
          "http://localhost/x", "http://localhost:", "http://localhost:0", "http://localhost:080", "http://localhost:65536",
          "http://localhost:123456", "http://localhost:8o", "http://localhost.", "http://127.0.0.1.nip.io",
          "http://127.0.0.2", "http://127.1", "http://[::1]x", "http://[::1", "http://::1", "http://[::ffff:127.0.0.1]",
          "http://[0:0:0:0:0:0:0:1]", "ftp://localhost", "ws://localhost", "file://localhost", "http:/localhost",
          "//localhost", " http://localhost", "http://localhost ", "http://localhost\r\n", "http://evil.example"})
        BOOST_TEST(!net::is_loopback_origin(o), o);

    std::vector<std::string> const listed{"https://app.example:8443", "null"};
    BOOST_TEST(net::origin_allowed("https://app.example:8443", listed, true));
    BOOST_TEST(net::origin_allowed("HTTPS://APP.EXAMPLE:8443", listed, true));
    BOOST_TEST(net::origin_allowed("null", listed, false)); // only because it is listed
    BOOST_TEST(!net::origin_allowed("null", {}, true));
    BOOST_TEST(!net::origin_allowed("https://app.example", listed, true));
    BOOST_TEST(!net::origin_allowed("https://app.example:8443/", listed, true));
    BOOST_TEST(!net::origin_allowed("https://app.example:84430", listed, true));
    BOOST_TEST(net::origin_allowed("http://localhost:1234", {}, true));
    BOOST_TEST(!net::origin_allowed("http://localhost:1234", {}, false));
}

BOOST_AUTO_TEST_CASE(host_headers_are_read_strictly)
{
    for (std::string_view const h : {"localhost", "localhost:8080", "LOCALHOST", "127.0.0.1", "127.0.0.1:1", "[::1]", "[::1]:65535"})
        BOOST_TEST(net::is_loopback_host(h), h);
    for (std::string_view const h : {"", "evil.example", "localhost.evil.com", "localhost:", "localhost:0", "localhost:65536",
                                     "localhost:80:80", "localhost:8o", "user@localhost", "localhost/", "127.0.0.1.nip.io",
                                     "127.0.0.2", "[::1", "::1", "[::2]", " localhost", "localhost "})
        BOOST_TEST(!net::is_loopback_host(h), h);
    std::vector<std::string> const names{"myhost.lan"};
    BOOST_TEST(net::host_allowed("myhost.lan:8080", names, ""));
    BOOST_TEST(net::host_allowed("MyHost.LAN", names, ""));
    BOOST_TEST(net::host_allowed("localhost:1", names, ""));
    BOOST_TEST(!net::host_allowed("myhost.lan.evil.com", names, ""));
    BOOST_TEST(!net::host_allowed("evil@myhost.lan", names, ""));
    BOOST_TEST(net::host_allowed("192.168.1.5:8080", {}, "192.168.1.5"));
    BOOST_TEST(net::host_allowed("[fe80::1]:8080", {}, "[fe80::1]"));
    BOOST_TEST(!net::host_allowed("192.168.1.6:8080", {}, "192.168.1.5"));
    BOOST_TEST(!net::host_allowed("rebound.evil.example:8080", {}, ""));
}

BOOST_AUTO_TEST_CASE(a_request_reaches_the_handler_whole)
{
    std::mutex m;
    std::optional<net::http_request> seen;
    running s(options(), [&](net::http_request const& r) {
        {
            std::lock_guard lock(m);
            seen = r;
        }
        net::http_response out;
        out.status = 201;
        out.content_type = "application/json";
        out.body = R"({"ok":true})";
        out.headers.emplace_back("Mcp-Session-Id", "abc");
        return out;
    });
    auto c = s.connect();
    BOOST_TEST_REQUIRE(c.send(post("/mcp?x=1", R"({"a":1})", "X-First: one\r\nContent-Type: application/json\r\nx-first: two\r\n")));
    auto r = c.read();
    BOOST_TEST_REQUIRE(r.has_value(), c.why);
    BOOST_TEST(status(*r) == 201);
    BOOST_TEST(r->body() == R"({"ok":true})");
    BOOST_TEST(field(*r, "Content-Type") == "application/json");
    BOOST_TEST(field(*r, "Content-Length") == "11");
    BOOST_TEST(field(*r, "Cache-Control") == "no-store");
    BOOST_TEST(field(*r, "X-Content-Type-Options") == "nosniff");
    BOOST_TEST(field(*r, "Mcp-Session-Id") == "abc");
    BOOST_TEST(r->keep_alive());

    std::lock_guard lock(m);
    BOOST_TEST_REQUIRE(seen.has_value());
    BOOST_TEST(seen->method == "POST");
    BOOST_TEST(seen->target == "/mcp?x=1");
    BOOST_TEST(seen->version == 11u);
    BOOST_TEST(seen->body == R"({"a":1})");
    BOOST_TEST(seen->header("content-type").value_or("") == "application/json");
    BOOST_TEST(seen->header("X-FIRST").value_or("") == "one"); // the first of two
    BOOST_TEST(!seen->header("X-Missing").has_value());
    // In the order sent, but for a repeated name: its later fields follow its first.
    BOOST_TEST_REQUIRE(seen->headers.size() == 5u);
    BOOST_TEST(seen->headers[0].first == "Host");
    BOOST_TEST(seen->headers[2].first == "X-First");
    BOOST_TEST(seen->headers[3].first == "x-first");
    BOOST_TEST(seen->headers[3].second == "two");
    BOOST_TEST(seen->headers[4].first == "Content-Type");
    BOOST_TEST(seen->peer.rfind("127.0.0.1:", 0) == 0u, seen->peer);
}

BOOST_AUTO_TEST_CASE(a_chunked_body_arrives_decoded)
{
    echo e;
    running s(options(), e.handler());
    auto c = s.connect();
    BOOST_TEST_REQUIRE(c.send("POST /c HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n"
                              "5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n"));
    auto r = c.read();
    BOOST_TEST_REQUIRE(r.has_value(), c.why);
    BOOST_TEST(r->body() == "POST /c hello world");
}

BOOST_AUTO_TEST_CASE(keep_alive_serves_several_requests_on_one_connection)
{
    std::mutex m;
    std::vector<std::string> peers;
    running s(options(), [&](net::http_request const& r) {
        std::lock_guard lock(m);
        peers.push_back(r.peer);
        return net::http_response{200, "", r.target, {}};
    });
    auto c = s.connect();
    for (std::string_view const target : {"/1", "/2", "/3"}) {
        BOOST_TEST_REQUIRE(c.send(get(target)));
        auto r = c.read();
        BOOST_TEST_REQUIRE(r.has_value(), c.why);
        BOOST_TEST(r->body() == target);
        BOOST_TEST(r->keep_alive());
    }
    // Two requests in one write: both answered, in order.
    BOOST_TEST_REQUIRE(c.send(get("/4") + get("/5")));
    for (std::string_view const target : {"/4", "/5"}) {
        auto r = c.read();
        BOOST_TEST_REQUIRE(r.has_value(), c.why);
        BOOST_TEST(r->body() == target);
    }
    {
        std::lock_guard lock(m);
        BOOST_TEST_REQUIRE(peers.size() == 5u);
        for (auto const& p : peers) BOOST_TEST(p == peers.front()); // one connection
    }
    // Connection: close, and HTTP/1.0 without keep-alive: answered, then closed.
    BOOST_TEST_REQUIRE(c.send(get("/6", "Connection: close\r\n")));
    auto last = c.read();
    BOOST_TEST_REQUIRE(last.has_value(), c.why);
    BOOST_TEST(!last->keep_alive());
    BOOST_TEST(c.closed_within(5s));
    auto old = s.connect();
    BOOST_TEST_REQUIRE(old.send("GET /old HTTP/1.0\r\n\r\n"));
    auto r = old.read();
    BOOST_TEST_REQUIRE(r.has_value(), old.why);
    BOOST_TEST(r->version() == 10u);
    BOOST_TEST(r->body() == "/old");
    BOOST_TEST(old.closed_within(5s));
}

BOOST_AUTO_TEST_CASE(responses_follow_the_handler_and_the_defaults)
{
    running s(options(), [](net::http_request const& r) {
        net::http_response out;
        if (r.target == "/cached") {
            out.body = "x";
            out.headers.emplace_back("Cache-Control", "max-age=60");
        } else if (r.target == "/empty") {
            out.status = 204;
        } else {
            out.body = "twelve bytes";
        }
        return out;
    });
    auto c = s.connect();
    BOOST_TEST_REQUIRE(c.send(get("/cached")));
    auto r = c.read();
    BOOST_TEST_REQUIRE(r.has_value(), c.why);
    BOOST_TEST(field(*r, "Cache-Control") == "max-age=60"); // replaces no-store
    BOOST_TEST(field(*r, "Content-Type") == "text/plain; charset=utf-8");

    BOOST_TEST_REQUIRE(c.send(get("/empty")));
    r = c.read();
    BOOST_TEST_REQUIRE(r.has_value(), c.why);
    BOOST_TEST(status(*r) == 204);
    BOOST_TEST(field(*r, "Content-Length") == "<none>");
    BOOST_TEST(field(*r, "Content-Type") == "<none>");

    BOOST_TEST_REQUIRE(c.send("HEAD /text HTTP/1.1\r\nHost: localhost\r\n\r\n"));
    r = c.read(true);
    BOOST_TEST_REQUIRE(r.has_value(), c.why);
    BOOST_TEST(field(*r, "Content-Length") == "12");
    BOOST_TEST(r->body().empty());
    BOOST_TEST_REQUIRE(c.send(get("/text"))); // no stray body bytes before this answer
    r = c.read();
    BOOST_TEST_REQUIRE(r.has_value(), c.why);
    BOOST_TEST(r->body() == "twelve bytes");
}

BOOST_AUTO_TEST_CASE(an_oversized_content_length_is_refused_unread)
{
    echo e;
    auto o = options();
    o.max_body_bytes = 1024;
    running s(o, e.handler());
    // Only the header is sent: the 413 comes without waiting for the body.
    auto r = refused(s, "POST /big HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1025\r\n\r\n");
    BOOST_TEST(status(r) == 413);
    BOOST_TEST(status(refused(s, "POST /big HTTP/1.1\r\nHost: localhost\r\nContent-Length: 99999999999999999\r\n\r\n")) == 413);
    BOOST_TEST(e.calls->load() == 0);
    // At the limit: served.
    auto c = s.connect();
    BOOST_TEST_REQUIRE(c.send(post("/fits", std::string(1024, 'a'))));
    auto ok = c.read();
    BOOST_TEST_REQUIRE(ok.has_value(), c.why);
    BOOST_TEST(status(*ok) == 200);
    BOOST_TEST(e.calls->load() == 1);
}

BOOST_AUTO_TEST_CASE(an_oversized_chunked_body_is_refused)
{
    echo e;
    auto o = options();
    o.max_body_bytes = 1024;
    running s(o, e.handler());
    std::string const chunk = "200\r\n" + std::string(512, 'a') + "\r\n";
    std::string const head = "POST /big HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n";
    BOOST_TEST(status(refused(s, head + chunk + chunk + chunk)) == 413); // the third chunk passes the limit
    BOOST_TEST(status(refused(s, head + "100000\r\n")) == 413);        // one chunk that says it would
    BOOST_TEST(e.calls->load() == 0);
    auto c = s.connect();
    BOOST_TEST_REQUIRE(c.send(head + chunk + chunk + "0\r\n\r\n")); // 1024 bytes: at the limit
    auto ok = c.read();
    BOOST_TEST_REQUIRE(ok.has_value(), c.why);
    BOOST_TEST(status(*ok) == 200);
}

BOOST_AUTO_TEST_CASE(an_oversized_header_is_431)
{
    echo e;
    auto o = options();
    o.max_header_bytes = 2048;
    running s(o, e.handler());
    BOOST_TEST(status(refused(s, get("/", "X-Big: " + std::string(4000, 'a') + "\r\n"))) == 431);
    std::string many;
    for (int i = 0; i < 300; ++i) many += "X-" + std::to_string(i) + ": v\r\n";
    BOOST_TEST(status(refused(s, get("/", many))) == 431);
    BOOST_TEST(status(refused(s, "GET /" + std::string(3000, 'a') + " HTTP/1.1\r\n\r\n")) == 431);
    BOOST_TEST(e.calls->load() == 0);
    auto c = s.connect();
    BOOST_TEST_REQUIRE(c.send(get("/", "X-Big: " + std::string(1500, 'a') + "\r\n")));
    auto ok = c.read();
    BOOST_TEST_REQUIRE(ok.has_value(), c.why);
    BOOST_TEST(status(*ok) == 200);
}

BOOST_AUTO_TEST_CASE(a_malformed_request_is_400)
{
    echo e;
    running s(options(), e.handler());
    for (std::string const& bad : {std::string("HELLO\r\n\r\n"), std::string("GET / HTTP/9.9\r\n\r\n"),
                                  std::string("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"),
                                  std::string("\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n", 15),
                                  std::string("GET / HTTP/1.1\r\nBad Header: x\r\n\r\n"),
                                  // Request smuggling: two lengths, or a length and chunking.
                                  post("/", "hello", "Content-Length: 6\r\n"),
                                  post("/", "hello", "Transfer-Encoding: chunked\r\n"),
                                  std::string("POST / HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")}) {
        auto r = refused(s, bad);
        BOOST_TEST(status(r) == 400, bad);
    }
    BOOST_TEST(e.calls->load() == 0);
}

// A body framed by anything but a length or `chunked` alone is refused and the connection
// closed: nothing after it is read as a request of its own (smuggling). A coding the
// server does not know before `chunked` is 501; fields in a chunked body's trailer, which
// would join the header past its checks, are refused too.
BOOST_AUTO_TEST_CASE(transfer_codings_other_than_chunked_are_refused)
{
    echo e;
    running s(options(), e.handler());
    std::string const smuggled = post("/smuggled", "x");
    for (std::string const coding : {"xchunked", "chunked, gzip", "identity", "gzip", "chunked\r\nTransfer-Encoding: chunked"}) {
        std::string const request = "POST /first HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: " + coding + "\r\n\r\n" + smuggled;
        auto c = s.connect();
        BOOST_TEST_REQUIRE(c.send(request));
        auto r = c.read();
        BOOST_TEST_REQUIRE(r.has_value(), c.why);
        BOOST_TEST(status(*r) == 400, coding);
        BOOST_TEST(!r->keep_alive());
        BOOST_TEST(c.closed_within(5s), coding); // and no second answer
    }
    auto r = refused(s, "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n");
    BOOST_TEST(status(r) == 501);
    r = refused(s, "POST / HTTP/1.0\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n");
    BOOST_TEST(status(r) == 400);
    r = refused(s, "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\nX-Late: 1\r\n\r\n");
    BOOST_TEST(status(r) == 400);
    BOOST_TEST(e.calls->load() == 0);
    // `chunked` alone, in any case, is a body like any other.
    auto c = s.connect();
    BOOST_TEST_REQUIRE(c.send("POST /ok HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: Chunked\r\n\r\n2\r\nhi\r\n0\r\n\r\n"));
    auto ok = c.read();
    BOOST_TEST_REQUIRE(ok.has_value(), c.why);
    BOOST_TEST(ok->body() == "POST /ok hi");
}

// A stopping server gives a request under way a short while (at most 2 s) to arrive,
// not the whole request timeout.
BOOST_AUTO_TEST_CASE(stop_cuts_a_half_sent_request_short)
{
    echo e;
    running s(options(), e.handler()); // a request may take 10 s
    auto c = s.connect();
    BOOST_TEST_REQUIRE(c.send("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\nonly part"));
    std::this_thread::sleep_for(50ms);
    auto const start = clock_type::now();
    s.server.stop();
    BOOST_TEST(s.finished_within(5s));
    BOOST_TEST((clock_type::now() - start < 3s));
    BOOST_TEST(e.calls->load() == 0);
}

BOOST_AUTO_TEST_CASE(a_foreign_origin_is_403)
{
    echo e;
    running s(options(), e.handler());
    for (std::string_view const origin : {"http://evil.example", "http://localhost.evil.com", "null", "http://localhost@evil.com",
                                          "https://127.0.0.1.evil.com", "http://localhost:8080/"}) {
        auto r = refused(s, post("/mcp", "{}", "Origin: " + std::string(origin) + "\r\n"));
        BOOST_TEST(status(r) == 403, origin);
    }
    // Two Origin headers, even two good ones: not something a browser sends.
    BOOST_TEST(status(refused(s, get("/", "Origin: http://localhost\r\nOrigin: http://evil.example\r\n"))) == 403);
    BOOST_TEST(status(refused(s, get("/", "Origin: http://localhost\r\nOrigin: http://localhost\r\n"))) == 403);
    BOOST_TEST(e.calls->load() == 0);
}

BOOST_AUTO_TEST_CASE(a_foreign_host_is_403)
{
    echo e;
    auto o = options();
    o.allowed_hosts = {"myhost.lan"};
    running s(o, e.handler());
    // After DNS rebinding, the attacker's page is same-origin: no Origin on a GET, but its Host.
    for (std::string_view const host : {"rebound.evil.example", "rebound.evil.example:8080", "localhost.evil.com", "localhost@evil.com",
                                        "127.0.0.2"}) {
        auto r = refused(s, "GET / HTTP/1.1\r\nHost: " + std::string(host) + "\r\n\r\n");
        BOOST_TEST(status(r) == 403, host);
    }
    // HTTP/1.1 needs exactly one Host.
    BOOST_TEST(status(refused(s, "GET / HTTP/1.1\r\n\r\n")) == 400);
    BOOST_TEST(status(refused(s, "GET / HTTP/1.1\r\nHost: localhost\r\nHost: localhost\r\n\r\n")) == 400);
    BOOST_TEST(e.calls->load() == 0);
    auto c = s.connect();
    for (std::string const& host : {"localhost:" + std::to_string(s.port), std::string("127.0.0.1"), std::string("[::1]:1"),
                                   std::string("myhost.lan:" + std::to_string(s.port))}) {
        BOOST_TEST_REQUIRE(c.send("GET / HTTP/1.1\r\nHost: " + host + "\r\n\r\n"));
        auto r = c.read();
        BOOST_TEST_REQUIRE(r.has_value(), c.why);
        BOOST_TEST(status(*r) == 200, host);
    }
    // A server listening on another address takes that address as a Host too.
    auto other = options();
    other.host = "127.0.0.2"; // on Linux the whole of 127/8 is the loopback interface
    running t(other, e.handler());
    client d(t.port, "127.0.0.2");
    BOOST_TEST_REQUIRE(d.connected());
    BOOST_TEST_REQUIRE(d.send("GET / HTTP/1.1\r\nHost: 127.0.0.2:" + std::to_string(t.port) + "\r\n\r\n"));
    auto r = d.read();
    BOOST_TEST_REQUIRE(r.has_value(), d.why);
    BOOST_TEST(status(*r) == 200);
    client f(t.port, "127.0.0.2");
    BOOST_TEST_REQUIRE(f.send("GET / HTTP/1.1\r\nHost: 127.0.0.3\r\n\r\n"));
    r = f.read();
    BOOST_TEST_REQUIRE(r.has_value(), f.why);
    BOOST_TEST(status(*r) == 403);
}

BOOST_AUTO_TEST_CASE(loopback_and_listed_origins_pass)
{
    echo e;
    auto o = options();
    o.allowed_origins = {"https://app.example"};
    running s(o, e.handler());
    auto c = s.connect();
    for (std::string_view const origin : {"http://localhost:5173", "http://127.0.0.1", "https://[::1]:8443", "https://app.example", ""}) {
        BOOST_TEST_REQUIRE(c.send(get("/", origin.empty() ? std::string() : "Origin: " + std::string(origin) + "\r\n")));
        auto r = c.read();
        BOOST_TEST_REQUIRE(r.has_value(), c.why);
        BOOST_TEST(status(*r) == 200, origin);
    }
    BOOST_TEST(e.calls->load() == 5);

    auto strict = options();
    strict.loopback_origins = false;
    strict.allowed_origins = {"https://app.example"};
    running t(strict, e.handler());
    BOOST_TEST(status(refused(t, get("/", "Origin: http://localhost:5173\r\n"))) == 403);
    auto d = t.connect();
    BOOST_TEST_REQUIRE(d.send(get("/", "Origin: https://app.example\r\n")));
    auto r = d.read();
    BOOST_TEST_REQUIRE(r.has_value(), d.why);
    BOOST_TEST(status(*r) == 200);
}

BOOST_AUTO_TEST_CASE(a_bearer_token_is_required_when_set)
{
    echo e;
    auto o = options();
    o.bearer_token = "s3cret-token";
    running s(o, e.handler());
    auto r = refused(s, post("/mcp", "{}"));
    BOOST_TEST(status(r) == 401);
    BOOST_TEST(field(r, "WWW-Authenticate") == "Bearer");
    for (std::string_view const credentials : {"Bearer wrong", "Bearer s3cret-toke", "Bearer s3cret-tokenX", "Bearer ",
                                               "Basic czNjcmV0LXRva2Vu", "s3cret-token", "Bearers3cret-token"}) {
        r = refused(s, post("/mcp", "{}", "Authorization: " + std::string(credentials) + "\r\n"));
        BOOST_TEST(status(r) == 401, credentials);
        BOOST_TEST(field(r, "WWW-Authenticate").rfind("Bearer", 0) == 0u);
    }
    BOOST_TEST(status(refused(s, get("/", "Authorization: Bearer s3cret-token\r\nAuthorization: Bearer s3cret-token\r\n"))) == 401);
    // The origin is judged first.
    BOOST_TEST(status(refused(s, get("/", "Origin: http://evil.example\r\nAuthorization: Bearer s3cret-token\r\n"))) == 403);
    BOOST_TEST(e.calls->load() == 0);

    auto c = s.connect();
    for (std::string_view const credentials : {"Bearer s3cret-token", "bearer s3cret-token", "BEARER   s3cret-token"}) {
        BOOST_TEST_REQUIRE(c.send(post("/mcp", "{}", "Authorization: " + std::string(credentials) + "\r\n")));
        auto ok = c.read();
        BOOST_TEST_REQUIRE(ok.has_value(), c.why);
        BOOST_TEST(status(*ok) == 200, credentials);
    }
    BOOST_TEST(e.calls->load() == 3);
    o.bearer_token = "";
    BOOST_CHECK_THROW(net::http_server(o, e.handler()), std::invalid_argument);
}

// CORS: a browser's preflight carries no token, so the server answers it itself for an
// allowed origin, offering only what it was told; answers then name the origin.
BOOST_AUTO_TEST_CASE(cors_preflights_are_answered_for_allowed_origins_only)
{
    echo e;
    auto o = options();
    o.bearer_token = "s3cret-token";
    o.allowed_origins = {"https://app.example"};
    o.cors_methods = {"POST"};
    o.cors_headers = {"Authorization", "Content-Type", "Mcp-Method"};
    o.cors_expose = {"Mcp-Session-Id"};
    running s(o, e.handler());
    auto const preflight = [](std::string_view origin, std::string_view method, std::string_view headers) {
        return "OPTIONS /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: " + std::string(origin) + "\r\nAccess-Control-Request-Method: " +
               std::string(method) + "\r\n" + (headers.empty() ? std::string() : "Access-Control-Request-Headers: " + std::string(headers) + "\r\n") +
               "\r\n";
    };
    auto r = refused(s, preflight("https://app.example", "POST", "authorization, content-type,MCP-METHOD"));
    BOOST_TEST(status(r) == 204);
    BOOST_TEST(field(r, "Access-Control-Allow-Origin") == "https://app.example");
    BOOST_TEST(field(r, "Access-Control-Allow-Methods") == "POST");
    BOOST_TEST(field(r, "Access-Control-Allow-Headers") == "Authorization, Content-Type, Mcp-Method");
    BOOST_TEST(field(r, "Vary") == "Origin");
    // A loopback page may send requests (admitted) but gets no CORS: any local server is one.
    BOOST_TEST(status(refused(s, preflight("http://localhost:3000", "POST", ""))) == 401);
    r = refused(s, preflight("https://app.example", "DELETE", ""));
    BOOST_TEST(status(r) == 403);
    BOOST_TEST(field(r, "Access-Control-Allow-Origin") == "<none>");
    BOOST_TEST(status(refused(s, preflight("https://app.example", "POST", "X-Other"))) == 403);
    BOOST_TEST(status(refused(s, preflight("https://evil.example", "POST", ""))) == 403); // the origin first
    // An OPTIONS that is not a preflight still needs the token; the handler never saw a preflight.
    BOOST_TEST(status(refused(s, "OPTIONS /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: https://app.example\r\n\r\n")) == 401);
    BOOST_TEST(e.calls->load() == 0);
    // The request itself: token checked, the answer readable by that origin.
    auto c = s.connect();
    BOOST_TEST_REQUIRE(c.send(post("/mcp", "{}", "Origin: https://app.example\r\nAuthorization: Bearer s3cret-token\r\n")));
    auto ok = c.read();
    BOOST_TEST_REQUIRE(ok.has_value(), c.why);
    BOOST_TEST(status(*ok) == 200);
    BOOST_TEST(field(*ok, "Access-Control-Allow-Origin") == "https://app.example");
    BOOST_TEST(field(*ok, "Access-Control-Expose-Headers") == "Mcp-Session-Id");
    for (std::string_view const h : {"", "Origin: http://localhost:3000\r\n"}) { // no Origin, or a loopback one: no CORS
        BOOST_TEST_REQUIRE(c.send(post("/mcp", "{}", std::string(h) + "Authorization: Bearer s3cret-token\r\n")));
        ok = c.read();
        BOOST_TEST_REQUIRE(ok.has_value(), c.why);
        BOOST_TEST(status(*ok) == 200);
        BOOST_TEST(field(*ok, "Access-Control-Allow-Origin") == "<none>", h);
    }
    // Without cors_methods, nothing changes: a preflight meets the token.
    auto plain = options();
    plain.bearer_token = "s3cret-token";
    plain.allowed_origins = {"https://app.example"};
    running t(plain, e.handler());
    BOOST_TEST(status(refused(t, preflight("https://app.example", "POST", ""))) == 401);
}

BOOST_AUTO_TEST_CASE(a_client_that_waits_for_100_continue_gets_it_after_the_checks)
{
    echo e;
    auto o = options();
    o.bearer_token = "t";
    running s(o, e.handler());
    auto c = s.connect();
    BOOST_TEST_REQUIRE(c.send("POST /x HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer t\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n"));
    auto go = c.read();
    BOOST_TEST_REQUIRE(go.has_value(), c.why);
    BOOST_TEST(status(*go) == 100);
    BOOST_TEST_REQUIRE(c.send("hello"));
    auto r = c.read();
    BOOST_TEST_REQUIRE(r.has_value(), c.why);
    BOOST_TEST(r->body() == "POST /x hello");
    // Without the token: refused at once, no 100.
    auto refusal = refused(s, "POST /x HTTP/1.1\r\nHost: localhost\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n");
    BOOST_TEST(status(refusal) == 401);
}

BOOST_AUTO_TEST_CASE(connections_over_the_cap_get_503)
{
    echo e;
    auto o = options();
    o.max_connections = 2;
    running s(o, e.handler());
    std::vector<client> open;
    for (int i = 0; i < 2; ++i) {
        open.push_back(s.connect());
        BOOST_TEST_REQUIRE(open.back().send(get()));
        BOOST_TEST_REQUIRE(open.back().read().has_value(), open.back().why);
    }
    BOOST_TEST(s.server.connections() == 2u);
    for (int i = 0; i < 3; ++i) { // each extra one, without a word from it
        auto extra = s.connect();
        BOOST_TEST_REQUIRE(extra.connected());
        auto r = extra.read();
        BOOST_TEST_REQUIRE(r.has_value(), extra.why);
        BOOST_TEST(status(*r) == 503);
        BOOST_TEST(r->body() == "too many connections\n");
        BOOST_TEST(extra.closed_within(5s));
    }
    BOOST_TEST(s.server.connections() == 2u);
    // The two open ones still work; once one leaves, a new client is served.
    BOOST_TEST_REQUIRE(open[1].send(get("/again")));
    BOOST_TEST(open[1].read().has_value());
    open[0].close();
    BOOST_TEST_REQUIRE(eventually([&] { return s.server.connections() < 2; }));
    auto late = s.connect();
    BOOST_TEST_REQUIRE(late.send(get("/late")));
    auto r = late.read();
    BOOST_TEST_REQUIRE(r.has_value(), late.why);
    BOOST_TEST(status(*r) == 200);
}

BOOST_AUTO_TEST_CASE(an_idle_connection_is_closed_after_idle_timeout)
{
    echo e;
    auto o = options();
    o.idle_timeout = 50ms;
    running s(o, e.handler());
    auto c = s.connect();
    BOOST_TEST_REQUIRE(c.send(get()));
    BOOST_TEST_REQUIRE(c.read().has_value(), c.why);
    auto const start = clock_type::now();
    BOOST_TEST(c.closed_within(5s));
    BOOST_TEST((clock_type::now() - start) >= 40ms);
    auto silent = s.connect(); // never says a word
    BOOST_TEST(silent.closed_within(5s));
    BOOST_TEST_REQUIRE(eventually([&] { return s.server.connections() == 0; }));
}

BOOST_AUTO_TEST_CASE(a_request_that_trickles_in_is_cut_off_after_request_timeout)
{
    echo e;
    auto o = options();
    o.idle_timeout = 10s;      // each pause is far below it...
    o.request_timeout = 150ms; // ...but the whole request may not take longer than this
    running s(o, e.handler());
    auto c = s.connect();
    auto const start = clock_type::now();
    std::string const request = get("/slow", "X-Padding: " + std::string(200, 'p') + "\r\n");
    bool cut = false;
    for (char const ch : request) {
        if (!c.send(std::string_view(&ch, 1)) || c.closed_within(10ms)) { // a pause of 10 ms between bytes
            cut = true;
            break;
        }
    }
    auto const took = clock_type::now() - start;
    BOOST_TEST(cut);
    BOOST_TEST((took >= 140ms));
    BOOST_TEST((took < 3s)); // long before the request was complete (about 2.5 s)
    BOOST_TEST(e.calls->load() == 0);
}

BOOST_AUTO_TEST_CASE(stop_answers_the_request_under_way_then_run_returns)
{
    std::promise<void> entered;
    std::promise<void> release;
    auto released = release.get_future().share();
    std::atomic<bool> first{true};
    running s(options(), [&](net::http_request const& r) {
        if (r.target == "/slow" && first.exchange(false)) {
            entered.set_value();
            released.wait();
        }
        return net::http_response{200, "", "done " + r.target, {}};
    });
    auto idle = s.connect(); // served once, then waiting with nothing to do
    BOOST_TEST_REQUIRE(idle.send(get("/quick")));
    BOOST_TEST_REQUIRE(idle.read().has_value(), idle.why);
    auto busy = s.connect();
    BOOST_TEST_REQUIRE(busy.send(get("/slow")));
    BOOST_TEST_REQUIRE((entered.get_future().wait_for(10s) == std::future_status::ready));

    s.server.stop();
    BOOST_TEST(!s.finished_within(100ms)); // the request under way holds it
    release.set_value();
    auto r = busy.read();
    BOOST_TEST_REQUIRE(r.has_value(), busy.why);
    BOOST_TEST(r->body() == "done /slow");
    BOOST_TEST(!r->keep_alive()); // the last one on this connection
    BOOST_TEST(busy.closed_within(5s));
    busy.close(); // as a client does after `Connection: close` (else the server waits a moment for it)
    BOOST_TEST(idle.closed_within(5s));
    BOOST_TEST(s.finished_within(5s));
    BOOST_TEST(!s.connect().connected()); // nobody listens any more
}

BOOST_AUTO_TEST_CASE(stop_before_run_and_on_a_signal)
{
    {
        echo e;
        net::http_server server(options(), e.handler());
        server.start();
        server.stop();
        auto const start = clock_type::now();
        server.run(); // returns: stopped before it began
        BOOST_TEST((clock_type::now() - start) < 5s);
    }
    {
        echo e;
        net::http_server server(options(), e.handler());
        auto const port = server.start();
        server.stop_on_signals();
        std::promise<void> done;
        auto finished = done.get_future();
        std::thread t([&] {
            server.run();
            done.set_value();
        });
        auto c = client(port);
        BOOST_TEST_REQUIRE(c.send(get()));
        BOOST_TEST_REQUIRE(c.read().has_value(), c.why); // running
        ::kill(::getpid(), SIGTERM);
        bool const stopped = finished.wait_for(10s) == std::future_status::ready;
        BOOST_TEST(stopped);
        if (!stopped) server.stop();
        t.join();
    }
}

BOOST_AUTO_TEST_CASE(a_failing_handler_gets_500_and_the_server_goes_on)
{
    std::mutex m;
    std::vector<std::string> reports;
    auto o = options();
    o.on_error = [&](std::string_view what) {
        std::lock_guard lock(m);
        reports.emplace_back(what);
    };
    running s(o, [](net::http_request const& r) -> net::http_response {
        if (r.target == "/throw") throw std::runtime_error("secret detail");
        if (r.target == "/throw-int") throw 42;
        if (r.target == "/split") return {200, "", "x", {{"X-Evil", "a\r\nSet-Cookie: b"}}};
        if (r.target == "/framing") return {200, "", "x", {{"Content-Length", "1"}}};
        if (r.target == "/bad-name") return {200, "", "x", {{"Bad Name", "v"}}};
        if (r.target == "/bad-type") return {200, "text/html\r\nX: y", "x", {}};
        if (r.target == "/status") return {42, "", "x", {}};
        if (r.target == "/no-content") return {204, "", "a body", {}};
        return {200, "", "fine", {}};
    });
    auto c = s.connect();
    for (std::string_view const target : {"/throw", "/throw-int", "/split", "/framing", "/bad-name", "/bad-type", "/status", "/no-content"}) {
        BOOST_TEST_REQUIRE(c.send(get(target)));
        auto r = c.read();
        BOOST_TEST_REQUIRE(r.has_value(), c.why);
        BOOST_TEST(status(*r) == 500, target);
        BOOST_TEST(r->body() == "internal server error\n");
        BOOST_TEST(field(*r, "Set-Cookie") == "<none>");
        BOOST_TEST(r->keep_alive()); // the connection goes on too
        BOOST_TEST_REQUIRE(c.send(get("/ok")));
        r = c.read();
        BOOST_TEST_REQUIRE(r.has_value(), c.why);
        BOOST_TEST(r->body() == "fine");
    }
    std::lock_guard lock(m);
    BOOST_TEST_REQUIRE(reports.size() == 8u);
    BOOST_TEST(reports[0].find("secret detail") != std::string::npos, reports[0]);
    BOOST_TEST(reports[2].find("X-Evil") != std::string::npos, reports[2]);
}

BOOST_AUTO_TEST_CASE(many_clients_at_once)
{
    echo e;
    auto o = options();
    o.threads = 4;
    running s(o, e.handler());
    constexpr int clients = 24, requests = 20;
    std::atomic<int> good{0};
    std::vector<std::thread> threads;
    for (int i = 0; i < clients; ++i) {
        threads.emplace_back([&, i] {
            auto c = s.connect();
            for (int k = 0; k < requests; ++k) {
                auto const body = std::to_string(i) + "/" + std::to_string(k);
                if (!c.send(post("/echo", body))) return;
                auto r = c.read();
                if (r && r->body() == "POST /echo " + body) ++good;
            }
        });
    }
    for (auto& t : threads) t.join();
    BOOST_TEST(good.load() == clients * requests);
    BOOST_TEST(e.calls->load() == clients * requests);
}

BOOST_AUTO_TEST_CASE(start_says_why_it_cannot_listen)
{
    echo e;
    running s(options(), e.handler());
    auto o = options();
    o.port = s.port;
    net::http_server second(o, e.handler());
    try {
        second.start();
        BOOST_FAIL("a second server listened on a port in use");
    } catch (std::system_error const& x) {
        std::string const what = x.what();
        BOOST_TEST(what.find("cannot listen on 127.0.0.1:" + std::to_string(s.port)) != std::string::npos, what);
        BOOST_TEST((x.code() == std::errc::address_in_use), what);
    }
    o.port = 0;
    o.host = "203.0.113.7"; // an address this machine does not have
    BOOST_CHECK_THROW(net::http_server(o, e.handler()).start(), std::system_error);
    o.host = "no-such-host.invalid";
    BOOST_CHECK_THROW(net::http_server(o, e.handler()).start(), std::system_error);
    o.host = "127.0.0.1";
    o.max_connections = 0;
    BOOST_CHECK_THROW(net::http_server(o, e.handler()), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(ipv6_loopback)
{
    echo e;
    for (std::string_view const host : {"::1", "[::1]"}) {
        auto o = options();
        o.host = host;
        std::optional<running> s;
        try {
            s.emplace(o, e.handler());
        } catch (std::system_error const& x) {
            BOOST_TEST_MESSAGE("no IPv6 loopback here, skipped: " << x.what());
            return;
        }
        client c(s->port, "::1");
        BOOST_TEST_REQUIRE(c.connected());
        BOOST_TEST_REQUIRE(c.send(get("/six")));
        auto r = c.read();
        BOOST_TEST_REQUIRE(r.has_value(), c.why);
        BOOST_TEST(r->body() == "GET /six ");
        BOOST_TEST(!client(s->port).connected()); // the IPv4 loopback is not listened on
    }
}

BOOST_AUTO_TEST_SUITE_END()
