// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_TESTS_FUZZ_EXERCISE_REMOTE_HPP
#define SKILLMD_TESTS_FUZZ_EXERCISE_REMOTE_HPP

// One input as an HTTP answer to the host side (mcp::remote_client): the first byte picks
// the status, the second the Content-Type and whether a session is under way, the third
// the request id; the rest is the body. Read as the client reads it, and as an event
// stream on its own. Checks: a reply is a result or says why; a failure's reason is
// bounded and free of control characters; no more events than the cap (plus the one that
// says there are more), none longer than the body.

#include "expect.hpp"

#include <skillmd/mcp/remote.hpp>
#include <skillmd/net/sse.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace skillmd::fuzz {

inline void exercise_remote(std::string_view in)
{
    if (in.size() < 3) return;
    static constexpr unsigned statuses[] = {200, 202, 204, 301, 302, 400, 401, 403, 404, 405, 406, 500, 503, 100, 999, 0};
    static constexpr std::string_view types[] = {"application/json",  "text/event-stream", "Application/JSON; charset=utf-8",
                                                 "text/html",         "",                  "TEXT/EVENT-STREAM;x=1",
                                                 "application/jsonx", "text/\x1b[31mred"};
    auto const a = static_cast<unsigned char>(in[0]), b = static_cast<unsigned char>(in[1]), c = static_cast<unsigned char>(in[2]);
    std::string_view const body = in.substr(3);

    net::http_client_response res;
    res.status = statuses[a % std::size(statuses)];
    if (std::string_view const t = types[b % std::size(types)]; !t.empty()) res.headers.emplace_back("Content-Type", std::string(t));
    if (a & 0x80) res.headers.emplace_back("Location", "http://x/\r\n\x1b]0;t\x07");
    res.body = std::string(body);
    std::int64_t const id = (c & 1) ? 1 : 7;
    bool const session = b & 0x80;
    std::size_t const cap = (c >> 1) % 8;
    auto const r = mcp::detail::read_http_answer(res, id, session, cap);
    if (r.reply.result) {
        expect(r.reply.error.empty() && r.answered && res.status / 100 == 2);
    } else {
        expect(!r.reply.error.empty());
        if (r.reply.code == 0) { // the client's own words: bounded, nothing for a terminal to obey
            expect(r.reply.error.size() < 400);
            for (char ch : r.reply.error) expect(static_cast<unsigned char>(ch) >= ' ' && ch != 0x7f);
        } else {
            expect(r.answered && r.reply.error.size() <= 500);
        }
    }

    auto const events = net::sse_data(body, cap);
    expect(events.size() <= cap + 1);
    for (auto const& e : events) expect(e.size() <= body.size());
}

} // namespace skillmd::fuzz

#endif
