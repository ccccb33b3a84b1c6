// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_INVOKE_IMPL_INVOCATION_HPP
#define SKILLMD_INVOKE_IMPL_INVOCATION_HPP

// The steps of invoke and check_permission_rules (invoke/invocation.hpp): reading the
// request, finding the skill, the checks of format and caller, and the names a
// permission rule may use for a skill.

#include <skillmd/invoke/invocation_result.hpp>
#include <skillmd/invoke/arguments.hpp>
#include <skillmd/invoke/content.hpp>
#include <skillmd/detail/read_file.hpp>
#include <skillmd/detail/trim.hpp>
#include <skillmd/invoke/permissions.hpp>
#include <skillmd/storage/registry.hpp>
#include <skillmd/invoke/slash.hpp>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace skillmd {

namespace detail {

inline invocation fail(invocation inv, invoke_error e, std::string message)
{
    inv.error = e;
    inv.message = std::move(message);
    return inv;
}

inline std::string absolute_path(std::string_view p)
{
    if (p.empty() || p.front() == '/') return std::string(p);
    std::error_code ec;
    std::string out = (std::filesystem::current_path(ec) / p).lexically_normal().string();
    if (out.size() > 1 && out.back() == '/') out.pop_back(); // `cwd/.` is `cwd`, as getcwd() says
    return out;
}

/** The first Markdown heading of a knowledge document (sven's hint shows it), read
    from `<working directory>/.sven/knowledge/<name>`. Only a plain relative name is
    looked up (no `..`, no absolute path, no link out of the folder), and at most 4 KB is read.
*/
inline std::string knowledge_title(std::string const& working_directory, std::string const& name)
{
    if (!valid_command_name(name) || name.find('@') != std::string::npos) return {};
    std::string const dir = working_directory + "/.sven/knowledge";
    std::string const real = real_path(dir + "/" + name);
    std::error_code ec;
    if (!within(real, real_path(dir)) || !std::filesystem::is_regular_file(real, ec)) return {};
    std::ifstream in(real, std::ios::binary);
    std::string head(4096, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<std::size_t>(in.gcount()));
    std::size_t pos = 0;
    while (pos < head.size()) {
        std::size_t const end = std::min(head.find('\n', pos), head.size());
        std::string_view line(head.data() + pos, end - pos);
        if (line.starts_with("# ")) {
            line.remove_prefix(2);
            line = skillmd::detail::trim_end(line, " \r");
            if (skillmd::detail::find_non_text(line) != std::string_view::npos) return {};
            return std::string(line);
        }
        pos = end + 1;
    }
    return {};
}

inline std::string with_name(std::string_view pattern, std::string_view name)
{
    std::string out(pattern);
    if (auto const at = out.find("{}"); at != std::string::npos) out.replace(at, 2, name);
    return out;
}

/// The skill by command, name or `name@tier`; with sven's rule, by its sanitised command
/// too, but never a qualified or plugin name: the sanitiser would turn `deploy@user` into
/// `deploy_user`, another skill's name, where the lookup must fail.
inline skill_record const* find_skill(snapshot const& snap, std::string_view name, bool match_sanitized)
{
    skill_record const* r = snap.find(name);
    if (r || !match_sanitized || name.find_first_of("@:") != std::string_view::npos) return r;
    std::string const want = sanitize_command(name);
    for (auto const& s : snap.skills())
        if (sanitize_command(s.command) == want) return &s;
    return nullptr;
}

/** With sven's rule, whether a command typed as `prefix` followed by anything can reach the
    skill whose sanitised command is `sanitized`: the prefix, sanitised, begins it (a
    prefix ending in a separator, `deploy-`, begins a new word: `deploy_`). Typed commands
    are matched by their sanitised form, so `deploy-:*` covers `DEPLOY-prod`.
*/
inline bool sanitized_prefix_reaches(std::string_view prefix, std::string_view sanitized)
{
    std::string want = sanitize_command(prefix);
    if (want.empty()) return true; // `-` then anything: any skill
    char const last = prefix.back();
    bool const alnum = (last >= 'a' && last <= 'z') || (last >= 'A' && last <= 'Z') || (last >= '0' && last <= '9');
    if (last == '/') want += '/';
    else if (!alnum) want += '_';
    return sanitized.starts_with(want);
}

/** Every spelling of `r` that permission rules are matched against: those it answers to
    and those it carries (snapshot::names_of); the name it was asked by (`typed`, which
    the resolver took to `r`); with sven's rule, the sanitised form of each, and the
    prefix of each deny rule `prefix:*` a typed command could reach `r` with; and every
    plain rule of `rules` that the resolver itself takes to `r` (`/deploy`, a sanitised
    `my_skill`). So a rule covers a skill exactly when some way of naming the skill that
    invoke accepts is the rule: no spelling gets past a deny rule, and an allow rule
    names the one record invoke would reach with it.
*/
inline snapshot::record_names rule_spellings(snapshot const& snap, skill_record const& r, permission_rules const& rules,
                                             bool match_sanitized, std::string_view typed = {})
{
    auto names = snap.names_of(r);
    auto const add = [&](std::string n, bool answers) {
        auto& list = answers ? names.answers : names.carries;
        if (!n.empty() && std::find(list.begin(), list.end(), n) == list.end()) list.push_back(std::move(n));
    };
    add(std::string(typed), true);
    if (match_sanitized) {
        for (bool const answers : {true, false}) {
            auto const given = answers ? names.answers : names.carries;
            for (auto const& n : given)
                if (auto s = sanitize_command(n); s != n) add(s, find_skill(snap, s, true) == &r);
        }
    }
    if (match_sanitized) {
        std::string const mine = sanitize_command(r.command);
        for (auto const& rule : rules.deny)
            if (rule.ends_with(":*") && sanitized_prefix_reaches(std::string_view(rule).substr(0, rule.size() - 2), mine))
                add(rule.substr(0, rule.size() - 2), false);
    }
    for (auto const* list : {&rules.deny, &rules.allow})
        for (auto const& rule : *list)
            if (!rule.ends_with(":*") && find_skill(snap, rule, match_sanitized) == &r) add(rule, true);
    return names;
}

} // namespace detail

namespace detail {

/// What was asked: the skill's name and the arguments, the command's own first.
struct invoke_request
{
    std::string raw;    ///< the name or command as given
    std::string name;   ///< without `/` and arguments
    std::string args;   ///< trimmed
    std::string shown;  ///< the name cleaned for messages
    bool typed = false; ///< written as `/name`
};

inline invoke_request read_request(std::string_view name_or_command, std::string_view args)
{
    invoke_request q;
    q.raw = std::string(name_or_command);
    q.name = std::string(trim_spaces(name_or_command));
    q.args = std::string(trim_spaces(args));
    q.typed = !q.name.empty() && q.name.front() == '/';
    if (auto const cmd = parse_slash(q.name)) {
        q.name = cmd->name;
        if (!cmd->arguments.empty()) q.args = q.args.empty() ? cmd->arguments : cmd->arguments + " " + q.args;
    }
    q.shown = skillmd::detail::clean_line(q.name);
    return q;
}

/// Why an invocation stops before it runs.
struct refusal
{
    invoke_error code;
    std::string message;
    bool not_a_skill = false; ///< the input was no skill name at all (a typed `/path`, a user's word)
};

/// Codes 1 and 2 before the name is taken as a command. Claude Code: only an input that is empty once trimmed
/// is malformed (its message keeps the input as given); `/` alone names the empty skill,
/// which does not exist.
inline std::optional<refusal> check_format(invoke_request const& q, caller who, invoke_options const& opts)
{
    if (trim_spaces(q.raw).empty()) {
        std::string as_given;
        for (char c : q.raw) as_given += static_cast<unsigned char>(c) < 0x20 ? ' ' : c;
        return refusal{invoke_error::invalid_format, "Invalid skill format: " + as_given};
    }
    if (q.name.empty() || q.name == "/")
        return refusal{invoke_error::unknown_skill, with_name(opts.unknown_skill_message, ""), q.typed || who == caller::user};
    if (!valid_command_name(q.name) || find_invalid_utf8(q.name) != std::string::npos)
        return refusal{invoke_error::invalid_format, "Invalid skill format: " + q.shown};
    return std::nullopt;
}


/// Codes 3, 6, 7, 8 and 11: may this caller invoke this skill, with these arguments?
inline std::optional<refusal> check_caller(skill_record const& r, invoke_request const& q, caller who,
                                           invoke_options const& opts)
{
    if (!r.shadowed_by.empty() && who == caller::model && !opts.model_may_invoke_shadowed)
        return refusal{invoke_error::shadowed_skill, "Skill " + clean_line(r.qualified()) + " is shadowed by " +
                                                         clean_line(r.shadowed_by) + " and cannot be used with " +
                                                         opts.tool_name + " tool"};
    if (r.hidden)
        return refusal{invoke_error::load_failed, "Could not load skill: " + q.shown +
                                                      " (its required programs or environment variables are missing)"};
    if (who == caller::model && !r.visible_to(visibility::model))
        return refusal{invoke_error::model_invocation_disabled,
                       "Skill " + q.shown + " cannot be used with " + opts.tool_name + " tool due to " +
                           (r.meta.disable_model_invocation ? "disable-model-invocation"
                            : r.meta.user_invocable_only    ? "user_invocable_only"
                                                            : "an override (" + (r.overridden ? r.overridden->layer : std::string()) + ": user-invocable-only)")};
    if (who == caller::user && !r.meta.user_invocable)
        return refusal{invoke_error::user_invocation_disabled,
                       "Skill " + q.shown + " can only be invoked by the model (user-invocable: false)"};
    if (q.args.size() > opts.max_argument_bytes)
        return refusal{invoke_error::arguments_too_long, "Arguments for skill " + q.shown + " exceed " +
                                                             std::to_string(opts.max_argument_bytes) + " bytes"};
    return std::nullopt;
}

/// Everything a content format may show of skill `r`, whose file was just read as `text`.
template <class Registry>
void fill_loaded(loaded_skill& ls, Registry const& reg, snapshot const& snap, skill_record const& r, skill_text& text,
                 invoke_request const& q, caller who, invoke_options const& opts)
{
    ls.name = r.meta.label ? *r.meta.label : r.meta.name.view();
    ls.description = r.meta.description;
    ls.body = std::string(text.body());
    ls.arguments = q.args;
    ls.base_directory = absolute_path(r.where.directory);
    ls.skill_file = r.where.database ? std::string() : absolute_path(r.where.path);
    ls.bundled_files = reg.bundled_files(r);
    for (auto const* c : snap.children(r.command))
        ls.children.push_back({c->command.str(), std::string(c->meta.label ? *c->meta.label : c->meta.name.view()), c->meta.description.str()});
    ls.knowledge = to_owned(r.meta.knowledge);
    ls.working_directory = opts.working_directory.empty() ? absolute_path(".") : opts.working_directory;
    for (auto const& k : ls.knowledge) ls.knowledge_titles.push_back(knowledge_title(ls.working_directory, k));
    ls.who = who;
    ls.mode = r.meta.context;
    if (!ls.skill_file.empty()) ls.file_text = std::move(text.file);
}

} // namespace detail

} // namespace skillmd

#endif
