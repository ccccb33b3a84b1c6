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
//   skillmd mcp             serves a preset's skills over MCP on stdio (Skills extension)
//   skillmd explain [NAME]  why each skill is (or is not) in the index and invocable
//   skillmd fmt PATH...     the smallest edits after which every agent reads a file the same

#include <skillmd/skillmd.hpp>
#include <skillmd/presets/systems.hpp>
#include <skillmd/presets/koshi.hpp>
#include <skillmd/presets/fleet.hpp>
#include <skillmd/detail/read_file.hpp>

#include "author_commands.hpp"
#include "mcp_commands.hpp"

#include <algorithm>
#include <charconv>
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
constexpr int exit_ok = 0, exit_errors = 1, exit_usage = 2;

char const usage_text[] =
    "usage: skillmd parse [--format json|text] [--parser x3|line] [--lenient] [--require-frontmatter] [--max-bytes N] FILE...\n"
    "       skillmd lint [--dialect NAME] [--strict] [--format text|json] [--parser x3|line] PATH...\n"
    "       skillmd lint --portability [--format text|json] PATH...\n"
    "       skillmd fmt [--check|--fix] PATH...\n"
    "\n"
    "  parse   print each file's frontmatter as one JSON object per line:\n"
    "          {\"file\", \"frontmatter\", \"body_offset\", \"diagnostics\"}\n"
    "          --format text prints the diagnostics compiler-style instead\n"
    "          --parser line uses Claude Code's line parser instead of the X3 grammar\n"
    "          --lenient takes `key: a: b` values as the rest of the line (with a warning)\n"
    "          --require-frontmatter makes a file without frontmatter an error\n"
    "          --max-bytes N reads files up to N bytes (default: the loader's 262144)\n"
    "  lint    check SKILL.md files (directories are searched) and print\n"
    "          file:line:column: severity: [code] message, sorted; a summary goes to stderr\n"
    "          --dialect agent-skills (default), pegasus, claude-code, mycode, koshi, sven,\n"
    "          claude-code-2.1, codex, gemini-cli, opencode\n"
    "          --strict applies the dialect's rules as errors; the default is the lenient\n"
    "          loading of the Agent Skills client guide\n"
    "          --portability instead says where the systems skillmd knows read a file\n"
    "          differently: strict YAML, the lenient client-guide reading, Claude Code's\n"
    "          line parser, the Agent Skills reference validator (exit 1 on any difference)\n"
    "  fmt     the smallest edits that make those readings agree (quotes, a BOM, tabs,\n"
    "          a value on one line, a comment moved above its key); the body is never\n"
    "          touched, and a file whose meaning would change is left as it is.\n"
    "          --check (default) prints the edits, exit 1 if a file needs any; --fix\n"
    "          writes them (temporary file + rename), exit 1 if a file could not be fixed\n"
    "          --format json prints one JSON object per diagnostic:\n"
    "          {\"file\", \"line\", \"column\", \"severity\", \"code\", \"rule\", \"message\"}\n"
    "       skillmd list [--preset NAME] [--dir TIER=PATH]... [--format text|json|table]\n"
    "       skillmd tree [--preset NAME] [--dir TIER=PATH]...\n"
    "  list    every skill the preset finds: name, tier, path, visibility; shadowed\n"
    "          skills are marked with the skill that shadows them\n"
    "  tree    the skills as a tree of nested commands\n"
    "          --preset agent-skills (default; the Agent Skills specification), pegasus (a\n"
    "          two-folder design), claude-code (Claude Code as reverse-engineered),\n"
    "          mycode (a coding-agent proposal), sven (nested packages),\n"
    "          koshi (Markdown files + an agent-written SQLite table); today's agents:\n"
    "          claude-code-2.1, codex-0.169, gemini-cli-0.61, opencode-1.18 (each checked\n"
    "          byte for byte against that version's captured skill listing)\n"
    "          --dir TIER=PATH replaces a tier's directory (repeatable)\n"
    "          --allow-root PATH lets links in the tiers lead into PATH (repeatable); links\n"
    "          that leave the preset's tiers are otherwise refused, never read\n"
    "          --user-settings FILE, --project-settings FILE: JSON with `skillOverrides`\n"
    "          {\"name or path\": \"on\"|\"name-only\"|\"user-invocable-only\"|\"off\"}; the\n"
    "          project's rules beat the user's, a path rule beats a name rule\n"
    "          --events FILE appends activation events (JSON Lines) to FILE\n"
    "          list --format table draws mycode's /skills table\n"
    "       skillmd index [--preset NAME] [--dir TIER=PATH]... [--format F] [--budget N] [--context-tokens N]\n"
    "  index   the skill index a system prompt carries, within the format's budget\n"
    "          --format pegasus, claude-code, koshi, sven, agent-skills, agent-skills-guide,\n"
    "          codex, gemini, claude-code-2.1, codex-0.169, gemini-cli-0.61, opencode-1.18\n"
    "          (default: the preset's own), or json (what was listed,\n"
    "          shortened and left out); --budget N characters replaces the budget;\n"
    "          --context-tokens N sizes budgets given as a share of the context window\n"
    "       skillmd invoke \"/NAME ARGS\" [--as user|model] [--preset NAME] [--dir TIER=PATH]...\n"
    "                     [--format F] [--allow RULE]... [--deny RULE]... [--substitution S]\n"
    "  invoke  validates the invocation (Claude Code's codes 1-5, skillmd's 6-12), decides the\n"
    "          permission (deny, then allow, else ask; `prefix:*` is the wildcard),\n"
    "          substitutes the arguments and prints the content the model receives\n"
    "          --format pegasus, claude-code, mycode, koshi, sven, agent-skills, codex,\n"
    "          gemini (default: the preset's own) or json; --as model (default) or user\n"
    "          --substitution safe (never in code or amounts; every preset's default),\n"
    "          claude-code (Claude Code as documented), seed001 (the reverse-engineered\n"
    "          replaceAll, to the letter)\n"
    "          exit 0 when the skill may run, 4 when it needs the user's approval (an\n"
    "          --allow rule, or --as user, gives it), 1 on an error or a deny rule\n"
    "       skillmd match \"MESSAGE\" [--preset NAME] [--dir TIER=PATH]... [--format text|json]\n"
    "  match   the skills whose trigger phrases occur in MESSAGE, one per line\n"
    "       skillmd new NAME [--dir PATH]\n"
    "  new     writes PATH/NAME/SKILL.md (default PATH: .) from mycode's /skill create template\n"
    "       skillmd db create|update|delete|load|list|grant|revoke --db PATH|URL [--dir user=PATH] [--name NAME]\n"
    "                     [--description TEXT] [--triggers a,b,c] [--content TEXT | --content-file PATH]\n"
    "                     [--format text|json]\n"
    "  db      koshi's tools on its skill database (created on first use) with the\n"
    "          file skills of --dir user=PATH winning: create refuses a taken name,\n"
    "          update changes only the fields given, delete never touches a file skill,\n"
    "          list shows every skill with its source, load prints a body; every\n"
    "          write is validated like a file skill. Exit 0 done, 1 refused, 3 database error\n"
    "          --db postgresql://... (or a libpq connection string) uses the fleet tier:\n"
    "          namespace --namespace NS (default: default) of a shared PostgreSQL database;\n"
    "          update --revision N changes the row only if it is still at revision N;\n"
    "          grant --role R --access read|write and revoke --role R (the schema's owner)\n"
    "       skillmd watch --db postgresql://... [--namespace NS] [--for SECONDS]\n"
    "  watch   prints `+ name rev`, `~ name rev`, `- name` as other processes change the namespace\n"
    "       skillmd explain [NAME] [--preset NAME] [--dir TIER=PATH]... [--format text|json] [--budget N]\n"
    "  explain for each skill (or NAME): in the index, shortened, left out or not; who may\n"
    "          invoke it; and every reason: the diagnostic that kept it from loading, the\n"
    "          skill shadowing it, a flag, a requirement, the budget rule, an override\n"
    "       skillmd digest [--format text|json] PATH...\n"
    "  digest  for each skill folder (or its SKILL.md): every file's sha256 digest and size,\n"
    "          then the skill's digest as the Agent Skills discovery RFC defines it\n"
    "       skillmd mcp [--preset NAME] [--dir TIER=PATH]... [--page-size N]\n"
    "  mcp     serves the preset's skills over MCP (JSON-RPC 2.0, one message per line on\n"
    "          stdin and stdout) with the Skills extension: skills/list, skills/get,\n"
    "          resources/list, resources/read, resources/directory/read; the skills are\n"
    "          re-read before each message and a change is announced; ends with the input\n"
    "exit status: 0 no errors, 1 some error, 2 usage error (invoke: 4 needs approval; db: 3 database error)\n";

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
    std::vector<std::filesystem::path> allowed_roots; ///< --allow-root: folders links may lead into
    std::vector<std::string> paths;
    std::string format;                  ///< as given to --format ("" when not)
    std::optional<std::size_t> budget;   ///< index --budget
    std::size_t context_tokens = 0;      ///< index --context-tokens
    bool as_user = false;                ///< invoke --as user
    std::vector<std::string> allow, deny;
    std::string substitution;            ///< invoke --substitution ("" : the preset's own)
    std::string new_dir = ".";           ///< new --dir
    std::size_t page_size = 0;           ///< mcp --page-size (0: the server's default)
    bool portability = false;            ///< lint --portability
    bool fix = false;                    ///< fmt --fix
    std::vector<std::pair<std::string, std::string>> settings; ///< (layer, file) in precedence order
    std::string events;                  ///< --events FILE
    std::size_t max_bytes = skillmd::directory_options{}.max_file_bytes; ///< parse --max-bytes: the loader's bound
};

bool is_registry_command(std::string_view c)
{
    return c == "list" || c == "tree" || c == "index" || c == "invoke" || c == "match" || c == "mcp" || c == "explain";
}

/// A decimal number no larger than `max`, or nothing.
std::optional<std::size_t> number(std::string_view s, std::size_t max = std::size_t{1} << 32)
{
    std::size_t n = 0;
    auto const [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
    if (ec != std::errc() || end != s.data() + s.size() || n > max) return std::nullopt;
    return n;
}

/// Parses argv; returns an error text, or "" on success.
std::string parse_options(std::span<char const* const> args, options& o, std::string_view command)
{
    bool const lint = command == "lint";
    bool const registry = is_registry_command(command);
    bool const free_format = command == "index" || command == "invoke" || command == "list";
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string_view const a = args[i];
        auto value = [&](std::string_view name) -> std::optional<std::string_view> {
            if (++i == args.size()) return std::nullopt;
            (void)name;
            return std::string_view(args[i]);
        };
        if (a == "--format" && free_format) {
            auto f = value(a);
            if (!f) return "--format needs a value";
            o.format = std::string(*f);
            o.json = *f == "json";
            o.format_given = true;
        } else if (a == "--format") {
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
        } else if (command == "parse" && a == "--max-bytes") {
            auto f = value(a);
            auto const n = f ? number(*f, std::size_t{1} << 30) : std::nullopt;
            if (!n) return "--max-bytes takes a number up to 1073741824";
            o.max_bytes = *n;
        } else if (!lint && a == "--require-frontmatter") {
            o.require_frontmatter = true;
        } else if (lint && a == "--portability") {
            o.portability = true;
        } else if (command == "fmt" && (a == "--check" || a == "--fix")) {
            o.fix = a == "--fix";
        } else if (registry && (a == "--user-settings" || a == "--project-settings")) {
            auto f = value(a);
            if (!f) return std::string(a) + " needs a file";
            o.settings.emplace_back(a == "--user-settings" ? "user settings" : "project settings", std::string(*f));
        } else if (registry && a == "--events") {
            auto f = value(a);
            if (!f) return "--events needs a file";
            o.events = std::string(*f);
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
        } else if ((command == "index" || command == "explain") && (a == "--budget" || a == "--context-tokens")) {
            auto f = value(a);
            auto const n = f ? number(*f) : std::nullopt;
            if (!n) return std::string(a) + " takes a number up to 4294967296";
            if (a == "--budget") o.budget = *n;
            else o.context_tokens = *n;
        } else if (command == "invoke" && a == "--as") {
            auto f = value(a);
            if (!f || (*f != "user" && *f != "model")) return "--as takes user or model";
            o.as_user = *f == "user";
        } else if (command == "invoke" && (a == "--allow" || a == "--deny")) {
            auto f = value(a);
            if (!f) return std::string(a) + " needs a rule";
            (a == "--allow" ? o.allow : o.deny).emplace_back(*f);
        } else if (command == "invoke" && a == "--substitution") {
            auto f = value(a);
            if (!f || (*f != "safe" && *f != "claude-code" && *f != "seed001"))
                return "--substitution takes safe, claude-code or seed001";
            o.substitution = std::string(*f);
        } else if (command == "mcp" && a == "--page-size") {
            auto f = value(a);
            auto const n = f ? number(*f) : std::nullopt;
            if (!n || *n == 0 || *n > 100000) return "--page-size takes a number from 1 to 100000";
            o.page_size = *n;
        } else if (command == "new" && a == "--dir") {
            auto f = value(a);
            if (!f) return "--dir needs a path";
            o.new_dir = std::string(*f);
        } else if (registry && a == "--dir") {
            auto f = value(a);
            if (!f || f->find('=') == std::string_view::npos) return "--dir takes TIER=PATH";
            auto const eq = f->find('=');
            o.dirs[std::string(f->substr(0, eq))] = std::string(f->substr(eq + 1));
        } else if (registry && a == "--allow-root") {
            auto f = value(a);
            if (!f) return "--allow-root needs a folder";
            o.allowed_roots.emplace_back(*f);
        } else if (a == "--") {
            for (++i; i < args.size(); ++i) o.paths.emplace_back(args[i]);
        } else if (a.size() > 1 && a[0] == '-') {
            return "unknown option " + std::string(a) + " for " + std::string(command);
        } else {
            o.paths.emplace_back(a);
        }
    }
    std::stable_sort(o.settings.begin(), o.settings.end(), [](auto const& x, auto const& y) {
        return x.first == "user settings" && y.first != "user settings"; // the project's layer last: it wins
    });
    if (command == "explain" && o.paths.size() > 1) return "explain takes at most one NAME";
    bool const one_argument = command == "invoke" || command == "match" || command == "new";
    if (one_argument) {
        if (o.paths.size() != 1)
            return std::string(command) + (command == "new" ? " takes one NAME" : command == "match" ? " takes one MESSAGE" : " takes one \"/NAME ARGS\"");
    } else if (o.paths.empty() && !registry) {
        return std::string(command) + " needs at least one path";
    } else if (registry && !o.paths.empty() && command != "explain") {
        return "unexpected argument " + o.paths.front();
    }
    if (command == "list" && o.format_given && o.format != "json" && o.format != "text" && o.format != "table")
        return "--format takes text, json or table";
    if (command == "index" && o.format_given && o.format != "json" && !skillmd::index_formats::visit(o.format, [](auto const&) {}))
        return "unknown index format " + o.format;
    return "";
}

/// Writes to stdout; a failed write (a full disk, a closed pipe) is reported once by
/// main() through ferror(stdout) and fails the command.
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

void print_diagnostics(skillmd::snapshot const& snap)
{
    for (auto const& d : snap.diagnostics())
        if (d.severity != skillmd::severity::info) std::cerr << to_text(d) << "\n";
}

/// Text from skill files, escaped for the terminal and for one line of a tab-separated listing.
std::string safe(std::string_view s) { return skillmd::detail::terminal_safe(s); }


int cmd_show(skillmd::snapshot const& snap, options const& o, bool tree)
{
    std::vector<skillmd::skill_record const*> rows;
    for (auto const& r : snap.skills()) rows.push_back(&r);
    for (auto const& r : snap.shadowed()) rows.push_back(&r);
    std::stable_sort(rows.begin(), rows.end(), [](auto const* a, auto const* b) {
        return a->command != b->command ? a->command < b->command : a->tier_index < b->tier_index;
    });
    std::string out;
    if (tree) {
        for (auto const& r : snap.skills()) {
            std::size_t const depth = static_cast<std::size_t>(std::count(r.command.begin(), r.command.end(), '/'));
            out += std::string(depth * 2, ' ') + safe(r.command.substr(r.command.rfind('/') + 1));
            if (r.hidden) out += " (hidden)";
            // Shortened on a code point boundary, then escaped: never half a UTF-8 sequence.
            out += "  " + safe(skillmd::detail::shorten(r.meta.description, 70)) + "\n";
        }
    } else if (o.format == "table") {
        out = skillmd::skills_table(snap.list(skillmd::visibility::user));
    } else if (o.json) {
        boost::json::array list;
        for (auto const* r : rows) {
            boost::json::object row{{"name", r->meta.name.view()}, {"command", r->command.view()}, {"tier", r->tier.view()},
                                    {"path", r->where.path.view()}, {"visibility", visibility_of(*r)}};
            if (!r->shadowed_by.empty()) row["shadowed_by"] = r->shadowed_by.view();
            list.emplace_back(std::move(row));
        }
        out = cli::json_line(list);
    } else {
        for (auto const* r : rows) {
            out += safe(r->command) + "\t" + safe(r->tier) + "\t" + safe(r->where.path) + "\t" + visibility_of(*r);
            if (!r->shadowed_by.empty()) out += "\tshadowed by " + safe(r->shadowed_by);
            out += "\n";
        }
    }
    print(out);
    std::fflush(stdout);
    print_diagnostics(snap);
    std::cerr << snap.skills().size() << " skill(s), " << snap.shadowed().size() << " shadowed, preset "
              << o.preset << "\n";
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
        out = r.text;
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

constexpr int exit_needs_approval = 4;

template <class System>
int cmd_invoke(System const& agent, options const& o)
{
    skillmd::invoke_options io = agent.settings().invoke; // the preset's own, then what the command line adds
    io.permissions.allow.insert(io.permissions.allow.end(), o.allow.begin(), o.allow.end());
    io.permissions.deny.insert(io.permissions.deny.end(), o.deny.begin(), o.deny.end());
    if (o.substitution == "seed001") io.substitution = skillmd::substitution::seed001();
    else if (o.substitution == "claude-code") io.substitution = skillmd::substitution::claude_code();
    else if (o.substitution == "safe") io.substitution = skillmd::substitution::safe();
    std::string const format = o.format_given && !o.json ? o.format : std::string(System::content_format_type::name);
    auto const who = o.as_user ? skillmd::caller::user : skillmd::caller::model;
    // Rules are checked before they are used: a rule that can match nothing is a usage error.
    bool bad_rule = false;
    for (auto const& d : skillmd::check_permission_rules(io.permissions, *agent.snapshot(), io.match_sanitized)) {
        std::cerr << "skillmd: " << safe(d.file) << " " << safe(d.message) << "\n";
        bad_rule = bad_rule || d.severity == skillmd::severity::error;
    }
    if (bad_rule) return exit_usage;
    skillmd::invocation inv;
    if (!skillmd::content_formats::visit(format, [&](auto const& f) { inv = skillmd::invoke(agent.registry(), o.paths.front(), "", who, io, f); }))
        return usage("unknown content format " + format);
    if (agent.settings().observer)
        skillmd::notify_invoked(*agent.settings().observer, inv, o.paths.front(), "", skillmd::activation_trigger::from_caller);
    auto const status = inv.status();
    int const code = status == skillmd::invoke_status::run              ? exit_ok
                     : status == skillmd::invoke_status::needs_approval ? exit_needs_approval
                                                                        : exit_errors;
    if (o.json) {
        print(cli::json_line(skillmd::to_json(inv)));
        return code;
    }
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
    std::vector<std::string> names;
    for (auto const* r : idx.match(o.paths.front())) names.push_back(r->command.str());
    std::string out;
    if (o.json) {
        out = cli::json_line(skillmd::to_json(names));
    } else {
        for (auto const& n : names) out += safe(n) + "\n";
    }
    print(out);
    std::fflush(stdout);
    std::cerr << names.size() << " of " << idx.skills() << " skill(s) with triggers matched\n";
    return exit_ok;
}

int cmd_new(options const& o)
{
    auto const r = skillmd::write_skill_template(o.new_dir, o.paths.front());
    if (!r.ok) {
        std::cerr << "skillmd: " << r.message << "\n";
        return exit_errors;
    }
    print(r.message);
    return exit_ok;
}

template <class System>
int run_loaded(System& agent, options const& o, std::string_view command);

template <class System>
int run(System& agent, options const& o, std::string_view command, preset_info const& p)
{
    for (auto const& entry : o.dirs) {
        std::string const& label = entry.first; // not a structured binding: clang 14 cannot capture one
        if (std::find_if(p.tiers, p.tiers + p.tier_count, [&](char const* t) { return label == t; }) == p.tiers + p.tier_count) {
            std::string known;
            for (std::size_t i = 0; i < p.tier_count; ++i) known += (i ? ", " : "") + std::string(p.tiers[i]);
            return usage("the " + o.preset + " preset has no tier " + label + " (it has " + known + ")");
        }
    }
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
        rc = run_loaded(agent, o, command);
    }
    return rc;
}

template <class System>
int run_loaded(System& agent, options const& o, std::string_view command)
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
        return cli::cmd_mcp(agent, o.page_size);
    }
    if (command == "index") return cmd_index(agent, *snap, o);
    if (command == "invoke") {
        print_diagnostics(*snap);
        return cmd_invoke(agent, o);
    }
    if (command == "match") return cmd_match(snap, o);
    return cmd_show(*snap, o, command == "tree");
}

int cmd_registry(options const& o, std::string_view command)
{
    namespace presets = skillmd::presets;
    presets::locations at;
    at.overrides = o.dirs;
    at.allowed_roots = o.allowed_roots;
    if (!cli::read_settings(o.settings, at.skill_overrides)) return exit_errors;
    auto go = [&](auto make, auto const& tiers) {
        auto agent = make(at);
        return run(agent, o, command, {std::data(tiers), std::size(tiers)});
    };
    if (o.preset == "agent-skills") return go([](auto const& a) { return presets::make_agent_skills(a); }, presets::agent_skills_tiers);
    if (o.preset == "pegasus") return go([](auto const& a) { return presets::make_pegasus(a); }, presets::pegasus_tiers);
    if (o.preset == "claude-code") return go([](auto const& a) { return presets::make_claude_code(a); }, presets::claude_code_tiers);
    if (o.preset == "mycode") return go([](auto const& a) { return presets::make_mycode(a); }, presets::mycode_tiers);
    if (o.preset == "sven") return go([](auto const& a) { return presets::make_sven(a); }, presets::sven_tiers);
    if (o.preset == "koshi") return go([](auto const& a) { return presets::make_koshi(a); }, presets::koshi_tiers);
    if (o.preset == "claude-code-2.1") return go([](auto const& a) { return presets::make_claude_code_2_1(a); }, presets::claude_code_tiers);
    if (o.preset == "codex-0.169") return go([](auto const& a) { return presets::make_codex_0_169(a); }, presets::codex_tiers);
    if (o.preset == "gemini-cli-0.61") return go([](auto const& a) { return presets::make_gemini_cli_0_61(a); }, presets::gemini_cli_tiers);
    if (o.preset == "opencode-1.18") return go([](auto const& a) { return presets::make_opencode_1_18(a); }, presets::opencode_tiers);
    return usage("unknown preset " + o.preset +
                 " (agent-skills, pegasus, claude-code, mycode, sven, koshi, claude-code-2.1, codex-0.169, gemini-cli-0.61, "
                 "opencode-1.18)");
}

constexpr int exit_database = 3;

std::vector<std::string> split_commas(std::string_view s)
{
    std::vector<std::string> out;
    std::size_t pos = 0;
    while (pos <= s.size()) {
        auto const comma = std::min(s.find(',', pos), s.size());
        auto const item = skillmd::detail::trim_spaces(s.substr(pos, comma - pos));
        if (!item.empty()) out.emplace_back(item);
        pos = comma + 1;
    }
    return out;
}

int report(skillmd::db_outcome const& r, std::string_view done)
{
    for (auto const& d : r.diagnostics)
        if (d.severity != skillmd::severity::info) std::cerr << to_text(d) << "\n";
    if (r.ok()) {
        std::cout << safe(done) << "\n";
        return exit_ok;
    }
    std::cerr << "skillmd: " << safe(r.message) << "\n"; // names and server messages are not trusted
    return r.status == skillmd::db_status::error ? exit_database : exit_errors;
}

/// What `skillmd db` and `skillmd watch` were asked.
struct db_args
{
    std::string op;
    skillmd::presets::locations at;
    std::optional<std::string> name, description, content, triggers, role, access;
    std::optional<std::int64_t> revision;
    std::string ns = "default";
    bool json = false;
    double seconds = 0; ///< watch --for
};

/// The koshi tools on either database tier: the steps do not depend on which.
template <class System>
int db_steps(System& reg, db_args const& a)
{
    namespace presets = skillmd::presets;
    if (a.op == "create") {
        if (!a.description || !a.content) return usage("db create needs --description and --content (or --content-file)");
        skillmd::db_skill s{*a.name, *a.description, a.triggers ? split_commas(*a.triggers) : std::vector<std::string>{}, *a.content, {}, {}, 0};
        return report(presets::create_skill(reg, s), "created " + *a.name);
    }
    if (a.op == "update") {
        skillmd::db_update u;
        u.description = a.description;
        u.content = a.content;
        u.revision = a.revision;
        if (a.triggers) u.triggers = split_commas(*a.triggers);
        return report(presets::update_skill(reg, *a.name, u), "updated " + *a.name);
    }
    if (a.op == "delete") return report(presets::delete_skill(reg, *a.name), "deleted " + *a.name);
    auto const snap = reg.snapshot();
    if (a.op == "load") {
        auto const* r = snap->find(*a.name);
        if (!r) return std::cerr << "skillmd: no skill named " << safe(*a.name) << "\n", exit_errors;
        std::string why;
        auto const body = reg.body(*r, &why);
        if (!body) return std::cerr << "skillmd: " << safe(why) << "\n", exit_database;
        print(*body);
        return exit_ok;
    }
    // list: every skill with its source (koshi's list_skills), bodies left out
    std::string out;
    if (a.json) {
        out = cli::json_line(presets::list_skills_json(*snap));
    } else {
        for (auto const& r : snap->skills()) {
            std::string t;
            for (auto const& x : skillmd::triggers_of(r.meta)) t += (t.empty() ? "" : ",") + x;
            out += safe(r.command) + "\t" + (r.where.database ? "database" : "file") + "\t" + safe(t) + "\t" +
                   safe(r.meta.description) + "\n";
        }
    }
    print(out);
    print_diagnostics(*snap);
    return exit_ok;
}

/// Prints each change of the fleet tier as other processes make it: `+ name`, `~ name`
/// (with the new revision), `- name`; for `seconds` (0: until interrupted).
int watch_fleet(skillmd::presets::fleet& reg, double seconds)
{
    auto const until = std::chrono::steady_clock::now() + std::chrono::milliseconds(static_cast<std::int64_t>(seconds * 1000));
    std::map<std::string, std::int64_t> seen;
    auto const take = [&](bool announce) {
        reg.refresh();
        std::map<std::string, std::int64_t> now;
        for (auto const& r : reg.snapshot()->skills())
            if (r.where.database) now.emplace(r.command, r.where.stamp.mtime_ns);
        if (announce) {
            std::string out;
            for (auto const& [n, rev] : now)
                if (auto it = seen.find(n); it == seen.end()) out += "+ " + safe(n) + " " + std::to_string(rev) + "\n";
                else if (it->second != rev) out += "~ " + safe(n) + " " + std::to_string(rev) + "\n";
            for (auto const& [n, rev] : seen)
                if (!now.contains(n)) out += "- " + safe(n) + "\n";
            print(out);
            std::fflush(stdout);
        }
        seen = std::move(now);
    };
    auto const reader_gone = [] { return std::ferror(stdout) != 0; }; // main() says why
    take(false);
    print_diagnostics(*reg.snapshot());
    std::cout << "watching " << reg.snapshot()->skills().size() << " skills" << std::endl;
    while (seconds <= 0 || std::chrono::steady_clock::now() < until) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - std::chrono::steady_clock::now());
        if (seconds <= 0 || left > std::chrono::milliseconds(1000)) left = std::chrono::milliseconds(1000);
        if (left.count() <= 0) break;
        reg.template source<1>().wait(left); // an announcement, or a second: then look
        take(true);
        if (reader_gone()) return exit_errors;
    }
    return exit_ok;
}

int cmd_db(std::span<char const* const> args, bool watch)
{
    namespace presets = skillmd::presets;
    db_args a;
    if (!watch) {
        if (args.empty()) return usage("db needs create, update, delete, load, list, grant or revoke");
        a.op = args[0];
        if (a.op != "create" && a.op != "update" && a.op != "delete" && a.op != "load" && a.op != "list" && a.op != "grant" &&
            a.op != "revoke")
            return usage("unknown db operation " + a.op);
        args = args.subspan(1);
    }
    std::string const cmd = watch ? "watch" : "db " + a.op;
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string_view const k = args[i];
        if (i + 1 == args.size()) return usage(std::string(k) + " needs a value");
        std::string const v = args[++i];
        if (k == "--db") a.at.overrides["db"] = v;
        else if (k == "--dir" && v.rfind("user=", 0) == 0) a.at.overrides["user"] = v.substr(5);
        else if (k == "--dir" && v.rfind("cache=", 0) == 0) a.at.overrides["cache"] = v.substr(6);
        else if (k == "--namespace") a.ns = v;
        else if (watch && k == "--for") {
            auto const n = number(v, 10ull * 365 * 24 * 3600); // ten years: no clock arithmetic wraps
            if (!n) return usage("--for takes a number of seconds up to 315360000 (0: until stopped)");
            a.seconds = static_cast<double>(*n);
        } else if (watch) return usage("unknown option " + std::string(k) + " for watch");
        else if (k == "--name") a.name = v;
        else if (k == "--description") a.description = v;
        else if (k == "--triggers") a.triggers = v;
        else if (k == "--content") a.content = v;
        else if (k == "--role") a.role = v;
        else if (k == "--access" && (v == "read" || v == "write")) a.access = v;
        else if (k == "--revision") {
            auto const n = number(v);
            if (!n) return usage("--revision takes a number");
            a.revision = static_cast<std::int64_t>(*n);
        } else if (k == "--content-file") {
            std::string why;
            // A row's content is at most the database's value bound: a larger file is refused unread.
            auto text = skillmd::detail::read_file(v, why, static_cast<std::size_t>(skillmd::sqlite_options{}.max_value_bytes));
            if (!text) return std::cerr << "skillmd: cannot read " << safe(v) << ": " << safe(why) << "\n", exit_errors;
            a.content = std::move(*text);
        } else if (k == "--format" && (v == "json" || v == "text")) a.json = v == "json";
        else return usage("unknown option " + std::string(k) + " for " + cmd);
    }
    if (!a.at.overrides.count("db")) return usage(cmd + " needs --db PATH (a SQLite file) or --db postgresql://...");
    std::string const db = a.at.overrides["db"];
    bool const postgres = presets::is_postgres_url(db);
    if ((a.op == "grant" || a.op == "revoke") && (!postgres || !a.role || (a.op == "grant" && !a.access)))
        return usage(a.op + " needs --db postgresql://..., --namespace NS, --role ROLE" + (a.op == "grant" ? " and --access read|write" : ""));
    if (!watch && a.op != "list" && a.op != "grant" && a.op != "revoke" && !a.name) return usage(cmd + " needs --name");
    if (watch && !postgres) return usage("watch needs --db postgresql://...");
    if (postgres) {
        skillmd::postgres_options po;
        po.conninfo = db;
        if (a.op == "grant" || a.op == "revoke") {
            std::string error;
            auto store = skillmd::postgres_store::open(po, error);
            auto const r = a.op == "grant" ? store->grant(a.ns, *a.role, *a.access == "write" ? skillmd::namespace_access::write
                                                                                                : skillmd::namespace_access::read)
                                           : store->revoke(a.ns, *a.role);
            return report(r, a.op + "ed " + *a.role + " on " + a.ns);
        }
        auto reg = presets::make_fleet(a.at, po, a.ns);
        reg.load();
        // The server not reached: a database error for every operation, or an empty list
        // (or a stale snapshot's) and "no skill named" would pass for answers; a watch
        // would watch nothing.
        for (auto const& d : reg.snapshot()->diagnostics())
            if (d.code == skillmd::codes::database) return std::cerr << "skillmd: " << safe(d.message) << "\n", exit_database;
        if (watch) return watch_fleet(reg, a.seconds);
        return db_steps(reg, a);
    }
    auto reg = presets::make_koshi(a.at);
    reg.load();
    if (!reg.source<1>().store()) {
        std::cerr << "skillmd: ";
        for (auto const& d : reg.snapshot()->diagnostics())
            if (d.code == skillmd::codes::database) std::cerr << safe(d.message);
        std::cerr << "\n";
        return exit_database;
    }
    return db_steps(reg, a);
}

} // namespace

namespace {
int dispatch(std::span<char const* const> args, std::string_view cmd);
}

int main(int argc, char** argv)
{
    std::span<char const* const> const args(argv, static_cast<std::size_t>(argc));
    if (args.size() < 2) return usage("");
    std::string_view const cmd = args[1];
    if (cmd == "--help" || cmd == "-h" || cmd == "help") {
        std::cout << usage_text;
        return exit_ok;
    }
    int const rc = dispatch(args, cmd);
    // Output that did not reach its reader (a full disk, a closed pipe) fails the command.
    std::cout.flush();
    if (std::fflush(stdout) != 0 || std::ferror(stdout) || !std::cout) {
        int const err = errno;
        std::cerr << "skillmd: cannot write to standard output" << (err ? std::string(": ") + std::strerror(err) : std::string()) << "\n";
        return rc == exit_ok ? exit_errors : rc;
    }
    return rc;
}

namespace {

int dispatch(std::span<char const* const> args, std::string_view cmd)
{
    if (cmd == "db" || cmd == "watch") return cmd_db(args.subspan(2), cmd == "watch");
    if (cmd != "parse" && cmd != "lint" && cmd != "new" && cmd != "digest" && cmd != "fmt" && !is_registry_command(cmd))
        return usage("unknown command " + std::string(cmd));
    options o;
    if (cmd != "parse") o.json = false;
    if (auto const why = parse_options(args.subspan(2), o, cmd); !why.empty()) return usage(why);
    if (is_registry_command(cmd)) return cmd_registry(o, cmd);
    if (cmd == "new") return cmd_new(o);
    if (cmd == "digest") return cli::cmd_digest(o.paths, o.json);
    if (cmd == "fmt") return cmd_fmt(o);
    return cmd == "parse" ? cmd_parse(o) : cmd_lint(o);
}

} // namespace
