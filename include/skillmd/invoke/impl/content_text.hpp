// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_INVOKE_IMPL_CONTENT_TEXT_HPP
#define SKILLMD_INVOKE_IMPL_CONTENT_TEXT_HPP

// The pieces the content formats (invoke/content.hpp) write with: a body kept inside its
// tag, an escaped attribute, one clean line, a list of files.

#include <skillmd/detail/prompt_text.hpp>

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace skillmd {

namespace detail {

/// `body` with every `</tag` (any case) written `&lt;/tag`, so it stays inside `<tag>`.
inline std::string keep_inside(std::string_view body, std::string_view tag)
{
    std::string out;
    out.reserve(body.size());
    std::size_t i = 0;
    while (i < body.size()) {
        auto const lt = body.find("</", i);
        if (lt == std::string_view::npos) break;
        std::string_view const rest = body.substr(lt + 2);
        bool same = rest.size() >= tag.size();
        for (std::size_t k = 0; same && k < tag.size(); ++k) {
            char a = rest[k], b = tag[k];
            if (a >= 'A' && a <= 'Z') a = static_cast<char>(a - 'A' + 'a');
            same = a == b;
        }
        out.append(body.substr(i, lt - i));
        out += same ? "&lt;/" : "</";
        i = lt + 2;
    }
    out.append(body.substr(std::min(i, body.size())));
    return out;
}

inline void attribute(std::string& out, std::string_view key, std::string_view value)
{
    out += ' ';
    out += key;
    out += "=\"";
    append_escaped(out, clean_line(value), escaping::html);
    out += '"';
}

inline std::string one_line(std::string_view s) { return clean_line(s); }

/// `<wrapper>` with one `  <file>path</file>` line per file (at most `limit`), or nothing.
inline void file_list(std::string& out, std::string_view wrapper, std::vector<std::string> const& files,
                      std::size_t limit = std::string::npos)
{
    if (files.empty()) return;
    out += "\n<";
    out += wrapper;
    out += ">\n";
    for (std::size_t i = 0; i < files.size() && i < limit; ++i) {
        out += "  <file>";
        append_escaped(out, clean_line(files[i]), escaping::xml);
        out += "</file>\n";
    }
    if (files.size() > limit) out += "  <!-- " + std::to_string(files.size() - limit) + " more file(s) not listed -->\n";
    out += "</";
    out += wrapper;
    out += ">\n";
}

} // namespace detail

} // namespace skillmd

#endif
