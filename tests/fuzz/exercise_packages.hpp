// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_TESTS_FUZZ_EXERCISE_PACKAGES_HPP
#define SKILLMD_TESTS_FUZZ_EXERCISE_PACKAGES_HPP

// One input to the packages layer; the first byte picks the reader, the rest is its input:
//   0-3  an archive, unpacked into a fresh folder under small limits: on success nothing
//        but folders and regular files below it (no link, nothing outside), within the
//        limits; on failure a reason;
//   4    a discovery index: every entry kept has a valid name, a known type and a digest
//        of the right form, and writing it back reads back the same;
//   5    a lock: what it reads writes back to text that reads back the same;
//   6    plugin.json: a manifest kept has a valid name;
//   7    a source, and a URL resolved against a base: the source writes back to itself.

#include "expect.hpp"

#include <skillmd/packages/archive.hpp>
#include <skillmd/packages/discovery_index.hpp>
#include <skillmd/packages/fetch.hpp>
#include <skillmd/packages/lock_file.hpp>
#include <skillmd/packages/plugin_manifest.hpp>
#include <skillmd/packages/source_spec.hpp>
#include <skillmd/validation/name_rules.hpp>

#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>

namespace skillmd::fuzz {

inline void check_unpacked(std::filesystem::path const& root, packages::package_limits const& limits)
{
    namespace fs = std::filesystem;
    std::uint64_t total = 0;
    for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator(); ++it) {
        auto const st = fs::symlink_status(it->path());
        expect(fs::is_regular_file(st) || fs::is_directory(st)); // no link, device or FIFO
        if (fs::is_regular_file(st)) {
            auto const n = fs::file_size(it->path());
            expect(n <= limits.max_file_bytes);
            total += n;
        }
    }
    expect(total <= limits.max_total_bytes);
}

inline void exercise_packages(std::string_view in)
{
    namespace pk = packages;
    namespace fs = std::filesystem;
    if (in.empty()) return;
    auto const pick = static_cast<unsigned char>(in[0]) % 8;
    std::string_view const body = in.substr(1);
    std::string why;
    if (pick < 4) {
        pk::package_limits limits;
        limits.max_entries = 64;
        limits.max_file_bytes = 64 * 1024;
        limits.max_total_bytes = 256 * 1024;
        char const* base = std::getenv("TMPDIR");
        std::string dir = std::string(base && *base ? base : "/tmp") + "/skillmd-fuzz-XXXXXX";
        if (!::mkdtemp(dir.data())) return;
        why = pk::unpack_archive(body, dir + "/out", limits);
        if (why.empty()) check_unpacked(dir + "/out", limits);
        expect(!fs::exists(dir + "/evil") && !fs::exists(fs::path(dir).parent_path() / "evil"));
        std::error_code ec;
        fs::remove_all(dir, ec);
        return;
    }
    if (pick == 4) {
        if (auto const index = pk::parse_index(body, why)) {
            for (auto const& e : index->skills) {
                expect(broken_name_rules(e.name).empty());
                expect(e.type == "skill-md" || e.type == "archive");
                expect(e.digest.size() == 71 && e.digest.starts_with("sha256:"));
            }
            auto const again = pk::parse_index(pk::to_json(*index), why);
            expect(again && again->skills.size() == index->skills.size() && again->warnings.empty());
        } else {
            expect(!why.empty());
        }
        return;
    }
    if (pick == 5) {
        if (auto const lock = pk::parse_lock(body, why)) {
            auto const text = pk::to_json(*lock);
            auto const again = pk::parse_lock(text, why);
            expect(again.has_value() && pk::to_json(*again) == text);
        } else {
            expect(!why.empty());
        }
        return;
    }
    if (pick == 6) {
        if (auto const m = pk::check_plugin_manifest(body, why)) expect(pk::is_plugin_name(m->name));
        else expect(!why.empty());
        return;
    }
    auto const split = body.find('\n');
    std::string_view const source = body.substr(0, split);
    if (auto const o = pk::parse_source(source, why)) {
        auto const again = pk::parse_source(pk::source_text(*o), why);
        expect(again.has_value() && *again == *o);
    }
    if (split != std::string_view::npos) {
        auto const resolved = pk::resolve_url("https://h.example/a/b/index.json", body.substr(split + 1));
        expect(resolved.size() <= body.size() + 64);
    }
}

} // namespace skillmd::fuzz

#endif
