// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_STORAGE_OVERRIDES_HPP
#define SKILLMD_STORAGE_OVERRIDES_HPP

// Operator overrides: skills turned on or off by name or by path, in layers (user
// settings, then project settings). The modes are Claude Code's `skillOverrides`:
// "on", "name-only", "user-invocable-only", "off". The registry applies them while it
// builds a snapshot, so an `off` skill is absent from everything that reads one (index,
// tool enum, slash commands, triggers, MCP), and the other modes change what the
// record allows. No X3; JSON through Boost.JSON.

#include <skillmd/config.hpp>
#include <skillmd/model/diagnostic.hpp>
#include <skillmd/detail/read_file.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace skillmd {

enum class override_mode : std::uint8_t {
    on,                  ///< as the skill itself says (undoes a lower layer's override)
    name_only,           ///< listed by name, without its description
    user_invocable_only, ///< the user may run it as `/name`; the model neither sees nor invokes it
    off,                 ///< absent everywhere
};

inline constexpr std::string_view to_string(override_mode m) noexcept
{
    switch (m) {
    case override_mode::on: return "on";
    case override_mode::name_only: return "name-only";
    case override_mode::user_invocable_only: return "user-invocable-only";
    case override_mode::off: return "off";
    }
    return "on";
}

inline std::optional<override_mode> override_mode_from(std::string_view s) noexcept
{
    for (auto m : {override_mode::on, override_mode::name_only, override_mode::user_invocable_only, override_mode::off})
        if (s == to_string(m)) return m;
    return std::nullopt;
}

/// One rule: a skill name, or a path (a skill folder or SKILL.md, or a folder above them).
struct override_rule
{
    std::string pattern; ///< a name, or an absolute path when `by_path`
    bool by_path = false;
    override_mode mode = override_mode::on;

    /// Whether the rule names the skill `command` (frontmatter `name`), whose SKILL.md is
    /// `file` (absolute and normal, see overrides::normal; "" for a database's skill).
    bool matches(std::string_view command, std::string_view name, std::string_view file) const noexcept
    {
        return by_path ? (!file.empty() && detail::within(file, pattern)) : (pattern == command || (!name.empty() && pattern == name));
    }
    bool operator==(override_rule const&) const = default;
};

/// The rules of one settings file.
struct override_layer
{
    std::string label;  ///< "user settings", "project settings", ...
    std::string origin; ///< the file the rules came from ("" when built in code)
    std::vector<override_rule> rules;
};

/// What the layers decide for one skill, and who decided it.
struct override_decision
{
    override_mode mode = override_mode::on;
    std::string layer;   ///< the deciding layer's label ("" when no rule matched)
    std::string origin;  ///< its file
    std::string pattern; ///< the rule that matched
    bool operator==(override_decision const&) const = default;
};

/** Layers of override rules, lowest precedence first.

    Precedence: a later layer beats an earlier one (add user settings, then project
    settings, so a project decides for itself); within a layer a path rule beats a name
    rule, of two path rules the deeper one wins, and of two as strong the later. `on` in
    a later layer undoes an earlier `off`. A name rule matches the skill's command or its
    name (the frontmatter `name`, where the dialect keeps it as the name; where `name:` is
    a label, as in Claude Code's, the folder names the skill); a path rule matches the
    skill's SKILL.md, its folder, or any folder above it.
*/
class overrides
{
public:
    overrides() = default;
    void add(override_layer layer) { layers_.push_back(std::move(layer)); }
    bool empty() const noexcept
    {
        for (auto const& l : layers_)
            if (!l.rules.empty()) return false;
        return true;
    }
    std::vector<override_layer> const& layers() const noexcept { return layers_; }

    override_decision decide(std::string_view command, std::string_view name, std::string_view path) const
    {
        override_decision out;
        std::string const file = path.empty() ? std::string() : normal(path);
        for (auto const& layer : layers_) {
            override_rule const* best = nullptr;
            for (auto const& r : layer.rules) {
                if (!r.matches(command, name, file)) continue;
                // Path over name, deeper path over shallower (both hold the file: the longer
                // is the deeper, a trailing `/` aside), else the later rule.
                if (!best || (r.by_path && !best->by_path) ||
                    (r.by_path == best->by_path && (!r.by_path || depth(r.pattern) >= depth(best->pattern))))
                    best = &r;
            }
            if (best) out = {best->mode, layer.label, layer.origin, best->pattern};
        }
        return out;
    }

    /// How deep a path rule's folder is, as its length without a trailing `/`.
    static std::size_t depth(std::string_view pattern) noexcept
    {
        while (pattern.size() > 1 && pattern.back() == '/') pattern.remove_suffix(1);
        return pattern.size();
    }

    /// Lexically absolute and normal: what path rules and skill paths are compared as.
    static std::string normal(std::string_view p)
    {
        // Already so (what a directory source gives): no allocation but the copy.
        if (plain_absolute(p)) {
            while (p.size() > 1 && p.back() == '/') p.remove_suffix(1);
            return std::string(p);
        }
        std::error_code ec;
        auto a = std::filesystem::absolute(std::filesystem::path(p), ec);
        if (ec) a = std::filesystem::path(p);
        auto s = a.lexically_normal().generic_string();
        while (s.size() > 1 && s.back() == '/') s.pop_back();
        return s;
    }

    /** The rules one of `before` and `after` has and the other has not, where they differ:
        a skill that none of them matches is decided alike by both. Per layer, the rules
        past the common head and before the common tail (a rule's place decides a tie);
        every rule of a layer whose label or file differs, or that one side lacks.
    */
    static std::vector<override_rule> changed_rules(overrides const& before, overrides const& after)
    {
        std::vector<override_rule> out;
        auto const& a = before.layers_;
        auto const& b = after.layers_;
        auto const all = [&](std::vector<override_rule> const& rules) { out.insert(out.end(), rules.begin(), rules.end()); };
        for (std::size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
            if (i >= a.size() || i >= b.size() || a[i].label != b[i].label || a[i].origin != b[i].origin) {
                if (i < a.size()) all(a[i].rules);
                if (i < b.size()) all(b[i].rules);
                continue;
            }
            auto const& x = a[i].rules;
            auto const& y = b[i].rules;
            std::size_t head = 0, tail = 0;
            while (head < x.size() && head < y.size() && x[head] == y[head]) ++head;
            while (tail < x.size() - head && tail < y.size() - head && x[x.size() - 1 - tail] == y[y.size() - 1 - tail]) ++tail;
            out.insert(out.end(), x.begin() + static_cast<std::ptrdiff_t>(head), x.end() - static_cast<std::ptrdiff_t>(tail));
            out.insert(out.end(), y.begin() + static_cast<std::ptrdiff_t>(head), y.end() - static_cast<std::ptrdiff_t>(tail));
        }
        return out;
    }

    /// Absolute, and neither `.`, `..` nor an empty part: lexically normal already (a
    /// trailing `/` aside).
    static bool plain_absolute(std::string_view p) noexcept
    {
        if (p.empty() || p.front() != '/') return false;
        for (std::size_t at = 0; at < p.size();) {
            std::size_t const end = std::min(p.find('/', at + 1), p.size());
            std::string_view const part = p.substr(at + 1, end - at - 1);
            if ((part.empty() && end != p.size() && at + 1 != p.size()) || part == "." || part == "..") return false;
            at = end;
        }
        return true;
    }

private:
    std::vector<override_layer> layers_;
};

/** Reads one settings file's rules: a JSON object whose `skillOverrides` member maps a
    name, or a path (a key holding `/`; relative keys are taken from `base`), to a mode.
    Other members are ignored (the file may be an agent's whole settings file). Problems
    come back as diagnostics on `origin`; a bad entry is skipped, never guessed.
*/
inline override_layer read_override_layer(std::string_view json, std::string label, std::string origin,
                                          std::filesystem::path const& base, std::vector<diagnostic>& out)
{
    override_layer layer{std::move(label), std::move(origin), {}};
    auto bad = [&](std::string msg) {
        out.push_back({std::string(codes::override_invalid), severity::error, layer.origin, 0, 0, std::move(msg)});
    };
    boost::system::error_code ec;
    boost::json::value const v = boost::json::parse(json, ec);
    if (ec) {
        bad("the settings are not valid JSON: " + ec.message());
        return layer;
    }
    if (!v.is_object()) {
        bad("the settings must be a JSON object");
        return layer;
    }
    auto const* m = v.as_object().if_contains("skillOverrides");
    if (!m) return layer;
    if (!m->is_object()) {
        bad("`skillOverrides` must map skill names or paths to \"on\", \"name-only\", \"user-invocable-only\" or \"off\"");
        return layer;
    }
    for (auto const& [key, val] : m->as_object()) {
        std::string_view const k(key.data(), key.size());
        auto const mode = val.is_string() ? override_mode_from(std::string_view(val.as_string())) : std::nullopt;
        if (k.empty() || !mode) {
            bad("`skillOverrides` entry `" + std::string(k) +
                "`: the mode must be \"on\", \"name-only\", \"user-invocable-only\" or \"off\"; the entry is ignored");
            continue;
        }
        override_rule r;
        r.mode = *mode;
        r.by_path = k.find('/') != std::string_view::npos;
        if (r.by_path) {
            std::filesystem::path p{std::string(k)};
            r.pattern = overrides::normal((p.is_absolute() ? p : base / p).string());
        } else {
            r.pattern = std::string(k);
        }
        layer.rules.push_back(std::move(r));
    }
    return layer;
}

} // namespace skillmd

#endif
