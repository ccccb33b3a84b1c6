// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_PACKAGES_LIMITS_HPP
#define SKILLMD_PACKAGES_LIMITS_HPP

// How much one package may bring, whatever its source: a server, an archive or a
// repository is hostile until checked, so each bound is counted on what arrives.

#include <chrono>
#include <cstddef>
#include <cstdint>

namespace skillmd::packages {

struct package_limits
{
    std::size_t max_entries = 4096;                      ///< files, folders and links in one archive or tree
    std::uint64_t max_file_bytes = 16ull * 1024 * 1024;  ///< one unpacked file
    std::uint64_t max_total_bytes = 64ull * 1024 * 1024; ///< everything one source brings, unpacked
    std::size_t max_depth = 24;                          ///< path components of one entry
    std::size_t max_skills = 1000;                       ///< skills one source may bring
    std::size_t max_download_bytes = 32 * 1024 * 1024;   ///< one HTTP answer (an index, a SKILL.md, an archive)
    std::chrono::milliseconds timeout{30000};            ///< one download, or one run of git
    std::chrono::milliseconds total_timeout{300000};     ///< everything one source needs: its downloads and git runs
    unsigned max_redirects = 5;
};

} // namespace skillmd::packages

#endif
