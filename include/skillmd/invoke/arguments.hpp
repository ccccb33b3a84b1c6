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

#include <algorithm>
#include <cstdint>
#include <map>
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
    bool seed001_exact = false;    ///< Claude Code: replace every `$ARGUMENTS`, else append; nothing more
    /// Claude Code runs JavaScript's `replaceAll` on the content with the base-directory line
    /// in front; `$\`` in an argument stands for everything before the match, this included.
    std::string text_before;
    /// The substituted text may not grow past this: a body full of placeholders times a
    /// long argument must not exhaust memory (`too_long` is set and the text is empty).
    std::size_t max_output_bytes = 4 * 1024 * 1024;
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
/// Claude Code to the letter.
inline substitution_policy seed001()
{
    substitution_policy p;
    p.seed001_exact = true;
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
};

namespace detail {

/// Byte ranges of `body` that are code: fenced blocks (``` or ~~~, up to three spaces
/// of indentation, closed by a fence of the same character at least as long, or the
/// end) and inline spans (a run of backticks closed by a run of the same length before
/// a blank line).
inline std::vector<std::pair<std::size_t, std::size_t>> code_ranges(std::string_view body)
{
    std::vector<std::pair<std::size_t, std::size_t>> out;
    std::size_t pos = 0;
    std::size_t fence_start = 0, fence_len = 0;
    char fence_char = 0;
    std::size_t text_start = 0; // start of the prose since the last fence
    auto const inline_spans = [&](std::size_t from, std::size_t to) {
        std::string_view const s = body.substr(from, to - from);
        std::size_t i = 0;
        while (i < s.size()) {
            if (s[i] != '`') {
                ++i;
                continue;
            }
            std::size_t run = 0;
            while (i + run < s.size() && s[i + run] == '`') ++run;
            std::size_t const open_end = i + run;
            std::size_t j = open_end;
            std::size_t close = std::string_view::npos;
            while (j < s.size()) {
                if (s[j] == '\n') {
                    std::size_t k = j + 1;
                    while (k < s.size() && (s[k] == ' ' || s[k] == '\t')) ++k;
                    if (k >= s.size() || s[k] == '\n') break; // a blank line ends the paragraph
                }
                if (s[j] == '`') {
                    std::size_t r = 0;
                    while (j + r < s.size() && s[j + r] == '`') ++r;
                    if (r == run) {
                        close = j + r;
                        break;
                    }
                    j += r;
                    continue;
                }
                ++j;
            }
            if (close != std::string_view::npos) {
                out.emplace_back(from + i, from + close);
                i = close;
            } else {
                i = open_end;
            }
        }
    };
    while (pos <= body.size()) {
        std::size_t const eol = std::min(body.find('\n', pos), body.size());
        std::string_view const line = body.substr(pos, eol - pos);
        std::size_t indent = 0;
        while (indent < line.size() && indent < 4 && line[indent] == ' ') ++indent;
        std::size_t run = 0;
        char const c = indent < line.size() ? line[indent] : 0;
        if (indent < 4 && (c == '`' || c == '~'))
            while (indent + run < line.size() && line[indent + run] == c) ++run;
        if (fence_char == 0) {
            bool const opens = run >= 3 && (c == '~' || line.find('`', indent + run) == std::string_view::npos);
            if (opens) {
                inline_spans(text_start, pos);
                fence_char = c;
                fence_len = run;
                fence_start = pos;
            }
        } else if (c == fence_char && run >= fence_len &&
                   line.find_first_not_of(" \t\r", indent + run) == std::string_view::npos) {
            out.emplace_back(fence_start, eol);
            fence_char = 0;
            text_start = eol;
        }
        if (eol >= body.size()) break;
        pos = eol + 1;
    }
    if (fence_char != 0) out.emplace_back(fence_start, body.size());
    else inline_spans(text_start, body.size());
    std::sort(out.begin(), out.end());
    return out;
}

constexpr bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }
constexpr bool is_word(char c) noexcept
{
    return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

/// The number the digits `d` spell, saturated (an index no argument list reaches).
inline std::size_t index_of(std::string_view d) noexcept
{
    std::size_t n = 0;
    for (char c : d) {
        if (n > 100000000) return static_cast<std::size_t>(-1);
        n = n * 10 + static_cast<std::size_t>(c - '0');
    }
    return n;
}

inline std::string_view trim_spaces(std::string_view s)
{
    auto const b = s.find_first_not_of(" \t\r\n");
    if (b == std::string_view::npos) return {};
    auto const e = s.find_last_not_of(" \t\r\n");
    return s.substr(b, e - b + 1);
}

} // namespace detail

namespace detail {

/** Appends `replacement` as JavaScript's `String.prototype.replaceAll` with a string
    pattern expands it for the match of `length` bytes at `at` in `body` (preceded by
    `before`): `$$` is `$`, `$&` the match, `` $` `` everything before it, `$'` everything
    after; any other `$` is itself.
*/
inline bool js_replacement(std::string& out, std::string_view replacement, std::string_view before,
                           std::string_view body, std::size_t at, std::size_t length, std::size_t cap)
{
    for (std::size_t i = 0; i < replacement.size(); ++i) {
        if (out.size() > cap) return false;
        char const c = replacement[i];
        if (c != '$' || i + 1 == replacement.size()) {
            out += c;
            continue;
        }
        switch (replacement[i + 1]) {
        case '$': out += '$'; break;
        case '&': out.append(body.substr(at, length)); break;
        case '`': out.append(before); out.append(body.substr(0, at)); break;
        case '\'': out.append(body.substr(at + length)); break;
        default: out += '$'; continue;
        }
        ++i;
    }
    return out.size() <= cap;
}

} // namespace detail

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
    auto const overflow = [&res] {
        res.too_long = true;
        res.text.clear();
        res.text.shrink_to_fit();
        return res;
    };
    if (policy.seed001_exact) {
        res.text = body;
        if (args.empty()) return res;
        if (body.find("$ARGUMENTS") != std::string_view::npos) {
            std::string out;
            std::size_t at = 0, hit;
            while ((hit = body.find("$ARGUMENTS", at)) != std::string_view::npos) {
                out.append(body.substr(at, hit - at));
                if (!detail::js_replacement(out, args, policy.text_before, body, hit, 10, policy.max_output_bytes))
                    return overflow();
                at = hit + 10;
            }
            out.append(body.substr(at));
            res.text = std::move(out);
            res.consumed = true;
        } else {
            res.text += "\n\nARGUMENTS: ";
            res.text += args;
            res.appended = true;
        }
        return res;
    }

    std::string_view const whole = detail::trim_spaces(args);
    auto const list = split_arguments(whole);
    res.unbalanced_quote = list.unbalanced_quote;
    auto const code = policy.skip_code ? detail::code_ranges(body) : std::vector<std::pair<std::size_t, std::size_t>>{};
    std::size_t next_code = 0;

    std::string& out = res.text;
    out.reserve(body.size() + whole.size());
    std::size_t i = 0;
    while (i < body.size()) {
        // Each step adds at most one argument or one code span: checking here bounds the peak.
        if (out.size() > policy.max_output_bytes) return overflow();
        while (next_code < code.size() && code[next_code].second <= i) ++next_code;
        if (next_code < code.size() && code[next_code].first <= i) { // inside code: copy it
            out.append(body.substr(i, code[next_code].second - i));
            i = code[next_code].second;
            continue;
        }
        char const c = body[i];
        if (c == '\\' && policy.escapes && i + 1 < body.size()) {
            if (body[i + 1] == '\\') { // `\\$1` still expands: the pair stays, the `$` is read next
                out += "\\\\";
                i += 2;
                continue;
            }
            if (body[i + 1] == '$') {
                out += '$';
                i += 2;
                // the escaped token is text: copy its name so it is not read again
                while (i < body.size() && (detail::is_word(body[i]) || body[i] == '[' || body[i] == ']')) out += body[i++];
                continue;
            }
        }
        if (c != '$' || i + 1 >= body.size()) {
            out += c;
            ++i;
            continue;
        }
        std::string_view const rest = body.substr(i + 1);
        // $ARGUMENTS[N] and $ARGUMENTS
        if (rest.starts_with("ARGUMENTS")) {
            std::size_t k = 9;
            if (policy.indexed && k < rest.size() && rest[k] == '[') {
                std::size_t d = k + 1;
                while (d < rest.size() && detail::is_digit(rest[d])) ++d;
                if (d > k + 1 && d < rest.size() && rest[d] == ']') {
                    std::size_t const n = detail::index_of(rest.substr(k + 1, d - k - 1));
                    res.consumed = true;
                    if (n < list.items.size()) out += list.items[n];
                    else out.append(body.substr(i, d + 2)); // no such argument: left as written
                    i += d + 2;
                    continue;
                }
            }
            if (k >= rest.size() || !detail::is_word(rest[k])) {
                out += whole;
                res.consumed = true;
                i += 1 + k;
                continue;
            }
        }
        // $N
        if (policy.indexed && detail::is_digit(rest[0])) {
            std::size_t d = 0;
            while (d < rest.size() && detail::is_digit(rest[d])) ++d;
            bool const amount = policy.amounts_are_text &&
                                ((d + 1 < rest.size() && (rest[d] == ',' || rest[d] == '.') && detail::is_digit(rest[d + 1])) ||
                                 (i > 0 && detail::is_word(body[i - 1])));
            if (!amount) {
                std::size_t const n = detail::index_of(rest.substr(0, d));
                res.consumed = true;
                if (n < list.items.size()) out += list.items[n];
                else out.append(body.substr(i, d + 1));
                i += d + 1;
                continue;
            }
            out.append(body.substr(i, d + 1));
            i += d + 1;
            continue;
        }
        // ${NAME}
        if (policy.variables && rest[0] == '{') {
            auto const close = rest.find('}');
            if (close != std::string_view::npos) {
                auto const it = variables.find(rest.substr(1, close - 1));
                if (it != variables.end()) {
                    out += it->second;
                    i += close + 2;
                    continue;
                }
            }
        }
        // $name, the longest declared name that ends at a word boundary
        if (policy.named && !names.empty()) {
            std::size_t best = 0, best_index = 0;
            for (std::size_t n = 0; n < names.size(); ++n) {
                auto const& nm = names[n];
                if (nm.empty() || nm.size() <= best || !rest.starts_with(nm)) continue;
                if (nm.size() < rest.size() && detail::is_word(rest[nm.size()])) continue;
                best = nm.size();
                best_index = n;
            }
            if (best > 0) {
                res.consumed = true;
                if (best_index < list.items.size()) out += list.items[best_index];
                i += 1 + best;
                continue;
            }
        }
        out += c;
        ++i;
    }
    if (!whole.empty() && !res.consumed && policy.append_unconsumed) {
        out += "\n\nARGUMENTS: ";
        out += whole;
        res.appended = true;
    }
    if (out.size() > policy.max_output_bytes) return overflow();
    return res;
}

} // namespace skillmd

#endif
