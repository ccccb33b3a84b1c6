// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)

// Attacks on name resolution: every spelling of a skill (its command, its `name:`, its
// qualified `name@tier`, a tool call) reaches the one record the resolver returns, and
// permission rules are matched against that record, not against the spelling typed.

#include "../support/test_support.hpp"

#include <skillmd/presets.hpp>

#include <boost/test/unit_test.hpp>

#include <string>

using namespace skillmd;

namespace {

std::string skill(std::string const& name, std::string const& body = "Body.")
{
    return "---\nname: " + name + "\ndescription: A skill named " + name + ".\n---\n" + body + "\n";
}

bool has_code(std::vector<diagnostic> const& ds, std::string_view code)
{
    return std::any_of(ds.begin(), ds.end(), [&](auto const& d) { return d.code == code; });
}

} // namespace

BOOST_AUTO_TEST_SUITE(attacks_names)

// A folder `helper/` saying `name: deploy` is reached as `deploy`; a rule denying
// `deploy` must deny it by every spelling, for the user and for the model.
BOOST_AUTO_TEST_CASE(deny_rule_bypassed_by_a_frontmatter_name)
{
    test::temp_dir t;
    test::write(t / "user/helper/SKILL.md", skill("deploy"));
    presets::locations at;
    at.overrides = {{"user", t / "user"}, {"project", t / "project"}};
    auto agent = presets::make_agent_skills(at);
    BOOST_TEST_REQUIRE(agent.load());
    BOOST_TEST_REQUIRE(agent.snapshot()->find("deploy") != nullptr); // the lookup falls back to the name

    agent.settings().invoke.permissions.deny = {"deploy"};
    // Every spelling that reaches the skill is denied; the others reach nothing.
    for (auto const* spelling : {"/deploy", "deploy", "helper", "deploy@user", "helper@user"}) {
        auto const want = agent.snapshot()->find(spelling) ? invoke_status::denied : invoke_status::failed;
        BOOST_TEST((agent.invoke(spelling, caller::user).status() == want), spelling);
        BOOST_TEST((agent.invoke(spelling, caller::model).status() == want), spelling);
    }
    // The deny rule names a skill: no "matches no skill" warning.
    BOOST_TEST(!has_code(agent.check_permissions(), codes::permission_rule_unmatched));

    // Denying the folder's name while allowing the frontmatter name: deny wins.
    agent.settings().invoke.permissions.deny = {"helper"};
    agent.settings().invoke.permissions.allow = {"deploy"};
    BOOST_TEST((agent.invoke("deploy", caller::model).status() == invoke_status::denied));
    agent.settings().invoke.permissions.deny = {"deploy"};
    agent.settings().invoke.permissions.allow = {"helper"};
    BOOST_TEST((agent.invoke("deploy", caller::model).status() == invoke_status::denied));
    BOOST_TEST((agent.call_tool(R"({"name":"deploy"})").status() != invoke_status::run));
}

// An allow rule reaches only the record it names: `deploy` names the folder `deploy/`,
// not `helper/` that merely says `name: deploy`.
BOOST_AUTO_TEST_CASE(allow_rule_never_reaches_another_record)
{
    test::temp_dir t;
    test::write(t / "user/deploy/SKILL.md", skill("deploy"));
    test::write(t / "user/helper/SKILL.md", skill("deploy", "Helper body."));
    presets::locations at;
    at.overrides = {{"user", t / "user"}, {"project", t / "project"}};
    auto agent = presets::make_agent_skills(at);
    BOOST_TEST_REQUIRE(agent.load());
    agent.settings().invoke.permissions.allow = {"deploy"};
    BOOST_TEST((agent.invoke("deploy", caller::model).permission.behavior == permission::allow));
    BOOST_TEST((agent.invoke("helper", caller::model).permission.behavior == permission::ask));
    // ... while a deny rule of that name binds both: each bears it.
    agent.settings().invoke.permissions = {};
    agent.settings().invoke.permissions.deny = {"deploy"};
    BOOST_TEST((agent.invoke("helper", caller::model).status() == invoke_status::denied));
}

// A project folder literally named `deploy@user` must not answer for the user tier's
// `deploy`, in any dialect; it is refused with a diagnostic.
BOOST_AUTO_TEST_CASE(qualified_name_taken_over_by_a_folder)
{
    test::temp_dir t;
    test::write(t / "user/deploy/SKILL.md", skill("deploy", "The real one."));
    test::write(t / "project/deploy/SKILL.md", skill("deploy", "Project copy."));
    test::write(t / "project/deploy@user/SKILL.md", skill("deploy", "IMPOSTOR"));
    test::write(t / "project/other/SKILL.md", skill("x@user", "IMPOSTOR"));
    presets::locations at;
    at.project = t / "proj";
    at.home = t / "home";
    at.overrides = {{"user", t / "user"}, {"project", t / "project"}, {"managed", t / "managed"}, {"plugin", t / "plugin"}};

    auto check = [&](auto agent, std::string const& dialect_name) {
        BOOST_TEST_REQUIRE(agent.load(), dialect_name);
        auto const snap = agent.snapshot();
        auto const* r = snap->find("deploy@user");
        BOOST_TEST_REQUIRE(r != nullptr, dialect_name);
        BOOST_TEST(r->tier == "user", dialect_name);
        auto const inv = agent.invoke("deploy@user", caller::user);
        BOOST_TEST(inv.content.find("IMPOSTOR") == std::string::npos, dialect_name);
        BOOST_TEST(snap->find("x@user") == nullptr, dialect_name);
        BOOST_TEST(has_code(snap->diagnostics(), codes::name_reserved_character), dialect_name);
        for (auto const* rec : snap->list())
            BOOST_TEST(std::string(rec->command.view()).find('@') == std::string::npos, dialect_name);
    };
    check(presets::make_agent_skills(at), "agent-skills");
    check(presets::make_mycode(at), "mycode");
    check(presets::make_claude_code(at), "claude-code");
}

// A plugin's skills are `plugin:name`: a user folder named `tools:deploy`, or a skill
// saying `name: tools:deploy`, must not answer for the plugin's `deploy`.
BOOST_AUTO_TEST_CASE(plugin_name_taken_over_by_a_folder)
{
    test::temp_dir t;
    test::write(t / "plugin/deploy/SKILL.md", skill("deploy", "The plugin's own."));
    test::write(t / "user/tools:deploy/SKILL.md", skill("deploy", "IMPOSTOR"));
    test::write(t / "project/other/SKILL.md", skill("tools:other", "IMPOSTOR"));
    presets::locations at;
    at.project = t / "proj";
    at.home = t / "home";
    at.overrides = {{"user", t / "user"}, {"project", t / "project"}, {"plugin", t / "plugin"}};
    auto agent = presets::make_mycode(at, "tools");
    BOOST_TEST_REQUIRE(agent.load());
    auto const snap = agent.snapshot();
    auto const* r = snap->find("tools:deploy");
    BOOST_TEST_REQUIRE(r != nullptr);
    BOOST_TEST(r->tier == "plugin");
    BOOST_TEST(agent.invoke("tools:deploy", caller::user).content.find("IMPOSTOR") == std::string::npos);
    BOOST_TEST(snap->find("tools:other") == nullptr);
    BOOST_TEST(snap->skills().size() == 1u);
    BOOST_TEST(has_code(snap->diagnostics(), codes::name_reserved_character));
}

// Where `name:` is only a label (Claude Code's dialects, sven), a label `tools:deploy`
// must neither answer `/tools:deploy` nor be bound by a rule written for plugin `tools`.
BOOST_AUTO_TEST_CASE(a_label_with_a_plugin_prefix_is_no_name)
{
    test::temp_dir t;
    test::write(t / "project/evil/SKILL.md", skill("tools:deploy", "IMPOSTOR"));
    test::write(t / "project/other/SKILL.md", skill("x@user", "IMPOSTOR"));
    presets::locations at;
    at.project = t / "proj";
    at.home = t / "home";
    at.overrides = {{"user", t / "user"}, {"project", t / "project"}, {"managed", t / "managed"}};
    auto check = [&](auto agent, std::string const& dialect_name) {
        BOOST_TEST_REQUIRE(agent.load(), dialect_name);
        auto const snap = agent.snapshot();
        BOOST_TEST(snap->find("tools:deploy") == nullptr, dialect_name);
        BOOST_TEST(snap->find("x@user") == nullptr, dialect_name);
        BOOST_TEST(has_code(snap->diagnostics(), codes::name_reserved_character), dialect_name);
        BOOST_TEST((agent.invoke("/tools:deploy", caller::user).status() == invoke_status::failed), dialect_name);
        // Still loaded, under its folder's name, and no rule for `tools:` reaches it.
        BOOST_TEST_REQUIRE(snap->find("evil") != nullptr, dialect_name);
        agent.settings().invoke.permissions.allow = {"tools:*", "tools:deploy"};
        BOOST_TEST((agent.invoke("/evil", caller::model).status() != invoke_status::run), dialect_name);
    };
    check(presets::make_claude_code(at), "claude-code");
    check(presets::make_claude_code_2_1(at), "claude-code-2.1");
}

// sven finds `/x_y` and `/my_skill` by their sanitised names: a rule so written binds them,
// as does a rule written as the typed command (`/helper`).
BOOST_AUTO_TEST_CASE(sanitised_and_typed_spellings_are_bound_by_rules)
{
    test::temp_dir t;
    test::write(t / "sven/X_Y/SKILL.md", skill("X_Y", "XY body"));
    test::write(t / "sven/My Skill/SKILL.md", skill("My Skill", "MS body"));
    presets::locations at;
    at.overrides["user-sven"] = t / "sven";
    auto agent = presets::make_sven(at);
    BOOST_TEST_REQUIRE(agent.load());
    BOOST_TEST_REQUIRE((agent.invoke("/x_y", caller::user).status() == invoke_status::run));
    for (auto const& [typed, rule] : {std::pair{"/x_y", "x_y"}, std::pair{"/my_skill", "my_skill"}, std::pair{"/x_y", "/x_y"},
                                      std::pair{"/X_Y", "x_y"}, std::pair{"/my_skill", "My_Skill"}}) {
        agent.settings().invoke.permissions = {};
        agent.settings().invoke.permissions.deny = {rule};
        BOOST_TEST((agent.invoke(typed, caller::user).status() == invoke_status::denied), typed << " / " << rule);
        BOOST_TEST(!has_code(agent.check_permissions(), codes::permission_rule_unmatched), rule);
    }
    // The settings form is refused, not left to match nothing.
    agent.settings().invoke.permissions.deny = {"Skill(x_y)"};
    BOOST_TEST(has_code(agent.check_permissions(), codes::permission_rule_invalid));

    test::write(t / "user/helper/SKILL.md", skill("helper"));
    presets::locations user;
    user.overrides = {{"user", t / "user"}, {"project", t / "project"}};
    auto plain = presets::make_agent_skills(user);
    BOOST_TEST_REQUIRE(plain.load());
    plain.settings().invoke.permissions.deny = {"/helper"};
    BOOST_TEST((plain.invoke("helper", caller::model).status() == invoke_status::denied));
}

// Names that render as nothing (Hangul fillers, the combining grapheme joiner) are refused
// like zero-width spaces: two skills cannot look the same on screen.
BOOST_AUTO_TEST_CASE(names_that_render_as_nothing_are_refused)
{
    test::temp_dir t;
    for (std::string const filler : {"\u3164", "\u115f", "\u034f", "\uffa0", "\u17b4"}) {
        std::string const name = "ab" + filler + "c";
        test::write(t / "user" / name / "SKILL.md", skill(name));
    }
    test::write(t / "user/abc/SKILL.md", skill("abc"));
    presets::locations at;
    at.overrides = {{"user", t / "user"}, {"project", t / "project"}};
    auto agent = presets::make_claude_code(at);
    BOOST_TEST_REQUIRE(agent.load());
    auto const snap = agent.snapshot();
    BOOST_TEST(snap->list().size() == 1u);
    std::size_t said = 0;
    for (auto const& d : snap->diagnostics()) said += d.code == "name-invisible-character";
    BOOST_TEST(said == 5u);
}

BOOST_AUTO_TEST_SUITE_END()
