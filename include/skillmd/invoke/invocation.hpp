// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_INVOKE_INVOCATION_HPP
#define SKILLMD_INVOKE_INVOCATION_HPP

// Invocation: name or `/command` -> validation with Claude Code's error codes and
// Pegasus's caller rules -> permission decision -> the body read now, arguments
// substituted -> the rendered content and what the agent must do with it (inline, or
// a fork with agent and model; the tools the skill allows).

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

/// Why an invocation failed. 1-5 are Claude Code's Skill tool codes; 6-8 are skillmd's.
enum class invoke_error : int {
    none = 0,
    invalid_format = 1,            ///< empty name, or a name no skill can have (`..`, `//`, controls)
    unknown_skill = 2,             ///< no such skill; for a typed `/command`: not a skill
    load_failed = 3,               ///< the skill exists but its file cannot be read (or its requirements are unmet)
    model_invocation_disabled = 4, ///< `disable-model-invocation` or `user_invocable_only`, and the model asked
    not_prompt = 5,                ///< a built-in command of the agent, not a prompt skill
    user_invocation_disabled = 6,  ///< `user-invocable: false`, and the user asked
    permission_denied = 7,         ///< a deny rule matched
    arguments_too_long = 8,        ///< the arguments exceed `max_argument_bytes`
    bad_tool_call = 9,             ///< a model's tool call that is not JSON or not the tool's schema
    content_too_long = 10,         ///< substitution would pass `substitution_policy::max_output_bytes`
    shadowed_skill = 11,           ///< the model named a shadowed skill (`name@tier`) and may not
    out_of_memory = 12,            ///< memory ran out while loading or rendering the skill
};

struct invoke_options
{
    permission_rules permissions;
    substitution_policy substitution = substitution::safe();
    std::map<std::string, std::string, std::less<>> variables; ///< `${NAME}` values besides the skill's own
    std::vector<std::string> builtin_commands; ///< the agent's own commands (`help`, `clear`): code 5
    std::size_t max_argument_bytes = 64 * 1024;
    bool match_sanitized = false; ///< sven: `/sven_plan` finds `sven/plan` by its sanitised name
    std::string tool_name = "Skill"; ///< named in the code 4 message
    std::string working_directory;   ///< mycode's context ("" = the current directory)
    /// Error 2's message; `{}` stands for the name. Claude Code's by default; Pegasus says
    /// `Skill "{}" not found`, mycode `Skill not found: {}`.
    std::string unknown_skill_message = "Unknown skill: {}";
    /// The sub-agent of a `context: fork` skill that names none (Pegasus: `general`).
    std::optional<std::string> default_fork_agent;
    /// May the model invoke a skill another tier shadows (`deploy@project`)? The index
    /// never shows it, so by default only the user can.
    bool model_may_invoke_shadowed = false;
    /// Does a model's call that no rule decides wait for the user (`needs_approval`)?
    /// Claude Code asks; systems without an approval step (Pegasus, mycode, sven, koshi)
    /// run it. A deny rule denies either way.
    bool approval_step = true;
};

/// What the agent must do with an invocation. Only `run` means go.
enum class invoke_status : std::uint8_t {
    run,            ///< allowed (a rule, or the user's own typed command): deliver the content now
    needs_approval, ///< valid, but no rule decided: ask the user (`permission.message`), then `approve()`
    denied,         ///< a deny rule matched (error 7)
    failed,         ///< any other error (`error`, `message`)
};

inline constexpr std::string_view to_string(invoke_status s) noexcept
{
    switch (s) {
    case invoke_status::run: return "run";
    case invoke_status::needs_approval: return "needs_approval";
    case invoke_status::denied: return "denied";
    case invoke_status::failed: return "failed";
    }
    return "failed";
}

/// The outcome of one invocation.
struct invocation
{
    invoke_error error = invoke_error::none;
    std::string message;         ///< Claude Code's text for errors; "" on success
    bool not_a_skill = false;    ///< a typed `/command` that names no skill: treat it as a message
    std::shared_ptr<skillmd::snapshot const> snapshot; ///< keeps `record` alive
    skill_record const* record = nullptr;
    std::string command;
    skillmd::caller who = caller::model;
    permission_decision permission;
    context_mode mode = context_mode::inline_;       ///< inline: a tool result or user message; fork: a sub-agent task
    std::optional<std::string> agent;                ///< the sub-agent type for a fork
    std::optional<std::string> model;                ///< model override; `inherit` gives none
    std::vector<std::string> allowed_tools;          ///< granted while the skill runs (Claude Code's context modifier)
    loaded_skill loaded;
    substitution_result substitution;
    std::string content;                             ///< rendered by the content format

    /// Run, ask, denied or failed: the one answer to "may this skill run now?".
    invoke_status status() const noexcept
    {
        if (error == invoke_error::permission_denied) return invoke_status::denied;
        if (error != invoke_error::none) return invoke_status::failed;
        if (permission.behavior == permission::allow) return invoke_status::run;
        if (permission.behavior == permission::deny) return invoke_status::denied;
        return invoke_status::needs_approval;
    }
    bool may_run() const noexcept { return status() == invoke_status::run; }
    /// The user approved a `needs_approval` call: it may run now. Nothing else changes.
    void approve() noexcept
    {
        if (status() == invoke_status::needs_approval) permission = {permission::allow, "approved by the user", ""};
    }
};

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
    if (!within(real, {real_path(dir)}) || !std::filesystem::is_regular_file(real, ec)) return {};
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

/// The skill by command, name or `name@tier`; with sven's rule, by its sanitised command too.
inline skill_record const* find_skill(snapshot const& snap, std::string_view name, bool match_sanitized)
{
    skill_record const* r = snap.find(name);
    if (r || !match_sanitized) return r;
    std::string const want = sanitize_command(name);
    for (auto const& s : snap.skills())
        if (sanitize_command(s.command) == want) return &s;
    return nullptr;
}

/** Every spelling of `r` that permission rules are matched against: those it answers to
    and those it carries (snapshot::names_of); with sven's rule, the sanitised form of
    each; and every plain rule of `rules` that the resolver itself takes to `r` (`/deploy`,
    a sanitised `my_skill`). So a rule covers a skill exactly when some way of naming the
    skill that invoke accepts is the rule: no spelling gets past a deny rule, and an
    allow rule names the one record invoke would reach with it.
*/
inline snapshot::record_names rule_spellings(snapshot const& snap, skill_record const& r, permission_rules const& rules,
                                             bool match_sanitized)
{
    auto names = snap.names_of(r);
    auto const add = [&](std::string n, bool answers) {
        auto& list = answers ? names.answers : names.carries;
        if (!n.empty() && std::find(list.begin(), list.end(), n) == list.end()) list.push_back(std::move(n));
    };
    if (match_sanitized) {
        for (bool const answers : {true, false}) {
            auto const given = answers ? names.answers : names.carries;
            for (auto const& n : given)
                if (auto s = sanitize_command(n); s != n) add(s, find_skill(snap, s, true) == &r);
        }
    }
    for (auto const* list : {&rules.deny, &rules.allow})
        for (auto const& rule : *list)
            if (!rule.ends_with(":*") && find_skill(snap, rule, match_sanitized) == &r) add(rule, true);
    return names;
}

} // namespace detail

/** Checks permission rules before they are used: a rule that is not Claude Code's syntax
    is an error (`permission-rule-invalid`); one that matches no skill of `snap` is a
    warning (`permission-rule-unmatched`), with the skill it probably meant when only
    case tells them apart (`COMMIT` for `commit`).
*/
inline std::vector<diagnostic> check_permission_rules(permission_rules const& rules, snapshot const& snap,
                                                      bool match_sanitized = false)
{
    std::vector<diagnostic> out;
    auto check = [&](std::string const& rule, std::string_view kind) {
        std::string const shown = "`" + skillmd::detail::clean_line(rule) + "`";
        if (auto why = rule_problem(rule); !why.empty()) {
            out.push_back({std::string(codes::permission_rule_invalid), severity::error, std::string(kind), 0, 0, shown + ": " + why});
            return;
        }
        // The spellings decide() matches (detail::rule_spellings), without resolving each
        // one: a rule the resolver takes to a skill, or one that matches a spelling some
        // skill bears. One pass over the skills per rule.
        if (!rule.ends_with(":*") && detail::find_skill(snap, rule, match_sanitized)) return;
        std::string const lowered = skillmd::detail::ascii_lower(rule);
        std::string near;
        for (auto const* list : {&snap.skills(), &snap.shadowed()})
            for (auto const& r : *list) {
                std::string const tier(r.tier.view()), base(r.command.substr(0, r.command.rfind('@')));
                std::string const name(r.meta.name.view());
                for (std::string const& n : {std::string(r.command.view()), base, base + "@" + tier, name, name + "@" + tier,
                                             r.meta.label ? std::string(*r.meta.label) : std::string()}) {
                    if (n.empty()) continue;
                    if (permission_rules::matches(rule, n)) return;
                    if (match_sanitized && permission_rules::matches(rule, sanitize_command(n))) return;
                }
                std::string const cmd = skillmd::detail::ascii_lower(r.command);
                if (near.empty() && (cmd == lowered || permission_rules::matches(lowered, cmd))) near = r.command;
            }
        out.push_back({std::string(codes::permission_rule_unmatched), severity::warning, std::string(kind), 0, 0,
                       shown + " matches no skill now" +
                           (near.empty() ? std::string() : "; names are case-sensitive: did you mean `" + near + "`?")});
    };
    for (auto const& r : rules.deny) check(r, "deny rule");
    for (auto const& r : rules.allow) check(r, "allow rule");
    return out;
}

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

/** Invokes a skill.

    `name_or_command` is a name (`commit`, `/commit`) or a whole typed command
    (`/commit fix the build`), whose rest is put before `args`. The user may invoke what
    is user-invocable, the model what is model-invocable (Pegasus's matrix, sven's
    `user_invocable_only`). Deny rules bind both; for the model, allow rules allow and
    anything else asks; a user's typed command is its own consent.
*/
template <class Registry, content_format Format>
invocation invoke_unguarded(Registry const& reg, std::string_view name_or_command, std::string_view args, caller who,
                            invoke_options const& opts, Format const& fmt)
{
    invocation inv;
    inv.who = who;
    inv.snapshot = reg.snapshot();
    auto const& snap = *inv.snapshot;
    auto const refuse = [&](detail::refusal no) {
        inv.not_a_skill = no.not_a_skill;
        return detail::fail(std::move(inv), no.code, std::move(no.message));
    };

    detail::invoke_request const q = detail::read_request(name_or_command, args);
    if (auto no = detail::check_format(q, who, opts)) return refuse(std::move(*no));
    inv.command = q.name;
    for (auto const& b : opts.builtin_commands)
        if (b == q.name) return refuse({invoke_error::not_prompt, "Skill " + q.shown + " is not a prompt-based skill"});
    skill_record const* r = detail::find_skill(snap, q.name, opts.match_sanitized);
    if (!r) return refuse({invoke_error::unknown_skill, detail::with_name(opts.unknown_skill_message, q.shown),
                           q.typed || who == caller::user});
    inv.record = r;
    bool const winner = r->shadowed_by.empty();
    inv.command = winner ? r->command.str() : r->qualified(); // a shadowed skill is named with its tier everywhere
    if (auto no = detail::check_caller(*r, q, who, opts)) return refuse(std::move(*no));

    auto const names = detail::rule_spellings(snap, *r, opts.permissions, opts.match_sanitized); // rules see the record
    inv.permission = opts.permissions.decide(names.answers, names.carries, inv.command);
    if (inv.permission.behavior == permission::deny) {
        std::string why = inv.permission.message; // read before `inv` is moved into the call
        return detail::fail(std::move(inv), invoke_error::permission_denied, std::move(why));
    }
    if (who == caller::user) inv.permission = {permission::allow, "", ""};
    else if (inv.permission.behavior == permission::ask && !opts.approval_step)
        inv.permission = {permission::allow, "", ""}; // the system has no approval step

    std::string why;
    auto text = reg.text(*r, &why); // read once: the body, and the whole file for formats that show it
    if (!text) return detail::fail(std::move(inv), invoke_error::load_failed, "Could not load skill: " + q.shown + (why.empty() ? "" : ": " + why));
    auto& ls = inv.loaded;
    ls.command = inv.command;
    detail::fill_loaded(ls, reg, snap, *r, *text, q, who, opts);

    auto vars = opts.variables;
    vars.emplace("SKILL_DIR", ls.base_directory);
    vars.emplace("CLAUDE_SKILL_DIR", ls.base_directory);
    auto policy = opts.substitution;
    if (policy.exact_replace_all && policy.text_before.empty())
        policy.text_before = "Base directory for this skill: " + ls.base_directory + "\n\n";
    inv.substitution = substitute(ls.body, q.args, to_owned(r->meta.arguments), vars, policy);
    if (inv.substitution.too_long)
        return detail::fail(std::move(inv), invoke_error::content_too_long,
                            "The content of skill " + q.shown + " with these arguments would exceed " +
                                std::to_string(policy.max_output_bytes) + " bytes");
    ls.content = inv.substitution.text;

    inv.mode = r->meta.context;
    if (inv.mode == context_mode::fork) inv.agent = r->meta.agent ? r->meta.agent.owned() : opts.default_fork_agent;
    if (r->meta.model && *r->meta.model != "inherit") inv.model = r->meta.model.owned();
    inv.allowed_tools = to_owned(r->meta.allowed_tools);
    inv.content = fmt.render(ls);
    return inv;
}

/// The same, with running out of memory turned into error 12: nothing is thrown.
template <class Registry, content_format Format = content_formats::pegasus>
invocation invoke(Registry const& reg, std::string_view name_or_command, std::string_view args, caller who,
                  invoke_options const& opts = {}, Format const& fmt = {})
{
    try {
        return invoke_unguarded(reg, name_or_command, args, who, opts, fmt);
    } catch (std::bad_alloc const&) {
        invocation inv;
        inv.who = who;
        inv.error = invoke_error::out_of_memory;
        try {
            inv.message = "Could not load skill: out of memory";
        } catch (...) {
        }
        return inv;
    }
}

} // namespace skillmd

#endif
