// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
//
// Containment: a tier reads only what lies inside its folders.

#include "../support/skill_trees.hpp"

#include <skillmd/detail/read_file.hpp>
#include <skillmd/invoke/invocation.hpp>
#include <skillmd/presets/systems.hpp>

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
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

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

// A link to a FIFO outside the tier is refused without opening the FIFO: an open for
// reading, even one that does not block, lets a writer waiting on it through (and a
// device's open can act). The writer here stays blocked through a load and a refresh.
BOOST_AUTO_TEST_CASE(a_link_out_of_a_tier_opens_nothing_there)
{
    temp_dir t, home;
    fs::create_directories(home.path);
    std::string const fifo = (home / "pipe").string();
    BOOST_TEST_REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    write(t / "tier/good/SKILL.md", skill("good", "Good"));
    fs::create_directories(t / "tier/pipe");
    fs::create_symlink(fifo, t / "tier/pipe/SKILL.md");
    std::atomic<bool> through{false};
    std::thread writer([&] {
        int const fd = ::open(fifo.c_str(), O_WRONLY | O_CLOEXEC); // returns once a reader opens it
        through = true;
        if (fd >= 0) ::close(fd);
    });
    basic_registry<parser, first_tier_wins, directory_source> reg(parser{}, lenient(),
                                                                   directory_source("project", (t / "tier").string()));
    reg.load();
    write(t / "tier/good/SKILL.md", skill("good", "Good, edited"));
    reg.refresh();
    std::this_thread::sleep_for(std::chrono::milliseconds(100)); // a writer let through returns within it
    BOOST_TEST(!through.load());
    auto const snap = reg.snapshot();
    BOOST_TEST(snap->find("pipe") == nullptr);
    BOOST_TEST(has(snap->diagnostics(), "skill-unreadable", "outside the tier's folders"));
    BOOST_TEST(snap->skills().size() == 1u);
    int const reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC); // lets the writer go
    writer.join();
    if (reader >= 0) ::close(reader);
}

// Files read whole (settings, locks, journals) are refused by type before they are
// opened to be read: a FIFO in a settings file's place lets no waiting writer through.
BOOST_AUTO_TEST_CASE(a_file_read_whole_is_no_fifo_opened)
{
    temp_dir t;
    fs::create_directories(t.path);
    std::string const fifo = (t / "settings.json").string();
    BOOST_TEST_REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    std::atomic<bool> through{false};
    std::thread writer([&] {
        int const fd = ::open(fifo.c_str(), O_WRONLY | O_CLOEXEC); // returns once a reader opens it
        through = true;
        if (fd >= 0) ::close(fd);
    });
    std::string why;
    for (int i = 0; i < 3; ++i) BOOST_TEST(!skillmd::detail::read_file(fifo, why, 1024 * 1024).has_value());
    BOOST_TEST(why == "is not a regular file");
    std::this_thread::sleep_for(std::chrono::milliseconds(100)); // a writer let through returns within it
    BOOST_TEST(!through.load());
    int const reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC); // lets the writer go
    writer.join();
    if (reader >= 0) ::close(reader);
    write(t / "plain.json", "{}\n");
    auto const plain = skillmd::detail::read_file((t / "plain.json").string(), why, 1024 * 1024);
    BOOST_TEST_REQUIRE(plain.has_value());
    BOOST_TEST(*plain == "{}\n");
    BOOST_TEST(!skillmd::detail::read_file((t / "plain.json").string(), why, 2).has_value()); // past its bound
    BOOST_TEST(why == "is larger than 2 bytes");
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

// A package whose only "subfolder" is a link to a sub-skill kept elsewhere (a folder the
// links may lead into): the link is walked, whatever the folder's link count says. A
// link to a folder of the same tier is not: that folder is found at its own place.
BOOST_AUTO_TEST_CASE(a_symlinked_sub_skill_in_a_package_without_subfolders_is_found)
{
    temp_dir t;
    write(t / "tier/pkg/SKILL.md", skill("pkg", "Package"));
    write(t / "tier/pkg/README.md", "files only, no real subfolder");
    write(t / "shared/sub/SKILL.md", skill("sub", "Shared sub-skill"));
    fs::create_directory_symlink(t / "shared/sub", t / "tier/pkg/sub");
    directory_options o;
    o.allowed_roots = {(t / "shared").string()};
    auto const found = commands(discover(t / "tier", layout::nested, o));
    BOOST_TEST((std::find(found.begin(), found.end(), "pkg/sub") != found.end()));

    write(t / "tier/local/sub2/SKILL.md", skill("sub2", "A sub-skill of this tier"));
    fs::create_directory_symlink(t / "tier/local/sub2", t / "tier/pkg/sub2");
    auto const in_tier = commands(discover(t / "tier", layout::nested, o));
    BOOST_TEST((std::find(in_tier.begin(), in_tier.end(), "local/sub2") != in_tier.end()));
    BOOST_TEST((std::find(in_tier.begin(), in_tier.end(), "pkg/sub2") == in_tier.end()));
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
