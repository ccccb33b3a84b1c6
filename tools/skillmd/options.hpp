// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
//
// The flags of the commands that share one options struct (every command but db and
// watch): a flag is checked against the command's list in usage.hpp first, so an unknown
// or misplaced flag is a usage error with the closest known flag, then read here.
#ifndef SKILLMD_TOOLS_OPTIONS_HPP
#define SKILLMD_TOOLS_OPTIONS_HPP

#include "preset_table.hpp"
#include "usage.hpp"

#include <skillmd/skillmd.hpp>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cli {

// The library's own lists, so a format added there is accepted here.
inline constexpr auto const& index_format_names = skillmd::index_formats::names;
inline constexpr auto const& content_format_names = skillmd::content_formats::names;

/// Options shared by the commands; each command takes only the flags usage.hpp lists for it.
struct options
{
    bool json = false;
    bool format_given = false;
    bool line_parser = false;
    bool lenient_yaml = false;
    bool require_frontmatter = false;
    bool strict = false;
    std::string dialect = "agent-skills";
    std::string preset = "agent-skills";
    std::map<std::string, std::filesystem::path> dirs;
    std::string name_space = "default"; ///< --namespace (the fleet preset)
    std::string pooler;                 ///< --pooler transaction (the fleet preset)
    bool namespace_given = false;
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
    std::string http;                    ///< mcp --http HOST:PORT ("" : stdio)
    std::string token_file;              ///< mcp --token-file
    std::vector<std::string> allow_origins; ///< mcp --allow-origin
    std::vector<std::string> allow_hosts;   ///< mcp --allow-host
    bool portability = false;            ///< lint --portability
    bool fix = false;                    ///< fmt --fix
    std::vector<std::pair<std::string, std::string>> settings; ///< (layer, file) in precedence order
    std::string events;                  ///< --events FILE
    std::string installed;               ///< list --installed DIR
    std::size_t max_bytes = skillmd::directory_options{}.max_file_bytes; ///< parse --max-bytes: the loader's bound
};

inline bool is_registry_command(std::string_view c)
{
    return c == "list" || c == "tree" || c == "index" || c == "invoke" || c == "match" || c == "mcp" || c == "explain";
}

/// A decimal number no larger than `max`, or nothing.
inline std::optional<std::size_t> number(std::string_view s, std::size_t max = std::size_t{1} << 32)
{
    std::size_t n = 0;
    auto const [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
    if (ec != std::errc() || end != s.data() + s.size() || n > max) return std::nullopt;
    return n;
}

/// The arguments being read, and the flag's value when it takes one.
struct arg_cursor
{
    std::span<char const* const> args;
    std::size_t i = 0;
    std::optional<std::string_view> value() { return i + 1 < args.size() ? std::optional<std::string_view>(args[++i]) : std::nullopt; }
};

/// "" when `f` is a format `command` prints, else why not.
inline std::string check_format(std::string_view command, std::string_view f)
{
    if (f == "json") return "";
    auto const in = [&](auto const& names) { return std::find(std::begin(names), std::end(names), f) != std::end(names); };
    if (command == "index")
        return in(index_format_names) ? "" : "unknown index format " + std::string(f) + did_you_mean(f, index_format_names);
    if (command == "invoke")
        return in(content_format_names) ? "" : "unknown content format " + std::string(f) + did_you_mean(f, content_format_names);
    std::vector<std::string_view> names{"text", "json"};
    if (command == "list") names.push_back("table");
    if (in(names)) return "";
    return "--format takes " + std::string(command == "list" ? "text, json or table" : "text or json") + " for " +
           std::string(command) + did_you_mean(f, names);
}

/// The flags of parse, lint and fmt. "" or why the flag is wrong.
inline std::string take_file_flag(std::string_view a, arg_cursor& c, options& o)
{
    if (a == "--parser") {
        auto f = c.value();
        if (!f || (*f != "x3" && *f != "line")) return "--parser takes x3 or line";
        o.line_parser = *f == "line";
    } else if (a == "--lenient") {
        o.lenient_yaml = true;
    } else if (a == "--require-frontmatter") {
        o.require_frontmatter = true;
    } else if (a == "--max-bytes") {
        auto f = c.value();
        auto const n = f ? number(*f, std::size_t{1} << 30) : std::nullopt;
        if (!n) return "--max-bytes takes a number up to 1073741824";
        o.max_bytes = *n;
    } else if (a == "--portability") {
        o.portability = true;
    } else if (a == "--strict") {
        o.strict = true;
    } else if (a == "--check" || a == "--fix") {
        o.fix = a == "--fix";
    } else if (a == "--dialect") {
        auto f = c.value();
        if (!f) return "--dialect needs a value";
        if (!skillmd::dialects::find(*f)) {
            std::vector<std::string> ids;
            for (auto const& d : skillmd::dialects::all()) ids.emplace_back(d.id);
            return "unknown dialect " + std::string(*f) + did_you_mean(*f, ids);
        }
        o.dialect = std::string(*f);
    }
    return "";
}

/// The flags of the commands that load a preset.
inline std::string take_registry_flag(std::string_view a, arg_cursor& c, options& o)
{
    if (a == "--preset") {
        auto f = c.value();
        if (!f) return "--preset needs a value";
        if (std::find(preset_names.begin(), preset_names.end(), *f) == preset_names.end())
            return "unknown preset " + std::string(*f) + did_you_mean(*f, preset_names);
        o.preset = std::string(*f);
    } else if (a == "--dir") {
        auto f = c.value();
        if (!f || f->find('=') == std::string_view::npos) return "--dir takes TIER=PATH";
        auto const eq = f->find('=');
        auto const [at, fresh] = o.dirs.try_emplace(std::string(f->substr(0, eq)), std::string(f->substr(eq + 1)));
        if (!fresh) return "--dir " + at->first + " is given twice; a tier has one folder";
    } else if (a == "--db") {
        auto f = c.value();
        if (!f || f->empty()) return "--db needs a SQLite file or a postgresql:// URL";
        auto const [at, fresh] = o.dirs.try_emplace("db", std::string(*f));
        if (!fresh) return "--db is given twice (or with --dir db=)";
    } else if (a == "--namespace") {
        auto f = c.value();
        if (!f || f->empty()) return "--namespace needs a name";
        o.name_space = std::string(*f);
        o.namespace_given = true;
    } else if (a == "--pooler") {
        auto f = c.value();
        if (!f || *f != "transaction") return "--pooler takes transaction (PgBouncer's pool_mode = transaction)";
        o.pooler = std::string(*f);
    } else if (a == "--allow-root") {
        auto f = c.value();
        if (!f) return "--allow-root needs a folder";
        o.allowed_roots.emplace_back(*f);
    } else if (a == "--user-settings" || a == "--project-settings") {
        auto f = c.value();
        if (!f) return std::string(a) + " needs a file";
        o.settings.emplace_back(a == "--user-settings" ? "user settings" : "project settings", std::string(*f));
    } else if (a == "--installed") {
        auto const f = c.value();
        if (!f || f->empty()) return "--installed needs the install folder";
        o.installed = std::string(*f);
    } else if (a == "--events") {
        auto f = c.value();
        if (!f) return "--events needs a file";
        o.events = std::string(*f);
    } else if (a == "--budget" || a == "--context-tokens") {
        auto f = c.value();
        auto const n = f ? number(*f) : std::nullopt;
        if (!n) return std::string(a) + " takes a number up to 4294967296";
        // A budget of 0 would be the library's "no budget given": refused, not left to mean that.
        if (a == "--budget" && *n == 0) return "--budget takes a number from 1 to 4294967296";
        if (a == "--budget") o.budget = *n;
        else o.context_tokens = *n;
    } else if (a == "--page-size") {
        auto f = c.value();
        auto const n = f ? number(*f) : std::nullopt;
        if (!n || *n == 0 || *n > 100000) return "--page-size takes a number from 1 to 100000";
        o.page_size = *n;
    } else if (a == "--http") {
        auto f = c.value();
        if (!f || f->empty()) return "--http needs HOST:PORT";
        if (!o.http.empty()) return "--http is given once";
        o.http = std::string(*f);
    } else if (a == "--token-file") {
        auto f = c.value();
        if (!f || f->empty()) return "--token-file needs a file";
        o.token_file = std::string(*f);
    } else if (a == "--allow-origin") {
        auto f = c.value();
        if (!f || f->empty()) return "--allow-origin needs an origin (scheme://host[:port])";
        o.allow_origins.emplace_back(*f);
    } else if (a == "--allow-host") {
        auto f = c.value();
        if (!f || f->empty()) return "--allow-host needs a host name or address";
        o.allow_hosts.emplace_back(*f);
    }
    return "";
}

/// invoke's own flags.
inline std::string take_invoke_flag(std::string_view a, arg_cursor& c, options& o)
{
    if (a == "--as") {
        auto f = c.value();
        if (!f || (*f != "user" && *f != "model")) return "--as takes user or model";
        o.as_user = *f == "user";
    } else if (a == "--allow" || a == "--deny") {
        auto f = c.value();
        if (!f) return std::string(a) + " needs a rule";
        (a == "--allow" ? o.allow : o.deny).emplace_back(*f);
    } else if (a == "--substitution") {
        auto f = c.value();
        if (!f || (*f != "safe" && *f != "claude-code" && *f != "claude-code-exact"))
            return "--substitution takes safe, claude-code or claude-code-exact";
        o.substitution = std::string(*f);
    }
    return "";
}

/// One flag the command takes (`a` is in its list).
inline std::string take_flag(command_doc const& cmd, std::string_view a, arg_cursor& c, options& o)
{
    if (a == "--format") {
        auto f = c.value();
        if (!f) return "--format needs a value";
        if (auto why = check_format(cmd.name, *f); !why.empty()) return why;
        o.format = std::string(*f);
        o.json = *f == "json";
        o.format_given = true;
        return "";
    }
    if (cmd.name == "new" && a == "--dir") {
        auto f = c.value();
        if (!f) return "--dir needs a path";
        o.new_dir = std::string(*f);
        return "";
    }
    if (cmd.name == "invoke") {
        if (auto why = take_invoke_flag(a, c, o); !why.empty()) return why;
    }
    return is_registry_command(cmd.name) ? take_registry_flag(a, c, o) : take_file_flag(a, c, o);
}

/// The positional arguments each command takes.
inline std::string check_arguments(std::string_view command, options const& o)
{
    bool const registry = is_registry_command(command);
    if (command == "explain" && o.paths.size() > 1) return "explain takes at most one NAME";
    if (command == "invoke" || command == "match" || command == "new") {
        if (o.paths.size() == 1) return "";
        return std::string(command) +
               (command == "new" ? " takes one NAME" : command == "match" ? " takes one MESSAGE" : " takes one \"/NAME ARGS\"");
    }
    if (o.paths.empty() && !registry) return std::string(command) + " needs at least one path";
    if (registry && !o.paths.empty() && command != "explain") return "unexpected argument " + o.paths.front();
    return "";
}

/// Parses the arguments after the command; "" on success, else the one-line error. An
/// unknown flag is reported by `unknown` (flag), which says it with the closest flag.
inline std::string parse_options(std::span<char const* const> args, options& o, command_doc const& cmd, std::string& unknown)
{
    o.json = cmd.name == "parse"; // parse prints JSON unless told otherwise
    arg_cursor c{args, 0};
    for (; c.i < args.size(); ++c.i) {
        std::string_view const a = args[c.i];
        if (a == "--") {
            for (++c.i; c.i < args.size(); ++c.i) o.paths.emplace_back(args[c.i]);
            break;
        }
        if (a.size() > 1 && a[0] == '-') {
            if (!takes_flag(cmd, a)) {
                unknown = std::string(a);
                return "unknown flag";
            }
            if (auto why = take_flag(cmd, a, c, o); !why.empty()) return why;
            continue;
        }
        o.paths.emplace_back(a);
    }
    std::stable_sort(o.settings.begin(), o.settings.end(), [](auto const& x, auto const& y) {
        return x.first == "user settings" && y.first != "user settings"; // the project's layer last: it wins
    });
    return check_arguments(cmd.name, o);
}

} // namespace cli

#endif
