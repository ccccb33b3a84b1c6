// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
// libFuzzer target for an HTTP answer to the MCP host side: clang++-14 -fsanitize=fuzzer,address,undefined.
#include "exercise_remote.hpp"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size)
{
    skillmd::fuzz::exercise_remote({reinterpret_cast<char const*>(data), size});
    return 0;
}
