// A consumer that builds in seconds: the skill model only (no parser).
#include <skillmd/model.hpp>

#include <iostream>

int main()
{
    bool const ok = skillmd::valid_command_name("review/code") && !skillmd::valid_command_name("../x") &&
                    skillmd::sanitize_command("Sven Plan/Code-Review") == "sven_plan/code_review";
    std::cout << (ok ? "skillmd consumer: ok" : "skillmd consumer: wrong answer") << '\n';
    return ok ? 0 : 1;
}
