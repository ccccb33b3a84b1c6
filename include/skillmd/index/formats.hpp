// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_INDEX_FORMATS_HPP
#define SKILLMD_INDEX_FORMATS_HPP

// The index formats, one model of `index_format` per system, and each
// system's listing policy (which skills, what budget). Markdown and plain formats (and
// Codex, which collapses white space when it loads) clean every text to one line, so a
// description can never start a list item, heading or fence. XML formats keep a
// description's line breaks, as the reference tool does, drop what XML cannot hold,
// and escape, so nothing can close a tag or forge an entry. Where a system embeds text
// raw (Gemini CLI, Codex, the reference tool's location), skillmd escapes anyway: the
// output matches the system's byte for byte whenever the text holds no `& < >`.

#include <skillmd/index/render.hpp>
#include <skillmd/index/impl/format_parts.hpp>

#include <algorithm>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace skillmd::index_formats {

using namespace std::string_view_literals; // `out += "..."sv` appends without a strlen

/// Pegasus ("pegasus"): `Available skills:`, `- name: description` lines, and the
/// pointer to the `use_skill` tool.
struct pegasus
{
    static constexpr std::size_t description_overhead = 2;
    static constexpr escaping escape = escaping::none;
    static constexpr std::string_view name = "pegasus";
    void describe(std::string& out, index_entry const& e) const { detail::append_clean_line(out, e.description); }
    void begin(std::string& out, index_summary const&) const { out += "Available skills:\n"sv; }
    void entry(std::string& out, index_entry const& e, std::string_view text) const
    {
        out += "- "sv;
        detail::append_clean_line(out, e.command);
        if (!text.empty()) {
            out += ": "sv;
            out += text;
        }
        out += '\n';
    }
    void end(std::string& out, index_summary const&) const
    {
        out += "\nUse the use_skill tool to invoke a skill when relevant.\n"sv;
    }
};

/// Claude Code, as reverse-engineered: one line per skill,
/// `- /name hint: description (tier) - when_to_use`, trailing spaces trimmed, no frame.
struct claude_code
{
    static constexpr std::size_t description_overhead = 1;
    static constexpr escaping escape = escaping::none;
    static constexpr std::string_view name = "claude-code";
    void describe(std::string& out, index_entry const& e) const
    {
        detail::append_clean_line(out, e.description);
        if (!e.tier.empty()) { // Claude Code shows where a skill came from: `description (user)`
            out += " ("sv;
            detail::append_clean_line(out, e.tier);
            out += ')';
        }
        if (!e.when_to_use.empty()) {
            out += " - "sv;
            detail::append_clean_line(out, e.when_to_use);
        }
    }
    void begin(std::string&, index_summary const&) const {}
    void entry(std::string& out, index_entry const& e, std::string_view text) const
    {
        out += "- /"sv;
        detail::append_clean_line(out, e.command);
        if (!e.argument_hint.empty()) {
            out += ' ';
            detail::append_clean_line(out, e.argument_hint);
        }
        out += ": "sv;
        out += text;
        while (out.back() == ' ') out.pop_back();
        out += '\n';
    }
    void end(std::string&, index_summary const&) const {}
};

/// koshi ("koshi"): a Markdown `## Available Skills` section with bold names and
/// the pointer to the `load_skill` tool.
struct koshi
{
    static constexpr std::size_t description_overhead = 2;
    static constexpr escaping escape = escaping::none;
    static constexpr std::string_view name = "koshi";
    void describe(std::string& out, index_entry const& e) const { detail::append_clean_line(out, e.description); }
    void begin(std::string& out, index_summary const&) const { out += "## Available Skills\n"sv; }
    void entry(std::string& out, index_entry const& e, std::string_view text) const
    {
        out += "- **"sv;
        detail::put(out, e.command, escaping::markdown);
        out += "**"sv;
        if (!text.empty()) {
            out += ": "sv;
            out += text;
        }
        out += '\n';
    }
    void end(std::string& out, index_summary const&) const
    {
        out += "\nUse the `load_skill` tool to load full instructions for any skill when needed.\n"sv;
    }
};

/// sven ("sven"): the `## Skills` section with an `<available_skills>` block of
/// command, name and description; the budget counts the whole block, and a notice
/// after it says how many skills were left out.
struct sven
{
    static constexpr std::size_t description_overhead = 0;
    static constexpr escaping escape = escaping::html;
    static constexpr std::string_view name = "sven";
    static constexpr std::string_view open_tag = "<available_skills>\n", close_tag = "</available_skills>\n";
    static constexpr bool announces_omitted = true; ///< its own notice after the block
    std::size_t overhead() const { return open_tag.size() + close_tag.size(); }
    void describe(std::string& out, index_entry const& e) const { skillmd::detail::append_xml_text(out, e.description); }
    void begin(std::string& out, index_summary const&) const
    {
        out += "## Skills\n\n"
               "When you recognize that the current task matches one of the available skills\n"
               "listed below, call the `load_skill` tool to load the full skill instructions\n"
               "before proceeding.\n\n"sv;
        out += open_tag;
    }
    void entry(std::string& out, index_entry const& e, std::string_view text) const
    {
        out += "  <skill>\n"sv;
        detail::element(out, "    ", "command", e.command, escape);
        detail::element(out, "    ", "name", e.name, escape);
        detail::element(out, "    ", "description", text, escape, true);
        out += "  </skill>\n"sv;
    }
    void end(std::string& out, index_summary const& s) const
    {
        out += close_tag;
        if (s.omitted > 0)
            out += "\n<!-- " + std::to_string(s.omitted) + " more skill(s) not listed: the skill list is limited to " +
                   std::to_string(s.budget) + " characters. -->\n";
    }
};

/// The Agent Skills reference tool (skills-ref `to_prompt`): every tag and value on its
/// own line, name and description HTML-escaped, no trailing newline.
struct agent_skills
{
    static constexpr std::size_t description_overhead = 0;
    static constexpr escaping escape = escaping::html;
    static constexpr std::string_view name = "agent-skills";
    void describe(std::string& out, index_entry const& e) const { skillmd::detail::append_xml_text(out, e.description); }
    void begin(std::string& out, index_summary const&) const { out += "<available_skills>"sv; }
    void entry(std::string& out, index_entry const& e, std::string_view text) const
    {
        out += "\n<skill>\n<name>\n"sv;
        detail::put_xml(out, e.name, escape);
        out += "\n</name>\n<description>\n"sv;
        detail::append_escaped(out, text, escape);
        out += "\n</description>\n<location>\n"sv;
        detail::put_xml(out, e.location, escaping::xml);
        out += "\n</location>\n</skill>"sv;
    }
    void end(std::string& out, index_summary const&) const { out += "\n</available_skills>"sv; }
};

/// The specification's client guide: the indented `<available_skills>` catalog.
struct agent_skills_guide
{
    static constexpr std::size_t description_overhead = 0;
    static constexpr escaping escape = escaping::xml;
    static constexpr std::string_view name = "agent-skills-guide";
    void describe(std::string& out, index_entry const& e) const { skillmd::detail::append_xml_text(out, e.description); }
    void begin(std::string& out, index_summary const&) const { out += "<available_skills>\n"sv; }
    void entry(std::string& out, index_entry const& e, std::string_view text) const
    {
        detail::indented_skill(out, e, text);
    }
    void end(std::string& out, index_summary const&) const { out += "</available_skills>\n"sv; }
};

// Today's agents, byte for byte. Each reproduces the skill section one released
// version sends to its model (checked against captures of the real programs). The
// sentences around the list are each product's own prose, so they are a parameter:
// skillmd's wording by default, the product's text when the caller passes it.

/// Claude Code 2.1 (2.1.328): a lead sentence, a blank line, then `- name: description`
/// lines, ` - when_to_use` appended, no argument hint. Only `<` and `>` are escaped and
/// line breaks inside a description are kept, as Claude Code does: a description can
/// start what looks like another entry (documented; the design-based `claude_code` format
/// keeps each entry on one line).
struct claude_code_2_1
{
    struct prose_text
    {
        std::string lead = "Skills the Skill tool can load (name: what each one is for):";
    };
    prose_text prose;

    static constexpr std::size_t description_overhead = 2;
    static constexpr escaping escape = escaping::angle;
    static constexpr std::string_view name = "claude-code-2.1";
    void describe(std::string& out, index_entry const& e) const
    {
        skillmd::detail::append_xml_text(out, e.description);
        if (!e.when_to_use.empty()) {
            out += " - "sv;
            skillmd::detail::append_xml_text(out, e.when_to_use);
        }
    }
    void begin(std::string& out, index_summary const& s) const
    {
        if (s.listed == 0) return;
        out += prose.lead;
        out += "\n\n"sv;
    }
    void entry(std::string& out, index_entry const& e, std::string_view text) const
    {
        out += "- "sv;
        detail::put(out, e.command, escape);
        if (!text.empty()) {
            out += ": "sv;
            detail::append_escaped(out, text, escape);
        }
        out += '\n';
    }
    void end(std::string&, index_summary const&) const {}
};

/// Codex 0.169: `<skills_instructions>`, a heading and an intro, a table of skill roots
/// (`- `r0` = `/abs/root``, numbered in `roots` order, only roots some listed entry uses; with
/// no roots, absolute paths and the other intro, as Codex does), then
/// `- name: description (file: r0/rel/SKILL.md)` lines. Text is not escaped; white space
/// collapses to one line, and a description over 1,024 code points keeps 1,021 and
/// ends in `...`, as Codex cuts it.
struct codex_0_169
{
    struct prose_text
    {
        std::string heading = "## Skills";
        std::string intro = "Each skill below is a folder whose `SKILL.md` holds its instructions. A path starting "
                            "`rN/` is relative to root `rN` of the table; open the file when a skill fits the task.";
        std::string intro_without_roots = "Each skill below is a folder whose `SKILL.md` holds its instructions; open "
                                          "the file at the path given when a skill fits the task.";
        std::string roots_heading = "### Roots";
        std::string list_heading = "### Skills";
        std::string usage; ///< rules after the list (Codex 0.169 sends none); "" for none
    };
    struct root
    {
        std::string tier; ///< the registry tier whose directory this is
        std::string path; ///< the directory, absolute
    };
    prose_text prose;
    std::vector<root> roots; ///< in the order Codex numbers them (the preset's tier order)

    static constexpr std::size_t description_overhead = 1;
    static constexpr escaping escape = escaping::none;
    static constexpr std::string_view name = "codex-0.169";
    static constexpr std::size_t max_description = 1024;

    /// Numbers the roots the entries use.
    void prepare(std::span<index_entry const> entries)
    {
        used_.clear();
        for (auto const& r : roots) {
            bool any = false;
            for (auto const& e : entries) any = any || (e.tier == r.tier && under(e.location, r.path));
            if (any) used_.push_back(&r);
        }
        shown_.assign(used_.size(), 1);
    }
    /// Once the budget has chosen, the table keeps only the roots of the entries listed
    /// (each with its number, which the entries already carry).
    void listed_only(std::span<index_entry const> entries, std::span<char const> listed)
    {
        std::fill(shown_.begin(), shown_.end(), 0);
        for (std::size_t i = 0; i < entries.size(); ++i)
            if (listed[i])
                if (std::size_t const n = root_of(entries[i]); n < used_.size()) shown_[n] = 1;
    }
    std::size_t overhead() const
    {
        std::string table;
        write_roots(table);
        return skillmd::detail::utf8_length(table);
    }
    void describe(std::string& out, index_entry const& e) const
    {
        std::size_t const start = out.size();
        detail::append_clean_line(out, e.description);
        std::string_view const d = std::string_view(out).substr(start);
        if (skillmd::detail::utf8_length(d) > max_description) {
            out.resize(start + skillmd::detail::prefix_code_points(d, max_description - 3).size());
            out += "..."sv;
        }
    }
    void begin(std::string& out, index_summary const& s) const
    {
        if (s.listed == 0) return;
        out += "<skills_instructions>\n"sv;
        out += prose.heading;
        out += '\n';
        out += std::find(shown_.begin(), shown_.end(), 1) == shown_.end() ? prose.intro_without_roots : prose.intro;
        out += '\n';
        write_roots(out);
        out += prose.list_heading;
        out += '\n';
    }
    // An entry in three parts (has_entry_parts), so that sharing descriptions out writes
    // each entry's name and path once.
    void head(std::string& out, index_entry const& e) const
    {
        out += "- "sv;
        detail::append_clean_line(out, e.name);
        out += ": "sv;
    }
    void described(std::string& out, std::string_view text) const
    {
        out += text;
        out += ' ';
    }
    void entry(std::string& out, index_entry const& e, std::string_view text) const
    {
        head(out, e);
        if (!text.empty()) described(out, text);
        tail(out, e);
    }
    void tail(std::string& out, index_entry const& e) const
    {
        out += "(file: "sv;
        if (std::size_t const n = root_of(e); n < used_.size()) {
            out += 'r';
            out += std::to_string(n);
            detail::append_clean_line(out, std::string_view(e.location).substr(used_[n]->path.size()));
        } else {
            detail::append_clean_line(out, e.location);
        }
        out += ")\n"sv;
    }
    void end(std::string& out, index_summary const& s) const
    {
        if (s.listed == 0) return;
        if (!prose.usage.empty()) {
            out += prose.usage;
            if (out.back() != '\n') out += '\n';
        }
        out += "</skills_instructions>"sv;
    }

private:
    static bool under(std::string_view path, std::string_view dir)
    {
        return !dir.empty() && path.size() > dir.size() + 1 && path.starts_with(dir) && path[dir.size()] == '/';
    }
    std::size_t root_of(index_entry const& e) const
    {
        std::size_t n = 0;
        while (n < used_.size() && !(used_[n]->tier == e.tier && under(e.location, used_[n]->path))) ++n;
        return n;
    }
    void write_roots(std::string& out) const
    {
        if (std::find(shown_.begin(), shown_.end(), 1) == shown_.end()) return;
        out += prose.roots_heading;
        out += '\n';
        for (std::size_t i = 0; i < used_.size(); ++i) {
            if (!shown_[i]) continue;
            out += "- `r"sv;
            out += std::to_string(i);
            out += "` = `"sv;
            detail::append_clean_line(out, used_[i]->path);
            out += "`\n"sv;
        }
    }
    std::vector<root const*> used_; ///< set by prepare
    std::vector<char> shown_;       ///< used_[i] is in the table (listed_only)
};

/// Gemini CLI 0.61: a heading, an instruction naming `activate_skill`, and the indented
/// `<available_skills>` block. Nothing is escaped: a description holding `</skill>` ends
/// its element early, as it does in Gemini CLI. In a name, `: \ / < > * ? " |` become `-`.
struct gemini_cli_0_61
{
    struct prose_text
    {
        std::string heading = "# Skills";
        std::string intro = "Specialised skills are listed below. Call the `activate_skill` tool with a skill's "
                            "name to receive its full instructions.";
    };
    prose_text prose;

    static constexpr std::size_t description_overhead = 0;
    static constexpr escaping escape = escaping::none;
    static constexpr std::string_view name = "gemini-cli-0.61";
    void describe(std::string& out, index_entry const& e) const { skillmd::detail::append_raw_text(out, e.description); }
    void begin(std::string& out, index_summary const& s) const
    {
        if (s.listed == 0) return;
        out += prose.heading;
        out += "\n\n"sv;
        out += prose.intro;
        out += "\n\n<available_skills>\n"sv;
    }
    void entry(std::string& out, index_entry const& e, std::string_view text) const
    {
        std::string shown(e.name);
        for (char& c : shown)
            if (std::string_view(":\\/<>*?\"|").find(c) != std::string_view::npos) c = '-';
        detail::raw_skill(out, shown, text, e.location, escaping::none);
    }
    void end(std::string& out, index_summary const& s) const
    {
        if (s.listed > 0) out += "</available_skills>"sv;
    }
};

/// opencode 1.18: two instruction lines and the indented `<available_skills>` block;
/// name and description as written, the location with `& < > " '` escaped.
struct opencode_1_18
{
    struct prose_text
    {
        std::string intro = "Each skill below holds instructions for one kind of task.\n"
                            "Load one with the skill tool when a task fits its description.";
    };
    prose_text prose;

    static constexpr std::size_t description_overhead = 0;
    static constexpr escaping escape = escaping::none;
    static constexpr std::string_view name = "opencode-1.18";
    void describe(std::string& out, index_entry const& e) const { skillmd::detail::append_raw_text(out, e.description); }
    void begin(std::string& out, index_summary const& s) const
    {
        if (s.listed == 0) return;
        out += prose.intro;
        out += "\n<available_skills>\n"sv;
    }
    void entry(std::string& out, index_entry const& e, std::string_view text) const
    {
        detail::raw_skill(out, e.name, text, e.location, escaping::html);
    }
    void end(std::string& out, index_summary const& s) const
    {
        if (s.listed > 0) out += "</available_skills>"sv;
    }
};

// Each shipped format models index_format (docs/policies.md lists what it takes).
static_assert(index_format<pegasus>, "index_formats::pegasus must model index_format");
static_assert(index_format<claude_code>, "index_formats::claude_code must model index_format");
static_assert(index_format<koshi>, "index_formats::koshi must model index_format");
static_assert(index_format<sven>, "index_formats::sven must model index_format");
static_assert(index_format<agent_skills>, "index_formats::agent_skills must model index_format");
static_assert(index_format<agent_skills_guide>, "index_formats::agent_skills_guide must model index_format");
static_assert(index_format<claude_code_2_1>, "index_formats::claude_code_2_1 must model index_format");
static_assert(index_format<codex_0_169>, "index_formats::codex_0_169 must model index_format");
static_assert(index_format<gemini_cli_0_61>, "index_formats::gemini_cli_0_61 must model index_format");
static_assert(index_format<opencode_1_18>, "index_formats::opencode_1_18 must model index_format");

/// Which skills a system lists and within what budget.
struct index_policy
{
    listing which = listing::model;
    index_budget budget;
    bool budget_added = false; ///< the document sets no budget; skillmd added one
    index_order order = index_order::command;
};

/// Each system's listing rule and budget. Every preset's policy caps one description at
/// 1,024 code points (the specification's limit) and says when skills were left out, so
/// one long description cannot empty an index; `as_documented` gives the document's rule
/// to the letter. Systems without a budget get 50,000 characters, skipping what does not fit.
namespace policies {

inline index_policy guarded(index_policy p)
{
    p.budget.entry_cap = 1024;
    p.budget.announce_omitted = true;
    return p;
}

/// Pegasus: 2 % of the context window (16,000 characters when it is unknown); a skill
/// that does not fit is left out whole (the others still listed, so no cap on one entry
/// is needed), as its system does; skills the model may not invoke are not listed.
inline index_policy pegasus()
{
    index_policy p;
    p.budget.fraction = 0.02;
    p.budget.fallback_chars = 16000;
    p.budget.strategy = budget_strategy::skip_overflow;
    p.budget.announce_omitted = true;
    return p;
}
/// Claude Code: 15,000 characters or `SLASH_COMMAND_TOOL_CHAR_BUDGET`; stop at the first
/// skill that does not fit; only documented, model-invocable skills.
inline index_policy claude_code()
{
    index_policy p;
    p.which = listing::model_documented;
    p.budget.chars = 15000;
    p.budget.env = "SLASH_COMMAND_TOOL_CHAR_BUDGET";
    p.budget.strategy = budget_strategy::stop_at_overflow;
    return guarded(p);
}
/// A budget for systems whose documents set none: a 1.16 MB index helps no model.
inline index_policy unbudgeted_system()
{
    index_policy p;
    p.budget.chars = 50000;
    p.budget.strategy = budget_strategy::skip_overflow;
    p.budget_added = true;
    return guarded(p);
}
/// koshi: every skill (the document sets no budget).
inline index_policy koshi() { return unbudgeted_system(); }
/// sven: 30,000 characters for the block; `always` skills bypass it.
inline index_policy sven()
{
    index_policy p;
    p.budget.chars = 30000;
    p.budget.strategy = budget_strategy::always_bypass;
    return guarded(p);
}
/// The reference tool and the client guide (they set no budget).
inline index_policy agent_skills() { return unbudgeted_system(); }

/// Claude Code 2.1: 1 % of the context window at about 4 characters a token (8,000
/// characters when it is unknown) or `SLASH_COMMAND_TOOL_CHAR_BUDGET`; every name stays,
/// descriptions are shortened first; one entry's description and `when_to_use` together
/// at most 1,536 code points; ordered by tier, then name; `disable-model-invocation`
/// skills left out.
inline index_policy claude_code_2_1()
{
    index_policy p;
    p.budget.fraction = 0.01;
    p.budget.fallback_chars = 8000;
    p.budget.env = "SLASH_COMMAND_TOOL_CHAR_BUDGET";
    p.budget.strategy = budget_strategy::shorten_then_drop;
    p.budget.entry_cap = 1536;
    p.budget.announce_omitted = true;
    p.order = index_order::tier_then_command;
    return p;
}
/// Codex 0.169: 2 % of the context window at about 4 characters a token, else 8,000
/// characters; shorten descriptions, then drop them, then drop skills; project scope
/// first, then name, then path. The format itself cuts descriptions at 1,024 code points.
inline index_policy codex_0_169()
{
    index_policy p;
    p.budget.fraction = 0.02;
    p.budget.fallback_chars = 8000;
    p.budget.strategy = budget_strategy::shorten_then_drop;
    p.budget.announce_omitted = true;
    p.order = index_order::scope_then_name;
    return p;
}
/// Gemini CLI 0.61: no budget of its own (skillmd adds 50,000 characters), nothing cut.
/// Gemini lists in the file system's order, which varies; skillmd sorts by name.
inline index_policy gemini_cli_0_61()
{
    index_policy p = unbudgeted_system();
    p.budget.entry_cap = 0;
    p.order = index_order::name;
    return p;
}
/// opencode 1.18: sorted by name as `localeCompare` sorts; skills without a description
/// are not listed; no budget of its own (skillmd adds 50,000 characters), nothing cut.
inline index_policy opencode_1_18()
{
    index_policy p = unbudgeted_system();
    p.budget.entry_cap = 0;
    p.which = listing::model_documented;
    p.order = index_order::name_collated;
    return p;
}

/// The document's rule to the letter: no cap on one entry, no notice, and no budget
/// where the document has none.
inline index_policy as_documented(index_policy p)
{
    p.budget.entry_cap = 0;
    p.budget.announce_omitted = false;
    if (p.budget_added) {
        p.budget = {};
        p.budget_added = false;
    }
    return p;
}

} // namespace policies

/// The format names `skillmd index --format` takes.
inline constexpr std::string_view names[] = {"pegasus",         "claude-code",     "koshi",
                                              "sven",            "agent-skills",    "agent-skills-guide",
                                              "claude-code-2.1", "codex-0.169",     "gemini-cli-0.61",
                                              "opencode-1.18"};

/// Calls `f` with the format named `name`; false when there is none.
template <class Visitor>
bool visit(std::string_view name, Visitor&& f)
{
    if (name == pegasus::name) f(pegasus{});
    else if (name == claude_code::name) f(claude_code{});
    else if (name == koshi::name) f(koshi{});
    else if (name == sven::name) f(sven{});
    else if (name == agent_skills::name) f(agent_skills{});
    else if (name == agent_skills_guide::name) f(agent_skills_guide{});
    else if (name == claude_code_2_1::name) f(claude_code_2_1{});
    else if (name == codex_0_169::name) f(codex_0_169{});
    else if (name == gemini_cli_0_61::name) f(gemini_cli_0_61{});
    else if (name == opencode_1_18::name) f(opencode_1_18{});
    else return false;
    return true;
}

/// The listing policy of the system a format comes from.
inline std::optional<index_policy> policy_for(std::string_view name)
{
    if (name == "pegasus") return policies::pegasus();
    if (name == "claude-code") return policies::claude_code();
    if (name == "koshi") return policies::koshi();
    if (name == "sven") return policies::sven();
    if (name == "agent-skills" || name == "agent-skills-guide") return policies::agent_skills();
    if (name == "claude-code-2.1") return policies::claude_code_2_1();
    if (name == "codex-0.169") return policies::codex_0_169();
    if (name == "gemini-cli-0.61") return policies::gemini_cli_0_61();
    if (name == "opencode-1.18") return policies::opencode_1_18();
    return std::nullopt;
}

} // namespace skillmd::index_formats

namespace skillmd {

/// The index of a snapshot in format `F` under a system's policy.
template <index_format F>
index_result render_index(snapshot const& snap, F const& fmt, index_formats::index_policy const& policy)
{
    // The snapshot's order with every skill listed (the usual case): its rows as they are.
    auto const& table = snap.listing_rows();
    if (policy.order == index_order::command && lists_every_row(table, policy.which))
        return render_index(table.entries(), fmt, policy.budget);
    auto entries = index_entries(snap, policy.which);
    arrange(entries, policy.order);
    return render_index(std::span<index_entry const>(entries), fmt, policy.budget);
}

} // namespace skillmd

#endif
