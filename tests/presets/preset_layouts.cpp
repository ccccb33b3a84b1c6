// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
//
// Each preset's tiers and their order, on directory trees built for each test.

#include "../support/skill_trees.hpp"

#include <skillmd/presets/systems.hpp>
#include <skillmd/storage/seeding.hpp>

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
    BOOST_TEST(s->find("local")->meta.description == "Local heading"); // Claude Code: the first heading
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
    BOOST_TEST(s->find("review")->meta.description == "Review things carefully."); // Pegasus: the first paragraph
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
