// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_TESTS_FUZZ_EXERCISE_HPP
#define SKILLMD_TESTS_FUZZ_EXERCISE_HPP

// What the fuzzer runs on every input, and what the test suite replays on the saved
// corpus: the splitter and the grammar, strict and lenient, with invariants that
// abort when broken (the sanitizers catch the rest).

#include <skillmd/frontmatter/x3_parser.hpp>

#include <cstdlib>
#include <string>
#include <string_view>

namespace skillmd::fuzz {

inline void require(bool ok)
{
    if (!ok) std::abort();
}

inline void check_result(frontmatter::parse_result const& r)
{
    if (r.ok()) {
        std::string json;
        if (!r.doc->empty()) frontmatter::write_json(json, r.doc->root());
        require(!has_error(r.diagnostics));
        return;
    }
    require(has_error(r.diagnostics));
    for (auto const& d : r.diagnostics) require(!d.code.empty() && !d.message.empty() && d.line >= 1 && d.column >= 1);
}

inline void exercise(std::string_view data)
{
    frontmatter::parse_options strict;
    strict.max_bytes = 1 << 20;
    frontmatter::parse_options lenient = strict;
    lenient.recover_colon_in_plain = true;

    check_result(frontmatter::x3_parser(strict).parse(data, "fuzz", 1));
    check_result(frontmatter::x3_parser(lenient).parse(data, "fuzz", 1));

    auto const file = frontmatter::read_skill_file(frontmatter::x3_parser(strict), data, "fuzz");
    require(file.body_offset <= data.size());
}

} // namespace skillmd::fuzz

#endif
