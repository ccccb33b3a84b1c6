#include <skillmd/skillmd.hpp>
#include <iostream>

int main(int argc, char** argv)
{
    namespace sk = skillmd;
    sk::presets::locations where; // Claude Code's tiers; the user tier read from argv[1]
    where.overrides["user"] = argc > 1 ? argv[1] : "skills";
    auto registry = sk::presets::make_claude_code(where);
    registry.load();
    auto const snapshot = registry.snapshot(); // immutable: keep it while others refresh
    for (auto const& d : snapshot->diagnostics()) std::cerr << sk::to_text(d) << "\n";

    // Layer 1: the index for the system prompt, within Claude Code's 15,000-character budget.
    std::cout << sk::render_index(*snapshot, sk::index_formats::claude_code{},
                                  sk::index_formats::policies::claude_code()).text << "\n";
    // Layer 2: the user types a command; validation, permission, arguments, rendering.
    auto const run = sk::invoke(registry, "/commit fix the flaky test", "", sk::caller::user);
    if (!run.ok()) { std::cerr << run.message << "\n"; return 1; }
    std::cout << run.content << "(" << sk::to_string(run.mode) << ", " << run.allowed_tools.size() << " tools)\n";
}
