// Every preset over one skills folder: its index, a typed command, its tool's definition.
// Built twice, header-only and with compile-once (skillmd::compiled); the test compares
// the two outputs byte for byte, so compiling once changes nothing a user sees.
#include <skillmd/presets.hpp>

#include <boost/json/serialize.hpp>

#include <iostream>
#include <string>

namespace {

template <class System>
void report(char const* name, System agent)
{
    agent.load();
    std::cout << "== " << name << "\n" << agent.index().text << "\n";
    auto const run = agent.invoke("/commit fix the build", skillmd::caller::user);
    std::cout << skillmd::to_string(run.status()) << " " << run.message << "\n" << run.content << "\n";
    std::cout << boost::json::serialize(agent.tool_definition()) << "\n";
    std::cout << agent.snapshot()->diagnostics().size() << " diagnostics\n";
}

skillmd::presets::locations at(char const* first_tier, char const* skills, char const* empty)
{
    skillmd::presets::locations where;
    where.home = empty;
    where.project = empty;
    where.managed = empty;
    where.overrides[first_tier] = skills;
    return where;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc != 3) {
        std::cerr << "usage: presets_report SKILLS_DIR EMPTY_DIR\n";
        return 2;
    }
    namespace p = skillmd::presets;
    report("pegasus", p::make_pegasus(at("builtin", argv[1], argv[2])));
    report("claude_code", p::make_claude_code(at("user", argv[1], argv[2])));
    report("mycode", p::make_mycode(at("user", argv[1], argv[2])));
    report("sven", p::make_sven(at("user-sven", argv[1], argv[2])));
    report("agent_skills", p::make_agent_skills(at("user", argv[1], argv[2])));
    report("claude_code_2_1", p::make_claude_code_2_1(at("user", argv[1], argv[2])));
    auto codex = at("user-agents", argv[1], argv[2]);
    codex.overrides["admin"] = argv[2]; // not the machine's /etc/codex/skills
    report("codex_0_169", p::make_codex_0_169(codex));
    report("gemini_cli_0_61", p::make_gemini_cli_0_61(at("user-agents", argv[1], argv[2])));
    report("opencode_1_18", p::make_opencode_1_18(at("user-agents", argv[1], argv[2])));
}
