// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_STORAGE_REQUIREMENTS_HPP
#define SKILLMD_STORAGE_REQUIREMENTS_HPP

// Requirements gating (sven): a skill whose `requires_bins` are not on
// PATH or whose `requires_env` variables are unset is hidden, with an info diagnostic.

#include <skillmd/model/skill.hpp>

#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include <sys/stat.h>
#include <unistd.h>

namespace skillmd {

/// Checks requirements against this process's PATH and environment; remembers what
/// it looked up, so one check per refresh is enough.
class requirement_checker
{
public:
    /// Why the skill's requirements are not met, or nothing when they are. `M`: a
    /// skill_metadata, or a record's packed_metadata.
    template <class M>
    std::optional<std::string> unmet(M const& m)
    {
        for (auto const& b : m.requires_bins) {
            std::string const bin(b);
            if (!on_path(bin)) return "`" + bin + "` is not on PATH";
        }
        for (auto const& v : m.requires_env) {
            std::string const var(v);
            if (std::getenv(var.c_str()) == nullptr) return "environment variable `" + var + "` is not set";
        }
        return std::nullopt;
    }

    bool on_path(std::string const& bin)
    {
        if (auto const it = found_.find(bin); it != found_.end()) return it->second;
        bool ok = false;
        if (!bin.empty() && bin.find('/') == std::string::npos) {
            char const* path = std::getenv("PATH");
            std::string_view rest = path ? path : "";
            while (!ok) {
                auto const colon = rest.find(':');
                std::string dir(rest.substr(0, colon));
                if (dir.empty()) dir = ".";
                std::string const file = dir + "/" + bin;
                struct stat st {};
                ok = ::stat(file.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(file.c_str(), X_OK) == 0;
                if (colon == std::string_view::npos) break;
                rest.remove_prefix(colon + 1);
            }
        }
        return found_[bin] = ok;
    }

private:
    std::map<std::string, bool> found_;
};

} // namespace skillmd

#endif
