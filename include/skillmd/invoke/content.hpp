// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_INVOKE_CONTENT_HPP
#define SKILLMD_INVOKE_CONTENT_HPP

// Layer 2: how an invoked skill's instructions reach the model, one
// `content_format` per system. Names, commands and paths are cleaned to one line and
// escaped where they sit in XML; a body may not close the element that wraps it (its
// closing tag is written `&lt;/...`).

#include <skillmd/detail/prompt_text.hpp>
#include <skillmd/invoke/impl/content_text.hpp>
#include <skillmd/detail/trim.hpp>
#include <skillmd/model/skill.hpp>

#include <concepts>
#include <string>
#include <string_view>
#include <vector>

namespace skillmd {

/// Who asked for a skill: the user (a `/command`) or the model (a tool call).
enum class caller : std::uint8_t { user, model };

inline constexpr std::string_view to_string(caller c) noexcept { return c == caller::user ? "user" : "model"; }

struct sub_skill
{
    std::string command;
    std::string name;
    std::string description;
};

/// Everything a content format may show of one invoked skill.
struct loaded_skill
{
    std::string command;
    std::string name;              ///< display name (the label where there is one)
    std::string description;
    std::string body;              ///< the SKILL.md body as written (no frontmatter)
    std::string content;           ///< the body with the arguments substituted
    std::string file_text;         ///< the whole SKILL.md (Codex injects it)
    std::string arguments;         ///< as given, trimmed
    std::string base_directory;    ///< absolute; "" for database skills
    std::string skill_file;        ///< absolute path of the SKILL.md
    std::vector<std::string> bundled_files; ///< relative to the base directory
    std::vector<sub_skill> children;        ///< direct sub-skills (sven)
    std::vector<std::string> knowledge;     ///< sven knowledge documents
    std::vector<std::string> knowledge_titles; ///< each document's first heading ("" when unknown)
    std::string working_directory;          ///< mycode's context
    skillmd::caller who = caller::model;
    context_mode mode = context_mode::inline_;
};

/// A content format: `render` gives the text the model receives.
template <class F>
concept content_format = requires(F const& f, loaded_skill const& s) {
    { f.render(s) } -> std::convertible_to<std::string>;
};

namespace content_formats {

/// Pegasus ("pegasus"): the model gets the content as the tool result; a user's
/// `/command` injects `[Skill: name]` and the content as a user message; a fork gets
/// the content as its task.
struct pegasus
{
    static constexpr std::string_view name = "pegasus";
    std::string render(loaded_skill const& s) const
    {
        if (s.mode == context_mode::inline_ && s.who == caller::user)
            return "[Skill: " + detail::one_line(s.command) + "]\n\n" + s.content;
        return s.content;
    }
};

/// Claude Code, as reverse-engineered: the base directory line, then the
/// content (arguments substituted or appended).
struct claude_code
{
    static constexpr std::string_view name = "claude-code";
    std::string render(loaded_skill const& s) const
    {
        // Claude Code's fence expression `^---\s*\n([\s\S]*?)---\s*\n?` ends with a greedy `\s*`:
        // blank lines and indentation after the closing fence are not part of the body.
        std::string_view content = s.content;
        if (s.file_text.starts_with("---")) content.remove_prefix(skillmd::detail::js_space_prefix(content));
        return "Base directory for this skill: " + detail::one_line(s.base_directory) + "\n\n" + std::string(content);
    }
    /// The command-message metadata shown while the skill loads (never sent to the model).
    std::string metadata(loaded_skill const& s, std::string_view progress = "loading") const
    {
        std::string const n = detail::one_line(s.name.empty() ? s.command : s.name); // the label the user sees
        return "<command-message>The \"" + n + "\" skill is " + std::string(progress) +
               "</command-message>\n<command-name>" + n + "</command-name>";
    }
};

/// mycode ("mycode"): the "Skill Activated" context message; `tool_result` is what
/// the Skill tool returns.
struct mycode
{
    static constexpr std::string_view name = "mycode";
    std::string render(loaded_skill const& s) const
    {
        std::string const args = detail::one_line(s.arguments);
        return "\n## Skill Activated: " + detail::one_line(s.name) + "\n\n" + std::string(detail::trim_end(s.body, detail::blanks_and_breaks)) +
               "\n\n## Current Context\n- Working Directory: " + detail::one_line(s.working_directory) +
               "\n- Arguments: " + (args.empty() ? std::string("(none)") : args) +
               "\n\nPlease proceed with the skill's responsibilities.\n";
    }
    std::string tool_result(loaded_skill const& s) const
    {
        return "Skill '" + detail::one_line(s.name) + "' activated. Following skill instructions.";
    }
};

/// koshi ("koshi"): `load_skill` returns the body; skills whose triggers match go
/// into an `## Active Skills` section, or a `## Skill Hint` when they cannot be loaded.
struct koshi
{
    static constexpr std::string_view name = "koshi";
    std::string render(loaded_skill const& s) const { return s.content; }

    std::string active_skills(std::vector<loaded_skill> const& skills) const
    {
        if (skills.empty()) return {};
        std::string out = "## Active Skills\n";
        for (auto const& s : skills) {
            out += "\n### ";
            append_escaped_name(out, s.command);
            out += "\n\n";
            out += s.content;
            if (out.back() != '\n') out += '\n';
        }
        return out;
    }
    std::string skill_hint(std::vector<std::string> const& commands) const
    {
        if (commands.empty()) return {};
        std::string out = "## Skill Hint\nThese skills match this message: ";
        for (std::size_t i = 0; i < commands.size(); ++i) {
            if (i) out += ", ";
            append_escaped_name(out, commands[i]);
        }
        out += ". Call the `load_skill` tool to load their instructions.\n";
        return out;
    }

private:
    static void append_escaped_name(std::string& out, std::string_view n)
    {
        skillmd::detail::append_escaped(out, detail::one_line(n), escaping::markdown);
    }
};

/// sven ("sven"): `load_skill` returns `<skill_content>` with the body, the base
/// directory, at most `max_files` bundled files, the direct sub-skills and knowledge
/// hints; a user's `/command` sends the body and the task.
struct sven
{
    static constexpr std::string_view name = "sven";
    std::size_t max_files = 20;
    std::string knowledge_directory = ".sven/knowledge";

    std::string render(loaded_skill const& s) const
    {
        if (s.who == caller::user) {
            std::string out(detail::trim_end(s.body, detail::blanks_and_breaks));
            if (!s.arguments.empty()) out += "\n\nTask: " + s.arguments;
            return out;
        }
        std::string out = "<skill_content";
        detail::attribute(out, "command", s.command);
        detail::attribute(out, "name", s.name);
        out += ">\n# Skill: " + detail::one_line(s.name) + "\n\n";
        out += detail::keep_inside(detail::trim_end(s.content, detail::blanks_and_breaks), "skill_content");
        out += "\n\nBase directory: " + detail::one_line(s.base_directory) +
               "\nRelative paths in this skill (scripts/, references/, assets/) are relative to\n"
               "this base directory.\n";
        detail::file_list(out, "bundled_files", s.bundled_files, max_files);
        if (!s.children.empty()) {
            out += "\n<sub_skills>\n<!-- Call load_skill(command) to load any sub-skill's full instructions. -->\n";
            for (auto const& c : s.children) {
                out += "  <sub_skill";
                detail::attribute(out, "command", c.command);
                detail::attribute(out, "name", c.name);
                out += '>';
                skillmd::detail::append_escaped(out, detail::one_line(c.description), escaping::xml);
                out += "</sub_skill>\n";
            }
            out += "</sub_skills>\n";
        }
        if (!s.knowledge.empty()) {
            // sven's hint: each path, then its title in parentheses, the titles aligned.
            out += "\nRelevant knowledge docs (use search_knowledge or read_file to load):\n";
            std::vector<std::string> paths;
            std::size_t width = 0;
            for (auto const& k : s.knowledge) {
                paths.push_back(knowledge_directory + "/" + detail::one_line(k));
                width = std::max(width, skillmd::detail::utf8_length(paths.back()));
            }
            for (std::size_t i = 0; i < paths.size(); ++i) {
                std::string const title = i < s.knowledge_titles.size() ? detail::one_line(s.knowledge_titles[i]) : "";
                out += "  - " + paths[i];
                if (!title.empty())
                    out += std::string(width - skillmd::detail::utf8_length(paths[i]) + 1, ' ') + "(" + title + ")";
                out += "\n";
            }
        }
        out += "</skill_content>";
        return out;
    }
};

/// The Agent Skills client guide: `<skill_content>` with the body, the skill
/// directory and `<skill_resources>`.
struct agent_skills
{
    static constexpr std::string_view name = "agent-skills";
    std::string render(loaded_skill const& s) const
    {
        std::string out = "<skill_content";
        detail::attribute(out, "name", s.name);
        out += ">\n";
        out += detail::keep_inside(detail::trim_end(s.content, detail::blanks_and_breaks), "skill_content");
        out += "\n\nSkill directory: " + detail::one_line(s.base_directory) +
               "\nRelative paths in this skill are relative to the skill directory.\n";
        detail::file_list(out, "skill_resources", s.bundled_files);
        out += "</skill_content>";
        return out;
    }
};

/// Codex 0.169: the whole SKILL.md in a `<skill>` element, as a user message.
struct codex_0_169
{
    static constexpr std::string_view name = "codex-0.169";
    std::string render(loaded_skill const& s) const
    {
        std::string out = "<skill>\n<name>";
        skillmd::detail::append_escaped(out, detail::one_line(s.name), escaping::xml);
        out += "</name>\n<path>";
        skillmd::detail::append_escaped(out, detail::one_line(s.skill_file), escaping::xml);
        out += "</path>\n";
        out += detail::keep_inside(s.file_text, "skill");
        if (!s.file_text.empty() && s.file_text.back() != '\n') out += '\n';
        out += "</skill>";
        return out;
    }
};

/// Gemini CLI 0.61: the `activate_skill` result, body and resources in `<activated_skill>`.
struct gemini_cli_0_61
{
    static constexpr std::string_view name = "gemini-cli-0.61";
    std::string render(loaded_skill const& s) const
    {
        std::string out = "<activated_skill";
        detail::attribute(out, "name", s.name);
        out += ">\n  <instructions>\n    ";
        out += detail::keep_inside(detail::keep_inside(detail::trim_end(s.content, detail::blanks_and_breaks), "instructions"), "activated_skill");
        out += "\n  </instructions>\n\n  <available_resources>\n";
        for (auto const& f : s.bundled_files) {
            out += "    ";
            skillmd::detail::append_escaped(out, detail::one_line(f), escaping::xml);
            out += '\n';
        }
        out += "  </available_resources>\n</activated_skill>";
        return out;
    }
};

// Each shipped format models content_format (docs/policies.md).
static_assert(content_format<pegasus>, "content_formats::pegasus must model content_format");
static_assert(content_format<claude_code>, "content_formats::claude_code must model content_format");
static_assert(content_format<mycode>, "content_formats::mycode must model content_format");
static_assert(content_format<koshi>, "content_formats::koshi must model content_format");
static_assert(content_format<sven>, "content_formats::sven must model content_format");
static_assert(content_format<agent_skills>, "content_formats::agent_skills must model content_format");
static_assert(content_format<codex_0_169>, "content_formats::codex_0_169 must model content_format");
static_assert(content_format<gemini_cli_0_61>, "content_formats::gemini_cli_0_61 must model content_format");

/// The format names `skillmd invoke --format` takes.
inline constexpr std::string_view names[] = {"pegasus", "claude-code", "mycode", "koshi",
                                              "sven", "agent-skills", "codex-0.169", "gemini-cli-0.61"};

/// Calls `f` with the content format named `name`; false when there is none.
template <class Visitor>
bool visit(std::string_view name, Visitor&& f)
{
    if (name == "pegasus") f(pegasus{});
    else if (name == "claude-code") f(claude_code{});
    else if (name == "mycode") f(mycode{});
    else if (name == "koshi") f(koshi{});
    else if (name == "sven") f(sven{});
    else if (name == "agent-skills") f(agent_skills{});
    else if (name == "codex-0.169") f(codex_0_169{});
    else if (name == "gemini-cli-0.61") f(gemini_cli_0_61{});
    else return false;
    return true;
}

} // namespace content_formats
} // namespace skillmd

#endif
