// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
//
// The tools for skill authors and operators: overrides in layers, activation events,
// explain, the portability lint and fmt.

#include "../support/test_support.hpp"

#include <skillmd/authoring/explain.hpp>
#include <skillmd/authoring/portability.hpp>
#include <skillmd/mcp/server.hpp>
#include <skillmd/presets/systems.hpp>
#include <skillmd/triggers/trigger_index.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/test/unit_test.hpp>

#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <vector>

using namespace skillmd;
using skillmd::test::temp_dir;
using skillmd::test::write;

namespace {

std::string described(std::string const& description) { return "---\ndescription: " + description + "\n---\nDo it.\n"; }

/// A Claude Code system over one user folder holding `alpha` and `beta`, with `layers`.
presets::claude_code system_with(temp_dir const& t, std::vector<override_layer> const& layers)
{
    presets::locations at;
    at.overrides["managed"] = t / "none1";
    at.overrides["user"] = t / "user";
    at.overrides["project"] = t / "none2";
    for (auto const& l : layers) at.skill_overrides.add(l);
    auto agent = presets::make_claude_code(at);
    agent.load();
    return agent;
}

override_layer layer(std::string label, std::vector<override_rule> rules) { return {std::move(label), "", std::move(rules)}; }

std::vector<diagnostic> findings(std::string_view text, std::string_view dir = "s")
{
    return check_portability(text, "SKILL.md", dir);
}

/// No reading differs (the validator's rules aside): what fmt promises.
bool reads_same(std::string_view text)
{
    for (auto const& d : findings(text))
        if (d.code == codes::portability_yaml || d.code == codes::portability_line_parser) return false;
    return true;
}

bool has(std::vector<diagnostic> const& ds, std::string_view code, std::uint32_t line = 0)
{
    for (auto const& d : ds)
        if (d.code == code && (line == 0 || d.line == line)) return true;
    return false;
}

} // namespace

BOOST_AUTO_TEST_SUITE(overrides_layers)

BOOST_AUTO_TEST_CASE(every_combination_of_user_and_project_layers)
{
    temp_dir t;
    write(t / "user/alpha/SKILL.md", described("Alpha things"));
    write(t / "user/beta/SKILL.md", described("Beta things"));
    std::vector<std::optional<override_mode>> const modes = {std::nullopt, override_mode::on, override_mode::name_only,
                                                             override_mode::user_invocable_only, override_mode::off};
    for (auto const& user : modes)
        for (auto const& project : modes) {
            std::vector<override_layer> layers;
            if (user) layers.push_back(layer("user settings", {{"alpha", false, *user}}));
            if (project) layers.push_back(layer("project settings", {{"alpha", false, *project}}));
            auto agent = system_with(t, layers);
            auto const want = project ? *project : user ? *user : override_mode::on; // the project's layer wins
            BOOST_TEST_CONTEXT("user " << (user ? to_string(*user) : "-") << ", project " << (project ? to_string(*project) : "-"))
            {
                auto const snap = agent.snapshot();
                auto const idx = agent.index().text;
                auto const* r = snap->find("alpha");
                auto const model = agent.invoke("alpha", caller::model);
                auto const user_run = agent.invoke("/alpha", caller::user);
                BOOST_TEST(idx.find("/beta: Beta things") != std::string::npos); // never touched
                switch (want) {
                case override_mode::on:
                    BOOST_TEST(idx.find("/alpha: Alpha things") != std::string::npos);
                    BOOST_TEST((model.error == invoke_error::none));
                    break;
                case override_mode::name_only:
                    BOOST_TEST(idx.find("/alpha") != std::string::npos);
                    BOOST_TEST(idx.find("Alpha things") == std::string::npos);
                    BOOST_TEST((model.error == invoke_error::none));
                    break;
                case override_mode::user_invocable_only:
                    BOOST_TEST(idx.find("alpha") == std::string::npos);
                    BOOST_TEST((model.error == invoke_error::model_invocation_disabled));
                    BOOST_TEST(model.message.find("an override (") != std::string::npos);
                    BOOST_TEST((user_run.status() == invoke_status::run));
                    break;
                case override_mode::off:
                    BOOST_TEST(idx.find("alpha") == std::string::npos);
                    BOOST_TEST(r == nullptr);
                    BOOST_TEST((model.error == invoke_error::unknown_skill));
                    BOOST_TEST((user_run.error == invoke_error::unknown_skill));
                    BOOST_TEST(snap->disabled().size() == 1u);
                    break;
                }
                if (want != override_mode::off) {
                    BOOST_REQUIRE(r != nullptr);
                    BOOST_TEST((r->overridden ? r->overridden->layer : "") == (project ? "project settings" : user ? "user settings" : ""));
                    BOOST_TEST((user_run.status() == invoke_status::run));
                }
            }
        }
}

BOOST_AUTO_TEST_CASE(path_rules_beat_name_rules_and_deeper_paths_win)
{
    temp_dir t;
    write(t / "user/alpha/SKILL.md", described("Alpha things"));
    write(t / "user/beta/SKILL.md", described("Beta things"));
    auto const folder = overrides::normal((t / "user").string());
    auto const alpha = overrides::normal((t / "user/alpha").string());
    // One layer: the folder off, alpha's own path on, a name rule cannot undo the path.
    auto agent = system_with(t, {layer("project settings", {{"alpha", false, override_mode::off},
                                                           {folder, true, override_mode::off},
                                                           {alpha, true, override_mode::on}})});
    auto const snap = agent.snapshot();
    BOOST_TEST(snap->find("alpha") != nullptr);
    BOOST_TEST(snap->find("beta") == nullptr);
    BOOST_TEST(snap->find("alpha")->overridden->pattern == alpha);
    // Read from JSON: relative path keys from the settings file's folder, bad modes refused.
    std::vector<diagnostic> ds;
    auto const l = read_override_layer(R"({"skillOverrides": {"./user/beta": "off", "alpha": "maybe", "": "off"}, "other": 1})",
                                       "project settings", "settings.json", t.path, ds);
    BOOST_TEST(l.rules.size() == 1u);
    BOOST_TEST(l.rules.front().by_path);
    BOOST_TEST(l.rules.front().pattern == overrides::normal((t / "user/beta").string()));
    BOOST_TEST(ds.size() == 2u);
    ds.clear();
    read_override_layer("[1, 2", "user settings", "bad.json", t.path, ds);
    BOOST_TEST(has(ds, "override-invalid"));
}

BOOST_AUTO_TEST_CASE(the_rules_two_sets_differ_by_are_those_a_decision_can_turn_on)
{
    auto const patterns = [](std::vector<override_rule> const& v) {
        std::string out;
        for (auto const& r : v) out += r.pattern + (r.by_path ? "/ " : " ");
        return out;
    };
    overrides a, b;
    a.add(layer("user settings", {{"x", false, override_mode::off}, {"y", false, override_mode::off}, {"z", false, override_mode::on}}));
    b.add(layer("user settings", {{"x", false, override_mode::off}, {"y", false, override_mode::off}, {"z", false, override_mode::on}}));
    BOOST_TEST(overrides::changed_rules(a, b).empty());
    // A mode changed in the middle: that rule, as it was and as it is.
    overrides c;
    c.add(layer("user settings", {{"x", false, override_mode::off}, {"y", false, override_mode::name_only}, {"z", false, override_mode::on}}));
    BOOST_TEST(patterns(overrides::changed_rules(a, c)) == "y y ");
    // Two rules swapped: a tie between them may go the other way now.
    overrides d;
    d.add(layer("user settings", {{"y", false, override_mode::off}, {"x", false, override_mode::off}, {"z", false, override_mode::on}}));
    BOOST_TEST(patterns(overrides::changed_rules(a, d)) == "x y y x ");
    // A layer added, and a layer renamed: all their rules.
    overrides e = a;
    e.add(layer("project settings", {{"/p", true, override_mode::off}}));
    BOOST_TEST(patterns(overrides::changed_rules(a, e)) == "/p/ ");
    overrides f;
    f.add(layer("managed settings", {{"x", false, override_mode::off}}));
    BOOST_TEST(patterns(overrides::changed_rules(a, f)) == "x y z x ");
    // Two name rules of one layer that both name a skill (its command, its `name:`): the
    // later decides, however long either is.
    overrides g;
    g.add(layer("user settings", {{"a-long-name", false, override_mode::off}, {"s1", false, override_mode::on}}));
    BOOST_TEST(to_string(g.decide("s1", "a-long-name", "").mode) == "on");
    overrides h;
    h.add(layer("user settings", {{"s1", false, override_mode::on}, {"a-long-name", false, override_mode::off}}));
    BOOST_TEST(to_string(h.decide("s1", "a-long-name", "").mode) == "off");
    // Two path rules for one folder, one written with a trailing `/`: as deep, the later decides.
    overrides k;
    k.add(layer("user settings", {{"/t/a/", true, override_mode::off}, {"/t/a", true, override_mode::on}}));
    BOOST_TEST(to_string(k.decide("a", "", "/t/a/SKILL.md").mode) == "on");
    // Paths are compared normal: a plain absolute path as it is, any other made so.
    BOOST_TEST(overrides::normal("/a/b/") == "/a/b");
    BOOST_TEST(overrides::normal("/a//b/./c/../d") == "/a/b/d");
    BOOST_TEST(overrides::normal("/") == "/");
}

BOOST_AUTO_TEST_CASE(an_off_skill_is_absent_from_the_tool_the_triggers_and_mcp)
{
    temp_dir t;
    write(t / "user/alpha/SKILL.md", "---\nname: alpha\ndescription: Alpha\ntriggers: [deploy now]\n---\nGo.\n");
    write(t / "user/beta/SKILL.md", "---\nname: beta\ndescription: Beta\ntriggers: [ship it]\n---\nGo.\n");
    overrides o;
    o.add(layer("project settings", {{"alpha", false, override_mode::off}}));
    registry_options ro;
    ro.dialect = dialects::koshi();
    ro.overrides = o;
    basic_registry<test::compiled_parser, first_tier_wins, directory_source> reg(
        test::compiled_parser{}, ro, directory_source("user", (t / "user").string()));
    reg.load();
    auto const snap = reg.snapshot();
    BOOST_TEST(snap->find("alpha") == nullptr);
    BOOST_TEST(snap->find("alpha@user") == nullptr);
    trigger_index const triggers(snap);
    BOOST_TEST(triggers.match("please deploy now").empty());
    BOOST_TEST(triggers.match("ship it").size() == 1u);
    auto const tool = boost::json::serialize(tool_definition(skill_tool::load_skill, *snap));
    BOOST_TEST(tool.find("alpha") == std::string::npos);
    BOOST_TEST(tool.find("beta") != std::string::npos);
    mcp::server<decltype(reg)> server(reg);
    server.handle(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})");
    auto const listed = server.handle(R"({"jsonrpc":"2.0","id":2,"method":"skills/list","params":{}})");
    std::string all;
    for (auto const& m : listed) all += m;
    BOOST_TEST(all.find("beta") != std::string::npos);
    BOOST_TEST(all.find("alpha") == std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(activation_events)

namespace {
struct recorder : observer
{
    struct call
    {
        std::string skill, tier, trigger, status, permission;
        std::size_t args = 0;
        int error = 0;
    };
    std::vector<call> calls;
    std::vector<std::vector<std::string>> listed, omitted;
    void skill_invoked(activation_event const& e) override
    {
        calls.push_back({std::string(e.skill), std::string(e.tier), std::string(to_string(e.trigger)), std::string(e.status),
                         std::string(e.permission), e.arguments_length, e.error});
    }
    void index_rendered(index_event const& e) override
    {
        listed.push_back(*e.listed);
        omitted.push_back(*e.omitted);
    }
};
} // namespace

BOOST_AUTO_TEST_CASE(every_invocation_and_rendering_is_reported)
{
    temp_dir t;
    write(t / "user/alpha/SKILL.md", described("Alpha things"));
    write(t / "user/beta/SKILL.md", described("Beta things"));
    auto agent = system_with(t, {});
    auto rec = std::make_shared<recorder>();
    agent.settings().observer = rec;
    agent.settings().invoke.permissions.deny = {"beta"};
    agent.index();
    agent.invoke("/alpha fix it now", caller::user);
    agent.call_tool(R"({"name":"Skill","input":{"skill":"alpha"}})");
    agent.invoke("beta", caller::model);
    agent.invoke("alpha", caller::model, "", activation_trigger::trigger_phrase);
    agent.invoke("nope", caller::model);
    BOOST_REQUIRE(rec->listed.size() == 1u);
    BOOST_TEST(rec->listed[0] == (std::vector<std::string>{"alpha", "beta"}));
    BOOST_REQUIRE(rec->calls.size() == 5u);
    BOOST_TEST(rec->calls[0].skill == "alpha");
    BOOST_TEST(rec->calls[0].tier == "user");
    BOOST_TEST(rec->calls[0].trigger == "user_command");
    BOOST_TEST(rec->calls[0].args == 10u); // "fix it now": the length, never the text
    BOOST_TEST(rec->calls[0].status == "run");
    BOOST_TEST(rec->calls[1].trigger == "model_tool_call");
    BOOST_TEST(rec->calls[1].status == "needs_approval");
    BOOST_TEST(rec->calls[1].permission == "ask");
    BOOST_TEST(rec->calls[2].status == "denied");
    BOOST_TEST(rec->calls[2].error == 7);
    BOOST_TEST(rec->calls[3].trigger == "trigger_phrase");
    BOOST_TEST(rec->calls[4].status == "failed");
    BOOST_TEST(rec->calls[4].error == 2);
    BOOST_TEST(rec->calls[4].tier == "");
    // explain renders the index to describe it: the observer is not told.
    BOOST_TEST(explain(agent).size() == 2u);
    BOOST_TEST(rec->listed.size() == 1u);
}

BOOST_AUTO_TEST_CASE(json_lines_are_valid_json_with_the_attribute_names)
{
    temp_dir t;
    write(t / "user/alpha/SKILL.md", described("Alpha"));
    write(t / "user/ev\x1b[31mil/SKILL.md", described("Evil"));
    auto agent = system_with(t, {});
    std::FILE* f = std::tmpfile();
    BOOST_REQUIRE(f);
    agent.settings().observer = std::make_shared<json_lines_observer>(f);
    agent.index();
    agent.invoke("/alpha one two", caller::user);
    agent.invoke("ev\x1b[31mil", caller::user);
    std::rewind(f);
    std::vector<boost::json::object> lines;
    char buf[8192];
    while (std::fgets(buf, sizeof buf, f)) {
        std::string_view const line(buf);
        BOOST_TEST(line.find('\x1b') == std::string_view::npos); // escaped, never raw
        lines.push_back(boost::json::parse(line).as_object());
    }
    std::fclose(f);
    BOOST_REQUIRE(lines.size() == 3u);
    BOOST_TEST(lines[0].at("event.name").as_string() == "skill_index_rendered");
    BOOST_TEST(lines[0].at("index.listed").as_array().size() == 1u); // the name with a control character is refused
    BOOST_TEST(lines[1].at("event.name").as_string() == "skill_activated");
    BOOST_TEST(lines[1].at("skill.name").as_string() == "alpha");
    BOOST_TEST(lines[1].at("skill.source").as_string() == "user");
    BOOST_TEST(lines[1].at("skill.trigger").as_string() == "user_command");
    BOOST_TEST(lines[1].at("skill.arguments.length").as_int64() == 7);
    BOOST_TEST(lines[1].at("permission.decision").as_string() == "allow");
    BOOST_TEST(lines[1].at("event.timestamp").as_string().size() == 24u);
    BOOST_TEST(lines[2].at("skill.name").as_string() == "ev\x1b[31mil");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(explain_reasons)

BOOST_AUTO_TEST_CASE(each_reason_is_named)
{
    temp_dir t;
    presets::locations at;
    at.overrides["managed"] = t / "none";
    at.overrides["user"] = t / "user";
    at.overrides["project"] = t / "project";
    write(t / "user/deploy/SKILL.md", described("Deploy"));
    write(t / "project/deploy/SKILL.md", described("Project deploy"));
    write(t / "user/broken/SKILL.md", "---\ndescription: [unclosed\n---\nBody.\n");
    write(t / "user/manual/SKILL.md", "---\ndescription: By hand\ndisable-model-invocation: true\n---\nGo.\n");
    write(t / "user/helper/SKILL.md", "---\ndescription: Helper\nuser-invocable: false\n---\nGo.\n");
    write(t / "user/nodesc/SKILL.md", "---\nname: nodesc\n---\n# Heading\n");
    write(t / "user/long/SKILL.md", described(std::string(200, 'x')));
    write(t / "user/zz/SKILL.md", described("Z"));
    write(t / "user/off/SKILL.md", described("Off"));
    at.skill_overrides.add(layer("user settings", {{"off", false, override_mode::off}}));
    auto agent = presets::make_claude_code(at);
    agent.settings().listing.budget.chars = 60;
    agent.settings().listing.budget.env.clear();
    agent.load();
    std::map<std::string, skill_explanation> by;
    for (auto& e : explain(agent)) by[e.command + "@" + e.tier + "@" + e.index] = e;
    auto reason = [&](std::string const& key, std::string const& code) {
        BOOST_TEST_CONTEXT(key << " " << code)
        {
            BOOST_REQUIRE(by.count(key));
            for (auto const& r : by[key].reasons)
                if (r.code == code) return r;
            BOOST_FAIL("no such reason");
        }
        return explain_reason{};
    };
    BOOST_TEST(reason("deploy@project@shadowed", "shadowed").text.find("deploy@user") != std::string::npos);
    auto const broken = reason("broken@@not-loaded", "not-loaded");
    BOOST_TEST(broken.line == 2u);
    BOOST_TEST(broken.column > 0u);
    BOOST_TEST(!by["manual@user@not-listed"].model_invocable);
    BOOST_TEST(by["manual@user@not-listed"].user_invocable);
    reason("manual@user@not-listed", "hidden-flag");
    BOOST_TEST(!by["helper@user@listed"].user_invocable);
    reason("helper@user@listed", "hidden-flag");
    reason("nodesc@user@not-listed", "undocumented");
    BOOST_TEST(reason("long@user@omitted", "budget-omitted").text.find("did not fit") != std::string::npos);
    // zz would fit, but Claude Code's rule stops at the first overflow.
    BOOST_TEST(reason("zz@user@omitted", "budget-omitted").text.find("`long` before it did not fit") != std::string::npos);
    BOOST_TEST(reason("off@user@off", "override").text.find("user settings") != std::string::npos);
    // One by name: every copy of it.
    BOOST_TEST(explain(agent, "deploy").size() == 2u);
    BOOST_TEST(explain(agent, "/broken").size() == 1u);
    BOOST_TEST(explain(agent, "missing").empty());
}

BOOST_AUTO_TEST_CASE(a_requirement_is_named)
{
    temp_dir t;
    presets::locations at;
    at.home = t / "home";
    at.project = t / "project";
    write(t / "project/.sven/skills/gated/SKILL.md",
          "---\nname: gated\ndescription: Needs a tool\nsven:\n  requires_bins: [no-such-program-skillmd]\n---\nGo.\n");
    auto agent = presets::make_sven(at);
    agent.load();
    auto const all = explain(agent, "gated");
    BOOST_REQUIRE(all.size() == 1u);
    BOOST_TEST(all[0].reasons.size() >= 1u);
    BOOST_TEST(all[0].reasons[0].code == "requirement");
    BOOST_TEST(all[0].reasons[0].text.find("no-such-program-skillmd") != std::string::npos);
    BOOST_TEST(!all[0].model_invocable);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(portability)

BOOST_AUTO_TEST_CASE(the_lint_says_where_readings_differ)
{
    // `: ` in a plain value: strict YAML refuses, the lenient reading takes it.
    auto ds = findings("---\nname: s\ndescription: Use when: deploying\n---\nBody\n");
    BOOST_TEST(has(ds, codes::portability_yaml, 3));
    // ` #` starts a comment in YAML; Claude Code's line parser keeps it.
    ds = findings("---\nname: s\ndescription: Fix C # code\n---\nBody\n");
    BOOST_TEST(has(ds, codes::portability_line_parser, 3));
    BOOST_TEST(ds.front().message.find("`Fix C # code`") != std::string::npos);
    // A value over two lines: the line parser reads the first only.
    ds = findings("---\nname: s\ndescription: one\n  two\n---\nBody\n");
    BOOST_TEST(has(ds, codes::portability_line_parser, 3));
    // A nested `name:` replaces the top-level one in the line parser.
    ds = findings("---\nname: s\ndescription: d\nmetadata:\n  name: other\n---\nBody\n");
    BOOST_TEST(has(ds, codes::portability_line_parser, 2));
    // A byte order mark hides the frontmatter from the line parser.
    BOOST_TEST(has(findings("\xEF\xBB\xBF---\nname: s\ndescription: d\n---\nBody\n"), codes::portability_line_parser, 1));
    // The validator's rules: a name that is not its folder's.
    BOOST_TEST(has(findings("---\nname: other\ndescription: d\n---\nBody\n"), codes::portability_validator, 2));
    // Read the same everywhere: nothing to say.
    BOOST_TEST(findings("---\nname: s\ndescription: 'Use when: deploying'\nmetadata:\n  author: me\n---\nBody\n").empty());
}

BOOST_AUTO_TEST_CASE(fmt_makes_the_smallest_edits_and_keeps_the_meaning)
{
    std::string const body = "Body: with `: ` and # and\ttabs\n";
    auto const r = fix_portability("\xEF\xBB\xBF---\nname: s\ndescription: Use when: it's time # why\nmetadata:\n"
                                   "\tauthor: me\ntags: [a, @b, c]\nlong: one\n  two\n---\n" + body,
                                   "SKILL.md");
    BOOST_TEST(!r.refused);
    BOOST_TEST(r.changed);
    BOOST_TEST(r.text == "---\nname: s\ndescription: \"Use when: it's time # why\"\nmetadata:\n  author: me\n"
                         "tags: [a, '@b', c]\nlong: 'one two'\n---\n" + body);
    BOOST_TEST(reads_same(r.text));
    auto const again = fix_portability(r.text, "SKILL.md");
    BOOST_TEST(!again.changed);
    BOOST_TEST(again.text == r.text);

    // A comment after a value moves above its key; comments are kept, never dropped.
    auto const c = fix_portability("---\nname: s\ndescription: Fix C # a note\n---\nB\n", "SKILL.md");
    BOOST_TEST(c.text == "---\nname: s\n# a note\ndescription: 'Fix C'\n---\nB\n");
    BOOST_TEST(reads_same(c.text));

    // No quoting reads the same in YAML and in the line parser: left untouched, said why.
    std::string const both = "---\nname: s\ndescription: say \"hi\": it's ok\n---\nB\n";
    auto const u = fix_portability(both, "SKILL.md");
    BOOST_TEST(!u.changed);
    BOOST_TEST(u.text == both);
    BOOST_TEST(has(u.notes, codes::fmt_unfixable, 3));
    // A block scalar with a final line break cannot be one line: said, not guessed.
    auto const b = fix_portability("---\nname: s\ndescription: >\n  folded text\n---\nB\n", "SKILL.md");
    BOOST_TEST(!b.changed);
    BOOST_TEST(has(b.notes, codes::fmt_unfixable));
    // ... without it, it can.
    auto const s = fix_portability("---\nname: s\ndescription: >-\n  folded\n  text\n---\nB\n", "SKILL.md");
    BOOST_TEST(s.text == "---\nname: s\ndescription: 'folded text'\n---\nB\n");
}

BOOST_AUTO_TEST_CASE(fmt_over_the_corpus, *test::needs_corpus())
{
    // Every file strict YAML refuses: after the fix no reading differs unless fmt said why
    // it could not; a second fix changes nothing; the body is never touched. Every other
    // file: fmt never changes what it says, and is idempotent.
    std::size_t refused_by_strict = 0, fixed = 0;
    for (auto const& p : test::skill_files(test::corpus_dir())) {
        std::string const text = test::slurp(p);
        auto const r = fix_portability(text, p.string());
        BOOST_TEST_CONTEXT(p.string())
        {
            BOOST_TEST(!r.refused);
            auto const again = fix_portability(r.text, p.string());
            BOOST_TEST(!again.changed);
            auto const strict = test::read(text);
            if (!test::first_error(strict.diagnostics).empty()) {
                ++refused_by_strict;
                fixed += r.changed;
                for (auto const& d : check_portability(r.text, p.string(), p.parent_path().filename().string()))
                    if (d.code == codes::portability_yaml || d.code == codes::portability_line_parser)
                        BOOST_TEST((has(r.notes, codes::fmt_unfixable, d.line) || has(r.notes, codes::fmt_unfixable)),
                                   d.message);
            }
            if (r.changed) {
                auto const after = test::read(r.text);
                BOOST_TEST(test::first_error(after.diagnostics).empty());
                BOOST_TEST(text.substr(std::min(text.size(), strict.body_offset)) ==
                           r.text.substr(std::min(r.text.size(), after.body_offset)));
            }
        }
    }
    BOOST_TEST(refused_by_strict >= 10u);
    BOOST_TEST(fixed * 4 >= refused_by_strict * 3); // most are fixed; the rest say why
}

BOOST_AUTO_TEST_SUITE_END()
