// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
//
// Bounded resources: no thread or no memory is a result, never an abort.

#include "../support/skill_trees.hpp"

#include <skillmd/invoke/invocation.hpp>

#include <boost/test/unit_test.hpp>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <mutex>
#include <random>
#include <set>
#include <stdexcept>
#include <thread>

#include <sched.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

//------------------------------------------------------------------------------
// Bounded resources: no thread or no memory is a result, never an abort.
BOOST_AUTO_TEST_SUITE(resources)

int child_status(pid_t pid)
{
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

BOOST_AUTO_TEST_CASE(no_threads_left_means_one_thread_not_terminate)
{
    temp_dir t;
    fs::permissions(t.path, fs::perms::all); // the child drops to nobody
    for (int i = 0; i < 300; ++i) write(t / (numbered("s", i) + "/sub/SKILL.md"), skill("sub", "d"));
    for (auto const& e : fs::recursive_directory_iterator(t.path)) fs::permissions(e.path(), fs::perms::all);
    pid_t const pid = ::fork();
    BOOST_TEST_REQUIRE(pid >= 0);
    if (pid == 0) {
        // Root is exempt from RLIMIT_NPROC: drop to nobody, whose processes and threads are counted.
        if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0)) ::_exit(3);
        rlimit const one{1, 1};
        if (::setrlimit(RLIMIT_NPROC, &one) != 0) ::_exit(4);
        try { // the limit must bite, or this test proves nothing
            std::thread probe([] {});
            probe.join();
            ::_exit(77);
        } catch (std::system_error const&) {
        }
        directory_options o;
        o.layout = layout::nested;
        registry_options ro = lenient();
        ro.threads = 4;
        basic_registry<parser, first_tier_wins, directory_source> reg(parser{}, ro, directory_source("t", t.path.string(), o));
        bool const ok = reg.load() && reg.snapshot()->skills().size() == 300;
        ::_exit(ok ? 0 : 1);
    }
    int const status = child_status(pid);
    if (status == 77) BOOST_TEST_MESSAGE("RLIMIT_NPROC is not enforced here; the thread fallback was not exercised");
    else BOOST_TEST(status == 0);
}

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SKILLMD_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SKILLMD_SANITIZED 1
#endif
#endif

BOOST_AUTO_TEST_CASE(running_out_of_memory_is_an_error_result)
{
#ifdef SKILLMD_SANITIZED
    BOOST_TEST_MESSAGE("skipped: the sanitizers reserve more address space than RLIMIT_AS would allow");
#else
    temp_dir t;
    std::string body = "---\nname: bomb\ndescription: Bomb\n---\n";
    for (int k = 0; k < 80000; ++k) body += "$0 ";
    write(t / "bomb/SKILL.md", body);
    for (int i = 0; i < 50; ++i) write(t / (numbered("s", i) + "/SKILL.md"), skill(numbered("s", i), "d"));
    pid_t const pid = ::fork();
    BOOST_TEST_REQUIRE(pid >= 0);
    if (pid == 0) {
        basic_registry<parser, first_tier_wins, directory_source> reg(parser{}, lenient(), directory_source("t", t.path.string()));
        if (!reg.load()) ::_exit(2);
        long pages = 0;
        if (std::FILE* f = std::fopen("/proc/self/statm", "r")) {
            if (std::fscanf(f, "%ld", &pages) != 1) pages = 0;
            std::fclose(f);
        }
        if (pages <= 0) ::_exit(77);
        rlim_t const room = static_cast<rlim_t>(pages) * static_cast<rlim_t>(::sysconf(_SC_PAGESIZE)) + (64u << 20);
        rlimit const cap{room, room};
        if (::setrlimit(RLIMIT_AS, &cap) != 0) ::_exit(4);
        invoke_options o;
        o.substitution.max_output_bytes = std::size_t(1) << 40; // no cap of its own: only the memory limit stops it
        auto const inv = invoke(reg, "bomb", std::string(60 * 1024, 'x'), caller::user, o);
        bool ok = inv.error == invoke_error::out_of_memory && inv.content.empty();
        // The registry still works afterwards, and a refresh under the same limit succeeds or says why.
        ok = ok && reg.snapshot()->skills().size() == 51;
        ok = ok && (reg.refresh() || !reg.last_error().empty());
        ::_exit(ok ? 0 : 1);
    }
    int const status = child_status(pid);
    if (status == 77) BOOST_TEST_MESSAGE("no /proc/self/statm: skipped");
    else BOOST_TEST(status == 0);
#endif
}

BOOST_AUTO_TEST_SUITE_END()
