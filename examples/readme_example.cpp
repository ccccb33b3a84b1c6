#include <skillmd/presets.hpp>
#include <iostream>

int main(int argc, char** argv)
{
    namespace sk = skillmd;
    sk::presets::locations where; // Claude Code's tiers; the user tier read from argv[1]
    where.overrides["user"] = argc > 1 ? argv[1] : "skills";
    auto agent = sk::presets::make_claude_code(where); // tiers, parser, formats, budget, tool
    agent.load();
    for (auto const& d : agent.snapshot()->diagnostics()) std::cerr << sk::to_text(d) << "\n";
    std::cout << agent.index().text << "\n"; // layer 1: the system prompt's skill list
    auto run = agent.invoke("/commit fix the flaky test", sk::caller::user); // layer 2: a typed command
    if (run.status() == sk::invoke_status::run) std::cout << run.content << "\n";
    auto call = agent.call_tool(R"({"name": "Skill", "input": {"skill": "code-review"}})"); // the model asks
    std::cout << sk::to_string(call.status()) << ": " << call.permission.message << "\n";
    if (call.status() == sk::invoke_status::needs_approval) call.approve(); // ...and the user said yes
    std::cout << sk::to_string(call.status()) << ": " << call.content.substr(0, call.content.find('\n')) << "\n";
}
