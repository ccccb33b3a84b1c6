// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
//
// What the command line tells its users: the overview of the commands, each command's
// usage, and the usage errors (one line, a "did you mean" when a word is close to one
// skillmd knows, and a hint line naming the help to read).
#ifndef SKILLMD_TOOLS_USAGE_HPP
#define SKILLMD_TOOLS_USAGE_HPP

#include <skillmd/model/diagnostic.hpp> // detail::terminal_safe

#include <algorithm>
#include <array>
#include <cstddef>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#ifndef SKILLMD_VERSION
#define SKILLMD_VERSION "unknown"
#endif

namespace cli {

constexpr int exit_ok = 0, exit_errors = 1, exit_usage = 2, exit_database = 3, exit_needs_approval = 4;

/// One command: its name, the line the overview shows, the flags it takes (space-separated;
/// the bash completion script lists the same) and its usage text.
struct command_doc
{
    std::string_view name;
    std::string_view summary;
    std::string_view flags;
    std::string_view help;
};

#define SKILLMD_REGISTRY_FLAGS "--preset --dir --db --namespace --pooler --allow-root --user-settings --project-settings --events"
#define SKILLMD_REGISTRY_HELP                                                                                          \
    "  --preset NAME            agent-skills (default; the Agent Skills specification), pegasus,\n"                    \
    "                           claude-code, mycode, sven, koshi, claude-code-2.1, codex-0.169,\n"                     \
    "                           gemini-cli-0.61, opencode-1.18, fleet (needs --db postgresql://...)\n"                \
    "  --dir TIER=PATH          replaces a tier's directory (once per tier); a PATH that does not\n"                      \
    "                           exist is warned about on stderr\n"                                                     \
    "  --db PATH|URL            koshi's SQLite file, or fleet's PostgreSQL server (as --dir db=)\n"                    \
    "  --namespace NS           fleet's namespace (default `default`)\n"                                              \
    "  --pooler transaction     fleet's server is reached through a transaction pooler (PgBouncer):\n"                \
    "                           poll for changes, keep nothing in the session\n"                                      \
    "  --allow-root PATH        lets links in the tiers lead into PATH (repeatable)\n"                                 \
    "  --user-settings FILE     JSON with `skillOverrides` {\"name or path\": \"on\"|\"name-only\"|\n"                 \
    "  --project-settings FILE  \"user-invocable-only\"|\"off\"}; the project's rules win\n"                           \
    "  --events FILE            appends activation events (JSON Lines) to FILE\n"

inline constexpr std::array<command_doc, 21> commands{{
    {"parse", "print each file's frontmatter (JSON Lines) and check its grammar",
     "--format --parser --lenient --require-frontmatter --max-bytes",
     "usage: skillmd parse [--format json|text] [--parser x3|line] [--lenient] [--require-frontmatter]\n"
     "                     [--max-bytes N] FILE...\n"
     "Prints each file's frontmatter as one JSON object per line:\n"
     "  {\"file\",\"frontmatter\",\"body_offset\",\"diagnostics\"}\n"
     "  --format json|text       json (default), or the diagnostics compiler-style\n"
     "  --parser x3|line         the X3 grammar (default) or Claude Code's line parser\n"
     "  --lenient                takes `key: a: b` values as the rest of the line (with a warning)\n"
     "  --require-frontmatter    a file without frontmatter is an error\n"
     "  --max-bytes N            reads files up to N bytes (default: the loader's 262144)\n"
     "Exit: 0 no errors, 1 a file has an error, 2 usage error.\n"},
    {"lint", "compiler-style diagnostics for skill authors and their CI",
     "--format --dialect --strict --parser --portability",
     "usage: skillmd lint [--dialect NAME] [--strict] [--format text|json] [--parser x3|line] PATH...\n"
     "       skillmd lint --portability [--format text|json] PATH...\n"
     "Checks SKILL.md files (folders are searched) the way a registry loads them and prints\n"
     "file:line:column: severity: [code] message, sorted; a summary goes to stderr.\n"
     "  --dialect NAME           agent-skills (default), pegasus, claude-code, mycode, koshi, sven,\n"
     "                           claude-code-2.1, codex-0.169, gemini-cli-0.61, opencode-1.18\n"
     "  --strict                 the dialect's rules as errors (default: the lenient client guide)\n"
     "  --format text|json       text (default) or one JSON object per diagnostic\n"
     "  --parser x3|line         the X3 grammar (default) or Claude Code's line parser\n"
     "  --portability            where strict YAML, the lenient reading, Claude Code's line parser\n"
     "                           and the reference validator read a file differently\n"
     "Exit: 0 no errors, 1 an error (--portability: any difference), 2 usage error.\n"},
    {"fmt", "the smallest edits after which every agent reads a file the same", "--check --fix --format",
     "usage: skillmd fmt [--check|--fix] [--format text|json] PATH...\n"
     "The smallest edits that make every reading agree (quotes, a BOM, tabs, a value on one\n"
     "line, a comment moved above its key); the body is never touched, and a file whose\n"
     "meaning would change is left as it is.\n"
     "  --check                  (default) prints the edits, FILE:LINE: edit\n"
     "  --fix                    writes them (temporary file + rename)\n"
     "  --format text|json       text (default) or one JSON object per file\n"
     "Exit: 0 nothing to do, 1 (--check) a file needs edits or (both) one cannot be fixed, 2 usage error.\n"},
    {"list", "every skill a preset finds, with its tier and visibility", SKILLMD_REGISTRY_FLAGS " --format --installed",
     "usage: skillmd list [--preset NAME] [--dir TIER=PATH]... [--format text|json|table]\n"
     "       skillmd list --installed DIR [--format text|json]\n"
     "Every skill the preset finds: name, tier, path, visibility; shadowed skills are marked\n"
     "with the skill that shadows them. Diagnostics and a summary go to stderr.\n" SKILLMD_REGISTRY_HELP
     "  --format text|json|table text (default; tab-separated), JSON Lines, or mycode's /skills table\n"
     "  --installed DIR          instead: the skills installed in DIR, their source, what was\n"
     "                           installed, and `verified` or `modified`\n"
     "Exit: 0 listed, 1 the skills could not be loaded, 2 usage error.\n"},
    {"tree", "the skills as a tree of nested commands", SKILLMD_REGISTRY_FLAGS " --format",
     "usage: skillmd tree [--preset NAME] [--dir TIER=PATH]... [--format text|json]\n"
     "The skills as a tree of nested commands (sven's packages), with their descriptions.\n" SKILLMD_REGISTRY_HELP
     "  --format text|json       text (default) or one JSON object per skill\n"
     "Exit: 0 shown, 1 the skills could not be loaded, 2 usage error.\n"},
    {"index", "the skill index a system prompt carries, in any system's format",
     SKILLMD_REGISTRY_FLAGS " --format --budget --context-tokens",
     "usage: skillmd index [--preset NAME] [--dir TIER=PATH]... [--format F] [--budget N] [--context-tokens N]\n"
     "The skill index a system prompt carries, within the format's budget.\n" SKILLMD_REGISTRY_HELP
     "  --format F               pegasus, claude-code, koshi, sven, agent-skills, agent-skills-guide,\n"
     "                           claude-code-2.1, codex-0.169, gemini-cli-0.61, opencode-1.18\n"
     "                           (default: the preset's own), or json\n"
     "  --budget N               N characters replace the format's budget\n"
     "  --context-tokens N       sizes budgets given as a share of the context window\n"
     "Exit: 0 rendered, 1 the skills could not be loaded, 2 usage error.\n"},
    {"invoke", "validate an invocation, decide its permission, print the content",
     SKILLMD_REGISTRY_FLAGS " --as --format --allow --deny --substitution",
     "usage: skillmd invoke \"/NAME ARGS\" [--as user|model] [--preset NAME] [--dir TIER=PATH]...\n"
     "                      [--format F] [--allow RULE]... [--deny RULE]... [--substitution S]\n"
     "Validates the invocation (Claude Code's codes 1-5, skillmd's 6-12), decides the permission\n"
     "(deny, then allow, else ask; `prefix:*` is the wildcard), substitutes the arguments and\n"
     "prints the content the model receives.\n" SKILLMD_REGISTRY_HELP
     "  --as user|model          who invokes (default: model)\n"
     "  --format F               pegasus, claude-code, mycode, koshi, sven, agent-skills,\n"
     "                           codex-0.169, gemini-cli-0.61 (default: the preset's own), or json\n"
     "  --allow RULE, --deny RULE  permission rules (repeatable)\n"
     "  --substitution S         safe (default), claude-code, claude-code-exact\n"
     "Exit: 0 may run, 1 an error or a deny rule, 2 usage error (or a rule that matches nothing),\n"
     "4 needs the user's approval.\n"},
    {"match", "the skills whose trigger phrases a message holds", SKILLMD_REGISTRY_FLAGS " --format",
     "usage: skillmd match \"MESSAGE\" [--preset NAME] [--dir TIER=PATH]... [--format text|json]\n"
     "The skills whose trigger phrases occur in MESSAGE, one per line.\n" SKILLMD_REGISTRY_HELP
     "  --format text|json       text (default) or one JSON object per skill\n"
     "Exit: 0 done (matched or not), 1 the skills could not be loaded, 2 usage error.\n"},
    {"explain", "why each skill is (or is not) in the index and invocable",
     SKILLMD_REGISTRY_FLAGS " --format --budget --context-tokens",
     "usage: skillmd explain [NAME] [--preset NAME] [--dir TIER=PATH]... [--format text|json] [--budget N]\n"
     "For each skill (or NAME): in the index, shortened, left out or not; who may invoke it;\n"
     "and every reason: the diagnostic that kept it from loading, the skill shadowing it, a\n"
     "flag, a requirement, the budget rule, an override.\n" SKILLMD_REGISTRY_HELP
     "  --format text|json       text (default) or one JSON object per skill file\n"
     "  --budget N, --context-tokens N  as for index\n"
     "Exit: 0 explained, 1 no skill is called NAME (or the load failed), 2 usage error.\n"},
    {"new", "write a SKILL.md template", "--dir --format",
     "usage: skillmd new NAME [--dir PATH] [--format text|json]\n"
     "Writes PATH/NAME/SKILL.md (default PATH: .) from mycode's /skill create template;\n"
     "never overwrites.\n"
     "  --dir PATH               the folder to create the skill in\n"
     "  --format text|json       text (default) or one JSON object: the path and the content\n"
     "Exit: 0 written, 1 invalid name or nothing written, 2 usage error.\n"},
    {"digest", "every file's SHA-256 and the skill's artifact digest (discovery RFC)", "--format",
     "usage: skillmd digest [--format text|json] PATH...\n"
     "For each skill folder (or its SKILL.md): every file's sha256 digest and size, then the\n"
     "digest of the artifact `skillmd publish` writes for it (SKILL.md alone, or a .tar.gz),\n"
     "as the Agent Skills discovery RFC defines it, and the 2026-02 draft's manifest digest.\n"
     "  --format text|json       text (default) or one JSON object per skill\n"
     "Exit: 0 done, 1 a manifest is incomplete, 2 usage error.\n"},
    {"db", "koshi's tools on a skill database (SQLite or PostgreSQL)",
     "--db --dir --namespace --pooler --name --description --triggers --content --content-file --revision --role --access "
     "--format",
     "usage: skillmd db create|update|delete|load|list|grant|revoke --db PATH|URL [--dir user=PATH] [--name NAME]\n"
     "                  [--description TEXT] [--triggers a,b,c] [--content TEXT | --content-file PATH]\n"
     "                  [--revision N] [--namespace NS] [--role R] [--access read|write] [--format text|json]\n"
     "koshi's tools on its skill database (created on first use), the file skills of\n"
     "--dir user=PATH winning: create refuses a taken name, update changes only the fields\n"
     "given, delete never touches a file skill, list shows every skill with its source, load\n"
     "prints a body; every write is validated like a file skill.\n"
     "  --db postgresql://...    (or a libpq connection string) the fleet tier: namespace\n"
     "                           --namespace NS (default: default) of a shared database\n"
     "  --pooler transaction     the server is behind a transaction pooler (PgBouncer)\n"
     "  --dir user=PATH          the file skills, which win over the database's\n"
     "  --dir cache=PATH         the fleet tier's cache file (PostgreSQL)\n"
     "  --revision N             update only if the row is still at revision N\n"
     "  grant --role R --access read|write, revoke --role R   (the schema's owner)\n"
     "  --format text|json       list and load only: text (default) or JSON\n"
     "Exit: 0 done, 1 refused, 2 usage error, 3 database error.\n"},
    {"watch", "print the fleet tier's changes as other processes make them", "--db --dir --namespace --pooler --for --format",
     "usage: skillmd watch --db postgresql://... [--namespace NS] [--dir user=PATH|cache=PATH] [--for SECONDS]\n"
     "                     [--pooler transaction] [--format text|json]\n"
     "Prints `+ name rev`, `~ name rev`, `- name` as other processes change the namespace.\n"
     "  --dir user=PATH, --dir cache=PATH, --pooler   as for db; on a standby or behind a pooler,\n"
     "                           changes are polled for (every 250 ms)\n"
     "  --for SECONDS            stop after SECONDS (default 0: until interrupted)\n"
     "  --format text|json       text (default) or one JSON object per change\n"
     "Exit: 0 done, 1 output lost, 2 usage error, 3 database error.\n"},
    {"mcp", "serve a preset's skills over MCP on stdio or HTTP (Skills extension)",
     SKILLMD_REGISTRY_FLAGS " --page-size --http --token-file --allow-origin --allow-host",
     "usage: skillmd mcp [--preset NAME] [--dir TIER=PATH]... [--page-size N]\n"
     "                   [--http HOST:PORT [--token-file FILE] [--allow-origin ORIGIN]...\n"
     "                   [--allow-host HOST]...]\n"
     "Serves the preset's skills over MCP (JSON-RPC 2.0) with the Skills extension:\n"
     "skills/list, skills/get, resources/list, resources/read, resources/directory/read;\n"
     "protocol revisions 2026-07-28 (stateless) and 2025-11-25 back to 2024-11-05. On stdio\n"
     "(the default) one message per line in and out, until the input ends; the skills and\n"
     "the settings files are read again before each message and a change is announced (a\n"
     "settings file that holds an error then keeps the rules in force). No --format.\n" SKILLMD_REGISTRY_HELP
     "  --page-size N            items per page of a list (1 to 100000)\n"
     "  --http HOST:PORT         serve streamable HTTP at http://HOST:PORT/mcp instead (port 0:\n"
     "                           any free one; the address is printed on stderr); until SIGTERM\n"
     "  --token-file FILE        require `Authorization: Bearer <the file's first line>`\n"
     "  --allow-origin ORIGIN    a browser origin allowed besides loopback ones (repeatable)\n"
     "  --allow-host HOST        a Host header allowed besides loopback names and the address\n"
     "                           listened on, e.g. the name clients use (repeatable)\n"
     "Exit: 0 the input ended or the server was stopped, 1 the skills could not be loaded or\n"
     "the address not listened on, 2 usage error.\n"},
    {"install", "install skills from git, a plugin, an archive, an index or a URL", "--into --allow-http --ca-file --timeout --format",
     "usage: skillmd install SOURCE --into DIR [--allow-http] [--ca-file FILE] [--timeout SECONDS] [--format text|json]\n"
     "Installs every skill of SOURCE into DIR (one folder per skill) and records it in\n"
     "DIR/skills-lock.json: where it came from, the revision or version, the artifact's digest\n"
     "and every file's SHA-256. All or nothing: an install that fails or is interrupted leaves\n"
     "DIR as it was. SOURCE is one of:\n"
     "  git+URL[#REF[:SUBFOLDER]], URL.git[#REF[:SUBFOLDER]], PATH#REF[:SUBFOLDER]   a git repository\n"
     "  https://HOST[/.../index.json][#SKILL]   a discovery index (schema 0.2.0)\n"
     "  https://.../SKILL.md                    one skill as one file\n"
     "  URL or PATH ending .tar.gz, .tgz, .zip  an archive (an Agent Plugins package or one skill)\n"
     "  PATH                                    a plugin folder, a skill folder, or a folder of them\n"
     "  --into DIR               the install folder (made if missing)\n"
     "  --allow-http             allows plain http:// and git://, to this machine only\n"
     "  --ca-file FILE           PEM certificates trusted besides the system's\n"
     "  --timeout SECONDS        one download or git run (default 30)\n"
     "  --format text|json       text (default) or one JSON object\n"
     "Exit: 0 installed, 1 refused (nothing changed), 2 usage error.\n"},
    {"remove", "remove installed skills", "--into --format",
     "usage: skillmd remove NAME... --into DIR [--format text|json]\n"
     "Removes the skills' folders and their entries in DIR/skills-lock.json, all or none.\n"
     "Exit: 0 removed, 1 refused (a NAME is not installed), 2 usage error.\n"},
    {"verify", "check installed skills' files against the lock", "--into --format",
     "usage: skillmd verify --into DIR [--format text|json]\n"
     "Every file of every installed skill against its SHA-256 in DIR/skills-lock.json:\n"
     "`changed`, `missing` and `extra` files are listed, `verified` skills too.\n"
     "Exit: 0 every file matches, 1 a file does not (or no lock can be read), 2 usage error.\n"},
    {"outdated", "what changed upstream for the installed skills, touching nothing",
     "--into --allow-http --ca-file --timeout --format",
     "usage: skillmd outdated --into DIR [--allow-http] [--ca-file FILE] [--timeout SECONDS] [--format text|json]\n"
     "For each installed skill: current, outdated or gone upstream, with what is installed\n"
     "and what is available (git: asks for the commit without cloning).\n"
     "Exit: 0 done (outdated or not), 1 a source could not be asked, 2 usage error.\n"},
    {"update", "install what changed upstream and record the new digests",
     "--into --allow-http --ca-file --timeout --format",
     "usage: skillmd update [NAME...] --into DIR [--allow-http] [--ca-file FILE] [--timeout SECONDS] [--format text|json]\n"
     "Fetches the sources of the installed skills (or those named) again and installs what\n"
     "changed, all or nothing, as install does. A skill changed on disk is restored.\n"
     "Exit: 0 done, 1 refused (nothing changed), 2 usage error.\n"},
    {"publish", "write a discovery index of a folder's skills for any web server",
     "--out --base-url --version --format",
     "usage: skillmd publish DIR --out SITE [--base-url URL] [--version X.Y.Z] [--format text|json]\n"
     "Writes SITE/.well-known/agent-skills/index.json (discovery schema 0.2.0) for the skills\n"
     "of DIR: NAME/SKILL.md for a skill that is one file, NAME.tar.gz for one with more, each\n"
     "with the SHA-256 of its bytes. Skills are checked as install checks them.\n"
     "  --base-url URL           where SITE is served: the index's URLs become absolute\n"
     "  --version X.Y.Z          also an immutable vX.Y.Z/ snapshot, and versions.json\n"
     "Exit: 0 written, 1 refused, 2 usage error.\n"},
    {"pack", "pack a folder's skills as an Agent Plugins package", "--out --name --format",
     "usage: skillmd pack DIR --out FILE.tar.gz|FILE.zip [--name PLUGIN] [--format text|json]\n"
     "An Agent Plugins v1.0.0 package: DIR's plugin.json (checked), or one written with\n"
     "--name (default: DIR's name), and skills/NAME/ for each skill of DIR.\n"
     "Exit: 0 written, 1 refused, 2 usage error.\n"},
}};

#undef SKILLMD_REGISTRY_HELP
#undef SKILLMD_REGISTRY_FLAGS

inline command_doc const* find_command(std::string_view name)
{
    auto const it = std::find_if(commands.begin(), commands.end(), [&](auto const& c) { return c.name == name; });
    return it == commands.end() ? nullptr : &*it;
}

/// The words of a space-separated list.
inline std::vector<std::string_view> words(std::string_view list)
{
    std::vector<std::string_view> out;
    for (std::size_t pos = 0; pos < list.size();) {
        auto const end = std::min(list.find(' ', pos), list.size());
        if (end > pos) out.push_back(list.substr(pos, end - pos));
        pos = end + 1;
    }
    return out;
}

inline bool takes_flag(command_doc const& c, std::string_view flag)
{
    auto const all = words(c.flags);
    return std::find(all.begin(), all.end(), flag) != all.end();
}

/// The edit distance of `a` and `b` (insertions, deletions, substitutions and swaps of
/// two neighbours: `lsit` is one edit from `list`), for "did you mean".
inline std::size_t edit_distance(std::string_view a, std::string_view b)
{
    std::vector<std::size_t> before(b.size() + 1), prev(b.size() + 1), row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            std::size_t const cost = a[i - 1] == b[j - 1] ? 0 : 1;
            row[j] = std::min({prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) row[j] = std::min(row[j], before[j - 2] + 1);
        }
        before.swap(prev);
        prev.swap(row);
    }
    return prev[b.size()];
}

/// "; did you mean X?" for the candidate closest to `word` (1 edit off for a word of up
/// to 3 letters, 2 up to 6, else 3), or "".
template <class Range>
std::string did_you_mean(std::string_view word, Range const& candidates)
{
    std::string_view best;
    std::size_t best_distance = (word.size() <= 3 ? 1 : word.size() <= 6 ? 2 : 3) + 1;
    for (std::string_view const c : candidates)
        if (auto const d = edit_distance(word, c); d < best_distance) {
            best = c;
            best_distance = d;
        }
    return best.empty() ? std::string() : "; did you mean " + std::string(best) + "?";
}

inline std::string did_you_mean_command(std::string_view word)
{
    std::vector<std::string_view> names{"help"};
    for (auto const& c : commands) names.push_back(c.name);
    return did_you_mean(word, names);
}

/// A usage error: one line saying what is wrong, one naming the help; exit 2.
inline int usage_error(std::string_view command, std::string_view why)
{
    // `why` quotes what was typed: its control characters must not reach the terminal.
    std::cerr << "skillmd: " << skillmd::detail::terminal_safe(why) << "\n";
    if (command.empty()) std::cerr << "Run 'skillmd help' for the commands.\n";
    else std::cerr << "Run 'skillmd help " << skillmd::detail::terminal_safe(command) << "' for usage.\n";
    return exit_usage;
}

/// An unknown flag, with the command's closest flag when one is close.
inline int unknown_flag(command_doc const& c, std::string_view flag)
{
    std::string const said = "unknown flag " + std::string(flag) + " for " + std::string(c.name);
    // `--format=json`: the value is the next argument.
    if (auto const eq = flag.find('='); eq != std::string_view::npos && takes_flag(c, flag.substr(0, eq)))
        return usage_error(c.name, said + "; write " + std::string(flag.substr(0, eq)) + " " + std::string(flag.substr(eq + 1)));
    return usage_error(c.name, said + did_you_mean(flag, words(c.flags)));
}

inline std::string overview()
{
    std::string out = "usage: skillmd COMMAND [ARGS...]\n\ncommands:\n";
    for (auto const& c : commands)
        out += "  " + std::string(c.name) + std::string(10 - c.name.size(), ' ') + std::string(c.summary) + "\n";
    out += "\n'skillmd help COMMAND' or 'skillmd COMMAND --help' shows a command's flags; "
           "'skillmd --version' the version.\n"
           "Exit status: 0 success, 1 errors, 2 usage error (db: 3 database error; invoke: 4 needs approval).\n";
    return out;
}

/// `skillmd help [COMMAND]`: the overview, or one command's usage, on stdout.
inline int help(std::string_view command)
{
    if (command.empty() || command == "help") {
        std::cout << overview();
        return exit_ok;
    }
    auto const* c = find_command(command);
    if (!c) return usage_error("", "no command " + std::string(command) + did_you_mean_command(command));
    std::cout << c->help;
    return exit_ok;
}

} // namespace cli

#endif
