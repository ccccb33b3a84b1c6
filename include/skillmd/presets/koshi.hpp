// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_PRESETS_KOSHI_HPP
#define SKILLMD_PRESETS_KOSHI_HPP

// koshi ("koshi"): `*.md` file skills in the user's config directory (seeded from the
// shipped skills on first start) plus agent-created skills in SQLite; a file wins a
// name collision; trigger phrases pull the full skill into an `## Active Skills`
// section. Needs `skillmd::sqlite`.

#include <skillmd/invoke/content.hpp>
#include <skillmd/impl/system.hpp> // its own system type: built here in every mode
#include <skillmd/presets/systems.hpp>
#include <skillmd/storage/seeding.hpp>
#include <skillmd/storage/sources/sqlite_source.hpp>
#include <skillmd/invoke/tool_calls.hpp>
#include <skillmd/triggers/trigger_index.hpp>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace skillmd::presets {

using koshi_registry = basic_registry<parser, files_win_over_database<first_tier_wins>, directory_source, sqlite_source>;
/// koshi (koshi, an agent's skill notes): a Markdown `## Available Skills` index (the
/// document sets no budget; the preset's policy adds one), `load_skill`, and Active Skills
/// pulled in by trigger phrases.
using koshi = basic_system<koshi_registry, index_formats::koshi, content_formats::koshi>;
inline constexpr char const* koshi_tiers[] = {"user", "db"};

/// `~/.config/koshi/skills` ($XDG_CONFIG_HOME honoured), or the `user` override.
inline std::filesystem::path koshi_skills_dir(locations const& at)
{
    if (auto const it = at.overrides.find("user"); it != at.overrides.end()) return it->second;
    char const* xdg = std::getenv("XDG_CONFIG_HOME");
    std::filesystem::path const base = xdg && *xdg && at.home.empty() ? std::filesystem::path(xdg) : at.home_dir() / ".config";
    return base / "koshi" / "skills";
}

/// `~/.local/share/koshi/skills.db` ($XDG_DATA_HOME honoured), or the `db` override.
inline std::filesystem::path koshi_database(locations const& at)
{
    if (auto const it = at.overrides.find("db"); it != at.overrides.end()) return it->second;
    char const* xdg = std::getenv("XDG_DATA_HOME");
    std::filesystem::path const base = xdg && *xdg && at.home.empty() ? std::filesystem::path(xdg) : at.home_dir() / ".local" / "share";
    return base / "koshi" / "skills.db";
}

/// Opens (creating if needed) the koshi database; on failure a null store and `error`.
inline std::shared_ptr<sqlite_store> open_koshi_database(locations const& at, std::string& error)
{
    auto const path = koshi_database(at);
    std::error_code ec;
    if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
    return sqlite_store::open(path.string(), error);
}

/** The koshi registry. When `shipped` is given and the skills directory does not exist
    yet, it is first created as a copy of `shipped` (seeding; `seeded` tells). A
    database that cannot be opened leaves the file skills working and is reported by
    the `db` tier's discovery.
*/
inline koshi make_koshi(locations const& at = {}, std::filesystem::path const& shipped = {},
                        validation_mode mode = validation_mode::lenient, std::vector<diagnostic>* seeded = nullptr)
{
    auto const dir = koshi_skills_dir(at);
    if (!shipped.empty()) {
        std::vector<diagnostic> ds;
        seed_directory(dir, shipped, ds);
        if (seeded) *seeded = std::move(ds);
    }
    std::string error;
    auto store = open_koshi_database(at, error);
    directory_options files;
    files.layout = layout::files;
    files = contained(at, {dir.string()}, files);
    return koshi(std::make_unique<koshi_registry>(options_for(dialects::koshi(), mode),
                                                  directory_source("user", dir.string(), files),
                                                  sqlite_source("db", std::move(store), error)),
                 settings_for(index_formats::policies::koshi(), skill_tool::load_skill));
}

/// Agent-written skills are checked like file skills, under koshi's rules, strictly.
inline skill_validator koshi_validator()
{
    return [](std::string const& text, std::string const& origin) {
        auto const d = dialects::koshi();
        auto const name_start = origin.rfind('#');
        std::string const name = name_start == std::string::npos ? std::string() : origin.substr(name_start + 1);
        return read_skill(parser{parse_options_for(d, validation_mode::strict)}, d, validation_mode::strict, text,
                          skill_origin{origin, name})
            .diagnostics;
    };
}

/// True for names a snapshot holds as file skills (winners or shadowed).
inline file_skill_check file_skills_of(std::shared_ptr<snapshot const> snap)
{
    return [snap](std::string_view name) {
        for (auto const* list : {&snap->skills(), &snap->shadowed()})
            for (auto const& r : *list)
                if (r.command == name && !r.where.database) return true;
        return false;
    };
}

/// koshi's tools over a koshi registry: each refreshes first (so a file skill added
/// since is seen), writes, and refreshes again so the registry holds the result.
inline db_outcome create_skill(koshi& reg, db_skill const& s)
{
    reg.refresh();
    auto r = reg.source<1>().create(s, koshi_validator(), file_skills_of(reg.snapshot()));
    if (r.ok()) reg.refresh();
    return r;
}
inline db_outcome update_skill(koshi& reg, std::string_view name, db_update const& u)
{
    reg.refresh();
    auto r = reg.source<1>().update(name, u, koshi_validator(), file_skills_of(reg.snapshot()));
    if (r.ok()) reg.refresh();
    return r;
}
inline db_outcome delete_skill(koshi& reg, std::string_view name)
{
    reg.refresh();
    auto r = reg.source<1>().remove(name, file_skills_of(reg.snapshot()));
    if (r.ok()) reg.refresh();
    return r;
}

/// koshi's `list_skills` result: every skill with its metadata and source, no bodies.
inline boost::json::array list_skills_json(snapshot const& snap)
{
    boost::json::array rows;
    for (auto const& r : snap.skills())
        rows.emplace_back(boost::json::object{{"name", r.command}, {"description", r.meta.description},
                                              {"triggers", to_json(triggers_of(r.meta))},
                                              {"tools", to_json(r.meta.allowed_tools)},
                                              {"source", r.where.database ? "database" : "file"}});
    return rows;
}

/** A model's tool call routed to koshi: `load_skill` loads (the model's invocation), the
    database tools create, update, delete and list (koshi's tools). The result is what
    the model gets back, as JSON: `{"ok": true, ...}` or `{"ok": false, "error", "message"}`.
    A malformed call is `{"ok": false, "error": "bad_tool_call"}`; nothing throws.
*/
inline boost::json::object call_tool(koshi& agent, std::string_view json)
{
    auto const parsed = parse_tool_call(json, skill_tool::load_skill);
    auto refuse = [](std::string_view error, std::string message) {
        return boost::json::object{{"ok", false}, {"error", error}, {"message", std::move(message)}};
    };
    if (!parsed.ok()) return refuse("bad_tool_call", parsed.error);
    auto const& call = *parsed.call;
    if (call.skill_kind) {
        if (*call.skill_kind != skill_tool::load_skill)
            return refuse("bad_tool_call", "this agent has no tool \"" + call.tool + "\"; its skill tool is load_skill");
        auto const inv = agent.invoke(call.skill, caller::model);
        auto out = tool_result_json(inv);
        out.emplace("ok", inv.status() != invoke_status::failed && inv.status() != invoke_status::denied);
        return out;
    }
    auto report = [](db_outcome const& r) {
        static constexpr std::string_view names[] = {"ok", "invalid", "exists", "file_skill", "not_found", "error"};
        boost::json::object o{{"ok", r.ok()}};
        if (!r.ok()) {
            o["error"] = names[static_cast<std::size_t>(r.status)];
            o["message"] = r.message;
            boost::json::array problems;
            for (auto const& d : r.diagnostics)
                if (d.severity == severity::error) problems.emplace_back(d.message);
            o["problems"] = std::move(problems);
        }
        return o;
    };
    switch (*call.db_kind) {
    case db_tool::create_skill:
        return report(create_skill(agent, db_skill{call.skill, *call.description, *call.triggers, *call.content, {}, {}, 0}));
    case db_tool::update_skill:
        return report(update_skill(agent, call.skill, db_update{call.description, call.triggers, call.content}));
    case db_tool::delete_skill: return report(delete_skill(agent, call.skill));
    case db_tool::list_skills: {
        agent.refresh();
        return boost::json::object{{"ok", true}, {"skills", list_skills_json(*agent.snapshot())}};
    }
    }
    return refuse("bad_tool_call", "unknown tool");
}

/** What koshi adds to the system prompt for one user message: the full content of
    every skill whose triggers match, under `## Active Skills`; skills that match but
    cannot be loaded are named under `## Skill Hint` instead.
*/
template <class Registry>
std::string active_skills_for(Registry const& reg, std::string_view message)
{
    auto const snap = reg.snapshot();
    trigger_index const idx(snap);
    std::vector<loaded_skill> active;
    std::vector<std::string> hint;
    for (auto const* r : idx.match(message)) {
        if (auto body = reg.body(*r)) {
            loaded_skill s;
            s.command = r->command;
            s.name = r->meta.name;
            s.body = *body;
            s.content = std::move(*body);
            active.push_back(std::move(s));
        } else {
            hint.push_back(r->command);
        }
    }
    content_formats::koshi const fmt;
    std::string out = fmt.active_skills(active);
    if (!hint.empty()) out += (out.empty() ? "" : "\n") + fmt.skill_hint(hint);
    return out;
}

} // namespace skillmd::presets

#endif
