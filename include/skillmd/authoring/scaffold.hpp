// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_AUTHORING_SCAFFOLD_HPP
#define SKILLMD_AUTHORING_SCAFFOLD_HPP

// Helpers for people: the `/skills` table, and the template
// writer behind `/skill create NAME`, whose SKILL.md passes the specification's checks.

#include <skillmd/detail/prompt_text.hpp>
#include <skillmd/storage/registry.hpp>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <string>
#include <string_view>
#include <sys/stat.h>
#include <vector>

namespace skillmd {

/** mycode's `/skills` listing: a box-drawn table of names and descriptions,
    `inner_width` code points between the borders (60 in mycode), descriptions cut
    with `…` to fit, then the hint on how skills are invoked.
*/
inline std::string skills_table(std::vector<skill_record const*> const& rows, std::size_t inner_width = 60)
{
    std::size_t name_width = 24;
    for (auto const* r : rows) name_width = std::max(name_width, detail::utf8_length(detail::clean_line(r->command)) + 2);
    inner_width = std::max(inner_width, name_width + 12);
    std::size_t const desc_width = inner_width - name_width - 2; // a space on each side
    std::string rule;
    for (std::size_t i = 0; i < inner_width; ++i) rule += "\xe2\x94\x80";
    auto const pad = [](std::string s, std::size_t width) {
        std::size_t const n = detail::utf8_length(s);
        if (n < width) s.append(width - n, ' ');
        return s;
    };
    auto const row = [&](std::string_view name, std::string_view desc) {
        return "\xe2\x94\x82 " + pad(detail::clean_line(name), name_width) +
               pad(detail::shorten(detail::clean_line(desc), desc_width), desc_width) + " \xe2\x94\x82\n";
    };
    std::string out = "Available Skills:\n\xe2\x94\x8c" + rule + "\xe2\x94\x90\n";
    out += row("Name", "Description");
    out += "\xe2\x94\x9c" + rule + "\xe2\x94\xa4\n";
    for (auto const* r : rows) out += row(r->command, r->meta.description);
    out += "\xe2\x94\x94" + rule + "\xe2\x94\x98\n\n";
    out += "Skills are invoked automatically when relevant, or use:\n  Skill tool with skill name\n";
    return out;
}

/// True for a name the specification accepts and a template can use as a directory:
/// 1-64 of `a-z`, `0-9`, `-`, no `-` at either end, no `--`.
inline bool valid_new_skill_name(std::string_view name) noexcept
{
    if (name.empty() || name.size() > 64 || name.front() == '-' || name.back() == '-') return false;
    if (name.find("--") != std::string_view::npos) return false;
    for (char c : name)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
    return true;
}

struct template_result
{
    bool ok = false;
    std::string path;    ///< the SKILL.md written
    std::string message; ///< mycode's confirmation, or why nothing was written
};

/// Writes `dir/NAME/SKILL.md` from mycode's template; never overwrites.
inline template_result write_skill_template(std::string const& dir, std::string_view name)
{
    template_result res;
    if (!valid_new_skill_name(name)) {
        res.message = "invalid skill name '" + detail::clean_line(name) +
                      "': use 1-64 lowercase letters, digits and single hyphens, not at either end";
        return res;
    }
    std::string const skill_dir = (dir.empty() ? std::string(".") : dir) + "/" + std::string(name);
    res.path = skill_dir + "/SKILL.md";
    if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) {
        res.message = "cannot create " + dir + ": " + std::strerror(errno);
        return res;
    }
    if (::mkdir(skill_dir.c_str(), 0755) != 0) {
        res.message = errno == EEXIST ? skill_dir + " already exists; nothing written"
                                      : "cannot create " + skill_dir + ": " + std::strerror(errno);
        return res;
    }
    std::string const n(name);
    std::ofstream f(res.path, std::ios::binary | std::ios::trunc);
    f << "---\n"
      << "name: " << n << "\n"
      << "description: Describe what the " << n << " skill does and when an agent should use it.\n"
      << "allowed-tools: Read Grep\n"
      << "---\n\n"
      << "# " << n << "\n\n"
      << "Write the instructions the agent follows when this skill is active:\n\n"
      << "1. What to look at first.\n"
      << "2. The steps, in order.\n"
      << "3. What a good result looks like.\n\n"
      << "Arguments given with the command are available as $ARGUMENTS.\n";
    f.close();
    if (!f) {
        res.message = "cannot write " + res.path;
        return res;
    }
    res.ok = true;
    res.message = "Created skill template at:\n  " + res.path +
                  "\n\nEdit the SKILL.md file to define your skill:\n"
                  "  - name: Skill identifier\n"
                  "  - description: When to use this skill\n"
                  "  - allowed-tools: Tools the skill can use\n"
                  "  - Body: System prompt with instructions\n";
    return res;
}

} // namespace skillmd

#endif
