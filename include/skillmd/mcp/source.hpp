// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_MCP_SOURCE_HPP
#define SKILLMD_MCP_SOURCE_HPP

// A tier whose skills come from an MCP server with the Skills extension: the host side.
// The server runs as a child process (mcp/client.hpp) or answers at a URL over
// streamable HTTP (mcp/remote.hpp). Its skills are listed with
// `skills/list` and read with `resources/read`; every read is checked against the
// digest and size the listing published, and a file whose bytes do not match is refused.
// Commands live in the server's namespace (`NS:skill-path`), so an MCP skill never
// takes the name of another tier's skill. Link skillmd::mcp.

#include <skillmd/mcp/client.hpp>
#include <skillmd/mcp/digest.hpp>
#include <skillmd/mcp/frontmatter_json.hpp>
#include <skillmd/mcp/published_skill.hpp>
#include <skillmd/mcp/impl/listing_entry.hpp>
#include <skillmd/mcp/uri.hpp>
#include <skillmd/storage/source.hpp>

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace skillmd::mcp {

struct source_options
{
    client_options client; ///< for a server started as a child process
    std::size_t max_skills = 10000; ///< more in a listing are left out, with a diagnostic
    std::size_t max_pages = 1000;   ///< a server whose cursors never end is stopped here
    std::chrono::milliseconds first_retry{500};  ///< after a failure, the wait before restarting the server
    std::chrono::milliseconds last_retry{30000}; ///< the wait doubles up to this
};

/// Frontmatter keys that would widen the model's permissions: never honoured for a skill
/// that arrives over MCP (the extension forbids it without the user's approval).
inline constexpr std::string_view permission_keys[] = {"allowed-tools", "tools", "hooks"};

/** A tier of skills served by an MCP server: a command started as a child process, or
    any mcp::connection (a remote_client for a server at a URL).

    `discover()` lists the server's skills (every page), checks each entry and returns
    them as `NAMESPACE:skill-path` commands; `read_head`/`read_all` read SKILL.md with
    `resources/read` and accept it only when its bytes match the published digest and
    size; `read_file` does the same for a bundled file. A server that fails is stopped
    and restarted on a later call (waiting longer after each failure); meanwhile its last
    listing stays, with a diagnostic. Copies share one server.
*/
class source
{
public:
    source(std::string label, std::string ns, std::vector<std::string> command, source_options opts = {})
        : state_(std::make_shared<state>(std::move(label), std::move(ns), nullptr, std::move(opts)))
    {
        state_->client = std::make_unique<rpc_client>(std::move(command), state_->opts.client);
    }
    /// A server reached through `server` (never null).
    source(std::string label, std::string ns, std::unique_ptr<connection> server, source_options opts = {})
        : state_(std::make_shared<state>(std::move(label), std::move(ns), std::move(server), std::move(opts)))
    {
    }

    std::string_view label() const noexcept { return state_->label; }
    std::string const& name_space() const noexcept { return state_->ns; }
    /// What every command of this source starts with (the registry allows `:` only there).
    std::string command_prefix() const { return state_->ns + ":"; }

    discovery discover() const
    {
        std::lock_guard<std::mutex> lock(state_->mutex);
        discovery d;
        auto& st = *state_;
        if (!valid_namespace(st.ns)) {
            d.diagnostics.push_back(problem(severity::error, "`" + st.ns + "` is not a namespace (letters, digits, `-`, `_`, `.`)"));
            return d;
        }
        std::string why;
        if (!ensure_running(why)) {
            d.diagnostics.push_back(problem(severity::error, why + (st.skills.empty() ? "" : "; its last listing stays")));
        } else if (auto listed = list(d.diagnostics, why)) {
            st.skills = std::move(*listed);
        } else {
            failed();
            d.diagnostics.push_back(problem(severity::error, why + (st.skills.empty() ? "" : "; its last listing stays")));
        }
        for (auto const& [path, s] : st.skills) d.skills.push_back(candidate_of(s));
        return d;
    }

    /// The frontmatter as the listing gave it, without fetching anything (the extension
    /// has SKILL.md fetched only when the skill is used), permission keys left out.
    read_outcome read_head(candidate const& c) const
    {
        std::lock_guard<std::mutex> lock(state_->mutex);
        read_outcome out;
        auto const it = state_->skills.find(skill_path(c));
        if (it == state_->skills.end()) return gone(out);
        out.text = frontmatter_text(it->second.frontmatter, permission_keys);
        out.complete = true; // the body is fetched, and checked, when it is asked for
        out.stamp = stamp_of(it->second.files.front());
        return out;
    }

    /// SKILL.md fetched now: its bytes must match the published digest and size, and its
    /// frontmatter the entry's, field by field.
    read_outcome read_all(candidate const& c) const
    {
        std::lock_guard<std::mutex> lock(state_->mutex);
        read_outcome out;
        auto const it = state_->skills.find(skill_path(c));
        if (it == state_->skills.end()) return gone(out);
        auto bytes = fetch(it->second.files.front(), out.error);
        if (!bytes) return out;
        std::string why;
        auto const fm = frontmatter_json(*bytes, why);
        if (!fm || !same_json(*fm, it->second.frontmatter)) {
            out.error = it->second.uri + ": its frontmatter is not the one its entry published" + (why.empty() ? "" : " (" + why + ")") +
                        "; refused";
            return out;
        }
        out.text = std::move(*bytes);
        out.complete = true;
        out.stamp = stamp_of(it->second.files.front());
        return out;
    }

    /// A bundled file of a skill (`path` below its folder), checked against its digest.
    read_outcome read_file(candidate const& c, std::string_view path) const
    {
        std::lock_guard<std::mutex> lock(state_->mutex);
        read_outcome out;
        auto const it = state_->skills.find(skill_path(c));
        auto const* f = it == state_->skills.end() ? nullptr : find_file(it->second, path);
        if (f == nullptr) {
            out.error = "not a file the server published for this skill";
            out.absent = true;
            return out;
        }
        auto bytes = fetch(*f, out.error);
        if (!bytes) return out;
        out.text = std::move(*bytes);
        out.complete = true;
        out.stamp = stamp_of(*f);
        return out;
    }

    /// The files published with a skill besides SKILL.md (not read).
    std::vector<std::string> bundled_files(candidate const& c) const
    {
        std::lock_guard<std::mutex> lock(state_->mutex);
        std::vector<std::string> out;
        if (auto const it = state_->skills.find(skill_path(c)); it != state_->skills.end())
            for (auto const& f : it->second.files)
                if (f.path != "SKILL.md") out.push_back(f.path);
        return out;
    }

    /// What the last listing published for the skill of `c`.
    std::optional<published_skill> published(candidate const& c) const
    {
        std::lock_guard<std::mutex> lock(state_->mutex);
        auto const it = state_->skills.find(skill_path(c));
        if (it == state_->skills.end()) return std::nullopt;
        return it->second;
    }

private:
    struct state
    {
        state(std::string l, std::string n, std::unique_ptr<connection> c, source_options o)
            : label(std::move(l)), ns(std::move(n)), opts(std::move(o)), client(std::move(c))
        {
        }
        std::string label, ns;
        source_options opts;
        std::mutex mutex;
        std::unique_ptr<connection> client;
        std::map<std::string, published_skill> skills; ///< the last good listing, by skill path
        std::chrono::steady_clock::time_point next_start{};
        std::chrono::milliseconds wait{0};
    };

    read_outcome& gone(read_outcome& out) const
    {
        out.error = "no longer served by " + state_->ns;
        out.absent = true;
        return out;
    }

    static bool valid_namespace(std::string_view ns)
    {
        return !ns.empty() && ns.size() <= 64 &&
               ns.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.") == std::string_view::npos;
    }

    diagnostic problem(severity s, std::string message) const
    {
        return {"mcp-server", s, "mcp:" + state_->ns, 0, 0, std::move(message)};
    }

    std::string skill_path(candidate const& c) const
    {
        std::string const prefix = command_prefix();
        return c.command.starts_with(prefix) ? c.command.substr(prefix.size()) : c.command;
    }

    static published_file const* find_file(published_skill const& s, std::string_view path)
    {
        for (auto const& f : s.files)
            if (f.path == path) return &f;
        return nullptr;
    }

    /// A stamp that changes exactly when the published SKILL.md changes.
    static file_stamp stamp_of(published_file const& f)
    {
        std::uint64_t h = 0;
        for (std::size_t i = 0; i < 15; ++i) h = h << 4 | static_cast<std::uint64_t>(detail::hex_value(f.hex[i]));
        return {0, 0, f.size, static_cast<std::int64_t>(h | 1)}; // never 0: a zero time means "unknown"
    }

    candidate candidate_of(published_skill const& s) const
    {
        candidate c;
        c.command = command_prefix() + s.path;
        c.path = s.uri;
        c.directory_name = s.path.substr(s.path.rfind('/') == std::string::npos ? 0 : s.path.rfind('/') + 1);
        c.stamp = stamp_of(s.files.front());
        return c;
    }

    /// Stops the server; it is started again after a wait that doubles with each failure.
    void failed() const
    {
        auto& st = *state_;
        st.client->stop();
        st.wait = std::min(st.opts.last_retry, std::max(st.opts.first_retry, st.wait * 2));
        st.next_start = std::chrono::steady_clock::now() + st.wait;
    }

    bool ensure_running(std::string& why) const
    {
        auto& st = *state_;
        if (st.client->running()) return true;
        if (std::chrono::steady_clock::now() < st.next_start) {
            why = "the server " + st.ns + " failed (" + st.client->failure() + "); it is restarted after a pause";
            return false;
        }
        if (std::string const e = st.client->start(); !e.empty()) {
            why = "the server " + st.ns + ": " + e;
            failed();
            return false;
        }
        auto const* ext = st.client->capabilities().if_contains("extensions");
        if (ext == nullptr || !ext->is_object() || !ext->as_object().contains(extension_id)) {
            why = "the server " + st.ns + " does not offer the Skills extension";
            failed();
            return false;
        }
        st.wait = std::chrono::milliseconds(0);
        return true;
    }

    /// Every page of `skills/list`, checked; nothing (and `why`) when the server failed.
    std::optional<std::map<std::string, published_skill>> list(std::vector<diagnostic>& diags, std::string& why) const
    {
        auto& st = *state_;
        std::map<std::string, published_skill> out;
        std::string cursor;
        std::vector<std::string> cursors;
        for (std::size_t page = 0;; ++page) {
            if (page == st.opts.max_pages) {
                why = "the server " + st.ns + " gave more than " + std::to_string(st.opts.max_pages) + " pages";
                return std::nullopt;
            }
            boost::json::object params;
            if (!cursor.empty()) params["cursor"] = cursor;
            auto r = st.client->request("skills/list", std::move(params));
            if (!r) {
                why = "the server " + st.ns + ": skills/list: " + r.error;
                return std::nullopt;
            }
            auto const* skills = r.result->if_contains("skills");
            if (skills == nullptr || !skills->is_array()) {
                why = "the server " + st.ns + ": skills/list without a `skills` list";
                return std::nullopt;
            }
            for (auto const& e : skills->as_array()) {
                std::string bad;
                auto s = detail::read_entry(e, bad);
                if (!s) {
                    diags.push_back(problem(severity::error, bad + "; skipped"));
                } else if (out.size() >= st.opts.max_skills) {
                    diags.push_back(problem(severity::error, "more than " + std::to_string(st.opts.max_skills) +
                                                                 " skills; " + s->uri + " and later ones skipped"));
                    return out;
                } else if (out.contains(s->path)) {
                    diags.push_back(problem(severity::error, s->uri + " is listed twice; the second is skipped"));
                } else {
                    for (auto key : permission_keys)
                        if (s->frontmatter.contains(key))
                            diags.push_back(problem(severity::warning, s->uri + " asks for `" + std::string(key) +
                                                                           "`: ignored for a skill served over MCP"));
                    std::string const key = s->path;
                    out.emplace(key, std::move(*s));
                }
            }
            auto const* next = r.result->if_contains("nextCursor");
            if (next == nullptr || next->is_null()) return out;
            if (!next->is_string() || next->as_string().empty() || next->as_string().size() > 1024 ||
                std::find(cursors.begin(), cursors.end(), next->as_string()) != cursors.end()) {
                why = "the server " + st.ns + " gave a `nextCursor` that is not a new string";
                return std::nullopt;
            }
            cursor = next->as_string();
            cursors.push_back(cursor);
        }
    }

    /// The bytes of one published file, read now and checked against its digest and size.
    std::optional<std::string> fetch(published_file const& f, std::string& error) const
    {
        auto& st = *state_;
        std::string why;
        if (!ensure_running(why)) {
            error = why;
            return std::nullopt;
        }
        auto r = st.client->request("resources/read", boost::json::object{{"uri", f.uri}});
        if (!r) {
            error = "the server " + st.ns + ": resources/read " + f.uri + ": " + r.error;
            if (r.code == 0) failed(); // the transport broke; an answered error leaves the server running
            return std::nullopt;
        }
        auto const* contents = r.result->if_contains("contents");
        auto const* c = contents && contents->is_array() && contents->as_array().size() == 1
                            ? contents->as_array().front().if_object()
                            : nullptr;
        auto const* uri = c ? c->if_contains("uri") : nullptr;
        if (c == nullptr || uri == nullptr || !uri->is_string() || uri->as_string() != f.uri) {
            error = "the server " + st.ns + " answered resources/read " + f.uri + " with other contents";
            return std::nullopt;
        }
        std::optional<std::string> bytes;
        if (auto const* text = c->if_contains("text"); text && text->is_string()) {
            bytes = std::string(text->as_string());
        } else if (auto const* blob = c->if_contains("blob"); blob && blob->is_string()) {
            bytes = base64_decode(blob->as_string());
            if (!bytes) {
                error = "the server " + st.ns + " sent " + f.uri + " as a blob that is not Base64";
                return std::nullopt;
            }
        } else {
            error = "the server " + st.ns + " sent " + f.uri + " without `text` or `blob`";
            return std::nullopt;
        }
        if (bytes->size() != f.size || sha256_hex(*bytes) != f.hex) {
            error = f.uri + ": the bytes the server sent do not match its published digest (sha256:" + f.hex + ", " +
                    std::to_string(f.size) + " bytes); refused";
            return std::nullopt;
        }
        return bytes;
    }

    std::shared_ptr<state> state_;
};

static_assert(skill_source<source>, "mcp::source must model skill_source");

} // namespace skillmd::mcp

#endif
