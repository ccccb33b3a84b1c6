#include <skillmd/skillmd.hpp>
#include <skillmd/detail/read_file.hpp>
#include <iostream>

int main(int argc, char** argv)
{
    std::string const path = std::string(argc > 1 ? argv[1] : "skills") + "/commit/SKILL.md";
    std::string error;
    auto const text = skillmd::detail::read_file(path, error);
    if (!text) return std::cerr << path << ": " << error << "\n", 1;

    skillmd::frontmatter::x3_parser const parser; // the Spirit X3 grammar
    auto const skill = skillmd::frontmatter::read_skill_file(parser, *text, path);
    for (auto const& d : skill.diagnostics) std::cerr << skillmd::to_text(d) << "\n";
    if (!skill.frontmatter || skill.frontmatter->empty()) return 1;

    auto const meta = skill.frontmatter->root();
    std::cout << meta.find("name")->value() << ": " << meta.find("description")->value() << "\n"
              << "body: " << text->substr(skill.body_offset, 40) << "...\n";
}
