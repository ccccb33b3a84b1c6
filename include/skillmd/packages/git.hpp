// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_PACKAGES_GIT_HPP
#define SKILLMD_PACKAGES_GIT_HPP

// Repositories through the `git` program: the one every user already has configured
// (credentials, proxies, `insteadOf`, SSH keys), which libgit2 would each need again.
// git never checks files out here: `git archive` streams the chosen tree as tar, which
// then goes through the same hostile-archive rules as any download (archive.hpp). Every
// run has a deadline and capped output, runs in its own process group (killed whole),
// gets no terminal prompt, and never the `ext::` or `fd::` transports, which run programs.

#include <skillmd/packages/limits.hpp>
#include <skillmd/net/origin.hpp>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <functional>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

extern char** environ;

namespace skillmd::packages {

/// What a program run said and how it ended.
struct program_run
{
    int status = -1;   ///< its exit status, or -1 when it did not exit by itself
    std::string out;   ///< its standard output (up to the cap)
    std::string err;   ///< its standard error (the first 64 KiB)
    std::string why;   ///< set when it could not be run, was too slow or said too much
    bool ok() const noexcept { return why.empty() && status == 0; }
};

/** Runs `argv` (found on PATH) with `env` added to this process's environment (and the
    variables `drop` names left out), standard input empty, within `timeout`, keeping at
    most `max_out` bytes of its standard output. `watch`, when given, is asked every 200 ms
    and stops the run with what it says. Past any limit the whole process group is killed
    and `why` says which.
*/
inline program_run run_program(std::vector<std::string> const& argv, std::vector<std::string> const& env,
                               std::chrono::milliseconds timeout, std::size_t max_out,
                               std::function<bool(std::string_view)> const& drop = {},
                               std::function<std::string()> const& watch = {})
{
    program_run r;
    int out_pipe[2], err_pipe[2];
    if (::pipe2(out_pipe, O_CLOEXEC) != 0) {
        r.why = std::string("pipe: ") + std::strerror(errno);
        return r;
    }
    if (::pipe2(err_pipe, O_CLOEXEC) != 0) {
        r.why = std::string("pipe: ") + std::strerror(errno);
        ::close(out_pipe[0]);
        ::close(out_pipe[1]);
        return r;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
    posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attr, 0);
    std::vector<char*> args;
    for (auto const& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    // The variables given replace any of the same name (getenv takes the first it finds).
    std::vector<char*> envp;
    for (char** e = environ; e && *e; ++e) {
        std::string_view const var(*e);
        bool const replaced = std::any_of(env.begin(), env.end(), [&](std::string const& x) {
            return var.substr(0, var.find('=') + 1) == std::string_view(x).substr(0, x.find('=') + 1);
        });
        if (!replaced && !(drop && drop(var.substr(0, var.find('='))))) envp.push_back(*e);
    }
    for (auto const& e : env) envp.push_back(const_cast<char*>(e.c_str()));
    envp.push_back(nullptr);
    pid_t pid = -1;
    int const spawned = ::posix_spawnp(&pid, args[0], &actions, &attr, args.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    ::close(out_pipe[1]);
    ::close(err_pipe[1]);
    if (spawned != 0) {
        r.why = "cannot run " + argv[0] + ": " + std::strerror(spawned);
        ::close(out_pipe[0]);
        ::close(err_pipe[0]);
        return r;
    }
    auto const deadline = std::chrono::steady_clock::now() + timeout;
    std::array<pollfd, 2> fds{{{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}}};
    std::array<char, 65536> block{};
    int open_fds = 2;
    while (open_fds > 0) {
        auto const left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
        if (left <= 0) {
            r.why = argv[0] + " did not finish within " + std::to_string(timeout.count()) + " ms";
            break;
        }
        if (watch) // what the program does besides writing (a folder it fills), looked at every 200 ms
            if (r.why = watch(); !r.why.empty()) break;
        int const n = ::poll(fds.data(), fds.size(), static_cast<int>(watch ? std::min<long long>(left, 200) : left));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            r.why = std::string("poll: ") + std::strerror(errno);
            break;
        }
        for (std::size_t i = 0; i < fds.size(); ++i) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            auto const got = ::read(fds[i].fd, block.data(), block.size());
            if (got < 0 && errno == EINTR) continue;
            if (got <= 0) {
                ::close(fds[i].fd);
                fds[i].fd = -1;
                --open_fds;
                continue;
            }
            auto& sink = i == 0 ? r.out : r.err;
            std::size_t const cap = i == 0 ? max_out : 65536;
            if (sink.size() + static_cast<std::size_t>(got) > cap) {
                if (i == 0) {
                    r.why = argv[0] + " wrote more than " + std::to_string(max_out) + " bytes";
                    open_fds = 0;
                    break;
                }
                continue; // standard error past its cap is dropped
            }
            sink.append(block.data(), static_cast<std::size_t>(got));
        }
    }
    if (!r.why.empty()) ::kill(-pid, SIGKILL);
    for (auto const& f : fds)
        if (f.fd >= 0) ::close(f.fd);
    int wstatus = 0;
    while (::waitpid(pid, &wstatus, 0) < 0 && errno == EINTR) {}
    if (r.why.empty()) r.status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1;
    return r;
}

/// Where a git URL's host is, for the plain-transport check ("" for file:// and paths).
inline std::string git_url_host(std::string_view url)
{
    auto const scheme = url.find("://");
    if (scheme == std::string_view::npos || url.starts_with("file://")) return {};
    auto const rest = url.substr(scheme + 3);
    return std::string(rest.substr(0, rest.find('/')));
}

/// Runs git as packages do: options that make it safe to run on a hostile URL.
class git_runner
{
public:
    /// `timeout`: the time one run may take (a source's deadline shortens it).
    /// `allow_plain`: git:// and http:// (to this machine) may be used, as --allow-http says.
    explicit git_runner(package_limits limits = {}, std::function<std::chrono::milliseconds(std::string&)> timeout = {},
                        bool allow_plain = false)
        : limits_(limits), timeout_(std::move(timeout)), allow_plain_(allow_plain)
    {
    }

    /// The variables that point git at another repository or configuration (what
    /// `git rev-parse --local-env-vars` lists, and GIT_CONFIG_*): a hook or a shell that
    /// set them must not choose what is installed.
    static bool repository_variable(std::string_view name)
    {
        static constexpr std::string_view local[] = {"GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_DIR", "GIT_WORK_TREE", "GIT_IMPLICIT_WORK_TREE",
                                                     "GIT_GRAFT_FILE", "GIT_INDEX_FILE", "GIT_NO_REPLACE_OBJECTS", "GIT_REPLACE_REF_BASE",
                                                     "GIT_PREFIX", "GIT_INTERNAL_SUPER_PREFIX", "GIT_SHALLOW_FILE", "GIT_COMMON_DIR",
                                                     "GIT_OBJECT_DIRECTORY", "GIT_NAMESPACE", "GIT_ATTR_SOURCE"};
        return name.starts_with("GIT_CONFIG") || std::find(std::begin(local), std::end(local), name) != std::end(local);
    }

    program_run run(std::vector<std::string> args, std::size_t max_out = 1 << 20, std::function<std::string()> const& watch = {}) const
    {
        std::string late;
        auto const time = timeout_ ? timeout_(late) : limits_.timeout;
        if (time.count() <= 0) {
            program_run r;
            r.why = late;
            return r;
        }
        // Transports by name, whatever a URL or a redirect asks for: https, ssh and local
        // repositories; git and http only when allowed (check_url keeps them on loopback).
        // Redirects are not followed: one could leave this machine or https.
        std::vector<std::string> argv{"git", "-c", "protocol.allow=never", "-c", "protocol.https.allow=always",
                                      "-c", "protocol.ssh.allow=always", "-c", "protocol.file.allow=always",
                                      "-c", std::string("protocol.http.allow=") + (allow_plain_ ? "always" : "never"),
                                      "-c", std::string("protocol.git.allow=") + (allow_plain_ ? "always" : "never"),
                                      "-c", "http.followRedirects=false", "-c", "core.hooksPath=/dev/null",
                                      "-c", "advice.detachedHead=false"};
        std::string const verb = args.empty() ? std::string() : args[0] == "-C" && args.size() > 2 ? args[2] : args[0];
        argv.insert(argv.end(), std::make_move_iterator(args.begin()), std::make_move_iterator(args.end()));
        auto r = run_program(argv,
                             {"GIT_TERMINAL_PROMPT=0", "GIT_ASKPASS=", "SSH_ASKPASS=", "GCM_INTERACTIVE=never", "LC_ALL=C"},
                             time, max_out, repository_variable, watch);
        if (r.why.empty() && r.status != 0) {
            std::string e = r.err;
            while (!e.empty() && (e.back() == '\n' || e.back() == ' ')) e.pop_back();
            r.why = "git " + verb + " failed" + (e.empty() ? "" : ": " + e);
        }
        return r;
    }

    /** Refuses transports that are not encrypted (git://, http://) unless `allow_plain`,
        and to another machine even then; git's remote-helper form (`TRANSPORT::ADDRESS`, which picks a
        program to run) and anything option-like; "" when `url` may be fetched.
    */
    static std::string check_url(std::string_view url, bool allow_plain)
    {
        if (url.empty() || url.front() == '-' || url.find("::") != std::string_view::npos)
            return "not a git URL skillmd fetches: " + std::string(url);
        bool const plain = url.starts_with("git://") || url.starts_with("http://");
        if (plain && (!allow_plain || !net::is_loopback_host(git_url_host(url))))
            return "git:// and http:// are not encrypted: only with --allow-http, and only to this machine";
        return {};
    }

    /** A bare clone of `url` in the new folder `into`: of `ref` alone and its last commit
        when `ref` is a branch or tag name (or empty: the default branch), whole for a commit.
        A clone that grows past four times the source's byte bound is stopped.
    */
    program_run clone(std::string const& url, std::string const& ref, std::string const& into) const
    {
        bool const commit = ref.size() == 40 && ref.find_first_not_of("0123456789abcdef") == std::string::npos;
        std::vector<std::string> args{"clone", "--bare", "--quiet", "--no-recurse-submodules"};
        if (!commit) {
            args.insert(args.end(), {"--depth", "1"});
            if (!ref.empty()) args.insert(args.end(), {"--branch", ref});
        }
        args.insert(args.end(), {"--", url, into});
        std::uint64_t const cap = 4 * limits_.max_total_bytes;
        auto const watch = [into, cap]() -> std::string {
            std::uint64_t used = 0;
            std::error_code ec;
            for (auto it = std::filesystem::recursive_directory_iterator(into, ec); !ec && it != std::filesystem::recursive_directory_iterator();
                 it.increment(ec)) {
                // A file git removed after the listing has no size (file_size gives -1 then),
                // and is no reason to stop counting the others.
                std::error_code gone;
                if (!it->is_regular_file(gone)) continue;
                auto const size = it->file_size(gone);
                if (!gone) used += size;
            }
            return used > cap ? "the repository is larger than " + std::to_string(cap) + " bytes" : std::string();
        };
        auto r = run(args, 1 << 20, watch);
        if (r.ok() || commit || ref.empty() || r.status <= 0) return r;
        // Not a branch or tag name (an abbreviated commit?): the whole repository, then.
        std::error_code ec;
        std::filesystem::remove_all(into, ec);
        return run({"clone", "--bare", "--quiet", "--no-recurse-submodules", "--", url, into}, 1 << 20, watch);
    }

    /// The commit `ref` ("" for HEAD) names in the repository `repo`.
    std::optional<std::string> resolve(std::string const& repo, std::string const& ref, std::string& why) const
    {
        auto r = run({"-C", repo, "rev-parse", "--verify", "--quiet", "--end-of-options", (ref.empty() ? "HEAD" : ref) + "^{commit}"});
        std::string sha = r.out.substr(0, r.out.find('\n'));
        if (!r.ok() || sha.size() != 40) {
            why = "no branch, tag or commit \"" + (ref.empty() ? std::string("HEAD") : ref) + "\" in the repository";
            return std::nullopt;
        }
        return sha;
    }

    /** The tree of `commit` (below `path` when given) as a tar archive, with no attribute
        of the repository's own applied: no filter (a filter driver is a program), no
        line-ending or keyword rewriting, nothing left out or substituted.
    */
    program_run archive(std::string const& repo, std::string const& commit, std::string const& path) const
    {
        std::error_code ec;
        std::filesystem::create_directories(repo + "/info", ec);
        std::ofstream(repo + "/info/attributes") << "* -filter -text -eol -ident -export-subst -export-ignore -working-tree-encoding\n";
        if (!std::filesystem::exists(repo + "/info/attributes", ec)) {
            program_run r;
            r.why = "cannot write " + repo + "/info/attributes";
            return r;
        }
        std::size_t const cap = static_cast<std::size_t>(limits_.max_total_bytes) + limits_.max_entries * 1536 + (1 << 20);
        return run({"-C", repo, "archive", "--format=tar", path.empty() ? commit : commit + ":" + path}, cap);
    }

    /// The commit `ref` ("" for HEAD) names upstream now, asked without cloning.
    std::optional<std::string> remote_head(std::string const& url, std::string const& ref, std::string& why) const
    {
        auto r = run({"ls-remote", "--", url, ref.empty() ? "HEAD" : ref});
        if (!r.ok()) {
            why = r.why;
            return std::nullopt;
        }
        // Annotated tags list the tag and, with ^{}, the commit: prefer the commit.
        std::string found;
        std::size_t pos = 0;
        while (pos < r.out.size()) {
            auto const nl = r.out.find('\n', pos);
            std::string const line = r.out.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
            pos = nl == std::string::npos ? r.out.size() : nl + 1;
            if (line.size() < 41) continue;
            if (line.ends_with("^{}")) return line.substr(0, 40);
            if (found.empty()) found = line.substr(0, 40);
        }
        if (found.empty()) why = "no \"" + (ref.empty() ? std::string("HEAD") : ref) + "\" upstream";
        return found.empty() ? std::nullopt : std::optional<std::string>(found);
    }

private:
    package_limits limits_;
    std::function<std::chrono::milliseconds(std::string&)> timeout_;
    bool allow_plain_ = false;
};

} // namespace skillmd::packages

#endif
