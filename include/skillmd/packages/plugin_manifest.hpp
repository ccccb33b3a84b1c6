// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_PACKAGES_PLUGIN_MANIFEST_HPP
#define SKILLMD_PACKAGES_PLUGIN_MANIFEST_HPP

// plugin.json of an Agent Plugins v1.0.0 package, checked against its closed schema as
// the specification grades faults: a missing or wrong `$schema`, `name`, or a field of
// the wrong type rejects the plugin; an unknown top-level field, or `extensions` that is
// not an object, is reported and ignored. Skills are `skills/<name>/SKILL.md`, one level
// deep; plugin.json cannot point anywhere else.

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace skillmd::packages {

inline constexpr std::string_view plugin_schema_1_0_0 = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json";

struct plugin_manifest
{
    std::string name;
    std::string version;
    std::string description;
    std::vector<std::string> warnings; ///< faults the specification says to report and ignore
};

/// True for a plugin name: 1 to 64 of `a-z`, `0-9`, `-` and `.`, alphanumeric at both
/// ends, no `--` and no `..`.
inline bool is_plugin_name(std::string_view n) noexcept
{
    auto const alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
    if (n.empty() || n.size() > 64 || !alnum(n.front()) || !alnum(n.back())) return false;
    for (char const c : n)
        if (!alnum(c) && c != '-' && c != '.') return false;
    return n.find("--") == std::string_view::npos && n.find("..") == std::string_view::npos;
}

/// Checks plugin.json's text; nothing, and `why`, when the plugin must be rejected.
inline std::optional<plugin_manifest> check_plugin_manifest(std::string_view text, std::string& why)
{
    boost::system::error_code ec;
    auto const v = boost::json::parse(text, ec);
    if (ec || !v.is_object()) {
        why = "plugin.json is not a JSON object" + (ec ? ": " + ec.message() : std::string());
        return std::nullopt;
    }
    auto const& o = v.as_object();
    plugin_manifest m;
    auto const* schema = o.if_contains("$schema");
    if (!schema || !schema->is_string()) {
        why = "plugin.json has no \"$schema\"";
        return std::nullopt;
    }
    if (schema->as_string() != plugin_schema_1_0_0) {
        why = "plugin.json's \"$schema\" is not Agent Plugins 1.0.0 (" + std::string(plugin_schema_1_0_0) + ")";
        return std::nullopt;
    }
    auto const* name = o.if_contains("name");
    if (!name || !name->is_string() || !is_plugin_name(name->as_string())) {
        why = "plugin.json's \"name\" must be 1 to 64 of a-z, 0-9, '-' and '.', alphanumeric at both ends, without '--' or '..'";
        return std::nullopt;
    }
    m.name = std::string(name->as_string());
    for (auto const& [key, value] : o) {
        std::string const k(key);
        if (k == "$schema" || k == "name") continue;
        if (k == "version" || k == "description" || k == "homepage" || k == "repository" || k == "license") {
            if (!value.is_string()) {
                why = "plugin.json's \"" + k + "\" is not a string";
                return std::nullopt;
            }
            if (k == "version") m.version = std::string(value.as_string());
            if (k == "description") m.description = std::string(value.as_string());
        } else if (k == "author") {
            if (!value.is_object()) {
                why = "plugin.json's \"author\" is not an object";
                return std::nullopt;
            }
            for (auto const& [ak, av] : value.as_object())
                if ((ak != "name" && ak != "email" && ak != "url") || !av.is_string()) {
                    why = "plugin.json's \"author\" may hold only the strings \"name\", \"email\" and \"url\" (\"" + std::string(ak) + "\")";
                    return std::nullopt;
                }
        } else if (k == "keywords") {
            bool ok = value.is_array();
            if (ok)
                for (auto const& x : value.as_array()) ok = ok && x.is_string();
            if (!ok) {
                why = "plugin.json's \"keywords\" is not an array of strings";
                return std::nullopt;
            }
        } else if (k == "extensions") {
            if (!value.is_object()) {
                m.warnings.push_back("plugin.json's \"extensions\" is not an object: ignored");
                continue;
            }
            for (auto const& [ns, ext] : value.as_object())
                if (!ext.is_object()) m.warnings.push_back("plugin.json's extension \"" + std::string(ns) + "\" is not an object: ignored");
        } else {
            m.warnings.push_back("plugin.json has the unknown field \"" + k + "\": ignored");
        }
    }
    return m;
}

/// plugin.json for a package skillmd packs: the schema, the name, and what is given.
inline std::string plugin_manifest_json(std::string_view name, std::string_view version, std::string_view description)
{
    boost::json::object o{{"$schema", plugin_schema_1_0_0}, {"name", name}};
    if (!version.empty()) o["version"] = version;
    if (!description.empty()) o["description"] = description;
    return boost::json::serialize(o) + "\n";
}

} // namespace skillmd::packages

#endif
