// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
//
// Storage tiers, dedup, the registry, refresh, seeding, requirements and presets
// (SPEC 2 and 5), on directory trees built for each test.

#include "../support/test_support.hpp"

#include <algorithm>
#include <skillmd/invoke/invocation.hpp>
#include <skillmd/presets/systems.hpp>
#include <skillmd/storage/registry.hpp>
#include <skillmd/storage/seeding.hpp>
#include <skillmd/storage/sources/memory_source.hpp>
#include <skillmd/invoke/tool_calls.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <boost/test/unit_test.hpp>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <mutex>
#include <random>
#include <set>
#include <stdexcept>
#include <thread>

#include <cstring>

#include <sys/resource.h>
#include <sched.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace skillmd;

namespace {

using test::temp_dir;
using test::write;

std::string skill(std::string const& name, std::string const& description, std::string const& extra = "")
{
    return "---\nname: " + name + "\ndescription: " + description + "\n" + extra + "---\n# " + name + "\n\nBody of " +
           name + ".\n";
}

/// `prefix` followed by `n` (written out to dodge a false -Wrestrict in gcc 12).
std::string numbered(char const* prefix, int n)
{
    std::string s(prefix);
    s += std::to_string(n);
    return s;
}

/// Everything a discovery says, in one comparable text (the folders walked in order).
std::string described(discovery const& d)
{
    std::string out;
    for (auto const& c : d.skills)
        out += "skill " + c.command + " | " + c.path + " | " + c.directory + " | " + c.directory_name +
               (c.confirmed ? " | confirmed\n" : " | unconfirmed\n");
    for (auto const& g : d.diagnostics) out += "diagnostic " + to_text(g) + "\n";
    auto folders = d.directories;
    std::sort(folders.begin(), folders.end()); // helper threads add theirs in any order
    for (auto const& f : folders) out += "folder " + f + "\n";
    return out;
}

/// What a walk that read its files early (a first load) says, against what a plain
/// walk says: the same skills and diagnostics, and no list of folders to watch.
std::string described_early(discovery const& early, discovery plain)
{
    BOOST_TEST(early.directories.empty());
    plain.directories.clear();
    return described(plain);
}

/// The tree at `root` discovered by both walkers, which must agree to the byte: every test
/// that discovers through here (layouts, bounds, links, odd names) holds them to it.
discovery discover(fs::path const& root, layout l, directory_options o = {})
{
    o.layout = l;
    o.walker = directory_walker::posix;
    auto posix = directory_source("t", root.string(), o).discover();
    o.walker = directory_walker::boost_filesystem;
    auto const portable = directory_source("t", root.string(), o).discover();
    BOOST_TEST(described(posix) == described(portable));
    return posix;
}

/// The commands of the candidates that are skills (unconfirmed ones whose SKILL.md exists).
std::vector<std::string> commands(discovery const& d)
{
    std::vector<std::string> out;
    for (auto const& c : d.skills)
        if (c.confirmed || fs::exists(c.path)) out.push_back(c.command);
    return out;
}

candidate const& by_command(discovery const& d, std::string const& command)
{
    for (auto const& c : d.skills)
        if (c.command == command) return c;
    throw std::runtime_error("no candidate " + command);
}

bool has(std::vector<diagnostic> const& ds, std::string_view code, std::string_view text = {})
{
    for (auto const& d : ds)
        if (d.code == code && (text.empty() || d.message.find(text) != std::string::npos || d.file.find(text) != std::string::npos))
            return true;
    return false;
}

using parser = frontmatter::x3_parser;
registry_options lenient(dialect d = dialects::claude_code())
{
    registry_options o;
    o.dialect = std::move(d);
    return o;
}

} // namespace

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
    // Seed 004: a sub-skill is exactly one segment below; `sven/implement` holds no skill, so
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
    // `alias` is the same directory as `real`: visited once, under its first name
    BOOST_TEST((commands(d) == std::vector<std::string>{"alias", "linked"}));
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
    for (char const* odd : {"fifo", "device", "sock"}) {
        auto const r = src.read_head(by_command(d, odd));
        BOOST_TEST(!r.text.has_value(), odd);
        BOOST_TEST(r.error == "not a regular file", odd << ": " << r.error);
    }
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
    temp_dir t;
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

BOOST_AUTO_TEST_SUITE_END()

//------------------------------------------------------------------------------
BOOST_AUTO_TEST_SUITE(preset_layouts)

BOOST_AUTO_TEST_CASE(claude_code_managed_user_project_first_wins_and_inode_dedup)
{
    temp_dir t;
    presets::locations at;
    at.home = t / "home";
    at.project = t / "project";
    at.managed = t / "managed";
    write(t / "managed/.claude/skills/deploy/SKILL.md", skill("deploy", "managed deploy"));
    write(t / "home/.claude/skills/deploy/SKILL.md", skill("deploy", "user deploy"));
    write(t / "project/.claude/skills/deploy/SKILL.md", skill("deploy", "project deploy"));
    write(t / "home/.claude/skills/shared/SKILL.md", skill("Shared Label", "the same file twice"));
    fs::create_directories(t / "project/.claude/skills");
    fs::create_directory_symlink(t / "home/.claude/skills/shared", t / "project/.claude/skills/shared");
    write(t / "project/.claude/skills/local/SKILL.md", "# Local heading\n\nNo frontmatter.\n");
    auto reg = presets::make_claude_code(at);
    reg.load();
    auto const s = reg.snapshot();
    BOOST_TEST(s->find("deploy")->meta.description == "managed deploy");
    BOOST_TEST(s->find("deploy")->tier == "managed");
    BOOST_TEST(s->shadowed().size() == 2u); // user and project deploy; the symlinked `shared` collapses silently
    BOOST_TEST(s->find("deploy@project")->shadowed_by == "deploy@managed");
    auto const* shared = s->find("shared");
    BOOST_TEST_REQUIRE(shared != nullptr);
    BOOST_TEST(shared->tier == "user");
    BOOST_TEST(*shared->meta.label == "Shared Label"); // the command is the directory name
    BOOST_TEST(s->find("local")->meta.description == "Local heading"); // seed 001: first heading
}

BOOST_AUTO_TEST_CASE(pegasus_data_skills_override_builtin)
{
    temp_dir t;
    presets::locations at;
    at.project = t.path;
    write(t / "skills/commit/SKILL.md", "---\nname: commit\n---\nBuiltin first paragraph\ncontinues.\n");
    write(t / "data/skills/commit/SKILL.md", skill("commit", "user version"));
    write(t / "skills/review/SKILL.md", "---\n---\n\nReview things carefully.\n");
    auto reg = presets::make_pegasus(at);
    reg.load();
    auto const s = reg.snapshot();
    BOOST_TEST(s->find("commit")->meta.description == "user version");
    BOOST_TEST(s->find("commit")->tier == "user");
    BOOST_TEST(s->find("commit@builtin")->meta.description == "Builtin first paragraph continues.");
    BOOST_TEST(s->find("review")->meta.description == "Review things carefully."); // seed 000: first paragraph
    BOOST_TEST(s->find("review")->meta.name == "review");                           // from the directory
}

BOOST_AUTO_TEST_CASE(sven_six_directories_and_command_paths)
{
    temp_dir t;
    presets::locations at;
    at.home = t / "home";
    at.project = t / "project";
    char const* dirs[] = {"home/.sven/skills", "home/.agents/skills", "home/.claude/skills",
                          "project/.agents/skills", "project/.claude/skills", "project/.sven/skills"};
    for (int i = 0; i < 6; ++i) write(t / (std::string(dirs[i]) + "/tool/SKILL.md"), "---\ndescription: level " + std::to_string(i + 1) + "\n---\n");
    for (int i = 0; i < 5; ++i) write(t / (std::string(dirs[i]) + "/only" + std::to_string(i) + "/SKILL.md"), "---\ndescription: x\n---\n");
    write(t / "home/.sven/skills/sven/SKILL.md", "---\ndescription: root\nname: Sven Label\n---\n");
    write(t / "home/.sven/skills/sven/implement/research/SKILL.md", "---\ndescription: deep\n---\n");
    auto reg = presets::make_sven(at);
    reg.load();
    auto const s = reg.snapshot();
    BOOST_TEST(s->find("tool")->meta.description == "level 6");
    BOOST_TEST(s->find("tool")->tier == "project-sven");
    BOOST_TEST(s->shadowed().size() == 5u);
    BOOST_TEST(s->find("sven/implement/research") != nullptr);
    BOOST_TEST(s->find("sven")->meta.name == "sven");
    BOOST_TEST(*s->find("sven")->meta.label == "Sven Label");
    BOOST_TEST(s->find("only4")->tier == "project-claude");
}

BOOST_AUTO_TEST_CASE(mycode_user_project_plugin_later_wins)
{
    temp_dir t;
    presets::locations at;
    at.home = t / "home";
    at.project = t / "project";
    write(t / "home/.mycode/skills/code-reviewer/SKILL.md", skill("code-reviewer", "user"));
    write(t / "project/.mycode/skills/code-reviewer/SKILL.md", skill("code-reviewer", "project"));
    write(t / "home/.mycode/plugins/skills/code-reviewer/SKILL.md", skill("code-reviewer", "plugin"));
    auto reg = presets::make_mycode(at, "acme");
    reg.load();
    auto const s = reg.snapshot();
    BOOST_TEST(s->find("code-reviewer")->meta.description == "project");
    BOOST_TEST(s->find("acme:code-reviewer")->meta.description == "plugin");
}

BOOST_AUTO_TEST_CASE(agent_skills_project_overrides_user)
{
    temp_dir t;
    presets::locations at;
    at.home = t / "home";
    at.project = t / "project";
    write(t / "home/.agents/skills/pdf/SKILL.md", skill("pdf", "user pdf"));
    write(t / "project/.agents/skills/pdf/SKILL.md", skill("pdf", "project pdf"));
    auto reg = presets::make_agent_skills(at);
    reg.load();
    BOOST_TEST(reg.snapshot()->find("pdf")->meta.description == "project pdf");
    BOOST_TEST(has(reg.snapshot()->diagnostics(), "skill-shadowed"));
}

BOOST_AUTO_TEST_SUITE_END()

//------------------------------------------------------------------------------
// Containment: a tier reads only what lies inside its folders (and those the user allows).
BOOST_AUTO_TEST_SUITE(containment)

BOOST_AUTO_TEST_CASE(links_out_of_a_tier_are_never_read_listed_or_walked)
{
    temp_dir t, home;
    write(home / ".ssh/id_rsa", "PRIVATE KEY");
    write(home / ".env", "TOKEN=secret");
    write(t / "tier/good/SKILL.md", skill("good", "Good"));
    write(t / "tier/good/notes.md", "mine");
    fs::create_directory_symlink(home.path, t / "tier/good/references"); // `references -> ~`
    fs::create_directories(t / "tier/passwd");
    fs::create_symlink("/etc/passwd", t / "tier/passwd/SKILL.md");
    fs::create_directory_symlink("/", t / "tier/everything");             // a link to the whole disk
    directory_options o;
    o.layout = layout::nested;
    directory_source const src("project", (t / "tier").string(), o);
    basic_registry<parser, first_tier_wins, directory_source> reg(parser{}, lenient(), src);
    reg.load();
    auto const snap = reg.snapshot();
    BOOST_TEST(snap->find("passwd") == nullptr);
    BOOST_TEST(has(snap->diagnostics(), "skill-unreadable", "outside the tier's folders"));
    BOOST_TEST(has(snap->diagnostics(), "skill-outside-root", "everything"));
    BOOST_TEST(snap->skills().size() == 1u); // the disk behind `everything` is not walked
    auto const files = reg.bundled_files(*snap->find("good"));
    BOOST_TEST((files == std::vector<std::string>{"notes.md"}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_link_swapped_in_after_loading_is_refused)
{
    temp_dir t;
    write(t / "tier/deploy/SKILL.md", skill("deploy", "Deploy"));
    write(t / "tier/decoy.md", "---\nname: deploy\ndescription: Decoy\n---\nInside the tier, but another file.\n");
    basic_registry<parser, first_tier_wins, directory_source> reg(parser{}, lenient(),
                                                                   directory_source("project", (t / "tier").string()));
    reg.load();
    auto const* r = reg.snapshot()->find("deploy");
    BOOST_TEST_REQUIRE(r != nullptr);
    BOOST_TEST(reg.body(*r).has_value());
    for (char const* target : {"/etc/passwd", "../decoy.md"}) {
        fs::remove(t / "tier/deploy/SKILL.md");
        fs::create_symlink(target, t / "tier/deploy/SKILL.md");
        std::string why;
        BOOST_TEST(!reg.body(*r, &why).has_value(), target);
        BOOST_TEST(!why.empty());
    }
}

BOOST_AUTO_TEST_CASE(reads_skip_the_readlink_only_where_no_link_is_on_the_way)
{
    // A read trusts a path as the file's real path only when it is absolute, has no `.`,
    // `..` or empty component and was opened with no link on the way; anything else is
    // read the checked way (readlink of the opened descriptor) and found or refused as before.
    BOOST_TEST(detail::lexically_plain("/a/b/SKILL.md"));
    for (char const* p : {"a/b", "/a//b", "/a/./b", "/a/../b", "/a/b/", "/a/b/..", ""})
        BOOST_TEST(!detail::lexically_plain(p), p);
    temp_dir t;
    write(t / "real/tier/x/SKILL.md", skill("x", "X"));
    fs::create_directory_symlink(t / "real/tier", t / "via");
    BOOST_TEST(detail::open_without_links((t / "via/x/SKILL.md").c_str()) == -1); // a link on the way
    int const fd = detail::open_without_links((t / "real/tier/x/SKILL.md").c_str());
    if (fd >= 0) ::close(fd);
    else BOOST_TEST_MESSAGE("this kernel has no openat2: every read takes the checked way");
    for (auto const& root : {t / "via", t / "real/tier"}) { // the tier's root as a link, and as itself
        basic_registry<parser, first_tier_wins, directory_source> reg(parser{}, lenient(),
                                                                       directory_source("project", root.string()));
        reg.load();
        auto const* r = reg.snapshot()->find("x");
        BOOST_TEST_REQUIRE(r != nullptr, root);
        BOOST_TEST(reg.body(*r).has_value(), root);
    }
}

BOOST_AUTO_TEST_CASE(allowed_roots_and_the_presets_own_tiers_stay_easy)
{
    temp_dir t;
    write(t / "dotfiles/skills/commit/SKILL.md", skill("commit", "From my dotfiles"));
    fs::create_directories(t / "home/.claude/skills");
    fs::create_directory_symlink(t / "dotfiles/skills/commit", t / "home/.claude/skills/commit");
    presets::locations at;
    at.home = t / "home";
    at.project = t / "project";
    at.managed = t / "managed";
    auto refused = presets::make_claude_code(at);
    refused.load();
    BOOST_TEST(refused.snapshot()->find("commit") == nullptr);
    BOOST_TEST(has(refused.snapshot()->diagnostics(), "skill-outside-root"));
    at.allowed_roots = {t / "dotfiles"};
    auto allowed = presets::make_claude_code(at);
    allowed.load();
    BOOST_TEST_REQUIRE(allowed.snapshot()->find("commit") != nullptr);
    BOOST_TEST((allowed.invoke("/commit", caller::user).status() == invoke_status::run));
}

BOOST_AUTO_TEST_CASE(a_symlinked_sub_skill_in_a_package_without_subfolders_is_found)
{
    temp_dir t;
    write(t / "tier/pkg/SKILL.md", skill("pkg", "Package"));
    write(t / "tier/pkg/README.md", "files only, no real subfolder");
    write(t / "tier/shared/sub/SKILL.md", skill("sub", "Shared sub-skill"));
    fs::create_directory_symlink(t / "tier/shared/sub", t / "tier/pkg/sub");
    auto const d = discover(t / "tier", layout::nested);
    auto const found = commands(d);
    BOOST_TEST((std::find(found.begin(), found.end(), "pkg/sub") != found.end()));
}

BOOST_AUTO_TEST_CASE(shadowed_skills_are_visibly_different_skills)
{
    temp_dir t;
    presets::locations at;
    at.overrides = {{"user", t / "user"}, {"managed", t / "m"}, {"project", t / "project"}};
    write(t / "user/deploy/SKILL.md", skill("deploy", "The user's deploy"));
    write(t / "project/deploy/SKILL.md", skill("deploy", "A cloned project's deploy"));
    auto agent = presets::make_claude_code(at);
    agent.settings().invoke.permissions.allow = {"deploy"};
    agent.load();
    BOOST_TEST(agent.index().text.find("The user's deploy") != std::string::npos);
    // The model may not reach what the index does not show.
    auto const hidden = agent.invoke("deploy@project", caller::model);
    BOOST_TEST((hidden.error == invoke_error::shadowed_skill));
    BOOST_TEST(hidden.content.empty());
    // Allowed to, it still asks: `allow deploy` is about the skill the index shows.
    agent.settings().invoke.model_may_invoke_shadowed = true;
    auto const asked = agent.invoke("deploy@project", caller::model);
    BOOST_TEST((asked.status() == invoke_status::needs_approval));
    BOOST_TEST(asked.permission.message == "Execute skill: deploy@project");
    BOOST_TEST(asked.command == "deploy@project");
    BOOST_TEST((agent.invoke("deploy", caller::model).status() == invoke_status::run));
    // A deny rule naming the tier matches; a bare deny covers every copy.
    agent.settings().invoke.permissions = {{"deploy@project"}, {"deploy"}};
    BOOST_TEST((agent.invoke("deploy@project", caller::model).status() == invoke_status::denied));
    BOOST_TEST((agent.invoke("deploy", caller::model).status() == invoke_status::run));
    agent.settings().invoke.permissions = {{"deploy"}, {"deploy@project"}};
    BOOST_TEST((agent.invoke("deploy@project", caller::model).status() == invoke_status::denied));
}

BOOST_AUTO_TEST_CASE(names_that_look_alike_are_reported)
{
    temp_dir t;
    presets::locations at;
    at.overrides = {{"user", t / "user"}, {"managed", t / "m"}, {"project", t / "project"}};
    write(t / "user/api/SKILL.md", skill("api", "Latin"));
    write(t / "project/\xD0\xB0pi/SKILL.md", skill("x", "Cyrillic a"));     // аpi
    write(t / "user/file/SKILL.md", skill("file", "Plain"));
    write(t / "project/\xEF\xAC\x81le/SKILL.md", skill("x", "Ligature")); // ﬁle
    write(t / "user/deploy/SKILL.md", skill("deploy", "Lower"));
    write(t / "project/Deploy/SKILL.md", skill("x", "Upper"));
    write(t / "user/other/SKILL.md", skill("other", "Unrelated"));
    auto agent = presets::make_claude_code(at);
    agent.load();
    auto const& ds = agent.snapshot()->diagnostics();
    auto const confusable = std::count_if(ds.begin(), ds.end(), [](diagnostic const& d) { return d.code == "skill-confusable"; });
    BOOST_TEST(confusable == 3);
    BOOST_TEST(has(ds, "skill-confusable", "looks like `api`"));
    BOOST_TEST((has(ds, "skill-confusable", "looks like `Deploy`") || has(ds, "skill-confusable", "looks like `deploy`")));
}

BOOST_AUTO_TEST_SUITE_END()

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

//------------------------------------------------------------------------------
// A preset is one whole system: the registry, the formats, the budget, the tool and the
// invocation rules come from its one name.
BOOST_AUTO_TEST_SUITE(systems)

BOOST_AUTO_TEST_CASE(claude_code_index_content_and_approval_from_one_name)
{
    temp_dir t;
    presets::locations at;
    at.overrides["user"] = t / "user";
    at.overrides["managed"] = t / "none1";
    at.overrides["project"] = t / "none2";
    // Blank lines and indentation after the closing fence are not body (seed 001's fence expression).
    write(t / "user/commit/SKILL.md", "---\ndescription: Commit work\nwhen_to_use: the user says commit\n---\n\n\n  Write it: $ARGUMENTS\n");
    write(t / "user/review/SKILL.md", "---\nname: Code Review\ndescription: Review code\n---\nReview.\n");
    auto agent = presets::make_claude_code(at);
    agent.load();
    // Layer 1: seed 001's line, with the tier the description came from.
    BOOST_TEST(agent.index().text == "- /commit: Commit work (user) - the user says commit\n- /review: Review code (user)\n");
    // Layer 2: seed 001's content, not another system's.
    auto const run = agent.invoke("/commit fix it", caller::user);
    BOOST_TEST((run.status() == invoke_status::run));
    BOOST_TEST(run.content == "Base directory for this skill: " + (t / "user/commit").string() + "\n\nWrite it: fix it\n");
    // The model with no rules: approval needed, never "go".
    auto call = agent.invoke("commit", caller::model);
    BOOST_TEST((call.status() == invoke_status::needs_approval));
    BOOST_TEST(!call.may_run());
    BOOST_TEST(call.permission.message == "Execute skill: commit");
    call.approve();
    BOOST_TEST(call.may_run());
    agent.settings().invoke.permissions.deny = {"commit"};
    BOOST_TEST((agent.invoke("commit", caller::model).status() == invoke_status::denied));
    agent.settings().invoke.permissions = {{}, {"commit"}};
    BOOST_TEST((agent.invoke("commit", caller::model).status() == invoke_status::run));
    // The label the user sees finds the skill, and names it in the command message.
    auto const by_label = agent.invoke("review", caller::user);
    BOOST_TEST(by_label.command == "review");
    BOOST_TEST(agent.content_formatter().metadata(by_label.loaded).find("<command-name>Code Review</command-name>") !=
               std::string::npos);
    // Seed 001's validation: `/` alone names no skill (2); only a blank input is malformed (1), as given.
    BOOST_TEST((agent.invoke("/", caller::model).error == invoke_error::unknown_skill));
    auto const blank = agent.invoke("  ", caller::model);
    BOOST_TEST((blank.error == invoke_error::invalid_format));
    BOOST_TEST(blank.message == "Invalid skill format:   ");
    // Seed 001's tool takes the name alone.
    auto const def = agent.tool_definition();
    BOOST_TEST(def.at("name").as_string() == "Skill");
    BOOST_TEST(!def.at("input_schema").at("properties").as_object().contains("args"));
}

// Claude Code asks the user before a model's call no rule decides; Pegasus, mycode and
// sven have no approval step and run it. A deny rule denies in all of them.
BOOST_AUTO_TEST_CASE(model_calls_wait_for_approval_only_where_the_system_asks)
{
    temp_dir t;
    presets::locations at;
    at.home = t / "home";
    at.project = t / "project";
    at.managed = t / "managed";
    for (auto const* dir : {"project/skills", "home/.mycode/skills", "project/.sven/skills", "home/.claude/skills"}) {
        write(t / dir / "plan/SKILL.md", skill("plan", "Plans"));
        write(t / dir / "ship/SKILL.md", skill("ship", "Ships"));
    }
    auto check = [](auto agent, invoke_status unruled, std::string const& name) {
        BOOST_TEST_REQUIRE(agent.load(), name);
        auto const plan = agent.invoke("plan", caller::model);
        BOOST_TEST((plan.status() == unruled), name);
        BOOST_TEST((plan.permission.behavior == (unruled == invoke_status::run ? permission::allow : permission::ask)), name);
        agent.settings().invoke.permissions.deny = {"ship"};
        BOOST_TEST((agent.invoke("ship", caller::model).status() == invoke_status::denied), name);
        BOOST_TEST((agent.invoke("ship", caller::user).status() == invoke_status::denied), name);
    };
    check(presets::make_pegasus(at), invoke_status::run, "pegasus");
    check(presets::make_mycode(at), invoke_status::run, "mycode");
    check(presets::make_sven(at), invoke_status::run, "sven");
    check(presets::make_claude_code(at), invoke_status::needs_approval, "claude-code");
}

// Pegasus lists a long description whole when it fits, and leaves out a skill that does
// not fit the budget (the others still listed), reporting it: no cut to 1,024 characters.
BOOST_AUTO_TEST_CASE(pegasus_leaves_an_over_budget_skill_out_whole)
{
    temp_dir t;
    presets::locations at;
    at.home = t / "home";
    at.project = t / "project";
    std::string const long_text(2000, 'l'), huge_text(20000, 'h');
    write(t / "project/skills/alpha/SKILL.md", skill("alpha", long_text));
    write(t / "project/skills/beta/SKILL.md", skill("beta", huge_text));
    write(t / "project/skills/gamma/SKILL.md", skill("gamma", "Short"));
    auto pegasus = presets::make_pegasus(at);
    BOOST_TEST_REQUIRE(pegasus.load());
    auto const idx = pegasus.index();
    BOOST_TEST(idx.text.find("- alpha: " + long_text + "\n") != std::string::npos);
    BOOST_TEST(idx.text.find("hhhh") == std::string::npos);
    BOOST_TEST(idx.text.find("- gamma: Short") != std::string::npos);
    BOOST_TEST(idx.omitted == (std::vector<std::string>{"beta"}));
    BOOST_TEST(idx.shortened.empty());
}

BOOST_AUTO_TEST_CASE(every_preset_brings_its_own_formats_and_rules)
{
    temp_dir t;
    presets::locations at;
    at.home = t / "home";
    at.project = t / "project";
    write(t / "project/skills/fork-me/SKILL.md", "---\ndescription: Forks\ncontext: fork\n---\nGo.\n");
    auto pegasus = presets::make_pegasus(at);
    pegasus.load();
    BOOST_TEST(pegasus.index().text.starts_with("Available skills:\n- fork-me: Forks\n"));
    write(t / "project/skills/inline/SKILL.md", "---\ndescription: Inline\n---\nDo it.\n");
    pegasus.refresh();
    BOOST_TEST(pegasus.invoke("inline", caller::user).content.starts_with("[Skill: inline]"));
    auto const forked = pegasus.invoke("fork-me", caller::user);
    BOOST_TEST((forked.mode == context_mode::fork));
    BOOST_TEST(forked.agent.value_or("") == "general"); // seed 000's default agent
    BOOST_TEST(pegasus.invoke("nope", caller::model).message == "Skill \"nope\" not found");
    BOOST_TEST(pegasus.tool_definition().at("name").as_string() == "use_skill");

    write(t / "home/.mycode/skills/plan/SKILL.md", skill("plan", "Plans"));
    auto mycode = presets::make_mycode(at);
    mycode.load();
    BOOST_TEST(mycode.invoke("nope", caller::model).message == "Skill not found: nope");
    // Seed 002 keys skills by their frontmatter name, not by their folder.
    write(t / "home/.mycode/skills/reviewer-folder/SKILL.md", skill("code-reviewer", "Reviews"));
    mycode.refresh();
    BOOST_TEST_REQUIRE(mycode.snapshot()->find("code-reviewer") != nullptr);
    BOOST_TEST(mycode.snapshot()->find("code-reviewer")->command == "code-reviewer");
    BOOST_TEST(mycode.index().text.find("- /code-reviewer: Reviews") != std::string::npos);
    auto const activated = mycode.invoke("plan", caller::user);
    BOOST_TEST(activated.content.find("## Skill Activated: plan") != std::string::npos);
    BOOST_TEST(activated.content.find("- Working Directory: " + fs::current_path().string() + "\n") != std::string::npos);
    auto const def = mycode.tool_definition();
    BOOST_TEST(def.at("input_schema").at("properties").as_object().contains("args"));
    BOOST_TEST(def.at("description").as_string().ends_with("Use this when the current task aligns with an available skill.\n"));

    write(t / "project/.sven/skills/sven/SKILL.md", "---\ndescription: root\n---\nRoot.\n");
    write(t / "project/.sven/skills/sven/plan/SKILL.md", "---\ndescription: plans\n---\nPlan.\n");
    write(t / "project/.sven/skills/sven/deep/down/SKILL.md", "---\ndescription: two levels below\n---\nDeep.\n");
    auto sven = presets::make_sven(at);
    sven.load();
    BOOST_TEST(sven.index().text.find("<available_skills>") != std::string::npos);
    BOOST_TEST(sven.snapshot()->find("sven/plan")->meta.name == "plan"); // the directory name, not the path
    // Sub-skills are exactly one segment below: `sven/deep/down` is nobody's child.
    BOOST_TEST(sven.snapshot()->find("sven")->children == std::vector<std::string>{"sven/plan"}, boost::test_tools::per_element());
    BOOST_TEST(sven.invoke("/Sven/Plan", caller::user).command == "sven/plan"); // the TUI's sanitised name
    BOOST_TEST(sven.tool_definition().at("name").as_string() == "load_skill");
}

BOOST_AUTO_TEST_CASE(replacing_one_policy_is_one_type_alias)
{
    temp_dir t;
    presets::locations at;
    at.overrides = {{"user", t / "user"}, {"managed", t / "m"}, {"project", t / "p"}};
    write(t / "user/commit/SKILL.md", skill("commit", "Commit work"));
    using xml_listing = presets::claude_code::with_index_format<index_formats::agent_skills>;
    xml_listing agent(presets::make_claude_code(at));
    agent.load();
    BOOST_TEST(agent.index().text.starts_with("<available_skills>"));
    BOOST_TEST(agent.invoke("/commit", caller::user).content.starts_with("Base directory for this skill: "));
    static_assert(!std::is_same_v<presets::pegasus, presets::agent_skills>);
}

BOOST_AUTO_TEST_CASE(tool_calls_route_and_bad_ones_fail_cleanly)
{
    temp_dir t;
    presets::locations at;
    at.overrides = {{"user", t / "user"}, {"managed", t / "m"}, {"project", t / "p"}};
    write(t / "user/commit/SKILL.md", skill("commit", "Commit work"));
    auto agent = presets::make_claude_code(at);
    agent.settings().invoke.permissions.allow = {"commit"};
    agent.load();
    for (std::string_view call : {R"({"type":"tool_use","id":"t1","name":"Skill","input":{"skill":"commit"}})",
                                  R"({"name":"Skill","arguments":"{\"skill\":\"commit\"}"})",
                                  R"({"function":{"name":"Skill","arguments":"{\"skill\":\"/commit\"}"}})"}) {
        auto const inv = agent.call_tool(call);
        BOOST_TEST((inv.status() == invoke_status::run), call);
        BOOST_TEST(inv.command == "commit");
    }
    struct bad_case
    {
        std::string json, says;
    };
    std::vector<bad_case> const bad = {
        {"{not json", "not valid JSON"},
        {"[1,2]", "must be a JSON object"},
        {R"({"input":{"skill":"commit"}})", "needs the tool's \"name\""},
        {R"({"name":"use_skill","input":{"skill":"commit"}})", "no tool \"use_skill\""},
        {R"({"name":"rm_rf","input":{}})", "unknown tool"},
        {R"({"name":"Skill","input":{}})", "needs the parameter \"skill\""},
        {R"({"name":"Skill","input":{"skill":7}})", "must be a string"},
        {R"({"name":"Skill","input":{"skill":"commit","args":"x"}})", "has no parameter \"args\""},
        {R"({"name":"Skill","input":"commit"})", "must be a JSON object"},
        {R"({"name":"Skill","arguments":"{\"skill\":"})", "not valid JSON"},
        {R"({"name":"Skill","input":{"skill":")" + std::string(4 << 20, 'a') + "\"}}", "longer than"},
        {std::string(10000, '[') + std::string(10000, ']'), "not valid JSON"},
        {"{\"name\":\"Skill\",\"input\":{\"skill\":\"" + std::string(9 << 20, 'a') + "\"}}", "the limit is"},
    };
    for (auto const& b : bad) {
        auto const inv = agent.call_tool(b.json);
        BOOST_TEST((inv.status() == invoke_status::failed), b.says);
        BOOST_TEST((inv.error == invoke_error::bad_tool_call), b.says);
        BOOST_TEST(inv.message.find(b.says) != std::string::npos, inv.message.substr(0, 200) << " lacks " << b.says);
        BOOST_TEST(inv.message.size() < 300u);
    }
    // Seed 003's database tools parse too; create needs all its fields.
    auto const create = parse_tool_call(R"({"name":"create_skill","input":{"name":"x","description":"d","triggers":["a"],"content":"c"}})");
    BOOST_TEST_REQUIRE(create.ok());
    BOOST_TEST((create.call->db_kind == db_tool::create_skill));
    BOOST_TEST(create.call->triggers->front() == "a");
    BOOST_TEST(!parse_tool_call(R"({"name":"create_skill","input":{"name":"x"}})").ok());
    BOOST_TEST(!parse_tool_call(R"({"name":"update_skill","input":{"name":"x","triggers":[1]}})").ok());
    BOOST_TEST(parse_tool_call(R"({"name":"list_skills","input":{}})").ok());
    // Results go out as JSON with Boost.JSON's quoting.
    auto const inv = agent.call_tool(R"({"name":"Skill","input":{"skill":"commit"}})");
    auto const back = boost::json::parse(boost::json::serialize(to_json(inv))).as_object();
    BOOST_TEST(back.at("status").as_string() == "run");
    BOOST_TEST(back.at("tier").as_string() == "user");
    BOOST_TEST(back.at("content").as_string() == inv.content);
    auto const listed = boost::json::parse(boost::json::serialize(to_json(agent.index(), "claude-code"))).as_object();
    BOOST_TEST(listed.at("listed").as_array().size() == 1u);
}

BOOST_AUTO_TEST_CASE(dialect_and_mode_are_given_once)
{
    temp_dir t;
    write(t / "s/ask/SKILL.md", "---\nname: ask\ndescription: Use when: the user asks\n---\nBody.\n");
    registry_options o;
    o.dialect = dialects::agent_skills();
    o.mode = validation_mode::lenient;
    // A parser built without the mode, then the registry's options: the registry's mode rules.
    basic_registry<frontmatter::x3_parser, first_tier_wins, directory_source> given_parser(
        frontmatter::x3_parser{}, o, directory_source("user", (t / "s").string()));
    basic_registry<frontmatter::x3_parser, first_tier_wins, directory_source> options_only(
        o, directory_source("user", (t / "s").string()));
    for (auto* reg : {&given_parser, &options_only}) {
        reg->load();
        auto const* r = reg->snapshot()->find("ask");
        BOOST_TEST_REQUIRE(r != nullptr);
        BOOST_TEST(r->meta.description == "Use when: the user asks");
    }
}

BOOST_AUTO_TEST_CASE(bytes_that_are_not_text_never_reach_the_model)
{
    using namespace std::string_literals;
    temp_dir t;
    presets::locations at;
    at.overrides = {{"user", t / "user"}, {"managed", t / "m"}, {"project", t / "p"}};
    write(t / "user/elf/SKILL.md", "\x7f" "ELF\x02\x01\x01\0\0\0"s);
    write(t / "user/latin/SKILL.md", "# Caf\xe9\n"s);
    write(t / "user/fine/SKILL.md", skill("fine", "Fine"));
    auto agent = presets::make_claude_code(at);
    agent.load();
    auto const snap = agent.snapshot();
    BOOST_TEST(snap->find("elf") == nullptr);
    BOOST_TEST(snap->find("latin") == nullptr);
    BOOST_TEST(has(snap->diagnostics(), "body-not-text"));
    BOOST_TEST(has(snap->diagnostics(), "utf8-invalid"));
    BOOST_TEST(agent.index().text.find("Caf") == std::string::npos);
    // Loaded as text, then swapped for bytes: the invocation re-checks what it reads.
    write(t / "user/fine/SKILL.md", "---\nname: fine\ndescription: Fine\n---\nrun \0 this\n"s);
    auto const inv = agent.invoke("fine", caller::user);
    BOOST_TEST((inv.error == invoke_error::load_failed));
    BOOST_TEST(inv.content.empty());
    BOOST_TEST(inv.message.find("control character") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(one_long_description_cannot_empty_an_index)
{
    temp_dir t;
    presets::locations at;
    at.overrides = {{"user", t / "user"}, {"managed", t / "m"}, {"project", t / "p"}, {"project-sven", t / "user"}};
    at.home = t / "home";
    write(t / "user/aaa/SKILL.md", "---\ndescription: " + std::string(200000, 'x') + "\n---\nBody.\n");
    for (int i = 0; i < 500; ++i) write(t / "user" / (numbered("s", 1000 + i) + "/SKILL.md"), skill(numbered("s", 1000 + i), "A short one"));
    auto claude = presets::make_claude_code(at);
    claude.load();
    BOOST_TEST(has(claude.snapshot()->diagnostics(), "description-too-long"));
    auto const r = claude.index();
    BOOST_TEST(r.listed.size() > 10u);
    BOOST_TEST(r.text.find("more skills are not listed") != std::string::npos);
    // The document's rule, to the letter, is one call away (and empties the index, as documented).
    claude.settings().listing = index_formats::policies::as_documented(index_formats::policies::claude_code());
    BOOST_TEST(claude.index().listed.empty());
    auto sven = presets::make_sven(at);
    sven.load();
    BOOST_TEST(sven.index().listed.size() > 10u);
}

BOOST_AUTO_TEST_CASE(results_do_not_depend_on_creation_order_or_threads)
{
    // G13: the same tree made in two orders, loaded many times on both cores, renders
    // byte for byte the same index, with the same collisions and diagnostics.
    temp_dir a, b;
    std::vector<std::string> names;
    for (int i = 0; i < 150; ++i) names.push_back(numbered("skill-", (i * 37) % 150));
    auto make = [&](fs::path const& root, bool reversed) {
        auto order = names;
        if (reversed) std::reverse(order.begin(), order.end());
        for (auto const& n : order) {
            write(root / "user" / n / "SKILL.md", skill(n, "User " + n));
            if (n.back() == '3') write(root / "project" / n / "SKILL.md", skill(n, "Project " + n));
            write(root / "user" / n / "nested" / "deeper" / "SKILL.md", skill("deeper", "Deep " + n));
        }
    };
    make(a.path, false);
    make(b.path, true);
    auto render = [](fs::path const& root) {
        presets::locations at;
        at.home = root / "home";
        at.project = root / "p";
        at.overrides = {{"user-sven", root / "user"}, {"project-sven", root / "project"}};
        auto agent = presets::make_sven(at);
        agent.load();
        std::string out = agent.index().text;
        for (auto const& d : agent.snapshot()->diagnostics()) out += d.code + " " + d.message.substr(0, 40) + "\n";
        auto const prefix = root.string();
        for (std::size_t at_ = out.find(prefix); at_ != std::string::npos; at_ = out.find(prefix)) out.replace(at_, prefix.size(), "ROOT");
        return out;
    };
    std::string const first = render(a.path);
    BOOST_TEST(first.find("skill-13") != std::string::npos);
    for (int round = 0; round < 10; ++round) BOOST_TEST(render(round % 2 ? a.path : b.path) == first);
}

BOOST_AUTO_TEST_CASE(mycode_quiet_refresh_takes_the_zero_io_path)
{
    temp_dir t;
    presets::locations at;
    at.home = t / "home";
    at.project = t / "project";
    write(t / "home/.mycode/skills/a/SKILL.md", skill("a", "user"));
    write(t / "home/.mycode/plugins/skills/b/SKILL.md", skill("b", "plugin"));
    auto agent = presets::make_mycode(at, "acme");
    agent.load();
    agent.refresh(); // sets the change watches, the plugin tier's included
    agent.refresh(); // checks once more: the tree may have changed while they were set
    auto const before = agent.snapshot();
    agent.refresh();
    // Every tier vouched that nothing changed: the same snapshot, nothing walked or read.
    BOOST_TEST(agent.snapshot() == before);
    write(t / "home/.mycode/plugins/skills/b/SKILL.md", skill("b", "plugin, edited"));
    agent.refresh();
    BOOST_TEST(agent.snapshot()->find("acme:b")->meta.description == "plugin, edited");
}

BOOST_AUTO_TEST_SUITE_END()
