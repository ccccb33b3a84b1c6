// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
// libFuzzer target for the packages layer (archives, indexes, locks, plugin.json, sources):
// clang++-14 -fsanitize=fuzzer,address,undefined.
#include "exercise_packages.hpp"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size)
{
    skillmd::fuzz::exercise_packages({reinterpret_cast<char const*>(data), size});
    return 0;
}
