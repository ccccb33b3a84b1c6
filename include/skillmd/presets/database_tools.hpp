// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_PRESETS_DATABASE_TOOLS_HPP
#define SKILLMD_PRESETS_DATABASE_TOOLS_HPP

// koshi's tools (create, update, delete, list, load; Active Skills by trigger phrase)
// over any system whose tier 0 is files and tier 1 a database: the koshi preset
// (SQLite) and the fleet preset (PostgreSQL). No database here.

#include <skillmd/invoke/content.hpp>
#include <skillmd/invoke/tool_calls.hpp>
#include <skillmd/validation/read_skill.hpp>
#include <skillmd/presets/systems.hpp>
#include <skillmd/storage/db_skill.hpp>
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

/// `~/.config/koshi/skills` ($XDG_CONFIG_HOME honoured), or the `user` override.
inline std::filesystem::path koshi_skills_dir(locations const& at)
{
    if (auto const it = at.overrides.find("user"); it != at.overrides.end()) return it->second;
    char const* xdg = std::getenv("XDG_CONFIG_HOME");
    std::filesystem::path const base = xdg && *xdg && at.home.empty() ? std::filesystem::path(xdg) : at.home_dir() / ".config";
    return base / "koshi" / "skills";
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

/// koshi's tools over a system whose tier 1 is a database (koshi, fleet): each refreshes
/// first (so a file skill added since is seen), writes, and refreshes again so the
/// registry holds the result.
template <class System>
db_outcome create_skill(System& reg, db_skill const& s)
{
    reg.refresh();
    auto r = reg.template source<1>().create(s, koshi_validator(), file_skills_of(reg.snapshot()));
    if (r.ok()) reg.refresh();
    return r;
}
template <class System>
db_outcome update_skill(System& reg, std::string_view name, db_update const& u)
{
    reg.refresh();
    auto r = reg.template source<1>().update(name, u, koshi_validator(), file_skills_of(reg.snapshot()));
    if (r.ok()) reg.refresh();
    return r;
}
template <class System>
db_outcome delete_skill(System& reg, std::string_view name)
{
    reg.refresh();
    auto r = reg.template source<1>().remove(name, file_skills_of(reg.snapshot()));
    if (r.ok()) reg.refresh();
    return r;
}

/// koshi's `list_skills` result: every skill with its metadata and source, no bodies.
inline boost::json::array list_skills_json(snapshot const& snap)
{
    boost::json::array rows;
    for (auto const& r : snap.skills())
        rows.emplace_back(boost::json::object{{"name", r.command.view()}, {"description", r.meta.description.view()},
                                              {"triggers", to_json(triggers_of(r.meta))},
                                              {"tools", to_json(to_owned(r.meta.allowed_tools))},
                                              {"source", r.where.database ? "database" : "file"}});
    return rows;
}

/** A model's tool call routed to koshi: `load_skill` loads (the model's invocation), the
    database tools create, update, delete and list (koshi's tools). The result is what
    the model gets back, as JSON: `{"ok": true, ...}` or `{"ok": false, "error", "message"}`.
    A malformed call is `{"ok": false, "error": "bad_tool_call"}`; nothing throws.
*/
template <class System>
boost::json::object call_tool(System& agent, std::string_view json)
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
        boost::json::object o{{"ok", r.ok()}};
        if (!r.ok()) {
            o["error"] = db_status_name(r.status);
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
        return report(update_skill(agent, call.skill, db_update{call.description, call.triggers, call.content, {}}));
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
    cannot be loaded are named under `## Skill Hint` instead. `idx`: an index of one of
    `reg`'s snapshots.
*/
template <class Registry>
std::string active_skills_for(Registry const& reg, std::string_view message, trigger_index const& idx)
{
    std::vector<loaded_skill> active;
    std::vector<std::string> hint;
    for (auto const* r : idx.match(message)) {
        if (auto body = reg.body(*r)) {
            loaded_skill s;
            s.command = r->command;
            s.name = r->meta.name.str();
            s.body = *body;
            s.content = std::move(*body);
            active.push_back(std::move(s));
        } else {
            hint.push_back(r->command.str());
        }
    }
    content_formats::koshi const fmt;
    std::string out = fmt.active_skills(active);
    if (!hint.empty()) out += (out.empty() ? "" : "\n") + fmt.skill_hint(hint);
    return out;
}

/// The same for the current snapshot: a system's index (derived from the last one it
/// made), a registry's made anew (a one-off).
template <class Registry>
std::string active_skills_for(Registry const& reg, std::string_view message)
{
    if constexpr (requires { reg.triggers(); }) return active_skills_for(reg, message, *reg.triggers());
    else return active_skills_for(reg, message, trigger_index(reg.snapshot()));
}

/// The same, with an index derived from the one `indexes` made for the last snapshot it was
/// asked about (what an agent keeps between messages: one refresh's changes cost their skills).
template <class Registry>
std::string active_skills_for(Registry const& reg, std::string_view message, trigger_indexes& indexes)
{
    return active_skills_for(reg, message, *indexes.of(reg.snapshot()));
}

} // namespace skillmd::presets

#endif
