// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_BENCHMARKS_FOLDER_OPTION_HPP
#define SKILLMD_BENCHMARKS_FOLDER_OPTION_HPP

// A benchmark's own `--NAME DIR` (or `--NAME=DIR`) option, taken out of the command line
// before the rest goes to Google Benchmark.

#include <string>
#include <string_view>
#include <vector>

namespace skillmd::bench {

/// Sets `value` from `--name DIR` or `--name=DIR`; returns every other argument, the
/// program's name first.
inline std::vector<char*> take_folder_option(int argc, char** argv, std::string_view name, std::string& value)
{
    std::string const flag = "--" + std::string(name);
    std::vector<char*> rest{argv[0]};
    for (int i = 1; i < argc; ++i) {
        std::string_view const arg = argv[i];
        if (arg == flag && i + 1 < argc) value = argv[++i];
        else if (arg.starts_with(flag + "=")) value = std::string(arg.substr(flag.size() + 1));
        else rest.push_back(argv[i]);
    }
    return rest;
}

} // namespace skillmd::bench

#endif
