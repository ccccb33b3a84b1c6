// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_INVOKE_SUBSTITUTION_RESULT_HPP
#define SKILLMD_INVOKE_SUBSTITUTION_RESULT_HPP

// What argument substitution is asked (substitution_policy and its presets) and gives
// back (substitution_result), and the arguments split as a shell splits them.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace skillmd {

/// Arguments split the way a shell splits them.
struct argument_list
{
    std::vector<std::string> items;
    bool unbalanced_quote = false; ///< a quote was not closed; its text runs to the end
};

/** Splits `args` at white space; `'...'` is literal, `"..."` takes `\"`, `\\`, `\$` and
    `` \` `` escapes, a backslash outside quotes takes the next character as it is.
    `"hello world" second` gives `hello world` and `second`.
*/
inline argument_list split_arguments(std::string_view args)
{
    argument_list out;
    std::string cur;
    bool in_token = false;
    enum class quote : std::uint8_t { none, single, dbl } q = quote::none;
    for (std::size_t i = 0; i < args.size(); ++i) {
        char const c = args[i];
        if (q == quote::single) {
            if (c == '\'') q = quote::none;
            else cur += c;
            continue;
        }
        if (q == quote::dbl) {
            if (c == '"') {
                q = quote::none;
            } else if (c == '\\' && i + 1 < args.size() && std::string_view("\"\\$`").find(args[i + 1]) != std::string_view::npos) {
                cur += args[++i];
            } else {
                cur += c;
            }
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f') {
            if (in_token) out.items.push_back(std::move(cur));
            cur.clear();
            in_token = false;
            continue;
        }
        in_token = true;
        if (c == '\'') q = quote::single;
        else if (c == '"') q = quote::dbl;
        else if (c == '\\' && i + 1 < args.size()) cur += args[++i];
        else cur += c;
    }
    if (q != quote::none) out.unbalanced_quote = true;
    if (in_token) out.items.push_back(std::move(cur));
    return out;
}

/// Which placeholders a body may use, and where.
struct substitution_policy
{
    bool indexed = true;           ///< `$ARGUMENTS[N]` and `$N` (0-based)
    bool named = true;             ///< `$name` for the names `arguments` declares
    bool variables = true;         ///< `${NAME}` for the variables the caller gives
    bool escapes = true;           ///< `\$` writes a literal `$`
    bool skip_code = true;         ///< fenced code blocks and inline code are left as written
    bool amounts_are_text = true;  ///< `$1,000`, `$1.50` and `US$5` are not placeholders
    bool append_unconsumed = true; ///< `ARGUMENTS: <value>` when no placeholder took them
    bool exact_replace_all = false; ///< Claude Code: replace every `$ARGUMENTS`, else append; nothing more
    /// Claude Code runs JavaScript's `replaceAll` on the content with the base-directory line
    /// in front; `$\`` in an argument stands for everything before the match, this included.
    std::string text_before;
    /// The substituted text may not grow past this: a body full of placeholders times a
    /// long argument must not exhaust memory (`too_long` is set and the text is empty).
    std::size_t max_output_bytes = 4 * 1024 * 1024;
    /// Named arguments: at most this many names are read from `arguments`, each at most
    /// `max_name_bytes` long; the rest are ignored (`ignored_names` counts them). With
    /// the names in a table, a `$` costs the same whatever their number.
    std::size_t max_names = 256;
    std::size_t max_name_bytes = 64;
};

namespace substitution {
/// The default: every placeholder, but never inside code or in an amount of money.
inline substitution_policy safe() { return {}; }
/// Claude Code as documented: every placeholder, in code too (users report the damage:
/// anthropics/claude-code #84212, #79859, #94496).
inline substitution_policy claude_code()
{
    substitution_policy p;
    p.skip_code = false;
    p.amounts_are_text = false;
    return p;
}
/// Claude Code to the letter, as reverse-engineered: every `$ARGUMENTS` replaced the way
/// JavaScript's `replaceAll` does, else the arguments appended; nothing more.
inline substitution_policy claude_code_exact()
{
    substitution_policy p;
    p.exact_replace_all = true;
    return p;
}
} // namespace substitution

struct substitution_result
{
    std::string text;
    bool consumed = false;         ///< some placeholder took the arguments
    bool appended = false;         ///< `ARGUMENTS: <value>` was appended
    bool unbalanced_quote = false; ///< the arguments had a quote that was not closed
    bool too_long = false;         ///< the result would pass `max_output_bytes`: nothing was produced
    std::size_t ignored_names = 0; ///< declared names past `max_names` or longer than `max_name_bytes`
};

} // namespace skillmd

#endif
