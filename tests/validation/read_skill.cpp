// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
//
// Typed skill records, dialects and validation: field types and aliases,
// defaults, strict and lenient modes, and bad input with its positions.

#include "../support/test_support.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>

namespace {

using skillmd::validation_mode;

skillmd::read_result read(skillmd::dialect const& d, std::string_view text, validation_mode m = validation_mode::strict,
                          std::string_view dir = "demo", std::string_view command = {})
{
    return skillmd::test::read_skill(d, m, text, {"demo/SKILL.md", dir, command});
}

skillmd::diagnostic const* find(skillmd::read_result const& r, std::string_view code)
{
    auto it = std::find_if(r.diagnostics.begin(), r.diagnostics.end(), [&](auto const& d) { return d.code == code; });
    return it == r.diagnostics.end() ? nullptr : &*it;
}

} // namespace

BOOST_AUTO_TEST_SUITE(read_skill)

BOOST_AUTO_TEST_CASE(every_field_is_typed)
{
    auto const r = read(skillmd::dialects::claude_code(), R"(---
name: Demo Label
description: Does things
when_to_use: When asked
allowed-tools: Bash(git diff:*) Read
disable-model-invocation: YES
user-invocable: off
context: fork
agent: Explore
model: inherit
argument-hint: "[file]"
arguments: [first, second]
version: 1.0
license: MIT
compatibility: needs git
metadata:
  owner: me
  nested: [a, b]
x-custom: {k: v}
---
# Heading
)");
    BOOST_TEST_REQUIRE(r.skill.has_value());
    auto const& s = *r.skill;
    BOOST_TEST(s.name == "demo"); // claude-code: the command is the directory, `name` a label
    BOOST_TEST(*s.label == "Demo Label");
    BOOST_TEST(s.description == "Does things");
    BOOST_TEST(*s.when_to_use == "When asked");
    BOOST_TEST((s.allowed_tools == std::vector<std::string>{"Bash(git diff:*)", "Read"}));
    BOOST_TEST(s.disable_model_invocation);
    BOOST_TEST(!s.user_invocable);
    BOOST_TEST((s.context == skillmd::context_mode::fork));
    BOOST_TEST(*s.agent == "Explore");
    BOOST_TEST(!s.model.has_value()); // inherit means none
    BOOST_TEST(*s.argument_hint == "[file]");
    BOOST_TEST((s.arguments == std::vector<std::string>{"first", "second"}));
    BOOST_TEST(*s.version == "1.0");
    BOOST_TEST_REQUIRE(s.metadata.size() == 2u);
    BOOST_TEST(s.metadata[1].second == R"(["a", "b"])");
    BOOST_TEST_REQUIRE(s.unknown.size() == 1u);
    BOOST_TEST(s.unknown[0].key == "x-custom");
    BOOST_TEST(s.unknown[0].json == R"({"k": "v"})");
    BOOST_TEST(s.unknown[0].line == 19u);
    BOOST_TEST(find(r, "unexpected-field") == nullptr); // claude-code ignores unknown keys
    BOOST_TEST(find(r, "metadata-not-string") != nullptr);
}

BOOST_AUTO_TEST_CASE(tools_are_read_from_commas_spaces_or_lists)
{
    auto const d = skillmd::dialects::koshi();
    auto tools = [&](std::string_view v) {
        std::string text = "---\nname: demo\ndescription: x\ntriggers: [go]\n";
        text += v;
        text += "\n---\n";
        auto const r = read(d, text);
        BOOST_TEST_REQUIRE(r.skill.has_value());
        return r.skill->allowed_tools;
    };
    using v = std::vector<std::string>;
    BOOST_TEST((tools("tools: Read, Grep,Bash(git log:*)") == v{"Read", "Grep", "Bash(git log:*)"}));
    BOOST_TEST((tools("tools: Read Bash(a, b) Grep") == v{"Read", "Bash(a, b)", "Grep"}));
    BOOST_TEST((tools("tools:\n  - Read\n  - Grep") == v{"Read", "Grep"}));
    BOOST_TEST((tools("allowed-tools: [Read]") == v{"Read"}));
}

BOOST_AUTO_TEST_CASE(booleans_accept_the_usual_spellings_and_refuse_others)
{
    auto const d = skillmd::dialects::pegasus();
    for (auto const& [text, want] : std::vector<std::pair<std::string, bool>>{
             {"true", true}, {"On", true}, {"YES", true}, {"1", true}, {"false", false}, {"no", false}, {"OFF", false}, {"0", false}}) {
        auto const r = read(d, "---\ndescription: x\ndisable-model-invocation: " + text + "\n---\n");
        BOOST_TEST_REQUIRE(r.skill.has_value());
        BOOST_TEST(r.skill->disable_model_invocation == want);
    }
    auto const bad = read(d, "---\ndescription: x\ndisable-model-invocation: maybe\n---\n");
    BOOST_TEST(!bad.skill.has_value());
    auto const* diag = find(bad, "field-not-boolean");
    BOOST_TEST_REQUIRE(diag != nullptr);
    BOOST_TEST(diag->line == 3u);
    BOOST_TEST(diag->column == 27u);
}

BOOST_AUTO_TEST_CASE(wrong_shapes_are_diagnostics_at_the_value)
{
    auto const r = read(skillmd::dialects::pegasus(), "---\ndescription: x\nagent:\n  - a\ncontext: sideways\n---\n");
    BOOST_TEST(!r.skill.has_value());
    auto const* a = find(r, "field-not-string");
    BOOST_TEST_REQUIRE(a != nullptr);
    BOOST_TEST(a->line == 4u);
    BOOST_TEST(find(r, "field-bad-value") != nullptr);
}

// `@` and `:` belong to `name@tier` and `plugin:name`: refused in a name in every dialect,
// in lenient mode too, at the value; where `name:` is a label, the label is dropped.
BOOST_AUTO_TEST_CASE(reserved_characters_in_a_name_are_refused_as_it_is_read)
{
    for (auto const& d : {skillmd::dialects::agent_skills(), skillmd::dialects::pegasus(), skillmd::dialects::mycode(),
                          skillmd::dialects::koshi(), skillmd::dialects::codex_0_169(), skillmd::dialects::opencode_1_18()})
        for (std::string_view const text : {"---\nname: a:b\ndescription: x\n---\n", "---\nname: \"c@user\"\ndescription: x\n---\n"})
            for (auto const m : {validation_mode::strict, validation_mode::lenient}) {
                auto const r = read(d, text, m);
                BOOST_TEST(!r.skill.has_value(), d.id << " " << text);
                auto const* e = find(r, skillmd::codes::name_reserved_character);
                BOOST_TEST_REQUIRE(e != nullptr, d.id << " " << text);
                BOOST_TEST((e->severity == skillmd::severity::error && e->line == 2u && e->column == 7u));
            }
    for (auto const& d : {skillmd::dialects::claude_code(), skillmd::dialects::sven()}) {
        auto const r = read(d, "---\nname: tools:deploy\ndescription: x\n---\n");
        BOOST_TEST_REQUIRE(r.skill.has_value(), d.id);
        BOOST_TEST(!r.skill->label.has_value(), d.id);
        BOOST_TEST(r.skill->name == "demo", d.id);
        auto const* w = find(r, skillmd::codes::name_reserved_character);
        BOOST_TEST_REQUIRE(w != nullptr, d.id);
        BOOST_TEST((w->severity == skillmd::severity::warning));
    }
}

BOOST_AUTO_TEST_CASE(defaults_come_from_the_directory_and_the_body)
{
    std::string_view const body = "---\nname: demo\n---\n\n# Title\n\nFirst paragraph\nwraps here.\n\nSecond.\n";
    auto const p = read(skillmd::dialects::pegasus(), body);
    BOOST_TEST_REQUIRE(p.skill.has_value());
    BOOST_TEST(p.skill->description == "First paragraph wraps here.");
    BOOST_TEST(!p.skill->description_given);
    auto const c = read(skillmd::dialects::claude_code(), body);
    BOOST_TEST_REQUIRE(c.skill.has_value());
    BOOST_TEST(c.skill->description == "Title");
    auto const fallback = read(skillmd::dialects::claude_code(), "no frontmatter, no heading\n");
    BOOST_TEST_REQUIRE(fallback.skill.has_value());
    BOOST_TEST(fallback.skill->description == "Skill");
    BOOST_TEST(fallback.skill->name == "demo");
    auto const nested = read(skillmd::dialects::sven(), "---\ndescription: x\n---\n", validation_mode::strict, "review",
                             "plan/review");
    BOOST_TEST_REQUIRE(nested.skill.has_value());
    BOOST_TEST(nested.skill->name == "review"); // sven: the folder's name; the command stays the path
    auto const unnamed = read(skillmd::dialects::mycode(), "---\ndescription: x\n---\n", validation_mode::strict, "review",
                              "plan/review");
    BOOST_TEST_REQUIRE(unnamed.skill.has_value()); // a default from the walk is not an unsafe name
    BOOST_TEST(unnamed.skill->name == "plan/review");
}

BOOST_AUTO_TEST_CASE(sven_block_and_knowledge)
{
    auto const r = read(skillmd::dialects::sven(),
                        "---\ndescription: |\n  Deploys.\nname: Deploy\nsven:\n  always: true\n  requires_bins: [docker]\n"
                        "  requires_env: DOCKER_TOKEN\n  user_invocable_only: no\n  colour: red\nknowledge:\n  - .sven/knowledge/a.md\n---\n");
    BOOST_TEST_REQUIRE(r.skill.has_value());
    BOOST_TEST(r.skill->always);
    BOOST_TEST((r.skill->requires_bins == std::vector<std::string>{"docker"}));
    BOOST_TEST((r.skill->requires_env == std::vector<std::string>{"DOCKER_TOKEN"}));
    BOOST_TEST(r.skill->knowledge.size() == 1u);
    BOOST_TEST(*r.skill->label == "Deploy");
    auto const* u = find(r, "unexpected-field");
    BOOST_TEST_REQUIRE(u != nullptr);
    BOOST_TEST((u->severity == skillmd::severity::warning));
    BOOST_TEST(u->line == 10u);
}

BOOST_AUTO_TEST_CASE(seed_rules_name_format_and_required_triggers)
{
    auto const k = read(skillmd::dialects::koshi(), "---\nname: Code_Review\ndescription: x\n---\n");
    BOOST_TEST(!k.skill.has_value());
    BOOST_TEST(find(k, "name-format") != nullptr);
    BOOST_TEST(find(k, "triggers-missing") != nullptr);
    std::string const long_name(65, 'a');
    auto const p = read(skillmd::dialects::pegasus(), "---\nname: " + long_name + "\ndescription: x\n---\n");
    BOOST_TEST(find(p, "name-format") != nullptr);
}

BOOST_AUTO_TEST_CASE(agent_skills_strict_reports_every_rule_with_its_id)
{
    auto const r = read(skillmd::dialects::agent_skills(),
                        "---\nname: -Bad--Name-\ndescription: x\nextra: 1\ncompatibility: [a]\n---\n", validation_mode::strict,
                        "other");
    BOOST_TEST(!r.skill.has_value());
    std::vector<std::string> rules;
    for (auto const& d : r.diagnostics)
        if (d.severity == skillmd::severity::error) rules.push_back(d.rule);
    std::sort(rules.begin(), rules.end());
    // compatibility: [a] is a flow collection: strict YAML stops there, as the reference validator does
    BOOST_TEST((rules == std::vector<std::string>{"yaml-invalid"}));

    auto const r2 = read(skillmd::dialects::agent_skills(),
                         "---\nname: -Bad--Name-\ndescription: x\nextra: 1\n---\n", validation_mode::strict, "other");
    rules.clear();
    for (auto const& d : r2.diagnostics)
        if (d.severity == skillmd::severity::error) rules.push_back(d.rule);
    std::sort(rules.begin(), rules.end());
    BOOST_TEST((rules == std::vector<std::string>{"name-directory-mismatch", "name-double-hyphen", "name-edge-hyphen",
                                                  "name-not-lowercase", "unexpected-field"}));
}

BOOST_AUTO_TEST_CASE(unicode_names_follow_the_reference_validator)
{
    auto const d = skillmd::dialects::agent_skills();
    // NFKC first: the ligature U+FB01 becomes "fi"; lowercase Cyrillic and CJK are letters
    BOOST_TEST(read(d, "---\nname: \xEF\xAC\x81le\ndescription: x\n---\n", validation_mode::strict, "file").skill.has_value());
    BOOST_TEST(read(d, "---\nname: \xD0\xBF\xD1\x80\xD0\xB8\xD0\xBC\xD0\xB5\xD1\x80\ndescription: x\n---\n",
                    validation_mode::strict, "\xD0\xBF\xD1\x80\xD0\xB8\xD0\xBC\xD0\xB5\xD1\x80")
                   .skill.has_value());
    auto const upper = read(d, "---\nname: \xC3\x84pfel\ndescription: x\n---\n", validation_mode::strict, "\xC3\x84pfel");
    BOOST_TEST(find(upper, "name-not-lowercase") != nullptr);
    auto const dot = read(d, "---\nname: a.b\ndescription: x\n---\n", validation_mode::strict, "a.b");
    BOOST_TEST(find(dot, "name-invalid-character") != nullptr);
}

BOOST_AUTO_TEST_CASE(lenient_mode_loads_with_warnings_where_the_client_guide_says)
{
    auto const d = skillmd::dialects::agent_skills();
    std::string const long_name(70, 'a');
    auto const r = read(d, "---\nname: " + long_name + "\ndescription: Use when: the user asks\nextra: [x]\n---\n",
                        validation_mode::lenient, "somewhere-else");
    BOOST_TEST_REQUIRE(r.skill.has_value());
    BOOST_TEST(r.skill->description == "Use when: the user asks");
    for (auto const& diag : r.diagnostics) BOOST_TEST((diag.severity == skillmd::severity::warning), diag.code);
    BOOST_TEST(find(r, "name-too-long") != nullptr);
    BOOST_TEST(find(r, "name-directory-mismatch") != nullptr);
    BOOST_TEST(find(r, "yaml-colon-in-plain") != nullptr);

    auto const no_description = read(d, "---\nname: demo\n---\n", validation_mode::lenient);
    BOOST_TEST(!no_description.skill.has_value());
    BOOST_TEST(find(no_description, "description-missing") != nullptr);
    auto const broken = read(d, "---\nname: demo\ndescription: [unclosed\n---\n", validation_mode::lenient);
    BOOST_TEST(!broken.skill.has_value());
}

BOOST_AUTO_TEST_CASE(hostile_names_and_descriptions)
{
    auto const d = skillmd::dialects::mycode();
    for (std::string_view name : {"../etc", "a/b", "..", "a\\\\b"}) {
        auto const r = read(d, "---\nname: \"" + std::string(name) + "\"\ndescription: x\n---\n");
        BOOST_TEST(!r.skill.has_value(), name);
        BOOST_TEST(find(r, "name-unsafe-path") != nullptr, name);
    }
    auto const zw = read(d, "---\nname: \"de\\u200Bmo\"\ndescription: \"ok\\u202Eevil\"\n---\n");
    BOOST_TEST(!zw.skill.has_value());
    BOOST_TEST(find(zw, "name-invisible-character") != nullptr);
    auto const* desc = find(zw, "description-invisible-character");
    BOOST_TEST_REQUIRE(desc != nullptr);
    BOOST_TEST((desc->severity == skillmd::severity::warning));
    std::string const huge(2000, 'x');
    auto const big = read(skillmd::dialects::agent_skills(), "---\nname: demo\ndescription: " + huge + "\n---\n");
    BOOST_TEST(find(big, "description-too-long") != nullptr);
    BOOST_TEST(!big.skill.has_value());
}

BOOST_AUTO_TEST_CASE(errors_never_leave_a_half_filled_record)
{
    auto const r = read(skillmd::dialects::agent_skills(), "---\nname: demo\ndescription: x\nname: again\n---\n");
    BOOST_TEST(!r.skill.has_value());
    BOOST_TEST(find(r, "yaml-duplicate-key") != nullptr);
    BOOST_TEST(find(r, "yaml-duplicate-key")->rule == "yaml-invalid");
}

BOOST_AUTO_TEST_SUITE_END()
