// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
//
// `skillmd install | remove | verify | outdated | update | publish | pack` and
// `list --installed`: the packages layer's calls (skillmd/packages.hpp) on the command line.
#ifndef SKILLMD_TOOLS_PACKAGE_COMMANDS_HPP
#define SKILLMD_TOOLS_PACKAGE_COMMANDS_HPP

#include "db_commands.hpp" // safe, print
#include "json_output.hpp"
#include "usage.hpp"

#include <skillmd/frontmatter/x3_parser.hpp>
#include <skillmd/packages.hpp>

#include <boost/json.hpp>

#include <charconv>
#include <iostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cli {

struct package_args
{
    std::vector<std::string> words; ///< SOURCE, NAME... or DIR
    std::string into, out, base_url, version, name, ca_file;
    std::string format = "text";
    bool allow_http = false;
    unsigned timeout_seconds = 0;
};

/// The flags of the package commands; exit_ok, or a usage error already said.
inline int parse_package_args(std::string_view cmd, std::span<char const* const> args, package_args& a)
{
    auto const* doc = find_command(cmd);
    bool options_done = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string_view const x = args[i];
        if (options_done || x.empty() || x.front() != '-' || x == "-") {
            a.words.emplace_back(x);
            continue;
        }
        if (x == "--") {
            options_done = true;
            continue;
        }
        if (!takes_flag(*doc, x)) return unknown_flag(*doc, x);
        if (x == "--allow-http") {
            a.allow_http = true;
            continue;
        }
        if (i + 1 >= args.size()) return usage_error(cmd, std::string(x) + " needs a value");
        std::string const v = args[++i];
        if (x == "--into") a.into = v;
        else if (x == "--out") a.out = v;
        else if (x == "--base-url") a.base_url = v;
        else if (x == "--version") a.version = v;
        else if (x == "--name") a.name = v;
        else if (x == "--ca-file") a.ca_file = v;
        else if (x == "--timeout") {
            auto const [end, ec] = std::from_chars(v.data(), v.data() + v.size(), a.timeout_seconds);
            if (ec != std::errc() || end != v.data() + v.size() || a.timeout_seconds == 0 || a.timeout_seconds > 3600)
                return usage_error(cmd, "--timeout takes seconds from 1 to 3600");
        } else if (x == "--format") {
            if (v != "text" && v != "json") return usage_error(cmd, "--format takes text or json for " + std::string(cmd));
            a.format = v;
        }
    }
    bool const needs_into = cmd != "publish" && cmd != "pack";
    if (needs_into && a.into.empty()) return usage_error(cmd, std::string(cmd) + " needs --into DIR (the install folder)");
    if ((cmd == "publish" || cmd == "pack") && a.out.empty()) return usage_error(cmd, std::string(cmd) + " needs --out");
    if (cmd == "install" && a.words.size() != 1) return usage_error(cmd, "install takes one SOURCE");
    if (cmd == "remove" && a.words.empty()) return usage_error(cmd, "remove takes the NAME of at least one installed skill");
    if ((cmd == "verify" || cmd == "outdated") && !a.words.empty()) return usage_error(cmd, std::string(cmd) + " takes no argument but --into");
    if ((cmd == "publish" || cmd == "pack") && a.words.size() != 1) return usage_error(cmd, std::string(cmd) + " takes one DIR");
    return exit_ok;
}

inline skillmd::packages::install_options package_install_options(package_args const& a)
{
    skillmd::packages::install_options o;
    o.fetch.allow_http = a.allow_http;
    o.fetch.ca_file = a.ca_file;
    if (a.timeout_seconds) o.fetch.limits.timeout = std::chrono::seconds(a.timeout_seconds);
    return o;
}

inline void print_warnings(std::vector<std::string> const& warnings)
{
    for (auto const& w : warnings) std::cerr << "skillmd: warning: " << safe(w) << "\n";
}

/// What a change did: one line per skill, or one JSON object.
inline int report_change(skillmd::packages::change_report const& r, bool json)
{
    print_warnings(r.warnings);
    if (!r.ok()) {
        std::cerr << "skillmd: " << safe(r.error) << "\n";
        return exit_errors;
    }
    if (json) {
        auto const list = [](std::vector<std::string> const& v) { return boost::json::array(v.begin(), v.end()); };
        print(json_line(boost::json::object{{"installed", list(r.installed)}, {"updated", list(r.updated)},
                                            {"unchanged", list(r.unchanged)}, {"removed", list(r.removed)},
                                            {"warnings", list(r.warnings)}}));
        return exit_ok;
    }
    std::string out;
    for (auto const& [word, names] : {std::pair{"installed", &r.installed}, {"updated", &r.updated}, {"unchanged", &r.unchanged},
                                      {"removed", &r.removed}})
        for (auto const& n : *names) out += std::string(word) + " " + safe(n) + "\n";
    print(out);
    return exit_ok;
}

/// `list --installed DIR`: each installed skill, its source, what was installed, and
/// whether its files still match the lock.
inline int cmd_list_installed(std::string const& dir, bool json)
{
    auto const v = skillmd::packages::verify(dir);
    if (!v.error.empty()) {
        std::cerr << "skillmd: " << safe(v.error) << "\n";
        return exit_errors;
    }
    std::string why;
    auto const lock = skillmd::packages::install_folder(dir).lock(why);
    if (!lock) {
        std::cerr << "skillmd: " << safe(why) << "\n";
        return exit_errors;
    }
    std::string out;
    for (auto const& s : lock->skills) {
        bool const ok = std::find(v.verified.begin(), v.verified.end(), s.name) != v.verified.end();
        std::string const at = !s.revision.empty() ? s.revision : !s.version.empty() ? s.version : s.digest;
        if (json)
            out += json_line(boost::json::object{{"name", s.name}, {"source", skillmd::packages::source_text(s.source)},
                                                 {"type", s.source.type}, {"installed", at}, {"verified", ok}});
        else
            out += safe(s.name) + "\t" + safe(skillmd::packages::source_text(s.source)) + "\t" + safe(at.empty() ? "-" : at) + "\t" +
                   (ok ? "verified" : "modified") + "\n";
    }
    print(out);
    return exit_ok;
}

inline int cmd_package(std::span<char const* const> args, std::string_view cmd)
{
    namespace pk = skillmd::packages;
    package_args a;
    if (int const rc = parse_package_args(cmd, args, a); rc != exit_ok) return rc;
    bool const json = a.format == "json";
    skillmd::frontmatter::x3_parser const parser(
        skillmd::parse_options_for(skillmd::dialects::agent_skills(), skillmd::validation_mode::lenient));
    auto const opts = package_install_options(a);
    if (cmd == "install") return report_change(pk::install(parser, a.words[0], a.into, opts), json);
    if (cmd == "update") return report_change(pk::update(parser, a.words, a.into, opts), json);
    if (cmd == "remove") return report_change(pk::remove(a.words, a.into, opts), json);
    if (cmd == "verify") {
        auto const r = pk::verify(a.into);
        if (!r.error.empty()) {
            std::cerr << "skillmd: " << safe(r.error) << "\n";
            return exit_errors;
        }
        std::string out;
        for (auto const& n : r.verified)
            out += json ? json_line(boost::json::object{{"skill", n}, {"state", "verified"}}) : "verified " + safe(n) + "\n";
        for (auto const& f : r.faults)
            out += json ? json_line(boost::json::object{{"skill", f.skill}, {"path", f.path}, {"state", f.what}})
                        : safe(f.what) + " " + safe(f.skill) + (f.path.empty() ? "" : "/" + safe(f.path)) + "\n";
        print(out);
        return r.ok() ? exit_ok : exit_errors;
    }
    if (cmd == "outdated") {
        std::string why;
        auto const rows = pk::outdated(a.into, opts.fetch, why);
        if (!why.empty()) {
            std::cerr << "skillmd: " << safe(why) << "\n";
            return exit_errors;
        }
        std::string out;
        bool failed = false;
        for (auto const& r : rows) {
            failed = failed || r.state == "error";
            if (json)
                out += json_line(boost::json::object{{"name", r.name}, {"state", r.state}, {"installed", r.installed},
                                                     {"available", r.available}, {"source", r.source}, {"error", r.why}});
            else
                out += safe(r.name) + "\t" + r.state + "\t" + safe(r.installed.empty() ? "-" : r.installed) + "\t" +
                       safe(r.available.empty() ? "-" : r.available) + "\t" + safe(r.state == "error" ? r.why : r.source) + "\n";
        }
        print(out);
        return failed ? exit_errors : exit_ok;
    }
    auto const r = cmd == "publish" ? pk::publish(parser, a.words[0], a.out, {a.base_url, a.version})
                                    : pk::pack(parser, a.words[0], a.out, a.name);
    print_warnings(r.warnings);
    if (!r.ok()) {
        std::cerr << "skillmd: " << safe(r.error) << "\n";
        return exit_errors;
    }
    std::string out;
    if (json) {
        out = json_line(boost::json::object{{"skills", boost::json::array(r.published.begin(), r.published.end())}, {"written", r.index_path}});
    } else {
        for (auto const& n : r.published) out += (cmd == "publish" ? "published " : "packed ") + safe(n) + "\n";
        out += "wrote " + safe(r.index_path) + "\n";
    }
    print(out);
    return exit_ok;
}

} // namespace cli

#endif
