// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_IMPL_SYSTEM_HPP
#define SKILLMD_IMPL_SYSTEM_HPP

// basic_system's members that render the index, invoke, and read and write JSON.
// Included by system.hpp when header-only; with SKILLMD_SEPARATE_COMPILATION, by
// <skillmd/src.hpp> (the presets) and by any translation unit that builds a system of
// its own types.

#include <skillmd/system.hpp>
#include <skillmd/storage/impl/registry.hpp>
#include <skillmd/invoke/tool_calls.hpp>
#include <skillmd/invoke/tools.hpp>

#include <boost/json/object.hpp>

#include <new>
#include <string>

namespace skillmd {

template <class Registry, index_format Index, content_format Content>
basic_system<Registry, Index, Content>::basic_system(basic_system&&) noexcept = default;
template <class Registry, index_format Index, content_format Content>
basic_system<Registry, Index, Content>& basic_system<Registry, Index, Content>::operator=(basic_system&&) noexcept = default;
template <class Registry, index_format Index, content_format Content>
basic_system<Registry, Index, Content>::~basic_system() = default;

template <class Registry, index_format Index, content_format Content>
index_result basic_system<Registry, Index, Content>::index() const
{
    index_result r;
    try {
        r = render_index(*snapshot(), index_, settings_.listing);
    } catch (std::bad_alloc const&) { // an empty index says less than a full one, never crashes
        r = index_result{};
        r.error = "out of memory";
    }
    if (settings_.observer) notify_rendered(*settings_.observer, r);
    return r;
}

template <class Registry, index_format Index, content_format Content>
invocation basic_system<Registry, Index, Content>::invoke(std::string_view name_or_command, caller who, std::string_view args,
                                                          activation_trigger how) const
{
    invocation inv = skillmd::invoke(*registry_, name_or_command, args, who, settings_.invoke, content_);
    if (settings_.observer) notify_invoked(*settings_.observer, inv, name_or_command, args, how);
    return inv;
}

template <class Registry, index_format Index, content_format Content>
boost::json::object basic_system<Registry, Index, Content>::tool_definition() const
{
    return skillmd::tool_definition(settings_.tool, *snapshot());
}

template <class Registry, index_format Index, content_format Content>
invocation basic_system<Registry, Index, Content>::call_tool(std::string_view json) const
{
    return call_tool(parse_tool_call(json, settings_.tool));
}

template <class Registry, index_format Index, content_format Content>
invocation basic_system<Registry, Index, Content>::call_tool(tool_call_result const& parsed) const
{
    auto bad = [&](std::string why) {
        invocation inv;
        inv.snapshot = snapshot();
        inv.error = invoke_error::bad_tool_call;
        inv.message = std::move(why);
        return inv;
    };
    if (!parsed.ok()) return bad(parsed.error);
    auto const& call = *parsed.call;
    if (!call.skill_kind || tool_name(*call.skill_kind) != tool_name(settings_.tool))
        return bad("this agent has no tool \"" + detail::shown_in_error(call.tool) + "\"; its skill tool is " +
                   std::string(tool_name(settings_.tool)));
    return invoke(call.skill, caller::model, call.args, activation_trigger::model_tool_call);
}

template <class Registry, index_format Index, content_format Content>
std::vector<diagnostic> basic_system<Registry, Index, Content>::check_permissions() const
{
    return check_permission_rules(settings_.invoke.permissions, *snapshot(), settings_.invoke.match_sanitized);
}

} // namespace skillmd

#endif
