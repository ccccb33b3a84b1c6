// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_AUTHORING_EXPLAIN_HPP
#define SKILLMD_AUTHORING_EXPLAIN_HPP

// explain(): for each skill of a system, whether it is in the index and who may invoke
// it, and every reason it is not: the diagnostic that kept it from loading, the skill
// that shadows it, the flag that hides it, the requirement that gates it, the budget rule
// that shortened or dropped it, the override that turned it off. Built only from what
// the snapshot and the rendered index already say; no X3.

#include <skillmd/config.hpp>
#include <skillmd/authoring/explanation.hpp>
#include <skillmd/authoring/impl/explainer.hpp>
#include <skillmd/index/render.hpp>
#include <skillmd/storage/registry.hpp>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

namespace skillmd {

/** Every skill of `sys` (and every file that failed to load), or only those whose
    command or name is `name`, with the reasons behind where each one stands.
*/
template <class System>
std::vector<skill_explanation> explain(System const& sys, std::string_view name = {})
{
    auto const snap = sys.snapshot();
    // The index of this very snapshot (a refresh in between cannot make the two disagree),
    // rendered as the system renders it but without telling its observer: describing an
    // index is not using one.
    index_result const idx = render_index(*snap, sys.index_formatter(), sys.settings().listing);
    detail::explainer x(idx, sys.settings().listing, sys.settings().invoke.model_may_invoke_shadowed, name);
    for (auto const& r : snap->skills()) x.describe(r, "skill");
    for (auto const& r : snap->shadowed()) x.describe(r, "shadowed");
    for (auto const& r : snap->disabled()) x.describe(r, "off");
    x.add_failed(snap->diagnostics());
    std::stable_sort(x.out.begin(), x.out.end(), [](auto const& a, auto const& b) {
        return a.command != b.command ? a.command < b.command : a.path < b.path;
    });
    return std::move(x.out);
}

/// `explain`'s answers as JSON: an array of {command, tier, path, index, model_invocable,
/// user_invocable, reasons: [{code, text, file, line, column}]}.
inline boost::json::array to_json(std::vector<skill_explanation> const& all)
{
    boost::json::array a;
    for (auto const& e : all) {
        boost::json::array reasons;
        for (auto const& r : e.reasons)
            reasons.push_back(boost::json::object{{"code", r.code}, {"text", r.text}, {"file", r.file},
                                                  {"line", r.line}, {"column", r.column}});
        a.push_back(boost::json::object{{"command", e.command}, {"tier", e.tier}, {"path", e.path},
                                        {"index", e.index}, {"model_invocable", e.model_invocable},
                                        {"user_invocable", e.user_invocable}, {"reasons", std::move(reasons)}});
    }
    return a;
}

} // namespace skillmd

#endif
