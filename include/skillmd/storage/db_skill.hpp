// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_STORAGE_DB_SKILL_HPP
#define SKILLMD_STORAGE_DB_SKILL_HPP

// Agent-created skills as the database tiers keep them (SQLite for one machine,
// PostgreSQL for a fleet): the row, a partial update, the outcome of a write, and the
// SKILL.md text a row stands for, which goes through the same parser and validation as
// a file. No database here.

#include <skillmd/detail/json.hpp>
#include <skillmd/model/diagnostic.hpp>
#include <skillmd/storage/impl/triggers_json.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace skillmd {

/// One row of the `skills` table.
struct db_skill
{
    std::string name;
    std::string description;
    std::vector<std::string> triggers;
    std::string content; ///< the Markdown body (no frontmatter)
    std::string created_at, updated_at;
    std::int64_t revision = 0; ///< the store's change counter at the last write of this row
    /// What a listing measured of the row's name, description and triggers, in bytes; a
    /// listing leaves out the text of a row over its bound (`description`, `triggers` empty).
    std::uint64_t head_bytes = 0;
};

/// A partial update: only the fields given change (koshi).
struct db_update
{
    std::optional<std::string> description;
    std::optional<std::vector<std::string>> triggers;
    std::optional<std::string> content;
    /// Change the row only if it is still at this revision (the one the writer read):
    /// otherwise `conflict`, and nothing is lost to a concurrent writer.
    std::optional<std::int64_t> revision;
};

enum class db_status : std::uint8_t {
    ok,
    invalid,    ///< the skill fails validation (diagnostics say why)
    exists,     ///< create: a database skill of that name exists
    file_skill, ///< a file skill of that name exists: files are not changed through the database
    not_found,  ///< update / delete: no database skill of that name
    error,      ///< the database failed (busy past the timeout, I/O, corrupt, read-only, unreachable)
    conflict,   ///< update: the row changed since the revision the writer read; re-read it
};

/// The outcome's status as the tools' results name it.
inline std::string_view db_status_name(db_status s) noexcept
{
    static constexpr std::string_view names[] = {"ok", "invalid", "exists", "file_skill", "not_found", "error", "conflict"};
    return names[static_cast<std::size_t>(s)];
}

struct db_outcome
{
    db_status status = db_status::ok;
    std::string message;
    std::vector<diagnostic> diagnostics;
    bool ok() const noexcept { return status == db_status::ok; }
};

/// Checks an agent-written skill as a file skill would be checked: diagnostics for the
/// SKILL.md text a row stands for (see `db_skill_text`).
using skill_validator = std::function<std::vector<diagnostic>(std::string const& text, std::string const& origin)>;
/// True when a file skill of that name exists (files win, and are never changed here).
using file_skill_check = std::function<bool(std::string_view name)>;

/// The SKILL.md a row stands for: name, description and triggers as JSON-style quoted
/// YAML scalars (so no value can break the block), then the content.
inline std::string db_skill_text(std::string_view name, std::string_view description,
                                 std::vector<std::string> const& triggers, std::string_view content)
{
    std::string t = "---\nname: ";
    detail::json_quote(t, name);
    t += "\ndescription: ";
    detail::json_quote(t, description);
    t += "\ntriggers: [";
    for (std::size_t i = 0; i < triggers.size(); ++i) {
        if (i) t += ", ";
        detail::json_quote(t, triggers[i]);
    }
    t += "]\n---\n";
    t += content;
    return t;
}

/// Applies `u` to `current`, the row as its writer read it under the row's lock:
/// `conflict` when `u.revision` is not the row's, else `check`'s verdict on the result.
inline db_outcome apply_update(db_skill& current, db_update const& u, std::function<db_outcome(db_skill const&)> const& check)
{
    if (u.revision && *u.revision != current.revision) {
        std::string m = "'";
        m.append(current.name).append("' changed since revision ").append(std::to_string(*u.revision));
        m.append(" (it is at ").append(std::to_string(current.revision)).append("); read it again");
        return {db_status::conflict, std::move(m), {}};
    }
    if (u.description) current.description = *u.description;
    if (u.triggers) current.triggers = *u.triggers;
    if (u.content) current.content = *u.content;
    return check ? check(current) : db_outcome{};
}

/// Validates `s` with `validate` (when given): `invalid` with the first error, else ok
/// with the warnings. `origin` names the row in diagnostics.
inline db_outcome check_db_skill(db_skill const& s, skill_validator const& validate, std::string const& origin)
{
    if (!validate) return {};
    auto ds = validate(db_skill_text(s.name, s.description, s.triggers, s.content), origin);
    for (auto const& d : ds)
        if (d.severity == severity::error) return {db_status::invalid, "the skill is not valid: " + d.message, std::move(ds)};
    return {db_status::ok, "", std::move(ds)};
}

} // namespace skillmd

#endif
