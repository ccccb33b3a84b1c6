// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_MCP_DIGEST_HPP
#define SKILLMD_MCP_DIGEST_HPP

// Content digests of skills, from the bytes on disk when they are asked for: SHA-256 of
// each file (OpenSSL's libcrypto, not a hand-written hash), the file manifest the MCP
// Skills extension publishes (`sha256:{hex}` and size per file), and the skill digest of
// the Agent Skills discovery RFC (SHA-256 over the sorted `{path}\0{hex}\n` lines).
// Link skillmd::mcp (OpenSSL::Crypto).

#include <skillmd/detail/read_file.hpp>

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
    static constexpr char hex[] = "0123456789abcdef";
    std::string out(64, '0');
    for (unsigned i = 0; i < 32; ++i) {
        out[2 * i] = hex[md[i] >> 4];
        out[2 * i + 1] = hex[md[i] & 15];
    }
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

namespace detail {

/// Reads a regular file that must lie inside `root_real` (a resolved path): the link
/// chain is resolved first, the final component is opened without following links, and
/// the opened file must be the one resolved. At most `limit` bytes.
inline std::optional<std::string> read_inside(std::string const& path, std::string const& root_real, std::uint64_t limit,
                                              std::string& error)
{
    std::string const real = skillmd::detail::real_path(path);
    if (real.empty()) {
        error = "cannot resolve " + path;
        return std::nullopt;
    }
    if (real != root_real && !(real.size() > root_real.size() && real.starts_with(root_real) && real[root_real.size()] == '/')) {
        error = path + " leads outside the skill's folder";
        return std::nullopt;
    }
    int const fd = ::open(real.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        error = "cannot open " + path;
        return std::nullopt;
    }
    struct closer { int fd; ~closer() { ::close(fd); } } const close_fd{fd};
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        error = path + " is not a regular file";
        return std::nullopt;
    }
    if (static_cast<std::uint64_t>(st.st_size) > limit) {
        error = path + " is larger than " + std::to_string(limit) + " bytes";
        return std::nullopt;
    }
    std::string out(static_cast<std::size_t>(st.st_size), '\0');
    std::size_t got = 0;
    while (got < out.size()) {
        ssize_t const n = ::read(fd, out.data() + got, out.size() - got);
        if (n < 0) {
            error = "cannot read " + path;
            return std::nullopt;
        }
        if (n == 0) break;
        got += static_cast<std::size_t>(n);
    }
    out.resize(got);
    return out;
}

/// A folder's device and inode.
using folder_id = std::pair<std::uint64_t, std::uint64_t>;
inline folder_id folder_of(struct stat const& st)
{
    return {static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino)};
}

/// Where list_files() is: the folders on the way down (`above`) and how many it listed.
struct listing_walk
{
    std::vector<folder_id> above;
    std::size_t folders = 0;
};

/// The regular files below `dir` (relative paths), links followed only where they stay
/// inside `root_real` (a file reached by two paths is listed under both); stops with an
/// error past `max_skill_files` files or folders. A link back to a folder on the way down
/// (`loop -> .`) is not followed: three of them listed the skill again at every level,
/// 3^16 times, with no file to reach the limit.
inline bool list_files(std::string const& dir, std::string const& prefix, std::string const& root_real, std::size_t depth,
                       listing_walk& walk, std::vector<std::string>& out, std::string& error)
{
    if (++walk.folders > max_skill_files) {
        error = "more than " + std::to_string(max_skill_files) + " folders";
        return false;
    }
    DIR* d = ::opendir(dir.c_str());
    if (d == nullptr) return true;
    std::vector<std::string> names;
    while (dirent* e = ::readdir(d)) {
        std::string_view const n = e->d_name;
        if (n != "." && n != "..") names.emplace_back(n);
    }
    ::closedir(d);
    std::sort(names.begin(), names.end());
    for (auto const& n : names) {
        std::string const full = dir + "/" + n;
        std::string const real = skillmd::detail::real_path(full);
        if (real.empty() || !(real.size() > root_real.size() && real.starts_with(root_real) && real[root_real.size()] == '/'))
            continue; // a link out of the skill is not part of it
        struct stat st {};
        if (::stat(real.c_str(), &st) != 0) continue;
        if (S_ISREG(st.st_mode)) {
            if (out.size() >= max_skill_files) {
                error = "more than " + std::to_string(max_skill_files) + " files";
                return false;
            }
            out.push_back(prefix + n);
        } else if (S_ISDIR(st.st_mode) && depth < 16 && n != ".git") {
            folder_id const id = folder_of(st);
            if (std::find(walk.above.begin(), walk.above.end(), id) != walk.above.end()) continue;
            walk.above.push_back(id);
            bool const listed = list_files(full, prefix + n + "/", root_real, depth + 1, walk, out, error);
            walk.above.pop_back();
            if (!listed) return false;
        }
    }
    return true;
}

} // namespace detail

/** The manifest of the skill in folder `dir`: every regular file below it (nested skills'
    files too, as the extension asks), digested from the bytes read now. Links that leave
    the folder are not followed, nor links back to a folder above them. Over 512 files,
    512 folders listed or 16 MiB, or with a file that cannot be read, the manifest says
    so in `error`.
*/
inline skill_manifest manifest_of(std::string const& dir)
{
    skill_manifest m;
    std::string const root = skillmd::detail::real_path(dir);
    if (root.empty()) {
        m.error = "cannot resolve " + dir;
        return m;
    }
    std::vector<std::string> paths;
    detail::listing_walk walk;
    if (struct stat st {}; ::stat(root.c_str(), &st) == 0)
        walk.above.push_back(detail::folder_of(st));
    if (!detail::list_files(root, "", root, 0, walk, paths, m.error)) return m;
    std::uint64_t total = 0;
    for (auto const& p : paths) {
        std::string error;
        auto bytes = detail::read_inside(root + "/" + p, root, max_skill_bytes - total, error);
        if (!bytes) {
            m.error = error;
            return m;
        }
        total += bytes->size();
        m.files.push_back({p, sha256_hex(*bytes), bytes->size()});
        if (p == "SKILL.md") m.skill_md = std::move(*bytes);
    }
    if (std::none_of(m.files.begin(), m.files.end(), [](auto const& f) { return f.path == "SKILL.md"; }))
        m.error = "no SKILL.md in " + dir;
    return m;
}

} // namespace skillmd::mcp

#endif
