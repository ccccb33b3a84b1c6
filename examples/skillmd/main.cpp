// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
//
// skillmd: the command-line example.
//   skillmd parse FILE...   each file's frontmatter as JSON Lines (checks the grammar)
//   skillmd lint PATH...    compiler-style diagnostics for skill authors and their CI

#include <skillmd/skillmd.hpp>
#include <skillmd/presets.hpp>
#include <skillmd/detail/read_file.hpp>

#include <algorithm>
#include <cstdio>
#include <map>
#include <filesystem>
#include <iostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace {

namespace fs = std::filesystem;
constexpr int exit_ok = 0, exit_errors = 1, exit_usage = 2;

char const usage_text[] =
    "usage: skillmd parse [--format json|text] [--parser x3|line] [--lenient] [--require-frontmatter] FILE...\n"
    "       skillmd lint [--dialect NAME] [--strict] [--format text|json] [--parser x3|line] PATH...\n"
    "\n"
    "  parse   print each file's frontmatter as one JSON object per line:\n"
    "          {\"file\", \"frontmatter\", \"body_offset\", \"diagnostics\"}\n"
    "          --format text prints the diagnostics compiler-style instead\n"
    "          --parser line uses seed 001's line parser instead of the X3 grammar\n"
    "          --lenient takes `key: a: b` values as the rest of the line (with a warning)\n"
    "          --require-frontmatter makes a file without frontmatter an error\n"
    "  lint    check SKILL.md files (directories are searched) and print\n"
    "          file:line:column: severity: [code] message, sorted; a summary goes to stderr\n"
    "          --dialect agent-skills (default), pegasus, claude-code, mycode, koshi, sven\n"
    "          --strict applies the dialect's rules as errors; the default is the lenient\n"
    "          loading of the Agent Skills client guide\n"
    "          --format json prints one JSON object per diagnostic:\n"
    "          {\"file\", \"line\", \"column\", \"severity\", \"code\", \"rule\", \"message\"}\n"
    "       skillmd list [--preset NAME] [--dir TIER=PATH]... [--format text|json]\n"
    "       skillmd tree [--preset NAME] [--dir TIER=PATH]...\n"
    "  list    every skill the preset finds: name, tier, path, visibility; shadowed\n"
    "          skills are marked with the skill that shadows them\n"
    "  tree    the skills as a tree of nested commands\n"
    "          --preset agent-skills (default), pegasus, claude-code, mycode, sven\n"
    "          --dir TIER=PATH replaces a tier's directory (repeatable)\n"
    "exit status: 0 no errors, 1 some error, 2 usage error\n";

int usage(std::string_view why)
{
    if (!why.empty()) std::cerr << "skillmd: " << why << "\n";
    std::cerr << usage_text;
    return exit_usage;
}

/// Options shared by the commands; each command rejects those it does not take.
struct options
{
    bool json = true;
    bool format_given = false;
    bool line_parser = false;
    bool lenient_yaml = false;
    bool require_frontmatter = false;
    bool strict = false;
    std::string dialect = "agent-skills";
    std::string preset = "agent-skills";
    std::map<std::string, std::filesystem::path> dirs;
    std::vector<std::string> paths;
};

/// Parses argv; returns an error text, or "" on success.
std::string parse_options(std::span<char const* const> args, options& o, std::string_view command)
{
    bool const lint = command == "lint";
    bool const registry = command == "list" || command == "tree";
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string_view const a = args[i];
        auto value = [&](std::string_view name) -> std::optional<std::string_view> {
            if (++i == args.size()) return std::nullopt;
            (void)name;
            return std::string_view(args[i]);
        };
        if (a == "--format") {
            auto f = value(a);
            if (!f) return "--format needs a value";
            if (*f == "json") o.json = true;
            else if (*f == "text") o.json = false;
            else return "--format takes json or text";
            o.format_given = true;
        } else if (a == "--parser") {
            auto f = value(a);
            if (!f) return "--parser needs a value";
            if (*f == "x3") o.line_parser = false;
            else if (*f == "line") o.line_parser = true;
            else return "--parser takes x3 or line";
        } else if (!lint && a == "--lenient") {
            o.lenient_yaml = true;
        } else if (!lint && a == "--require-frontmatter") {
            o.require_frontmatter = true;
        } else if (lint && a == "--strict") {
            o.strict = true;
        } else if (lint && a == "--dialect") {
            auto f = value(a);
            if (!f) return "--dialect needs a value";
            if (!skillmd::dialects::find(*f)) return "unknown dialect " + std::string(*f);
            o.dialect = std::string(*f);
        } else if (registry && a == "--preset") {
            auto f = value(a);
            if (!f) return "--preset needs a value";
            o.preset = std::string(*f);
        } else if (registry && a == "--dir") {
            auto f = value(a);
            if (!f || f->find('=') == std::string_view::npos) return "--dir takes TIER=PATH";
            auto const eq = f->find('=');
            o.dirs[std::string(f->substr(0, eq))] = std::string(f->substr(eq + 1));
        } else if (a == "--") {
            for (++i; i < args.size(); ++i) o.paths.emplace_back(args[i]);
        } else if (a.size() > 1 && a[0] == '-') {
            return "unknown option " + std::string(a) + " for " + std::string(command);
        } else {
            o.paths.emplace_back(a);
        }
    }
    if (o.paths.empty() && !registry) return std::string(command) + " needs at least one path";
    if (registry && !o.paths.empty()) return "unexpected argument " + o.paths.front();
    return "";
}

void print(std::string const& s) { std::fwrite(s.data(), 1, s.size(), stdout); }

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
        if (auto text = skillmd::detail::read_file(file, why)) {
            r = o.line_parser ? skillmd::frontmatter::read_skill_file(lines, *text, file, sopts)
                              : skillmd::frontmatter::read_skill_file(x3, *text, file, sopts);
        } else {
            r.diagnostics.push_back(io_error(file, why));
        }
        any_error = any_error || skillmd::has_error(r.diagnostics);
        out.clear();
        if (o.json) {
            out += "{\"file\": ";
            skillmd::detail::json_quote(out, file);
            out += ", \"frontmatter\": ";
            if (r.frontmatter && !r.frontmatter->empty()) write_json(out, r.frontmatter->root());
            else out += "null";
            out += ", \"body_offset\": ";
            out += std::to_string(r.body_offset);
            out += ", \"diagnostics\": [";
            for (std::size_t k = 0; k < r.diagnostics.size(); ++k) {
                if (k) out += ", ";
                write_json(out, r.diagnostics[k]);
            }
            out += "]}\n";
        } else {
            for (auto const& d : r.diagnostics) out += to_text(d) + '\n';
        }
        print(out);
    }
    return any_error ? exit_errors : exit_ok;
}

/// SKILL.md files named or found below the given paths, sorted, each once.
std::vector<std::string> skill_files(std::vector<std::string> const& paths, std::vector<skillmd::diagnostic>& problems)
{
    std::vector<std::string> out;
    for (auto const& p : paths) {
        std::error_code ec;
        auto const st = fs::status(p, ec);
        if (ec || !fs::exists(st)) {
            problems.push_back(io_error(p, ec ? ec.message() : "no such file or directory"));
            continue;
        }
        if (!fs::is_directory(st)) {
            out.push_back(p);
            continue;
        }
        fs::recursive_directory_iterator it(p, fs::directory_options::skip_permission_denied, ec), end;
        for (; !ec && it != end; it.increment(ec)) {
            auto const name = it->path().filename().string();
            if (it->is_directory(ec) && (name == ".git" || name == "node_modules")) {
                it.disable_recursion_pending();
                continue;
            }
            if (name == "SKILL.md" && it->is_regular_file(ec)) out.push_back(it->path().string());
        }
        if (ec) problems.push_back(io_error(p, ec.message()));
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

int cmd_lint(options const& o)
{
    auto const dialect = *skillmd::dialects::find(o.dialect);
    auto const mode = o.strict ? skillmd::validation_mode::strict : skillmd::validation_mode::lenient;
    skillmd::frontmatter::x3_parser const x3(skillmd::parse_options_for(dialect, mode));
    skillmd::frontmatter::line_parser const lines;

    std::vector<skillmd::diagnostic> all;
    auto const files = skill_files(o.paths, all);
    std::size_t loaded = 0;
    for (auto const& file : files) {
        std::string why;
        auto const text = skillmd::detail::read_file(file, why);
        if (!text) {
            all.push_back(io_error(file, why));
            continue;
        }
        std::string const dir = fs::path(file).parent_path().filename().string();
        skillmd::skill_origin const origin{file, dir};
        auto r = o.line_parser ? skillmd::read_skill(lines, dialect, mode, *text, origin)
                               : skillmd::read_skill(x3, dialect, mode, *text, origin);
        loaded += r.skill.has_value();
        all.insert(all.end(), std::make_move_iterator(r.diagnostics.begin()), std::make_move_iterator(r.diagnostics.end()));
    }
    std::stable_sort(all.begin(), all.end(), [](auto const& a, auto const& b) {
        if (a.file != b.file) return a.file < b.file;
        return a.line != b.line ? a.line < b.line : a.column < b.column;
    });

    std::size_t errors = 0, warnings = 0;
    std::string out;
    for (auto const& d : all) {
        errors += d.severity == skillmd::severity::error;
        warnings += d.severity == skillmd::severity::warning;
        if (o.json) {
            skillmd::write_json(out, d, true, true);
            out += '\n';
        } else {
            out += to_text(d) + '\n';
        }
    }
    print(out);
    std::fflush(stdout);
    std::cerr << files.size() << " file(s) checked with the " << dialect.id << " dialect ("
              << (o.strict ? "strict" : "lenient") << "): " << loaded << " loaded, " << errors << " error(s), "
              << warnings << " warning(s)\n";
    return errors ? exit_errors : exit_ok;
}

std::string visibility_of(skillmd::skill_record const& r)
{
    if (r.hidden) return "hidden";
    bool const model = r.visible_to(skillmd::visibility::model), user = r.visible_to(skillmd::visibility::user);
    return model && user ? "model,user" : model ? "model" : user ? "user" : "none";
}

template <class Registry>
int show(Registry& reg, options const& o, bool tree, char const* const* tiers, std::size_t tier_count)
{
    for (auto const& entry : o.dirs) {
        std::string const& label = entry.first; // not a structured binding: clang 14 cannot capture one
        if (std::find_if(tiers, tiers + tier_count, [&](char const* t) { return label == t; }) == tiers + tier_count) {
            std::string known;
            for (std::size_t i = 0; i < tier_count; ++i) known += (i ? ", " : "") + std::string(tiers[i]);
            return usage("the " + o.preset + " preset has no tier " + label + " (it has " + known + ")");
        }
    }
    reg.load();
    auto const snap = reg.snapshot();
    std::vector<skillmd::skill_record const*> rows;
    for (auto const& r : snap->skills()) rows.push_back(&r);
    for (auto const& r : snap->shadowed()) rows.push_back(&r);
    std::stable_sort(rows.begin(), rows.end(), [](auto const* a, auto const* b) {
        return a->command != b->command ? a->command < b->command : a->tier_index < b->tier_index;
    });
    std::string out;
    if (tree) {
        for (auto const& r : snap->skills()) {
            std::size_t const depth = static_cast<std::size_t>(std::count(r.command.begin(), r.command.end(), '/'));
            out += std::string(depth * 2, ' ') + r.command.substr(r.command.rfind('/') + 1);
            if (r.hidden) out += " (hidden)";
            out += "  " + r.meta.description.substr(0, 70) + (r.meta.description.size() > 70 ? "..." : "") + "\n";
        }
    } else if (o.json) {
        out += "[";
        for (std::size_t i = 0; i < rows.size(); ++i) {
            auto const& r = *rows[i];
            out += i ? ",\n {" : "{";
            out += "\"name\": ";
            skillmd::detail::json_quote(out, r.meta.name);
            out += ", \"command\": ";
            skillmd::detail::json_quote(out, r.command);
            out += ", \"tier\": ";
            skillmd::detail::json_quote(out, r.tier);
            out += ", \"path\": ";
            skillmd::detail::json_quote(out, r.where.path);
            out += ", \"visibility\": ";
            skillmd::detail::json_quote(out, visibility_of(r));
            if (!r.shadowed_by.empty()) {
                out += ", \"shadowed_by\": ";
                skillmd::detail::json_quote(out, r.shadowed_by);
            }
            out += "}";
        }
        out += "]\n";
    } else {
        for (auto const* r : rows) {
            out += r->command + "\t" + r->tier + "\t" + r->where.path + "\t" + visibility_of(*r);
            if (!r->shadowed_by.empty()) out += "\tshadowed by " + r->shadowed_by;
            out += "\n";
        }
    }
    print(out);
    std::fflush(stdout);
    for (auto const& d : snap->diagnostics())
        if (d.severity != skillmd::severity::info) std::cerr << to_text(d) << "\n";
    std::cerr << snap->skills().size() << " skill(s), " << snap->shadowed().size() << " shadowed, preset "
              << o.preset << "\n";
    return exit_ok;
}

int cmd_registry(options const& o, bool tree)
{
    namespace presets = skillmd::presets;
    presets::locations at;
    at.overrides = o.dirs;
    auto run = [&](auto make, auto const& tiers) {
        auto reg = make(at);
        return show(reg, o, tree, std::data(tiers), std::size(tiers));
    };
    if (o.preset == "agent-skills") return run([](auto const& a) { return presets::make_agent_skills(a); }, presets::agent_skills_tiers);
    if (o.preset == "pegasus") return run([](auto const& a) { return presets::make_pegasus(a); }, presets::pegasus_tiers);
    if (o.preset == "claude-code") return run([](auto const& a) { return presets::make_claude_code(a); }, presets::claude_code_tiers);
    if (o.preset == "mycode") return run([](auto const& a) { return presets::make_mycode(a); }, presets::mycode_tiers);
    if (o.preset == "sven") return run([](auto const& a) { return presets::make_sven(a); }, presets::sven_tiers);
    return usage("unknown preset " + o.preset + " (agent-skills, pegasus, claude-code, mycode, sven)");
}

} // namespace

int main(int argc, char** argv)
{
    std::span<char const* const> const args(argv, static_cast<std::size_t>(argc));
    if (args.size() < 2) return usage("");
    std::string_view const cmd = args[1];
    if (cmd == "--help" || cmd == "-h" || cmd == "help") {
        std::cout << usage_text;
        return exit_ok;
    }
    if (cmd != "parse" && cmd != "lint" && cmd != "list" && cmd != "tree")
        return usage("unknown command " + std::string(cmd));
    options o;
    if (cmd != "parse") o.json = false;
    if (auto const why = parse_options(args.subspan(2), o, cmd); !why.empty()) return usage(why);
    if (cmd == "list" || cmd == "tree") return cmd_registry(o, cmd == "tree");
    return cmd == "parse" ? cmd_parse(o) : cmd_lint(o);
}
