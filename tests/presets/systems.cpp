// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
//
// A preset is one whole system: the registry, the formats, the budget, the tool and the
// invocation rules from its one name.

#include "../support/skill_trees.hpp"

#include <skillmd/invoke/invocation.hpp>
#include <skillmd/invoke/tool_calls.hpp>
#include <skillmd/presets/systems.hpp>
#include <skillmd/storage/seeding.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

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
    // Blank lines and indentation after the closing fence are not body (Claude Code's fence expression).
    write(t / "user/commit/SKILL.md", "---\ndescription: Commit work\nwhen_to_use: the user says commit\n---\n\n\n  Write it: $ARGUMENTS\n");
    write(t / "user/review/SKILL.md", "---\nname: Code Review\ndescription: Review code\n---\nReview.\n");
    auto agent = presets::make_claude_code(at);
    agent.load();
    // Layer 1: Claude Code's line, with the tier the description came from.
    BOOST_TEST(agent.index().text == "- /commit: Commit work (user) - the user says commit\n- /review: Review code (user)\n");
    // Layer 2: Claude Code's content, not another system's.
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
    // Claude Code's validation: `/` alone names no skill (2); only a blank input is malformed (1), as given.
    BOOST_TEST((agent.invoke("/", caller::model).error == invoke_error::unknown_skill));
    auto const blank = agent.invoke("  ", caller::model);
    BOOST_TEST((blank.error == invoke_error::invalid_format));
    BOOST_TEST(blank.message == "Invalid skill format:   ");
    // Claude Code's tool takes the name alone.
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
    BOOST_TEST(forked.agent.value_or("") == "general"); // Pegasus's default agent
    BOOST_TEST(pegasus.invoke("nope", caller::model).message == "Skill \"nope\" not found");
    BOOST_TEST(pegasus.tool_definition().at("name").as_string() == "use_skill");

    write(t / "home/.mycode/skills/plan/SKILL.md", skill("plan", "Plans"));
    auto mycode = presets::make_mycode(at);
    mycode.load();
    BOOST_TEST(mycode.invoke("nope", caller::model).message == "Skill not found: nope");
    // mycode keys skills by their frontmatter name, not by their folder.
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
    // koshi's database tools parse too; create needs all its fields.
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
