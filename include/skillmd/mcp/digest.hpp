// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_MCP_DIGEST_HPP
#define SKILLMD_MCP_DIGEST_HPP

// Content digests of skills, from the bytes on disk when they are asked for: SHA-256 of
// each file (OpenSSL's libcrypto, not a hand-written hash), the file manifest the MCP
// Skills extension publishes (`sha256:{hex}` and size per file), and the skill digest of
// the Agent Skills discovery RFC (SHA-256 over the sorted `{path}\0{hex}\n` lines).
// Link skillmd::mcp (OpenSSL::Crypto).

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

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace skillmd::mcp {

/// The extension's limits on one skill: files listed, and their bytes in all.
inline constexpr std::size_t max_skill_files = 512;
inline constexpr std::uint64_t max_skill_bytes = 16ull * 1024 * 1024;

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

/** The Agent Skills discovery RFC's skill digest: SHA-256 over `{path}\0{hex}\n` for every
    file, sorted by path byte for byte, as `sha256:{hex}`.
*/
inline std::string rfc_skill_digest(std::vector<file_digest> files)
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

/// The deepest folder below a skill's own that its listing goes into.
inline constexpr std::size_t max_skill_depth = 16;

/// A file of a skill by path and size, before it is digested.
struct listed_file
{
    std::string path; ///< below the skill's folder, `/`-separated
    std::uint64_t size = 0;
};

/** What belongs to a skill: every regular file below its folder, or why the list is not
    complete. Links that stay inside are followed (a file reached two ways is listed
    under both), links that leave are not part of the skill, and neither is version
    control data (`.git`): each such entry is named in `excluded`. A folder deeper than
    max_skill_depth, more than max_skill_files files or folders, or a folder that cannot
    be read makes the list incomplete (`error`): nothing is left out in silence.
*/
struct skill_listing
{
    std::vector<listed_file> files; ///< sorted by path
    std::vector<std::string> excluded; ///< `path: why`, for what the rules leave out
    std::string error;
    bool complete() const noexcept { return error.empty(); }
};

/// True when `rel` (a plain relative path) may name a file of a skill under the listing's
/// rules: no `.git` component and no deeper than max_skill_depth folders.
inline bool within_listing_rules(std::string_view rel) noexcept
{
    std::size_t folders = 0, pos = 0;
    while (true) {
        auto const slash = rel.find('/', pos);
        auto const part = rel.substr(pos, slash == std::string_view::npos ? std::string_view::npos : slash - pos);
        if (part == ".git") return false;
        if (slash == std::string_view::npos) return folders <= max_skill_depth;
        ++folders;
        pos = slash + 1;
    }
}

namespace detail {

using skillmd::detail::file_id;
using skillmd::detail::id_of;
using skillmd::detail::open_beneath;
using skillmd::detail::unique_fd;

/// A skill's folder, open: the descriptor every read goes below, the path the kernel
/// gives it (what absolute links inside are checked against), and its own identity (the
/// first of the folders above a file, against loops).
struct open_folder
{
    unique_fd fd;
    std::string path;
    file_id id{};
    explicit operator bool() const noexcept { return static_cast<bool>(fd); }
};

/** The skill's folder, opened, and shown to be the one listed: its SKILL.md (opened below
    it) has the device and inode `expected` when given. A folder replaced since (by a link
    to another place, or another folder) is refused: its files are not the skill's.
*/
inline open_folder open_skill_folder(std::string const& dir, file_id const* expected, std::string& error)
{
    open_folder out;
    out.fd = unique_fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    struct stat st {};
    if (!out.fd || ::fstat(out.fd.get(), &st) != 0) {
        error = "cannot open " + dir;
        return {};
    }
    out.id = id_of(st);
    out.path = skillmd::detail::path_of_descriptor(out.fd.get());
    if (expected && expected->second != 0) {
        unique_fd const f(skillmd::detail::open_beneath_following(out.fd.get(), out.path, "SKILL.md", O_PATH));
        struct stat skill {};
        if (!f || ::fstat(f.get(), &skill) != 0 || id_of(skill) != *expected) {
            error = "the skill's folder is not the one listed (it changed since; list the skills again)";
            return {};
        }
    }
    return out;
}

/// The names in the folder `rel` ("" for the root) below `root`, sorted, into `names`;
/// false with `out.error` set when it cannot be listed.
inline bool names_below(int root, std::string const& root_path, std::string const& rel, std::vector<std::string>& names,
                        skill_listing& out)
{
    // A descriptor of its own (not a dup, which would share the root's read position).
    unique_fd dirfd(rel.empty() ? ::openat(root, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                                : skillmd::detail::open_beneath_following(root, root_path, rel, O_RDONLY | O_DIRECTORY));
    if (!dirfd) {
        out.error = "cannot open the folder " + (rel.empty() ? std::string(".") : rel);
        return false;
    }
    DIR* d = ::fdopendir(dirfd.get());
    if (d == nullptr) {
        out.error = "cannot list the folder " + (rel.empty() ? std::string(".") : rel);
        return false;
    }
    (void)dirfd.release(); // the DIR owns it now
    while (dirent* e = ::readdir(d)) {
        std::string_view const n = e->d_name;
        if (n != "." && n != "..") names.emplace_back(n);
    }
    ::closedir(d);
    std::sort(names.begin(), names.end());
    return true;
}

/// Lists the folder `rel` ("" for the root) below `root` into `out`; false with `error`
/// set when the listing cannot be complete.
inline bool list_below(int root, std::string const& root_path, std::string const& rel, std::size_t depth,
                       std::vector<file_id>& above, std::size_t& folders, skill_listing& out)
{
    if (++folders > max_skill_files) {
        out.error = "more than " + std::to_string(max_skill_files) + " folders";
        return false;
    }
    std::vector<std::string> names;
    if (!names_below(root, root_path, rel, names, out)) return false;
    for (auto const& n : names) {
        std::string const path = rel.empty() ? n : rel + "/" + n;
        if (n == ".git") {
            out.excluded.push_back(path + ": version control data, never part of a skill");
            continue;
        }
        // What the entry is, resolved below the root: a link that leaves fails here.
        unique_fd const f(skillmd::detail::open_beneath_following(root, root_path, path, O_PATH));
        struct stat st {};
        if (!f || ::fstat(f.get(), &st) != 0) {
            if (errno == ENOENT) continue; // gone since the listing
            out.excluded.push_back(path + ": a link that leaves the skill's folder, not part of it");
            continue;
        }
        if (S_ISREG(st.st_mode)) {
            if (out.files.size() >= max_skill_files) {
                out.error = "more than " + std::to_string(max_skill_files) + " files";
                return false;
            }
            out.files.push_back({path, static_cast<std::uint64_t>(st.st_size)});
        } else if (S_ISDIR(st.st_mode)) {
            if (std::find(above.begin(), above.end(), id_of(st)) != above.end()) {
                out.excluded.push_back(path + ": a link back to a folder above it");
                continue;
            }
            if (depth + 1 > max_skill_depth) {
                out.error = "a folder deeper than " + std::to_string(max_skill_depth) + " levels (" + path + ")";
                return false;
            }
            above.push_back(id_of(st));
            bool const listed = list_below(root, root_path, path, depth + 1, above, folders, out);
            above.pop_back();
            if (!listed) return false;
        } else {
            out.excluded.push_back(path + ": not a regular file (a FIFO, a socket or a device), not part of the skill");
        }
    }
    return true;
}

/// Reads the regular file `rel` below `root` (contained), at most `limit` bytes.
inline std::optional<std::string> read_below(int root, std::string const& root_path, std::string const& rel, std::uint64_t limit,
                                             std::string& error)
{
    unique_fd const fd(skillmd::detail::open_beneath_following(root, root_path, rel, O_RDONLY | O_NONBLOCK));
    if (!fd) {
        error = errno == EXDEV || errno == ELOOP ? rel + " leads outside the skill's folder" : "cannot open " + rel;
        return std::nullopt;
    }
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode)) {
        error = rel + " is not a regular file";
        return std::nullopt;
    }
    if (static_cast<std::uint64_t>(st.st_size) > limit) {
        error = rel + " is larger than " + std::to_string(limit) + " bytes";
        return std::nullopt;
    }
    std::string out(static_cast<std::size_t>(st.st_size), '\0');
    std::size_t got = 0;
    while (got < out.size()) {
        ssize_t const n = ::read(fd.get(), out.data() + got, out.size() - got);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            error = "cannot read " + rel;
            return std::nullopt;
        }
        if (n == 0) break;
        got += static_cast<std::size_t>(n);
    }
    out.resize(got);
    return out;
}

} // namespace detail

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
