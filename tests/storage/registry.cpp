// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
//
// The registry: dedup, refresh, seeding and requirements (SPEC 2 and 5), on directory
// trees built for each test.

#include "../support/skill_trees.hpp"

#include <skillmd/invoke/invocation.hpp>
#include <skillmd/storage/seeding.hpp>
#include <skillmd/storage/sources/memory_source.hpp>
#include <skillmd/triggers/trigger_index.hpp>

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

#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

//------------------------------------------------------------------------------
BOOST_AUTO_TEST_SUITE(registry)

BOOST_AUTO_TEST_CASE(dedup_policies)
{
    memory_source a("first"), b("second");
    a.set("shared", skill("shared", "from first"));
    b.set("shared", skill("shared", "from second"));
    a.set("only-a", skill("only-a", "a"));

    basic_registry<parser, first_tier_wins, memory_source, memory_source> first(parser{}, lenient(), a, b);
    first.load();
    auto s = first.snapshot();
    BOOST_TEST(s->find("shared")->meta.description == "from first");
    BOOST_TEST_REQUIRE(s->shadowed().size() == 1u);
    BOOST_TEST(s->shadowed()[0].shadowed_by == "shared@first");
    BOOST_TEST(s->find("shared@second")->meta.description == "from second");
    BOOST_TEST(has(s->diagnostics(), "skill-shadowed"));

    basic_registry<parser, highest_tier_wins, memory_source, memory_source> high(parser{}, lenient(), a, b);
    high.load();
    BOOST_TEST(high.snapshot()->find("/shared")->meta.description == "from second");

    basic_registry<parser, keep_all, memory_source, memory_source> all(parser{}, lenient(), a, b);
    all.load();
    auto const k = all.snapshot();
    BOOST_TEST(k->find("shared@first") != nullptr);
    BOOST_TEST(k->find("shared@second") != nullptr);
    BOOST_TEST(k->find("only-a") != nullptr);
    BOOST_TEST(k->shadowed().empty());
}

/// A user-written source: marks its skills as database skills and counts reads.
struct counting_db
{
    memory_source inner{"database"};
    std::shared_ptr<std::atomic<int>> reads = std::make_shared<std::atomic<int>>(0);
    std::string_view label() const { return inner.label(); }
    discovery discover() const
    {
        auto d = inner.discover();
        for (auto& c : d.skills) c.database = true;
        return d;
    }
    read_outcome read_head(candidate const& c) const
    {
        ++*reads;
        return inner.read_head(c);
    }
    read_outcome read_all(candidate const& c) const { return inner.read_all(c); }
};
static_assert(skill_source<counting_db>);

BOOST_AUTO_TEST_CASE(files_win_over_the_database_and_refresh_reads_only_changes)
{
    counting_db db;
    memory_source files("files");
    db.inner.set("review", skill("review", "from the database"));
    db.inner.set("db-only", skill("db-only", "agent-made"));
    files.set("review", skill("review", "from a file"));
    basic_registry<parser, files_win_over_database<>, counting_db, memory_source> reg(parser{}, lenient(), db, files);
    reg.load();
    BOOST_TEST(reg.snapshot()->find("review")->meta.description == "from a file");
    BOOST_TEST(*db.reads == 2);

    reg.refresh(); // nothing changed: nothing read
    BOOST_TEST(*db.reads == 2);
    db.inner.set("db-only", skill("db-only", "edited"));
    reg.refresh();
    BOOST_TEST(*db.reads == 3);
    BOOST_TEST(reg.snapshot()->find("db-only")->meta.description == "edited");
    db.inner.erase("db-only");
    reg.refresh();
    BOOST_TEST(reg.snapshot()->find("db-only") == nullptr);
}

/// The counting source above, listing its skills (as files) backwards and the first of
/// them twice.
struct backwards_and_twice : counting_db
{
    discovery discover() const
    {
        auto d = inner.discover();
        std::reverse(d.skills.begin(), d.skills.end());
        if (!d.skills.empty()) d.skills.push_back(d.skills.front());
        return d;
    }
};
static_assert(skill_source<backwards_and_twice>);

/// Most sources list in command order, each path once, and the assembly then skips its
/// sorts; one that does neither still gets a sorted snapshot, and a refresh still finds
/// every unchanged read in the cache (sorted, one entry a path: the last read stands).
BOOST_AUTO_TEST_CASE(a_source_out_of_order_and_listing_a_path_twice_still_loads_sorted_and_refreshes_from_its_cache)
{
    backwards_and_twice src;
    for (std::string const n : {"alpha", "beta", "delta", "gamma"}) src.inner.set(n, skill(n, "the " + n + " skill"));
    basic_registry<parser, first_tier_wins, backwards_and_twice> reg(parser{}, lenient(), src);
    reg.load();
    std::vector<std::string> listed;
    for (auto const& r : reg.snapshot()->skills()) listed.push_back(r.command.str());
    BOOST_TEST(listed == (std::vector<std::string>{"alpha", "beta", "delta", "gamma"}), boost::test_tools::per_element());
    for (std::string const n : {"alpha", "beta", "delta", "gamma"}) BOOST_TEST(reg.snapshot()->find(n)->meta.description == "the " + n + " skill");
    BOOST_TEST(*src.reads == 5); // four skills, `gamma` listed twice

    reg.refresh(); // nothing changed: all five come from the cache, `gamma` both times
    BOOST_TEST(*src.reads == 5);
    src.inner.set("beta", skill("beta", "edited"));
    reg.refresh();
    BOOST_TEST(*src.reads == 6);
    BOOST_TEST(reg.snapshot()->find("beta")->meta.description == "edited");
    BOOST_TEST(reg.snapshot()->skills().size() == 4u);
}

/// A refresh that reuses unchanged reads reports what they said when they were read:
/// the warnings of a skill that loaded and the errors of a file that made none, in the
/// same order, generation after generation (the cache keeps them as a range of the
/// snapshot's own diagnostics, not a copy).
BOOST_AUTO_TEST_CASE(a_refresh_reports_what_unchanged_reads_said)
{
    counting_db db;
    db.inner.set("warned", skill("warned", "has a list in its metadata", "metadata:\n  tags: [a, b]\n"));
    db.inner.set("broken", "---\nname: broken\ndescription: never closed\n");
    db.inner.set("clean", skill("clean", "first"));
    // Skills with and without diagnostics and reads that made none, interleaved in the
    // cache's order (the cache keeps a range only for the records that have one).
    db.inner.set("also-warned", skill("also-warned", "a map in its metadata", "metadata:\n  owner: {team: a}\n"));
    db.inner.set("zz-broken", "---\nname: [unclosed\ndescription: x\n---\n");
    basic_registry<parser, first_tier_wins, counting_db> reg(parser{}, lenient(), db);
    reg.load();
    auto const said = [&] {
        std::vector<std::string> out;
        for (auto const& d : reg.snapshot()->diagnostics())
            out.push_back(d.code + " " + d.file + ":" + std::to_string(d.line) + ":" + std::to_string(d.column) + " " + d.message);
        return out;
    };
    auto const has = [](std::vector<std::string> const& v, std::string const& code) {
        return std::any_of(v.begin(), v.end(), [&](std::string const& s) { return s.starts_with(code + " "); });
    };
    auto const first = said();
    BOOST_TEST(has(first, "metadata-not-string"));
    BOOST_TEST(has(first, "frontmatter-unclosed"));
    BOOST_TEST(reg.snapshot()->find("warned") != nullptr);
    BOOST_TEST(reg.snapshot()->find("broken") == nullptr);
    BOOST_TEST(reg.snapshot()->find("zz-broken") == nullptr);
    BOOST_TEST(reg.snapshot()->find("also-warned") != nullptr);
    BOOST_TEST(*db.reads == 5);
    for (int round = 0; round < 3; ++round) {
        db.inner.set("clean", skill("clean", "edited " + std::to_string(round)));
        reg.refresh();
        BOOST_TEST(*db.reads == 6 + round); // only the changed skill is read again
        BOOST_TEST(said() == first, boost::test_tools::per_element());
        BOOST_TEST(reg.snapshot()->find("clean")->meta.description == "edited " + std::to_string(round));
        BOOST_TEST(reg.snapshot()->find("warned") != nullptr);
    }
    db.inner.set("broken", skill("broken", "closed now"));
    reg.refresh();
    auto const now = said();
    BOOST_TEST(has(now, "metadata-not-string"));
    BOOST_TEST(!has(now, "frontmatter-unclosed"));
    BOOST_TEST(reg.snapshot()->find("broken") != nullptr);
}

/// A directory source that counts how often refresh() touches its files.
struct counting_dir
{
    directory_source inner;
    std::shared_ptr<std::atomic<int>> touches = std::make_shared<std::atomic<int>>(0);
    std::string_view label() const { return inner.label(); }
    discovery discover() const { return inner.discover(); }
    read_outcome read_head(candidate const& c) const { ++*touches; return inner.read_head(c); }
    read_outcome read_all(candidate const& c) const { return inner.read_all(c); }
    std::optional<file_stamp> stamp(candidate const& c) const { ++*touches; return inner.stamp(c); }
    bool watch(discovery const& d) const { return inner.watch(d); }
    bool unchanged() const { return inner.unchanged(); }
};

/// counting_dir whose walk reads the files it finds (discover(early_reader)): read_head()
/// counts only the reads left to it.
struct early_counting_dir : counting_dir
{
    discovery discover() const { return inner.discover(); }
    discovery discover(early_reader const& e) const { return inner.discover(e); }
};

/// Two registries over the same tier, loaded: one whose walk reads the files it finds,
/// one that reads them afterwards; each source counts its read_head() calls.
struct loaded_both_ways
{
    early_counting_dir early_src;
    counting_dir late_src;
    basic_registry<parser, first_tier_wins, early_counting_dir> early;
    basic_registry<parser, first_tier_wins, counting_dir> late;

    loaded_both_ways(fs::path const& root, directory_options const& o)
        : early_src{{directory_source("t", root.string(), o)}}, late_src{directory_source("t", root.string(), o)},
          early(parser{}, lenient(), early_src), late(parser{}, lenient(), late_src)
    {
        early.load();
        late.load();
    }
};

/// Everything a snapshot holds of its skills and says, in one comparable text.
std::string described(skillmd::snapshot const& s)
{
    std::string out;
    auto const one = [&](char const* what, skill_record const& r) {
        auto const& w = r.where;
        out += std::string(what) + " " + r.command + " | " + r.tier + " | " + w.path + " | " + w.directory + " | " +
               w.directory_name + " | " + std::to_string(w.stamp.inode) + " " + std::to_string(w.stamp.size) + " " +
               std::to_string(w.stamp.mtime_ns) + " | " + std::to_string(r.body_offset) + " | " + r.meta.name + " | " +
               r.meta.description + " | " + std::to_string(r.children.size()) + (r.hidden ? " | hidden\n" : "\n");
    };
    for (auto const& r : s.skills()) one("skill", r);
    for (auto const& r : s.shadowed()) one("shadowed", r);
    for (auto const& g : s.diagnostics()) out += "diagnostic " + to_text(g) + "\n";
    return out;
}

BOOST_AUTO_TEST_CASE(a_first_load_reads_plain_files_during_the_walk_and_gives_what_reading_them_afterwards_gives)
{
    temp_dir t;
    fs::path const root = t / "root";
    write(root / "good/SKILL.md", skill("good", "g"));
    write(root / "nest/SKILL.md", skill("nest", "n"));
    write(root / "nest/child/SKILL.md", skill("child", "c"));
    write(root / "big/SKILL.md", skill("big", "b", "notes: \"" + std::string(6000, 'x') + "\"\n")); // past a 4 KB head
    write(root / "broken/SKILL.md", "---\nname: broken\ndescription: [unclosed\n---\nbody\n");
    write(root / "binary/SKILL.md", skill("binary", "b") + "body \xFF\n");
    write(root / "huge/SKILL.md", skill("huge", "h") + std::string(40000, 'y'));
    write(root / "Case/skill.md", skill("case", "c"));
    fs::create_directories(root / "fifo");
    BOOST_TEST_REQUIRE(::mkfifo((root / "fifo/SKILL.md").c_str(), 0600) == 0);
    write(t / "outside/linked.md", skill("linked", "l"));
    fs::create_directories(root / "linked");
    fs::create_symlink(t / "outside/linked.md", root / "linked/SKILL.md");
    write(t / "elsewhere/SKILL.md", skill("elsewhere", "e"));
    fs::create_directories(root / "escape");
    fs::create_symlink(t / "elsewhere/SKILL.md", root / "escape/SKILL.md");
    // The same kinds of file for the files layout, which the other two pass over.
    write(root / "top.md", skill("top", "t"));
    write(root / "binary-top.md", skill("binary-top", "b") + "body \xFF\n");
    write(root / "broken-top.md", "---\nname: broken-top\ndescription: [unclosed\n---\nbody\n");
    write(root / "huge-top.md", skill("huge-top", "h") + std::string(40000, 'y'));
    BOOST_TEST_REQUIRE(::mkfifo((root / "pipe.md").c_str(), 0600) == 0);
    fs::create_symlink(t / "outside/linked.md", root / "linked-top.md");
    fs::create_symlink(t / "elsewhere/SKILL.md", root / "escape-top.md");
    directory_options o;
    o.max_file_bytes = 32 * 1024;
    o.allowed_roots = {(t / "outside").string()};
    // Nested: eleven candidates, of which the walk read the six plain files it could. Flat:
    // ten (no sub-skills), five read. The rest go to read_head(): a name in another case,
    // a FIFO, two links, and a file over the limit. Files: six (the FIFO is no candidate
    // there), three read; two links and the file over the limit left.
    struct
    {
        layout l;
        int candidates, left_to_read_head;
        std::size_t skills;
    } const cases[] = {{layout::nested, 11, 5, 5}, {layout::flat, 10, 5, 4}, {layout::files, 6, 3, 2}};
    for (auto const& c : cases) {
        o.layout = c.l;
        loaded_both_ways both(root, o);
        auto& early = both.early;
        auto const& early_src = both.early_src;
        auto const& late_src = both.late_src;
        std::string const expected = described(*both.late.snapshot());
        BOOST_TEST(described(*early.snapshot()) == expected);
        BOOST_TEST(early.snapshot()->skills().size() == c.skills); // big, good, linked, nest(, nest/child); top, linked-top
        auto const& said = early.snapshot()->diagnostics();
        BOOST_TEST(has(said, "skill-unreadable", "outside the tier")); // escape(-top)
        BOOST_TEST(has(said, "utf8-invalid"));                         // binary(-top), read early
        BOOST_TEST(has(said, "yaml-unterminated"));                    // broken(-top), read early
        BOOST_TEST(*late_src.touches == c.candidates);
        BOOST_TEST(*early_src.touches == c.left_to_read_head);
        // A refresh reads nothing early: it keeps what it has, by its stamps.
        early.refresh();
        BOOST_TEST(described(*early.snapshot()) == expected);
    }
}

/// An early reader that keeps nothing and counts what it was handed, from any thread.
struct counting_reader final : early_reader
{
    mutable std::atomic<int> taken{0};
    std::shared_ptr<early_read> take(candidate&, read_outcome&& text) const override
    {
        if (text.text) ++taken;
        return nullptr;
    }
};

BOOST_AUTO_TEST_CASE(a_wide_flat_or_files_root_is_read_on_every_core_and_found_as_one_thread_finds_it)
{
    // 150 entries of the root's listing, shared out among the walk's threads on a first
    // load. Every tenth folder holds no skill; one holds a broken file.
    temp_dir t;
    fs::path const root = t / "root";
    // Appended, not `"s" + std::to_string(i)`: gcc 12 at -O3 warns wrongly of that (-Wrestrict).
    auto const numbered = [](std::string text, int i) { return text.append(std::to_string(i)); };
    for (int i = 0; i < 150; ++i) {
        std::string const n = numbered("s", 1000 + i);
        if (i % 10 == 3) fs::create_directories(root / n);
        else write(root / n / "SKILL.md", i == 77 ? "---\nname: [broken\n---\nbody\n" : skill(n, numbered("skill ", i)));
        write(root / (n + ".md"), skill(n + "-file", numbered("file ", i)));
    }
    auto const listed = [](discovery const& d) {
        std::string out;
        for (auto const& c : d.skills) out += c.command + " " + c.path + (c.confirmed ? "\n" : " ?\n");
        for (auto const& g : d.diagnostics) out += to_text(g) + "\n";
        return out;
    };
    struct
    {
        layout l;
        bool second_path; // a link to a folder listed too: the walk is done again on one thread
        int left_to_read_head;
    } const cases[] = {{layout::flat, false, 15}, {layout::flat, true, 15}, {layout::files, false, 0}};
    for (auto const& c : cases) {
        if (c.second_path) fs::create_directory_symlink(root / "s1001", root / "zz-second");
        directory_options o;
        o.layout = c.l;
        directory_source const src("t", root.string(), o);
        // The same candidates, in the same order, and the same diagnostics, whether the
        // walk reads the files or not; and every plain file handed over once.
        counting_reader reader;
        auto const read = src.discover(reader);
        auto const plain = src.discover();
        BOOST_TEST(listed(read) == listed(plain));
        BOOST_TEST(read.skills.size() == 150u);
        // Once each; twice where the walk was done again on one thread (on a machine of
        // one core it is done on one thread only).
        int const handed = reader.taken.load(), plain_files = 150 - c.left_to_read_head;
        BOOST_TEST((handed == plain_files || (c.second_path && handed == 2 * plain_files)));
        BOOST_TEST(has(plain.diagnostics, "discovery-loop") == c.second_path);
        // Through a registry: the snapshot of a load that reads during the walk is the
        // one of a load that reads afterwards.
        loaded_both_ways const both(root, o);
        BOOST_TEST(described(*both.early.snapshot()) == described(*both.late.snapshot()));
        BOOST_TEST(both.early.snapshot()->skills().size() == (c.l == layout::flat ? 134u : 150u));
        BOOST_TEST(*both.early_src.touches == c.left_to_read_head);
        BOOST_TEST(*both.late_src.touches == 150);
    }
}

/// An early reader that notes which threads it was handed files on. Until a second one
/// comes, each of its first 400 calls waits 5 ms: time for an idle thread to ask for work
/// while the first still has plenty.
struct thread_noting_reader final : early_reader
{
    mutable std::mutex mutex;
    mutable std::set<std::thread::id> threads;
    mutable int calls = 0;
    mutable int taken = 0; ///< every file handed over
    std::shared_ptr<early_read> take(candidate&, read_outcome&&) const override
    {
        bool wait = false;
        {
            std::lock_guard<std::mutex> lock(mutex);
            ++taken;
            threads.insert(std::this_thread::get_id());
            wait = threads.size() == 1 && ++calls <= 400;
        }
        // Kept: the slow read is what the test is made of (nothing is awaited).
        if (wait) std::this_thread::sleep_for(std::chrono::milliseconds(5));
        return nullptr;
    }
};

/// Open descriptors of this process.
std::size_t open_descriptors()
{
    return static_cast<std::size_t>(std::distance(fs::directory_iterator("/proc/self/fd"), fs::directory_iterator{}));
}

BOOST_AUTO_TEST_CASE(a_nested_tier_is_walked_on_every_core_whatever_its_shape_with_few_folders_open)
{
    // Two shapes of 300 skills, each with a sub-skill: everything under one top folder
    // (which a walk sharing only the root's subtrees did on one thread), and 300 folders
    // at the top (for which it held 300 folders open at once, and lost skills past the
    // descriptor limit: 1,024 on many systems).
    temp_dir t;
    auto const numbered = [](std::string text, int i) { return text.append(std::to_string(i)); };
    for (int i = 0; i < 300; ++i) {
        std::string const n = numbered("s", 1000 + i);
        for (fs::path const& top : {t / "one" / "all" / n, t / "wide" / n}) {
            write(top / "SKILL.md", skill(n, numbered("skill ", i)));
            write(top / "sub" / "SKILL.md", skill(n + "-sub", numbered("sub-skill ", i)));
        }
    }
    for (char const* shape : {"one", "wide"}) {
        BOOST_TEST_CONTEXT(shape)
        {
            fs::path const root = t / shape;
            directory_options o;
            o.layout = layout::nested;
            o.max_directories = 10000;
            // Room for the walk's threads' paths and the folders they share, not for 300.
            struct limit
            {
                rlimit was{};
                limit(rlim_t n)
                {
                    BOOST_TEST_REQUIRE(::getrlimit(RLIMIT_NOFILE, &was) == 0);
                    rlimit now = was;
                    now.rlim_cur = std::min(n, was.rlim_max);
                    BOOST_TEST_REQUIRE(::setrlimit(RLIMIT_NOFILE, &now) == 0);
                }
                ~limit() { ::setrlimit(RLIMIT_NOFILE, &was); }
            };
            thread_noting_reader reader;
            discovery read, plain;
            {
                limit const few(open_descriptors() + 48);
                read = directory_source("t", root.string(), o).discover(reader);
                plain = discover(root, layout::nested, o); // and the portable walker agrees
            }
            BOOST_TEST(plain.diagnostics.empty());
            BOOST_TEST(plain.skills.size() == 600u);
            BOOST_TEST(::described(read) == ::described_early(read, plain)); // the discovery, not a snapshot
            if (std::thread::hardware_concurrency() > 1) BOOST_TEST(reader.threads.size() > 1u);
            // Each file once: helpers opened the folders they were given parts of, and
            // no walk had to be done again on one thread.
            BOOST_TEST(reader.taken == 600);
        }
    }
    // A second path, at the end of the wide root's listing, to its first folder: one
    // walker walks the folder, the walker given the listing's second half meets the link,
    // and each keeps its own set of folders. The walk is done again on one thread, and
    // finds what one thread finds: the folder once, and the link skipped.
    {
        fs::path const root = t / "wide";
        fs::create_directory_symlink(root / "s1000", root / "zz-second");
        directory_options o;
        o.layout = layout::nested;
        thread_noting_reader reader;
        auto const read = directory_source("t", root.string(), o).discover(reader);
        auto const plain = discover(root, layout::nested, o);
        BOOST_TEST(read.skills.size() == 600u);
        BOOST_TEST(::described(read) == ::described_early(read, plain));
        BOOST_TEST(has(read.diagnostics, "discovery-loop"));
    }
    // A small tier is over before a thread would start: it is walked on the caller's
    // thread, once, even with a second path to a folder (no walk again on one thread).
    fs::path const small = t / "small";
    for (int i = 0; i < 5; ++i) write(small / numbered("s", i) / "SKILL.md", skill(numbered("s", i), "small"));
    fs::create_directory_symlink(small / "s1", small / "s0" / "again");
    directory_options o;
    o.layout = layout::nested;
    thread_noting_reader reader;
    auto const read = directory_source("t", small.string(), o).discover(reader);
    BOOST_TEST(::described(read) == ::described_early(read, discover(small, layout::nested, o)));
    BOOST_TEST(has(read.diagnostics, "discovery-loop"));
    BOOST_TEST(reader.calls == 5); // each file handed over once
    BOOST_TEST((reader.threads == std::set<std::thread::id>{std::this_thread::get_id()}));
}

BOOST_AUTO_TEST_CASE(skills_come_in_command_order_where_the_walk_meets_them_in_another)
{
    // A listing puts `s` before `s-`, so a walk meets `s/sub` before `s-`; by command (`-`
    // before `/`) it comes after. Here each folder's name is the one before it and a `-`:
    // wherever the walk's threads split the listing, the part before the split ends after
    // the part after it begins. A walk notes such skills as it finds them and where its
    // threads' parts meet, and sorts what it found.
    for (std::size_t folders : {3u, 200u}) {
        temp_dir t;
        for (std::size_t i = 0; i < folders; ++i) {
            std::string const n = "s" + std::string(i, '-');
            write(t / n / "SKILL.md", skill("chain", "a skill"));
            write(t / n / "sub" / "SKILL.md", skill("sub", "its sub-skill"));
        }
        directory_options o;
        o.layout = layout::nested;
        thread_noting_reader reader;
        auto const read = directory_source("t", t.path.string(), o).discover(reader);
        BOOST_TEST(read.skills.size() == 2 * folders);
        BOOST_TEST(std::is_sorted(read.skills.begin(), read.skills.end(),
                                  [](candidate const& a, candidate const& b) { return a.command < b.command; }));
        BOOST_TEST(::described(read) == ::described_early(read, discover(t.path, layout::nested, o)));
        if (folders > 3 && std::thread::hardware_concurrency() > 1) BOOST_TEST(reader.threads.size() > 1u);
    }
}

BOOST_AUTO_TEST_CASE(the_portable_walker_refreshes_by_comparing_stamps)
{
    temp_dir t;
    write(t / "a/SKILL.md", skill("a", "first"));
    directory_options o;
    o.walker = directory_walker::boost_filesystem;
    basic_registry<parser, first_tier_wins, directory_source> reg(parser{}, lenient(), directory_source("t", t.path.string(), o));
    reg.load();
    reg.refresh(); // where the POSIX walker would set its watches
    BOOST_TEST(!reg.source<0>().unchanged()); // no watches: every refresh walks and compares stamps
    write(t / "a/SKILL.md", skill("a", "second, and longer"));
    write(t / "b/SKILL.md", skill("b", "new"));
    reg.refresh();
    auto const snap = reg.snapshot();
    BOOST_TEST_REQUIRE(snap->find("a") != nullptr);
    BOOST_TEST(snap->find("a")->meta.description == "second, and longer");
    BOOST_TEST(snap->find("b") != nullptr);
}

BOOST_AUTO_TEST_CASE(watched_trees_refresh_without_touching_files_and_miss_no_change)
{
    temp_dir t;
    write(t / "plan/SKILL.md", skill("plan", "v1"));
    write(t / "plan/review/SKILL.md", skill("review", "r1"));
    write(t / "solo/SKILL.md", skill("solo", "s1"));
    temp_dir outside;
    write(outside / "linked.md", skill("linked", "l1"));
    fs::create_directories(t / "linked");
    fs::create_symlink(outside / "linked.md", t / "linked/SKILL.md");
    directory_options o;
    o.layout = layout::nested;
    o.allowed_roots = {outside.path.string()}; // the link's target is a folder the user allows
    counting_dir src{directory_source("project", t.path.string(), o)};
    basic_registry<parser, first_tier_wins, counting_dir> reg(parser{}, lenient(), src);
    reg.load();
    reg.refresh(); // sets the watches up
    reg.refresh(); // checks everything once more: the tree may have changed while they were set
    int const after_setup = *src.touches;
    reg.refresh();
    reg.refresh();
    BOOST_TEST(*src.touches == after_setup); // quiet tree: no file touched

    auto refreshed = [&] {
        reg.refresh();
        reg.refresh(); // a second one, as a caller polling would; must stay correct
        return reg.snapshot();
    };
    write(t / "solo/SKILL.md", skill("solo", "s2")); // edited in place
    BOOST_TEST(refreshed()->find("solo")->meta.description == "s2");
    write(t / "solo/nested/deeper/SKILL.md", skill("deeper", "d1")); // a new sub-skill under a leaf
    BOOST_TEST(refreshed()->find("solo/nested/deeper") != nullptr);
    write(t / "solo/nested/deeper/SKILL.md", skill("deeper", "d2")); // inside a folder that is new
    BOOST_TEST(refreshed()->find("solo/nested/deeper")->meta.description == "d2");
    fs::remove_all(t / "plan");
    BOOST_TEST(refreshed()->find("plan") == nullptr);
    write(t / "plan/SKILL.md", skill("plan", "v3")); // the same path again, a new inode
    BOOST_TEST(refreshed()->find("plan")->meta.description == "v3");
    write(t / "plan/SKILL.md", skill("plan", "v4"));
    BOOST_TEST(refreshed()->find("plan")->meta.description == "v4");
    write(outside / "linked.md", skill("linked", "l2")); // the target of a symlinked SKILL.md
    BOOST_TEST(refreshed()->find("linked")->meta.description == "l2");
    fs::rename(t / "solo", t / "moved");
    auto const s = refreshed();
    BOOST_TEST(s->find("moved") != nullptr);
    BOOST_TEST(s->find("solo")->command == "moved"); // the old command is gone; `solo` is only moved's label
}

BOOST_AUTO_TEST_CASE(lookup_lists_children_and_lazy_bodies)
{
    temp_dir t;
    write(t / "plan/SKILL.md", skill("plan", "Plans"));
    write(t / "plan/review/SKILL.md", skill("review", "Reviews", "user-invocable: false\n"));
    write(t / "plan/implement/SKILL.md", skill("implement", "Implements", "disable-model-invocation: true\n"));
    directory_options o;
    o.layout = layout::nested;
    basic_registry<parser, first_tier_wins, directory_source> reg(parser{}, lenient(dialects::claude_code()),
                                                                  directory_source("project", t.path.string(), o));
    reg.load();
    auto const s = reg.snapshot();
    BOOST_TEST(s->find("/plan/review") != nullptr);
    BOOST_TEST(s->find("") == nullptr);
    BOOST_TEST(s->find("../plan") == nullptr);
    BOOST_TEST(s->list(visibility::all).size() == 3u);
    BOOST_TEST(s->list(visibility::model).size() == 2u);
    BOOST_TEST(s->list(visibility::user).size() == 2u);
    auto const kids = s->children("plan");
    BOOST_TEST_REQUIRE(kids.size() == 2u);
    BOOST_TEST(kids[0]->command == "plan/implement");

    auto const* plan = s->find("plan");
    BOOST_TEST(*reg.body(*plan) == "# plan\n\nBody of plan.\n");
    write(t / "plan/SKILL.md", skill("plan", "Plans") + "More.\n");
    BOOST_TEST(*reg.body(*plan) == "# plan\n\nBody of plan.\nMore.\n"); // re-read: the file changed
}

// A lookup finds a command, else a name no other skill has; a command always wins over a
// name, and a name two skills share finds neither.
BOOST_AUTO_TEST_CASE(lookup_by_command_then_by_unique_name)
{
    temp_dir t;
    write(t / "alpha/SKILL.md", skill("shared", "first of two with one name"));
    write(t / "beta/SKILL.md", skill("shared", "second of two with one name"));
    write(t / "gamma/SKILL.md", skill("alpha", "named like another's command"));
    write(t / "delta/SKILL.md", skill("only-name", "a name of its own"));
    write(t / "delta/sub/SKILL.md", skill("sub", "a sub-skill"));
    directory_options o;
    o.layout = layout::nested;
    basic_registry<parser, first_tier_wins, directory_source> reg(parser{}, lenient(dialects::claude_code()),
                                                                  directory_source("project", t.path.string(), o));
    reg.load();
    auto const s = reg.snapshot();
    BOOST_TEST(s->skills().size() == 5u);
    BOOST_TEST(s->find("shared") == nullptr);
    BOOST_TEST(s->find("alpha")->meta.description == "first of two with one name");
    BOOST_TEST(*s->find("gamma")->meta.label == "alpha"); // Claude Code: `name:` is the label
    BOOST_TEST(s->find("only-name")->command == "delta");
    BOOST_TEST(s->find("/delta/sub") != nullptr);
    BOOST_TEST(s->find("sub")->command == "delta/sub");
    BOOST_TEST(s->find("delta/su") == nullptr);
    BOOST_TEST(s->find("epsilon") == nullptr);
    BOOST_TEST(s->find("zzz") == nullptr);
    BOOST_REQUIRE(s->children("delta").size() == 1u);
    BOOST_TEST(s->children("delta")[0]->command == "delta/sub");
    BOOST_TEST(s->find("delta@project")->command == "delta");
}

/// Every row of a snapshot's listing table says what its record says, in the snapshot's
/// order, from the table's own copies of the strings; the counts agree with the flags.
void check_listing_rows(snapshot const& s)
{
    auto const& table = s.listing_rows();
    auto const rows = table.entries();
    auto const flags = table.flags();
    BOOST_TEST_REQUIRE(rows.size() == s.skills().size());
    BOOST_TEST_REQUIRE(flags.size() == s.skills().size());
    auto const copied = [](std::string_view row, std::string_view record) {
        return row == record && (row.empty() || row.data() != record.data());
    };
    std::size_t hidden = 0, model_hidden = 0, undocumented = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        auto const& row = rows[i];
        auto const& f = flags[i];
        auto const& r = s.skills()[i];
        BOOST_TEST_CONTEXT(r.command)
        {
            bool const name_only = r.override_in_force() == override_mode::name_only;
            bool const files = !r.where.database && !r.where.path.empty();
            bool const documented = r.meta.description_given || r.meta.when_to_use.has_value();
            BOOST_TEST(row.record == &r);
            BOOST_TEST(copied(row.command, r.command));
            BOOST_TEST(copied(row.name, r.meta.label ? *r.meta.label : r.meta.name));
            BOOST_TEST(copied(row.description, name_only ? std::string_view() : std::string_view(r.meta.description)));
            BOOST_TEST(copied(row.when_to_use, r.meta.when_to_use && !name_only ? std::string_view(*r.meta.when_to_use) : ""));
            BOOST_TEST(copied(row.argument_hint, r.meta.argument_hint ? std::string_view(*r.meta.argument_hint) : ""));
            BOOST_TEST(copied(row.location, files ? std::string_view(r.where.path) : ""));
            BOOST_TEST(!row.made_location);
            BOOST_TEST(copied(row.tier, r.tier));
            BOOST_TEST(row.tier_index == r.tier_index);
            BOOST_TEST(row.always == r.meta.always);
            BOOST_TEST(f.hidden == r.hidden);
            BOOST_TEST(f.model_visible == r.visible_to(visibility::model));
            BOOST_TEST(f.name_only == name_only);
            BOOST_TEST(f.documented == documented);
            BOOST_TEST(!f.relative); // every tier here is a memory or database one, or absolute
            hidden += r.hidden;
            model_hidden += !r.visible_to(visibility::model);
            undocumented += !name_only && !documented;
        }
    }
    BOOST_TEST(table.hidden_count() == hidden);
    BOOST_TEST(table.model_hidden_count() == model_hidden);
    BOOST_TEST(table.undocumented_count() == undocumented);
    BOOST_TEST(table.relative_count() == 0u);
}

namespace {

/// A draft with every member set, strings of every kind: empty, long, with NUL and
/// non-ASCII bytes, shared with other members or not.
record_draft full_draft(std::string directory)
{
    record_draft d;
    d.command = "plan/review";
    d.tier = "project";
    d.tier_index = 3;
    d.hidden = true;
    d.overridden = override_decision{override_mode::user_invocable_only, "project settings", "/srv/.claude/settings.json",
                                     std::string(40, 'p')}; // longer than a string keeps in place
    d.where.command = "plan/review";
    d.where.directory = std::move(directory);
    d.where.path = "/srv/skills/plan/review/SKILL.md";
    d.where.directory_name = "review";
    d.where.stamp = {7, 11, 4096, 123456789};
    d.where.database = true;
    d.where.confirmed = false;
    auto& m = d.meta;
    m.name = "review";
    m.label = "Review plans";
    m.description = std::string(3000, 'd') + std::string("\0nul", 4) + "é";
    m.when_to_use = std::string(); // given, and empty: not the same as absent
    m.name_given = true;
    m.description_given = true;
    m.disable_model_invocation = true;
    m.user_invocable = false;
    m.user_invocable_only = true;
    m.always = true;
    m.context = context_mode::fork;
    m.license = "MIT";
    m.compatibility = "claude-code";
    m.metadata = {{"owner", "ops"}, {"", "empty key"}, {"tier", ""}};
    m.version = "1.2.3";
    m.author = "Ada";
    m.tags = {"a", "", "ccc"};
    m.allowed_tools = {"Read", "Grep", "Bash(git:*)"};
    m.agent = "Explore";
    m.model = "inherit";
    m.arguments = {"file", "mode"};
    m.triggers = {"review the plan"};
    m.knowledge = {"style.md"};
    m.requires_bins = {"git"};
    m.requires_env = {"HOME", "PATH"};
    m.unknown = {{"x-team", "\"core\"", 12, 3}, {"x-empty", "", 0, 0}};
    d.children = {"plan/review/deep", "plan/review/quick"};
    d.body_offset = 321;
    d.shadowed_by = "plan/review@user";
    return d;
}

void expect_same(record_draft const& a, record_draft const& b)
{
    BOOST_TEST(a.command == b.command);
    BOOST_TEST(a.tier == b.tier);
    BOOST_TEST(a.tier_index == b.tier_index);
    BOOST_TEST(a.hidden == b.hidden);
    BOOST_TEST(a.overridden.has_value() == b.overridden.has_value());
    if (a.overridden && b.overridden) {
        BOOST_TEST((a.overridden->mode == b.overridden->mode));
        BOOST_TEST(a.overridden->layer == b.overridden->layer);
        BOOST_TEST(a.overridden->origin == b.overridden->origin);
        BOOST_TEST(a.overridden->pattern == b.overridden->pattern);
    }
    BOOST_TEST(a.where.command == b.where.command);
    BOOST_TEST(a.where.path == b.where.path);
    BOOST_TEST(a.where.directory == b.where.directory);
    BOOST_TEST(a.where.directory_name == b.where.directory_name);
    BOOST_TEST((a.where.stamp == b.where.stamp));
    BOOST_TEST(a.where.database == b.where.database);
    BOOST_TEST(a.where.confirmed == b.where.confirmed);
    auto const& x = a.meta;
    auto const& y = b.meta;
    BOOST_TEST(x.name == y.name);
    BOOST_TEST((x.label == y.label));
    BOOST_TEST(x.description == y.description);
    BOOST_TEST((x.when_to_use == y.when_to_use));
    BOOST_TEST((x.argument_hint == y.argument_hint));
    BOOST_TEST(x.name_given == y.name_given);
    BOOST_TEST(x.description_given == y.description_given);
    BOOST_TEST(x.disable_model_invocation == y.disable_model_invocation);
    BOOST_TEST(x.user_invocable == y.user_invocable);
    BOOST_TEST(x.user_invocable_only == y.user_invocable_only);
    BOOST_TEST(x.always == y.always);
    BOOST_TEST((x.context == y.context));
    BOOST_TEST((x.license == y.license));
    BOOST_TEST((x.compatibility == y.compatibility));
    BOOST_TEST((x.metadata == y.metadata));
    BOOST_TEST((x.version == y.version));
    BOOST_TEST((x.author == y.author));
    BOOST_TEST(x.tags == y.tags);
    BOOST_TEST(x.allowed_tools == y.allowed_tools);
    BOOST_TEST((x.agent == y.agent));
    BOOST_TEST((x.model == y.model));
    BOOST_TEST(x.arguments == y.arguments);
    BOOST_TEST(x.triggers == y.triggers);
    BOOST_TEST(x.knowledge == y.knowledge);
    BOOST_TEST(x.requires_bins == y.requires_bins);
    BOOST_TEST(x.requires_env == y.requires_env);
    BOOST_TEST_REQUIRE(x.unknown.size() == y.unknown.size());
    for (std::size_t i = 0; i < x.unknown.size(); ++i) {
        BOOST_TEST(x.unknown[i].key == y.unknown[i].key);
        BOOST_TEST(x.unknown[i].json == y.unknown[i].json);
        BOOST_TEST(x.unknown[i].line == y.unknown[i].line);
        BOOST_TEST(x.unknown[i].column == y.unknown[i].column);
    }
    BOOST_TEST(a.children == b.children);
    BOOST_TEST(a.body_offset == b.body_offset);
    BOOST_TEST(a.shadowed_by == b.shadowed_by);
}

/// Every byte a record's fields view lies in the one block that holds the record.
void expect_inside(skill_record const& r, std::size_t text_bytes)
{
    auto const* lo = reinterpret_cast<char const*>(&r);
    auto const* hi = lo + sizeof(skill_record) + text_bytes + 256; // lists' entries and padding
    auto const inside = [&](std::string_view v) { return v.empty() || (v.data() > lo && v.data() + v.size() <= hi); };
    BOOST_TEST(inside(r.command));
    BOOST_TEST(inside(r.where.path));
    BOOST_TEST(inside(r.where.directory));
    BOOST_TEST(inside(r.meta.description));
    BOOST_TEST(inside(*r.meta.label));
    BOOST_TEST(inside(r.meta.metadata.back().second));
    BOOST_TEST(inside(r.meta.unknown.front().json));
    BOOST_TEST(inside(r.children.back()));
    BOOST_TEST(inside(r.shadowed_by));
    // An override is an object among those bytes (its strings own their own, when long).
    auto const* ov = reinterpret_cast<char const*>(r.overridden);
    BOOST_TEST((r.overridden == nullptr || (ov > lo && ov + sizeof(override_decision) <= hi)));
}

} // namespace

BOOST_AUTO_TEST_CASE(a_records_optional_members_each_reach_their_own_bytes_whichever_are_present)
{
    // Optional strings and lists are a byte each, numbering entries of the table that starts
    // the record's bytes, and an override is an object among those bytes: any mix of present
    // and absent members must give each its own value, and free all (the sanitizer builds).
    // The first list present may be large (5,000 items): the table stays right after the record.
    std::vector<std::function<void(record_draft&)>> const drop = {
        [](record_draft& d) { d.meta.label.reset(); },        [](record_draft& d) { d.meta.when_to_use.reset(); },
        [](record_draft& d) { d.meta.argument_hint.reset(); }, [](record_draft& d) { d.meta.license.reset(); },
        [](record_draft& d) { d.meta.compatibility.reset(); }, [](record_draft& d) { d.meta.metadata.clear(); },
        [](record_draft& d) { d.meta.version.reset(); },       [](record_draft& d) { d.meta.author.reset(); },
        [](record_draft& d) { d.meta.tags.clear(); },          [](record_draft& d) { d.meta.allowed_tools.clear(); },
        [](record_draft& d) { d.meta.agent.reset(); },         [](record_draft& d) { d.meta.model.reset(); },
        [](record_draft& d) { d.meta.arguments.clear(); },     [](record_draft& d) { d.meta.triggers.clear(); },
        [](record_draft& d) { d.meta.knowledge.clear(); },     [](record_draft& d) { d.meta.requires_bins.clear(); },
        [](record_draft& d) { d.meta.requires_env.clear(); },  [](record_draft& d) { d.meta.unknown.clear(); },
        [](record_draft& d) { d.children.clear(); },          [](record_draft& d) { d.overridden.reset(); },
    };
    std::uint32_t bits = 0x9e3779b9u;
    for (int round = 0; round < 600; ++round) {
        record_draft d = full_draft("/srv/skills/plan/review");
        if (round % 3 == 0)
            for (int i = 0; i < 5000; ++i) d.meta.metadata.push_back({std::to_string(i), std::string(i % 40, 'v')});
        bits = bits * 1664525u + 1013904223u; // a different subset each round; round 0 drops none, round 1 all
        for (std::size_t f = 0; f < drop.size(); ++f)
            if (round == 1 || (round > 1 && ((bits >> (f % 32)) & 1u))) drop[f](d);
        auto const r = make_record(d);
        expect_same(r->draft(), d);
        BOOST_TEST(r->meta.metadata.empty() == d.meta.metadata.empty());
        BOOST_TEST(r->meta.unknown.size() == d.meta.unknown.size());
    }
}

BOOST_AUTO_TEST_CASE(records_pack_every_member_and_give_it_back)
{
    // The folder is the file's: its bytes are the path's (one copy), and so are the folder's name.
    record_draft const d = full_draft("/srv/skills/plan/review");
    auto const r = make_record(d);
    expect_same(r->draft(), d);
    // (Addresses compared as addresses: Boost.Test compares `char const*` as C strings.)
    auto const at = [](std::string_view v, std::size_t skip = 0) { return static_cast<void const*>(v.data() + skip); };
    BOOST_TEST(at(r->where.directory) == at(r->where.path));
    BOOST_TEST(at(r->where.directory_name) == at(r->where.path, std::string_view("/srv/skills/plan/").size()));
    BOOST_TEST(at(r->command) == at(r->where.path, std::string_view("/srv/skills/").size()));
    BOOST_TEST(at(r->meta.name) == at(r->command, std::string_view("plan/").size()));
    expect_inside(*r, 4000);

    // Read as the owned types read.
    BOOST_TEST(r->command == "plan/review");
    BOOST_TEST(r->command < std::string_view("plan/s"));
    BOOST_TEST(r->qualified() == "plan/review@project");
    BOOST_TEST(r->meta.description.size() == 3000u + 4u + 2u);
    BOOST_TEST((r->meta.when_to_use.has_value() && r->meta.when_to_use->empty()));
    BOOST_TEST(!r->meta.argument_hint);
    BOOST_TEST((r->meta.argument_hint.value_or("none") == "none"));
    BOOST_TEST((r->meta.label == std::string_view("Review plans")));
    BOOST_TEST((r->meta.agent.owned() == std::optional<std::string>("Explore")));
    BOOST_TEST(r->meta.tags.size() == 3u);
    BOOST_TEST(r->meta.tags[1].empty());
    BOOST_TEST(r->meta.metadata[1].first.empty());
    BOOST_TEST(r->meta.metadata[1].second == "empty key");
    skill_metadata const owned = r->meta;
    BOOST_TEST(owned.allowed_tools == d.meta.allowed_tools);
    candidate const where = r->where;
    BOOST_TEST(where.path == d.where.path);

    // A folder that is not the file's (database and memory skills), and nothing optional.
    record_draft other = full_draft("/elsewhere/review");
    other.where.directory_name = "weiter";
    other.command = "plan/renamed"; // a command from `name:` (mycode), not from the path
    other.meta = skill_metadata{};
    other.meta.name = "not-the-command";
    other.children.clear();
    other.overridden.reset();
    auto const q = make_record(other);
    expect_same(q->draft(), other);
    BOOST_TEST(!q->meta.label);
    BOOST_TEST(q->meta.tags.empty());
    BOOST_TEST((q->meta.tags.begin() == q->meta.tags.end()));
    BOOST_TEST(q->children.empty());
    BOOST_TEST(q->meta.description.empty());
    BOOST_TEST(at(q->where.directory) != at(q->where.path));
    BOOST_TEST(q->command == "plan/renamed"); // in no other string: copied

    // An empty draft is an empty record.
    auto const e = make_record(record_draft{});
    expect_same(e->draft(), record_draft{});
    BOOST_TEST(e->command.empty());
    BOOST_TEST(e->command == "");
}

BOOST_AUTO_TEST_CASE(listing_rows_pack_what_listings_read_once_per_snapshot)
{
    memory_source m("files");
    m.set("alpha", "---\nname: alpha\ndescription: Alpha things\nwhen_to_use: when alpha\nargument-hint: \"[file]\"\n---\n");
    m.set("beta", skill("beta", "Beta things", "disable-model-invocation: true\n"));
    m.set("gamma", skill("gamma", "Gamma things"));
    m.set("undocumented", "---\nname: undocumented\n---\nThe body says what it does.\n");
    counting_db db;
    db.inner.set("from-db", skill("from-db", "Agent-made"));
    auto opts = lenient();
    opts.overrides.add({"user settings", "", {{"gamma", false, override_mode::name_only}}});
    basic_registry<parser, files_win_over_database<>, memory_source, counting_db> reg(parser{}, opts, m, db);
    reg.load();
    auto const s = reg.snapshot();
    BOOST_TEST_REQUIRE(s->skills().size() == 5u);
    check_listing_rows(*s);
    auto const rows = s->listing_rows().entries();
    auto const flags = s->listing_rows().flags();
    BOOST_TEST(rows[0].when_to_use == "when alpha"); // alpha
    BOOST_TEST(rows[0].argument_hint == "[file]");
    BOOST_TEST(!flags[1].model_visible);             // beta
    BOOST_TEST(flags[3].name_only);                  // gamma
    BOOST_TEST(rows[3].description.empty());
    BOOST_TEST(rows[2].location.empty());            // from-db
    BOOST_TEST(!flags[4].documented);                // undocumented
    BOOST_TEST(s->listing_rows().model_hidden_count() == 1u);
    BOOST_TEST(s->listing_rows().undocumented_count() == 1u);

    // Built once: every caller, on any thread, gets the same table.
    reg.refresh();
    m.set("delta", skill("delta", "Delta things"));
    reg.refresh();
    auto const fresh = reg.snapshot();
    std::vector<listing_table const*> seen(4, nullptr);
    std::vector<std::thread> pool;
    for (std::size_t t = 0; t < seen.size(); ++t) pool.emplace_back([&, t] { seen[t] = &fresh->listing_rows(); });
    for (auto& t : pool) t.join();
    for (auto const* p : seen) BOOST_TEST(p == &fresh->listing_rows());
    BOOST_TEST(fresh->listing_rows().entries().size() == 6u);
    check_listing_rows(*fresh);

    // A source whose label changes: records kept from the earlier refresh keep the label
    // they were read under, and each row says its own record's.
    struct relabelled
    {
        memory_source inner{"x"};
        std::shared_ptr<std::string> name = std::make_shared<std::string>("before");
        std::string_view label() const { return *name; }
        discovery discover() const { return inner.discover(); }
        read_outcome read_head(candidate const& c) const { return inner.read_head(c); }
        read_outcome read_all(candidate const& c) const { return inner.read_all(c); }
    };
    relabelled rl;
    rl.inner.set("old", skill("old", "Read before"));
    basic_registry<parser, first_tier_wins, relabelled> rl_reg(parser{}, lenient(), rl);
    rl_reg.load();
    *rl.name = "after";
    rl.inner.set("new", skill("new", "Read after"));
    rl_reg.refresh();
    auto const rs = rl_reg.snapshot();
    check_listing_rows(*rs);
    BOOST_TEST(rs->find("new")->tier == "after");
    BOOST_TEST(rs->listing_rows().entries()[0].tier == "after");  // new
    BOOST_TEST(rs->listing_rows().entries()[1].tier == rs->find("old")->tier);

    // sven: hidden (requirements unmet) and always-listed skills.
    memory_source sv("sven");
    sv.set("docker", "---\ndescription: d\nsven:\n  requires_bins: [surely-not-installed-xyz]\n---\n");
    sv.set("core", "---\ndescription: c\nsven:\n  always: true\n---\n");
    basic_registry<parser, first_tier_wins, memory_source> sven_reg(parser{}, lenient(dialects::sven()), sv);
    sven_reg.load();
    auto const ss = sven_reg.snapshot();
    check_listing_rows(*ss);
    BOOST_TEST(ss->listing_rows().entries()[0].always); // core
    BOOST_TEST(ss->listing_rows().flags()[1].hidden);   // docker
    BOOST_TEST(ss->listing_rows().hidden_count() == 1u);
}

BOOST_AUTO_TEST_CASE(requirements_hide_skills_with_an_info_diagnostic)
{
    memory_source m("m");
    m.set("docker", "---\ndescription: d\nsven:\n  requires_bins: [surely-not-installed-xyz]\n---\n");
    m.set("shell", "---\ndescription: s\nsven:\n  requires_bins: [sh]\n---\n");
    m.set("token", "---\ndescription: t\nsven:\n  requires_env: [SKILLMD_TEST_UNSET_VARIABLE]\n---\n");
    basic_registry<parser, first_tier_wins, memory_source> reg(parser{}, lenient(dialects::sven()), m);
    reg.load();
    auto const s = reg.snapshot();
    BOOST_TEST(s->find("docker")->hidden);
    BOOST_TEST(!s->find("shell")->hidden);
    BOOST_TEST(s->find("token")->hidden);
    BOOST_TEST(s->list(visibility::model).size() == 1u);
    BOOST_TEST(has(s->diagnostics(), "requirements-unmet", "surely-not-installed-xyz"));
    ::setenv("SKILLMD_TEST_UNSET_VARIABLE", "1", 1);
    reg.refresh();
    BOOST_TEST(!reg.snapshot()->find("token")->hidden);
    ::unsetenv("SKILLMD_TEST_UNSET_VARIABLE");
}

BOOST_AUTO_TEST_CASE(vanished_files_are_reported_not_fatal)
{
    temp_dir t;
    write(t / "a/SKILL.md", skill("a", "a"));
    directory_source const src("t", t.path.string());
    auto const d = src.discover();
    fs::remove(t / "a/SKILL.md");
    auto const r = src.read_head(d.skills[0]);
    BOOST_TEST(!r.text.has_value());
    BOOST_TEST(r.absent);
    BOOST_TEST(!src.stamp(d.skills[0]).has_value());
}

BOOST_AUTO_TEST_CASE(seeding_fills_a_missing_directory_only)
{
    temp_dir t;
    write(t / "shipped/commit/SKILL.md", skill("commit", "c"));
    std::vector<diagnostic> ds;
    BOOST_TEST(seed_directory(t / "home/.config/app/skills", t / "shipped", ds));
    BOOST_TEST(fs::exists(t / "home/.config/app/skills/commit/SKILL.md"));
    fs::remove_all(t / "home/.config/app/skills/commit");
    BOOST_TEST(!seed_directory(t / "home/.config/app/skills", t / "shipped", ds)); // exists: left alone
    BOOST_TEST(!fs::exists(t / "home/.config/app/skills/commit"));
}

BOOST_AUTO_TEST_CASE(readers_never_see_a_partial_snapshot)
{
    // Run under ThreadSanitizer in CI: readers on several threads, refreshes on another.
    memory_source m("m");
    for (int i = 0; i < 50; ++i) m.set(numbered("s", i), skill(numbered("s", i), "v0"));
    basic_registry<parser, first_tier_wins, memory_source> reg(parser{}, lenient(), m);
    reg.load();
    std::atomic<bool> stop{false};
    std::atomic<int> bad{0}, reads{0};
    auto reader = [&] {
        while (!stop) {
            auto const s = reg.snapshot();
            // every skill of one snapshot carries the same version
            std::string const v(s->skills().front().meta.description);
            for (auto const& r : s->skills()) bad += r.meta.description != v;
            bad += s->skills().size() != 50u;
            ++reads;
        }
    };
    std::vector<std::thread> readers;
    for (int i = 0; i < 3; ++i) readers.emplace_back(reader);
    // A busy machine may not schedule the readers before thirty refreshes are over;
    // refreshing only once they run keeps the test about tearing, not about timing.
    while (reads == 0) std::this_thread::yield();
    for (int round = 1; round <= 30; ++round) {
        // change every skill between refreshes; a snapshot mixes versions only if it was torn
        for (int i = 0; i < 50; ++i) m.set(numbered("s", i), skill(numbered("s", i), numbered("v", round)));
        reg.refresh();
    }
    stop = true;
    for (auto& r : readers) r.join();
    BOOST_TEST(bad == 0);
}

//------------------------------------------------------------------------------
// Incremental refreshes: what a refresh derives from the last snapshot must be what a
// first load of the same files gives, every member and every word.

/// directory_source whose walks are counted: a refresh derived from the last snapshot walks nothing.
struct walk_counting_dir
{
    directory_source inner;
    std::shared_ptr<std::atomic<int>> walks = std::make_shared<std::atomic<int>>(0);
    std::shared_ptr<std::function<void()>> before_read = std::make_shared<std::function<void()>>(); // a change made mid-refresh
    static constexpr bool stamps_are_file_times = true;
    std::string_view label() const { return inner.label(); }
    std::string const& root() const { return inner.root(); }
    discovery discover() const { ++*walks; return inner.discover(); }
    read_outcome read_head(candidate const& c) const
    {
        if (*before_read) (*before_read)();
        return inner.read_head(c);
    }
    read_outcome read_all(candidate const& c) const { return inner.read_all(c); }
    std::optional<file_stamp> stamp(candidate const& c) const { return inner.stamp(c); }
    bool watch(discovery const& d) const { return inner.watch(d); }
    std::optional<std::vector<std::string>> changes() const { return inner.changes(); }
    std::optional<candidate> candidate_at(std::string const& path) const { return inner.candidate_at(path); }
};

/// Every member of every record a snapshot holds, what each of its names finds, and
/// every diagnostic, in one comparable text.
std::string whole(skillmd::snapshot const& s)
{
    std::string out;
    auto const list = [](auto const& v) {
        std::string o = "[";
        for (auto const& x : v) o += std::string(x) + ",";
        return o + "]";
    };
    auto const opt = [](auto const& o) { return o ? "'" + std::string(*o) + "'" : std::string("-"); };
    auto const one = [&](char const* what, skill_record const& r) {
        record_draft const d = r.draft();
        auto const& w = d.where;
        auto const& m = d.meta;
        out += std::string(what) + " " + d.command + " | " + d.tier + " " + std::to_string(d.tier_index) + (d.hidden ? " hidden" : "") +
               " | " + (d.overridden ? d.overridden->layer + ":" + d.overridden->pattern : "-") + " | " + w.command + " " + w.path +
               " " + w.directory + " " + w.directory_name + " " + std::to_string(w.stamp.device) + ":" +
               std::to_string(w.stamp.inode) + ":" + std::to_string(w.stamp.size) + ":" + std::to_string(w.stamp.mtime_ns) +
               (w.database ? " db" : "") + (w.confirmed ? "" : " unconfirmed") + " | " + m.name + " " + opt(m.label) + " " +
               m.description + " " + opt(m.when_to_use) + " " + opt(m.argument_hint) + " " + std::to_string(m.name_given) +
               std::to_string(m.description_given) + std::to_string(m.disable_model_invocation) +
               std::to_string(m.user_invocable) + std::to_string(m.user_invocable_only) + std::to_string(m.always) +
               std::to_string(static_cast<int>(m.context)) + " " + opt(m.license) + opt(m.compatibility) + opt(m.version) +
               opt(m.author) + opt(m.agent) + opt(m.model) + " " + list(m.tags) + list(m.allowed_tools) + list(m.arguments) +
               list(m.triggers) + list(m.knowledge) + list(m.requires_bins) + list(m.requires_env) + " " +
               std::to_string(m.metadata.size()) + "/" + std::to_string(m.unknown.size()) + " | " + list(d.children) + " | " +
               std::to_string(d.body_offset) + " | " + d.shadowed_by + "\n";
        auto const names = s.names_of(r);
        out += "  answers " + list(names.answers) + " carries " + list(names.carries) + "\n";
    };
    for (auto const& r : s.skills()) one("skill", r);
    for (auto const& r : s.shadowed()) one("shadowed", r);
    for (auto const& r : s.disabled()) one("disabled", r);
    for (auto const& g : s.diagnostics()) out += "diagnostic " + to_text(g) + "\n";
    return out;
}

/// Two watched directory tiers of one registry: each refresh a test asks for is checked
/// for how many walks it took, and against a first load of the same files.
template <class Dedup>
struct two_watched_tiers
{
    using reg_t = basic_registry<parser, Dedup, walk_counting_dir, walk_counting_dir>;
    two_watched_tiers(std::string one, fs::path const& one_root, std::string two, fs::path const& two_root, registry_options o,
                      directory_options layout_options = {})
        : labels{std::move(one), std::move(two)}, roots{one_root.string(), two_root.string()}, opts(std::move(o)),
          dir_opts(layout_options), tiers(sources()), reg(parser{}, opts, tiers.first, tiers.second)
    {}
    std::pair<walk_counting_dir, walk_counting_dir> sources() const
    {
        return {walk_counting_dir{directory_source(labels[0], roots[0], dir_opts)},
                walk_counting_dir{directory_source(labels[1], roots[1], dir_opts)}};
    }
    std::string first_load() const
    {
        auto f = sources();
        reg_t first(parser{}, opts, f.first, f.second);
        first.load();
        return whole(*first.snapshot());
    }
    int walks() const { return *tiers.first.walks + *tiers.second.walks; }
    /// The load, the refresh that sets the watches, and one that looks at what changed meanwhile.
    void load()
    {
        reg.load();
        reg.refresh();
        reg.refresh();
    }
    void refresh(int walked, char const* what)
    {
        int const before = walks();
        reg.refresh();
        BOOST_TEST(walks() - before == walked, what << ": " << walks() - before << " walks");
        BOOST_TEST(whole(*reg.snapshot()) == first_load(), what);
    }

    std::string labels[2];
    std::string roots[2];
    registry_options opts;
    directory_options dir_opts;
    std::pair<walk_counting_dir, walk_counting_dir> tiers;
    reg_t reg;
};

/// One of seven words a skill's `triggers:` may hold.
std::string trigger_word(int k) { return numbered("cue", k % 7); }

/// The skills (command and tier) an index matches in `message`, in its order.
std::string matched(trigger_index const& idx, std::string_view message)
{
    std::string out;
    for (auto const* r : idx.match(message)) out += r->qualified() + " ";
    return out;
}
/// Whether two indexes match alike: every word alone, and all of them in one message.
bool matches_alike(trigger_index const& a, trigger_index const& b)
{
    std::string every;
    bool alike = a.skills() == b.skills();
    for (int k = 0; k < 7; ++k) {
        alike = alike && matched(a, trigger_word(k)) == matched(b, trigger_word(k));
        every += trigger_word(k) + ", ";
    }
    return alike && matched(a, every) == matched(b, every);
}

/// What kind of changes random_changes_match_a_first_load makes.
struct change_mix
{
    /// Changes that keep to themselves (every folder made beforehand or, flat, with its
    /// skill, each tier's commands its own, every file a valid skill (some bearing a shared
    /// `name:`), no folder removed or renamed), so most refreshes take the incremental path
    /// and it is compared the most.
    bool quiet = false;
    /// With `quiet`: folders are made with their skills, and removed or renamed with all below them.
    bool trees = false;
    /// With `quiet`: the two tiers bear the same commands, so skills come and go shadowed,
    /// shadowing, or winning back.
    bool shadowing = false;
    /// Flat: skill folders that are links into a folder both tiers allow (a dotfiles
    /// checkout), made, pointed elsewhere, removed, led through a link pointed elsewhere, and
    /// (unless `quiet`) left leading nowhere, to a file, or into the tier itself.
    bool links = false;
    /// Operators' rules set anew at times (set_overrides): by name, by path, in two layers
    /// or under another label, from none to a whole tier off.
    bool rules = false;
    /// Tier b is tier a's folder again, by its path or through a link to it (Claude Code run
    /// from the home folder: the user's skills and the project's are one folder): every skill
    /// is read twice, and the second copy dropped as its winner's very file.
    bool one_root = false;
    /// Flat: folder names (the commands) beyond ASCII at times (`s\u00e9-0`, `\u00fc-1`),
    /// then none again, and a pair that looks alike (`s1-0`, `sl-0`), which walks.
    bool unicode = false;
};

/// Random changes to two tiers of one layout, refreshed after every one or two: each
/// refreshed snapshot must equal a first load of the same files. Returns how many
/// refreshes were derived without a walk.
template <class Dedup>
int random_changes_match_a_first_load(layout lay, dialect const& dia, unsigned seed, int sequences, int steps, change_mix mix = {})
{
    bool const quiet = mix.quiet, trees = mix.trees, shadowing = mix.shadowing, links = mix.links, rules = mix.rules;
    std::mt19937 rng(seed);
    auto const pick = [&](unsigned n) { return static_cast<int>(rng() % n); };
    int derived = 0;
    for (int q = 0; q < sequences; ++q) {
        temp_dir t;
        // (one_root: through a link one sequence in four; a root reached so walks at every refresh)
        fs::path const roots[2] = {t / "a", mix.one_root && q % 4 != 0 ? t / "a" : t / "b"};
        if (mix.one_root && q % 4 == 0) {
            fs::create_directories(roots[0]);
            fs::create_directory_symlink("a", roots[1]);
        }
        // (links) Skill folders d<j>, and the link `via`, which leads to v<j>. Quiet: skill k
        // of a tier links only to its own d<j> (k = 0 also to `via`), so no tier reaches one
        // folder twice; otherwise to any, as often two in one tier, which the walk reports.
        fs::path const dotfiles = t / "dotfiles";
        directory_options o;
        o.layout = lay;
        if (links) {
            o.allowed_roots = {dotfiles.string()};
            for (int j = 0; j < 12; ++j) write(dotfiles / numbered("d", j) / "SKILL.md", skill(numbered("d", j), "from dotfiles"));
            for (int j = 0; j < 2; ++j) write(dotfiles / numbered("v", j) / "SKILL.md", skill(numbered("v", j), "through via"));
            write(dotfiles / "note.txt", "a file");
            fs::create_directory_symlink("v0", dotfiles / "via");
        }
        // Skill k of a tier: flat `s<k>/SKILL.md`, files `s<k>.md`, nested `p<k>` for
        // k < 2 and `p<k % 2>/c<k>` under them (sub-skills) otherwise.
        // Quiet: tier 1's skills are numbered from 6, its parents from 2; unless `shadowing`,
        // when both tiers bear the same commands, and one shadows the other.
        bool const own = quiet && !shadowing;
        auto const id = [&](int tier, int k) { return own ? k + 6 * tier : k; };
        auto const parent = [&](int tier, int k) { return own ? k % 2 + 2 * tier : k % 2; };
        auto const target = [&](int tier, int k) {
            if (quiet) return k == 0 && pick(2) == 0 ? dotfiles / "via" : dotfiles / numbered("d", k + 6 * tier);
            return pick(4) == 0 ? dotfiles / "via" : dotfiles / numbered("d", pick(12));
        };
        auto const flat_name = [&](int j) {
            if (!mix.unicode) return numbered("s", j);
            static char const* const looks[] = {"s\xc3\xa9", "s1", "sl", "t", "\xc3\xbc", "v"};
            return std::string(looks[j % 6]) + "-" + std::to_string(j / 6);
        };
        auto const file_of = [&](int tier, int k) -> fs::path {
            fs::path const& r = roots[tier];
            if (lay == layout::files) return r / flat_name(id(tier, k)).append(".md");
            if (lay == layout::flat) return r / flat_name(id(tier, k)) / "SKILL.md";
            if (k < 2) return r / numbered("p", parent(tier, k)) / "SKILL.md";
            return r / numbered("p", parent(tier, k)) / numbered("c", id(tier, k)) / "SKILL.md";
        };
        auto const text = [&](int tier, int k) {
            std::string const folder = lay == layout::nested && k < 2 ? numbered("p", parent(tier, k))
                                       : lay == layout::nested        ? numbered("c", id(tier, k))
                                                                      : flat_name(id(tier, k));
            // An edit that changes only the text, or its trigger phrases (a key no dialect here claims).
            auto const edited = [&] {
                int const v = pick(1000);
                return skill(folder, numbered("version ", v), v % 3 == 0 ? "triggers: [" + trigger_word(v / 3) + "]\n" : "");
            };
            if (quiet) // a `name:` that other skills share, at times: counted in and out (the files
                       // layout's preset says a `name:` unlike the file's, which walks)
                return lay != layout::files && pick(4) == 0 ? skill(numbered("n", pick(3)), "shared") : edited();
            switch (pick(8)) {
            case 0: return skill(numbered("n", pick(3)), "renamed"); // a `name:` other skills may share
            case 1: return std::string("---\nname: " + folder + "\ndescription: [never closed\n---\nbody\n"); // says why not
            case 2: return skill(folder, "gated", "sven:\n  requires_env: [SKILLMD_PROPERTY_TEST_GATE]\n"); // set at times
            case 3: return std::string("---\nname: " + folder + "\n---\nNo description: the body gives one, or a word.\n");
            default: return edited();
            }
        };
        // A change to a flat skill folder `place` that is (or becomes) a link. Says what it did.
        auto const change_links = [&](fs::path const& place, int tier, int k) -> std::string {
            std::error_code ec; // (nested: a parent folder on the way that is a link leading nowhere or to a file is made a folder again)
            for (fs::path up = place.parent_path(); up != roots[tier] && up.has_relative_path(); up = up.parent_path())
                if (fs::is_symlink(up) && !fs::is_directory(up, ec)) fs::remove(up);
            fs::create_directories(place.parent_path());
            bool const free = !fs::exists(fs::symlink_status(place)), linked = fs::is_symlink(place);
            switch (pick(quiet ? 4 : 7)) {
            case 0:
            case 1: { // made where the place is free, or pointed elsewhere as `ln -sfn` does: a new link renamed over it
                fs::path const to = target(tier, k);
                if (free) fs::create_directory_symlink(to, place);
                else if (!linked) return "no link made over a folder";
                else {
                    fs::create_directory_symlink(to, fs::path(place).concat(".new"));
                    fs::rename(fs::path(place).concat(".new"), place);
                }
                return place.string() + " -> " + to.string();
            }
            case 2:
                if (!linked) return "no link to remove";
                fs::remove(place);
                return place.string() + " removed";
            case 3: { // the link on the way pointed elsewhere: no event in either tier
                fs::path const to = numbered("v", pick(2));
                fs::create_directory_symlink(to, dotfiles / "via.new");
                fs::rename(dotfiles / "via.new", dotfiles / "via");
                return "via -> " + to.string();
            }
            case 4: { // a folder links lead to renamed away, or back: they lead nowhere meanwhile
                fs::path const d = dotfiles / numbered("d", pick(12)), away = fs::path(d).concat(".away");
                if (fs::exists(d)) fs::rename(d, away);
                else if (fs::exists(away)) fs::rename(away, d);
                return d.string() + " moved";
            }
            case 5: // to a file, passed over in silence
                if (!free) return "no link to a file";
                fs::create_symlink(dotfiles / "note.txt", place);
                return place.string() + " -> note.txt";
            default: { // into the tier itself: a second name for one of its folders, not followed
                fs::path const to = roots[tier] / flat_name(id(tier, pick(6)));
                if (!free || fs::is_symlink(to)) return "no link into the tier";
                fs::create_directory_symlink(to, place);
                return place.string() + " -> " + to.string();
            }
            }
        };
        for (int tier = 0; tier < 2; ++tier) {
            fs::create_directories(roots[tier]);
            for (int k = 0; k < 6; ++k) {
                if (links && pick(4) == 0) {
                    // (nested: its parent folder made, which may be a link that leads where another tier's does)
                    fs::path const place = file_of(tier, k).parent_path();
                    fs::create_directories(place.parent_path());
                    if (!fs::exists(fs::symlink_status(place))) fs::create_directory_symlink(target(tier, k), place);
                    continue;
                }
                // (flat: folders are made as skills are, at times)
                if (quiet && ((lay == layout::nested && !trees) || (lay == layout::flat && pick(2) == 0)))
                    fs::create_directories(file_of(tier, k).parent_path());
                if (pick(3) != 0) write(file_of(tier, k), text(tier, k));
            }
        }
        using reg_t = basic_registry<parser, Dedup, walk_counting_dir, walk_counting_dir>;
        auto const sources = [&] {
            return std::pair{walk_counting_dir{directory_source("a", roots[0].string(), o)},
                             walk_counting_dir{directory_source("b", roots[1].string(), o)}};
        };
        auto [a, b] = sources();
        // Mixed: operators' overrides too. A shared `name:` off, another name-only, and one
        // of tier b's places off by path (nested: a parent folder, its sub-skills with it),
        // which the project's settings turn on again for one skill below it. With `rules`,
        // one of four other sets at times, or back to the first.
        int rule_set = 0;
        auto const options = [&] {
            registry_options opts = lenient(dia);
            fs::path const place = lay == layout::files ? roots[1] / "s4.md" : lay == layout::flat ? roots[1] / "s4" : roots[1] / "p1";
            fs::path const spared = lay == layout::files ? file_of(0, 2) : file_of(0, 2).parent_path();
            switch (rule_set) {
            case 0:
            case 4:
                if (quiet && rule_set == 0) break;
                opts.overrides.add({rule_set == 0 ? "user settings" : "managed settings", "",
                                    {{"n1", false, override_mode::off}, {"n2", false, override_mode::name_only},
                                     {place.string(), true, override_mode::off}}});
                opts.overrides.add({"project settings", "", {{(roots[1] / "p1" / "c5").string(), true, override_mode::on}}});
                break;
            case 1: break; // none
            case 2:
                opts.overrides.add({"user settings", "", {{numbered("s", 1), false, override_mode::off}, {numbered("c", 3), false, override_mode::off},
                                                          {"p0", false, override_mode::name_only}, {"n0", false, override_mode::user_invocable_only}}});
                break;
            default: // tier a off, but for one skill and a name the project's settings decide
                opts.overrides.add({"user settings", "", {{roots[0].string(), true, override_mode::off}}});
                opts.overrides.add({"project settings", "", {{spared.string(), true, override_mode::on}, {"n1", false, override_mode::off}}});
                break;
            }
            return opts;
        };
        ::unsetenv("SKILLMD_PROPERTY_TEST_GATE");
        trigger_indexes triggers; // each derived from the last refresh's
        reg_t reg(parser{}, options(), a, b);
        reg.load();
        reg.refresh(); // the watches
        reg.refresh(); // and a look at what changed while they were set
        std::string done; // what the last step did, should it fail
        for (int step = 0; step < steps; ++step) {
            done.clear();
            if (rules && pick(4) == 0) { // the operators' rules set anew
                rule_set = pick(5);
                reg.set_overrides(options().overrides);
                done += "rules set " + std::to_string(rule_set) + "\n";
            }
            if (!quiet && pick(4) == 0) { // the gated skills' requirement met, or no longer
                bool const set = std::getenv("SKILLMD_PROPERTY_TEST_GATE") != nullptr;
                if (set) ::unsetenv("SKILLMD_PROPERTY_TEST_GATE");
                else ::setenv("SKILLMD_PROPERTY_TEST_GATE", "1", 1);
                done += set ? "requirement unset\n" : "requirement set\n";
            }
            for (int ops = 1 + pick(2); ops > 0; --ops) {
                int const tier = pick(2), k = pick(6);
                fs::path const f = file_of(tier, k);
                if (links && pick(4) == 0) {
                    done += change_links(f.parent_path(), tier, k) + "\n";
                    continue;
                }
                std::error_code ec; // (a link renamed into the tier may lead to itself)
                if (links) // leading nowhere, or to a file: made again as a folder below (nested: its parent too)
                    for (fs::path up = f.parent_path(); up != roots[tier] && up.has_relative_path(); up = up.parent_path())
                        if (fs::is_symlink(up) && !fs::is_directory(up, ec)) fs::remove(up);
                bool const there = fs::exists(f, ec);
                int const what = pick(100);
                done += f.string() + (there ? " was there, " : " was not, ") + std::to_string(what) + "\n";
                if (!there || what < 45 || (quiet && !trees && what >= 68 && what < 84)) { // created, or edited in place
                    write(f, text(tier, k));
                } else if (what < 55) { // replaced as editors save: a new file renamed over it
                    write(fs::path(f).concat(".swap"), text(tier, k));
                    fs::rename(fs::path(f).concat(".swap"), f);
                } else if (what < 68) {
                    fs::remove(f);
                } else if (what < 76 && lay != layout::files) {
                    fs::remove_all(f.parent_path());
                } else if (what < 84) { // renamed: to another skill's place, when free
                    fs::path const to = file_of(tier, pick(6));
                    fs::path const from_place = lay == layout::files ? f : f.parent_path();
                    fs::path const to_place = lay == layout::files ? to : to.parent_path();
                    bool const into_itself = (to_place.string() + "/").starts_with(from_place.string() + "/");
                    // (flat: an empty skill folder there is replaced, as rename(2) does)
                    bool const over_empty = lay == layout::flat && fs::is_directory(fs::symlink_status(to_place)) &&
                                            fs::is_directory(fs::symlink_status(from_place)) && fs::is_empty(to_place);
                    if ((over_empty || !fs::exists(fs::symlink_status(to_place))) && !into_itself) {
                        fs::create_directories(to_place.parent_path());
                        fs::rename(from_place, to_place);
                    }
                } else if (what < 88) { // a bundled file: nothing a snapshot holds
                    write(f.parent_path() / "notes.txt", numbered("note ", pick(1000)));
                } else if (what < 92) { // an editor's swap file, made and removed, and its backup left
                    fs::path const swap = f.parent_path() / ("." + f.filename().string() + ".swp");
                    write(swap, "swap");
                    fs::remove(swap);
                    write(fs::path(f).concat("~"), "backup");
                } else { // attributes only: still readable
                    fs::permissions(f, pick(2) ? fs::perms::owner_read | fs::perms::owner_write : fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
                }
            }
            int const walks = *a.walks + *b.walks;
            reg.refresh();
            if (*a.walks + *b.walks == walks) ++derived;
            auto [fa, fb] = sources();
            reg_t first(parser{}, options(), fa, fb);
            first.load();
            std::string const got = whole(*reg.snapshot()), want = whole(*first.snapshot());
            BOOST_TEST_REQUIRE(got == want, "seed " << seed << ", sequence " << q << ", step " << step << "\nrefreshed:\n"
                                                    << got << "first load:\n" << want << "\nthe last changes:\n" << done);
            auto const derived_index = triggers.of(reg.snapshot());
            trigger_index const fresh(first.snapshot());
            BOOST_TEST_REQUIRE(matches_alike(*derived_index, fresh),
                               "trigger index: seed " << seed << ", sequence " << q << ", step " << step << "\n" << done);
        }
    }
    return derived;
}

/// How many random sequences each layout runs: SKILLMD_PROPERTY_SEQUENCES, or a number CI
/// can afford. scripts/property.sh runs thousands.
int property_sequences()
{
    if (char const* n = std::getenv("SKILLMD_PROPERTY_SEQUENCES")) return std::max(1, std::atoi(n));
    return 40;
}
unsigned property_seed()
{
    if (char const* n = std::getenv("SKILLMD_PROPERTY_SEED")) return static_cast<unsigned>(std::strtoul(n, nullptr, 10));
    return 20261128;
}

// Gating is checked again at every refresh for shadowed and disabled skills too: their
// `hidden` and its report follow the environment as a first load's do.
BOOST_AUTO_TEST_CASE(requirements_are_checked_again_for_shadowed_and_disabled_skills)
{
    temp_dir t;
    std::string const gated = "sven:\n  requires_env: [SKILLMD_TEST_SHADOWED_GATE]\n";
    write(t / "a/alpha/SKILL.md", skill("alpha", "gated, shadowed", gated));
    write(t / "b/alpha/SKILL.md", skill("alpha", "the winner"));
    write(t / "b/off/SKILL.md", skill("off", "gated, off", gated));
    directory_options o;
    o.layout = layout::nested;
    auto opts = lenient(dialects::sven());
    opts.overrides.add({"user settings", "", {{"off", false, override_mode::off}}});
    using reg_t = basic_registry<parser, highest_tier_wins, directory_source, directory_source>;
    auto const sources = [&] {
        return std::pair{directory_source("a", (t / "a").string(), o), directory_source("b", (t / "b").string(), o)};
    };
    auto const first_load = [&] {
        auto [fa, fb] = sources();
        reg_t first(parser{}, opts, fa, fb);
        first.load();
        return whole(*first.snapshot());
    };
    auto [a, b] = sources();
    reg_t reg(parser{}, opts, a, b);
    ::unsetenv("SKILLMD_TEST_SHADOWED_GATE");
    reg.load();
    reg.refresh();
    reg.refresh();
    BOOST_TEST_REQUIRE(reg.snapshot()->shadowed().size() == 1u);
    BOOST_TEST(reg.snapshot()->shadowed()[0].hidden);
    BOOST_TEST_REQUIRE(reg.snapshot()->disabled().size() == 1u);
    BOOST_TEST(reg.snapshot()->disabled()[0].hidden);
    ::setenv("SKILLMD_TEST_SHADOWED_GATE", "1", 1);
    reg.refresh();
    BOOST_TEST(!reg.snapshot()->shadowed()[0].hidden);
    BOOST_TEST(!reg.snapshot()->disabled()[0].hidden);
    BOOST_TEST(whole(*reg.snapshot()) == first_load());
    write(t / "b/alpha/SKILL.md", skill("alpha", "the winner, edited: the shadowed copy is gated and met"));
    reg.refresh();
    BOOST_TEST(whole(*reg.snapshot()) == first_load());
    ::unsetenv("SKILLMD_TEST_SHADOWED_GATE");
    reg.refresh();
    BOOST_TEST(reg.snapshot()->shadowed()[0].hidden);
    BOOST_TEST(whole(*reg.snapshot()) == first_load());
}

BOOST_AUTO_TEST_CASE(an_edited_skill_is_derived_without_a_walk_and_other_changes_walk_again)
{
    temp_dir t;
    for (char const* n : {"alpha", "beta", "gamma"}) write(t / n / "SKILL.md", skill(n, "v1"));
    write(t / "gamma/notes.txt", "a bundled file");
    walk_counting_dir src{directory_source("t", t.path.string())};
    basic_registry<parser, first_tier_wins, walk_counting_dir> reg(parser{}, lenient(), src);
    reg.load();
    reg.refresh();
    reg.refresh();
    auto const before = reg.snapshot();
    int const walks = *src.walks;
    write(t / "beta/SKILL.md", skill("beta", "v2"));
    reg.refresh();
    auto const after = reg.snapshot();
    BOOST_TEST(*src.walks == walks); // read, not walked
    BOOST_TEST(after->find("beta")->meta.description == "v2");
    BOOST_TEST(&*after->find("alpha") == &*before->find("alpha")); // the records of the others are shared
    auto const first_load = [&] {
        basic_registry<parser, first_tier_wins, walk_counting_dir> first(parser{}, lenient(), walk_counting_dir{directory_source("t", t.path.string())});
        first.load();
        return whole(*first.snapshot());
    };
    BOOST_TEST(whole(*after) == first_load());
    write(t / "gamma/notes.txt", "a bundled file, edited: nothing a snapshot holds");
    reg.refresh();
    BOOST_TEST(*src.walks == walks);
    BOOST_TEST(reg.snapshot() == after); // nothing to derive: the snapshot stands
    write(t / "gamma/SKILL.md", "---\nname: gamma\ndescription: [broken\n---\n"); // it now says why it is no skill
    reg.refresh();
    BOOST_TEST(*src.walks == walks); // what it says is put where a first load puts it
    BOOST_TEST(reg.snapshot()->find("gamma") == nullptr);
    BOOST_TEST(whole(*reg.snapshot()) == first_load());
    write(t / "delta/SKILL.md", skill("delta", "new"));
    reg.refresh();
    BOOST_TEST(reg.snapshot()->find("delta") != nullptr);
    BOOST_TEST(whole(*reg.snapshot()) == first_load());
    // A second name made after the watches were set, and written through: the change
    // reaches no watched folder, only the file's own watch.
    reg.refresh();
    temp_dir elsewhere;
    fs::create_hard_link(t / "alpha/SKILL.md", elsewhere / "alpha.md");
    reg.refresh();
    std::ofstream(elsewhere / "alpha.md", std::ios::binary | std::ios::trunc) << skill("alpha", "written through the other name");
    reg.refresh();
    BOOST_TEST(reg.snapshot()->find("alpha")->meta.description == "written through the other name");
    BOOST_TEST(whole(*reg.snapshot()) == first_load());
}

// Skill files made and removed where the last walk looked, in every layout, and the files
// editors make beside them: derived without a walk, and equal to a first load. What a
// skill added this way cannot be without the others' help (a name another skill has)
// walks again.
BOOST_AUTO_TEST_CASE(skills_made_and_removed_in_known_folders_are_derived_without_a_walk)
{
    auto const check = [](layout lay, dialect const& dia, std::function<void(fs::path const&)> const& make,
                          std::vector<std::function<void(fs::path const&)>> const& derived_steps,
                          std::function<void(skillmd::snapshot const&)> const& after_all) {
        temp_dir t;
        make(t.path);
        directory_options o;
        o.layout = lay;
        walk_counting_dir src{directory_source("t", t.path.string(), o)};
        using reg_t = basic_registry<parser, first_tier_wins, walk_counting_dir>;
        reg_t reg(parser{}, lenient(dia), src);
        reg.load();
        reg.refresh();
        reg.refresh();
        int const walks = *src.walks;
        for (std::size_t k = 0; k < derived_steps.size(); ++k) {
            derived_steps[k](t.path);
            reg.refresh();
            BOOST_TEST(*src.walks == walks, "step " << k << " walked");
            reg_t first(parser{}, lenient(dia), walk_counting_dir{directory_source("t", t.path.string(), o)});
            first.load();
            BOOST_TEST(whole(*reg.snapshot()) == whole(*first.snapshot()), "step " << k);
        }
        after_all(*reg.snapshot());
    };
    // Flat: a folder's SKILL.md made, saved by a rename, removed; swap files pass unseen.
    check(
        layout::flat, dialects::claude_code(),
        [](fs::path const& t) {
            for (char const* n : {"alpha", "beta", "gamma"}) write(t / n / "SKILL.md", skill(n, "v1"));
            write(t / "alpha/scripts/run.sh", "echo bundled");
            write(t / "iota/SKILL.md", "---\ndescription: named by its folder\n---\nbody\n");
            fs::create_directories(t / "delta");
            fs::create_directories(t / "theta");
        },
        {[](fs::path const& t) { write(t / "delta/SKILL.md", skill("delta", "made")); },
         [](fs::path const& t) {
             write(t / "beta/.SKILL.md.swp", "swap");
             fs::remove(t / "beta/.SKILL.md.swp");
             write(t / "beta/SKILL.md~", "backup");
             fs::create_directories(t / "beta/scripts");
         },
         [](fs::path const& t) {
             write(t / "beta/SKILL.md.tmp", skill("beta", "saved by a rename"));
             fs::rename(t / "beta/SKILL.md.tmp", t / "beta/SKILL.md");
         },
         [](fs::path const& t) { fs::remove(t / "gamma/SKILL.md"); },
         [](fs::path const& t) { write(t / "gamma/SKILL.md", skill("gamma", "back again")); },
         [](fs::path const& t) { write(t / "notes.txt", "a file beside the skill folders"); },
         // A skill folder made: watched, then its SKILL.md read; one made empty, then filled.
         [](fs::path const& t) { write(t / "epsilon/SKILL.md", skill("epsilon", "a new folder")); },
         [](fs::path const& t) { fs::create_directory(t / "zeta"); },
         [](fs::path const& t) { write(t / "zeta/SKILL.md", skill("zeta", "filled later")); },
         // Skill folders removed with what they bundle, renamed, made again; an empty one removed.
         [](fs::path const& t) { fs::remove_all(t / "alpha"); },
         [](fs::path const& t) { fs::rename(t / "iota", t / "kappa"); },
         [](fs::path const& t) { fs::remove(t / "theta"); },
         [](fs::path const& t) { write(t / "alpha/SKILL.md", skill("alpha", "made again")); },
         // Renamed over an empty skill folder (rename(2) replaces it), and over one that was
         // empty and now holds the skill renamed there before.
         [](fs::path const& t) { fs::create_directory(t / "lambda"); },
         [](fs::path const& t) { fs::rename(t / "kappa", t / "lambda"); },
         [](fs::path const& t) { fs::create_directory(t / "mu"); },
         [](fs::path const& t) { fs::rename(t / "lambda", t / "mu"); }},
        [](skillmd::snapshot const& s) {
            BOOST_TEST(s.find("epsilon")->meta.description == "a new folder");
            BOOST_TEST(s.find("zeta")->meta.description == "filled later");
            BOOST_TEST(s.find("delta")->meta.description == "made");
            BOOST_TEST(s.find("beta")->meta.description == "saved by a rename");
            BOOST_TEST(s.find("gamma")->meta.description == "back again");
            BOOST_TEST(s.find("alpha")->meta.description == "made again");
            BOOST_TEST(s.find("mu") != nullptr); // iota's, renamed to kappa, then over lambda and mu
            for (char const* gone : {"iota", "kappa", "lambda"}) BOOST_TEST(s.find(gone) == nullptr);
            BOOST_TEST(s.skills().size() == 7u);
        });
    // Nested: a sub-skill made and removed under a listed parent, whose children follow.
    check(
        layout::nested, dialects::sven(),
        [](fs::path const& t) {
            write(t / "p/SKILL.md", skill("p", "parent"));
            write(t / "p/a/SKILL.md", skill("a", "child"));
            fs::create_directories(t / "p/b");
            fs::create_directories(t / "q/r");
            write(t / "q/r/SKILL.md", skill("r", "orphan for now"));
        },
        {[](fs::path const& t) { write(t / "p/b/SKILL.md", skill("b", "second child")); },
         [](fs::path const& t) { write(t / "q/SKILL.md", skill("q", "a parent made above its child")); },
         [](fs::path const& t) { fs::remove(t / "p/a/SKILL.md"); },
         [](fs::path const& t) { write(t / "p/b/.SKILL.md.swp", "swap"); }},
        [](skillmd::snapshot const& s) {
            BOOST_TEST(s.find("p")->children.size() == 1u);
            BOOST_TEST(s.find("q")->children.size() == 1u);
            BOOST_TEST(s.find("p/a") == nullptr);
        });
    // Files: a Markdown file made and removed at the root; any other file is no skill.
    check(
        layout::files, dialects::agent_skills(),
        [](fs::path const& t) { write(t / "one.md", skill("one", "v1")); },
        {[](fs::path const& t) { write(t / "two.md", skill("two", "made")); },
         [](fs::path const& t) { fs::remove(t / "one.md"); },
         [](fs::path const& t) { write(t / "readme.txt", "not a skill"); }},
        [](skillmd::snapshot const& s) {
            BOOST_TEST(s.find("two") != nullptr);
            BOOST_TEST(s.find("one") == nullptr);
        });
}

// A parent skill an override matches, renamed in place: its record is made three times
// over (read, overridden, given its sub-skills) and the names table views the last.
BOOST_AUTO_TEST_CASE(an_overridden_parent_renamed_in_place_is_derived)
{
    temp_dir t;
    write(t / "p/SKILL.md", skill("first", "the parent"));
    write(t / "p/c/SKILL.md", skill("c", "a sub-skill"));
    write(t / "q/SKILL.md", skill("shared", "another"));
    write(t / "r/SKILL.md", skill("shared", "and another"));
    directory_options o;
    o.layout = layout::nested;
    auto opts = lenient(dialects::claude_code());
    opts.overrides.add({"user settings", "", {{"p", false, override_mode::name_only}}});
    walk_counting_dir src{directory_source("t", t.path.string(), o)};
    using reg_t = basic_registry<parser, first_tier_wins, walk_counting_dir>;
    reg_t reg(parser{}, opts, src);
    reg.load();
    reg.refresh();
    reg.refresh();
    int const walks = *src.walks;
    for (char const* n : {"second", "shared", "third", "first"}) {
        write(t / "p/SKILL.md", skill(n, std::string("named ") + n));
        reg.refresh();
        reg_t first(parser{}, opts, walk_counting_dir{directory_source("t", t.path.string(), o)});
        first.load();
        BOOST_TEST(whole(*reg.snapshot()) == whole(*first.snapshot()), n);
        BOOST_TEST_REQUIRE(reg.snapshot()->find("p") != nullptr);
        BOOST_TEST(reg.snapshot()->find("p")->overridden != nullptr);
        BOOST_TEST(reg.snapshot()->find("p")->children.size() == 1u);
    }
    BOOST_TEST(*src.walks == walks); // each a rename in place, counted out and in
    BOOST_TEST_REQUIRE(reg.snapshot()->find("first") != nullptr);
    BOOST_TEST(reg.snapshot()->find("first")->command == "p");
    BOOST_TEST(reg.snapshot()->find("shared") == nullptr);
}

/// One watched Claude Code tier, changed a step at a time: each step a change, a refresh
/// that walks or not, a comparison with a first load, and a refresh that sets the watches
/// again after a walk.
struct stepped_claude_tier
{
    using reg_t = basic_registry<parser, first_tier_wins, walk_counting_dir>;
    explicit stepped_claude_tier(fs::path root)
        : tier(std::move(root)), src{directory_source("t", tier.string())}, reg(parser{}, lenient(dialects::claude_code()), src)
    {
        reg.load();
        reg.refresh();
        reg.refresh();
    }
    std::string first_load() const
    {
        reg_t first(parser{}, lenient(dialects::claude_code()), walk_counting_dir{directory_source("t", tier.string())});
        first.load();
        return whole(*first.snapshot());
    }
    void step(std::string const& what, std::function<void()> const& change, bool walks)
    {
        int const before = *src.walks;
        change();
        reg.refresh();
        BOOST_TEST((*src.walks > before) == walks, what);
        BOOST_TEST(whole(*reg.snapshot()) == first_load(), what);
        reg.refresh();
    }
    fs::path tier;
    walk_counting_dir src;
    reg_t reg;
};

// What only a walk gets right walks: a skill that looks like another by case, folders a
// walk must judge, a link made at the root. Names shared or hidden are counted instead.
BOOST_AUTO_TEST_CASE(skills_made_that_touch_others_walk_again)
{
    temp_dir t;
    for (char const* n : {"alpha", "beta"}) write(t / n / "SKILL.md", skill(n, "v1"));
    for (char const* n : {"gamma", "Alpha", "eta", "s1", "delta", "zeta"}) fs::create_directories(t / n);
    write(t / "S1/SKILL.md", skill("S1", "by case, with a digit"));
    stepped_claude_tier w(t.path);
    auto& reg = w.reg;
    int steps = 0;
    auto const step = [&](std::function<void()> const& change, bool walks) { w.step("step " + std::to_string(++steps), change, walks); };
    step([&] { write(t / "eta/SKILL.md", skill("eta", "alone")); }, false);
    step([&] { write(t / "s1/SKILL.md", skill("s1", "looks like S1")); }, true);
    step([&] { write(t / "Alpha/SKILL.md", skill("Alpha", "alpha by another case")); }, true);
    step([&] { fs::remove(t / "Alpha/SKILL.md"); }, true); // its look-alike report goes
    // Names shared, or hidden by a command, are counted: they come and go alone, and a name
    // come down to one skill (a command gone, a bearer renamed or removed) finds it.
    step([&] { write(t / "gamma/SKILL.md", skill("beta", "named as beta's command")); }, false);
    step([&] { write(t / "eta/SKILL.md", skill("eta", "edited")); }, false);
    step([&] { fs::remove(t / "eta/SKILL.md"); }, false);
    step([&] { fs::remove(t / "gamma/SKILL.md"); }, false);
    step([&] { write(t / "gamma/SKILL.md", skill("beta", "named as beta's command, again")); }, false);
    BOOST_TEST(reg.snapshot()->find("beta")->command == "beta");
    step([&] { fs::remove(t / "beta/SKILL.md"); }, false); // `beta` finds gamma now
    BOOST_TEST(reg.snapshot()->find("beta")->command == "gamma");
    step([&] { write(t / "delta/SKILL.md", skill("beta", "a second beta")); }, false);
    BOOST_TEST(reg.snapshot()->find("beta") == nullptr); // shared: finds none
    step([&] { write(t / "zeta/SKILL.md", skill("beta", "a third beta")); }, false);
    step([&] { fs::remove(t / "zeta/SKILL.md"); }, false);
    step([&] { write(t / "gamma/SKILL.md", skill("other", "renamed")); }, false); // `beta` comes down to delta
    BOOST_TEST(reg.snapshot()->find("beta")->command == "delta");
    BOOST_TEST(reg.snapshot()->find("other")->command == "gamma");
    step([&] { write(t / "zeta/SKILL.md", skill("beta", "a third beta, again")); }, false);
    step([&] { fs::remove(t / "delta/SKILL.md"); }, false); // `beta` comes down to zeta
    BOOST_TEST(reg.snapshot()->find("beta")->command == "zeta");
    step([&] { write(t / "beta/SKILL.md", skill("beta", "back")); }, false); // hides zeta's name
    step([&] { fs::remove_all(t / "eta"); }, false); // a folder removed: only its skill goes
    // Folders made that only a walk can judge: a link made in a new folder, a name that is
    // not printable. A misnamed skill file is read, and its read says why it is none.
    step([&] {
        fs::create_directory(t / "linked");
        fs::create_symlink("../zeta/SKILL.md", t / "linked/SKILL.md");
    }, true);
    step([&] { fs::remove_all(t / "linked"); }, true);
    step([&] { write(t / "misnamed/skill.md", skill("misnamed", "says why not")); }, false);
    step([&] { fs::create_directory(t / "bad\x01name"); }, true);
    step([&] { fs::create_directory_symlink(t / "beta", t / "beta-link"); }, true);
    BOOST_TEST(reg.snapshot()->find("gamma") != nullptr);
}

// A store with a name beyond ASCII compares look-alikes by their Unicode skeletons (`rn`
// looks like `m`): a skill that looks like no other comes and goes without a walk, found so
// in the snapshot's table of skeletons; one that looks like another walks, and so does the
// last name beyond ASCII going (case decides again then).
BOOST_AUTO_TEST_CASE(names_beyond_ascii_come_and_go_without_a_walk_unless_they_look_alike)
{
    temp_dir t;
    write(t / "caf\xc3\xa9/SKILL.md", skill("caf\xc3\xa9", "beyond ASCII"));
    write(t / "m/SKILL.md", skill("m", "plain"));
    for (char const* n : {"na\xc3\xafve", "rn", "tea", "Tea"}) fs::create_directories(t / n);
    stepped_claude_tier w(t.path);
    auto const step = [&](char const* what, std::function<void()> const& change, bool walks) { w.step(what, change, walks); };
    step("an ASCII name alone", [&] { write(t / "tea/SKILL.md", skill("tea", "alone")); }, false);
    step("a second name beyond ASCII", [&] { write(t / "na\xc3\xafve/SKILL.md", skill("na\xc3\xafve", "alone too")); }, false);
    step("edited", [&] { write(t / "tea/SKILL.md", skill("tea", "edited")); }, false);
    step("a look-alike of m", [&] { write(t / "rn/SKILL.md", skill("rn", "looks like m")); }, true);
    step("the look-alike gone", [&] { fs::remove(t / "rn/SKILL.md"); }, true);
    step("an ASCII name gone", [&] { fs::remove(t / "tea/SKILL.md"); }, false);
    step("a name beyond ASCII gone, one left", [&] { fs::remove(t / "caf\xc3\xa9/SKILL.md"); }, false);
    step("the last name beyond ASCII gone", [&] { fs::remove(t / "na\xc3\xafve/SKILL.md"); }, true);
    step("by case again: an ASCII name alone", [&] { write(t / "tea/SKILL.md", skill("tea", "back")); }, false);
    step("by case again: a look-alike", [&] { write(t / "Tea/SKILL.md", skill("Tea", "tea by another case")); }, true);
}

// An edit that kept the size, with its modification time put back (`cp -p`, `touch -r`),
// is read again by a refresh that walks: the status change time moved, and no program
// sets it back. With both walkers, and with the walk forced by a link made at the root.
BOOST_AUTO_TEST_CASE(a_skill_file_written_between_the_walk_and_its_read_is_what_a_first_load_finds)
{
    // A folder holding only a lower-case `skill.md`: the walk lists its SKILL.md as a guess
    // the read must confirm, and the file is written just before that read.
    temp_dir root;
    fs::path const t = root / "one", u = root / "two";
    write(t / "a/SKILL.md", skill("a", "plain"));
    fs::create_directories(u);
    directory_options o;
    o.layout = layout::nested;
    two_watched_tiers<highest_tier_wins> w("one", t, "two", u, lenient(dialects::sven()), o);
    w.load();
    write(t / "x/skill.md", skill("x", "lower case"));
    w.refresh(2, "a folder with a lower-case skill.md: both tiers walk");
    bool written = false;
    *w.tiers.first.before_read = [&] {
        if (!written) write(t / "x/SKILL.md", skill("x", "written meanwhile"));
        written = true;
    };
    write(t / "x/skill.md", skill("x", "lower case, edited"));
    w.reg.refresh();
    *w.tiers.first.before_read = nullptr;
    BOOST_TEST_REQUIRE(written);
    BOOST_TEST(whole(*w.reg.snapshot()) == w.first_load());
    BOOST_TEST(w.reg.snapshot()->find("x")->where.confirmed);
}

BOOST_AUTO_TEST_CASE(an_edit_with_its_time_put_back_is_read_again)
{
    for (auto const walker : {directory_walker::posix, directory_walker::boost_filesystem}) {
        temp_dir t;
        for (char const* n : {"a", "c"}) write(t / n / "SKILL.md", skill(n, "first"));
        auto const old = fs::last_write_time(t / "a/SKILL.md") - std::chrono::seconds(100);
        fs::last_write_time(t / "a/SKILL.md", old);
        directory_options o;
        o.walker = walker;
        using reg_t = basic_registry<parser, first_tier_wins, directory_source>;
        reg_t reg(parser{}, lenient(dialects::claude_code()), directory_source("t", t.path.string(), o));
        reg.load();
        reg.refresh();
        reg.refresh();
        {
            std::fstream f(t / "a/SKILL.md", std::ios::in | std::ios::out | std::ios::binary); // in place: the same inode
            f << skill("a", "other");
        }
        fs::last_write_time(t / "a/SKILL.md", old);
        fs::remove_all(t / "c");
        fs::create_symlink(t / "nowhere", t / "stray");
        reg.refresh();
        BOOST_TEST_REQUIRE(reg.snapshot()->find("a") != nullptr);
        BOOST_TEST(reg.snapshot()->find("a")->meta.description == "other", static_cast<int>(walker));
        BOOST_TEST(reg.snapshot()->find("c") == nullptr);
    }
}

// A mount over a skill folder, over the tier's root or over a folder above it changes
// what its paths hold with no inotify event: the mount table says so, and the refresh
// walks. A mount elsewhere changes nothing the tier reads: an edit is still derived
// without a walk. (As root only: the test is passed over where mount(2) is refused.)
BOOST_AUTO_TEST_CASE(a_mount_over_a_watched_folder_is_seen)
{
    temp_dir t;
    fs::path const tier = t / "up/tier";
    for (char const* n : {"a", "b"}) write(tier / n / "SKILL.md", skill(n, "under"));
    write(t / "other/a/SKILL.md", skill("a", "mounted"));
    write(t / "root/q/SKILL.md", skill("q", "a whole tier mounted"));
    write(t / "up2/tier/u/SKILL.md", skill("u", "a folder above the tier mounted"));
    fs::create_directories(t / "elsewhere");
    walk_counting_dir src{directory_source("t", tier.string())};
    using reg_t = basic_registry<parser, first_tier_wins, walk_counting_dir>;
    reg_t reg(parser{}, lenient(dialects::claude_code()), src);
    reg.load();
    reg.refresh();
    reg.refresh();
    auto const first_load = [&] {
        reg_t first(parser{}, lenient(dialects::claude_code()), walk_counting_dir{directory_source("t", tier.string())});
        first.load();
        return whole(*first.snapshot());
    };
    struct bind_mount // taken off at the end whatever happens, before the folders go
    {
        fs::path at;
        bool on;
        bind_mount(fs::path const& from, fs::path to) : at(std::move(to)), on(::mount(from.c_str(), at.c_str(), nullptr, MS_BIND, nullptr) == 0) {}
        bool off() { return on && !(on = ::umount2(at.c_str(), MNT_DETACH) != 0); }
        ~bind_mount() { off(); }
    };
    reg.refresh(); // reads nothing: a mount from now on is judged by where it is
    {
        bind_mount elsewhere(t / "other", t / "elsewhere");
        if (!elsewhere.on) {
            BOOST_TEST_MESSAGE("mount(2) refused (" << std::strerror(errno) << "): not tested here");
            return;
        }
        int const walks = *src.walks;
        write(tier / "b/SKILL.md", skill("b", "edited"));
        reg.refresh();
        BOOST_TEST(whole(*reg.snapshot()) == first_load());
        reg.refresh(); // nothing read since: a mount is judged by where it is
        BOOST_TEST(elsewhere.off());
        write(tier / "b/SKILL.md", skill("b", "under"));
        reg.refresh();
        BOOST_TEST(whole(*reg.snapshot()) == first_load());
        BOOST_TEST(*src.walks == walks); // read without a walk, both times
    }
    {
        // Mounted over a skill folder while the refresh reads its file, and taken off
        // before the next: the table is as it was, but what was read is not there now.
        write(tier / "a/SKILL.md", skill("a", "v2"));
        std::optional<bind_mount> during;
        *src.before_read = [&] {
            if (!during) during.emplace(t / "other/a", tier / "a");
        };
        reg.refresh();
        *src.before_read = nullptr;
        BOOST_TEST_REQUIRE(during->on);
        BOOST_TEST(reg.snapshot()->find("a")->meta.description == "mounted"); // read through it
        BOOST_TEST(during->off());
        reg.refresh();
        BOOST_TEST(reg.snapshot()->find("a")->meta.description == "v2");
        BOOST_TEST(whole(*reg.snapshot()) == first_load());
        write(tier / "a/SKILL.md", skill("a", "under"));
        reg.refresh();
        reg.refresh();
    }
    {
        bind_mount over_a(t / "other/a", tier / "a");
        BOOST_TEST_REQUIRE(over_a.on);
        reg.refresh();
        BOOST_TEST(whole(*reg.snapshot()) == first_load());
        BOOST_TEST(reg.snapshot()->find("a")->meta.description == "mounted");
        reg.refresh();
        BOOST_TEST(over_a.off());
        reg.refresh();
        BOOST_TEST(whole(*reg.snapshot()) == first_load());
        BOOST_TEST(reg.snapshot()->find("a")->meta.description == "under");
        reg.refresh();
    }
    {
        bind_mount above(t / "up2", t / "up");
        BOOST_TEST_REQUIRE(above.on);
        reg.refresh();
        BOOST_TEST(whole(*reg.snapshot()) == first_load());
        BOOST_TEST(reg.snapshot()->find("u") != nullptr);
        BOOST_TEST(reg.snapshot()->find("a") == nullptr);
        reg.refresh();
        BOOST_TEST(above.off());
        reg.refresh();
        BOOST_TEST(whole(*reg.snapshot()) == first_load());
        BOOST_TEST(reg.snapshot()->find("a") != nullptr);
        reg.refresh();
    }
    bind_mount over_root(t / "root", tier);
    BOOST_TEST_REQUIRE(over_root.on);
    reg.refresh();
    BOOST_TEST(whole(*reg.snapshot()) == first_load());
    BOOST_TEST(reg.snapshot()->find("q") != nullptr);
    BOOST_TEST(reg.snapshot()->find("b") == nullptr);
    write(t / "root/r/SKILL.md", skill("r", "made in the mounted tier"));
    reg.refresh();
    BOOST_TEST(reg.snapshot()->find("r") != nullptr); // watched there too
    BOOST_TEST(over_root.off());
    reg.refresh();
    BOOST_TEST(whole(*reg.snapshot()) == first_load());
    BOOST_TEST(reg.snapshot()->find("b") != nullptr);
}

// A folder above the tier's root renamed away takes the tier with it and leaves the
// root's path to whatever is made there next, with no event in the tier: each refresh
// asks what the root's path names, and walks when it is another folder. What was renamed
// away is no longer watched: a change there costs no walk.
BOOST_AUTO_TEST_CASE(a_folder_above_the_root_renamed_or_removed_is_seen)
{
    for (auto const shape : {layout::flat, layout::nested, layout::files}) {
        temp_dir t;
        fs::path const tier = t / "up/mid/tier";
        auto const put = [&](fs::path const& root, char const* n, char const* text) {
            write(shape == layout::files ? root / (std::string(n) + ".md") : root / n / "SKILL.md", skill(n, text));
        };
        put(tier, "a", "first");
        directory_options o;
        o.layout = shape;
        walk_counting_dir src{directory_source("t", tier.string(), o)};
        using reg_t = basic_registry<parser, first_tier_wins, walk_counting_dir>;
        reg_t reg(parser{}, lenient(dialects::claude_code()), src);
        auto const first_load = [&] {
            reg_t first(parser{}, lenient(dialects::claude_code()), walk_counting_dir{directory_source("t", tier.string(), o)});
            first.load();
            return whole(*first.snapshot());
        };
        // One refresh: `walks` walks, and what a first load gives.
        auto const refresh = [&](int walks) {
            int const before = *src.walks;
            reg.refresh();
            BOOST_TEST(*src.walks == before + walks, "layout " << static_cast<int>(shape));
            BOOST_TEST(whole(*reg.snapshot()) == first_load());
        };
        auto const settle = [&] { // a walk sets watches anew: the refresh after it walks once more
            reg.refresh();
            reg.refresh();
            int const walks = *src.walks;
            reg.refresh();
            BOOST_TEST_REQUIRE(*src.walks == walks, "layout " << static_cast<int>(shape));
        };
        reg.load();
        settle();
        put(tier, "a", "second");
        refresh(0); // the watch vouches for the tier: an edit is derived

        fs::rename(t / "up/mid", t / "up/mid.old"); // the parent renamed, the root made again
        put(tier, "b", "in a new root");
        refresh(1);
        BOOST_TEST(reg.snapshot()->find("a") == nullptr);
        settle();

        put(t / "up/mid.old/tier", "a", "edited where it went"); // no longer the tier
        put(t / "up/mid.old/tier", "e", "made where it went");
        refresh(0);

        fs::rename(t / "up", t / "up.old"); // two levels above
        put(tier, "c", "in another");
        refresh(1);
        BOOST_TEST(reg.snapshot()->find("b") == nullptr);
        settle();

        fs::rename(t / "up.old", t / "up.older"); // above the old root only
        fs::rename(t / "up.older/mid.old", t / "up.older/gone");
        refresh(0);

        fs::remove_all(t / "up"); // removed with the tier, then made again
        put(tier, "d", "after a removal");
        reg.refresh();
        BOOST_TEST(whole(*reg.snapshot()) == first_load());
        BOOST_TEST(reg.snapshot()->find("d") != nullptr);
        BOOST_TEST(reg.snapshot()->find("c") == nullptr);
    }
}

// Nested: a folder made, renamed or removed is walked alone, with what is below it; what
// only a whole walk can judge (a link, a bound, a name in another case) still walks.
BOOST_AUTO_TEST_CASE(a_skill_shadowing_or_shadowed_is_resolved_again_with_its_command_alone)
{
    temp_dir t;
    fs::path const user = t / "user", project = t / "project";
    for (char const* n : {"alpha", "beta"}) write(user / n / "SKILL.md", skill(n, std::string("user's ") + n));
    write(project / "alpha/SKILL.md", skill("alpha", "project's alpha"));
    write(project / "gamma/SKILL.md", skill("gamma", "project's gamma"));
    two_watched_tiers<first_tier_wins> w("user", user, "project", project, lenient(dialects::claude_code()));
    auto& reg = w.reg;
    auto const refresh = [&w](int walks, char const* what) { w.refresh(walks, what); };
    w.load();
    auto const shadowed_by = [&](std::string_view command) {
        auto const& s = reg.snapshot()->shadowed();
        std::string out;
        for (auto const& r : s)
            if (r.command == command) out += std::string(r.tier) + ">" + std::string(r.shadowed_by) + " ";
        return out;
    };
    auto const reports = [&] {
        std::size_t n = 0;
        for (auto const& d : reg.snapshot()->diagnostics()) n += d.code == codes::skill_shadowed;
        return n;
    };
    BOOST_TEST_REQUIRE(shadowed_by("alpha") == "project>alpha@user ");

    write(project / "beta/SKILL.md", skill("beta", "project's beta"));
    refresh(0, "a project skill made under a user skill: shadowed");
    BOOST_TEST(shadowed_by("beta") == "project>beta@user ");
    BOOST_TEST(reports() == 2u);
    BOOST_TEST(reg.snapshot()->find("beta")->meta.description == "user's beta");

    write(user / "gamma/SKILL.md", skill("gamma", "user's gamma"));
    refresh(0, "a user skill made over a project skill: it wins, the project's is shadowed");
    BOOST_TEST(reg.snapshot()->find("gamma")->meta.description == "user's gamma");
    BOOST_TEST(reg.snapshot()->find("gamma@project")->meta.description == "project's gamma");
    BOOST_TEST(reports() == 3u);

    write(project / "alpha/SKILL.md", skill("alpha", "project's alpha, edited"));
    refresh(0, "the shadowed copy edited");
    BOOST_TEST(reg.snapshot()->find("alpha@project")->meta.description == "project's alpha, edited");
    write(user / "alpha/SKILL.md", skill("alpha", "user's alpha, edited"));
    refresh(0, "the winner edited");
    BOOST_TEST(reg.snapshot()->find("alpha")->meta.description == "user's alpha, edited");
    write(user / "alpha/SKILL.md", skill("first", "user's alpha, named first"));
    refresh(0, "the winner given a name: counted in");
    BOOST_TEST(reg.snapshot()->find("first")->command == "alpha");

    fs::remove_all(user / "alpha");
    refresh(0, "the winner removed: the shadowed copy wins back, named as it is");
    BOOST_TEST(reg.snapshot()->find("alpha")->meta.description == "project's alpha, edited");
    BOOST_TEST(reg.snapshot()->find("first") == nullptr);
    BOOST_TEST(shadowed_by("alpha").empty());
    fs::remove(project / "beta/SKILL.md");
    refresh(0, "the shadowed copy's file removed, its folder kept");
    BOOST_TEST(shadowed_by("beta").empty());
    BOOST_TEST(reports() == 1u);
    write(project / "beta/SKILL.md", skill("beta", "project's beta, back"));
    refresh(0, "and made again");
    BOOST_TEST(reports() == 2u);

    // What only a full load gets right still takes one: both tiers walked.
    write(project / "Gamma/SKILL.md", skill("Gamma", "looks like gamma"));
    refresh(2, "a look-alike of a shadowed command");
    fs::remove_all(project / "Gamma");
    refresh(2, "and removed");
    write(user / "beta/SKILL.md", "---\nname: beta\ndescription: [never closed\n---\n");
    refresh(0, "the winner now says why it is no skill: the shadowed copy wins, what it says put in its place");
    BOOST_TEST(reg.snapshot()->find("beta")->meta.description == "project's beta, back");
    write(user / "beta/SKILL.md", skill("beta", "user's beta, mended"));
    refresh(0, "and mended");
    fs::remove_all(user / "gamma");
    refresh(0, "the user's gamma removed");
    BOOST_TEST(reports() == 1u);
}

// Codex keeps every copy of a name, each listed as `name@tier` (one alone as `name`): a copy
// made, edited or removed lists its group anew without a walk, the others renamed as a
// first load names them and the name they share counted, copies in one tier included.
BOOST_AUTO_TEST_CASE(copies_kept_in_every_tier_are_listed_again_with_their_command_alone)
{
    temp_dir t;
    fs::path const repo = t / "repo", user = t / "user", admin = t / "admin";
    write(user / "alpha/SKILL.md", skill("alpha", "user's alpha"));
    write(user / "beta/SKILL.md", skill("beta", "user's beta"));
    write(repo / "beta/SKILL.md", skill("beta", "repo's beta"));
    fs::create_directories(admin);
    using reg_t = basic_registry<parser, keep_every_copy, walk_counting_dir, walk_counting_dir, walk_counting_dir>;
    struct tiers_t
    {
        walk_counting_dir repo, user, admin;
    };
    auto const sources = [&] {
        return tiers_t{walk_counting_dir{directory_source("repo", repo.string())}, walk_counting_dir{directory_source("user", user.string())},
                       walk_counting_dir{directory_source("admin", admin.string())}};
    };
    tiers_t tiers = sources();
    reg_t reg(parser{}, lenient(dialects::codex_0_169()), tiers.repo, tiers.user, tiers.admin);
    auto const first_load = [&] {
        tiers_t f = sources();
        reg_t first(parser{}, lenient(dialects::codex_0_169()), f.repo, f.user, f.admin);
        first.load();
        return whole(*first.snapshot());
    };
    auto const walks = [&] { return *tiers.repo.walks + *tiers.user.walks + *tiers.admin.walks; };
    auto const refresh = [&](int walked, char const* what) {
        int const before = walks();
        reg.refresh();
        BOOST_TEST(walks() == before + walked, what);
        BOOST_TEST(whole(*reg.snapshot()) == first_load(), what);
    };
    auto const listed = [&] {
        std::string out;
        for (auto const& r : reg.snapshot()->skills()) out += std::string(r.command) + " ";
        return out;
    };
    auto const description = [&](std::string_view command) {
        auto const* r = reg.snapshot()->find(command);
        return r ? std::string(r->meta.description) : std::string("(none)");
    };
    reg.load();
    reg.refresh();
    reg.refresh();
    BOOST_TEST_REQUIRE(listed() == "alpha beta@repo beta@user ");

    write(repo / "alpha/SKILL.md", skill("alpha", "repo's alpha"));
    refresh(0, "a second copy: both renamed for their tiers");
    BOOST_TEST(listed() == "alpha@repo alpha@user beta@repo beta@user ");
    BOOST_TEST(description("alpha") == "(none)"); // the name is shared
    BOOST_TEST(description("alpha@user") == "user's alpha");
    write(admin / "alpha/SKILL.md", skill("alpha", "admin's alpha"));
    refresh(0, "a third copy");
    BOOST_TEST(listed() == "alpha@admin alpha@repo alpha@user beta@repo beta@user ");
    write(repo / "alpha/SKILL.md", skill("alpha", "repo's alpha, edited"));
    refresh(0, "a copy edited");
    BOOST_TEST(description("alpha@repo") == "repo's alpha, edited");
    fs::remove_all(admin / "alpha");
    refresh(0, "a copy removed with its folder");
    BOOST_TEST(listed() == "alpha@repo alpha@user beta@repo beta@user ");
    fs::remove(user / "alpha/SKILL.md");
    refresh(0, "down to one copy: listed by its name again");
    BOOST_TEST(listed() == "alpha beta@repo beta@user ");
    BOOST_TEST(description("alpha") == "repo's alpha, edited");
    write(user / "gamma/SKILL.md", skill("alpha", "user's gamma folder, named alpha"));
    refresh(0, "a copy by its name in another folder");
    BOOST_TEST(description("alpha@user") == "user's gamma folder, named alpha");
    write(repo / "beta/SKILL.md", "---\nname: beta\ndescription: [never closed\n---\n");
    refresh(0, "a copy that says why it is no skill: the other is listed alone, what it says in its place");
    BOOST_TEST(listed() == "alpha@repo alpha@user beta ");
    write(repo / "beta/SKILL.md", skill("beta", "repo's beta, mended"));
    refresh(0, "and mended");
    BOOST_TEST(listed() == "alpha@repo alpha@user beta@repo beta@user ");
    write(user / "gamma/SKILL.md", skill("delta", "user's gamma folder, named delta"));
    refresh(0, "a copy named anew: its group down to one, its new name listed");
    BOOST_TEST(listed() == "alpha beta@repo beta@user delta ");
    write(user / "gamma/SKILL.md", skill("alpha", "user's gamma folder, named alpha again"));
    refresh(0, "and back");
    BOOST_TEST(listed() == "alpha@repo alpha@user beta@repo beta@user ");

    // Two copies in one tier: both listed as `beta@user` in the walk's order (by folder),
    // which names the first; each later one is reported. Derived, as a first load lists them.
    auto const copies_reported = [&] {
        std::string out;
        for (auto const& d : reg.snapshot()->diagnostics())
            if (d.code == codes::skill_duplicate) out += fs::path(d.file).parent_path().filename().string() + " ";
        return out;
    };
    write(user / "gamma/SKILL.md", skill("beta", "user's gamma folder, named beta"));
    refresh(0, "named as another copy in its tier");
    BOOST_TEST(listed() == "alpha beta@repo beta@user beta@user "); // alpha down to one copy
    BOOST_TEST(description("beta@user") == "user's beta");
    BOOST_TEST(copies_reported() == "gamma ");
    write(user / "a-beta/SKILL.md", skill("beta", "user's first beta by folder"));
    refresh(0, "a third copy, first in the walk");
    BOOST_TEST(listed() == "alpha beta@repo beta@user beta@user beta@user ");
    BOOST_TEST(description("beta@user") == "user's first beta by folder");
    BOOST_TEST(copies_reported() == "beta gamma ");
    write(user / "beta/SKILL.md", skill("beta", "user's beta, edited"));
    refresh(0, "the copy between edited");
    fs::remove_all(user / "a-beta");
    refresh(0, "the first removed");
    BOOST_TEST(description("beta@user") == "user's beta, edited");
    BOOST_TEST(copies_reported() == "gamma ");
    fs::remove_all(user / "gamma");
    refresh(0, "and the last");
    BOOST_TEST(copies_reported() == "");
    write(repo / "beta-2/SKILL.md", skill("beta", "repo's second beta"));
    refresh(0, "a second copy in the first tier");
    BOOST_TEST(copies_reported() == "beta-2 ");
    fs::remove_all(repo / "beta-2");
    refresh(0, "and removed");
    BOOST_TEST(listed() == "alpha beta@repo beta@user ");

    // A group of more copies than a refresh resolves again itself takes a first load's work.
    for (int k = 0; k < 70; ++k) write(user / numbered("zeta-", k) / "SKILL.md", skill("zeta", "copy " + std::to_string(k)));
    refresh(3, "seventy copies in one tier");
    auto const zeta_copies_reported = [&] {
        std::size_t n = 0;
        for (auto const& d : reg.snapshot()->diagnostics()) n += d.code == codes::skill_duplicate && d.message.find("`zeta`") != std::string::npos;
        return n;
    };
    BOOST_TEST(zeta_copies_reported() == 69u);
    write(user / "zeta-7/SKILL.md", skill("zeta", "copy 7, edited"));
    refresh(3, "one of seventy edited");
    for (int k = 60; k < 70; ++k) fs::remove_all(user / numbered("zeta-", k));
    refresh(3, "ten removed (the first leaves sixty-nine)");
    write(user / "zeta-0/SKILL.md", skill("zeta", "copy 0, edited"));
    refresh(0, "one of sixty edited: resolved again without a walk");
    BOOST_TEST(description("zeta@user") == "copy 0, edited");
    BOOST_TEST(zeta_copies_reported() == 59u);
}

/// One flat tier "one" at `root`, loaded, its watches set, its walks counted.
struct one_watched_flat_tier
{
    static directory_options flat()
    {
        directory_options o;
        o.layout = layout::flat;
        return o;
    }
    explicit one_watched_flat_tier(fs::path const& root) : dir{directory_source("one", root.string(), flat())}, reg(parser{}, lenient(), dir)
    {
        reg.load();
        reg.refresh();
        reg.refresh();
    }
    walk_counting_dir dir;
    basic_registry<parser, first_tier_wins, walk_counting_dir> reg;
};

// A refresh that changed one skill lists the others from the rows made for the last
// snapshot: only the chunk that holds the changed skill is read again for a listing.
// One folder as two tiers (Claude Code run from the home folder: the user's skills and the
// project's are one folder), or a tier's folder a link to another's: each skill is read in
// both, and the second copy dropped without a word as the first's very file. A change to
// such a command is resolved again with its dropped copy: no walk, as a first load gives.
BOOST_AUTO_TEST_CASE(copies_dropped_as_their_winners_file_are_resolved_again_without_a_walk)
{
    temp_dir t;
    fs::path const home = t / "home" / ".claude" / "skills";
    write(home / "alpha/SKILL.md", skill("alpha", "one"));
    write(home / "beta/SKILL.md", skill("beta", "two"));
    {
        two_watched_tiers<first_tier_wins> w("user", home, "project", home, lenient(dialects::claude_code()));
        auto const& reg = w.reg;
        auto const listed = [&] {
            std::string out;
            for (auto const& r : reg.snapshot()->skills()) out += std::string(r.command) + "@" + std::string(r.tier) + " ";
            return out + std::to_string(reg.snapshot()->shadowed().size()) + " shadowed";
        };
        w.load();
        BOOST_TEST_REQUIRE(listed() == "alpha@user beta@user 0 shadowed");
        write(home / "alpha/SKILL.md", skill("alpha", "edited"));
        w.refresh(0, "edited: read in both tiers, the second copy dropped again");
        BOOST_TEST(reg.snapshot()->find("alpha")->meta.description == "edited");
        write(home / "gamma/SKILL.md", skill("gamma", "new"));
        w.refresh(0, "made");
        fs::remove_all(home / "beta");
        w.refresh(0, "removed with its folder");
        BOOST_TEST(listed() == "alpha@user gamma@user 0 shadowed");
        write(home / "alpha/SKILL.md.new", skill("alpha", "saved by a rename"));
        fs::rename(home / "alpha/SKILL.md.new", home / "alpha/SKILL.md");
        w.refresh(0, "saved by a rename: another file, in both tiers");
        overrides rules;
        rules.add({"user settings", "", {{"alpha", false, override_mode::off}}});
        w.opts.overrides = rules;
        w.reg.set_overrides(std::move(rules));
        w.refresh(0, "off by name: both reads off");
        BOOST_TEST(reg.snapshot()->disabled().size() == 2u);
        w.opts.overrides = overrides{};
        w.reg.set_overrides(overrides{});
        w.refresh(0, "on again: one listed, the other dropped again");
        BOOST_TEST(listed() == "alpha@user gamma@user 0 shadowed");
    }
    // Codex keeps every copy, but one file reached through two roots counts once. Tier b's
    // `alpha` is a link to tier a's; replaced by a folder of its own, it is a copy kept.
    fs::path const a = t / "a", b = t / "b";
    write(a / "alpha/SKILL.md", skill("alpha", "a's"));
    fs::create_directories(b);
    fs::create_directory_symlink(a / "alpha", b / "alpha");
    directory_options o;
    o.allowed_roots = {a.string()};
    two_watched_tiers<keep_every_copy> w("a", a, "b", b, lenient(dialects::codex_0_169()), o);
    auto const commands = [&] {
        std::string out;
        for (auto const& r : w.reg.snapshot()->skills()) out += std::string(r.command) + " ";
        return out;
    };
    w.load();
    BOOST_TEST_REQUIRE(commands() == "alpha ");
    write(a / "alpha/SKILL.md", skill("alpha", "edited through either"));
    w.refresh(0, "edited: the copy through the link dropped again");
    fs::remove(b / "alpha");
    write(b / "alpha/SKILL.md", skill("alpha", "b's own"));
    w.refresh(0, "the link replaced by a folder: two copies, each listed by its tier");
    BOOST_TEST(commands() == "alpha@a alpha@b ");
    fs::remove_all(b / "alpha");
    fs::create_directory_symlink(a / "alpha", b / "alpha");
    w.refresh(0, "a link again: one copy");
    BOOST_TEST(commands() == "alpha ");
    fs::remove_all(a / "alpha");
    w.refresh(2, "the file both reached removed: a link left leading nowhere walks its tier");
    BOOST_TEST(commands() == "");
    // A hard link made since the walk, from one tier's skill file to another's. Within the
    // budget of watches every skill file has a watch of its own: derived. Past it (the
    // limit lowered here as 100,000 skills would), the first name is watched by its folder
    // alone, which sees no write made through the second: both tiers walk once, and from
    // then on each name has a watch of its own.
    std::size_t const kernel_limit = skillmd::detail::inotify_watch_limit();
    for (bool const past : {false, true}) {
        fs::path const c = t / (past ? "c2" : "c"), d = t / (past ? "d2" : "d");
        write(c / "h/SKILL.md", skill("h", "one name"));
        fs::create_directories(d / "h");
        skillmd::detail::inotify_watch_limit(past ? 2 : kernel_limit);
        two_watched_tiers<first_tier_wins> hard("c", c, "d", d, lenient(dialects::claude_code()));
        hard.load();
        fs::create_hard_link(c / "h/SKILL.md", d / "h/SKILL.md");
        if (past) {
            hard.refresh(2, "past the budget, a second name made for the file: a walk");
            hard.refresh(2, "and a look at what changed while the first name's own watch was set");
        } else {
            hard.refresh(0, "within the budget, a second name made for the file");
        }
        write(d / "h/SKILL.md", skill("h", "written through the second name"));
        hard.refresh(0, "written through the second name: the first one's own watch saw it");
        BOOST_TEST(hard.reg.snapshot()->find("h")->meta.description == "written through the second name");
        BOOST_TEST(hard.reg.snapshot()->shadowed().empty());
    }
    skillmd::detail::inotify_watch_limit(kernel_limit);
}

BOOST_AUTO_TEST_CASE(a_derived_snapshot_lists_unchanged_chunks_from_the_rows_made_before)
{
    temp_dir root;
    fs::path const t = root / "one";
    int const count = 600; // several chunks of the listing
    for (int k = 0; k < count; ++k) write(t / numbered("s", k) / "SKILL.md", skill(numbered("s", k), numbered("version ", k)));
    one_watched_flat_tier w(t);
    auto& dir = w.dir;
    auto& reg = w.reg;
    auto const before = reg.snapshot();
    check_listing_rows(*before);
    std::string const changed = numbered("s", 300);
    write(t / changed / "SKILL.md", skill(changed, "edited"));
    int const walks = *dir.walks;
    reg.refresh();
    BOOST_TEST_REQUIRE(*dir.walks == walks); // derived
    auto const after = reg.snapshot();
    check_listing_rows(*after);
    auto const was = before->listing_rows().entries(), is = after->listing_rows().entries();
    BOOST_TEST_REQUIRE(was.size() == is.size());
    // The same text, and the same bytes where the chunk is the same.
    std::size_t shared = 0, made = 0;
    for (std::size_t k = 0; k < is.size(); ++k) {
        bool const same_chunk = is[k].record == was[k].record && is[k].command.data() == was[k].command.data();
        if (is[k].command == changed) {
            BOOST_TEST(is[k].description == "edited");
            BOOST_TEST(!same_chunk);
        }
        (same_chunk ? shared : made) += 1;
    }
    BOOST_TEST(made >= 1u);
    BOOST_TEST(made <= 2 * detail::chunked<record_ptr>::chunk_size);
    BOOST_TEST(shared >= is.size() - 2 * detail::chunked<record_ptr>::chunk_size);
    // A listing made outside a snapshot makes its own rows.
    listing_table const own(after->skills());
    BOOST_TEST(static_cast<void const*>(own.entries()[0].command.data()) != static_cast<void const*>(is[0].command.data()));
    BOOST_TEST(own.entries().size() == is.size());
}

// A trigger index derived from the last snapshot's shares its levels, puts the skills that
// changed in a small one, and matches as an index made anew for the snapshot; merged and
// made again as edits pile up, it keeps about log2 of the skills' levels.
BOOST_AUTO_TEST_CASE(a_trigger_index_derived_from_the_last_shares_its_levels_and_matches_as_one_made_anew)
{
    temp_dir root;
    fs::path const t = root / "one";
    int const count = 600; // several chunks
    auto const text = [](int k, int cue) {
        return skill(numbered("s", k), "a skill", "triggers: [\"go " + numbered("w", k) + "\", " + trigger_word(cue) + "]\n");
    };
    for (int k = 0; k < count; ++k) write(t / numbered("s", k) / "SKILL.md", k % 5 == 4 ? skill(numbered("s", k), "none") : text(k, k));
    one_watched_flat_tier w(t);
    auto& dir = w.dir;
    auto& reg = w.reg;
    trigger_indexes indexes;
    auto const first = indexes.of(reg.snapshot());
    BOOST_TEST(first->skills() == 480u);
    BOOST_TEST(first->levels() == 1u);
    BOOST_TEST(indexes.of(reg.snapshot()) == first); // the same snapshot: the same index
    BOOST_TEST(matched(*first, "go w3 and go w10, not go w30s") == "s10@one s3@one ");

    // One edit: derived, the big level shared, the edit in a level of its own.
    write(t / "s3" / "SKILL.md", skill("s3", "a skill", "triggers: [stop w3, cue5]\n"));
    int const walks = *dir.walks;
    reg.refresh();
    BOOST_TEST_REQUIRE(*dir.walks == walks);
    auto const second = indexes.of(reg.snapshot());
    BOOST_TEST(second->levels() == 2u);
    BOOST_TEST(second->levels_shared_with(*first) == 1u);
    BOOST_TEST(matched(*second, "go w3 and go w10") == "s10@one ");
    BOOST_TEST(matched(*second, "stop w3") == "s3@one ");
    BOOST_TEST(matches_alike(*second, trigger_index(reg.snapshot())));

    // Edits, skills made and removed, one refresh each: always what a first index gives.
    std::mt19937 rng(43);
    for (int step = 0; step < 300; ++step) {
        int const k = static_cast<int>(rng() % (count + 40));
        fs::path const f = t / numbered("s", k) / "SKILL.md";
        switch (rng() % 4) {
        case 0: fs::remove_all(f.parent_path()); break;
        case 1: write(f, skill(numbered("s", k), "no triggers now")); break;
        default: write(f, text(k, static_cast<int>(rng() % 7))); break;
        }
        reg.refresh();
        auto const now = indexes.of(reg.snapshot());
        trigger_index const anew(reg.snapshot());
        BOOST_TEST_REQUIRE(matches_alike(*now, anew), "step " << step);
        std::string const message = "go " + numbered("w", k) + " and go " + numbered("w", k / 2);
        BOOST_TEST_REQUIRE(matched(*now, message) == matched(anew, message));
        BOOST_TEST_REQUIRE(now->levels() <= 12u, "step " << step << ": " << now->levels() << " levels"); // log2(640) + 2
    }
    BOOST_TEST(*dir.walks - walks <= 150); // most refreshes derived (a folder made or removed may walk)

    // Skills made three a refresh after one alone: the small levels merge as they come.
    write(t / "more-0" / "SKILL.md", text(1000, 0));
    reg.refresh();
    for (int step = 0; step < 60; ++step) {
        for (int k = 1; k <= 3; ++k) write(t / numbered("more-", 3 * step + k) / "SKILL.md", text(1000 + 3 * step + k, k));
        reg.refresh();
        auto const now = indexes.of(reg.snapshot());
        BOOST_TEST_REQUIRE(now->levels() <= 12u, "step " << step << ": " << now->levels() << " levels");
        BOOST_TEST_REQUIRE(matches_alike(*now, trigger_index(reg.snapshot())), "step " << step);
    }

    // A skill whose phrases weigh more than the rest of its level's, removed: every match
    // would still walk them, so the level is made again (a light one is only marked gone).
    {
        temp_dir other_root;
        fs::path const h = other_root / "one";
        for (int k = 0; k < 50; ++k) write(h / numbered("s", k) / "SKILL.md", text(k, k));
        std::string heavy = "triggers:\n", nested = "a";
        for (int k = 0; k < 200; ++k, nested += " a") heavy += "  - " + nested + "\n";
        write(h / "heavy" / "SKILL.md", skill("heavy", "nested phrases", heavy));
        one_watched_flat_tier v(h);
        trigger_indexes hs;
        auto const before = hs.of(v.reg.snapshot());
        BOOST_TEST(before->levels() == 1u);
        fs::remove_all(h / "s7");
        v.reg.refresh();
        auto const light = hs.of(v.reg.snapshot());
        BOOST_TEST(light->levels_shared_with(*before) == 1u);
        fs::remove_all(h / "heavy");
        v.reg.refresh();
        auto const after = hs.of(v.reg.snapshot());
        BOOST_TEST(after->levels() == 1u);
        BOOST_TEST(after->levels_shared_with(*light) == 0u);
        BOOST_TEST(matched(*after, "a a a").empty());
        BOOST_TEST(matches_alike(*after, trigger_index(v.reg.snapshot())));
    }

    // An index of another registry's snapshot derived from this one: still right.
    basic_registry<parser, first_tier_wins, directory_source> other(parser{}, lenient(), directory_source("one", t.string(), one_watched_flat_tier::flat()));
    other.load();
    trigger_index const across(*indexes.of(reg.snapshot()), other.snapshot());
    BOOST_TEST(matches_alike(across, trigger_index(other.snapshot())));
}

// A requirement met now and not before (an environment variable set, a program installed),
// or the reverse, gates its skills again without a walk: hidden or not, gating's report put
// in after what the skill's read said, before the next skill's, or taken out.
// Skills the operators' overrides turn off are kept apart (disabled) and no other skill's
// listing sees them: one turned off or on by an edit, made or removed while off, shadowing
// or shadowed, gated while off, each derived without a walk and equal to a first load.
BOOST_AUTO_TEST_CASE(a_skill_turned_off_or_on_by_an_override_is_derived)
{
    temp_dir root;
    fs::path const t = root / "one", u = root / "two";
    std::string const gated = "sven:\n  requires_env: [SKILLMD_TEST_OFF_GATE]\n";
    write(t / "a/SKILL.md", skill("a", "plain"));
    write(t / "c/SKILL.md", skill("c", "the winner"));
    write(u / "c/SKILL.md", skill("c", "shadowed"));
    write(t / "p/SKILL.md", skill("p", "a parent"));
    directory_options o;
    o.layout = layout::nested;
    dialect d = dialects::sven(); // which gates skills
    d.name_is_label = false;       // and here `name:` is a name an override matches
    registry_options opts = lenient(d);
    // `quiet` off by name; tier two's folder `b` off by path, and `p/k` under tier one's `p`
    // (a sub-skill); `loud` listed by name only.
    opts.overrides.add({"user settings", "", {{"quiet", false, override_mode::off}, {(u / "b").string(), true, override_mode::off},
                                              {(t / "p/k").string(), true, override_mode::off}, {"loud", false, override_mode::name_only}}});
    two_watched_tiers<highest_tier_wins> w("one", t, "two", u, opts, o);
    auto& reg = w.reg;
    auto const refresh = [&w](int walks, char const* what) { w.refresh(walks, what); };
    auto const off = [&] {
        std::string out;
        for (auto const& r : reg.snapshot()->disabled()) out += std::string(r.command) + (r.hidden ? "(hidden) " : " ");
        return out;
    };
    ::unsetenv("SKILLMD_TEST_OFF_GATE");
    w.load();
    BOOST_TEST_REQUIRE(off().empty());
    // An edit that turns a listed skill off, edits it while off, and turns it on again.
    write(t / "a/SKILL.md", "---\nname: quiet\ndescription: off by its name\ncolour: red\n---\n");
    refresh(0, "a listed skill turned off by its new name, with a word of its own");
    BOOST_TEST(off() == "a ");
    BOOST_TEST(reg.snapshot()->find("a") == nullptr);
    write(t / "a/SKILL.md", "---\nname: quiet\ndescription: off, edited\n---\n");
    refresh(0, "edited while off");
    write(t / "a/SKILL.md", skill("a", "on again"));
    refresh(0, "turned on again");
    BOOST_TEST(off().empty());
    BOOST_TEST(reg.snapshot()->find("a") != nullptr);
    // Made and removed while off, by path.
    write(u / "b/SKILL.md", skill("b", "off by its folder"));
    refresh(0, "a skill made where a path rule turns it off");
    BOOST_TEST(off() == "b ");
    write(u / "b/SKILL.md", skill("b", "off, gated", gated));
    refresh(0, "edited to need a variable, off and hidden");
    BOOST_TEST(off() == "b(hidden) ");
    ::setenv("SKILLMD_TEST_OFF_GATE", "1", 1);
    refresh(0, "its variable set: shown, still off");
    BOOST_TEST(off() == "b ");
    ::unsetenv("SKILLMD_TEST_OFF_GATE");
    refresh(0, "and unset");
    BOOST_TEST(off() == "b(hidden) ");
    fs::remove(u / "b/SKILL.md");
    refresh(0, "the skill off removed");
    BOOST_TEST(off().empty());
    // A sub-skill off: its parent does not list it.
    write(t / "p/k/SKILL.md", skill("k", "a sub-skill, off"));
    refresh(0, "a sub-skill made off");
    BOOST_TEST(reg.snapshot()->find("p")->children.empty());
    // The winner turned off: the copy it shadowed wins; turned on, it shadows it again.
    write(t / "c/SKILL.md", "---\nname: quiet\ndescription: the winner, off\n---\n");
    refresh(0, "the winner turned off");
    BOOST_TEST(reg.snapshot()->shadowed().empty());
    BOOST_TEST(std::string(reg.snapshot()->find("c")->tier) == "two");
    write(t / "c/SKILL.md", skill("c", "the winner again"));
    refresh(0, "the winner on again");
    BOOST_TEST(reg.snapshot()->shadowed().size() == 1u);
    // A name-only skill edited, made and removed: on, as any other.
    write(t / "l/SKILL.md", "---\nname: loud\ndescription: name only\n---\n");
    refresh(0, "a name-only skill made");
    BOOST_TEST(reg.snapshot()->find("l")->overridden != nullptr);
    fs::remove_all(t / "l");
    refresh(0, "and removed");
    // Removed while off, its folder with it.
    write(t / "a/SKILL.md", "---\nname: quiet\ndescription: off once more\n---\n");
    refresh(0, "off once more");
    fs::remove_all(t / "a");
    refresh(0, "removed while off, its folder with it");
    BOOST_TEST(off() == "p/k ");
}

BOOST_AUTO_TEST_CASE(rules_set_anew_place_only_the_skills_they_decide_otherwise_without_a_walk)
{
    temp_dir root;
    fs::path const t = root / "one", u = root / "two";
    write(t / "a/SKILL.md", skill("a", "plain"));
    write(t / "c/SKILL.md", skill("c", "the winner"));
    write(u / "c/SKILL.md", skill("c", "shadowed"));
    write(t / "p/SKILL.md", skill("p", "a parent"));
    write(t / "p/k/SKILL.md", skill("k", "its sub-skill"));
    write(t / "w/SKILL.md", "---\nname: w\ndescription: with a word of its own\ncolour: red\n---\n");
    write(t / "g/SKILL.md", skill("g", "gated", "sven:\n  requires_env: [SKILLMD_TEST_RULES_GATE]\n"));
    write(u / "b/SKILL.md", skill("b", "plain too"));
    directory_options o;
    o.layout = layout::nested;
    dialect d = dialects::sven();
    d.name_is_label = false;
    two_watched_tiers<highest_tier_wins> w("one", t, "two", u, lenient(d), o);
    auto& reg = w.reg;
    auto const set = [&](std::vector<override_layer> layers) {
        overrides rules;
        for (auto& l : layers) rules.add(std::move(l));
        w.opts.overrides = rules; // what the first load each refresh is compared with reads
        reg.set_overrides(std::move(rules));
    };
    auto const user = [](std::vector<override_rule> r) { return override_layer{"user settings", "settings.json", std::move(r)}; };
    auto const project = [](std::vector<override_rule> r) { return override_layer{"project settings", ".claude/settings.json", std::move(r)}; };
    auto const off = [&] {
        std::string out;
        for (auto const& r : reg.snapshot()->disabled()) out += std::string(r.command) + (r.hidden ? "(hidden) " : " ");
        return out;
    };
    auto const mode_of = [&](std::string_view command) {
        auto const* r = reg.snapshot()->find(command);
        return !r ? std::string("absent") : r->overridden ? std::string(to_string(r->overridden->mode)) : std::string("none");
    };
    ::unsetenv("SKILLMD_TEST_RULES_GATE");
    w.load();
    BOOST_TEST_REQUIRE(off().empty());
    set({user({{"a", false, override_mode::off}})});
    w.refresh(0, "a listed skill turned off by name");
    BOOST_TEST(off() == "a ");
    set({user({{"a", false, override_mode::name_only}})});
    w.refresh(0, "the same rule, name-only: listed again");
    BOOST_TEST(mode_of("a") == "name-only");
    set({user({{"a", false, override_mode::user_invocable_only}})});
    w.refresh(0, "user-invocable-only");
    BOOST_TEST(reg.snapshot()->find("a")->meta.user_invocable);
    set({});
    w.refresh(0, "no rules: as it says itself");
    BOOST_TEST(mode_of("a") == "none");
    set({user({{(t / "c").string(), true, override_mode::off}})});
    w.refresh(0, "the winner off by its folder: the copy it shadowed wins");
    BOOST_TEST(std::string(reg.snapshot()->find("c")->tier) == "two");
    BOOST_TEST(reg.snapshot()->shadowed().empty());
    set({user({{(t / "c").string(), true, override_mode::off}}), project({{(t / "c/SKILL.md").string(), true, override_mode::on}})});
    w.refresh(0, "the project's settings turn it on again: it shadows again");
    BOOST_TEST(reg.snapshot()->shadowed().size() == 1u);
    set({user({{"c", false, override_mode::off}})});
    w.refresh(0, "both copies off by their command");
    BOOST_TEST(off() == "c c ");
    BOOST_TEST(reg.snapshot()->find("c") == nullptr);
    set({user({{(t / "p").string(), true, override_mode::off}})});
    w.refresh(0, "a parent's folder off: its sub-skill with it, both copies back");
    BOOST_TEST(off() == "p p/k ");
    set({user({{(t / "p").string(), true, override_mode::off}}), project({{"p/k", false, override_mode::on}})});
    w.refresh(0, "its sub-skill on again by a later layer");
    BOOST_TEST(off() == "p ");
    // A skill that says something of its own, and a gated one: their reports stay where a
    // first load puts them, gating's and the override's after the read's.
    set({user({{"w", false, override_mode::off}, {"g", false, override_mode::off}})});
    w.refresh(0, "a skill with a word of its own and a hidden one off");
    BOOST_TEST(off() == "g(hidden) w ");
    ::setenv("SKILLMD_TEST_RULES_GATE", "1", 1);
    set({user({{"w", false, override_mode::off}})});
    w.refresh(0, "rules and a requirement changed together, for the same skill: gated again, then placed again");
    BOOST_TEST(off() == "w ");
    BOOST_TEST(!reg.snapshot()->find("g")->hidden);
    ::unsetenv("SKILLMD_TEST_RULES_GATE");
    w.refresh(0, "the requirement alone");
    // The same rules under another layer's name: each skill they decide says so.
    set({override_layer{"managed settings", "/etc/managed.json", {{"w", false, override_mode::off}}}});
    w.refresh(0, "the layer renamed");
    BOOST_TEST(reg.snapshot()->disabled().front().overridden->layer == "managed settings");
    // Rules set twice before a refresh: the snapshot was made under the first.
    set({user({{"b", false, override_mode::off}})});
    set({user({{"b", false, override_mode::name_only}, {"a", false, override_mode::off}})});
    w.refresh(0, "rules set twice");
    BOOST_TEST(off() == "a ");
    BOOST_TEST(mode_of("b") == "name-only");
    // Rules and a file changed in one refresh: the file is read under today's rules.
    set({user({{"b", false, override_mode::off}})});
    write(t / "a/SKILL.md", "---\nname: b\ndescription: named like the skill that is off\n---\n");
    w.refresh(0, "a rule and an edit together");
    BOOST_TEST(off() == "a b ");
    // The same rules again: nothing to do, the snapshot stands.
    auto const before = reg.snapshot();
    set({user({{"b", false, override_mode::off}})});
    w.refresh(0, "the same rules");
    BOOST_TEST(reg.snapshot() == before);
    // A rule that turns more skills than max_redecided off (or back on): a full refresh,
    // which costs less than placing each again.
    for (int k = 0; k <= static_cast<int>(decltype(w)::reg_t::max_redecided); ++k)
        write(u / "bulk" / numbered("s", k) / "SKILL.md", skill(numbered("s", k), "one of many"));
    w.reg.refresh();
    BOOST_TEST(whole(*reg.snapshot()) == w.first_load());
    set({user({{(u / "bulk").string(), true, override_mode::off}})});
    w.refresh(2, "a folder of many skills off");
    BOOST_TEST(reg.snapshot()->disabled().size() == decltype(w)::reg_t::max_redecided + 1);
    set({user({{(u / "bulk").string(), true, override_mode::off}, {(u / "bulk/s1").string(), true, override_mode::on}})});
    w.refresh(0, "and one of them on again");
    // Rules set before the first load, and a refresh that walks: today's rules.
    set({});
    fs::create_directory_symlink(t / "a", u / "link");
    w.refresh(2, "a link made where the walk goes, with the rules changed: a walk under today's");
    fs::remove(u / "link");
    w.refresh(2, "and removed");
}

BOOST_AUTO_TEST_CASE(a_requirement_changed_gates_its_skills_again_without_a_walk)
{
    temp_dir root;
    fs::path const t = root / "one", u = root / "two";
    std::string const gated = "sven:\n  requires_env: [SKILLMD_TEST_REGATE]\n";
    std::string const with_a_word = "---\nname: b\ndescription: gated, with a word\ncolour: red\nsven:\n  requires_env: [SKILLMD_TEST_REGATE]\n---\n";
    write(t / "a/SKILL.md", skill("a", "gated", gated));
    write(t / "b/SKILL.md", with_a_word); // says something (an unexpected field), and is gated
    write(t / "c/SKILL.md", "---\nname: c\ndescription: plain, with a word\ncolour: blue\n---\n");
    write(t / "d/SKILL.md", skill("d", "gated, and a parent", gated));
    write(t / "d/e/SKILL.md", skill("e", "a sub-skill"));
    write(t / "f/SKILL.md", skill("f", "gated, and shadowed", gated));
    write(t / "g/SKILL.md", skill("g", "plain"));
    write(u / "f/SKILL.md", skill("f", "the winner")); // a second tier
    directory_options o;
    o.layout = layout::nested;
    two_watched_tiers<highest_tier_wins> w("one", t, "two", u, lenient(dialects::sven()), o);
    auto& reg = w.reg;
    auto const refresh = [&w](int walks, char const* what) { w.refresh(walks, what); };
    auto const hidden = [&] {
        std::string out;
        for (auto const& r : reg.snapshot()->skills())
            if (r.hidden) out += std::string(r.command) + " ";
        return out;
    };
    ::unsetenv("SKILLMD_TEST_REGATE");
    w.load();
    BOOST_TEST_REQUIRE(hidden() == "a b d ");
    ::setenv("SKILLMD_TEST_REGATE", "1", 1);
    refresh(0, "set: every gated skill shown, the shadowed copy too");
    BOOST_TEST(hidden().empty());
    fs::remove(t / "f/SKILL.md");
    refresh(0, "the shadowed copy removed");
    ::unsetenv("SKILLMD_TEST_REGATE");
    refresh(0, "unset: hidden again, each report after what its read said");
    BOOST_TEST(hidden() == "a b d ");
    BOOST_TEST(reg.snapshot()->find("d/e") != nullptr); // still the parent's
    ::setenv("SKILLMD_TEST_REGATE", "1", 1);
    refresh(0, "set: shown again, the reports taken out");
    BOOST_TEST(hidden().empty());
    ::unsetenv("SKILLMD_TEST_REGATE");
    write(t / "g/SKILL.md", skill("g", "edited"));
    refresh(0, "unset, with a file changed in the same refresh");
    BOOST_TEST(hidden() == "a b d ");
    ::setenv("SKILLMD_TEST_REGATE", "1", 1);
    write(t / "g/SKILL.md", skill("g", "edited again"));
    refresh(0, "set, with a file changed in the same refresh");
    BOOST_TEST(hidden().empty());
    ::unsetenv("SKILLMD_TEST_REGATE");
    refresh(0, "unset again");
    // A hidden copy of a shadowed command: its group resolved again, gating's report with its read's.
    write(t / "f/SKILL.md", skill("f", "gated, shadowed again", gated));
    refresh(0, "a hidden copy made under the winner");
    BOOST_TEST(reg.snapshot()->shadowed().size() == 1u);
    BOOST_TEST(reg.snapshot()->shadowed()[0].hidden);
    write(t / "f/SKILL.md", skill("f", "gated, shadowed, edited", gated));
    refresh(0, "and edited");
    fs::remove(u / "f/SKILL.md");
    refresh(0, "the winner removed: the hidden copy is listed");
    BOOST_TEST(hidden() == "a b d f ");
    write(u / "f/SKILL.md", skill("f", "the winner, back"));
    refresh(0, "and back");
    fs::remove(t / "f/SKILL.md");
    refresh(0, "the hidden copy removed");

    // Under keep-all a gated copy is listed as `name@tier`, and gated again as that.
    two_watched_tiers<keep_all> kept("one", t, "two", u, lenient(dialects::sven()), o);
    write(t / "f/SKILL.md", skill("f", "a gated copy", gated));
    kept.load();
    BOOST_TEST_REQUIRE(kept.reg.snapshot()->find("f@one") != nullptr);
    BOOST_TEST(kept.reg.snapshot()->find("f@one")->hidden);
    for (bool const set : {true, false}) {
        if (set) ::setenv("SKILLMD_TEST_REGATE", "1", 1);
        else ::unsetenv("SKILLMD_TEST_REGATE");
        kept.refresh(0, set ? "the copy's variable set" : "and unset");
        BOOST_TEST(kept.reg.snapshot()->find("f@one")->hidden == !set);
    }
}

// Found by an outside attack: what only a first load gets right takes one. Each refresh
// here must equal a first load, whether it walked or not.
BOOST_AUTO_TEST_CASE(kept_copies_and_gating_that_only_a_first_load_gets_right)
{
    temp_dir t;
    directory_options o;
    o.layout = layout::nested;
    using keep_t = basic_registry<parser, keep_every_copy, directory_source, directory_source, directory_source>;
    auto const equal_after_refresh = [](auto& reg, auto const& first_load, char const* what) {
        reg.refresh();
        BOOST_TEST(whole(*reg.snapshot()) == first_load(), what);
        reg.refresh();
        BOOST_TEST(whole(*reg.snapshot()) == first_load(), what);
    };
    // Two tiers of one label: their copies would bear one name.
    {
        fs::path const d[3] = {t / "l0", t / "l1", t / "l2"};
        for (auto const& p : d) fs::create_directories(p);
        write(d[0] / "alpha/SKILL.md", skill("alpha", "first u"));
        write(d[2] / "alpha/SKILL.md", skill("alpha", "p"));
        auto const first_load = [&] {
            keep_t first(parser{}, lenient(dialects::codex_0_169()), directory_source("u", d[0].string(), o),
                         directory_source("u", d[1].string(), o), directory_source("p", d[2].string(), o));
            first.load();
            return whole(*first.snapshot());
        };
        keep_t reg(parser{}, lenient(dialects::codex_0_169()), directory_source("u", d[0].string(), o),
                   directory_source("u", d[1].string(), o), directory_source("p", d[2].string(), o));
        reg.load();
        reg.refresh();
        reg.refresh();
        write(d[1] / "alpha/SKILL.md", skill("alpha", "second u"));
        equal_after_refresh(reg, first_load, "a copy in a second tier labelled u");
        fs::remove(d[2] / "alpha/SKILL.md");
        equal_after_refresh(reg, first_load, "p's copy removed");
        // Labels u, u, p, and the first u's copy removed: the group left (u, p) has labels
        // apart, but two copies were listed as `alpha@u` (found by a second outside attack).
        write(d[2] / "alpha/SKILL.md", skill("alpha", "p again"));
        equal_after_refresh(reg, first_load, "p's copy made again");
        fs::remove(d[0] / "alpha/SKILL.md");
        equal_after_refresh(reg, first_load, "the first u's copy removed: one `alpha@u` left, listed once");
        BOOST_TEST(reg.snapshot()->skills().size() == 2u);
    }
    // A label beyond ASCII: a first load compares every name by its look (`rn` and `m`).
    {
        fs::path const d[3] = {t / "n0", t / "n1", t / "n2"};
        for (auto const& p : d) fs::create_directories(p);
        for (char const* n : {"m", "rn", "alpha"}) write(d[0] / n / "SKILL.md", skill(n, "in tier ü"));
        auto const make = [&] {
            return keep_t(parser{}, lenient(dialects::codex_0_169()), directory_source("\xc3\xbc", d[0].string(), o),
                          directory_source("b", d[1].string(), o), directory_source("c", d[2].string(), o));
        };
        auto const first_load = [&] {
            auto first = make();
            first.load();
            return whole(*first.snapshot());
        };
        auto reg = make();
        reg.load();
        reg.refresh();
        reg.refresh();
        write(d[1] / "alpha/SKILL.md", skill("alpha", "a copy in b: alpha@ü is listed"));
        equal_after_refresh(reg, first_load, "a copy named for a tier beyond ASCII");
    }
    // One file reached from two tiers: a first load gates the copy it drops, and reports it.
    {
        fs::path const a = t / "h0", b = t / "h1";
        write(a / "alpha/SKILL.md", skill("alpha", "gated", "sven:\n  requires_env: [SKILLMD_TEST_EDGE_V1]\n"));
        fs::create_directories(b / "alpha");
        fs::create_hard_link(a / "alpha/SKILL.md", b / "alpha/SKILL.md");
        using high_t = basic_registry<parser, highest_tier_wins, directory_source, directory_source>;
        auto const make = [&] { return high_t(parser{}, lenient(dialects::sven()), directory_source("a", a.string(), o), directory_source("b", b.string(), o)); };
        auto const first_load = [&] {
            auto first = make();
            first.load();
            return whole(*first.snapshot());
        };
        ::unsetenv("SKILLMD_TEST_EDGE_V1");
        auto reg = make();
        reg.load();
        reg.refresh();
        reg.refresh();
        ::setenv("SKILLMD_TEST_EDGE_V1", "1", 1);
        equal_after_refresh(reg, first_load, "set: both paths shown");
        ::unsetenv("SKILLMD_TEST_EDGE_V1");
        equal_after_refresh(reg, first_load, "unset: both paths hidden");
    }
    // Hidden for another reason: two requirements unmet, then the first of them met.
    {
        fs::path const a = t / "r0";
        write(a / "alpha/SKILL.md", skill("alpha", "two requirements", "sven:\n  requires_env: [SKILLMD_TEST_EDGE_V1, SKILLMD_TEST_EDGE_V2]\n"));
        write(a / "gamma/SKILL.md", skill("gamma", "the other", "sven:\n  requires_env: [SKILLMD_TEST_EDGE_V2]\n"));
        using one_t = basic_registry<parser, highest_tier_wins, directory_source>;
        auto const make = [&] { return one_t(parser{}, lenient(dialects::sven()), directory_source("a", a.string(), o)); };
        auto const first_load = [&] {
            auto first = make();
            first.load();
            return whole(*first.snapshot());
        };
        ::unsetenv("SKILLMD_TEST_EDGE_V1");
        ::unsetenv("SKILLMD_TEST_EDGE_V2");
        auto reg = make();
        reg.load();
        reg.refresh();
        reg.refresh();
        ::setenv("SKILLMD_TEST_EDGE_V1", "1", 1);
        equal_after_refresh(reg, first_load, "alpha hidden now for V2: nothing else changed");
        BOOST_TEST(reg.snapshot()->find("alpha")->hidden);
        ::setenv("SKILLMD_TEST_EDGE_V2", "1", 1);
        equal_after_refresh(reg, first_load, "both shown");
        ::unsetenv("SKILLMD_TEST_EDGE_V1");
        equal_after_refresh(reg, first_load, "alpha hidden for V1");
        ::unsetenv("SKILLMD_TEST_EDGE_V2");
        equal_after_refresh(reg, first_load, "alpha hidden for V1 still, gamma hidden");
        ::setenv("SKILLMD_TEST_EDGE_V1", "1", 1);
        equal_after_refresh(reg, first_load, "alpha hidden for V2, with gamma still hidden: regated");
        ::unsetenv("SKILLMD_TEST_EDGE_V1");
    }
}

// What a changed read says (a warning, why it is no skill) is put where a first load puts
// it, among what the others said and gating's reports: in command order, which is not
// the paths' order (`s-x/SKILL.md` sorts before `s/SKILL.md`).
BOOST_AUTO_TEST_CASE(what_a_changed_read_says_goes_where_a_first_load_puts_it)
{
    temp_dir t;
    std::string const no_description = "---\nname: NAME\n---\nNo description: the body gives one.\n";
    std::string const broken = "---\nname: NAME\ndescription: [never closed\n---\n";
    auto const text = [](std::string s, std::string const& n) { return s.replace(s.find("NAME"), 4, n); };
    write(t / "a/SKILL.md", text(no_description, "a"));
    write(t / "m/SKILL.md", skill("m", "hidden", "sven:\n  requires_env: [SKILLMD_TEST_SURELY_UNSET]\n"));
    write(t / "s/SKILL.md", skill("s", "plain"));
    write(t / "s-x/SKILL.md", skill("s-x", "plain"));
    write(t / "z/SKILL.md", text(broken, "z"));
    directory_options o;
    o.layout = layout::nested;
    walk_counting_dir src{directory_source("t", t.path.string(), o)};
    using reg_t = basic_registry<parser, highest_tier_wins, walk_counting_dir>;
    reg_t reg(parser{}, lenient(dialects::sven()), src);
    auto const first_load = [&] {
        reg_t first(parser{}, lenient(dialects::sven()), walk_counting_dir{directory_source("t", t.path.string(), o)});
        first.load();
        return whole(*first.snapshot());
    };
    reg.load();
    reg.refresh();
    reg.refresh();
    std::size_t said = reg.snapshot()->diagnostics().size();
    BOOST_TEST_REQUIRE(said >= 3u); // a's, m's gating, z's
    auto const refresh = [&](int more, char const* what) {
        int const walks = *src.walks;
        reg.refresh();
        BOOST_TEST(*src.walks == walks, what);
        BOOST_TEST(whole(*reg.snapshot()) == first_load(), what);
        std::size_t const now = reg.snapshot()->diagnostics().size();
        if (more != 0) BOOST_TEST((more > 0 ? now > said : now < said), what);
        said = now;
    };
    write(t / "s/SKILL.md", text(no_description, "s"));
    refresh(1, "s says something now: after m's gating, before z");
    write(t / "s-x/SKILL.md", text(no_description, "s-x"));
    refresh(1, "and s-x, after s, though its path sorts first");
    write(t / "s/SKILL.md", skill("s", "mended"));
    refresh(-1, "s mended");
    write(t / "b/SKILL.md", text(no_description, "b"));
    refresh(1, "a new skill that says something, between a and m");
    write(t / "z/SKILL.md", skill("z", "mended"));
    refresh(-1, "z is a skill now");
    BOOST_TEST(reg.snapshot()->find("z") != nullptr);
    write(t / "a/SKILL.md", text(broken, "a"));
    refresh(0, "a is none now, and says why instead"); // (as many words, or not)
    BOOST_TEST(reg.snapshot()->find("a") == nullptr);
    fs::remove(t / "s-x/SKILL.md");
    refresh(-1, "s-x gone");
    fs::remove_all(t / "a");
    refresh(-1, "a's folder gone");
    write(t / "a/SKILL.md", text(broken, "a"));
    refresh(1, "made again, no skill");
    // A hidden skill: gating's report follows what its read says.
    std::string const unset = "sven:\n  requires_env: [SKILLMD_TEST_SURELY_UNSET]\n";
    write(t / "m/SKILL.md", skill("m", "hidden, edited", unset));
    refresh(0, "a hidden skill edited: gating's report where it was");
    write(t / "m/SKILL.md", skill("m", "shown"));
    refresh(-1, "no longer gated: gating's report out");
    write(t / "m/SKILL.md", "---\nname: m\ndescription: hidden, with a word\ncolour: red\n" + unset + "---\n");
    refresh(1, "gated, with a warning: the read's, then gating's");
    fs::remove_all(t / "m");
    refresh(-1, "the hidden skill removed: both reports out");
    write(t / "m/SKILL.md", skill("m", "hidden again", unset));
    refresh(1, "made again, hidden");
    BOOST_TEST(reg.snapshot()->find("m")->hidden);
}

/// One nested tier "t" at `root` (sven's dialect, the last tier winning), its walks
/// counted: refresh(walks, what) checks how many walks a refresh took, and that it gives
/// what a first load of the same files gives.
struct one_watched_nested_tier
{
    using reg_t = basic_registry<parser, highest_tier_wins, walk_counting_dir>;
    static directory_options nested(directory_options o)
    {
        o.layout = layout::nested;
        return o;
    }
    one_watched_nested_tier(fs::path root, directory_options const& options)
        : tier(std::move(root)), o(nested(options)), src{directory_source("t", tier.string(), o)}, reg(parser{}, lenient(dialects::sven()), src)
    {
    }
    std::string first_load() const
    {
        reg_t first(parser{}, lenient(dialects::sven()), walk_counting_dir{directory_source("t", tier.string(), o)});
        first.load();
        return whole(*first.snapshot());
    }
    void refresh(int walks, char const* what)
    {
        int const before = *src.walks;
        reg.refresh();
        BOOST_TEST(*src.walks == before + walks, what);
        BOOST_TEST(whole(*reg.snapshot()) == first_load(), what);
    }
    fs::path tier;
    directory_options o;
    walk_counting_dir src;
    reg_t reg;
};

BOOST_AUTO_TEST_CASE(nested_folders_made_renamed_or_removed_are_walked_alone)
{
    temp_dir t;
    fs::path const tier = t / "tier";
    write(tier / "base/SKILL.md", skill("base", "there from the start"));
    directory_options o;
    o.max_directories = 8; // reached exactly when a tree moves in; passed at the end
    one_watched_nested_tier n(tier, o);
    auto& reg = n.reg;
    auto& src = n.src;
    auto const refresh = [&n](int walks, char const* what) { n.refresh(walks, what); };
    auto const settle = [&] {
        reg.refresh();
        reg.refresh();
        int const walks = *src.walks;
        reg.refresh();
        BOOST_TEST_REQUIRE(*src.walks == walks);
    };
    reg.load();
    settle();

    write(tier / "kit/SKILL.md", skill("kit", "a parent"));
    write(tier / "kit/lint/SKILL.md", skill("lint", "a child"));
    write(tier / "kit/lint/deep/fmt/SKILL.md", skill("fmt", "two levels below"));
    write(tier / "kit/notes/readme.txt", "no skill here");
    refresh(0, "a tree made");
    BOOST_TEST(reg.snapshot()->skills().size() == 4u);
    BOOST_TEST(reg.snapshot()->find("kit")->children.size() == 1u);

    write(tier / "kit/lint/deep/fmt/SKILL.md", skill("fmt", "edited below a folder walked alone"));
    refresh(0, "an edit in it: its watches were set");
    write(tier / "kit/lint/deep/more/SKILL.md", skill("more", "made below a folder walked alone"));
    refresh(0, "a skill made in it");

    fs::rename(tier / "kit", tier / "tools");
    refresh(0, "the tree renamed");
    BOOST_TEST(reg.snapshot()->find("kit") == nullptr);
    write(tier / "tools/lint/SKILL.md", skill("lint", "edited where it went"));
    refresh(0, "an edit where it went");

    fs::create_directories(tier / "empty");
    refresh(0, "an empty folder made");
    fs::rename(tier / "tools/lint", tier / "empty"); // a rename over an empty folder
    refresh(0, "renamed over an empty folder");
    BOOST_TEST(reg.snapshot()->find("tools")->children.empty());

    write(t / "outside/away/SKILL.md", skill("away", "made outside the tier"));
    fs::rename(t / "outside/away", tier / "base/away");
    refresh(0, "a tree moved in");
    fs::rename(tier / "empty", t / "outside/empty");
    refresh(0, "a tree moved out");
    write(t / "outside/empty/SKILL.md", skill("empty", "edited after it left"));
    refresh(0, "an edit in a tree moved out");

    fs::create_directories(tier / ".git/objects/SKILL.md.d");
    write(tier / ".git/SKILL.md", skill("git", "passed over"));
    refresh(0, "a folder the walk passes over");

    fs::remove_all(tier / "tools");
    refresh(0, "a tree removed");

    // Found by review: a folder named SKILL.md at the root is passed over, as a walk does;
    // two folders exchanged in one step each hold the other's tree, both watched.
    write(tier / "SKILL.md/x/SKILL.md", skill("x", "below a folder the walk passes over"));
    refresh(0, "a folder named SKILL.md at the root");
    fs::remove_all(tier / "SKILL.md");
    refresh(0, "and removed");
    write(tier / "x/SKILL.md", skill("x", "first"));
    write(tier / "y/SKILL.md", skill("y", "second"));
    refresh(0, "two folders made");
    BOOST_TEST_REQUIRE(::renameat2(AT_FDCWD, (tier / "x").c_str(), AT_FDCWD, (tier / "y").c_str(), RENAME_EXCHANGE) == 0);
    refresh(0, "two folders exchanged");
    write(tier / "y/e/SKILL.md", skill("e", "made in an exchanged folder"));
    write(tier / "x/f/SKILL.md", skill("f", "made in the other"));
    refresh(0, "skills made in both");
    BOOST_TEST(reg.snapshot()->find("y/e") != nullptr);
    fs::remove_all(tier / "x");
    fs::remove_all(tier / "y");
    refresh(0, "both removed");

    // What a whole walk judges.
    fs::create_directories(tier / "links");
    fs::create_directory_symlink(tier / "base", tier / "links/to-base");
    refresh(1, "a folder holding a link");
    fs::remove_all(tier / "links");
    reg.refresh(); // the last walk met a link: this one walks, and sets the watches anew
    settle();
    write(tier / "cased/skill.md", skill("cased", "a name in another case"));
    refresh(1, "a folder holding skill.md");
    fs::remove_all(tier / "cased");
    reg.refresh();
    settle();
    for (char const* d : {"many/a", "many/b", "many/c", "many/d", "many/e", "many/f", "many/g", "many/h"})
        fs::create_directories(tier / d);
    refresh(1, "more folders than the bound");
    BOOST_TEST(!reg.snapshot()->diagnostics().empty());
}

// A tier whose folder does not exist yet hangs from its nearest existing ancestor; one
// reached through a link pointed elsewhere names another folder, where the tier may be.
BOOST_AUTO_TEST_CASE(a_missing_root_under_a_link_pointed_elsewhere_is_seen)
{
    temp_dir t;
    fs::create_directories(t / "first");
    write(t / "second/skills/x/SKILL.md", skill("x", "there all along"));
    fs::create_directory_symlink(t / "first", t / "dotfiles");
    walk_counting_dir src{directory_source("t", (t / "dotfiles/skills").string())};
    basic_registry<parser, first_tier_wins, walk_counting_dir> reg(parser{}, lenient(dialects::claude_code()), src);
    reg.load();
    for (int i = 0; i < 2; ++i) reg.refresh(); // the second walk's watches can vouch for the tier
    int const walks = *src.walks;
    reg.refresh();
    BOOST_TEST_REQUIRE(*src.walks == walks); // the missing root vouched for by its ancestor
    BOOST_TEST(reg.snapshot()->skills().empty());
    fs::remove(t / "dotfiles");
    fs::create_directory_symlink(t / "second", t / "dotfiles");
    reg.refresh();
    BOOST_TEST(reg.snapshot()->find("x") != nullptr);
}

// Where links are, one path's change may change what another leads to: a link
// retargeted under a chain of links, a broken link renamed over, a tier reached through
// a link pointed elsewhere, and (files layout) a SKILL.md, which no walk lists. Each
// refresh equals a first load.
BOOST_AUTO_TEST_CASE(changes_through_links_refresh_to_what_a_first_load_gives)
{
    temp_dir t;
    fs::path const flat = t / "flat";
    write(flat / "lib/v1.md", skill("s1", "one"));
    write(flat / "lib/v2.md", skill("s1", "two"));
    fs::create_directories(flat / "s0");
    fs::create_directories(flat / "s1");
    fs::create_symlink("../lib/v1.md", flat / "s1/SKILL.md");
    fs::create_symlink("../s1/SKILL.md", flat / "s0/SKILL.md");
    fs::create_symlink("nowhere", flat / "x");
    for (char const* n : {"real1", "real2"}) write(t / n / "only/SKILL.md", skill("only", n));
    fs::create_directory_symlink("real1", t / "linked");
    write(t / "files/one.md", skill("one", "v1"));
    write(t / "filelink/alpha/SKILL.md", skill("alpha", "v1")); // a link to a plain file: passed over in silence
    write(t / "filelink/alpha/file", "a file");
    fs::create_symlink("alpha/file", t / "filelink/link");
    auto const run = [&](fs::path const& root, layout lay, std::vector<std::function<void()>> const& steps) {
        directory_options o;
        o.layout = lay;
        using reg_t = basic_registry<parser, first_tier_wins, walk_counting_dir>;
        reg_t reg(parser{}, lenient(dialects::claude_code()), walk_counting_dir{directory_source("t", root.string(), o)});
        reg.load();
        reg.refresh();
        reg.refresh();
        for (std::size_t k = 0; k < steps.size(); ++k) {
            steps[k]();
            reg.refresh();
            reg_t first(parser{}, lenient(dialects::claude_code()), walk_counting_dir{directory_source("t", root.string(), o)});
            first.load();
            BOOST_TEST(whole(*reg.snapshot()) == whole(*first.snapshot()), root << " step " << k);
        }
    };
    run(flat, layout::flat,
        {[&] {
             fs::remove(flat / "s1/SKILL.md");
             fs::create_symlink("../lib/v2.md", flat / "s1/SKILL.md");
         },
         [&] {
             write(flat / "made", "a file");
             fs::rename(flat / "made", flat / "x");
         }});
    run(t / "linked", layout::flat, {[&] {
            fs::remove(t / "linked");
            fs::create_directory_symlink("real2", t / "linked");
        }});
    run(t / "files", layout::files, {[&] { write(t / "files/SKILL.md", skill("SKILL", "no skill")); }});
    run(t / "filelink", layout::flat, {[&] { fs::remove(t / "filelink/alpha/file"); }}); // now a broken link
    // Files layout: a skill file that is a link to nothing yet is reported, not listed;
    // its target made later, outside the tier, raises no event in it.
    write(t / "elsewhere/p.md", skill("p", "outside"));
    fs::create_directories(t / "files2");
    fs::create_symlink(t / "elsewhere/p.md", t / "files2/p.md");
    fs::remove(t / "elsewhere/p.md");
    run(t / "files2", layout::files, {[&] { write(t / "elsewhere/p.md", skill("p", "made where the link leads")); },
                                      [&] { fs::remove(t / "elsewhere/p.md"); }});
}

// A nested tier whose walk went through links (a team's folder kept in a dotfiles
// checkout): skills made, edited and removed through them and beside them, and a link
// made (to a folder the walk follows, or to a file), replaced as `ln -sfn` does, or
// removed, without a walk; a link the walk would say something of (into the tier, to a
// folder already reached, to nothing, with a link below), or one on the way pointed
// elsewhere (no event in the tier), walks.
BOOST_AUTO_TEST_CASE(links_in_a_nested_tree_are_asked_again_and_the_rest_derived)
{
    temp_dir t;
    fs::path const tier = t / "tier", dotfiles = t / "dotfiles";
    write(tier / "base/SKILL.md", skill("base", "a plain folder"));
    write(dotfiles / "team/SKILL.md", skill("team", "the team's parent"));
    write(dotfiles / "team/lint/SKILL.md", skill("lint", "the team's lint"));
    write(dotfiles / "other/SKILL.md", skill("other", "another folder"));
    write(dotfiles / "notes.txt", "a file");
    fs::create_directory_symlink(dotfiles / "team", tier / "team");
    fs::create_directory_symlink(dotfiles / "other", tier / "base/other");
    fs::create_symlink(dotfiles / "notes.txt", tier / "base/notes");
    directory_options o;
    o.allowed_roots = {dotfiles.string()};
    one_watched_nested_tier n(tier, o);
    auto& reg = n.reg;
    auto const refresh = [&n](int walks, char const* what) { n.refresh(walks, what); };
    auto const description = [&](char const* command) {
        auto const* r = reg.snapshot()->find(command);
        return r ? std::string(r->meta.description) : std::string("(none)");
    };
    reg.load();
    reg.refresh();
    reg.refresh();
    BOOST_TEST_REQUIRE(description("team/lint") == "the team's lint");
    BOOST_TEST_REQUIRE(description("base/other") == "another folder");
    refresh(0, "nothing changed, with links in the tree");
    write(dotfiles / "team/lint/SKILL.md", skill("lint", "edited where the link leads"));
    refresh(0, "an edit through a link");
    BOOST_TEST(description("team/lint") == "edited where the link leads");
    write(tier / "team/fmt/SKILL.md", skill("fmt", "made through the link"));
    refresh(0, "a skill made through a link");
    BOOST_TEST(description("team/fmt") == "made through the link");
    write(tier / "base/plain/SKILL.md", skill("plain", "made beside the links"));
    refresh(0, "a skill made beside them");
    write(dotfiles / "team/fmt/SKILL.md.swp", "swap");
    fs::rename(dotfiles / "team/fmt/SKILL.md.swp", dotfiles / "team/fmt/SKILL.md");
    refresh(0, "saved by a rename where the link leads");
    fs::remove_all(tier / "base/plain");
    refresh(0, "a folder beside them removed");
    fs::remove(tier / "base/other");
    refresh(0, "a link removed: what was below it goes");
    BOOST_TEST(description("base/other") == "(none)");
    fs::remove(tier / "base/notes");
    refresh(0, "a link to a file removed");
    fs::remove_all(dotfiles / "team/fmt");
    refresh(0, "a skill removed where the link leads");
    fs::create_directory_symlink(dotfiles / "other", tier / "base/other");
    refresh(0, "a link to a folder made: walked through, alone");
    BOOST_TEST(description("base/other") == "another folder");
    write(dotfiles / "other/deep/SKILL.md", skill("deep", "below the new link"));
    refresh(0, "a skill made below the new link");
    BOOST_TEST(description("base/other/deep") == "below the new link");
    fs::create_symlink(dotfiles / "notes.txt", tier / "base/notes");
    refresh(0, "a link to a file made: passed over, asked again at each look");
    write(dotfiles / "third/SKILL.md", skill("third", "a third folder"));
    fs::create_directory_symlink(dotfiles / "third", tier / "base/other.new");
    fs::rename(tier / "base/other.new", tier / "base/other");
    refresh(0, "pointed elsewhere as ln -sfn does: what was below it goes, what is there now comes");
    BOOST_TEST(description("base/other") == "a third folder");
    BOOST_TEST(description("base/other/deep") == "(none)");
    fs::create_directory_symlink(dotfiles / "other", dotfiles / "third/inner");
    refresh(0, "a link made below a link: walked through, alone");
    BOOST_TEST(description("base/other/inner/deep") == "below the new link");
    // Links the walk reports: made and removed, each walking (the report comes and goes with a walk).
    auto const reported = [&](fs::path const& to, fs::path const& link, char const* what) {
        fs::create_symlink(to, link);
        refresh(1, what);
        fs::remove(link);
        refresh(1, "and removed");
    };
    reported(tier / "base", tier / "team/base-again", "a link into the tier itself: the walk says why it is not followed");
    reported(t / "nowhere", tier / "base/dangling", "a link to nothing: the walk reports it");
    reported(dotfiles / "team", tier / "base/fourth", "a second path to a folder a link reaches: the walk skips one");
    write(dotfiles / "fifth/SKILL.md", skill("fifth", "a folder with a link in it"));
    fs::create_symlink(dotfiles / "notes.txt", dotfiles / "fifth/notes");
    fs::create_directory_symlink(dotfiles / "fifth", tier / "base/fifth");
    refresh(1, "a link to a folder with a link below: walked");
    BOOST_TEST(description("base/fifth") == "a folder with a link in it");
    reg.refresh(); // (a walk that set new watches vouches for them at the next)
    fs::remove(tier / "base/other");
    fs::create_directory_symlink(dotfiles / "other", tier / "base/other");
    refresh(0, "removed and made again, to the first folder");
    BOOST_TEST(description("base/other") == "another folder");
    BOOST_TEST(description("base/other/inner") == "(none)");
    BOOST_TEST(description("base/other/deep") == "below the new link");
    fs::rename(dotfiles / "other", dotfiles / "other.old");
    write(dotfiles / "other/SKILL.md", skill("other", "another folder where the link leads now"));
    refresh(1, "a folder on a link's way replaced: no event in the tier, walked");
    BOOST_TEST(description("base/other") == "another folder where the link leads now");
    reg.refresh();
    refresh(0, "and settled");
}

// A link pointed elsewhere, then back while the registry reads what changed: a skill file
// handed over as gone (below the folder the link led to) is found there, through the link
// pointed back, though no walk would list it. Every later drop below the link hands it
// over again, so the refresh after the link's next event puts it right, without a walk.
BOOST_AUTO_TEST_CASE(a_skill_read_through_a_link_pointed_back_mid_refresh_goes_at_the_next)
{
    temp_dir t;
    fs::path const tier = t / "tier", dotfiles = t / "dotfiles";
    write(tier / "p0/SKILL.md", skill("p0", "a parent"));
    write(dotfiles / "d0/x/SKILL.md", skill("x", "below d0"));
    write(dotfiles / "d1/y/SKILL.md", skill("y", "below d1"));
    fs::create_directory_symlink(dotfiles / "d0", tier / "p0/link");
    directory_options o;
    o.allowed_roots = {dotfiles.string()};
    one_watched_nested_tier n(tier, o);
    auto& reg = n.reg;
    reg.load();
    reg.refresh();
    reg.refresh();
    auto const point = [&](char const* to) { // as ln -sfn does
        fs::create_directory_symlink(dotfiles / to, tier / "p0/link.new");
        fs::rename(tier / "p0/link.new", tier / "p0/link");
    };
    point("d1");
    bool armed = true;
    *n.src.before_read = [&] {
        if (!std::exchange(armed, false)) return;
        point("d0"); // once the events are in and the link settled on d1
    };
    reg.refresh(); // what this one lists is a race's
    *n.src.before_read = nullptr;
    BOOST_TEST_REQUIRE(!armed);
    point("d1");
    n.refresh(0, "pointed at d1 again: the skill read through the link pointed back goes");
    BOOST_TEST(reg.snapshot()->find("p0/link/x") == nullptr);
    BOOST_TEST(reg.snapshot()->find("p0/link/y") != nullptr);
}

// A flat tier meets all its links at its root: one made there (a skill folder kept in a
// dotfiles checkout, as users install skills), pointed elsewhere, renamed or removed is
// followed without a walk. Where a link leads can change with no event in the tier (a
// link on its way pointed elsewhere, a folder on its way renamed): each refresh asks the
// links again, and walks when one leads elsewhere. Each step equals a first load.
BOOST_AUTO_TEST_CASE(links_at_a_flat_root_are_followed_without_a_walk)
{
    temp_dir t;
    fs::path const user = t / "home/.claude/skills", project = t / "project/.claude/skills", dotfiles = t / "dotfiles";
    for (char const* n : {"commit", "review", "deploy", "team/lint"}) write(dotfiles / n / "SKILL.md", skill(fs::path(n).filename().string(), n));
    write(dotfiles / "notes.txt", "a file");
    write(user / "local/SKILL.md", skill("local", "a plain folder"));
    fs::create_directories(project);
    fs::create_directory_symlink(dotfiles / "commit", user / "commit");
    fs::create_directory_symlink("review", dotfiles / "current");
    directory_options o;
    o.allowed_roots = {dotfiles.string()};
    two_watched_tiers<first_tier_wins> w("user", user, "project", project, lenient(dialects::claude_code()), o);
    w.load();
    auto const refresh = [&w](int walks, char const* what) { w.refresh(walks, what); };
    auto const description = [&w](char const* command) {
        auto const* r = w.reg.snapshot()->find(command);
        return r ? std::string(r->meta.description) : std::string("(none)");
    };
    refresh(0, "nothing changed, with a link at the root");
    write(dotfiles / "commit/SKILL.md", skill("commit", "edited where the link leads"));
    refresh(0, "an edit through a link");
    fs::create_directory_symlink(dotfiles / "review", user / "review");
    refresh(0, "a link made");
    BOOST_TEST(description("review") == "review");
    fs::create_directory_symlink(dotfiles / "deploy", project / "ship");
    refresh(0, "a link made in the other tier");
    fs::create_directory_symlink(dotfiles / "deploy", user / "review.new");
    fs::rename(user / "review.new", user / "review");
    refresh(0, "a link pointed elsewhere as `ln -sfn` does");
    BOOST_TEST(description("review") == "deploy");
    fs::rename(user / "commit", user / "kept");
    refresh(0, "a link renamed");
    BOOST_TEST(description("kept") == "edited where the link leads");
    fs::remove(user / "review");
    refresh(0, "a link removed");
    fs::create_symlink(dotfiles / "notes.txt", user / "notes");
    refresh(0, "a link to a file, passed over");
    // Its file replaced by a folder with a skill (which may get the file's inode number):
    // only a walk follows it.
    fs::remove(dotfiles / "notes.txt");
    write(dotfiles / "notes.txt/SKILL.md", skill("notes", "a folder where a file was"));
    refresh(2, "a link's file replaced by a folder");
    BOOST_TEST(description("notes") == "a folder where a file was");
    w.reg.refresh();
    fs::remove(user / "notes");
    fs::create_directory_symlink(dotfiles / "team/lint", user / "notes");
    refresh(0, "a link to a file replaced by one to a folder");
    BOOST_TEST(description("notes") == "team/lint");
    fs::create_directory_symlink(dotfiles / "current", user / "current");
    refresh(0, "a link through a link");
    BOOST_TEST(description("current") == "review");
    // Two links exchanged (RENAME_EXCHANGE): each entry reports gone after it came, and is
    // taken as what it is once every event is in. In one tier, and across the two.
    auto const exchange = [](fs::path const& a, fs::path const& b) {
        BOOST_TEST_REQUIRE(::renameat2(AT_FDCWD, a.c_str(), AT_FDCWD, b.c_str(), RENAME_EXCHANGE) == 0);
    };
    exchange(user / "kept", user / "notes");
    refresh(0, "two links exchanged");
    BOOST_TEST(description("kept") == "team/lint");
    exchange(user / "notes", project / "ship");
    refresh(0, "two links exchanged across the tiers");
    BOOST_TEST(description("ship") == "edited where the link leads");
    exchange(user / "notes", project / "ship");
    exchange(user / "notes", user / "kept");
    refresh(0, "and back");
    BOOST_TEST(description("kept") == "edited where the link leads");

    // Where a link leads changed, with no event in either tier: the registry walks (both tiers).
    fs::remove(dotfiles / "current");
    fs::create_directory_symlink("deploy", dotfiles / "current");
    refresh(2, "a link on the way pointed elsewhere");
    BOOST_TEST(description("current") == "deploy");
    w.reg.refresh();
    refresh(0, "and then nothing");
    fs::rename(dotfiles / "team", dotfiles / "team2");
    refresh(2, "a folder on a link's way renamed: the link leads nowhere");
    BOOST_TEST(description("notes") == "(none)");
    fs::rename(dotfiles / "team2", dotfiles / "team");
    refresh(2, "and back (a tier whose walk reported a link walks)");
    BOOST_TEST(description("notes") == "team/lint");
    w.reg.refresh();
    refresh(0, "and then nothing");
    fs::create_directory_symlink(dotfiles / "review", project / "look");
    refresh(0, "a link in the other tier to a folder no other link of it reaches");
    // What only a walk can say.
    fs::create_directory_symlink(t / "home", user / "outside");
    refresh(2, "a link outside the folders the tier may read");
    fs::remove(user / "outside");
    refresh(2, "removed");
    w.reg.refresh();
    fs::create_directory_symlink(user / "local", user / "again");
    refresh(2, "a second name for a folder of the tier");
    fs::remove(user / "again");
    refresh(2, "removed");
    w.reg.refresh();
    fs::create_directory_symlink(dotfiles / "deploy", user / "deploy");
    refresh(2, "a second link to one folder in one tier");
    fs::remove(user / "deploy");
    refresh(2, "removed");
    // A link to nothing yet, named beyond ASCII (its report escapes the name): its target
    // made later, with no event in the tier, is found.
    fs::create_directory_symlink(dotfiles / "later", user / "caf\xc3\xa9");
    refresh(2, "a link to nothing yet");
    write(dotfiles / "later/SKILL.md", skill("later", "made where the link leads"));
    refresh(2, "its target made");
    BOOST_TEST(description("caf\xc3\xa9") == "made where the link leads");
}

// One file reached through two tiers under one command is listed once: the second copy
// is dropped, and no list holds it. When the winner becomes another file (saved by a
// rename, pointed elsewhere) or goes, the copy comes back, shadowed or listed, without a
// walk: the snapshot keeps the dropped copies' reads. A hard link, and a link in each tier
// to one dotfiles folder.
BOOST_AUTO_TEST_CASE(a_copy_dropped_as_its_winners_file_comes_back_when_the_winner_changes)
{
    temp_dir t;
    fs::path const user = t / "user", project = t / "project", dotfiles = t / "dotfiles";
    write(user / "x/SKILL.md", skill("x", "one file, two tiers"));
    fs::create_directories(project / "x");
    fs::create_hard_link(user / "x/SKILL.md", project / "x/SKILL.md");
    write(dotfiles / "y/SKILL.md", skill("y", "linked from both tiers"));
    write(dotfiles / "z/SKILL.md", skill("z", "another"));
    fs::create_directory_symlink(dotfiles / "y", user / "y");
    fs::create_directory_symlink(dotfiles / "y", project / "y");
    write(user / "other/SKILL.md", skill("other", "a command of its own"));
    directory_options o;
    o.allowed_roots = {dotfiles.string()};
    two_watched_tiers<first_tier_wins> w("user", user, "project", project, lenient(dialects::claude_code()), o);
    w.load();
    auto const refresh = [&w](int walks, char const* what) { w.refresh(walks, what); };
    BOOST_TEST(w.reg.snapshot()->shadowed().empty());
    write(user / "other/SKILL.md", skill("other", "edited"));
    refresh(0, "another command edited");
    write(user / "x/SKILL.md.new", skill("x", "saved by a rename: no longer the project's file"));
    fs::rename(user / "x/SKILL.md.new", user / "x/SKILL.md");
    refresh(0, "the winner saved as another file");
    BOOST_TEST(w.reg.snapshot()->shadowed().size() == 1u);
    w.reg.refresh();
    fs::create_directory_symlink(dotfiles / "z", user / "y.new");
    fs::rename(user / "y.new", user / "y");
    refresh(0, "the winner's link pointed elsewhere");
    BOOST_TEST(w.reg.snapshot()->shadowed().size() == 2u);
    w.reg.refresh();
    fs::remove(user / "y");
    fs::create_directory_symlink(dotfiles / "y", user / "y");
    w.reg.refresh();
    w.reg.refresh();
    BOOST_TEST_REQUIRE(w.reg.snapshot()->shadowed().size() == 1u); // y is one file again
    fs::remove(user / "y");
    refresh(0, "the winner's link removed");
    BOOST_TEST_REQUIRE(w.reg.snapshot()->find("y") != nullptr);
    BOOST_TEST(w.reg.snapshot()->find("y")->tier == "project");
}

// A snapshot's lists in chunks: every edit matches the same edit of a plain vector.
BOOST_AUTO_TEST_CASE(chunked_lists_follow_inserts_erases_and_sets)
{
    std::mt19937 rng(7);
    std::vector<int> plain(1000);
    for (int i = 0; i < 1000; ++i) plain[static_cast<std::size_t>(i)] = i;
    skillmd::detail::chunked<int> list{std::vector<int>(plain)};
    skillmd::detail::chunked<int> const kept = list;
    std::vector<int> const kept_plain = plain;
    for (int n = 0; n < 5000; ++n) {
        std::size_t const i = rng() % (plain.size() + 1);
        switch (rng() % 3) {
        case 0:
            list.insert(i, n);
            plain.insert(plain.begin() + static_cast<std::ptrdiff_t>(i), n);
            break;
        case 1:
            if (i < plain.size()) {
                list.erase(i);
                plain.erase(plain.begin() + static_cast<std::ptrdiff_t>(i));
            }
            break;
        default:
            if (i < plain.size()) {
                list.set(i, -n);
                plain[i] = -n;
            }
        }
        if (n % 500 == 0 || plain.size() < 3) {
            BOOST_TEST_REQUIRE(list.size() == plain.size());
            BOOST_TEST_REQUIRE(std::equal(list.begin(), list.end(), plain.begin(), plain.end()));
        }
    }
    BOOST_TEST(std::equal(list.begin(), list.end(), plain.begin(), plain.end()));
    BOOST_TEST(std::equal(kept.begin(), kept.end(), kept_plain.begin(), kept_plain.end())); // a copy made before is untouched
    while (!plain.empty()) {
        list.erase(0);
        plain.erase(plain.begin());
    }
    BOOST_TEST(list.empty());
    list.insert(0, 42);
    BOOST_TEST(list.size() == 1u);
    BOOST_TEST(list[0] == 42);
}

BOOST_AUTO_TEST_CASE(random_changes_in_every_layout_refresh_to_what_a_first_load_gives)
{
    int const n = property_sequences();
    unsigned const seed = property_seed();
    BOOST_TEST_MESSAGE("property: " << n << " sequences per layout, seed " << seed);
    int const flat = random_changes_match_a_first_load<first_tier_wins>(layout::flat, dialects::claude_code(), seed, n, 8, {.links = true, .rules = true});
    int const nested = random_changes_match_a_first_load<highest_tier_wins>(layout::nested, dialects::sven(), seed + 1, n, 8, {.rules = true});
    int const files = random_changes_match_a_first_load<keep_all>(layout::files, dialects::agent_skills(), seed + 2, n, 8, {.rules = true});
    BOOST_TEST_MESSAGE("derived without a walk: flat " << flat << ", nested " << nested << ", files " << files << " of " << 8 * n << " each");
    // The fast path was taken, and compared, in every layout.
    BOOST_TEST(flat > 0);
    BOOST_TEST(nested > 0);
    BOOST_TEST(files > 0);
    // Changes that keep to themselves: skills made, edited, saved by a rename and removed.
    int const quiet_flat = random_changes_match_a_first_load<first_tier_wins>(layout::flat, dialects::claude_code(), seed + 3, n, 8, {.quiet = true});
    int const quiet_nested = random_changes_match_a_first_load<highest_tier_wins>(layout::nested, dialects::sven(), seed + 4, n, 8, {.quiet = true});
    int const quiet_files = random_changes_match_a_first_load<keep_all>(layout::files, dialects::agent_skills(), seed + 5, n, 8, {.quiet = true});
    BOOST_TEST_MESSAGE("quiet changes derived without a walk: flat " << quiet_flat << ", nested " << quiet_nested << ", files "
                                                                       << quiet_files << " of " << 8 * n << " each");
    for (int const derived : {quiet_flat, quiet_nested, quiet_files}) BOOST_TEST(derived > 8 * n / 2);
    // Nested trees made, renamed and removed whole, each walked alone.
    int const trees = random_changes_match_a_first_load<highest_tier_wins>(layout::nested, dialects::sven(), seed + 6, n, 8, {.quiet = true, .trees = true});
    BOOST_TEST_MESSAGE("nested trees derived without a walk: " << trees << " of " << 8 * n);
    BOOST_TEST(trees > 8 * n / 2);
    // Both tiers with the same commands: each change re-resolves its command's group.
    int const shadow_flat = random_changes_match_a_first_load<first_tier_wins>(layout::flat, dialects::claude_code(), seed + 7, n, 8, {.quiet = true, .shadowing = true});
    int const shadow_nested =
        random_changes_match_a_first_load<highest_tier_wins_warned>(layout::nested, dialects::sven(), seed + 8, n, 8, {.quiet = true, .shadowing = true, .rules = true});
    BOOST_TEST_MESSAGE("shadowing changes derived without a walk: flat " << shadow_flat << ", nested " << shadow_nested << " of " << 8 * n
                                                                          << " each");
    BOOST_TEST(shadow_flat > 8 * n / 2);
    BOOST_TEST(shadow_nested > 8 * n / 2);
    // Codex: the command is the `name:`, and every copy is kept as `name@tier`.
    int const codex = random_changes_match_a_first_load<keep_every_copy>(layout::flat, dialects::codex_0_169(), seed + 9, n, 8, {.links = true, .rules = true});
    int const codex_copies =
        random_changes_match_a_first_load<keep_every_copy>(layout::flat, dialects::codex_0_169(), seed + 10, n, 8, {.quiet = true, .shadowing = true, .rules = true});
    BOOST_TEST_MESSAGE("Codex's copies derived without a walk: mixed " << codex << ", in both tiers " << codex_copies << " of " << 8 * n
                                                                         << " each");
    BOOST_TEST(codex > 0);
    BOOST_TEST(codex_copies > 8 * n / 2);
    // Gemini CLI: the command is the `name:` too, and the last copy wins (the last tier's,
    // the last in its walk): a `name:` shared in one tier makes copies there, shadowed.
    int const gemini_copies =
        random_changes_match_a_first_load<highest_tier_wins_warned>(layout::flat, dialects::gemini_cli_0_61(), seed + 12, n, 8, {.quiet = true});
    BOOST_TEST_MESSAGE("Gemini CLI's copies in one tier derived without a walk: " << gemini_copies << " of " << 8 * n);
    BOOST_TEST(gemini_copies > 8 * n / 2);
    // Skill folders that are links into a dotfiles folder, made, pointed elsewhere and removed.
    int const quiet_links =
        random_changes_match_a_first_load<first_tier_wins>(layout::flat, dialects::claude_code(), seed + 11, n, 8, {.quiet = true, .links = true});
    BOOST_TEST_MESSAGE("links at flat roots derived without a walk: " << quiet_links << " of " << 8 * n);
    BOOST_TEST(quiet_links > 8 * n / 2);
    // Nested: parent and skill folders that are links into the dotfiles folder, and skills
    // made, edited and removed through them and beside them.
    int const nested_links =
        random_changes_match_a_first_load<highest_tier_wins>(layout::nested, dialects::sven(), seed + 13, n, 8, {.links = true, .rules = true});
    int const quiet_nested_links =
        random_changes_match_a_first_load<highest_tier_wins>(layout::nested, dialects::sven(), seed + 14, n, 8, {.quiet = true, .links = true});
    BOOST_TEST_MESSAGE("links in nested trees derived without a walk: mixed " << nested_links << ", quiet " << quiet_nested_links << " of " << 8 * n);
    BOOST_TEST(nested_links > 0);
    BOOST_TEST(quiet_nested_links > 8 * n / 2);
    // One folder as two tiers: each change re-resolves its command with its dropped copy.
    int const one_root = random_changes_match_a_first_load<first_tier_wins>(layout::flat, dialects::claude_code(), seed + 15, n, 8, {.rules = true, .one_root = true});
    int const quiet_one_root = random_changes_match_a_first_load<keep_every_copy>(layout::flat, dialects::codex_0_169(), seed + 16, n, 8, {.quiet = true, .one_root = true});
    int const nested_one_root = random_changes_match_a_first_load<highest_tier_wins>(layout::nested, dialects::sven(), seed + 17, n, 8, {.quiet = true, .one_root = true});
    // (sven reads requirements: a dropped copy that bears one walks when gating changes)
    int const gated_one_root = random_changes_match_a_first_load<highest_tier_wins>(layout::nested, dialects::sven(), seed + 18, n, 8, {.rules = true, .one_root = true});
    BOOST_TEST_MESSAGE("one folder as two tiers derived without a walk: Claude Code mixed " << one_root << ", Codex quiet " << quiet_one_root
                                                                                         << ", nested quiet " << nested_one_root << ", nested mixed "
                                                                                         << gated_one_root << " of " << 8 * n);
    BOOST_TEST(one_root > 0);
    BOOST_TEST(gated_one_root > 0);
    // Names beyond ASCII: look-alikes compared by their Unicode skeletons, searched in the
    // snapshot's table of them; the last such name gone walks (case decides again).
    int const unicode = random_changes_match_a_first_load<first_tier_wins>(layout::flat, dialects::claude_code(), seed + 19, n, 8, {.quiet = true, .unicode = true});
    int const unicode_copies =
        random_changes_match_a_first_load<keep_every_copy>(layout::flat, dialects::codex_0_169(), seed + 20, n, 8, {.quiet = true, .shadowing = true, .unicode = true});
    BOOST_TEST_MESSAGE("names beyond ASCII derived without a walk: Claude Code " << unicode << ", Codex's copies " << unicode_copies << " of " << 8 * n);
    BOOST_TEST(unicode > 8 * n / 2);
    BOOST_TEST(unicode_copies > 8 * n / 2);
    BOOST_TEST(quiet_one_root > 8 * n / 2);
    BOOST_TEST(nested_one_root > 8 * n / 2);
    ::unsetenv("SKILLMD_PROPERTY_TEST_GATE");
}

BOOST_AUTO_TEST_SUITE_END()
