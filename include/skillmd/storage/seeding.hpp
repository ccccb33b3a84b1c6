// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_STORAGE_SEEDING_HPP
#define SKILLMD_STORAGE_SEEDING_HPP

// Seeding (koshi): on first start, a user skills directory that does not
// exist yet is created and filled from the shipped skills.

#include <skillmd/model/diagnostic.hpp>

#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

namespace skillmd {

/** Creates `target` as a copy of `shipped` when `target` does not exist. Returns true
    when it seeded. An existing directory, even an empty one, is left alone: the user
    may have emptied it on purpose. Problems become diagnostics.
*/
inline bool seed_directory(std::filesystem::path const& target, std::filesystem::path const& shipped,
                           std::vector<diagnostic>& diagnostics)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::exists(target, ec) || ec) return false;
    if (!fs::is_directory(shipped, ec)) {
        diagnostics.push_back({std::string(codes::seeding), severity::warning, shipped.string(), 0, 0,
                               "no shipped skills directory to seed from"});
        return false;
    }
    // Copy into a sibling first and rename, so a crash never leaves a half-seeded directory.
    fs::path const tmp = target.string() + ".seeding";
    fs::remove_all(tmp, ec);
    fs::create_directories(tmp.parent_path(), ec);
    fs::copy(shipped, tmp, fs::copy_options::recursive | fs::copy_options::copy_symlinks, ec);
    if (!ec) fs::rename(tmp, target, ec);
    if (ec) {
        fs::remove_all(tmp, ec);
        diagnostics.push_back({std::string(codes::seeding), severity::warning, target.string(), 0, 0,
                               "could not seed the skills directory: " + ec.message()});
        return false;
    }
    diagnostics.push_back({std::string(codes::seeding), severity::info, target.string(), 0, 0,
                           "created and seeded from " + shipped.string()});
    return true;
}

} // namespace skillmd

#endif
