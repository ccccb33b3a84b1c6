// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_PACKAGES_ARTIFACT_HPP
#define SKILLMD_PACKAGES_ARTIFACT_HPP

// A skill as the discovery RFC publishes it: an artifact whose digest is the SHA-256 of
// its raw bytes. A skill that is one file is its SKILL.md (`skill-md`); one with more is
// a .tar.gz of its files with SKILL.md at the root (`archive`), written the same way
// every time (archive.hpp), so the same files always give the same digest.

#include <skillmd/packages/archive.hpp>
#include <skillmd/mcp/digest.hpp>

#include <sys/stat.h>

#include <optional>
#include <string>
#include <vector>

namespace skillmd::packages {

struct skill_artifact
{
    std::string type;   ///< "skill-md" or "archive"
    std::string bytes;
    std::string digest; ///< `sha256:{hex}` of `bytes`
};

/** The files of the skill folder `dir` as archive members (the contained listing of
    mcp::list_skill: links that leave and `.git` left out), execute bits kept; what was
    left out goes to `excluded` when given. False, and `why`, when the listing is
    incomplete or a file cannot be read.
*/
inline bool skill_members(std::string const& dir, std::vector<archive_member>& out, std::string& why,
                          std::vector<std::string>* excluded = nullptr)
{
    auto const listing = mcp::list_skill(dir);
    if (!listing.complete()) {
        why = listing.error;
        return false;
    }
    if (excluded) excluded->insert(excluded->end(), listing.excluded.begin(), listing.excluded.end());
    std::uint64_t total = 0;
    for (auto const& f : listing.files) {
        auto bytes = mcp::read_skill_file(dir, nullptr, f.path, mcp::max_skill_bytes - total, why);
        if (!bytes) return false;
        total += bytes->size();
        struct stat st {};
        bool const exec = ::stat((dir + "/" + f.path).c_str(), &st) == 0 && (st.st_mode & 0100) != 0;
        out.push_back({f.path, std::move(*bytes), exec});
    }
    return true;
}

/// The artifact of the skill folder `dir`; nothing, and `why`, when it cannot be made.
inline std::optional<skill_artifact> artifact_of(std::string const& dir, std::string& why)
{
    std::vector<archive_member> members;
    if (!skill_members(dir, members, why)) return std::nullopt;
    if (std::none_of(members.begin(), members.end(), [](auto const& m) { return m.path == "SKILL.md"; })) {
        why = "no SKILL.md in " + dir;
        return std::nullopt;
    }
    skill_artifact a;
    if (members.size() == 1) {
        a.type = "skill-md";
        a.bytes = std::move(members.front().bytes);
    } else {
        a.type = "archive";
        a.bytes = pack_archive(std::move(members), archive_format::tar_gz, why);
        if (a.bytes.empty()) return std::nullopt;
    }
    a.digest = "sha256:" + mcp::sha256_hex(a.bytes);
    return a;
}

} // namespace skillmd::packages

#endif
