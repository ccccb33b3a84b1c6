// A translation unit that parses frontmatter and reads one field.
#include <skillmd/frontmatter/x3_parser.hpp>

#include <string>
#include <string_view>

std::string name_of(std::string_view yaml)
{
    skillmd::frontmatter::x3_parser parser;
    auto r = parser.parse(yaml, "SKILL.md", 2);
    if (!r.ok()) return {};
    auto const n = r.doc->root().find("name");
    return n ? std::string(n->value()) : std::string();
}
