// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
//
// skillmd: the command-line example. `skillmd parse FILE...` prints each file's
// frontmatter as JSON Lines, for checking the grammar against other YAML tools.

#include <skillmd/skillmd.hpp>
#include <skillmd/detail/read_file.hpp>

#include <cstdio>
#include <iostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace {

constexpr int exit_ok = 0, exit_errors = 1, exit_usage = 2;

int usage(std::string_view why)
{
    if (!why.empty()) std::cerr << "skillmd: " << why << "\n";
    std::cerr << "usage: skillmd parse [--format json|text] [--lenient] [--require-frontmatter] FILE...\n"
                 "\n"
                 "  parse   print each file's frontmatter as one JSON object per line:\n"
                 "          {\"file\", \"frontmatter\", \"body_offset\", \"diagnostics\"}\n"
                 "          --format text prints the diagnostics compiler-style instead\n"
                 "          --lenient takes `key: a: b` values as the rest of the line (with a warning)\n"
                 "          --require-frontmatter makes a file without frontmatter an error\n"
                 "exit status: 0 all files parsed, 1 some file had an error, 2 usage error\n";
    return exit_usage;
}

int cmd_parse(std::span<char const* const> args)
{
    bool json = true;
    skillmd::frontmatter::parse_options popts;
    skillmd::frontmatter::split_options sopts;
    std::vector<std::string> files;
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string_view const a = args[i];
        if (a == "--format") {
            if (++i == args.size()) return usage("--format needs a value");
            std::string_view const f = args[i];
            if (f == "json") json = true;
            else if (f == "text") json = false;
            else return usage("--format takes json or text");
        } else if (a == "--lenient") {
            popts.recover_colon_in_plain = true;
        } else if (a == "--require-frontmatter") {
            sopts.missing = skillmd::frontmatter::missing_policy::error;
        } else if (a == "--") {
            for (++i; i < args.size(); ++i) files.emplace_back(args[i]);
        } else if (a.size() > 1 && a[0] == '-') {
            return usage("unknown option " + std::string(a));
        } else {
            files.emplace_back(a);
        }
    }
    if (files.empty()) return usage("parse needs at least one FILE");

    skillmd::frontmatter::x3_parser const parser(popts);
    bool any_error = false;
    std::string out;
    for (auto const& file : files) {
        skillmd::frontmatter::skill_file r;
        std::string why;
        if (auto text = skillmd::detail::read_file(file, why)) {
            r = skillmd::frontmatter::read_skill_file(parser, *text, file, sopts);
        } else {
            r.diagnostics.push_back({std::string(skillmd::codes::io_error), skillmd::severity::error, file, 0, 0,
                                     "cannot read the file: " + why});
        }
        any_error = any_error || skillmd::has_error(r.diagnostics);
        out.clear();
        if (json) {
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
            for (auto const& d : r.diagnostics) {
                out += to_text(d);
                out += '\n';
            }
        }
        std::fwrite(out.data(), 1, out.size(), stdout);
    }
    return any_error ? exit_errors : exit_ok;
}

} // namespace

int main(int argc, char** argv)
{
    std::span<char const* const> const args(argv, static_cast<std::size_t>(argc));
    if (args.size() < 2) return usage("");
    std::string_view const cmd = args[1];
    if (cmd == "parse") return cmd_parse(args.subspan(2));
    if (cmd == "--help" || cmd == "-h" || cmd == "help") {
        usage("");
        return exit_ok;
    }
    return usage("unknown command " + std::string(cmd));
}
