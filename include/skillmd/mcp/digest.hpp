// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_MCP_DIGEST_HPP
#define SKILLMD_MCP_DIGEST_HPP

// Content digests of skills, from the bytes on disk when they are asked for: SHA-256 of
// each file (OpenSSL's libcrypto, not a hand-written hash), the file manifest the MCP
// Skills extension publishes (`sha256:{hex}` and size per file), and the skill digest of
// the discovery RFC's 2026-02 draft (SHA-256 over the sorted `{path}\0{hex}\n` lines).
// Link skillmd::mcp (OpenSSL::Crypto).

#include <skillmd/mcp/skill_listing.hpp>
#include <skillmd/mcp/impl/skill_folder.hpp>
#include <skillmd/detail/contained.hpp>
#include <skillmd/detail/hex.hpp>

#include <openssl/evp.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace skillmd::mcp {

/// SHA-256 of `bytes` as 64 lowercase hexadecimal characters ("" if libcrypto fails).
inline std::string sha256_hex(std::string_view bytes)
{
    std::array<unsigned char, EVP_MAX_MD_SIZE> md{};
    unsigned int n = 0;
    if (EVP_Digest(bytes.data(), bytes.size(), md.data(), &n, EVP_sha256(), nullptr) != 1 || n != 32) return {};
    std::string out;
    out.reserve(64);
    for (unsigned i = 0; i < 32; ++i) skillmd::detail::append_hex_byte(out, md[i]);
    return out;
}

/// Base64 of `bytes` (OpenSSL's encoder), as resources carry binary files.
inline std::string base64_encode(std::string_view bytes)
{
    std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
    int const n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()), reinterpret_cast<unsigned char const*>(bytes.data()),
                                  static_cast<int>(bytes.size()));
    out.resize(n < 0 ? 0 : static_cast<std::size_t>(n));
    return out;
}

/// The bytes of canonical Base64 text (padded, no line breaks), or nothing.
inline std::optional<std::string> base64_decode(std::string_view text)
{
    if (text.size() % 4 != 0 || text.size() > (std::size_t{1} << 30)) return std::nullopt;
    if (text.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=") != std::string_view::npos)
        return std::nullopt;
    std::size_t const pad = text.ends_with("==") ? 2 : text.ends_with("=") ? 1 : 0;
    if (text.find('=') < text.size() - pad) return std::nullopt; // `=` only at the end
    std::string out(text.size() / 4 * 3, '\0');
    int const n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()), reinterpret_cast<unsigned char const*>(text.data()),
                                  static_cast<int>(text.size()));
    if (n < 0 || static_cast<std::size_t>(n) != out.size()) return std::nullopt;
    out.resize(out.size() - pad); // the decoder counts padding as zero bytes
    return out;
}

/// One file of a skill: its path below the skill's folder (`/`-separated), its digest, its size.
struct file_digest
{
    std::string path;
    std::string hex; ///< SHA-256, lowercase hexadecimal, without the `sha256:` prefix
    std::uint64_t size = 0;
    std::string digest() const { return "sha256:" + hex; }
};

/// Every file of a skill, or why there is no complete list.
struct skill_manifest
{
    std::vector<file_digest> files; ///< sorted by path; SKILL.md among them
    std::string skill_md;           ///< the bytes of SKILL.md that were digested
    std::vector<std::string> excluded; ///< what the listing's rules leave out, and why (skill_listing)
    std::string error;              ///< set when the list is not complete (a limit, an unreadable file)
    bool complete() const noexcept { return error.empty(); }
};

/** The skill digest of the 2026-02 draft of the Agent Skills discovery RFC: SHA-256 over
    `{path}\0{hex}\n` for every file, sorted by path byte for byte, as `sha256:{hex}`.
    The published RFC replaced it with the digest of the artifact's raw bytes
    (packages::artifact_of); this one is kept, under a name that says so, for tools that
    still compare it.
*/
inline std::string draft_manifest_digest(std::vector<file_digest> files)
{
    std::sort(files.begin(), files.end(), [](auto const& a, auto const& b) { return a.path < b.path; });
    std::string manifest;
    for (auto const& f : files) {
        manifest += f.path;
        manifest += '\0';
        manifest += f.hex;
        manifest += '\n';
    }
    return "sha256:" + sha256_hex(manifest);
}

/// The files of the skill in folder `dir` (see skill_listing), without reading them.
/// `expected`: the device and inode its SKILL.md had when it was listed, if known.
inline skill_listing list_skill(std::string const& dir, skillmd::detail::file_id const* expected = nullptr)
{
    skill_listing out;
    auto const root = detail::open_skill_folder(dir, expected, out.error);
    if (!root) return out;
    std::vector<skillmd::detail::file_id> above{root.id};
    std::size_t folders = 0;
    if (!detail::list_below(root.fd.get(), root.path, "", 0, above, folders, out)) out.files.clear();
    return out;
}

/** One file of a skill, read now: `rel` must be a path its listing has (the same rules:
    no `.git`, not too deep, inside the folder), opened below the skill's folder.
*/
inline std::optional<std::string> read_skill_file(std::string const& dir, skillmd::detail::file_id const* expected,
                                                  std::string const& rel, std::uint64_t limit, std::string& error)
{
    if (!skillmd::detail::plain_relative_path(rel) || !within_listing_rules(rel)) {
        error = "not a file of the skill: " + rel;
        return std::nullopt;
    }
    auto const root = detail::open_skill_folder(dir, expected, error);
    if (!root) return std::nullopt;
    return detail::read_below(root.fd.get(), root.path, rel, limit, error);
}

/** The manifest of the skill in folder `dir`: every file of its listing (nested skills'
    files too, as the extension asks), digested from the bytes read now, each opened
    below the folder (no link swapped in since the listing can lead out). Over 512
    files, 512 folders, 16 levels or 16 MiB, or with a file that cannot be read, the
    manifest says so in `error`. `expected` as for list_skill().
*/
inline skill_manifest manifest_of(std::string const& dir, skillmd::detail::file_id const* expected = nullptr)
{
    skill_manifest m;
    auto const root = detail::open_skill_folder(dir, expected, m.error);
    if (!root) return m;
    skill_listing listing;
    std::vector<skillmd::detail::file_id> above{root.id};
    std::size_t folders = 0;
    if (!detail::list_below(root.fd.get(), root.path, "", 0, above, folders, listing)) {
        m.error = listing.error;
        return m;
    }
    m.excluded = std::move(listing.excluded);
    std::uint64_t total = 0;
    for (auto const& f : listing.files) {
        std::string error;
        auto bytes = detail::read_below(root.fd.get(), root.path, f.path, max_skill_bytes - total, error);
        if (!bytes) {
            m.error = error;
            return m;
        }
        total += bytes->size();
        m.files.push_back({f.path, sha256_hex(*bytes), bytes->size()});
        if (f.path == "SKILL.md") m.skill_md = std::move(*bytes);
    }
    if (std::none_of(m.files.begin(), m.files.end(), [](auto const& f) { return f.path == "SKILL.md"; }))
        m.error = "no SKILL.md in " + dir;
    return m;
}

} // namespace skillmd::mcp

#endif
