// A translation unit that uses only the registry: it refreshes a Claude Code registry
// and counts the user tier's skills. It parses nothing itself.
#include <skillmd/presets/registries.hpp>

#include <cstddef>

std::size_t user_skills(skillmd::presets::claude_code_registry& reg)
{
    reg.refresh();
    std::size_t n = 0;
    for (auto const& r : reg.snapshot()->skills()) n += r.tier == "user";
    return n;
}
