// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
// libFuzzer target for database files:
// clang++-14 -fsanitize=fuzzer,address,undefined. The seed corpus is small databases
// made with 512-byte pages, so that mutations reach every page.
#include "exercise_store.hpp"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size)
{
    skillmd::fuzz::exercise_store({reinterpret_cast<char const*>(data), size});
    return 0;
}
