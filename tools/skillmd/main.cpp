// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
//
// skillmd: the command-line tool.
//   skillmd parse FILE...   each file's frontmatter as JSON Lines (checks the grammar)
//   skillmd lint PATH...    compiler-style diagnostics for skill authors and their CI
//   skillmd list|tree       what a preset discovers
//   skillmd index           the skill index for a system prompt, in any system's format
//   skillmd invoke "/name args"   validation, permission, substitution, rendered content
//   skillmd match "message" the skills whose trigger phrases the message holds
//   skillmd new NAME        a SKILL.md template
//   skillmd db ...          the database tiers (SQLite, PostgreSQL): create, update, delete, list, load
//   skillmd watch           prints the fleet tier's changes as other processes make them
//   skillmd digest PATH...  every file's SHA-256 and the skill's digest (discovery RFC)
//   skillmd mcp             serves a preset's skills over MCP on stdio or HTTP (Skills extension)
//   skillmd explain [NAME]  why each skill is (or is not) in the index and invocable
//   skillmd fmt PATH...     the smallest edits after which every agent reads a file the same
//
// docs/cli.md documents every command, flag, exit status and JSON shape.

#include <skillmd/skillmd.hpp>
#include <skillmd/presets/systems.hpp>
#include <skillmd/presets/koshi.hpp>
#include <skillmd/presets/fleet.hpp>
#include <skillmd/detail/read_file.hpp>

#include "author_commands.hpp"
#include "db_commands.hpp"
#include "json_output.hpp"
#include "mcp_commands.hpp"
#include "options.hpp"
#include "package_commands.hpp"
#include "usage.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace {

namespace fs = std::filesystem;
using cli::exit_ok, cli::exit_errors, cli::exit_needs_approval;
using cli::options, cli::print, cli::print_diagnostics, cli::safe;

skillmd::diagnostic io_error(std::string const& file, std::string const& why)
{
    return {std::string(skillmd::codes::io_error), skillmd::severity::error, file, 0, 0, "cannot read the file: " + why};
}

int cmd_parse(options const& o)
{
    skillmd::frontmatter::parse_options popts;
    popts.recover_colon_in_plain = o.lenient_yaml;
    skillmd::frontmatter::split_options sopts;
    if (o.require_frontmatter) sopts.missing = skillmd::frontmatter::missing_policy::error;
    skillmd::frontmatter::x3_parser const x3(popts);
    skillmd::frontmatter::line_parser const lines;

    bool any_error = false;
    std::string out;
    for (auto const& file : o.paths) {
        skillmd::frontmatter::skill_file r;
        std::string why;
        // The loader's bound: a larger file is refused, never read whole into memory.
        if (auto text = skillmd::detail::read_file(file, why, o.max_bytes)) {
            r = o.line_parser ? skillmd::frontmatter::read_skill_file(lines, *text, file, sopts)
                              : skillmd::frontmatter::read_skill_file(x3, *text, file, sopts);
        } else {
            r.diagnostics.push_back(io_error(file, why));
        }
        any_error = any_error || skillmd::has_error(r.diagnostics);
        out.clear();
        if (o.json) {
            out += "{\"file\":";
            skillmd::detail::json_quote(out, file);
            out += ",\"frontmatter\":";
            if (r.frontmatter && !r.frontmatter->empty()) cli::write_frontmatter(out, r.frontmatter->root());
            else out += "null";
            out += ",\"body_offset\":" + std::to_string(r.body_offset) + ",\"diagnostics\":";
            cli::write_diagnostics(out, r.diagnostics);
            out += "}\n";
        } else {
            for (auto const& d : r.diagnostics) out += to_text(d) + '\n';
        }
        print(out);
    }
    return any_error ? exit_errors : exit_ok;
}

/// What lint walks: nested, as deep as sven's packages go, with a generous folder count;
/// the per-file bounds are the loader's own.
skillmd::directory_options lint_layout()
{
    auto o = skillmd::presets::sven_layout();
    o.max_directories = 1000000;
    return o;
}

/// Every SKILL.md under `paths` (a path may be a file, a skill folder, or a folder of
/// skills), found the loader's way; `check(src, candidate)` returns false for a candidate
/// that turned out not to be there. Problems of the walk go to `all`.
template <class Check>
void walk_skill_files(std::vector<std::string> const& paths, std::vector<skillmd::diagnostic>& all, Check&& check)
{
    auto file_candidate = [](fs::path const& file) {
        skillmd::candidate c;
        c.path = file.string();
        c.directory = file.parent_path().empty() ? std::string(".") : file.parent_path().string();
        c.directory_name = fs::path(c.directory).filename().string();
        c.command = c.directory_name;
        c.confirmed = true;
        return c;
    };
    for (auto const& p : paths) {
        std::error_code ec;
        auto const st = fs::status(p, ec);
        if (ec || !fs::exists(st)) {
            auto const lst = fs::symlink_status(p, ec);
            all.push_back(io_error(p, fs::is_symlink(lst) ? "broken symbolic link" : "no such file or directory"));
            continue;
        }
        if (!fs::is_directory(st)) {
            auto const c = file_candidate(p);
            check(skillmd::directory_source("lint", c.directory, lint_layout()), c);
            continue;
        }
        skillmd::directory_source const src("lint", p, lint_layout());
        std::size_t found = 0;
        if (fs::exists(fs::path(p) / "SKILL.md", ec) || fs::is_symlink(fs::symlink_status(fs::path(p) / "SKILL.md", ec)))
            found += check(src, file_candidate(fs::path(p) / "SKILL.md")); // the folder given is a skill itself
        auto d = src.discover();
        all.insert(all.end(), std::make_move_iterator(d.diagnostics.begin()), std::make_move_iterator(d.diagnostics.end()));
        for (auto const& c : d.skills) found += check(src, c);
        if (found == 0)
            all.push_back({std::string(skillmd::codes::lint_no_skills), skillmd::severity::warning, p, 0, 0,
                           "no SKILL.md found here (" + std::to_string(d.directories.size()) +
                               " folder(s) searched, .git and node_modules skipped)"});
    }
}

int lint_report(options const& o, std::vector<skillmd::diagnostic> const& all, std::size_t checked, std::size_t loaded);

int cmd_lint(options const& o)
{
    auto const dialect = *skillmd::dialects::find(o.dialect);
    auto const mode = o.strict ? skillmd::validation_mode::strict : skillmd::validation_mode::lenient;
    skillmd::registry_options ro;
    ro.dialect = dialect;
    ro.mode = mode;
    skillmd::frontmatter::x3_parser const x3(skillmd::parse_options_for(dialect, mode));
    skillmd::frontmatter::line_parser const lines;

    // The loader's path, file by file: the same discovery, bounds, reading and checks as a
    // registry, so a file passes lint exactly when a registry loads it.
    std::vector<skillmd::diagnostic> all;
    std::size_t checked = 0, loaded = 0;
    walk_skill_files(o.paths, all, [&](skillmd::directory_source const& src, skillmd::candidate const& c) {
        if (o.portability) { // the file as its source reads it (links checked), then every reading
            auto const text = src.read_all(c);
            if (!text.text) {
                if (text.absent && !c.confirmed) return false;
                all.push_back(io_error(c.path, text.error));
                return true;
            }
            ++checked;
            auto ds = skillmd::check_portability(*text.text, c.path, c.directory_name);
            loaded += ds.empty();
            all.insert(all.end(), std::make_move_iterator(ds.begin()), std::make_move_iterator(ds.end()));
            return true;
        }
        auto r = o.line_parser ? skillmd::read_candidate(lines, ro, src, c) : skillmd::read_candidate(x3, ro, src, c);
        if (r.absent) return false;
        ++checked;
        loaded += r.skill.has_value();
        all.insert(all.end(), std::make_move_iterator(r.diagnostics.begin()), std::make_move_iterator(r.diagnostics.end()));
        return true;
    });
    std::stable_sort(all.begin(), all.end(), [](auto const& a, auto const& b) {
        if (a.file != b.file) return a.file < b.file;
        return a.line != b.line ? a.line < b.line : a.column < b.column;
    });

    return lint_report(o, all, checked, loaded);
}

/// Prints lint's diagnostics (text or JSON Lines) and its summary on stderr; the exit status.
int lint_report(options const& o, std::vector<skillmd::diagnostic> const& all, std::size_t checked, std::size_t loaded)
{
    std::size_t errors = 0, warnings = 0;
    std::string out;
    for (auto const& d : all) {
        errors += d.severity == skillmd::severity::error;
        warnings += d.severity == skillmd::severity::warning;
        if (o.json) {
            cli::write_diagnostic(out, d);
            out += '\n';
        } else {
            out += to_text(d) + '\n';
        }
    }
    print(out);
    std::fflush(stdout);
    auto const dialect = *skillmd::dialects::find(o.dialect);
    if (o.portability) {
        std::cerr << checked << " file(s) checked for portability: " << loaded << " read the same everywhere, "
                  << (checked - loaded) << " differ\n";
        return errors || checked != loaded ? exit_errors : exit_ok;
    }
    std::cerr << checked << " file(s) checked with the " << dialect.id << " dialect ("
              << (o.strict ? "strict" : "lenient") << "): " << loaded << " loaded, " << errors << " error(s), "
              << warnings << " warning(s)\n";
    return errors ? exit_errors : exit_ok;
}

int cmd_fmt(options const& o)
{
    std::vector<skillmd::diagnostic> walk;
    cli::fmt_run run;
    run.fix = o.fix;
    run.json = o.json;
    // Read as lint and the loader read: links that leave the tree refused, the size bounded.
    walk_skill_files(o.paths, walk, [&](skillmd::directory_source const& src, skillmd::candidate const& c) {
        auto const text = src.read_all(c);
        if (!text.text && text.absent && !c.confirmed) return false;
        run.one(c.path, text.text, text.error);
        return true;
    });
    for (auto const& d : walk) std::cerr << to_text(d) << "\n";
    int const rc = run.finish();
    return rc ? rc : skillmd::has_error(walk) ? exit_errors : exit_ok;
}

std::string visibility_of(skillmd::skill_record const& r)
{
    if (r.hidden) return "hidden";
    bool const model = r.visible_to(skillmd::visibility::model), user = r.visible_to(skillmd::visibility::user);
    return model && user ? "model,user" : model ? "model" : user ? "user" : "none";
}

/// What the command line needs to know of a preset besides its registry.
struct preset_info
{
    char const* const* tiers;
    std::size_t tier_count;
};


/// The summary `list` and `tree` end with, on stderr.
void show_summary(skillmd::snapshot const& snap, options const& o)
{
    std::fflush(stdout);
    print_diagnostics(snap);
    std::cerr << snap.skills().size() << " skill(s), " << snap.shadowed().size() << " shadowed, preset " << o.preset << "\n";
}

/// `tree`: the skills as nested commands, or one JSON object per skill
/// {"command","name","depth","hidden","description"}.
int cmd_tree(skillmd::snapshot const& snap, options const& o)
{
    // Segment by segment, so a skill's children follow it (`a`, `a/b`, `a-b`; as plain
    // text `a-b` would come between, and `a/b` look like its child).
    std::vector<skillmd::skill_record const*> rows;
    for (auto const& r : snap.skills()) rows.push_back(&r);
    std::stable_sort(rows.begin(), rows.end(), [](auto const* a, auto const* b) {
        auto const key = [](char c) { return c == '/' ? 0 : static_cast<int>(static_cast<unsigned char>(c)) + 1; };
        std::string_view const x = a->command, y = b->command;
        return std::lexicographical_compare(x.begin(), x.end(), y.begin(), y.end(),
                                            [&](char p, char q) { return key(p) < key(q); });
    });
    std::string out;
    for (auto const* row : rows) {
        auto const& r = *row;
        std::size_t const depth = static_cast<std::size_t>(std::count(r.command.begin(), r.command.end(), '/'));
        auto const leaf = r.command.substr(r.command.rfind('/') + 1);
        if (o.json) {
            out += cli::json_line(boost::json::object{{"command", r.command.view()}, {"name", leaf}, {"depth", depth},
                                                      {"hidden", r.hidden}, {"description", r.meta.description.view()}});
            continue;
        }
        out += std::string(depth * 2, ' ') + safe(leaf);
        if (r.hidden) out += " (hidden)";
        // Shortened on a code point boundary, then escaped: never half a UTF-8 sequence.
        out += "  " + safe(skillmd::detail::shorten(r.meta.description, 70)) + "\n";
    }
    print(out);
    show_summary(snap, o);
    return exit_ok;
}

/// `list`: every skill, shadowed ones too, as text, JSON Lines
/// {"name","command","tier","path","visibility"[,"shadowed_by"]} or mycode's table.
int cmd_list(skillmd::snapshot const& snap, options const& o)
{
    std::vector<skillmd::skill_record const*> rows;
    for (auto const& r : snap.skills()) rows.push_back(&r);
    for (auto const& r : snap.shadowed()) rows.push_back(&r);
    std::stable_sort(rows.begin(), rows.end(), [](auto const* a, auto const* b) {
        return a->command != b->command ? a->command < b->command : a->tier_index < b->tier_index;
    });
    std::string out;
    if (o.format == "table") out = skillmd::skills_table(snap.list(skillmd::visibility::user));
    for (auto const* r : rows) {
        if (o.format == "table") break;
        if (o.json) {
            boost::json::object row{{"name", r->meta.name.view()}, {"command", r->command.view()}, {"tier", r->tier.view()},
                                    {"path", r->where.path.view()}, {"visibility", visibility_of(*r)}};
            if (!r->shadowed_by.empty()) row["shadowed_by"] = r->shadowed_by.view();
            out += cli::json_line(row);
            continue;
        }
        out += safe(r->command) + "\t" + safe(r->tier) + "\t" + safe(r->where.path) + "\t" + visibility_of(*r);
        if (!r->shadowed_by.empty()) out += "\tshadowed by " + safe(r->shadowed_by);
        out += "\n";
    }
    print(out);
    show_summary(snap, o);
    return exit_ok;
}

template <class System>
int cmd_index(System const& agent, skillmd::snapshot const& snap, options const& o)
{
    namespace fmts = skillmd::index_formats;
    bool const own = !o.format_given || o.json;
    std::string const format = own ? std::string(System::index_format_type::name) : o.format;
    auto policy = own ? agent.settings().listing : *fmts::policy_for(format);
    policy.budget.context_tokens = o.context_tokens;
    if (o.budget) { // the command line beats the environment
        policy.budget.chars = *o.budget;
        policy.budget.fraction = 0;
        policy.budget.env.clear();
    }
    skillmd::index_result r;
    if (own) r = skillmd::render_index(snap, agent.index_formatter(), policy); // the preset's format, as it set it up
    else fmts::visit(format, [&](auto const& f) { r = skillmd::render_index(snap, f, policy); });
    if (agent.settings().observer) skillmd::notify_rendered(*agent.settings().observer, r);
    std::string out;
    if (o.json) {
        out = cli::json_line(skillmd::to_json(r, format));
    } else {
        // As invoke prints content: what a terminal would obey is shown escaped, line
        // breaks kept; `--format json` has the text as the model receives it.
        out = skillmd::detail::terminal_safe(r.text, true);
        if (!out.empty() && out.back() != '\n') out += '\n';
    }
    print(out);
    std::fflush(stdout);
    print_diagnostics(snap);
    std::cerr << r.listed.size() << " listed, " << r.shortened.size() << " shortened, " << r.omitted.size()
              << " left out; budget "
              << (r.budget == skillmd::index_summary::unlimited ? std::string("none") : std::to_string(r.budget) + " characters")
              << ", " << r.used << " counted (" << format << ")\n";
    return exit_ok;
}

int print_invocation(skillmd::invocation const& inv, int code);

template <class System>
int cmd_invoke(System const& agent, options const& o)
{
    skillmd::invoke_options io = agent.settings().invoke; // the preset's own, then what the command line adds
    io.permissions.allow.insert(io.permissions.allow.end(), o.allow.begin(), o.allow.end());
    io.permissions.deny.insert(io.permissions.deny.end(), o.deny.begin(), o.deny.end());
    if (o.substitution == "claude-code-exact") io.substitution = skillmd::substitution::claude_code_exact();
    else if (o.substitution == "claude-code") io.substitution = skillmd::substitution::claude_code();
    else if (o.substitution == "safe") io.substitution = skillmd::substitution::safe();
    std::string const format = o.format_given && !o.json ? o.format : std::string(System::content_format_type::name);
    auto const who = o.as_user ? skillmd::caller::user : skillmd::caller::model;
    // Rules are checked before they are used: a rule that can match nothing is a usage error.
    std::string bad_rule;
    for (auto const& d : skillmd::check_permission_rules(io.permissions, *agent.snapshot(), io.match_sanitized)) {
        if (d.severity != skillmd::severity::error) std::cerr << "skillmd: warning: " << safe(d.file) << " " << safe(d.message) << "\n";
        else if (bad_rule.empty()) bad_rule = safe(d.file) + " " + safe(d.message);
    }
    if (!bad_rule.empty()) return cli::usage_error("invoke", bad_rule);
    skillmd::invocation inv;
    if (!skillmd::content_formats::visit(format, [&](auto const& f) { inv = skillmd::invoke(agent.registry(), o.paths.front(), "", who, io, f); }))
        return cli::usage_error("invoke", "unknown content format " + format);
    if (agent.settings().observer)
        skillmd::notify_invoked(*agent.settings().observer, inv, o.paths.front(), "", skillmd::activation_trigger::from_caller);
    auto const status = inv.status();
    int const code = status == skillmd::invoke_status::run              ? exit_ok
                     : status == skillmd::invoke_status::needs_approval ? exit_needs_approval
                                                                        : exit_errors;
    if (o.json) {
        print(cli::json_line(cli::invocation_json(inv)));
        return code;
    }
    return print_invocation(inv, code);
}

/// An invocation for people: the error or the approval asked on stderr, or the content on
/// stdout and what it runs with on stderr.
int print_invocation(skillmd::invocation const& inv, int code)
{
    auto const status = inv.status();
    if (status == skillmd::invoke_status::failed || status == skillmd::invoke_status::denied) {
        std::cerr << "skillmd: error " << static_cast<int>(inv.error) << ": " << safe(inv.message) << "\n";
        if (inv.not_a_skill) std::cerr << "skillmd: not a skill; an agent would send the text as an ordinary message\n";
        return code;
    }
    if (status == skillmd::invoke_status::needs_approval) {
        // The content is not printed: nothing runs before the user says yes.
        std::cerr << "skillmd: needs approval: " << safe(inv.permission.message) << " (from tier " << safe(inv.record->tier)
                  << "); an agent asks the user first; --allow " << safe(inv.command) << " approves it\n";
        return code;
    }
    // The content as text for people: what a terminal would obey (ESC, C1, bidirectional
    // controls, from arguments or a description) is shown escaped; `--format json` has it all.
    std::string out = skillmd::detail::terminal_safe(inv.content, true);
    if (!out.empty() && out.back() != '\n') out += '\n';
    print(out);
    std::fflush(stdout);
    std::cerr << "[" << safe(inv.command) << ": " << to_string(inv.mode) << " for the " << to_string(inv.who);
    if (inv.agent) std::cerr << ", agent " << safe(*inv.agent);
    if (inv.model) std::cerr << ", model " << safe(*inv.model);
    std::cerr << ", permission " << to_string(inv.permission.behavior);
    if (!inv.permission.rule.empty()) std::cerr << " (rule " << safe(inv.permission.rule) << ")";
    if (!inv.allowed_tools.empty()) {
        std::cerr << ", allowed tools:";
        for (auto const& t : inv.allowed_tools) std::cerr << " " << safe(t);
    }
    if (inv.substitution.unbalanced_quote) std::cerr << "; warning: an argument quote was not closed";
    std::cerr << "]\n";
    return exit_ok;
}

int cmd_match(std::shared_ptr<skillmd::snapshot const> const& snap, options const& o)
{
    skillmd::trigger_index const idx(snap);
    auto const found = idx.match(o.paths.front());
    std::string out;
    for (auto const* r : found) {
        if (o.json)
            out += cli::json_line(boost::json::object{{"name", r->meta.name.view()}, {"command", r->command.view()},
                                                      {"tier", r->tier.view()}, {"path", r->where.path.view()}});
        else
            out += safe(r->command) + "\n";
    }
    print(out);
    std::fflush(stdout);
    std::cerr << found.size() << " of " << idx.skills() << " skill(s) with triggers matched\n";
    return exit_ok;
}

int cmd_new(options const& o)
{
    auto const r = skillmd::write_skill_template(o.new_dir, o.paths.front());
    if (!r.ok) {
        std::cerr << "skillmd: " << safe(r.message) << "\n";
        return exit_errors;
    }
    if (!o.json) {
        print(r.message);
        return exit_ok;
    }
    std::string why;
    auto const content = skillmd::detail::read_file(r.path, why, std::size_t{1} << 20); // the template just written
    if (!content) return std::cerr << "skillmd: cannot read " << safe(r.path) << " back: " << safe(why) << "\n", exit_errors;
    print(cli::json_line(boost::json::object{{"path", r.path}, {"content", *content}}));
    return exit_ok;
}

template <class System>
int run_loaded(System& agent, options const& o, std::string_view command, cli::settings_follower& settings);

/// Each `--dir` names a tier of the preset ("" or the usage error); a folder that is not
/// there is warned about. koshi's `db` tier is a file SQLite creates on first use.
std::string check_tiers(options const& o, preset_info const& p)
{
    std::vector<std::string_view> const tiers(p.tiers, p.tiers + p.tier_count);
    for (auto const& [label, path] : o.dirs) {
        if (std::find(tiers.begin(), tiers.end(), label) == tiers.end()) {
            std::string known;
            for (auto const t : tiers) known += (known.empty() ? "" : ", ") + std::string(t);
            return "the " + o.preset + " preset has no tier " + safe(label) + " (it has " + known + ")" +
                   cli::did_you_mean(label, tiers);
        }
        if (label != "db" && label != "cache") cli::warn_missing_dir(label, path);
    }
    // A rule `name@tier` names a tier of the preset, or it can never match.
    for (auto const* rules : {&o.allow, &o.deny})
        for (auto const& rule : *rules) {
            auto const at = rule.find('@');
            if (at == std::string::npos || rule.ends_with(":*")) continue;
            std::string_view const tier = std::string_view(rule).substr(at + 1);
            if (std::find(tiers.begin(), tiers.end(), tier) == tiers.end())
                return "the rule " + safe(rule) + " names no tier of the " + o.preset + " preset, so it matches nothing" +
                       cli::did_you_mean(tier, tiers);
        }
    return "";
}

template <class System>
int run(System& agent, options const& o, std::string_view command, preset_info const& p, cli::settings_follower& settings)
{
    if (auto const why = check_tiers(o, p); !why.empty()) return cli::usage_error(command, why);
    std::FILE* events = nullptr;
    if (!o.events.empty()) {
        events = std::fopen(o.events.c_str(), "ae");
        if (!events) {
            std::cerr << "skillmd: cannot open " << safe(o.events) << ": " << std::strerror(errno) << "\n";
            return exit_errors;
        }
        agent.settings().observer = std::make_shared<skillmd::json_lines_observer>(events);
    }
    // The events file is checked when the command ends: a lost event fails the command.
    struct closer
    {
        std::FILE* f;
        std::string const& name;
        int* rc;
        ~closer()
        {
            if (!f) return;
            bool const failed = std::fflush(f) != 0 || std::ferror(f) != 0;
            int const err = errno;
            if ((std::fclose(f) != 0 || failed) && *rc == exit_ok) {
                std::cerr << "skillmd: cannot write the events to " << safe(name) << ": " << std::strerror(failed ? err : errno) << "\n";
                *rc = exit_errors;
            }
        }
    };
    int rc = exit_ok;
    {
        closer const close_events{events, o.events, &rc};
        rc = run_loaded(agent, o, command, settings);
    }
    return rc;
}

template <class System>
int run_loaded(System& agent, options const& o, std::string_view command, cli::settings_follower& settings)
{
    // A load that fails is an error, never an empty registry shown as the result.
    if (!agent.load()) {
        std::cerr << "skillmd: the skills could not be loaded: " << safe(agent.registry().last_error()) << "\n";
        return exit_errors;
    }
    auto const snap = agent.snapshot();
    if (command == "explain") {
        auto& budget = agent.settings().listing.budget;
        budget.context_tokens = o.context_tokens;
        if (o.budget) { // as `index --budget`: the command line beats the environment
            budget.chars = *o.budget;
            budget.fraction = 0;
            budget.env.clear();
        }
        return cli::cmd_explain(agent, o.paths, o.json);
    }
    if (command == "mcp") {
        print_diagnostics(*snap);
        if (!o.http.empty()) return cli::cmd_mcp_http(agent, o.page_size, {o.http, o.token_file, o.allow_origins, o.allow_hosts}, settings);
        if (!o.token_file.empty() || !o.allow_origins.empty() || !o.allow_hosts.empty())
            return cli::usage_error("mcp", "--token-file, --allow-origin and --allow-host go with --http");
        return cli::cmd_mcp(agent, o.page_size, settings);
    }
    if (command == "index") return cmd_index(agent, *snap, o);
    if (command == "invoke") {
        print_diagnostics(*snap);
        return cmd_invoke(agent, o);
    }
    if (command == "match") return cmd_match(snap, o);
    return command == "tree" ? cmd_tree(*snap, o) : cmd_list(*snap, o);
}

int cmd_registry(options const& o, std::string_view command)
{
    skillmd::presets::locations at;
    at.overrides = o.dirs;
    if (!o.pooler.empty()) at.overrides["pooler"] = o.pooler; // not a tier: only fleet_server() reads it
    at.allowed_roots = o.allowed_roots;
    cli::settings_follower settings(o.settings);
    if (!settings.start(at.skill_overrides)) return exit_errors;
    if (!o.pooler.empty() && o.preset != "fleet") return cli::usage_error(command, "--pooler is for the fleet preset's server");
    if (o.preset == "fleet" && !skillmd::presets::is_postgres_url(at.tier("db", "")))
        return cli::usage_error(command, "the fleet preset needs --db postgresql://... (or a libpq connection string)");
    if (o.namespace_given && o.preset != "fleet") return cli::usage_error(command, "--namespace goes with --preset fleet");
    auto const ran = cli::with_preset(o.preset, [&](auto const& preset) {
        auto agent = preset.make(at, o.name_space);
        return run(agent, o, command, {preset.tiers.data(), preset.tiers.size()}, settings);
    });
    if (ran) return *ran;
    return cli::usage_error(command, "unknown preset " + o.preset + cli::did_you_mean(o.preset, cli::preset_names));
}

} // namespace

namespace {

/// True when the arguments ask for help (`--help` or `-h` before a `--`).
bool asks_help(std::span<char const* const> args)
{
    for (std::string_view const a : args) {
        if (a == "--") return false;
        if (a == "--help" || a == "-h") return true;
    }
    return false;
}

int dispatch(std::span<char const* const> args, std::string_view cmd)
{
    auto const* doc = cli::find_command(cmd);
    if (!doc) return cli::usage_error("", "unknown command " + safe(cmd) + cli::did_you_mean_command(cmd));
    if (asks_help(args.subspan(2))) return cli::help(cmd);
    if (cmd == "db" || cmd == "watch") return cli::cmd_db(args.subspan(2), cmd == "watch");
    for (std::string_view const p : {"install", "remove", "verify", "outdated", "update", "publish", "pack"})
        if (cmd == p) return cli::cmd_package(args.subspan(2), cmd);
    options o;
    std::string unknown;
    if (auto const why = cli::parse_options(args.subspan(2), o, *doc, unknown); !why.empty())
        return unknown.empty() ? cli::usage_error(cmd, why) : cli::unknown_flag(*doc, unknown);
    if (cmd == "list" && !o.installed.empty()) {
        if (o.format == "table") return cli::usage_error(cmd, "--installed lists as text or json");
        return cli::cmd_list_installed(o.installed, o.format == "json");
    }
    if (cli::is_registry_command(cmd)) return cmd_registry(o, cmd);
    if (cmd == "new") return cmd_new(o);
    if (cmd == "digest") return cli::cmd_digest(o.paths, o.json);
    if (cmd == "fmt") return cmd_fmt(o);
    return cmd == "parse" ? cmd_parse(o) : cmd_lint(o);
}

/// What needs no command: the overview, a command's usage, the version.
std::optional<int> global(std::span<char const* const> args)
{
    if (args.size() < 2) return cli::usage_error("", "no command given");
    std::string_view const first = args[1];
    if (first == "--version") {
        std::cout << "skillmd " SKILLMD_VERSION "\n";
        return exit_ok;
    }
    if (first == "--help" || first == "-h") return cli::help("");
    if (first == "help") return args.size() > 3 ? cli::usage_error("", "help takes at most one COMMAND")
                                                : cli::help(args.size() == 3 ? std::string_view(args[2]) : std::string_view());
    if (first.size() > 1 && first[0] == '-')
        return cli::usage_error("", "unknown flag " + safe(first) + cli::did_you_mean(first, std::array<std::string_view, 2>{"--help", "--version"}));
    return std::nullopt;
}

} // namespace

int main(int argc, char** argv)
{
    std::span<char const* const> const args(argv, static_cast<std::size_t>(argc));
    if (auto const rc = global(args)) return *rc;
    int const rc = dispatch(args, args[1]);
    // Output that did not reach its reader (a full disk, a closed pipe) fails the command.
    std::cout.flush();
    if (std::fflush(stdout) != 0 || std::ferror(stdout) || !std::cout) {
        int const err = errno;
        std::cerr << "skillmd: cannot write to standard output" << (err ? std::string(": ") + std::strerror(err) : std::string()) << "\n";
        return rc == exit_ok ? exit_errors : rc;
    }
    return rc;
}
