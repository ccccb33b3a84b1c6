// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_TESTS_FUZZ_EXERCISE_STORE_HPP
#define SKILLMD_TESTS_FUZZ_EXERCISE_STORE_HPP

// What the database fuzzer runs on every input, and what the test suite replays: the
// input is a database file. It is opened, listed, every row loaded, then written (create,
// update, delete) and checked; every step ends in a result or an error that says
// something, and what a write reports written is what a read returns.

#include "expect.hpp"

#include <skillmd/storage/sources/sqlite_source.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <string_view>

#include <unistd.h>

namespace skillmd::fuzz {

/// Drives a store over the database file at `path`; true when it opened.
inline bool exercise_store_file(std::string const& path)
{
    std::string error;
    auto const store = sqlite_store::open(path, error);
    if (!store) {
        expect(!error.empty());
        return false;
    }
    std::string list_error;
    if (auto const rows = store->list(nullptr, &list_error)) {
        for (auto const& r : *rows) {
            std::string load_error;
            (void)store->load(r.name, &load_error);
        }
    } else {
        expect(!list_error.empty());
    }
    // A write either reports an error or is read back as written.
    db_skill s{"fuzz-written", "Written by the fuzzer", {"fuzz"}, "Body", {}, {}, 0};
    auto const created = store->insert(s);
    expect(created.ok() || !created.message.empty());
    if (created.ok()) {
        std::string load_error;
        auto const back = store->load(s.name, &load_error);
        expect(!back || (back->description == s.description && back->content == s.content));
        db_update u;
        u.description = "Changed by the fuzzer";
        auto const changed = store->modify(s.name, u, {});
        expect(changed.ok() || !changed.message.empty());
        auto const erased = store->erase(s.name);
        expect(erased.ok() || !erased.message.empty());
    }
    (void)store->integrity();
    return true;
}

/// Writes `bytes` as a database file in the temporary directory (one per process) and
/// drives a store over it.
inline void exercise_store(std::string_view bytes)
{
    char const* tmp = std::getenv("TMPDIR");
    std::string const path = std::string(tmp && *tmp ? tmp : "/tmp") + "/skillmd-fuzz-store-" + std::to_string(::getpid()) + ".db";
    auto const remove_all = [&] {
        for (char const* suffix : {"", "-wal", "-shm", "-journal"}) std::remove((path + suffix).c_str());
    };
    remove_all();
    {
        std::ofstream out(path, std::ios::binary);
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    }
    (void)exercise_store_file(path);
    remove_all();
}

} // namespace skillmd::fuzz

#endif
