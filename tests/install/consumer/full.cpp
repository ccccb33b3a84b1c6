#include <skillmd/skillmd.hpp>

int main()
{
    auto const f = skillmd::frontmatter::read_skill_file(skillmd::frontmatter::x3_parser{},
                                                         "---\nname: demo\n---\nbody\n", "SKILL.md");
    return f.frontmatter && f.frontmatter->root().find("name")->value() == "demo" ? 0 : 1;
}
