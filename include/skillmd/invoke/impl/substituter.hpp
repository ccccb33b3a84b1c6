// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_INVOKE_IMPL_SUBSTITUTER_HPP
#define SKILLMD_INVOKE_IMPL_SUBSTITUTER_HPP

// How substitute (invoke/arguments.hpp) works: the code a body keeps as written, Claude
// Code's exact `replaceAll` rule, and the substituter's one pass over a body.

#include <skillmd/invoke/substitution_result.hpp>
#include <skillmd/detail/trim.hpp>

#include <algorithm>
#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace skillmd {

namespace detail {

/// Where the inline code span opened by a run of `run` backticks ending at `open_end` of
/// `s` closes (past its closing run): at the next run of the same length before a blank
/// line; npos when there is none.
inline std::size_t inline_span_close(std::string_view s, std::size_t open_end, std::size_t run)
{
    std::size_t j = open_end;
    while (j < s.size()) {
        if (s[j] == '\n') {
            std::size_t k = j + 1;
            while (k < s.size() && (s[k] == ' ' || s[k] == '\t')) ++k;
            if (k >= s.size() || s[k] == '\n') break; // a blank line ends the paragraph
        }
        if (s[j] == '`') {
            std::size_t r = 0;
            while (j + r < s.size() && s[j + r] == '`') ++r;
            if (r == run) return j + r;
            j += r;
            continue;
        }
        ++j;
    }
    return std::string_view::npos;
}

/// The inline code spans of the prose [from, to) of `body`, added to `out`.
inline void inline_spans(std::string_view body, std::size_t from, std::size_t to,
                         std::vector<std::pair<std::size_t, std::size_t>>& out)
{
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
        std::size_t const close = inline_span_close(s, open_end, run);
        if (close != std::string_view::npos) {
            out.emplace_back(from + i, from + close);
            i = close;
        } else {
            i = open_end;
        }
    }
}

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
                inline_spans(body, text_start, pos, out);
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
    else inline_spans(body, text_start, body.size(), out);
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

/// Claude Code's rule to the letter: every `$ARGUMENTS` replaced (with JavaScript's
/// `replaceAll` replacement patterns), else the arguments appended. False past `cap`.
inline bool substitute_exactly(substitution_result& res, std::string_view body, std::string_view args,
                               substitution_policy const& policy)
{
    res.text = body;
    if (args.empty()) return true;
    if (body.find("$ARGUMENTS") == std::string_view::npos) {
        res.text += "\n\nARGUMENTS: ";
        res.text += args;
        res.appended = true;
        return res.text.size() <= policy.max_output_bytes;
    }
    std::string out;
    std::size_t at = 0, hit;
    while ((hit = body.find("$ARGUMENTS", at)) != std::string_view::npos) {
        out.append(body.substr(at, hit - at));
        if (!js_replacement(out, args, policy.text_before, body, hit, 10, policy.max_output_bytes)) return false;
        at = hit + 10;
    }
    out.append(body.substr(at)); // the text after the last match counts too
    res.text = std::move(out);
    res.consumed = true;
    return res.text.size() <= policy.max_output_bytes;
}

/** One pass over a body: code spans copied as they are, `\$` escapes, and each `$` token
    (`$ARGUMENTS`, `$ARGUMENTS[N]`, `$N`, `${NAME}`, `$name`) expanded by the policy. Each
    token has its member; `i_` is where the pass stands in the body.
*/
class substituter
{
public:
    substituter(std::string_view body, std::string_view args, std::vector<std::string> const& names,
                std::map<std::string, std::string, std::less<>> const& variables, substitution_policy const& policy,
                substitution_result& res)
        : body_(body), whole_(trim_spaces(args)), list_(split_arguments(whole_)), variables_(variables),
          policy_(policy), res_(res), out_(res.text)
    {
        res_.unbalanced_quote = list_.unbalanced_quote;
        // Each name once, at its first position (as the longest-match rule took the first).
        for (std::size_t n = 0; n < names.size(); ++n) {
            if (n >= policy_.max_names || names[n].size() > policy_.max_name_bytes) {
                ++res_.ignored_names;
                continue;
            }
            if (!names[n].empty()) names_.try_emplace(std::string_view(names[n]), n);
        }
        if (policy_.skip_code) code_ = code_ranges(body_);
    }

    /// False when the text grew past the policy's limit.
    bool run()
    {
        out_.reserve(body_.size() + whole_.size());
        while (i_ < body_.size()) {
            // Each step adds at most one argument or one code span: checking here bounds the peak.
            if (out_.size() > policy_.max_output_bytes) return false;
            if (code() || escape()) continue;
            if (body_[i_] != '$' || i_ + 1 >= body_.size()) {
                out_ += body_[i_++];
                continue;
            }
            std::string_view const rest = body_.substr(i_ + 1);
            if (arguments_token(rest) || indexed_token(rest) || variable_token(rest) || named_token(rest)) continue;
            out_ += body_[i_++];
        }
        if (!whole_.empty() && !res_.consumed && policy_.append_unconsumed) {
            out_ += "\n\nARGUMENTS: ";
            out_ += whole_;
            res_.appended = true;
        }
        return out_.size() <= policy_.max_output_bytes;
    }

private:
    /// Inside a code span: copied to its end.
    bool code()
    {
        while (next_code_ < code_.size() && code_[next_code_].second <= i_) ++next_code_;
        if (next_code_ >= code_.size() || code_[next_code_].first > i_) return false;
        out_.append(body_.substr(i_, code_[next_code_].second - i_));
        i_ = code_[next_code_].second;
        return true;
    }

    /// `\\$1` still expands (the pair stays, the `$` is read next); `\$name` is text.
    bool escape()
    {
        if (body_[i_] != '\\' || !policy_.escapes || i_ + 1 >= body_.size()) return false;
        if (body_[i_ + 1] == '\\') {
            out_ += "\\\\";
            i_ += 2;
            return true;
        }
        if (body_[i_ + 1] != '$') return false;
        out_ += '$';
        i_ += 2;
        // the escaped token is text: copy its name so it is not read again
        while (i_ < body_.size() && (is_word(body_[i_]) || body_[i_] == '[' || body_[i_] == ']')) out_ += body_[i_++];
        return true;
    }

    /// Argument `n`, or the token as written (`length` bytes from the `$`) when there is none.
    void argument(std::size_t n, std::size_t length)
    {
        res_.consumed = true;
        if (n < list_.items.size()) out_ += list_.items[n];
        else out_.append(body_.substr(i_, length));
        i_ += length;
    }

    /// `$ARGUMENTS[N]` and `$ARGUMENTS`.
    bool arguments_token(std::string_view rest)
    {
        if (!rest.starts_with("ARGUMENTS")) return false;
        std::size_t const k = 9;
        if (policy_.indexed && k < rest.size() && rest[k] == '[') {
            std::size_t d = k + 1;
            while (d < rest.size() && is_digit(rest[d])) ++d;
            if (d > k + 1 && d < rest.size() && rest[d] == ']') {
                argument(index_of(rest.substr(k + 1, d - k - 1)), d + 2);
                return true;
            }
        }
        if (k < rest.size() && is_word(rest[k])) return false; // `$ARGUMENTSX` is some other name
        out_ += whole_;
        res_.consumed = true;
        i_ += 1 + k;
        return true;
    }

    /// `$N`; with `amounts_are_text`, `$1,000`, `$2.50` and `US$5` stay as written.
    bool indexed_token(std::string_view rest)
    {
        if (!policy_.indexed || !is_digit(rest[0])) return false;
        std::size_t d = 0;
        while (d < rest.size() && is_digit(rest[d])) ++d;
        bool const amount = policy_.amounts_are_text &&
                            ((d + 1 < rest.size() && (rest[d] == ',' || rest[d] == '.') && is_digit(rest[d + 1])) ||
                             (i_ > 0 && is_word(body_[i_ - 1])));
        if (!amount) {
            argument(index_of(rest.substr(0, d)), d + 1);
            return true;
        }
        out_.append(body_.substr(i_, d + 1));
        i_ += d + 1;
        return true;
    }

    /// `${NAME}` when the variable is known.
    bool variable_token(std::string_view rest)
    {
        if (!policy_.variables || rest[0] != '{') return false;
        auto const close = rest.find('}');
        if (close == std::string_view::npos) return false;
        auto const it = variables_.find(rest.substr(1, close - 1));
        if (it == variables_.end()) return false;
        out_ += it->second;
        i_ += close + 2;
        return true;
    }

    /// `$name`: the longest declared name that ends at a word boundary. Only the prefixes
    /// of `rest` that end at a boundary and are no longer than a name may be looked up: at
    /// most `max_name_bytes` table lookups, whatever the number of names.
    bool named_token(std::string_view rest)
    {
        if (!policy_.named || names_.empty()) return false;
        std::size_t best = 0, best_index = 0;
        std::size_t const longest = std::min(rest.size(), policy_.max_name_bytes);
        for (std::size_t len = longest; len > 0; --len) {
            if (len < rest.size() && is_word(rest[len])) continue; // not at a word boundary
            if (auto const it = names_.find(rest.substr(0, len)); it != names_.end()) {
                best = len;
                best_index = it->second;
                break;
            }
        }
        if (best == 0) return false;
        res_.consumed = true;
        if (best_index < list_.items.size()) out_ += list_.items[best_index];
        i_ += 1 + best;
        return true;
    }

    std::string_view body_;
    std::string_view whole_;
    argument_list list_;
    std::unordered_map<std::string_view, std::size_t> names_; // views into the caller's names

    std::map<std::string, std::string, std::less<>> const& variables_;
    substitution_policy const& policy_;
    substitution_result& res_;
    std::string& out_;
    std::vector<std::pair<std::size_t, std::size_t>> code_;
    std::size_t next_code_ = 0;
    std::size_t i_ = 0;
};

} // namespace detail

} // namespace skillmd

#endif
