#include <skillmd/skillmd.hpp>
#include <iostream>

int main(int argc, char** argv)
{
    namespace sk = skillmd;
    std::string const root = argc > 1 ? argv[1] : "skills";

    // One tier of nested folders, Claude Code's field names, the X3 frontmatter parser.
    sk::directory_options layout;
    layout.layout = sk::layout::nested;
    sk::basic_registry<sk::frontmatter::x3_parser, sk::first_tier_wins, sk::directory_source> registry(
        sk::frontmatter::x3_parser{}, {sk::dialects::claude_code()}, sk::directory_source("project", root, layout));
    registry.load();

    auto const snapshot = registry.snapshot(); // immutable: keep it while others refresh
    for (auto const& d : snapshot->diagnostics()) std::cerr << sk::to_text(d) << "\n";
    for (auto const* skill : snapshot->list(sk::visibility::model))
        std::cout << "/" << skill->command << ": " << skill->meta.description.substr(0, 50) << "...\n";
    if (auto const* commit = snapshot->find("/commit"))
        std::cout << "\n" << *registry.body(*commit);
}
