// An agent whose skills come from a remote skill server: `skillmd mcp --http` (or any MCP
// server with the Skills extension) at an http:// or https:// URL, with a bearer token.
// Every read is checked against the digest the server published; https certificates are
// checked against the system's store and, with --ca-file, a private CA.
//
//   remote_agent URL [--token-file FILE] [--ca-file FILE] [--watch SECONDS]
//
// Prints `command: description` for each skill; with --watch, refreshes five times a
// second and prints the list again (after a `--` line) whenever it changes.
// Exit 0; 1 when the server could not be read at the start.
#include <skillmd/frontmatter/x3_parser.hpp>
#include <skillmd/mcp/remote.hpp>
#include <skillmd/mcp/source.hpp>
#include <skillmd/storage.hpp>

#include <chrono>
#include <fstream>
#include <iostream>
#include <string>
#include <thread>

int main(int argc, char** argv)
{
    namespace sk = skillmd;
    if (argc < 2) return std::cerr << "usage: remote_agent URL [--token-file FILE] [--ca-file FILE] [--watch SECONDS]\n", 2;
    sk::mcp::remote_options opts;
    int watch = 0;
    for (int i = 2; i + 1 < argc; i += 2) {
        std::string const flag = argv[i], value = argv[i + 1];
        if (flag == "--token-file") {
            std::ifstream in(value);
            std::getline(in, opts.token);
        } else if (flag == "--ca-file") opts.http.ca_file = value;
        else if (flag == "--watch") watch = std::stoi(value);
    }
    using registry = sk::basic_registry<sk::frontmatter::x3_parser, sk::first_tier_wins, sk::mcp::source>;
    registry skills(sk::registry_options{},
                    sk::mcp::source("team", "team", std::make_unique<sk::mcp::remote_client>(argv[1], opts)));
    skills.load();
    auto const print = [&](auto const& snap) {
        std::string out;
        for (auto const& r : snap->skills()) out += r.command + ": " + r.meta.description + "\n";
        for (auto const& d : snap->diagnostics()) std::cerr << sk::to_text(d) << "\n";
        std::cout << out << std::flush;
        return out;
    };
    std::string shown = print(skills.snapshot());
    if (skills.snapshot()->skills().empty() && !skills.snapshot()->diagnostics().empty()) return 1;
    auto const until = std::chrono::steady_clock::now() + std::chrono::seconds(watch);
    while (std::chrono::steady_clock::now() < until) {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        skills.refresh();
        std::string now;
        for (auto const& r : skills.snapshot()->skills()) now += r.command + ": " + r.meta.description + "\n";
        if (now == shown) continue;
        std::cout << "--\n";
        shown = print(skills.snapshot());
    }
}
