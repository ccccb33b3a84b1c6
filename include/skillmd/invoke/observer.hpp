// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_INVOKE_OBSERVER_HPP
#define SKILLMD_INVOKE_OBSERVER_HPP

// Activation events: a system tells an observer when a skill is invoked and when an
// index is rendered. None by default: a system without an observer tests one null
// pointer and builds nothing. Attribute names follow OpenTelemetry's conventions for
// events (dotted, lower-case, `event.name`, `event.timestamp`, `error.code`); the
// activation event is named `skill_activated`, as Claude Code names its own, and its
// attributes live under `skill.*`. `json_lines_observer` writes one JSON object per line.

#include <skillmd/config.hpp>
#include <skillmd/detail/json.hpp>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace skillmd {

/// What set an invocation off.
enum class activation_trigger : std::uint8_t {
    from_caller,     ///< the user's caller is a typed command, the model's a tool call
    user_command,    ///< the user typed `/name`
    model_tool_call, ///< the model called the skill tool
    trigger_phrase,  ///< a trigger phrase in a message (koshi)
};

inline constexpr std::string_view to_string(activation_trigger t) noexcept
{
    switch (t) {
    case activation_trigger::user_command: return "user_command";
    case activation_trigger::model_tool_call: return "model_tool_call";
    case activation_trigger::trigger_phrase: return "trigger_phrase";
    case activation_trigger::from_caller: break;
    }
    return "unknown";
}

/// One invocation, valid during the call only.
struct activation_event
{
    std::string_view skill;          ///< the command invoked (as asked when no skill was found)
    std::string_view tier;           ///< the tier it came from ("" when none was found)
    activation_trigger trigger = activation_trigger::model_tool_call;
    std::size_t arguments_length = 0; ///< bytes of the arguments (their text is never reported)
    std::string_view status;         ///< run, needs_approval, denied, failed
    std::string_view permission;     ///< allow, ask or deny
    std::string_view rule;           ///< the permission rule that decided ("" when none)
    int error = 0;                   ///< the invoke_error code (0: none)
};

/// One rendered index, valid during the call only.
struct index_event
{
    std::size_t budget = 0; ///< characters (`SIZE_MAX`: no budget)
    std::size_t used = 0;
    std::vector<std::string> const* listed = nullptr;
    std::vector<std::string> const* shortened = nullptr;
    std::vector<std::string> const* omitted = nullptr;
};

/// Told of activations and renderings. Calls may come from several threads at once.
class observer
{
public:
    virtual ~observer() = default;
    virtual void skill_invoked(activation_event const&) {}
    virtual void index_rendered(index_event const&) {}
};

/** Writes each event as one line of JSON to a `FILE*` (flushed per line, so a crash
    loses nothing written). Names from skill files are JSON-escaped, never raw.

    @code
    {"event.name":"skill_activated","event.timestamp":"2026-11-23T20:01:02.345Z","skill.name":"deploy",
     "skill.source":"project","skill.trigger":"user_command","skill.arguments.length":7,
     "skill.status":"run","permission.decision":"allow","permission.rule":"","error.code":0}
    @endcode
*/
class json_lines_observer : public observer
{
public:
    explicit json_lines_observer(std::FILE* out) : out_(out) {}

    void skill_invoked(activation_event const& e) override
    {
        std::string line = head("skill_activated");
        field(line, "skill.name", e.skill);
        field(line, "skill.source", e.tier);
        field(line, "skill.trigger", to_string(e.trigger));
        number(line, "skill.arguments.length", e.arguments_length);
        field(line, "skill.status", e.status);
        field(line, "permission.decision", e.permission);
        field(line, "permission.rule", e.rule);
        number(line, "error.code", static_cast<std::size_t>(e.error < 0 ? 0 : e.error));
        write(line);
    }

    void index_rendered(index_event const& e) override
    {
        std::string line = head("skill_index_rendered");
        if (e.budget != static_cast<std::size_t>(-1)) number(line, "index.budget", e.budget);
        number(line, "index.used", e.used);
        list(line, "index.listed", e.listed);
        list(line, "index.shortened", e.shortened);
        list(line, "index.omitted", e.omitted);
        write(line);
    }

private:
    static std::string head(std::string_view name)
    {
        std::string s("{\"event.name\":");
        detail::json_quote(s, name);
        s += ",\"event.timestamp\":\"";
        auto const now = std::chrono::system_clock::now();
        auto const secs = std::chrono::system_clock::to_time_t(now);
        auto const ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
        std::tm tm{};
        gmtime_r(&secs, &tm);
        char buf[96];
        std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1,
                      tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(ms));
        s += buf;
        s += '"';
        return s;
    }
    static void field(std::string& s, std::string_view key, std::string_view value)
    {
        s += ',';
        detail::json_quote(s, key);
        s += ':';
        detail::json_quote(s, value);
    }
    static void number(std::string& s, std::string_view key, std::size_t value)
    {
        s += ',';
        detail::json_quote(s, key);
        s += ':';
        s += std::to_string(value);
    }
    static void list(std::string& s, std::string_view key, std::vector<std::string> const* items)
    {
        s += ',';
        detail::json_quote(s, key);
        s += ":[";
        if (items)
            for (std::size_t i = 0; i < items->size(); ++i) {
                if (i) s += ',';
                detail::json_quote(s, (*items)[i]);
            }
        s += ']';
    }
    void write(std::string& line)
    {
        line += "}\n";
        std::lock_guard<std::mutex> one_line_at_a_time(mutex_);
        std::fwrite(line.data(), 1, line.size(), out_);
        std::fflush(out_);
    }

    std::FILE* out_;
    std::mutex mutex_;
};

} // namespace skillmd

#endif
