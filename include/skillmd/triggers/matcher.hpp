// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_TRIGGERS_MATCHER_HPP
#define SKILLMD_TRIGGERS_MATCHER_HPP

// Trigger phrases (koshi): literal, case-insensitive, whole-word matching
// of every phrase of every skill in one pass over the message, whatever the number of
// phrases (an Aho-Corasick automaton over code points).

#include <skillmd/config.hpp>
#include <skillmd/detail/utf8.hpp>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace skillmd {

/** Matches many trigger phrases against a message at once.

    A phrase matches when it appears in the message as whole words: case is ignored
    for ASCII and Latin-1 letters, runs of white space count as one space, and the
    characters before and after the match must not be letters, digits or `_`.
    `match` returns the ids of the skills with a matching phrase, ascending.
*/
class trigger_matcher
{
public:
    /// Adds a phrase for a skill; empty phrases are ignored. Call `build()` after the last.
    void add(std::string_view phrase, std::size_t skill)
    {
        std::vector<char32_t> const cps = normalise(phrase).first;
        if (cps.empty()) return;
        std::uint32_t state = 0;
        for (char32_t c : cps) {
            auto const key = edge(state, c);
            auto const it = next_.find(key);
            if (it != next_.end()) {
                state = it->second;
            } else {
                nodes_.push_back({});
                auto const n = static_cast<std::uint32_t>(nodes_.size() - 1);
                next_.emplace(key, n);
                nodes_[state].children.push_back(c);
                state = n;
            }
        }
        nodes_[state].outputs.push_back({skill, static_cast<std::uint32_t>(cps.size())});
        skills_ = std::max(skills_, skill + 1);
        ++phrases_;
        built_ = false;
    }

    /// Computes the failure links (breadth first).
    void build()
    {
        std::deque<std::uint32_t> queue;
        for (char32_t c : nodes_[0].children) {
            auto const child = next_.at(edge(0, c));
            nodes_[child].fail = 0;
            queue.push_back(child);
        }
        while (!queue.empty()) {
            std::uint32_t const s = queue.front();
            queue.pop_front();
            for (char32_t c : nodes_[s].children) {
                std::uint32_t const child = next_.at(edge(s, c));
                std::uint32_t f = nodes_[s].fail;
                while (f != 0 && !next_.count(edge(f, c))) f = nodes_[f].fail;
                auto const it = next_.find(edge(f, c));
                nodes_[child].fail = it != next_.end() && it->second != child ? it->second : 0;
                // the nearest proper suffix that ends a phrase
                std::uint32_t const fl = nodes_[child].fail;
                nodes_[child].dict = nodes_[fl].outputs.empty() ? nodes_[fl].dict : fl;
                queue.push_back(child);
            }
        }
        built_ = true;
    }

    /// The skills with a phrase in `message`, ascending, each once.
    std::vector<std::size_t> match(std::string_view message) const { return match(fold(message)); }

    /// A message as matching reads it (folded, white space as one space), for matching
    /// one message with several matchers.
    class folded
    {
        friend class trigger_matcher;
        std::vector<char32_t> text_;
        std::vector<bool> word_; ///< whether text_[i] is a word character (as many)
    };
    static folded fold(std::string_view message)
    {
        folded f;
        std::tie(f.text_, f.word_) = normalise(message);
        return f;
    }
    std::vector<std::size_t> match(folded const& message) const
    {
        std::vector<std::size_t> found;
        if (!built_ || nodes_.size() == 1) return found;
        // Each skill once as it is found: phrases nested in one another ("a", "a a", ...)
        // end at every position of a long message, and would list a skill that often.
        // (A bit per id, unless the ids a caller chose are sparse.)
        bool const dense = skills_ <= 8 * phrases_ + 1024;
        std::vector<bool> seen(dense ? skills_ : 0);
        std::unordered_set<std::size_t> seen_sparse;
        auto const first_time = [&](std::size_t skill) {
            if (!dense) return seen_sparse.insert(skill).second;
            if (seen[skill]) return false;
            seen[skill] = true;
            return true;
        };
        auto const& text = message.text_;
        auto const& word = message.word_;
        std::uint32_t s = 0;
        for (std::size_t i = 0; i < text.size(); ++i) {
            char32_t const c = text[i];
            while (s != 0 && !next_.count(edge(s, c))) s = nodes_[s].fail;
            if (auto const it = next_.find(edge(s, c)); it != next_.end()) s = it->second;
            for (std::uint32_t o = nodes_[s].outputs.empty() ? nodes_[s].dict : s; o != 0; o = nodes_[o].dict)
                for (auto const& out : nodes_[o].outputs) {
                    std::size_t const begin = i + 1 - out.length;
                    bool const starts = begin == 0 || !word[begin - 1] || !word[begin];
                    bool const ends = i + 1 == text.size() || !word[i + 1] || !word[i];
                    if (starts && ends && first_time(out.skill)) found.push_back(out.skill);
                }
        }
        std::sort(found.begin(), found.end());
        return found;
    }

private:
    struct output
    {
        std::size_t skill;
        std::uint32_t length; // in code points
    };
    struct node
    {
        std::uint32_t fail = 0;
        std::uint32_t dict = 0; // next node on the failure chain that ends a phrase
        std::vector<char32_t> children;
        std::vector<output> outputs;
    };

    static std::uint64_t edge(std::uint32_t state, char32_t c) { return (std::uint64_t{state} << 21) | c; }

    static bool is_word(char32_t c)
    {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
               (c >= 0xc0 && c <= 0x24f && c != 0xd7 && c != 0xf7) || c > 0x2ff;
    }
    static bool is_space(char32_t c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == 0xa0; }
    /// ASCII and Latin-1 letters to lowercase.
    static char32_t fold_case(char32_t c)
    {
        if ((c >= 'A' && c <= 'Z') || (c >= 0xc0 && c <= 0xde && c != 0xd7)) return c + 0x20;
        return c;
    }

    /// The text as folded code points with white-space runs as one space, and for
    /// each position whether it is a word character (for the boundary checks).
    static std::pair<std::vector<char32_t>, std::vector<bool>> normalise(std::string_view s)
    {
        std::vector<char32_t> out;
        std::vector<bool> word;
        out.reserve(s.size());
        bool space = false;
        std::size_t i = 0;
        while (i < s.size()) {
            std::size_t n = detail::utf8_sequence_length(s, i);
            char32_t const c = n == 0 ? char32_t{0xfffd} : detail::utf8_decode(s.data() + i, n);
            i += n == 0 ? 1 : n;
            if (is_space(c)) {
                space = !out.empty();
                continue;
            }
            if (space) {
                out.push_back(' ');
                word.push_back(false);
                space = false;
            }
            out.push_back(fold_case(c));
            word.push_back(is_word(c));
        }
        return {std::move(out), std::move(word)};
    }

    std::vector<node> nodes_ = std::vector<node>(1);
    std::unordered_map<std::uint64_t, std::uint32_t> next_;
    std::size_t skills_ = 0; ///< one past the highest skill id added
    std::size_t phrases_ = 0;
    bool built_ = true;
};

} // namespace skillmd

#endif
