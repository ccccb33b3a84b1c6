// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_PACKAGES_DISCOVERY_INDEX_HPP
#define SKILLMD_PACKAGES_DISCOVERY_INDEX_HPP

// The Agent Skills discovery index (schema 0.2.0): `/.well-known/agent-skills/index.json`
// lists skills, each a `skill-md` (one file) or an `archive` (.tar.gz or .zip with
// SKILL.md at its root), with the SHA-256 of the artifact's raw bytes. As the RFC says:
// an index without the 0.2.0 `$schema` is not read, an entry of an unknown type is
// skipped with a warning, and fields nobody defined are ignored. Entries that break the
// rules (a bad name, no URL, a digest that is not `sha256:` and 64 hexadecimal digits)
// are skipped with a warning too: one bad entry does not hide the others.

#include <skillmd/packages/lock_file.hpp>
#include <skillmd/validation/name_rules.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace skillmd::packages {

inline constexpr std::string_view discovery_schema_0_2_0 = "https://schemas.agentskills.io/discovery/0.2.0/schema.json";

struct index_entry
{
    std::string name;
    std::string type; ///< "skill-md" or "archive"
    std::string description;
    std::string url;     ///< as written: relative URLs resolve against the index's own URL
    std::string digest;  ///< `sha256:{hex}` of the artifact's bytes
    std::string version; ///< optional
};

struct discovery_index
{
    std::vector<index_entry> skills;
    std::vector<std::string> warnings;
    index_entry const* find(std::string_view name) const
    {
        for (auto const& e : skills)
            if (e.name == name) return &e;
        return nullptr;
    }
};

/// Reads an index; nothing, and `why`, when it is not a 0.2.0 index.
inline std::optional<discovery_index> parse_index(std::string_view text, std::string& why)
{
    boost::system::error_code ec;
    auto const v = boost::json::parse(text, ec);
    if (ec || !v.is_object()) {
        why = "the index is not a JSON object" + (ec ? ": " + ec.message() : std::string());
        return std::nullopt;
    }
    auto const& o = v.as_object();
    auto const* schema = o.if_contains("$schema");
    if (!schema || !schema->is_string() || schema->as_string() != discovery_schema_0_2_0) {
        why = "the index's \"$schema\" is not the discovery schema 0.2.0 (" + std::string(discovery_schema_0_2_0) + ")";
        return std::nullopt;
    }
    auto const* skills = o.if_contains("skills");
    if (!skills || !skills->is_array()) {
        why = "the index has no \"skills\" array";
        return std::nullopt;
    }
    discovery_index index;
    std::size_t n = 0;
    for (auto const& item : skills->as_array()) {
        ++n;
        std::string const where = "index entry " + std::to_string(n) + ": ";
        if (!item.is_object()) {
            index.warnings.push_back(where + "not an object: skipped");
            continue;
        }
        auto const& e = item.as_object();
        auto const text_of = [&](std::string_view key) -> std::optional<std::string> {
            auto const* x = e.if_contains(key);
            if (!x || !x->is_string()) return std::nullopt;
            return std::string(x->as_string());
        };
        index_entry entry;
        auto name = text_of("name"), type = text_of("type"), description = text_of("description"), url = text_of("url"),
             digest = text_of("digest");
        if (!name || !broken_name_rules(*name).empty()) {
            index.warnings.push_back(where + "no valid \"name\" (1 to 64 of a-z, 0-9 and '-'): skipped");
            continue;
        }
        std::string const named = "index entry \"" + *name + "\": ";
        if (!type || (*type != "skill-md" && *type != "archive")) {
            index.warnings.push_back(named + "a type skillmd does not know (" + (type ? *type : "none") + "): skipped");
            continue;
        }
        if (!description || description->empty() || description->size() > 1024) {
            index.warnings.push_back(named + "\"description\" must be 1 to 1024 characters: skipped");
            continue;
        }
        if (!url || url->empty()) {
            index.warnings.push_back(named + "no \"url\": skipped");
            continue;
        }
        if (!digest || !digest->starts_with("sha256:") || !detail::is_sha256_hex(std::string_view(*digest).substr(7))) {
            index.warnings.push_back(named + "\"digest\" is not sha256: and 64 lowercase hexadecimal digits: skipped");
            continue;
        }
        if (index.find(*name)) {
            index.warnings.push_back(named + "listed twice: the second is skipped");
            continue;
        }
        entry.name = std::move(*name);
        entry.type = std::move(*type);
        entry.description = std::move(*description);
        entry.url = std::move(*url);
        entry.digest = std::move(*digest);
        if (auto const* version = e.if_contains("version"); version && version->is_string()) entry.version = std::string(version->as_string());
        index.skills.push_back(std::move(entry));
    }
    return index;
}

/// An index as text, entries in the order given.
inline std::string to_json(discovery_index const& index)
{
    boost::json::array skills;
    for (auto const& e : index.skills) {
        boost::json::object o{{"name", e.name}, {"type", e.type}, {"description", e.description}, {"url", e.url}, {"digest", e.digest}};
        if (!e.version.empty()) o["version"] = e.version;
        skills.push_back(std::move(o));
    }
    return boost::json::serialize(boost::json::object{{"$schema", discovery_schema_0_2_0}, {"skills", std::move(skills)}}) + "\n";
}

} // namespace skillmd::packages

#endif
