// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_NET_SSE_HPP
#define SKILLMD_NET_SSE_HPP

// Server-sent events (`text/event-stream`, the HTML standard's event stream format) read
// from a whole body: the data of each event, in order. Lines end in CRLF, LF or CR; a
// line starting with `:` is a comment; `data` fields join with a newline; a blank line
// ends an event and an event without data is none. Other fields (`event`, `id`,
// `retry`) are read past: the callers here only want the data. At most `max_events` are
// kept; one more is returned when there are more, so the caller can tell.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace skillmd::net {

inline std::vector<std::string> sse_data(std::string_view body, std::size_t max_events = 100000)
{
    std::vector<std::string> events;
    std::string data;
    bool has_data = false;
    if (body.starts_with("\xEF\xBB\xBF")) body.remove_prefix(3); // a byte order mark may open the stream
    while (!body.empty()) {
        auto const end = body.find_first_of("\r\n");
        std::string_view const line = body.substr(0, end);
        if (end == std::string_view::npos) {
            body = {}; // a last line without its end: the event is incomplete and dropped
            break;
        }
        body.remove_prefix(end + (body[end] == '\r' && end + 1 < body.size() && body[end + 1] == '\n' ? 2 : 1));
        if (line.empty()) {
            if (has_data) {
                events.push_back(std::move(data));
                if (events.size() > max_events) return events;
            }
            data.clear();
            has_data = false;
            continue;
        }
        if (line.front() == ':') continue;
        auto const colon = line.find(':');
        std::string_view const field = line.substr(0, colon);
        std::string_view value = colon == std::string_view::npos ? std::string_view() : line.substr(colon + 1);
        if (value.starts_with(' ')) value.remove_prefix(1);
        if (field != "data") continue;
        if (has_data) data += '\n';
        data += value;
        has_data = true;
    }
    return events;
}

} // namespace skillmd::net

#endif
