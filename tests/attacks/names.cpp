// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)

// Attacks on name resolution: every spelling of a skill (its command, its `name:`, its
// qualified `name@tier`, a tool call) reaches the one record the resolver returns, and
// permission rules are matched against that record, not against the spelling typed.

#include "../support/test_support.hpp"

#include <skillmd/mcp/server.hpp>
#include <skillmd/presets.hpp>

#include <boost/test/unit_test.hpp>

#include <string>

using namespace skillmd;
namespace fs = std::filesystem;

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

// Names that look like others: white space at a folder's or a name's ends, a space
// other than U+0020, an invisible character, a look-alike of `:`. Each is refused in every
// dialect (a label only dropped), so `deploy\u00a0` never passes for `deploy` past a rule.
BOOST_AUTO_TEST_CASE(names_that_look_like_others_are_refused)
{
    test::temp_dir t;
    for (std::string const folder : {" lead", "trail ", "in\u00a0side", "zw\u200bsp", "tools\uff1adeploy", "plugin\ua4fddeploy"})
        test::write(t / "user" / folder / "SKILL.md", skill("fine"));
    test::write(t / "user/helper/SKILL.md", skill("\"deploy\u00a0\"", "HELPER"));
    test::write(t / "user/plain/SKILL.md", skill("plain"));
    presets::locations at;
    at.project = t / "proj";
    at.home = t / "home";
    at.overrides = {{"user", t / "user"}, {"project", t / "project"}, {"managed", t / "managed"}, {"plugin", t / "plugin"}};
    auto folders_refused = [&](snapshot const& snap, std::string const& dialect_name) {
        for (auto const* r : snap.list()) {
            std::string const c(r->command.view());
            BOOST_TEST((c == "plain" || c == "helper" || c == "deploy"), dialect_name << ": " << c);
        }
        std::size_t white = 0, invisible = 0, reserved = 0;
        for (auto const& d : snap.diagnostics()) {
            if (d.severity != severity::error) continue;
            white += d.code == codes::name_white_space;
            invisible += d.code == codes::name_invisible_character;
            reserved += d.code == codes::name_reserved_character &&
                        (d.message.find("U+FF1A") != std::string::npos || d.message.find("U+A4FD") != std::string::npos);
        }
        BOOST_TEST(white >= 3u, dialect_name); // ` lead`, `trail `, `in\u00a0side`
        BOOST_TEST(invisible == 1u, dialect_name);
        BOOST_TEST(reserved == 2u, dialect_name); // shown as written, not folded to `:`
    };
    { // mycode keys skills by `name:`: the name is refused, whatever the rules say
        auto agent = presets::make_mycode(at);
        BOOST_TEST_REQUIRE(agent.load());
        folders_refused(*agent.snapshot(), "mycode");
        BOOST_TEST(agent.snapshot()->find("deploy\u00a0") == nullptr);
        BOOST_TEST(agent.snapshot()->find("helper") == nullptr);
    }
    { // the specification's validator reads the name stripped: it is `deploy`, and a rule says so
        auto agent = presets::make_agent_skills(at);
        BOOST_TEST_REQUIRE(agent.load());
        folders_refused(*agent.snapshot(), "agent-skills");
        auto const* r = agent.snapshot()->find("helper");
        BOOST_TEST_REQUIRE(r != nullptr);
        BOOST_TEST(r->meta.name.view() == "deploy");
        agent.settings().invoke.permissions.deny = {"deploy"};
        BOOST_TEST((agent.invoke("helper", caller::model).status() == invoke_status::denied));
        BOOST_TEST((agent.invoke("deploy\u00a0", caller::model).status() != invoke_status::run));
    }
    { // a label only: dropped, and the skill is its folder
        auto agent = presets::make_claude_code(at);
        BOOST_TEST_REQUIRE(agent.load());
        folders_refused(*agent.snapshot(), "claude-code");
        auto const* r = agent.snapshot()->find("helper");
        BOOST_TEST_REQUIRE(r != nullptr);
        BOOST_TEST(!r->meta.label.has_value());
        BOOST_TEST(agent.snapshot()->find("deploy\u00a0") == nullptr);
    }
}

// sven finds a typed command by its sanitised form too, but never a qualified or plugin
// name: `deploy@user-sven` must not become `deploy_user_sven`, another folder's command.
// Its TUI keeps `/` (`/sven/plan`), so `/sven_plan` is no spelling of `sven/plan`.
BOOST_AUTO_TEST_CASE(the_sanitiser_never_turns_a_qualified_name_into_another)
{
    test::temp_dir t;
    test::write(t / "sven/deploy-user-sven/SKILL.md", skill("deploy-user-sven", "IMPOSTOR"));
    test::write(t / "sven/plugin-deploy/SKILL.md", skill("plugin-deploy", "IMPOSTOR"));
    test::write(t / "sven/sven/SKILL.md", skill("sven"));
    test::write(t / "sven/sven/plan/SKILL.md", skill("plan", "PLAN"));
    presets::locations at;
    at.overrides["user-sven"] = t / "sven";
    auto agent = presets::make_sven(at);
    BOOST_TEST_REQUIRE(agent.load());
    for (auto const* typed : {"/deploy@user-sven", "deploy@user-sven", "/plugin:deploy", "plugin:deploy"}) {
        auto const inv = agent.invoke(typed, caller::user);
        BOOST_TEST((inv.status() == invoke_status::failed), typed);
        BOOST_TEST(inv.content.find("IMPOSTOR") == std::string::npos, typed);
    }
    BOOST_TEST((agent.invoke("/deploy_user_sven", caller::user).status() == invoke_status::run)); // its own sanitised name
    BOOST_TEST((agent.invoke("/sven/plan", caller::user).status() == invoke_status::run));
    BOOST_TEST((agent.invoke("/sven_plan", caller::user).status() == invoke_status::failed));
}

// A rule no name can ever match is refused, not left to warn: a prefix starting with `/`
// (`/dep:*`), a name with an empty, `.` or `..` part (`deploy/`). A typed `/deploy` is a
// spelling the resolver takes, so it stays a rule.
BOOST_AUTO_TEST_CASE(rules_that_can_never_match_are_refused)
{
    test::temp_dir t;
    test::write(t / "user/deploy/SKILL.md", skill("deploy"));
    presets::locations at;
    at.overrides = {{"user", t / "user"}, {"project", t / "project"}};
    auto agent = presets::make_agent_skills(at);
    BOOST_TEST_REQUIRE(agent.load());
    for (std::string const rule : {"/dep:*", "deploy/", "a//b", "../deploy", "/", "./deploy", "deploy@", "@user", "deploy@user@user"}) {
        agent.settings().invoke.permissions = {};
        agent.settings().invoke.permissions.deny = {rule};
        BOOST_TEST(has_code(agent.check_permissions(), codes::permission_rule_invalid), rule);
    }
    for (std::string const rule : {"/deploy", "dep:*", "deploy", "deploy@user", "sven/:*"}) {
        agent.settings().invoke.permissions = {};
        agent.settings().invoke.permissions.deny = {rule};
        BOOST_TEST(!has_code(agent.check_permissions(), codes::permission_rule_invalid), rule);
    }
}

// Codex keeps every copy of a name, and two in one tier share `name@tier`: that is said
// (a warning naming both), and MCP serves one skill per path, saying which it left out.
BOOST_AUTO_TEST_CASE(one_name_twice_in_one_tier_is_said_and_served_once)
{
    test::temp_dir t;
    test::write(t / "codex/a/dup/SKILL.md", skill("dup", "FIRST"));
    test::write(t / "codex/b/dup/SKILL.md", skill("dup", "SECOND"));
    presets::locations at;
    at.project = t / "proj";
    at.home = t / "home";
    at.overrides["project-codex"] = t / "codex";
    auto agent = presets::make_codex_0_169(at);
    BOOST_TEST_REQUIRE(agent.load());
    auto const snap = agent.snapshot();
    BOOST_TEST(snap->list().size() == 2u);
    BOOST_TEST(has_code(snap->diagnostics(), codes::skill_duplicate));
    std::vector<std::string> skipped;
    auto const served = mcp::served(*snap, &skipped);
    BOOST_TEST(served.size() == 1u);
    BOOST_TEST_REQUIRE(skipped.size() == 1u);
    BOOST_TEST(skipped.front().find("another skill is served at") != std::string::npos);
    // What `dup@project-codex` reaches is what is served.
    BOOST_TEST_REQUIRE(!served.empty());
    BOOST_TEST(served.front().record == snap->find("dup@project-codex"));
}

// A link to a folder of the same tier is a second name for it: the folder keeps its own
// name whichever the walk meets first, so `a-deploy -> deploy` never slips past a rule
// or an override written for `deploy`.
BOOST_AUTO_TEST_CASE(a_link_in_the_tier_never_takes_a_folder_s_name)
{
    test::temp_dir t;
    test::write(t / "tier/deploy/SKILL.md", skill("deploy", "DEPLOY"));
    fs::create_directory_symlink("deploy", t / "tier/a-deploy");
    auto check = [&](auto agent, std::string const& dialect_name) {
        BOOST_TEST_REQUIRE(agent.load(), dialect_name);
        auto const snap = agent.snapshot();
        BOOST_TEST(snap->find("deploy") != nullptr, dialect_name);
        BOOST_TEST(snap->find("a-deploy") == nullptr, dialect_name);
        agent.settings().invoke.permissions.deny = {"deploy"};
        for (auto const* typed : {"/deploy", "/a-deploy"})
            BOOST_TEST((agent.invoke(typed, caller::user).status() != invoke_status::run), dialect_name << " " << typed);
    };
    presets::locations at;
    at.project = t / "proj";
    at.home = t / "home";
    at.overrides = {{"user", t / "tier"}, {"project", t / "none"}, {"managed", t / "none"}, {"builtin", t / "none"}};
    check(presets::make_claude_code(at), "claude-code");
    check(presets::make_pegasus(at), "pegasus");
    presets::locations sv;
    sv.overrides["user-sven"] = t / "tier";
    check(presets::make_sven(sv), "sven");
}

// sven matches a typed command by its sanitised form, so a deny prefix binds every skill a
// command starting with it reaches: `deploy-:*` covers `DEPLOY-prod` typed `/deploy-prod`,
// `ops/deploy-:*` covers `Ops/Deploy-Prod`; and such a rule is no "matches no skill".
BOOST_AUTO_TEST_CASE(sven_prefix_rules_bind_what_typed_commands_reach)
{
    test::temp_dir t;
    test::write(t / "sven/DEPLOY-prod/SKILL.md", skill("x", "BODY"));
    test::write(t / "sven/Ops/SKILL.md", skill("ops"));
    test::write(t / "sven/Ops/Deploy-Prod/SKILL.md", skill("y", "NESTED"));
    test::write(t / "sven/deployer/SKILL.md", skill("deployer"));
    presets::locations at;
    at.overrides["user-sven"] = t / "sven";
    auto agent = presets::make_sven(at);
    BOOST_TEST_REQUIRE(agent.load());
    for (auto const& [typed, rule] : {std::pair{"/deploy-prod", "deploy-:*"}, std::pair{"/DEPLOY-prod", "deploy-:*"},
                                      std::pair{"/ops/deploy-prod", "ops/deploy-:*"}, std::pair{"/ops/deploy-prod", "ops/:*"}}) {
        agent.settings().invoke.permissions = {};
        agent.settings().invoke.permissions.deny = {rule};
        BOOST_TEST((agent.invoke(typed, caller::user).status() == invoke_status::denied), typed << " / " << rule);
        BOOST_TEST(!has_code(agent.check_permissions(), codes::permission_rule_unmatched), rule);
    }
    // A prefix that no typed command reaching the skill can start with leaves it alone.
    agent.settings().invoke.permissions = {};
    agent.settings().invoke.permissions.deny = {"deployx:*"};
    BOOST_TEST((agent.invoke("/deploy-prod", caller::user).status() == invoke_status::run));
}

BOOST_AUTO_TEST_SUITE_END()
