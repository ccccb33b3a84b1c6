// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
//
// The sources: layouts, walkers, bounds, links and odd names of directory trees (SPEC 2).

#include "../support/skill_trees.hpp"

#include <skillmd/storage/sources/memory_source.hpp>

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

BOOST_AUTO_TEST_SUITE(sources)

BOOST_AUTO_TEST_CASE(flat_layout_lists_skills_and_their_bundled_files)
{
    temp_dir t;
    write(t / "b-skill/SKILL.md", skill("b-skill", "B"));
    write(t / "a-skill/SKILL.md", skill("a-skill", "A"));
    write(t / "a-skill/scripts/run.sh", "echo\n");
    write(t / "a-skill/references/deep/notes.md", "x\n");
    write(t / "a-skill/nested/SKILL.md", skill("nested", "not a skill in the flat layout"));
    write(t / "loose/README.md", "no SKILL.md here\n");
    directory_source const src("t", t.path.string());
    auto const d = src.discover();
    BOOST_TEST((commands(d) == std::vector<std::string>{"a-skill", "b-skill"}));
    auto const& a = by_command(d, "a-skill");
    BOOST_TEST(a.directory_name == "a-skill");
    BOOST_TEST((src.bundled_files(a) == std::vector<std::string>{"nested/SKILL.md", "references/deep/notes.md", "scripts/run.sh"}));
    BOOST_TEST(src.stamp(a)->inode != 0u);
    BOOST_TEST(!src.stamp(by_command(d, "loose")).has_value()); // a folder without SKILL.md
}

BOOST_AUTO_TEST_CASE(nested_layout_uses_the_path_as_command)
{
    temp_dir t;
    write(t / "sven/SKILL.md", skill("Sven", "root"));
    write(t / "sven/scripts/helper.sh", "x");
    write(t / "sven/plan/SKILL.md", skill("Plan", "plan"));
    write(t / "sven/implement/research/SKILL.md", skill("Research", "deep"));
    write(t / "sven/implement/notes.txt", "bundled with sven");
    write(t / "git-workflow/SKILL.md", skill("git", "g"));
    directory_options o;
    o.layout = layout::nested;
    directory_source const src("t", t.path.string(), o);
    auto const d = src.discover();
    BOOST_TEST((commands(d) == std::vector<std::string>{"git-workflow", "sven", "sven/implement/research", "sven/plan"}));
    BOOST_TEST((src.bundled_files(by_command(d, "sven")) == std::vector<std::string>{"implement/notes.txt", "scripts/helper.sh"}));
    basic_registry<parser, first_tier_wins, directory_source> reg(parser{}, lenient(dialects::sven()), src);
    reg.load();
    auto const s = reg.snapshot();
    BOOST_TEST(s->skills().size() == 4u); // sven/scripts and sven/implement hold no SKILL.md
    // sven: a sub-skill is exactly one segment below; `sven/implement` holds no skill, so
    // `sven/implement/research` is no one's child (it is still a skill of its own).
    BOOST_TEST((s->find("sven")->children == std::vector<std::string>{"sven/plan"}));
    BOOST_TEST((reg.bundled_files(*s->find("sven")) == std::vector<std::string>{"implement/notes.txt", "scripts/helper.sh"}));
}

BOOST_AUTO_TEST_CASE(files_layout_takes_each_markdown_file)
{
    temp_dir t;
    write(t / "review.md", skill("review", "r"));
    write(t / "deploy.md", skill("deploy", "d"));
    write(t / "notes.txt", "not markdown");
    write(t / "sub/other.md", "not at the top");
    auto const d = discover(t.path, layout::files);
    BOOST_TEST((commands(d) == std::vector<std::string>{"deploy", "review"}));
    BOOST_TEST(d.skills[0].directory_name == "deploy");
}

BOOST_AUTO_TEST_CASE(symlinks_are_followed_and_loops_end_at_once)
{
    temp_dir t;
    write(t / "real/SKILL.md", skill("real", "r"));
    fs::create_directory_symlink(t / "real", t / "alias");
    fs::create_directory_symlink(t.path, t / "real/loop"); // back to the root
    write(t / "target.md", skill("linked", "l"));
    fs::create_directories(t / "linked");
    fs::create_symlink(t / "target.md", t / "linked/SKILL.md");
    // an 8 x 8 mesh of mutually linked directories
    for (int i = 0; i < 8; ++i) fs::create_directories(t / ("mesh/m" + std::to_string(i)));
    for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 8; ++j)
            fs::create_directory_symlink(t / ("mesh/m" + std::to_string(j)), t / ("mesh/m" + std::to_string(i) + "/l" + std::to_string(j)));
    auto const d = discover(t.path, layout::nested);
    BOOST_TEST(d.directories.size() < 64u); // each directory of the mesh walked once, not once per path
    // `alias` is a link to `real`, a folder of the same tier: `real` is found at its own
    // place, under its own name, though the walk meets `alias` first
    BOOST_TEST((commands(d) == std::vector<std::string>{"linked", "real"}));
    BOOST_TEST(has(d.diagnostics, "discovery-loop"));
    // The mesh is walked (its folders hold only links, so a link-count shortcut skipped them):
    // each of its eight folders once, every second path to one of them a loop diagnostic.
    auto const mesh = std::count_if(d.directories.begin(), d.directories.end(),
                                    [](std::string const& p) { return p.find("/mesh/m") != std::string::npos; });
    BOOST_TEST(mesh == 8);
    BOOST_TEST(has(d.diagnostics, "discovery-loop", "/mesh/m0/l"));
}

BOOST_AUTO_TEST_CASE(odd_files_give_diagnostics_and_never_block)
{
    temp_dir t;
    write(t / "good/SKILL.md", skill("good", "g"));
    fs::create_directories(t / "fifo");
    BOOST_TEST_REQUIRE(::mkfifo((t / "fifo/SKILL.md").c_str(), 0600) == 0);
    fs::create_directories(t / "sock");
    int const s = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::string const sp = (t / "sock/SKILL.md").string();
    if (sp.size() < sizeof addr.sun_path) {
        std::memcpy(addr.sun_path, sp.c_str(), sp.size() + 1);
        BOOST_TEST(::bind(s, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
    }
    ::close(s);
    fs::create_directories(t / "device");
    fs::create_symlink("/dev/zero", t / "device/SKILL.md");
    write(t / "bad\nname/SKILL.md", skill("x", "x"));
    write(t / "bad\xFEname/SKILL.md", skill("x", "x"));
    write(t / "dangling/README", "x");
    fs::create_symlink(t / "nowhere", t / "dangling/SKILL.md");
    directory_source const src("t", t.path.string());
    auto const d = src.discover();
    BOOST_TEST(has(d.diagnostics, "discovery", "not printable"));
    for (auto const& diag : d.diagnostics) // names are escaped before they reach any output
        BOOST_TEST(diag.file.find('\n') == std::string::npos);
    for (char const* odd : {"fifo", "sock"}) {
        auto const r = src.read_head(by_command(d, odd));
        BOOST_TEST(!r.text.has_value(), odd);
        BOOST_TEST(r.error == "not a regular file", odd << ": " << r.error);
    }
    // /dev/zero is outside the tier: refused for that, before it is opened to be read
    auto const device = src.read_head(by_command(d, "device"));
    BOOST_TEST(!device.text.has_value());
    BOOST_TEST(device.error.find("leads outside the tier's folders (to /dev/zero)") != std::string::npos, device.error);
    auto const dangling = src.read_head(by_command(d, "dangling"));
    BOOST_TEST(dangling.error == "broken symbolic link");
    BOOST_TEST(!dangling.absent);
    basic_registry<parser, first_tier_wins, directory_source> reg(parser{}, lenient(), src);
    reg.load();
    BOOST_TEST(reg.snapshot()->skills().size() == 1u);
    BOOST_TEST(has(reg.snapshot()->diagnostics(), "skill-unreadable", "not a regular file"));
}

// The Boost.Filesystem walker exists for platforms without openat and inotify; on Linux
// it must find exactly what the POSIX walker finds. discover() compares the two on every
// call; this tree holds every kind of entry at once, under each layout and bound.
BOOST_AUTO_TEST_CASE(both_walkers_agree_on_one_hostile_tree)
{
    temp_dir t;
    fs::path const root = t / "root";
    write(root / "good/SKILL.md", skill("good", "g"));
    write(root / "good/notes.md", "x");
    write(root / "Case/skill.md", skill("case", "c"));
    write(root / "deep/a/b/c/d/e/f/g/SKILL.md", skill("g", "g"));
    write(root / "nest/SKILL.md", skill("nest", "n"));
    write(root / "nest/child/SKILL.md", skill("child", "c"));
    write(root / "top.md", skill("top", "t"));
    write(root / "bad\nname/SKILL.md", skill("x", "x"));
    write(root / "bad\xFEname/SKILL.md", skill("x", "x"));
    write(root / "bad\x01file.md", skill("x", "x"));
    write(root / "node_modules/hidden/SKILL.md", skill("hidden", "h"));
    BOOST_TEST_REQUIRE(::mkfifo((root / "pipe.md").c_str(), 0600) == 0);
    fs::create_directories(root / "fifo");
    BOOST_TEST_REQUIRE(::mkfifo((root / "fifo/SKILL.md").c_str(), 0600) == 0);
    fs::create_symlink(t / "nowhere", root / "dangling");
    fs::create_symlink(t / "nowhere.md", root / "dangling.md");
    fs::create_directory_symlink(root / "nest", root / "alias");
    fs::create_directory_symlink(root, root / "nest/loop");
    write(t / "outside/escaped/SKILL.md", skill("escaped", "e"));
    fs::create_directory_symlink(t / "outside", root / "out");
    fs::create_directory_symlink(t / "outside/escaped", root / "escaped");
    for (int i = 0; i < 30; ++i) fs::create_directories(root / "many" / numbered("d", i));

    directory_options allowed;
    allowed.allowed_roots = {(t / "outside").string()};
    directory_options bounded;
    bounded.max_depth = 3;
    bounded.max_directories = 20;
    std::size_t said = 0;
    for (layout const l : {layout::flat, layout::nested, layout::files})
        for (directory_options const& o : {directory_options{}, allowed, bounded}) {
            auto const d = discover(root, l, o); // fails here when the walkers differ
            said += d.skills.size() + d.diagnostics.size();
        }
    BOOST_TEST(said > 50u); // the tree gave both walkers plenty to agree on
}

BOOST_AUTO_TEST_CASE(bounds_give_one_warning_each)
{
    temp_dir t;
    fs::path deep = t.path;
    for (int i = 0; i < 10; ++i) deep /= "d" + std::to_string(i);
    write(deep / "SKILL.md", skill("deep", "too deep"));
    write(t / "d0/SKILL.md", skill("d0", "shallow"));
    directory_options o;
    o.max_depth = 3;
    auto const d = discover(t.path, layout::nested, o);
    BOOST_TEST((commands(d) == std::vector<std::string>{"d0"}));
    std::size_t depth_warnings = 0;
    for (auto const& diag : d.diagnostics) depth_warnings += diag.message.find("deeper than 3") != std::string::npos;
    BOOST_TEST(depth_warnings == 1u);

    for (int i = 0; i < 30; ++i) write(t / ("many/s" + std::to_string(100 + i) + "/SKILL.md"), skill("s", "s"));
    directory_options few;
    few.max_directories = 12;
    auto const capped = discover(t / "many", layout::flat, few);
    BOOST_TEST(capped.skills.size() == 12u);
    std::size_t count_warnings = 0;
    for (auto const& diag : capped.diagnostics) count_warnings += diag.message.find("more than 12") != std::string::npos;
    BOOST_TEST(count_warnings == 1u);

    directory_source const small("t", (t / "many").string(), [] {
        directory_options s;
        s.max_file_bytes = 10;
        return s;
    }());
    auto const r = small.read_head(capped.skills[0]);
    BOOST_TEST(!r.text.has_value());
    BOOST_TEST(r.error.find("larger than") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_folder_whose_listing_takes_several_reads_is_listed_whole)
{
    // getdents64 returns at most 32 KB of entries a call; on ext4, tmpfs, XFS and Btrfs the
    // posix walker stops after a call that left room for the longest entry. Names of 40 to
    // 250 bytes put the ends of the calls at every place: a call that ends just short of a
    // full buffer must be followed by another one.
    temp_dir t;
    fs::path const group = t / "group";
    write(group / "SKILL.md", skill("group", "g"));
    std::vector<std::string> want{"group"};
    for (int i = 0; i < 700; ++i) {
        std::string name = numbered("s", i) + "-";
        name.resize(40 + static_cast<std::size_t>(i * 37 % 211), 'x');
        write(group / name / "SKILL.md", skill("s", "s"));
        want.push_back("group/" + name);
    }
    std::sort(want.begin(), want.end());
    directory_options o;
    o.max_directories = 10000;
    auto const d = discover(t.path, layout::nested, o); // both walkers, to the byte
    BOOST_TEST(commands(d) == want, boost::test_tools::per_element());
    BOOST_TEST(d.directories.size() == 702u); // the root, the group and its 700 folders
}

BOOST_AUTO_TEST_CASE(one_hundred_thousand_directories_end_in_bounded_time)
{
    auto const t = temp_dir::in_memory();
    for (int i = 0; i < 100000; ++i) fs::create_directory(t / numbered("d", i));
    auto const d = discover(t.path, layout::nested); // default cap: 2,000 directories
    BOOST_TEST(has(d.diagnostics, "discovery", "more than 2000 directories"));
    BOOST_TEST(d.directories.size() <= 2001u); // the walk stopped at the cap (the root and 2,000)
}

BOOST_AUTO_TEST_CASE(permission_denied_entries_are_skipped_as_a_non_root_user)
{
    temp_dir t;
    write(t / "open/SKILL.md", skill("open", "o"));
    write(t / "closed/SKILL.md", skill("closed", "c"));
    write(t / "unreadable/SKILL.md", skill("unreadable", "u"));
    write(t / "closed-tree/locked/inner/SKILL.md", skill("inner", "i"));
    fs::permissions(t.path, fs::perms::all, fs::perm_options::add);
    for (auto const& e : fs::recursive_directory_iterator(t.path))
        fs::permissions(e.path(), fs::perms::all, fs::perm_options::add);
    fs::permissions(t / "closed", fs::perms::none);
    fs::permissions(t / "unreadable/SKILL.md", fs::perms::none);
    fs::permissions(t / "closed-tree/locked", fs::perms::none);
    // Root ignores permissions: check in a child that drops to nobody (65534).
    pid_t const pid = ::fork();
    BOOST_TEST_REQUIRE(pid >= 0);
    if (pid == 0) {
        if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0)) ::_exit(3);
        if (::geteuid() == 0) ::_exit(4);
        directory_source const src("t", t.path.string());
        auto const d = src.discover();
        // `closed` cannot be searched: reading its SKILL.md fails with EACCES
        auto const closed = src.read_head(by_command(d, "closed"));
        bool ok = !closed.text && closed.error.find("Permission denied") != std::string::npos && !closed.absent;
        auto const r = src.read_head(by_command(d, "unreadable"));
        ok = ok && !r.text && r.error.find("Permission denied") != std::string::npos;
        ok = ok && src.read_head(by_command(d, "open")).text.has_value();
        basic_registry<parser, first_tier_wins, directory_source> reg(parser{}, lenient(), src);
        reg.load();
        ok = ok && reg.snapshot()->skills().size() == 1 && reg.snapshot()->find("open");
        ok = ok && has(reg.snapshot()->diagnostics(), "skill-unreadable", "Permission denied");
        // a directory that cannot be listed is reported by discovery itself
        fs::path const nested = t / "closed-tree";
        directory_options o;
        o.layout = layout::nested;
        ok = ok && has(directory_source("t", nested.string(), o).discover().diagnostics, "discovery", "Permission denied");
        ::_exit(ok ? 0 : 1);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    BOOST_TEST_REQUIRE(WIFEXITED(status));
    BOOST_TEST(WEXITSTATUS(status) == 0, "child exit status " << WEXITSTATUS(status));
}

BOOST_AUTO_TEST_CASE(a_file_read_into_a_longer_texts_room_is_only_its_own)
{
    // A thread's reads reuse the room of the last text it gave back, whose bytes are read
    // over rather than zeroed first: what a read gives must end where the file does,
    // whether the file is shorter than that room, as long, or longer.
    temp_dir t;
    std::string const body = "# Steps\n\nDo one thing.\n";
    write(t / "s" / "SKILL.md", skill("s", "short") + body);
    directory_options o;
    o.layout = layout::nested;
    directory_source const src("t", t.path.string(), o);
    auto const d = src.discover();
    BOOST_TEST_REQUIRE(d.skills.size() == 1u);
    std::string const want = skill("s", "short") + body;
    for (std::size_t room : {std::size_t{0}, want.size(), want.size() + 1, std::size_t{9000}}) {
        BOOST_TEST_CONTEXT("room " << room)
        {
            skillmd::detail::give_back_text(std::string(room, 'x'));
            auto const all = src.read_all(d.skills[0]);
            BOOST_TEST_REQUIRE(all.text.has_value());
            BOOST_TEST(*all.text == want);
            skillmd::detail::give_back_text(std::string(room, 'y'));
            auto const head = src.read_head(d.skills[0]);
            BOOST_TEST_REQUIRE(head.text.has_value());
            BOOST_TEST(*head.text == want);
        }
    }
}

BOOST_AUTO_TEST_CASE(plugin_source_prefixes_names)
{
    memory_source m("plugins");
    m.set("deploy", skill("deploy", "d"));
    plugin_source<memory_source> const p("acme", m);
    auto const d = p.discover();
    BOOST_TEST_REQUIRE(d.skills.size() == 1u);
    BOOST_TEST(d.skills[0].command == "acme:deploy");
    BOOST_TEST(p.read_all(d.skills[0]).text.has_value());
}

BOOST_AUTO_TEST_CASE(a_large_listing_is_put_in_the_order_a_string_sort_gives)
{
    // sort_listing orders by each name's first sixteen bytes as integers, and by the rest
    // only where they tie: names that share 8, 15, 16 or 17 bytes, that are a prefix of
    // another, that are longer than sixteen bytes or hold bytes above 0x7F (which sort
    // after ASCII, as unsigned bytes do) must come out as std::sort puts them.
    std::mt19937 random(7);
    std::string const alphabet = std::string("aAz09-._~ ") + "\x7F\x80\xC3\xA9\xFF";
    std::string const stems[] = {"", "skill-", "skill-12", "abcdefghijklmno", "abcdefghijklmnop", "abcdefghijklmnopq"};
    for (std::size_t size : {0u, 1u, 63u, 64u, 65u, 300u, 2000u}) {
        std::set<std::string> distinct; // names in one folder differ
        while (distinct.size() < size) {
            std::string n = stems[random() % std::size(stems)];
            for (std::size_t k = random() % 20; k > 0; --k) n += alphabet[random() % alphabet.size()];
            if (!n.empty()) distinct.insert(n);
        }
        std::vector<detail::listed> names;
        for (auto const& n : distinct) names.push_back({n, detail::entry_type::directory, names.size() + 1});
        std::shuffle(names.begin(), names.end(), random);
        auto expected = names;
        std::sort(expected.begin(), expected.end());
        detail::sort_listing(names);
        BOOST_TEST_REQUIRE(names.size() == expected.size());
        for (std::size_t i = 0; i < names.size(); ++i) {
            BOOST_TEST(names[i].name == expected[i].name, "size " << size << ", place " << i);
            BOOST_TEST(names[i].inode == expected[i].inode); // each entry moved whole
        }
    }
}

BOOST_AUTO_TEST_CASE(the_walkers_runs_join_in_order_and_say_where_they_do_not_meet_in_order)
{
    // Runs, each in command order, ordered by their first skill. `a/sub` ends the run of
    // `a` and `a-` begins another: by command `a-` comes first, so the joined list is not
    // in order although each run is.
    auto const of = [](std::initializer_list<char const*> commands) {
        detail::block_list<candidate> out;
        for (char const* c : commands) {
            candidate one;
            one.command = c;
            out.push_back(std::move(one));
        }
        return out;
    };
    auto const commands = [](std::vector<candidate> const& list) {
        std::string out;
        for (auto const& c : list) out += c.command + " ";
        return out;
    };
    auto one = of({"b", "b/sub", "c"}), two = of({"a", "a/sub"}), three = of({"a-", "a-/x"});
    bool in_order = true;
    auto joined = detail::join_runs({{&one, 0, 3}, {&two, 0, 2}, {&three, 0, 2}}, 7, in_order);
    BOOST_TEST(commands(joined) == "a a/sub a- a-/x b b/sub c ");
    BOOST_TEST(!in_order);
    auto four = of({"a", "a/sub", "b"}), five = of({"c", "d"});
    in_order = true;
    joined = detail::join_runs({{&five, 0, 2}, {&four, 1, 3}, {&four, 0, 1}}, 5, in_order);
    BOOST_TEST(commands(joined) == "a a/sub b c d ");
    BOOST_TEST(in_order);
    in_order = false; // a run out of order inside stays so
    joined = detail::join_runs({{&five, 0, 2}}, 2, in_order);
    BOOST_TEST(!in_order);
}

BOOST_AUTO_TEST_CASE(a_helper_opens_a_shared_folder_again_only_where_it_is_still_the_one_listed)
{
    // A walker given part of another's listing opens the folder again by its path below
    // the root: a folder renamed away and replaced, or swapped for a link to another
    // folder, since it was listed is not the one listed, and is refused.
    temp_dir t;
    fs::create_directories(t / "a" / "b");
    fs::create_directories(t / "elsewhere");
    using walk = detail::posix_walk;
    int error = 0;
    std::string message;
    auto root = walk::open_root(t.path.string(), error, message);
    BOOST_TEST_REQUIRE(root.has_value());
    walk::dir const anchor = walk::anchor_of(*root);
    BOOST_TEST_REQUIRE(anchor.fd >= 0);
    auto const id_of = [](fs::path const& p) {
        struct stat st {};
        BOOST_TEST_REQUIRE(::stat(p.c_str(), &st) == 0);
        return walk::id{static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino)};
    };
    walk::id const b = id_of(t / "a" / "b");
    for (auto [rel, id] : {std::pair{std::string("a/b"), b}, {std::string(), id_of(t.path)}}) {
        auto d = walk::reopen(anchor, *root, rel, id);
        BOOST_TEST_REQUIRE(d.has_value(), rel);
        BOOST_TEST((walk::id_of(*d) == id));
        walk::release(*d);
    }
    fs::rename(t / "a" / "b", t / "a" / "old");
    fs::create_directory(t / "a" / "b");
    BOOST_TEST(!walk::reopen(anchor, *root, "a/b", b).has_value()); // a new folder by that name
    fs::remove(t / "a" / "b");
    fs::create_directory_symlink(t / "elsewhere", t / "a" / "b");
    BOOST_TEST(!walk::reopen(anchor, *root, "a/b", b).has_value()); // a link to another
    BOOST_TEST(!walk::reopen(anchor, *root, "a/gone", b).has_value());
    walk::dir spare = anchor;
    walk::release(spare);
    walk::release(*root);
}

BOOST_AUTO_TEST_CASE(the_path_of_an_open_file_is_the_calling_threads_own)
{
    // A helper of the walk keeps a table of descriptors of its own: the same number may
    // name another file there than in the main thread. The path a containment check
    // reads for a descriptor must be the one of the thread that opened it.
    temp_dir t;
    write(t / "main.md", "main");
    write(t / "helper.md", "helper");
    int const fd = ::open((t / "main.md").c_str(), O_RDONLY | O_CLOEXEC);
    BOOST_TEST_REQUIRE(fd >= 0);
    std::string seen;
    bool own = false;
    std::thread([&] {
        own = ::unshare(CLONE_FILES) == 0; // as posix_walk::own_table does (not under ThreadSanitizer)
        if (!own) return;
        int const other = ::open((t / "helper.md").c_str(), O_RDONLY | O_CLOEXEC);
        if (other < 0 || ::dup3(other, fd, O_CLOEXEC) != fd) return; // `fd` is the helper file here only
        ::close(other);
        seen = detail::opened_path(fd, "");
    }).join();
    if (own) BOOST_TEST(seen == fs::canonical(t / "helper.md").string());
    else BOOST_TEST_MESSAGE("unshare(CLONE_FILES) refused here: only the main thread's side is checked");
    BOOST_TEST(detail::opened_path(fd, "") == fs::canonical(t / "main.md").string());
    ::close(fd);
}

BOOST_AUTO_TEST_SUITE_END()
