// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_MCP_CLIENT_HPP
#define SKILLMD_MCP_CLIENT_HPP

// A JSON-RPC 2.0 client for an MCP server started as a child process, speaking over its
// stdin and stdout (one message per line). The server is hostile until checked: every
// request has a deadline, every message a size cap, and a server that floods, stalls,
// answers with the wrong id, sends what is not JSON, or dies is stopped with a
// diagnostic. It can never hang or abort the host: the child's end is a socket, so a
// write to a dead server fails with EPIPE instead of raising SIGPIPE.

#include <skillmd/mcp/revisions.hpp>

#include <boost/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace skillmd::mcp {

struct client_options
{
    std::chrono::milliseconds timeout{10000};         ///< the longest wait for one answer
    std::size_t max_message_bytes = 32 * 1024 * 1024; ///< a longer line from the server stops it
    std::size_t max_unrelated = 1000; ///< notifications and stray answers tolerated while waiting for one answer
    std::string protocol_version = "2025-11-25";
    std::string client_name = "skillmd";
};

/// An answer: `result` on success; `error` (and the JSON-RPC `code`, 0 for a transport
/// failure) otherwise.
struct rpc_reply
{
    std::optional<boost::json::object> result;
    std::string error;
    std::int64_t code = 0;
    explicit operator bool() const noexcept { return result.has_value(); }
};

/** A connection to one MCP server, whatever carries it: a child process's stdio
    (rpc_client, below) or streamable HTTP (remote_client, mcp/remote.hpp). Not
    thread-safe: a caller with several threads serialises its requests. After a transport
    failure it is stopped; `start()` connects again.
*/
class connection
{
public:
    virtual ~connection() = default;
    /// Connects and runs the MCP handshake; "" on success, else why not.
    virtual std::string start() = 0;
    virtual bool running() const noexcept = 0;
    /// The capabilities the server announced at start.
    virtual boost::json::object const& capabilities() const noexcept = 0;
    /// Sends one request and waits for its answer, within the deadline.
    virtual rpc_reply request(std::string_view method, boost::json::object params) = 0;
    /// True when the server announced, since the last call, that its resources changed.
    virtual bool take_list_changed() = 0;
    /// Why the last request failed in transport ("" if it did not).
    virtual std::string const& failure() const noexcept = 0;
    virtual void stop() noexcept = 0;
};

/// One MCP server in a child process. After a transport failure the client is stopped;
/// `start()` starts a new child.
class rpc_client final : public connection
{
public:
    rpc_client(std::vector<std::string> argv, client_options opts) : argv_(std::move(argv)), opts_(std::move(opts)) {}
    rpc_client(rpc_client const&) = delete;
    rpc_client& operator=(rpc_client const&) = delete;
    ~rpc_client() override { stop(); }

    bool running() const noexcept override { return fd_ >= 0; }

    /// Starts the server and runs the MCP handshake; "" on success, else why not.
    std::string start() override
    {
        stop();
        if (argv_.empty()) return "no server command";
        if (std::string const why = spawn(); !why.empty()) return why;
        boost::json::object params{{"protocolVersion", opts_.protocol_version},
                                   {"capabilities", boost::json::object{}},
                                   {"clientInfo", boost::json::object{{"name", opts_.client_name}, {"version", "0.1.0"}}}};
        auto r = request("initialize", std::move(params));
        if (!r) {
            stop();
            return "the server did not initialize: " + r.error;
        }
        if (auto const* c = r.result->if_contains("capabilities"); c && c->is_object()) capabilities_ = c->as_object();
        if (!send(R"({"jsonrpc":"2.0","method":"notifications/initialized"})")) {
            std::string const why = failure_;
            stop();
            return "the server stopped after initialize: " + why;
        }
        return "";
    }

    /// The capabilities the server announced at start.
    boost::json::object const& capabilities() const noexcept override { return capabilities_; }

    /// Sends one request and waits for its answer, within the deadline.
    rpc_reply request(std::string_view method, boost::json::object params) override
    {
        rpc_reply out;
        if (!running()) {
            out.error = "the server is not running";
            return out;
        }
        auto const deadline = std::chrono::steady_clock::now() + opts_.timeout;
        std::int64_t const id = ++last_id_;
        std::string const message = boost::json::serialize(
            boost::json::object{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}});
        if (!send(message, deadline)) return fail(out, failure_);
        for (std::size_t unrelated = 0; unrelated <= opts_.max_unrelated; ++unrelated) {
            auto line = read_line(deadline);
            if (!line) return fail(out, failure_);
            boost::system::error_code ec;
            boost::json::value v = boost::json::parse(*line, ec);
            if (ec || !v.is_object()) return fail(out, "the server sent a line that is not a JSON object");
            auto const& o = v.as_object();
            auto const* mid = o.if_contains("id");
            if (auto const* m = o.if_contains("method")) {
                if (m->is_string() && m->as_string() == "notifications/resources/list_changed") list_changed_ = true;
                // A request from the server (roots, sampling, ...): this client offers none.
                if (mid && !mid->is_null() && !answer_unsupported(*mid, deadline)) return fail(out, failure_);
                continue;
            }
            if (!mid || !mid->is_int64() || mid->as_int64() != id) continue; // an answer to something else
            if (auto const* e = o.if_contains("error"); e && e->is_object()) {
                auto const& eo = e->as_object();
                if (auto const* c = eo.if_contains("code"); c && c->is_int64()) out.code = c->as_int64();
                if (auto const* msg = eo.if_contains("message"); msg && msg->is_string())
                    out.error = std::string(msg->as_string().subview().substr(0, 500));
                if (out.error.empty()) out.error = "an error without a message";
                return out;
            }
            auto const* res = o.if_contains("result");
            if (!res || !res->is_object()) return fail(out, "the server's answer has no result object");
            out.result = res->as_object();
            return out;
        }
        return fail(out, "the server sent more than " + std::to_string(opts_.max_unrelated) +
                             " messages that were not the answer");
    }

    /// Reads what the server sent unasked, without waiting; true when it announced that
    /// its resources changed since the last call.
    bool take_list_changed() override
    {
        auto const now = std::chrono::steady_clock::now();
        for (std::size_t i = 0; running() && i < opts_.max_unrelated && readable(); ++i) {
            auto line = read_line(now + std::chrono::milliseconds(50));
            if (!line) {
                stop();
                break;
            }
            boost::system::error_code ec;
            boost::json::value v = boost::json::parse(*line, ec);
            if (auto const* o = v.if_object())
                if (auto const* m = o->if_contains("method"); m && m->is_string() &&
                                                               m->as_string() == "notifications/resources/list_changed")
                    list_changed_ = true;
        }
        return std::exchange(list_changed_, false);
    }

    /// Why the last request failed in transport ("" if it did not).
    std::string const& failure() const noexcept override { return failure_; }

    /// Closes the server's input, gives it a moment to leave, then kills it.
    void stop() noexcept override
    {
        if (fd_ >= 0) {
            ::shutdown(fd_, SHUT_WR);
            ::close(fd_);
            fd_ = -1;
        }
        if (pid_ > 0) {
            for (int i = 0; i < 20; ++i) { // 200 ms to leave on its own
                if (::waitpid(pid_, nullptr, WNOHANG) == pid_) {
                    pid_ = -1;
                    break;
                }
                ::usleep(10000);
            }
            if (pid_ > 0) {
                ::kill(pid_, SIGKILL);
                ::waitpid(pid_, nullptr, 0);
                pid_ = -1;
            }
        }
        buffer_.clear();
        capabilities_.clear();
    }

private:
    std::string spawn()
    {
        int sv[2];
        if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) return "cannot create a socket pair";
        posix_spawn_file_actions_t fa;
        posix_spawnattr_t attr;
        posix_spawn_file_actions_init(&fa);
        posix_spawnattr_init(&attr);
        posix_spawn_file_actions_adddup2(&fa, sv[1], 0);
        posix_spawn_file_actions_adddup2(&fa, sv[1], 1);
        // The server's own messages never reach the host's terminal raw.
        posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
        sigset_t none, defaults;
        sigemptyset(&none);
        sigemptyset(&defaults);
        sigaddset(&defaults, SIGPIPE);
        posix_spawnattr_setsigmask(&attr, &none);
        posix_spawnattr_setsigdefault(&attr, &defaults);
        posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
        std::vector<char*> args;
        for (auto& a : argv_) args.push_back(a.data());
        args.push_back(nullptr);
        pid_t pid = -1;
        int const rc = ::posix_spawnp(&pid, args[0], &fa, &attr, args.data(), environ);
        posix_spawn_file_actions_destroy(&fa);
        posix_spawnattr_destroy(&attr);
        ::close(sv[1]);
        if (rc != 0) {
            ::close(sv[0]);
            return "cannot start " + argv_[0] + ": " + std::string(std::strerror(rc));
        }
        pid_ = pid;
        fd_ = sv[0];
        ::fcntl(fd_, F_SETFL, ::fcntl(fd_, F_GETFL) | O_NONBLOCK);
        return "";
    }

    rpc_reply& fail(rpc_reply& out, std::string why)
    {
        out.error = std::move(why);
        out.code = 0;
        stop(); // a transport that lied once is not trusted again
        failure_ = out.error;
        return out;
    }

    bool answer_unsupported(boost::json::value const& id, std::chrono::steady_clock::time_point deadline)
    {
        return send(boost::json::serialize(boost::json::object{
                        {"jsonrpc", "2.0"},
                        {"id", id},
                        {"error", boost::json::object{{"code", -32601}, {"message", "not offered by this client"}}}}),
                    deadline);
    }

    static int remaining_ms(std::chrono::steady_clock::time_point deadline)
    {
        auto const left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        return left.count() <= 0 ? 0 : static_cast<int>(std::min<std::int64_t>(left.count(), 60 * 60 * 1000));
    }

    bool send(std::string message, std::chrono::steady_clock::time_point deadline)
    {
        message += '\n';
        std::size_t done = 0;
        while (done < message.size()) {
            ssize_t const n = ::send(fd_, message.data() + done, message.size() - done, MSG_NOSIGNAL);
            if (n > 0) {
                done += static_cast<std::size_t>(n);
                continue;
            }
            if (n < 0 && errno == EINTR) continue;
            if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
                pollfd p{fd_, POLLOUT, 0};
                int const left = remaining_ms(deadline);
                if (left == 0 || ::poll(&p, 1, left) <= 0) {
                    failure_ = "the server did not read its input within " + std::to_string(opts_.timeout.count()) + " ms";
                    return false;
                }
                continue;
            }
            failure_ = "the server closed its input";
            return false;
        }
        return true;
    }
    bool send(std::string message) { return send(std::move(message), std::chrono::steady_clock::now() + opts_.timeout); }

    bool readable() const
    {
        if (buffer_.find('\n') != std::string::npos) return true;
        pollfd p{fd_, POLLIN, 0};
        return ::poll(&p, 1, 0) > 0;
    }

    /// One line from the server, without its end; nothing (and `failure_`) on a
    /// time-out, an oversized line, or the end of its output.
    std::optional<std::string> read_line(std::chrono::steady_clock::time_point deadline)
    {
        std::size_t scanned = 0;
        while (true) {
            if (auto const nl = buffer_.find('\n', scanned); nl != std::string::npos) {
                std::string line = buffer_.substr(0, nl);
                buffer_.erase(0, nl + 1);
                if (!line.empty() && line.back() == '\r') line.pop_back();
                if (line.find_first_not_of(" \t") == std::string::npos) {
                    scanned = 0;
                    continue; // blank lines carry nothing
                }
                return line;
            }
            scanned = buffer_.size();
            if (buffer_.size() > opts_.max_message_bytes) {
                failure_ = "the server sent a message longer than " + std::to_string(opts_.max_message_bytes) + " bytes";
                return std::nullopt;
            }
            pollfd p{fd_, POLLIN, 0};
            int const left = remaining_ms(deadline);
            int const ready = left == 0 ? 0 : ::poll(&p, 1, left);
            if (ready < 0 && errno == EINTR) continue;
            if (ready <= 0) {
                failure_ = "the server did not answer within " + std::to_string(opts_.timeout.count()) + " ms";
                return std::nullopt;
            }
            char chunk[65536];
            ssize_t const n = ::recv(fd_, chunk, sizeof chunk, 0);
            if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) continue;
            if (n <= 0) {
                failure_ = "the server ended its output";
                return std::nullopt;
            }
            buffer_.append(chunk, static_cast<std::size_t>(n));
        }
    }

    std::vector<std::string> argv_;
    client_options opts_;
    int fd_ = -1;
    pid_t pid_ = -1;
    std::int64_t last_id_ = 0;
    std::string buffer_;
    std::string failure_;
    boost::json::object capabilities_;
    bool list_changed_ = false;
};

} // namespace skillmd::mcp

#endif
