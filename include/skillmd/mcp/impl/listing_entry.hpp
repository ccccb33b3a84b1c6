// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_MCP_IMPL_LISTING_ENTRY_HPP
#define SKILLMD_MCP_IMPL_LISTING_ENTRY_HPP

// How mcp::source (mcp/source.hpp) reads one entry of `skills/list`: its URIs, digests,
// sizes and frontmatter checked, or the reason it is refused.

#include <skillmd/mcp/published_skill.hpp>
#include <skillmd/mcp/skill_listing.hpp>
#include <skillmd/mcp/uri.hpp>
#include <skillmd/detail/hex.hpp>

#include <boost/json/value.hpp>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace skillmd::mcp {

namespace detail {

inline std::nullopt_t refuse(std::string& why, std::string message)
{
    why = std::move(message);
    return std::nullopt;
}

/// A `sha256:` digest with 64 lowercase hexadecimal digits: the digits, else "".
inline std::string digest_hex(boost::json::value const* v)
{
    if (v == nullptr || !v->is_string()) return {};
    std::string_view const s = v->as_string();
    if (s.size() != 71 || !s.starts_with("sha256:")) return {};
    std::string_view const hex = s.substr(7);
    if (hex.find_first_not_of(skillmd::detail::hex_lower) != std::string_view::npos) return {};
    return std::string(hex);
}

/// A skill entry of `skills/list`, checked: the skill, or why it is refused.
inline std::optional<published_skill> read_entry(boost::json::value const& v, std::string& why)
{
    auto const* o = v.if_object();
    auto const* uri = o ? o->if_contains("uri") : nullptr;
    if (uri == nullptr || !uri->is_string()) return refuse(why, "an entry without a `uri`");
    auto const target = parse_skill_uri(uri->as_string());
    constexpr std::string_view skill_md = "/SKILL.md";
    if (!target || !target->path.ends_with(skill_md) || target->path.size() == skill_md.size())
        return refuse(why, "an entry whose `uri` is not a canonical skill://<path>/SKILL.md");
    published_skill s;
    s.path = target->path.substr(0, target->path.size() - skill_md.size());
    s.uri = skill_uri(s.path, "SKILL.md");
    if (s.uri != uri->as_string()) return refuse(why, "an entry whose `uri` is not canonical");
    auto const* fm = o->if_contains("frontmatter");
    if (fm == nullptr || !fm->is_object()) return refuse(why, s.uri + ": no `frontmatter` object");
    auto const* name = fm->as_object().if_contains("name");
    auto const* description = fm->as_object().if_contains("description");
    std::string_view const last = std::string_view(s.path).substr(s.path.rfind('/') == std::string::npos ? 0 : s.path.rfind('/') + 1);
    if (name == nullptr || !name->is_string() || name->as_string() != last || description == nullptr)
        return refuse(why, s.uri + ": its frontmatter's `name` is not its last path segment, or it has no `description`");
    s.frontmatter = fm->as_object();
    auto const* res = o->if_contains("resources");
    if (res && res->is_string() && res->as_string() == "dynamic")
        return refuse(why, s.uri + ": its content is dynamic, so nothing it sends can be verified; not loaded");
    if (res == nullptr || !res->is_array()) return refuse(why, s.uri + ": no `resources` list");
    if (res->as_array().size() > max_skill_files)
        return refuse(why, s.uri + ": more than " + std::to_string(max_skill_files) + " files");
    std::uint64_t total = 0;
    std::string const prefix = s.path + "/";
    for (auto const& r : res->as_array()) {
        auto const* ro = r.if_object();
        auto const* ru = ro ? ro->if_contains("uri") : nullptr;
        auto const* size = ro ? ro->if_contains("size") : nullptr;
        std::string const hex = digest_hex(ro ? ro->if_contains("digest") : nullptr);
        auto const file = ru && ru->is_string() ? parse_skill_uri(ru->as_string()) : std::nullopt;
        if (!file || !file->path.starts_with(prefix) || hex.empty() || size == nullptr || !(size->is_uint64() || size->is_int64()) ||
            (size->is_int64() && size->as_int64() < 0))
            return refuse(why, s.uri + ": a resource without a canonical `uri` inside the skill, a sha256 `digest` and a `size`");
        std::uint64_t const n = size->is_uint64() ? size->as_uint64() : static_cast<std::uint64_t>(size->as_int64());
        total += std::min<std::uint64_t>(n, max_skill_bytes + 1);
        if (total > max_skill_bytes)
            return refuse(why, s.uri + ": more than " + std::to_string(max_skill_bytes) + " bytes in its files");
        published_file f{std::string(ru->as_string()), file->path.substr(prefix.size()), hex, n};
        if (f.uri != skill_uri(s.path, f.path)) return refuse(why, s.uri + ": a resource `uri` that is not canonical");
        if (std::any_of(s.files.begin(), s.files.end(), [&](auto const& g) { return g.path == f.path; }))
            return refuse(why, s.uri + ": a file listed twice");
        s.files.push_back(std::move(f));
    }
    auto const md = std::find_if(s.files.begin(), s.files.end(), [](auto const& f) { return f.path == "SKILL.md"; });
    if (md == s.files.end()) return refuse(why, s.uri + ": SKILL.md is not among its resources");
    std::rotate(s.files.begin(), md, md + 1);
    return s;
}

} // namespace detail

} // namespace skillmd::mcp

#endif
