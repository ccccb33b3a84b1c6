// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_STORAGE_IMPL_TRIGGERS_JSON_HPP
#define SKILLMD_STORAGE_IMPL_TRIGGERS_JSON_HPP

// A database skill's triggers as the database tiers store them: a JSON array of
// strings, written and read back (storage/db_skill.hpp).

#include <skillmd/detail/json.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace skillmd {

namespace detail {

inline std::string triggers_json(std::vector<std::string> const& triggers)
{
    std::string j = "[";
    for (std::size_t i = 0; i < triggers.size(); ++i) {
        if (i) j += ",";
        json_quote(j, triggers[i]);
    }
    return j + "]";
}

/// A JSON array of strings (as our writes store it); anything else gives nothing.
inline std::vector<std::string> parse_triggers_json(std::string_view j)
{
    boost::json::parse_options opts;
    opts.max_depth = 2; // an array of strings: anything deeper is no trigger list
    boost::system::error_code ec;
    boost::json::value const v = boost::json::parse(j, ec, {}, opts);
    if (ec || !v.is_array()) return {};
    std::vector<std::string> out;
    for (auto const& e : v.get_array()) {
        if (!e.is_string()) return {};
        out.emplace_back(e.get_string());
    }
    return out;
}

} // namespace detail

} // namespace skillmd

#endif
