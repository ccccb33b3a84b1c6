// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_INVOKE_ARGUMENTS_HPP
#define SKILLMD_INVOKE_ARGUMENTS_HPP

// Argument substitution in a skill body: `$ARGUMENTS`, `$ARGUMENTS[N]`, `$N`,
// named `$name`, `${VARIABLE}`, the `\$` escape, and `ARGUMENTS: <value>` appended when
// nothing took the arguments. By default code (fenced blocks and inline spans) is left
// alone and amounts such as `$1,000` are not placeholders; a policy restores Claude Code's
// exact rule (replace `$ARGUMENTS` or append) or Claude Code's documented one.

#include <skillmd/config.hpp>
#include <skillmd/invoke/substitution_result.hpp>
#include <skillmd/invoke/impl/substituter.hpp>

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace skillmd {

/** Substitutes `args` into `body`.

    @param names     the names `arguments` declares (`$name` is the argument at that position)
    @param variables values for `${NAME}` (e.g. the skill directory)
*/
inline substitution_result substitute(std::string_view body, std::string_view args,
                                      std::vector<std::string> const& names = {},
                                      std::map<std::string, std::string, std::less<>> const& variables = {},
                                      substitution_policy const& policy = {})
{
    substitution_result res;
    bool const fits = policy.exact_replace_all ? detail::substitute_exactly(res, body, args, policy)
                                           : detail::substituter(body, args, names, variables, policy, res).run();
    if (!fits) { // past the limit: nothing of it is kept
        res.too_long = true;
        res.text.clear();
        res.text.shrink_to_fit();
    }
    return res;
}

} // namespace skillmd

#endif
