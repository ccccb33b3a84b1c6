// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_MCP_URI_HPP
#define SKILLMD_MCP_URI_HPP

// `skill://<skill-path>/<file-path>` URIs of the MCP Skills extension: made with every
// byte outside the unreserved set percent-encoded, and read back strictly. A URI that
// is not canonical (an empty, `.` or `..` segment, a `%2F` or `%00` inside a segment, a
// query or fragment, a backslash, bad percent-encoding) is refused, so no spelling of a
// path can reach a file the plain spelling cannot.

#include <skillmd/mcp/impl/uri_encoding.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace skillmd::mcp {

/// True for a path of one or more segments, none empty, `.` or `..`, with no NUL or `\`.
inline bool valid_skill_path(std::string_view p) noexcept
{
    if (p.empty()) return false;
    std::size_t b = 0;
    while (true) {
        std::size_t const e = p.find('/', b);
        std::string_view const seg = p.substr(b, e == std::string_view::npos ? std::string_view::npos : e - b);
        if (seg.empty() || seg == "." || seg == ".." || seg.find('\0') != std::string_view::npos ||
            seg.find('\\') != std::string_view::npos)
            return false;
        if (e == std::string_view::npos) return true;
        b = e + 1;
    }
}

/// `skill://` + the skill's path + `/` + the file's path, each segment percent-encoded.
inline std::string skill_uri(std::string_view skill_path, std::string_view file)
{
    std::string out = "skill://";
    std::string_view const parts[] = {skill_path, file};
    bool first = true;
    for (auto part : parts) {
        std::size_t b = 0;
        while (b <= part.size() && !part.empty()) {
            std::size_t const e = part.find('/', b);
            if (!first) out += '/';
            first = false;
            detail::encode_segment(out, part.substr(b, e == std::string_view::npos ? std::string_view::npos : e - b));
            if (e == std::string_view::npos) break;
            b = e + 1;
        }
    }
    return out;
}

/// What a URI names: the decoded path below `skill://` (skill path and file together).
struct skill_target
{
    std::string path;
};

/// The decoded path of a canonical `skill://` URI, or nothing.
inline std::optional<skill_target> parse_skill_uri(std::string_view uri)
{
    constexpr std::string_view scheme = "skill://";
    if (uri.size() > 4096 || !uri.starts_with(scheme)) return std::nullopt;
    std::string_view rest = uri.substr(scheme.size());
    if (rest.find_first_of("?#\\") != std::string_view::npos) return std::nullopt;
    skill_target t;
    std::size_t b = 0;
    while (true) {
        std::size_t const e = rest.find('/', b);
        std::string_view const raw = rest.substr(b, e == std::string_view::npos ? std::string_view::npos : e - b);
        std::string seg;
        for (std::size_t i = 0; i < raw.size(); ++i) {
            if (raw[i] != '%') {
                seg += raw[i];
                continue;
            }
            if (i + 2 >= raw.size()) return std::nullopt; // `%` needs two hexadecimal digits
            int const hi = detail::hex_value(raw[i + 1]), lo = detail::hex_value(raw[i + 2]);
            if (hi < 0 || lo < 0) return std::nullopt;
            char const c = static_cast<char>(hi * 16 + lo);
            if (c == '/' || c == '\0' || c == '\\') return std::nullopt; // a separator hidden in a segment
            seg += c;
            i += 2;
        }
        if (seg.empty() || seg == "." || seg == "..") return std::nullopt;
        if (!t.path.empty()) t.path += '/';
        t.path += seg;
        if (e == std::string_view::npos) break;
        b = e + 1;
    }
    return t;
}

} // namespace skillmd::mcp

#endif
