#include <skillmd/presets.hpp>

#ifndef SKILLMD_SEPARATE_COMPILATION
#error "skillmd::compiled must give its users SKILLMD_SEPARATE_COMPILATION"
#endif

int main()
{
    skillmd::presets::locations where;
    where.overrides["user"] = "/nonexistent-skillmd-consumer";
    auto agent = skillmd::presets::make_agent_skills(where);
    return agent.load() && agent.snapshot()->skills().empty() ? 0 : 1;
}
