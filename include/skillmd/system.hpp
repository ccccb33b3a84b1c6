// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_SYSTEM_HPP
#define SKILLMD_SYSTEM_HPP

// A whole skill system in one type: a registry (tiers, dedup, parser, dialect and mode)
// plus the prompt formatter policies (index format, content format) and the settings
// that go with them (listing and budget, invocation options, the tool the model calls).
// Each preset is one of these, so a user gets one system's behaviour from one name.
// No X3 here: the parser is the registry's template parameter. The members that render,
// invoke and read JSON are defined in impl/system.hpp (see config.hpp for compile-once).

#include <skillmd/index/render.hpp>
#include <skillmd/index/formats.hpp>
#include <skillmd/invoke/invocation.hpp>
#include <skillmd/invoke/observer.hpp>
#include <skillmd/invoke/tool_calls.hpp>
#include <skillmd/invoke/tools.hpp>
#include <skillmd/triggers/trigger_index.hpp>

#include <boost/json/object.hpp>

#include <memory>
#include <new>
#include <string>
#include <string_view>
#include <utility>

namespace skillmd {

struct tool_call_result;

/// The run-time half of a system: everything that is a value rather than a policy type.
struct system_settings
{
    index_formats::index_policy listing; ///< which skills the index lists, within what budget
    invoke_options invoke;               ///< permissions, substitution, built-in commands, limits
    skill_tool tool = skill_tool::load_skill; ///< the tool through which the model asks for a skill
    /// Told of every invocation and rendered index; none by default (one pointer test).
    std::shared_ptr<skillmd::observer> observer;
};

/// Tells `o` of one invocation: what was asked, with which arguments, set off how.
inline void notify_invoked(observer& o, invocation const& inv, std::string_view asked, std::string_view args,
                           activation_trigger how)
{
    if (how == activation_trigger::from_caller)
        how = inv.who == caller::user ? activation_trigger::user_command : activation_trigger::model_tool_call;
    activation_event e;
    e.skill = inv.record ? std::string_view(inv.record->command) : std::string_view(inv.command);
    if (e.skill.empty()) e.skill = asked;
    if (inv.record) e.tier = inv.record->tier;
    e.trigger = how;
    e.arguments_length = detail::read_request(asked, args).args.size();
    e.status = to_string(inv.status());
    e.permission = to_string(inv.permission.behavior);
    e.rule = inv.permission.rule;
    e.error = static_cast<int>(inv.error);
    o.skill_invoked(e);
}

/// Tells `o` of one rendered index.
inline void notify_rendered(observer& o, index_result const& r)
{
    o.index_rendered({r.budget, r.used, &r.listed, &r.shortened, &r.omitted});
}

/** A skill system: `Registry` (a `basic_registry`) with the index format `Index` and the
    content format `Content` as policies, and the settings that belong with them.

    @code
    auto agent = skillmd::presets::make_claude_code(where);
    agent.load();
    std::string prompt = agent.index().text;                    // layer 1
    auto run = agent.invoke("/commit fix it", skillmd::caller::user); // layer 2
    @endcode

    To replace one policy, name the new type with `with_index_format<F>` or
    `with_content_format<F>` and construct it from a preset (`move` keeps the registry);
    `with_parser<P>`, `with_dedup<D>`, `with_sources<S...>` and `with_registry<R>` change
    the registry's type, so construct that from a new registry and the old settings.
*/
template <class Registry, index_format Index, content_format Content>
class basic_system
{
public:
    using registry_type = Registry;
    using index_format_type = Index;
    using content_format_type = Content;
    template <index_format F>
    using with_index_format = basic_system<Registry, F, Content>;
    template <content_format F>
    using with_content_format = basic_system<Registry, Index, F>;
    /// Another registry type under the same formats (construct it with a new registry
    /// and, to keep them, this system's settings).
    template <class R>
    using with_registry = basic_system<R, Index, Content>;
    /// The registry's own one-alias swaps, lifted to the system.
    template <frontmatter::frontmatter_parser P>
    using with_parser = basic_system<typename Registry::template with_parser<P>, Index, Content>;
    template <dedup_policy D>
    using with_dedup = basic_system<typename Registry::template with_dedup<D>, Index, Content>;
    template <skill_source... S>
    using with_sources = basic_system<typename Registry::template with_sources<S...>, Index, Content>;

    basic_system(std::unique_ptr<Registry> registry, system_settings settings, Index index = {}, Content content = {})
        : registry_(std::move(registry)), settings_(std::move(settings)), index_(std::move(index)),
          content_(std::move(content))
    {
    }

    // Out of line, so that a translation unit holding a preset system does not compile
    // the registry's destructor (compile-once).
    basic_system(basic_system&&) noexcept;
    basic_system& operator=(basic_system&&) noexcept;
    ~basic_system();

    /// The same registry and settings under other formats.
    template <index_format I, content_format C>
    explicit basic_system(basic_system<Registry, I, C>&& other, Index index = {}, Content content = {})
        : registry_(std::move(other.registry_)), settings_(std::move(other.settings_)), index_(std::move(index)),
          content_(std::move(content))
    {
    }

    /// False when memory ran out: the previous skills stay (`registry().last_error()`).
    bool load() { return registry_->load(); }
    bool refresh() { return registry_->refresh(); }
    std::shared_ptr<skillmd::snapshot const> snapshot() const { return registry_->snapshot(); }

    /// Layer 1: the index for the system prompt, in this system's format and budget.
    index_result index() const;

    /** Layer 2: a name or a typed command (`/commit fix it`), with `args` put after the
        command's own. Check `status()`: only `run` means the content may be delivered now.
    */
    invocation invoke(std::string_view name_or_command, caller who, std::string_view args = {},
                      activation_trigger how = activation_trigger::from_caller) const;

    /// The definition of this system's skill tool, its parameter limited to what the model may invoke now.
    boost::json::object tool_definition() const;

    /** A model's call of this system's skill tool, as JSON. A call that is not valid JSON,
        names another tool or has missing, unknown or mistyped parameters gives a
        `failed` invocation with error 9 (`bad_tool_call`); nothing throws.
    */
    invocation call_tool(std::string_view json) const;
    invocation call_tool(tool_call_result const& parsed) const;

    /// The trigger index of the current snapshot (the skills' `triggers`), derived from the
    /// one made for the last snapshot asked about; `active_skills_for(system, message)` uses it.
    std::shared_ptr<trigger_index const> triggers() const { return triggers_->of(registry_->snapshot()); }

    /// The permission rules of `settings().invoke` checked against the current skills:
    /// errors for rules that can match nothing, warnings for rules that match nothing now.
    std::vector<diagnostic> check_permissions() const;

    Registry& registry() noexcept { return *registry_; }
    Registry const& registry() const noexcept { return *registry_; }
    system_settings& settings() noexcept { return settings_; }
    system_settings const& settings() const noexcept { return settings_; }
    Index const& index_formatter() const noexcept { return index_; }
    Content const& content_formatter() const noexcept { return content_; }

    // What free functions written for registries use (`invoke`, `active_skills_for`).
    std::optional<std::string> body(skill_record const& r, std::string* error = nullptr) const { return registry_->body(r, error); }
    std::optional<skill_text> text(skill_record const& r, std::string* error = nullptr) const { return registry_->text(r, error); }
    std::vector<std::string> bundled_files(skill_record const& r) const { return registry_->bundled_files(r); }
    template <std::size_t I>
    auto const& source() const noexcept { return registry_->template source<I>(); }

private:
    template <class, skillmd::index_format, skillmd::content_format>
    friend class basic_system;

    std::unique_ptr<Registry> registry_; // on the heap: a registry holds mutexes, a system moves
    system_settings settings_;
    Index index_;
    Content content_;
    std::unique_ptr<trigger_indexes> triggers_ = std::make_unique<trigger_indexes>(); // a mutex: on the heap too
};

} // namespace skillmd

#ifndef SKILLMD_SEPARATE_COMPILATION
#include <skillmd/impl/system.hpp>
#endif

#endif
