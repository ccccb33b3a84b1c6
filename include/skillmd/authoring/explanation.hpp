// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_AUTHORING_EXPLANATION_HPP
#define SKILLMD_AUTHORING_EXPLANATION_HPP

// What explain (authoring/explain.hpp) says of one skill: where it stands in the index,
// who may invoke it, and the reasons.

#include <cstdint>
#include <string>
#include <vector>

namespace skillmd {

struct explain_reason
{
    std::string code;  ///< not-loaded, shadowed, hidden-flag, requirement, undocumented, budget-omitted, budget-shortened, override
    std::string text;
    std::string file;  ///< where, when a file says it
    std::uint32_t line = 0;
    std::uint32_t column = 0;
};

struct skill_explanation
{
    std::string command; ///< the lookup key; for a file that did not load, its folder's name
    std::string tier;
    std::string path;
    /// listed, shortened, omitted (for the budget), not-listed, shadowed, off, not-loaded
    std::string index;
    bool model_invocable = false;
    bool user_invocable = false;
    std::vector<explain_reason> reasons;
};

} // namespace skillmd

#endif
