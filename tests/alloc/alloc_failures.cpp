// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
//
// Reliability goal G29: the k-th allocation fails, for k = 0, 1, 2 ... until the
// operation completes. Each time the failure reaches the caller as a result (refresh
// false, error 12, an index with its reason), the registry keeps its previous snapshot,
// and nothing aborts. Its own executable: it replaces the global operator new. The line
// parser keeps X3 out of it.

#define BOOST_TEST_MODULE skillmd_alloc
#include <skillmd/frontmatter/line_parser.hpp>
#include <skillmd/storage/sources/memory_source.hpp>
#include <skillmd/system.hpp>

#include <boost/test/unit_test.hpp>

#include <atomic>
#include <cstdlib>
#include <memory>
#include <new>
#include <string>

namespace {
std::atomic<long> countdown{-1}; // -1: never fail; k: the k-th allocation from now fails
std::atomic<long> failures{0};
} // namespace

void* operator new(std::size_t n)
{
    if (countdown.load(std::memory_order_relaxed) >= 0 && countdown.fetch_sub(1) == 0) {
        failures.fetch_add(1);
        throw std::bad_alloc();
    }
    if (void* p = std::malloc(n ? n : 1)) return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return operator new(n); }
// std::stable_sort and friends ask with std::nothrow: they must fail the same way.
void* operator new(std::size_t n, std::nothrow_t const&) noexcept
{
    try {
        return operator new(n);
    } catch (...) {
        return nullptr;
    }
}
void* operator new[](std::size_t n, std::nothrow_t const& t) noexcept { return operator new(n, t); }
void operator delete(void* p, std::nothrow_t const&) noexcept { std::free(p); }
void operator delete[](void* p, std::nothrow_t const&) noexcept { std::free(p); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

using namespace skillmd;

namespace {

using registry = basic_registry<frontmatter::line_parser, first_tier_wins, memory_source>;
using agent = basic_system<registry, index_formats::claude_code, content_formats::claude_code>;

/// `prefix` and `n` (written out to dodge a false -Wrestrict in gcc 12).
std::string numbered(char const* prefix, int n)
{
    std::string s(prefix);
    s += std::to_string(n);
    return s;
}

std::string text(int i, std::string const& description)
{
    std::string out = "---\ndescription: ";
    out += description;
    out += "\nallowed-tools: Read\n---\n";
    out += numbered("Do step ", i);
    out += " with $ARGUMENTS.\n";
    return out;
}

struct fixture
{
    memory_source tier{"user"};
    agent sys;
    fixture()
        : sys(std::make_unique<registry>(frontmatter::line_parser{}, [] {
                  registry_options o;
                  o.dialect = dialects::claude_code();
                  o.threads = 2;
                  return o;
              }(), tier),
              [] {
                  system_settings s;
                  s.listing = index_formats::policies::claude_code();
                  s.invoke.permissions.allow = {"s7"};
                  return s;
              }())
    {
        for (int i = 0; i < 200; ++i) tier.set(numbered("s", i), text(i, numbered("Skill number ", i)));
        BOOST_TEST_REQUIRE(sys.load());
    }
};

/// Runs `op` with the k-th allocation failing, k = 0, 1, ... until it succeeds; `check`
/// sees each failed attempt. Returns how many attempts failed.
template <class Op, class Check>
long until_it_succeeds(Op op, Check check)
{
    for (long k = 0;; ++k) {
        long const before = failures.load();
        countdown.store(k);
        bool const ok = op();
        countdown.store(-1);
        bool const hit = failures.load() != before;
        if (ok && !hit) return k;
        check(ok, hit);
        BOOST_TEST_REQUIRE(k < 1000000);
    }
}

} // namespace

BOOST_AUTO_TEST_CASE(refresh_fails_whole_or_not_at_all)
{
    fixture f;
    f.tier.set("s3", text(3, "Changed"));
    auto previous = f.sys.snapshot();
    long const failed = until_it_succeeds([&] { return f.sys.refresh(); }, [&](bool ok, bool) {
        if (!ok) {
            BOOST_TEST(f.sys.snapshot() == previous); // strong guarantee: the old snapshot stands
            BOOST_TEST(!f.sys.registry().last_error().empty());
        } else {
            previous = f.sys.snapshot(); // a failure a worker turned into a diagnostic
        }
    });
    BOOST_TEST(failed > 10);
    BOOST_TEST(f.sys.snapshot()->find("s3")->meta.description == "Changed");
    BOOST_TEST(f.sys.snapshot()->skills().size() == 200u);
}

BOOST_AUTO_TEST_CASE(invoke_and_index_answer_with_results)
{
    fixture f;
    long const invoke_failures = until_it_succeeds(
        [&] {
            auto const inv = f.sys.invoke("s7", caller::model, "the args");
            if (inv.error == invoke_error::none) return inv.content.find("Do step 7 with the args.") != std::string::npos;
            BOOST_TEST((inv.error == invoke_error::out_of_memory || inv.error == invoke_error::load_failed));
            return false;
        },
        [](bool, bool) {});
    BOOST_TEST(invoke_failures > 5);
    long const index_failures = until_it_succeeds(
        [&] {
            auto const r = f.sys.index();
            if (!r.error.empty()) return false;
            return r.listed.size() == 200u;
        },
        [](bool, bool) {});
    BOOST_TEST(index_failures > 5);
}

BOOST_AUTO_TEST_CASE(a_record_is_one_allocation)
{
    record_draft d;
    d.command = "review";
    d.tier = "user";
    d.where.path = "/home/u/.claude/skills/review/SKILL.md";
    d.where.directory = "/home/u/.claude/skills/review";
    d.meta.name = "review";
    d.meta.description = std::string(500, 'x');
    d.meta.allowed_tools = {"Read", "Grep"};
    d.meta.metadata = {{"owner", "ops"}};
    d.children = {"review/deep"};
    // The first allocation fails: the record is not made, and says so.
    long const before = failures.load();
    countdown.store(0);
    BOOST_CHECK_THROW(make_record(d), std::bad_alloc);
    countdown.store(-1);
    BOOST_TEST(failures.load() == before + 1);
    // Only the second would fail: there is none, the record and all it holds are one block.
    countdown.store(1);
    record_ptr const r = make_record(d);
    countdown.store(-1);
    BOOST_TEST(failures.load() == before + 1);
    BOOST_TEST(r->meta.description == d.meta.description);
    BOOST_TEST(r->meta.allowed_tools == d.meta.allowed_tools);
    BOOST_TEST(r->children.front() == "review/deep");
}
