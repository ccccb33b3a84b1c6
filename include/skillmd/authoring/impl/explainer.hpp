// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_AUTHORING_IMPL_EXPLAINER_HPP
#define SKILLMD_AUTHORING_IMPL_EXPLAINER_HPP

// How explain (authoring/explain.hpp) works: the budget rule in words, and the explainer
// that describes each skill of one snapshot against its rendered index.

#include <skillmd/authoring/explanation.hpp>
#include <skillmd/detail/utf8.hpp>
#include <skillmd/index/render.hpp>
#include <skillmd/storage/registry.hpp>
#include <skillmd/storage/requirements.hpp>

#include <cstddef>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace skillmd {

namespace detail {

inline std::string budget_rule_text(budget_strategy s)
{
    switch (s) {
    case budget_strategy::stop_at_overflow:
        return "the rule stops at the first entry that does not fit (Claude Code's) and drops every entry after it, "
               "even short ones that would fit";
    case budget_strategy::skip_overflow:
        return "the rule leaves out each entry that does not fit and goes on (Pegasus's)";
    case budget_strategy::always_bypass:
        return "`always` skills are listed first whatever the budget; the rest stop at the first entry that does not "
               "fit (sven's)";
    case budget_strategy::shorten_then_drop:
        return "the rule shortens every description evenly, then lists bare names, then drops skills from the end "
               "(Codex's)";
    }
    return "";
}

inline std::string shown_budget(index_result const& r)
{
    return r.budget == index_summary::unlimited ? std::string("no budget")
                                                : std::to_string(r.budget) + " characters";
}

/// What explain() knows of one snapshot and its index while it describes each skill.
/// `Policy`: the system's index_formats::index_policy (whose header this one leaves out).
template <class Policy>
struct explainer
{
    index_result const& idx;
    Policy const& policy;
    bool shadowed_for_model;
    std::string_view name; ///< the one command or name asked about; empty for all
    std::set<std::string_view> listed, shortened;
    std::map<std::string_view, std::size_t> omitted = {}; // command -> place among the omitted
    requirement_checker gate = {};
    std::vector<skill_explanation> out = {};
    std::set<std::string> record_files = {};

    explainer(index_result const& i, Policy const& p, bool shadowed_model,
              std::string_view asked)
        : idx(i), policy(p), shadowed_for_model(shadowed_model), name(asked),
          listed(i.listed.begin(), i.listed.end()), shortened(i.shortened.begin(), i.shortened.end())
    {
        for (std::size_t k = 0; k < idx.omitted.size(); ++k) omitted.emplace(idx.omitted[k], k);
    }

    bool wanted(std::string_view command, std::string_view label) const
    {
        if (name.empty()) return true;
        std::string_view n = name;
        if (n.front() == '/') n.remove_prefix(1);
        return n == command || n == label;
    }

    static void add(skill_explanation& e, skill_record const& r, std::string_view code, std::string text)
    {
        e.reasons.push_back({std::string(code), std::move(text), r.where.path.str(), 0, 0});
    }

    /// The record `r`, found among the snapshot's skills ("skill"), shadowed ones or those
    /// turned off ("off").
    void describe(skill_record const& r, std::string_view where)
    {
        record_files.insert(r.where.path.str());
        if (!wanted(r.command, r.meta.name)) return;
        skill_explanation e;
        e.command = r.command;
        e.tier = r.tier;
        e.path = r.where.path;
        override_decision const none;
        override_decision const& ov = r.overridden ? *r.overridden : none;
        std::string const via = ov.layer + (ov.origin.empty() ? "" : " (" + ov.origin + ")");
        if (where == "off") {
            e.index = "off";
            add(e, r, codes::override, "turned off by `" + ov.pattern + "`: \"off\" in " + via);
            out.push_back(std::move(e));
            return;
        }
        if (where == "shadowed") {
            e.index = "shadowed";
            add(e, r, codes::shadowed, "shadowed by " + r.shadowed_by + ": the collision rule keeps that tier's skill; this one "
                            "stays reachable as `/" + r.qualified() + "`");
        }
        say_flags(e, r, ov, via);
        bool const eligible = where == "skill" &&
                              r.visible_to(policy.which == listing::all ? visibility::all : visibility::model);
        bool const documented = r.meta.description_given || r.meta.when_to_use ||
                                ov.mode == override_mode::name_only;
        if (eligible && policy.which == listing::model_documented && !documented)
            add(e, r, codes::undocumented, "not listed: this system lists only skills with a written `description` or `when_to_use`");
        if (where == "skill") say_place(e, r, ov);
        e.model_invocable = where == "skill" ? r.visible_to(visibility::model) : shadowed_for_model && r.visible_to(visibility::model);
        e.user_invocable = r.visible_to(visibility::user);
        out.push_back(std::move(e));
    }

    /// The requirement, the skill's own flags and the override that hide or restrict it.
    void say_flags(skill_explanation& e, skill_record const& r, override_decision const& ov, std::string const& via)
    {
        if (r.hidden) {
            auto why = gate.unmet(r.meta);
            add(e, r, codes::requirement, "hidden: " + (why ? *why : std::string("its requirements were unmet when the skills were loaded")));
        }
        if (r.meta.disable_model_invocation)
            add(e, r, codes::hidden_flag, "`disable-model-invocation: true`: the model neither sees nor invokes it; the user still can");
        if (r.meta.user_invocable_only)
            add(e, r, codes::hidden_flag, "`user_invocable_only: true` (sven): only the user may invoke it");
        if (!r.meta.user_invocable && ov.mode != override_mode::user_invocable_only)
            add(e, r, codes::hidden_flag, "`user-invocable: false`: not a `/` command; the model may still invoke it");
        if (ov.mode == override_mode::name_only)
            add(e, r, codes::override, "listed by name only, without its description: `" + ov.pattern +
                                "` is \"name-only\" in " + via);
        if (ov.mode == override_mode::user_invocable_only)
            add(e, r, codes::override, "only the user may invoke it: `" + ov.pattern + "` is \"user-invocable-only\" in " + via);
        if (ov.mode == override_mode::on && !ov.layer.empty())
            add(e, r, codes::override, "`" + ov.pattern + "` is \"on\" in " + via + " (it undoes any earlier layer's)");
    }

    /// Where a loaded skill stands in the index (listed, shortened, omitted, not listed), and why.
    void say_place(skill_explanation& e, skill_record const& r, override_decision const& ov)
    {
        if (listed.count(r.command)) {
            e.index = shortened.count(r.command) ? "shortened" : "listed";
            if (shortened.count(r.command)) {
                std::size_t const cap = policy.budget.entry_cap;
                if (ov.mode == override_mode::name_only)
                    ; // said above
                else if (cap && skillmd::detail::utf8_length(r.meta.description) > cap)
                    add(e, r, codes::budget_shortened, "description cut to " + std::to_string(cap) + " code points (the per-entry cap)");
                else
                    add(e, r, codes::budget_shortened, "description shortened or dropped to fit " + detail::shown_budget(idx) +
                                                ": " + detail::budget_rule_text(policy.budget.strategy));
            }
        } else if (auto const it = omitted.find(r.command); it != omitted.end()) {
            e.index = "omitted";
            bool const after_first = it->second > 0 &&
                                     (policy.budget.strategy == budget_strategy::stop_at_overflow ||
                                      policy.budget.strategy == budget_strategy::always_bypass);
            if (after_first)
                add(e, r, codes::budget_omitted, "left out: `" + idx.omitted.front() + "` before it did not fit in " +
                                          detail::shown_budget(idx) + ", and " +
                                          detail::budget_rule_text(policy.budget.strategy));
            else
                add(e, r, codes::budget_omitted, "left out: it did not fit in " + detail::shown_budget(idx) + " (" +
                                          std::to_string(idx.used) + " used); " +
                                          detail::budget_rule_text(policy.budget.strategy));
        } else {
            e.index = "not-listed";
        }
    }

    /// Files that did not load: every error said about a file no record came from.
    void add_failed(std::vector<diagnostic> const& diagnostics)
    {
        std::map<std::string, skill_explanation> failed;
        for (auto const& d : diagnostics) {
            if (d.severity != severity::error || d.file.empty() || record_files.count(d.file)) continue;
            std::filesystem::path const p(d.file);
            std::string command = p.filename() == "SKILL.md" ? p.parent_path().filename().string() : p.filename().string();
            if (!wanted(command, command)) continue;
            auto& e = failed[d.file];
            if (e.path.empty()) {
                e.command = std::move(command);
                e.path = d.file;
                e.index = "not-loaded";
            }
            e.reasons.push_back({std::string(codes::not_loaded), "[" + d.code + "] " + d.message, d.file, d.line, d.column});
        }
        for (auto& [file, e] : failed) out.push_back(std::move(e));
    }
};

} // namespace detail

} // namespace skillmd

#endif
