// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_MCP_SERVER_HPP
#define SKILLMD_MCP_SERVER_HPP

// Serving a registry's skills over MCP with the Skills extension
// (`io.modelcontextprotocol/skills`): `skills/list`, `skills/get`, `resources/list`,
// `resources/read`, `resources/directory/read`, with the MCP lifecycle (`initialize`,
// `ping`). The server takes one JSON-RPC message and returns the messages to send back,
// so any transport can carry it; `skillmd mcp` carries it over stdio. Every message is
// hostile until checked: sizes are capped, and a read names a file of a served skill or
// is refused (`..`, absolute paths, percent-encoded tricks, links out of the skill).
// Digests come from the bytes on disk when they are served. Link skillmd::mcp.

#include <skillmd/detail/hex.hpp>
#include <skillmd/detail/json.hpp>
#include <skillmd/mcp/digest.hpp>
#include <skillmd/mcp/uri.hpp>
#include <skillmd/mcp/frontmatter_json.hpp>
#include <skillmd/storage/registry.hpp>

#include <boost/json.hpp>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace skillmd::mcp {

inline constexpr std::string_view extension_id = "io.modelcontextprotocol/skills";

/// Protocol revisions the server speaks; it answers a client in the client's revision
/// when it knows it, else in the first of these.
inline constexpr std::string_view protocol_versions[] = {"2025-11-25", "2026-07-28", "2025-06-18", "2025-03-26",
                                                         "2024-11-05"};

struct server_options
{
    std::string name = "skillmd";
    std::string version = "0.1.0";
    std::size_t page_size = 100;                   ///< entries per page of every list
    std::size_t max_message_bytes = 4 * 1024 * 1024; ///< a longer message is refused unread
    std::int64_t ttl_ms = 60000;                   ///< the freshness hint of listings
};

/// A MIME type from a file name's extension.
inline std::string_view mime_type(std::string_view path, bool text)
{
    auto const dot = path.rfind('.');
    std::string_view const ext = dot == std::string_view::npos || path.find('/', dot) != std::string_view::npos ? "" : path.substr(dot + 1);
    if (ext == "md" || ext == "markdown") return "text/markdown";
    if (ext == "json") return "application/json";
    if (ext == "py") return "text/x-python";
    if (ext == "sh") return "text/x-shellscript";
    if (ext == "yaml" || ext == "yml") return "application/yaml";
    if (ext == "html" || ext == "htm") return "text/html";
    if (ext == "png") return "image/png";
    if (ext == "pdf") return "application/pdf";
    return text ? "text/plain" : "application/octet-stream";
}

/// True when `bytes` can travel as a resource's `text`: UTF-8 without NUL.
inline bool is_text(std::string_view bytes)
{
    return bytes.find('\0') == std::string_view::npos && skillmd::detail::find_invalid_utf8(bytes) == std::string_view::npos;
}

/// One skill as served: its `<skill-path>`, its folder, the record it came from.
struct served_skill
{
    std::string path;
    std::string directory;
    skill_record const* record = nullptr;
    std::string uri() const { return skill_uri(path, "SKILL.md"); }
    /// The SKILL.md the registry read (device, inode): every read checks the folder still holds it.
    skillmd::detail::file_id listed() const
    {
        return {record->where.stamp.device, record->where.stamp.inode};
    }
};

/** The skills a snapshot serves, sorted by skill path. A skill's path is its command
    (`plan/implement` for a nested one); a skill kept under `name@tier` gets the tier as
    a prefix (`user/review`). Only file skills are served, and only those whose last path
    segment is their `name`, as the extension requires, one per path; `skipped` says why
    others are not.
*/
inline std::vector<served_skill> served(snapshot const& snap, std::vector<std::string>* skipped = nullptr)
{
    std::vector<served_skill> out;
    for (auto const& r : snap.skills()) {
        std::string const base(r.command.substr(0, r.command.rfind('@'))); // `name@tier` under keep_all
        std::string const path = base == r.command ? base : r.tier + "/" + base;
        auto const last = path.substr(path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1);
        if (r.where.database || r.where.directory.empty()) {
            if (skipped) skipped->push_back(r.command + ": not a skill folder");
            continue;
        }
        if (last != r.meta.name || !valid_skill_path(path)) {
            if (skipped) skipped->push_back(r.command + ": its path does not end in its name `" + r.meta.name + "`");
            continue;
        }
        out.push_back({path, r.where.directory.str(), &r});
    }
    // One skill per path: where a tier holds a name twice (Codex keeps both), the first
    // copy is served, as `name@tier` reaches it, and the other is said to be left out.
    std::stable_sort(out.begin(), out.end(), [](auto const& a, auto const& b) { return a.path < b.path; });
    auto const same_path = [](auto const& a, auto const& b) { return a.path == b.path; };
    for (auto it = std::adjacent_find(out.begin(), out.end(), same_path); it != out.end(); it = std::adjacent_find(it, out.end(), same_path)) {
        if (skipped) skipped->push_back((it + 1)->record->where.path.str() + ": another skill is served at " + it->path);
        out.erase(it + 1);
    }
    return out;
}

/// A skill's entry: its URI, its frontmatter as JSON, every file with digest and size,
/// all from the bytes read now; `error` instead when the skill cannot be described.
struct entry_result
{
    boost::json::object entry;
    skill_manifest manifest;
    std::string error;
};

inline entry_result entry_of(served_skill const& s)
{
    entry_result r;
    auto const id = s.listed();
    r.manifest = manifest_of(s.directory, &id);
    if (!r.manifest.complete()) {
        r.error = r.manifest.error;
        return r;
    }
    auto fm = frontmatter_json(r.manifest.skill_md, r.error);
    if (!fm) return r;
    boost::json::array files;
    for (auto const& f : r.manifest.files)
        files.push_back(boost::json::object{{"uri", skill_uri(s.path, f.path)}, {"digest", f.digest()}, {"size", f.size}});
    r.entry = boost::json::object{{"uri", s.uri()}, {"frontmatter", std::move(*fm)}, {"resources", std::move(files)}};
    return r;
}

/** An MCP server over any registry or system (anything with `snapshot()` and
    `refresh()`). `handle` takes one message and returns the replies (none for a
    notification); `changes` refreshes and returns the notification to send when the
    skills served changed.
*/
template <class Source>
class server
{
public:
    explicit server(Source& source, server_options opts = {}) : source_(source), opts_(std::move(opts))
    {
        last_ = fingerprint(*source_.snapshot());
    }

    std::vector<std::string> handle(std::string_view message)
    {
        std::vector<std::string> out;
        if (message.size() > opts_.max_message_bytes) {
            out.push_back(error_reply(nullptr, -32600, "message larger than " + std::to_string(opts_.max_message_bytes) + " bytes"));
            return out;
        }
        boost::system::error_code ec;
        boost::json::value v = boost::json::parse(message, ec);
        if (ec) {
            out.push_back(error_reply(nullptr, -32700, "parse error: not JSON"));
            return out;
        }
        if (v.is_array()) {
            out.push_back(error_reply(nullptr, -32600, "batches are not supported"));
            return out;
        }
        auto const* o = v.if_object();
        if (o == nullptr) {
            out.push_back(error_reply(nullptr, -32600, "a message must be a JSON object"));
            return out;
        }
        answer(*o, out);
        return out;
    }

    /// Refreshes the source; the `notifications/resources/list_changed` message when what
    /// is served changed since the last call (or construction).
    std::optional<std::string> changes()
    {
        // A refresh that fails keeps the previous snapshot: it is served, and refreshed() says so.
        if constexpr (std::is_convertible_v<decltype(source_.refresh()), bool>) refreshed_ = source_.refresh();
        else source_.refresh();
        std::string now = fingerprint(*source_.snapshot());
        if (now == last_) return std::nullopt;
        last_ = std::move(now);
        return boost::json::serialize(boost::json::object{{"jsonrpc", "2.0"}, {"method", "notifications/resources/list_changed"}});
    }

    /// False when the last refresh failed and the previous skills are still served.
    bool refreshed() const noexcept { return refreshed_; }

private:
    /// The replies to the message object `o` into `out`: its envelope checked (id, method,
    /// version, params), then the request dispatched, within the lifecycle.
    void answer(boost::json::object const& o, std::vector<std::string>& out)
    {
        boost::json::value id = nullptr;
        bool has_id = false;
        if (auto const* i = o.if_contains("id")) {
            if (!i->is_string() && !i->is_int64() && !i->is_uint64()) {
                out.push_back(error_reply(nullptr, -32600, "`id` must be a string or an integer"));
                return;
            }
            id = *i;
            has_id = true;
        }
        auto const* version = o.if_contains("jsonrpc");
        auto const* method = o.if_contains("method");
        if (method == nullptr) {
            // A response (`result` or `error`) needs nothing: we send no requests. Anything
            // else with an id is a request missing its method, and its sender waits.
            if (has_id && !o.contains("result") && !o.contains("error"))
                out.push_back(error_reply(id, -32600, "a request needs a `method`"));
            return;
        }
        if (version == nullptr || !version->is_string() || version->as_string() != "2.0" || !method->is_string()) {
            if (has_id) out.push_back(error_reply(id, -32600, "not a JSON-RPC 2.0 request"));
            return;
        }
        boost::json::object params;
        if (auto const* p = o.if_contains("params")) {
            if (!p->is_object()) {
                if (has_id) out.push_back(error_reply(id, -32602, "`params` must be an object"));
                return;
            }
            params = p->as_object();
        }
        if (!has_id) return; // notifications (initialized, cancelled, ...) need no answer
        // The lifecycle: until `initialize`, only it and `ping` are served (a method the
        // server does not have is not found, initialized or not).
        if (!initialized_ && serves(method->as_string()) && method->as_string() != "initialize" && method->as_string() != "ping") {
            out.push_back(error_reply(id, -32002, "the server is not initialized: send `initialize` first"));
            return;
        }
        out.push_back(dispatch(id, method->as_string(), params));
        if (method->as_string() == "initialize" && out.back().find("\"result\"") != std::string::npos) initialized_ = true;
    }

    struct failure
    {
        int code;
        std::string message;
    };

    static bool serves(boost::json::string_view method)
    {
        for (std::string_view m : {"initialize", "ping", "skills/list", "skills/get", "resources/list", "resources/read",
                                   "resources/directory/read"})
            if (method == m) return true;
        return false;
    }

    static std::string fingerprint(snapshot const& snap)
    {
        std::string f;
        for (auto const& s : served(snap)) {
            f += s.path;
            f += '\0';
            f += std::to_string(s.record->where.stamp.mtime_ns);
            f += '\n';
        }
        return f;
    }

    /// Every message sent: controls and invisible formatting characters in its strings (an
    /// echoed id or method, a skill's text) written as `\u` escapes, the same JSON data.
    static std::string wire(boost::json::object const& message)
    {
        return skillmd::detail::escape_hidden_in_json(boost::json::serialize(message));
    }

    static std::string error_reply(boost::json::value const& id, int code, std::string const& message)
    {
        return wire(boost::json::object{
            {"jsonrpc", "2.0"}, {"id", id}, {"error", boost::json::object{{"code", code}, {"message", message}}}});
    }

    std::string dispatch(boost::json::value const& id, boost::json::string_view method, boost::json::object const& params)
    {
        try {
            std::variant<boost::json::object, failure> r = failure{-32601, "method not found: " + std::string(method)};
            if (method == "initialize") r = initialize(params);
            else if (method == "ping") r = boost::json::object{};
            else if (method == "skills/list") r = list_skills(params);
            else if (method == "skills/get") r = get_skill(params);
            else if (method == "resources/list") r = list_resources(params);
            else if (method == "resources/read") r = read_resource(params);
            else if (method == "resources/directory/read") r = read_directory(params);
            if (auto* f = std::get_if<failure>(&r)) return error_reply(id, f->code, f->message);
            return wire(boost::json::object{{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(std::get<0>(r))}});
        } catch (std::bad_alloc const&) {
            return error_reply(id, -32603, "out of memory");
        } catch (std::exception const& e) {
            return error_reply(id, -32603, std::string("internal error: ") + e.what());
        }
    }

    boost::json::object initialize(boost::json::object const& params) const
    {
        std::string_view version = protocol_versions[0];
        if (auto const* v = params.if_contains("protocolVersion"); v && v->is_string())
            for (auto known : protocol_versions)
                if (v->as_string() == known) version = known;
        boost::json::object caps{{"resources", boost::json::object{{"listChanged", true}}},
                                 {"extensions", boost::json::object{{extension_id, boost::json::object{{"directoryRead", true}}}}}};
        return {{"protocolVersion", version},
                {"capabilities", std::move(caps)},
                {"serverInfo", boost::json::object{{"name", opts_.name}, {"version", opts_.version}}}};
    }

    /// The page `params.cursor` names: its first index, or a failure for a cursor we did not give.
    /// A cursor is `<listing>.<offset>`: the listing is a digest of the skills served (their
    /// paths and times), so a cursor from before a change is refused, never applied to a
    /// list it was not made for (which would repeat or skip items).
    static std::string listing_of(snapshot const& snap)
    {
        std::string out;
        skillmd::detail::append_hex(out, static_cast<std::uint32_t>(std::hash<std::string>{}(fingerprint(snap))), 8);
        return out;
    }

    static std::variant<std::size_t, failure> page_start(boost::json::object const& params, std::size_t total,
                                                         std::string_view listing)
    {
        auto const* c = params.if_contains("cursor");
        if (c == nullptr || c->is_null()) return std::size_t{0};
        if (!c->is_string()) return failure{-32602, "`cursor` must be a string"};
        std::string_view s = c->as_string();
        if (!s.starts_with(listing) || s.size() == listing.size() || s[listing.size()] != '.')
            return failure{-32602, "unknown cursor (the skills served changed since it was given: list again from the start)"};
        s.remove_prefix(listing.size() + 1);
        std::size_t n = 0;
        auto const [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
        if (ec != std::errc() || end != s.data() + s.size() || n > total) return failure{-32602, "unknown cursor"};
        return n;
    }

    template <class Each>
    std::variant<boost::json::object, failure> paged(boost::json::object const& params, std::size_t total, char const* key,
                                                     snapshot const& snap, Each each) const
    {
        std::string const listing = listing_of(snap);
        auto const start = page_start(params, total, listing);
        if (auto const* f = std::get_if<failure>(&start)) return *f;
        // No wrap: a page is at most what is left (a page size of 2^64-1 is the rest).
        std::size_t const first = std::get<std::size_t>(start),
                          last = first + std::min(total - first, std::max<std::size_t>(1, opts_.page_size));
        boost::json::array items;
        for (std::size_t i = first; i < last; ++i) each(i, items);
        boost::json::object r{{key, std::move(items)}};
        if (last < total) r["nextCursor"] = listing + "." + std::to_string(last);
        return r;
    }

    void cacheable(boost::json::object& r) const
    {
        r["resultType"] = "complete";
        r["ttlMs"] = opts_.ttl_ms;
        r["cacheScope"] = "public";
    }

    std::variant<boost::json::object, failure> list_skills(boost::json::object const& params) const
    {
        auto const snap = source_.snapshot();
        auto const skills = served(*snap);
        auto r = paged(params, skills.size(), "skills", *snap, [&](std::size_t i, boost::json::array& items) {
            auto e = entry_of(skills[i]);
            if (e.error.empty()) items.push_back(std::move(e.entry)); // a skill that cannot be described is left out
        });
        if (auto* o = std::get_if<boost::json::object>(&r)) cacheable(*o);
        return r;
    }

    /// The served skill `uri` names (its SKILL.md), or a failure.
    static std::variant<served_skill, failure> skill_at(std::vector<served_skill> const& skills, boost::json::object const& params)
    {
        auto const* u = params.if_contains("uri");
        if (u == nullptr || !u->is_string()) return failure{-32602, "`uri` must be a string"};
        auto const target = parse_skill_uri(u->as_string());
        if (!target) return failure{-32602, "not a skill:// URI skillmd serves: " + shown(u->as_string())};
        for (auto const& s : skills)
            if (target->path == s.path + "/SKILL.md") return s;
        return failure{-32602, "No skill is served at " + shown(u->as_string())};
    }

    std::variant<boost::json::object, failure> get_skill(boost::json::object const& params) const
    {
        auto const snap = source_.snapshot();
        auto const at = skill_at(served(*snap), params);
        if (auto const* f = std::get_if<failure>(&at)) return *f;
        auto e = entry_of(std::get<served_skill>(at));
        if (!e.error.empty()) return failure{-32603, "the skill cannot be described: " + e.error};
        boost::json::object r{{"skill", std::move(e.entry)}};
        cacheable(r);
        return r;
    }

    /// Every resource of every served skill, listed (not read) once per snapshot: a page
    /// costs its own entries, not a walk of every skill.
    std::shared_ptr<boost::json::array const> all_resources(std::shared_ptr<snapshot const> const& snap) const
    {
        std::lock_guard<std::mutex> lock(resources_mutex_);
        if (resources_ && resources_of_.lock() == snap) return resources_;
        auto all = std::make_shared<boost::json::array>();
        for (auto const& s : served(*snap)) {
            auto const id = s.listed();
            auto const m = list_skill(s.directory, &id);
            if (!m.complete()) continue; // as skills/list: a skill that cannot be described is not served
            for (auto const& f : m.files) {
                auto const slash = f.path.rfind('/');
                boost::json::object res{{"uri", skill_uri(s.path, f.path)},
                                        {"name", slash == std::string::npos ? f.path : f.path.substr(slash + 1)},
                                        {"mimeType", mime_type(f.path, true)},
                                        {"size", f.size}};
                if (f.path == "SKILL.md") {
                    res["name"] = s.record->meta.name.view();
                    res["description"] = s.record->meta.description.view();
                }
                all->push_back(std::move(res));
            }
        }
        resources_ = std::move(all);
        resources_of_ = snap;
        return resources_;
    }

    std::variant<boost::json::object, failure> list_resources(boost::json::object const& params) const
    {
        auto const snap = source_.snapshot();
        auto const all = all_resources(snap);
        return paged(params, all->size(), "resources", *snap, [&](std::size_t i, boost::json::array& items) { items.push_back((*all)[i]); });
    }

    /// The file a URI names inside a served skill: the skill (the longest path that is a
    /// prefix) and the file's path in it, if the skill's manifest lists it.
    struct located
    {
        served_skill skill;
        std::string file; ///< "" for the skill's folder itself
    };
    static std::optional<located> locate(std::vector<served_skill> const& skills, std::string const& path)
    {
        std::optional<located> best;
        for (auto const& s : skills) {
            if (path == s.path) {
                if (!best || best->skill.path.size() < s.path.size()) best = located{s, ""};
            } else if (path.size() > s.path.size() && path.starts_with(s.path) && path[s.path.size()] == '/') {
                if (!best || best->skill.path.size() < s.path.size()) best = located{s, path.substr(s.path.size() + 1)};
            }
        }
        return best;
    }

    std::variant<boost::json::object, failure> read_resource(boost::json::object const& params) const
    {
        auto const* u = params.if_contains("uri");
        if (u == nullptr || !u->is_string()) return failure{-32602, "`uri` must be a string"};
        auto const target = parse_skill_uri(u->as_string());
        if (!target) return failure{-32602, "not a resource skillmd serves: " + shown(u->as_string())};
        auto const snap = source_.snapshot();
        auto const at = locate(served(*snap), target->path);
        if (!at || at->file.empty()) return failure{-32602, "not a resource skillmd serves: " + shown(u->as_string())};
        // Opened below the skill's folder, which must still be the one listed: no link
        // swapped in for the folder or a part of the path leads out of it.
        // Only what the lists show is read: a skill whose files cannot all be listed (too
        // deep, too many) is not served at all, and a file its listing leaves out is not its.
        auto const id = at->skill.listed();
        auto const m = list_skill(at->skill.directory, &id);
        if (!m.complete()) return failure{-32602, "not served: " + shown(u->as_string()) + " belongs to a skill whose files cannot all be listed (" + shown(m.error) + ")"};
        if (std::none_of(m.files.begin(), m.files.end(), [&](auto const& f) { return f.path == at->file; }))
            return failure{-32602, "not a resource skillmd serves: " + shown(u->as_string())};
        std::string error;
        auto bytes = read_skill_file(at->skill.directory, &id, at->file, max_skill_bytes, error);
        if (!bytes) return failure{-32602, "cannot read " + shown(u->as_string()) + ": " + shown(error)};
        bool const text = is_text(*bytes);
        boost::json::object c{{"uri", skill_uri(at->skill.path, at->file)}, {"mimeType", mime_type(at->file, text)}};
        if (text) c["text"] = *bytes;
        else c["blob"] = base64_encode(*bytes);
        boost::json::object r{{"contents", boost::json::array{std::move(c)}}};
        cacheable(r);
        return r;
    }

    std::variant<boost::json::object, failure> read_directory(boost::json::object const& params) const
    {
        auto const* u = params.if_contains("uri");
        if (u == nullptr || !u->is_string()) return failure{-32602, "`uri` must be a string"};
        auto const target = parse_skill_uri(u->as_string());
        if (!target) return failure{-32602, "not a directory skillmd serves: " + shown(u->as_string())};
        auto const snap = source_.snapshot();
        auto const at = locate(served(*snap), target->path);
        if (!at) return failure{-32602, "not a directory skillmd serves: " + shown(u->as_string())};
        auto const id = at->skill.listed();
        auto const m = list_skill(at->skill.directory, &id);
        if (!m.complete()) return failure{-32603, "the skill cannot be listed: " + shown(m.error)};
        std::string const prefix = at->file.empty() ? "" : at->file + "/";
        std::vector<std::pair<std::string, bool>> children; // name, is a directory
        bool found = at->file.empty();
        for (auto const& f : m.files) {
            if (!f.path.starts_with(prefix)) continue;
            found = true;
            std::string const rest = f.path.substr(prefix.size());
            auto const slash = rest.find('/');
            std::pair<std::string, bool> child{slash == std::string::npos ? rest : rest.substr(0, slash), slash != std::string::npos};
            if (std::find(children.begin(), children.end(), child) == children.end()) children.push_back(child);
        }
        if (!found || std::any_of(m.files.begin(), m.files.end(), [&](auto const& f) { return f.path == at->file; }))
            return failure{-32602, shown(u->as_string()) + " is not a directory resource"};
        std::sort(children.begin(), children.end());
        auto r = paged(params, children.size(), "resources", *snap, [&](std::size_t i, boost::json::array& items) {
            auto const& [name, dir] = children[i];
            items.push_back(boost::json::object{{"uri", skill_uri(at->skill.path, prefix + name)},
                                                {"name", name},
                                                {"mimeType", dir ? std::string_view("inode/directory") : mime_type(name, true)}});
        });
        if (auto* o = std::get_if<boost::json::object>(&r)) o->emplace("resultType", "complete");
        return r;
    }

    /// A client's string in an error message: short, one line.
    static std::string shown(boost::json::string_view s)
    {
        std::string out;
        for (char c : s.substr(0, std::min<std::size_t>(s.size(), 200)))
            out += static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f ? '?' : c;
        return out;
    }

    Source& source_;
    server_options opts_;
    std::string last_;
    bool initialized_ = false;
    bool refreshed_ = true;
    mutable std::mutex resources_mutex_;
    mutable std::shared_ptr<boost::json::array const> resources_;
    mutable std::weak_ptr<snapshot const> resources_of_;
};

} // namespace skillmd::mcp

#endif
