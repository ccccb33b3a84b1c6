// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
//
// `skillmd db` and `skillmd watch`: koshi's tools on the database tiers (SQLite, and the
// fleet tier on PostgreSQL), and the fleet tier's changes as they happen.
#ifndef SKILLMD_TOOLS_DB_COMMANDS_HPP
#define SKILLMD_TOOLS_DB_COMMANDS_HPP

#include "json_output.hpp"
#include "options.hpp"

#include <skillmd/detail/read_file.hpp>
#include <skillmd/presets/fleet.hpp>
#include <skillmd/presets/koshi.hpp>

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

namespace cli {

/// Text from skill files and servers, escaped for the terminal and one line of output.
inline std::string safe(std::string_view s) { return skillmd::detail::terminal_safe(s); }

/// Writes to stdout; a failed write (a full disk, a closed pipe) is reported once by
/// main() through ferror(stdout) and fails the command.
inline void print(std::string const& s) { std::fwrite(s.data(), 1, s.size(), stdout); }

inline void print_diagnostics(skillmd::snapshot const& snap)
{
    for (auto const& d : snap.diagnostics())
        if (d.severity != skillmd::severity::info) std::cerr << to_text(d) << "\n";
}

/// A `--dir` folder that is not there is said, not passed over in silence: the tier it
/// names then finds nothing.
inline void warn_missing_dir(std::string_view tier, std::filesystem::path const& path)
{
    std::error_code ec;
    if (std::filesystem::exists(path, ec)) return;
    std::cerr << "skillmd: warning: --dir " << safe(tier) << "=" << safe(path.string())
              << ": no such file or directory; the " << safe(tier) << " tier finds nothing there\n";
}

inline std::vector<std::string> split_commas(std::string_view s)
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

inline int report(skillmd::db_outcome const& r, std::string_view done)
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
    std::optional<std::string> name, description, content, content_file, triggers, role, access;
    std::optional<std::int64_t> revision;
    std::string ns = "default";
    bool json = false;
    double seconds = 0; ///< watch --for
};

/// `db load`: the body, as text or {"name","content"}.
template <class System>
int db_load(System& reg, skillmd::snapshot const& snap, db_args const& a)
{
    auto const* r = snap.find(*a.name);
    if (!r) return std::cerr << "skillmd: no skill named " << safe(*a.name) << "\n", exit_errors;
    std::string why;
    auto const body = reg.body(*r, &why);
    if (!body) return std::cerr << "skillmd: " << safe(why) << "\n", exit_database;
    print(a.json ? json_line(boost::json::object{{"name", r->command.view()}, {"content", *body}}) : *body);
    return exit_ok;
}

/// `db list`: every skill with its source (koshi's list_skills), bodies left out.
inline int db_list(skillmd::snapshot const& snap, bool json)
{
    std::string out;
    if (json) {
        out = json_lines(skillmd::presets::list_skills_json(snap));
    } else {
        for (auto const& r : snap.skills()) {
            std::string t;
            for (auto const& x : skillmd::triggers_of(r.meta)) t += (t.empty() ? "" : ",") + x;
            out += safe(r.command) + "\t" + (r.where.database ? "database" : "file") + "\t" + safe(t) + "\t" +
                   safe(r.meta.description) + "\n";
        }
    }
    print(out);
    print_diagnostics(snap);
    return exit_ok;
}

/// The koshi tools on either database tier: the steps do not depend on which.
template <class System>
int db_steps(System& reg, db_args const& a)
{
    namespace presets = skillmd::presets;
    if (a.op == "create") {
        if (!a.description || !a.content) return usage_error("db", "db create needs --description and --content (or --content-file)");
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
    if (a.op == "load") return db_load(reg, *snap, a);
    return db_list(*snap, a.json);
}

/// One change of the fleet tier: `+ name rev`, `~ name rev`, `- name`, or its JSON
/// {"change":"added"|"changed"|"removed","name","revision"} (revision null when removed).
inline std::string watch_line(char sign, std::string const& name, std::optional<std::int64_t> rev, bool json)
{
    if (json) {
        char const* const change = sign == '+' ? "added" : sign == '~' ? "changed" : "removed";
        return json_line(boost::json::object{
            {"change", change}, {"name", name}, {"revision", rev ? boost::json::value(*rev) : boost::json::value(nullptr)}});
    }
    return std::string(1, sign) + " " + safe(name) + (rev ? " " + std::to_string(*rev) : std::string()) + "\n";
}

/// Prints each change of the fleet tier as other processes make it, for `seconds` (0:
/// until interrupted).
inline int watch_fleet(skillmd::presets::fleet& reg, double seconds, bool json)
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
                if (auto it = seen.find(n); it == seen.end()) out += watch_line('+', n, rev, json);
                else if (it->second != rev) out += watch_line('~', n, rev, json);
            for (auto const& [n, rev] : seen)
                if (!now.contains(n)) out += watch_line('-', n, std::nullopt, json);
            print(out);
            std::fflush(stdout);
        }
        seen = std::move(now);
    };
    auto const reader_gone = [] { return std::ferror(stdout) != 0; }; // main() says why
    take(false);
    print_diagnostics(*reg.snapshot());
    (json ? std::cerr : std::cout) << "watching " << reg.snapshot()->skills().size() << " skills" << std::endl;
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

/// One `--flag value` of db or watch; "" or why it is wrong.
inline std::string take_db_flag(std::string_view k, std::string const& v, db_args& a)
{
    if (k == "--db") a.at.overrides["db"] = v;
    else if (k == "--dir" && v.rfind("user=", 0) == 0) a.at.overrides["user"] = v.substr(5);
    else if (k == "--dir" && v.rfind("cache=", 0) == 0) a.at.overrides["cache"] = v.substr(6);
    else if (k == "--dir") return "--dir takes user=PATH or cache=PATH for db and watch";
    else if (k == "--namespace") a.ns = v;
    else if (k == "--pooler") {
        if (v != "transaction") return "--pooler takes transaction (PgBouncer's pool_mode = transaction)";
        a.at.overrides["pooler"] = v;
    } else if (k == "--for") {
        auto const n = number(v, 10ull * 365 * 24 * 3600); // ten years: no clock arithmetic wraps
        if (!n) return "--for takes a number of seconds up to 315360000 (0: until stopped)";
        a.seconds = static_cast<double>(*n);
    } else if (k == "--name") a.name = v;
    else if (k == "--description") a.description = v;
    else if (k == "--triggers") a.triggers = v;
    else if (k == "--content") a.content = v;
    else if (k == "--role") a.role = v;
    else if (k == "--access") {
        if (v != "read" && v != "write") return "--access takes read or write";
        a.access = v;
    } else if (k == "--revision") {
        auto const n = number(v);
        if (!n) return "--revision takes a number";
        a.revision = static_cast<std::int64_t>(*n);
    } else if (k == "--content-file") {
        a.content_file = v;
    } else if (k == "--format") {
        if (v != "json" && v != "text") return "--format takes text or json" + did_you_mean(v, std::array<std::string_view, 2>{"text", "json"});
        a.json = v == "json";
    }
    return "";
}

/// What the operation needs besides its flags; "" or the usage error.
inline std::string check_db_args(db_args& a, bool watch, std::string const& cmd)
{
    if (!a.at.overrides.count("db")) return cmd + " needs --db PATH (a SQLite file) or --db postgresql://...";
    bool const postgres = skillmd::presets::is_postgres_url(a.at.overrides["db"].string());
    if ((a.op == "grant" || a.op == "revoke") && (!postgres || !a.role || (a.op == "grant" && !a.access)))
        return a.op + " needs --db postgresql://..., --namespace NS, --role ROLE" + (a.op == "grant" ? " and --access read|write" : "");
    if (!watch && a.op != "list" && a.op != "grant" && a.op != "revoke" && !a.name) return cmd + " needs --name";
    if (watch && !postgres) return "watch needs --db postgresql://...";
    if (!postgres && a.at.overrides.count("pooler")) return "--pooler is for a PostgreSQL server (--db postgresql://...)";
    if (a.json && !watch && a.op != "list" && a.op != "load")
        return cmd + " prints no data: --format json is for db list, db load and watch (the exit status says how it went)";
    return "";
}

/// Reads the arguments of db (after its operation) or watch into `a`; exit_ok, or the exit status to return.
inline int parse_db_args(std::span<char const* const> args, db_args& a, bool watch)
{
    auto const& doc = *find_command(watch ? "watch" : "db");
    std::string const cmd = watch ? "watch" : "db " + a.op;
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string_view const k = args[i];
        if (!takes_flag(doc, k)) {
            if (k.size() > 1 && k[0] == '-') return unknown_flag(doc, k);
            return usage_error(doc.name, "unexpected argument " + std::string(k) + " for " + cmd);
        }
        if (i + 1 == args.size()) return usage_error(doc.name, std::string(k) + " needs a value");
        auto const why = take_db_flag(k, args[++i], a);
        if (!why.empty()) return usage_error(doc.name, why);
    }
    if (auto const why = check_db_args(a, watch, cmd); !why.empty()) return usage_error(doc.name, why);
    if (a.content_file) {
        std::string why;
        // A row's content is at most the database's value bound: a larger file is refused unread.
        auto text = skillmd::detail::read_file(*a.content_file, why, static_cast<std::size_t>(skillmd::sqlite_options{}.max_value_bytes));
        if (!text) return std::cerr << "skillmd: cannot read " << safe(*a.content_file) << ": " << safe(why) << "\n", exit_errors;
        a.content = std::move(*text);
    }
    return exit_ok;
}

/// grant and revoke on the fleet tier's schema.
inline int db_grant(db_args const& a, skillmd::postgres_options const& po)
{
    std::string error;
    auto store = skillmd::postgres_store::open(po, error);
    auto const r = a.op == "grant" ? store->grant(a.ns, *a.role, *a.access == "write" ? skillmd::namespace_access::write
                                                                                        : skillmd::namespace_access::read)
                                   : store->revoke(a.ns, *a.role);
    return report(r, a.op + "ed " + *a.role + " on " + a.ns);
}

inline int db_postgres(db_args const& a, bool watch)
{
    skillmd::postgres_options po;
    po.conninfo = a.at.overrides.at("db").string();
    po.transaction_pooler = a.at.overrides.count("pooler") > 0;
    if (a.op == "grant" || a.op == "revoke") return db_grant(a, po);
    auto reg = skillmd::presets::make_fleet(a.at, po, a.ns);
    reg.load();
    // The server not reached: a database error for every operation, or an empty list
    // (or a stale snapshot's) and "no skill named" would pass for answers; a watch
    // would watch nothing.
    for (auto const& d : reg.snapshot()->diagnostics())
        if (d.code == skillmd::codes::database) return std::cerr << "skillmd: " << safe(d.message) << "\n", exit_database;
    if (watch) return watch_fleet(reg, a.seconds, a.json);
    return db_steps(reg, a);
}

inline int cmd_db(std::span<char const* const> args, bool watch)
{
    static constexpr std::string_view ops[] = {"create", "update", "delete", "load", "list", "grant", "revoke"};
    db_args a;
    if (!watch) {
        if (args.empty()) return usage_error("db", "db needs create, update, delete, load, list, grant or revoke");
        a.op = args[0];
        if (std::find(std::begin(ops), std::end(ops), a.op) == std::end(ops))
            return usage_error("db", "unknown db operation " + safe(a.op) + did_you_mean(a.op, ops));
        args = args.subspan(1);
    }
    if (int const rc = parse_db_args(args, a, watch); rc != exit_ok) return rc;
    if (auto const it = a.at.overrides.find("user"); it != a.at.overrides.end()) warn_missing_dir("user", it->second);
    if (skillmd::presets::is_postgres_url(a.at.overrides["db"].string())) return db_postgres(a, watch);
    auto reg = skillmd::presets::make_koshi(a.at);
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

} // namespace cli

#endif
