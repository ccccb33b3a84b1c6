// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_MCP_SERVER_HPP
#define SKILLMD_MCP_SERVER_HPP

// Serving a registry's skills over MCP with the Skills extension
// (`io.modelcontextprotocol/skills`): `skills/list`, `skills/get`, `resources/list`,
// `resources/read`, `resources/directory/read`. Two kinds of protocol revision are
// spoken: 2026-07-28, stateless (`server/discover`; each request names its revision in
// `params._meta`; every result says `resultType`), and the earlier ones with their
// lifecycle (`initialize`, `ping`). The server takes one JSON-RPC message and returns
// the messages to send back, so any transport can carry it: `skillmd mcp` carries it
// over stdio or streamable HTTP (mcp/http.hpp). Every message is hostile until checked:
// sizes are capped, and a read names a file of a served skill or is refused (`..`,
// absolute paths, percent-encoded tricks, links out of the skill). Digests come from
// the bytes on disk when they are served. Link skillmd::mcp.

#include <skillmd/detail/hex.hpp>
#include <skillmd/detail/json.hpp>
#include <skillmd/mcp/digest.hpp>
#include <skillmd/mcp/uri.hpp>
#include <skillmd/mcp/frontmatter_json.hpp>
#include <skillmd/mcp/revisions.hpp>
#include <skillmd/storage/registry.hpp>
#include <skillmd/validation/name_rules.hpp>

#include <boost/json.hpp>

#include <algorithm>
#include <charconv>
#include <chrono>
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

/// What a transport knows of a message besides its bytes. Over HTTP the MCP headers
/// repeat what the body says, and must agree with it.
struct request_context
{
    bool http = false; ///< streamable HTTP: no session, so each request stands alone
    std::optional<std::string> protocol_version; ///< the `MCP-Protocol-Version` header
    std::optional<std::string> method;           ///< the `Mcp-Method` header
    std::optional<std::string> name;             ///< the `Mcp-Name` header
};

/// The messages to send back, and the HTTP status a transport that has one gives them.
struct response
{
    std::vector<std::string> messages;
    unsigned status = 200;
};

struct server_options
{
    std::string name = "skillmd";
    std::string version = "0.1.0";
    std::size_t page_size = 100;                   ///< entries per page of every list
    std::size_t max_message_bytes = 4 * 1024 * 1024; ///< a longer message is refused unread
    std::int64_t ttl_ms = 60000;                   ///< the freshness hint of listings
    /// The least time between two listings of the served skills' files by changes(), which
    /// sees a bundled file made or removed (no SKILL.md changes): at least twenty
    /// times what the last listing took, so listing costs at most a twentieth of a core
    /// (0: at every call, whatever it costs).
    std::int64_t files_recheck_ms = 1000;
};

/// A file's MIME type, from its name alone, so that a file has one type wherever it is
/// named (`resources/list`, `resources/read`, directory listings) whatever its bytes.
inline std::string_view mime_type(std::string_view path)
{
    auto const dot = path.rfind('.');
    std::string ext(dot == std::string_view::npos || path.find('/', dot) != std::string_view::npos ? "" : path.substr(dot + 1));
    for (char& c : ext) c = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
    static constexpr std::pair<std::string_view, std::string_view> types[] = {
        {"md", "text/markdown"},     {"markdown", "text/markdown"}, {"txt", "text/plain"},
        {"csv", "text/csv"},         {"html", "text/html"},         {"htm", "text/html"},
        {"css", "text/css"},         {"js", "text/javascript"},     {"mjs", "text/javascript"},
        {"py", "text/x-python"},     {"sh", "text/x-shellscript"},  {"json", "application/json"},
        {"yaml", "application/yaml"}, {"yml", "application/yaml"},  {"toml", "application/toml"},
        {"xml", "application/xml"},  {"svg", "image/svg+xml"},      {"png", "image/png"},
        {"jpg", "image/jpeg"},       {"jpeg", "image/jpeg"},        {"gif", "image/gif"},
        {"webp", "image/webp"},      {"pdf", "application/pdf"},    {"zip", "application/zip"},
        {"gz", "application/gzip"}};
    for (auto const& [e, type] : types)
        if (ext == e) return type;
    return "application/octet-stream";
}

/// True when `bytes` can travel as a resource's `text`: UTF-8 without NUL.
inline bool is_text(std::string_view bytes)
{
    return bytes.find('\0') == std::string_view::npos && skillmd::detail::find_invalid_utf8(bytes) == std::string_view::npos;
}

/// One skill as served: its `<skill-path>`, its folder, the record it came from. A skill
/// kept in a database, or as one `NAME.md` file, has no folder of its own: its one file is
/// SKILL.md, the `text` its source gives.
struct served_skill
{
    std::string path;
    std::string directory;
    skill_record const* record = nullptr;
    std::shared_ptr<std::string const> text; ///< a database skill's SKILL.md; null for a folder
    std::string uri() const { return skill_uri(path, "SKILL.md"); }
    /// The SKILL.md the registry read (device, inode): every read checks the folder still holds it.
    skillmd::detail::file_id listed() const
    {
        return {record->where.stamp.device, record->where.stamp.inode};
    }
};

/** The skills a snapshot serves, sorted by skill path. A skill's path is its command
    (`plan/implement` for a nested one); a skill kept under `name@tier` gets the tier as
    a prefix (`user/review`). Skill folders are served, and database skills when `text_of`
    gives their SKILL.md; only those whose last path segment is their `name`, as the
    extension requires, one per path; `skipped` says why others are not.
*/
inline std::vector<served_skill> served(snapshot const& snap, std::vector<std::string>* skipped = nullptr,
                                        std::function<std::optional<std::string>(skill_record const&)> const& text_of = {})
{
    std::vector<served_skill> out;
    for (auto const& r : snap.skills()) {
        std::string const base(r.command.substr(0, r.command.rfind('@'))); // `name@tier` under keep_all
        std::string const path = base == r.command ? base : r.tier + "/" + base;
        auto const last = path.substr(path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1);
        // A skill that is one file (a database row; a `NAME.md` of the files layout) is
        // served as its SKILL.md alone: its folder is not its own.
        // A skill folder is a folder named as the skill with its SKILL.md directly in it;
        // anything else (a files layout's `NAME.md`, whose directory is the whole tier, even
        // through a `SKILL.md` link to it) is served as its one file.
        std::string const where = r.where.path.str(), dir = r.where.directory.str();
        bool const folder = !r.where.database && !dir.empty() && where == dir + "/SKILL.md" && dir.substr(dir.rfind('/') + 1) == last;
        bool const one_file = !folder;
        std::shared_ptr<std::string const> text;
        if (one_file && text_of) {
            auto t = text_of(r);
            if (!t) {
                if (skipped) skipped->push_back(r.command + ": its database row cannot be read");
                continue;
            }
            if (t->size() > max_skill_bytes) {
                if (skipped) skipped->push_back(r.command + ": its SKILL.md is over " + std::to_string(max_skill_bytes) + " bytes");
                continue;
            }
            text = std::make_shared<std::string const>(std::move(*t));
        } else if (one_file) {
            if (skipped) skipped->push_back(r.command + ": not a skill folder");
            continue;
        }
        if (last != r.meta.name || !valid_skill_path(path)) {
            if (skipped) skipped->push_back(r.command + ": its path does not end in its name `" + r.meta.name + "`");
            continue;
        }
        // The extension serves only names that follow the Agent Skills rules, as written
        // (not merely after the stripping and NFKC the specification's validator applies).
        if (auto const faults = broken_name_rules(r.meta.name);
            !faults.empty() || skillmd::detail::nfkc(r.meta.name.view()) != r.meta.name.view()) {
            if (skipped)
                skipped->push_back(r.command + ": its name breaks the Agent Skills naming rules (" +
                                   (faults.empty() ? std::string("not in NFKC form") : faults.front().message) + ")");
            continue;
        }
        out.push_back({path, text ? std::string() : r.where.directory.str(), &r, std::move(text)});
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

/// The files of a served skill, as list_skill lists a folder's.
inline skill_listing listing_of_skill(served_skill const& s)
{
    if (!s.text) {
        auto const id = s.listed();
        return list_skill(s.directory, &id);
    }
    skill_listing l;
    l.files.push_back({"SKILL.md", s.text->size()});
    return l;
}

/// One file of a served skill, read now (as read_skill_file reads a folder's).
inline std::optional<std::string> read_of_skill(served_skill const& s, std::string const& file, std::string& error)
{
    if (!s.text) {
        auto const id = s.listed();
        return read_skill_file(s.directory, &id, file, max_skill_bytes, error);
    }
    if (file == "SKILL.md") return *s.text;
    error = "a database skill has no other file";
    return std::nullopt;
}

inline entry_result entry_of(served_skill const& s)
{
    entry_result r;
    auto const id = s.listed();
    if (s.text) {
        r.manifest.files.push_back({"SKILL.md", sha256_hex(*s.text), s.text->size()});
        r.manifest.skill_md = *s.text;
    } else {
        r.manifest = manifest_of(s.directory, &id);
    }
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
    skills served, or their files, changed.
*/
template <class Source>
class server
{
public:
    explicit server(Source& source, server_options opts = {}) : source_(source), opts_(std::move(opts))
    {
        last_ = fingerprint(*serving(source_.snapshot()));
    }

    /// The replies to one message, as a transport without headers (stdio) carries it.
    std::vector<std::string> handle(std::string_view message) { return respond(message, {}).messages; }

    /// The replies to one message and their HTTP status, with what the transport saw.
    response respond(std::string_view message, request_context const& ctx)
    {
        response out;
        if (message.size() > opts_.max_message_bytes) {
            out.messages.push_back(error_reply(nullptr, -32600, "message larger than " + std::to_string(opts_.max_message_bytes) + " bytes"));
            out.status = ctx.http ? 413 : 200;
            return out;
        }
        boost::system::error_code ec;
        boost::json::value v = boost::json::parse(message, ec);
        auto const* o = ec ? nullptr : v.if_object();
        if (o == nullptr) {
            out.messages.push_back(ec ? error_reply(nullptr, -32700, "parse error: not JSON")
                                      : error_reply(nullptr, -32600, v.is_array() ? "batches are not supported"
                                                                                  : "a message must be a JSON object"));
            out.status = ctx.http ? 400 : 200;
            return out;
        }
        answer(*o, ctx, out);
        return out;
    }

    /// Refreshes the source; the `notifications/resources/list_changed` message when what
    /// is served changed since the last call (or construction).
    std::optional<std::string> changes()
    {
        // A refresh that fails keeps the previous snapshot: it is served, and refreshed() says so.
        if constexpr (std::is_convertible_v<decltype(source_.refresh()), bool>) refreshed_ = source_.refresh();
        else source_.refresh();
        std::string now = fingerprint(*serving(source_.snapshot()));
        if (now != last_) {
            last_ = std::move(now);
            // Other skills: the next list is read fresh, and only a change after it is news.
            std::lock_guard<std::mutex> lock(resources_mutex_);
            resources_.reset();
        } else if (!files_changed()) {
            return std::nullopt;
        } // (files made or removed: files_changed() kept the listing it announces)
        return boost::json::serialize(boost::json::object{{"jsonrpc", "2.0"}, {"method", "notifications/resources/list_changed"}});
    }

    /// False when the last refresh failed and the previous skills are still served.
    bool refreshed() const noexcept { return refreshed_; }

    /// The skills of the current snapshot that are not served, each with why: those
    /// `served` leaves out, and those whose files cannot all be listed.
    std::vector<std::string> not_served() const
    {
        auto const snap = source_.snapshot();
        std::vector<std::string> why;
        for (auto const& s : serve(*snap, &why)) {
            if (auto const m = listing_of_skill(s); !m.complete())
                why.push_back(s.record->where.path.str() + ": its files cannot all be listed: " + m.error);
        }
        return why;
    }

    /// The skills served from `snap`: served(), with database skills' SKILL.md from the
    /// source when it can give them (a registry, or a system's).
    std::vector<served_skill> serve(snapshot const& snap, std::vector<std::string>* skipped = nullptr) const
    {
        std::function<std::optional<std::string>(skill_record const&)> text_of;
        if constexpr (requires(skill_record const& r) { source_.registry().text(r); })
            text_of = [this](skill_record const& r) -> std::optional<std::string> {
                if (auto t = source_.registry().text(r)) return std::move(t->file);
                return std::nullopt;
            };
        else if constexpr (requires(skill_record const& r) { source_.text(r); })
            text_of = [this](skill_record const& r) -> std::optional<std::string> {
                if (auto t = source_.text(r)) return std::move(t->file);
                return std::nullopt;
            };
        return served(snap, skipped, text_of);
    }

    /// serve() of `snap`, worked out once per snapshot: the naming rules (ICU's NFKC) and
    /// database texts are not redone for every request. Kept with the snapshot it points into.
    std::shared_ptr<std::vector<served_skill> const> serving(std::shared_ptr<snapshot const> const& snap) const
    {
        std::lock_guard<std::mutex> lock(served_mutex_);
        if (served_ && served_of_ == snap) return served_;
        served_ = std::make_shared<std::vector<served_skill> const>(serve(*snap));
        served_of_ = snap;
        return served_;
    }

private:
    /// The replies to the message object `o` into `out`: its envelope checked (id, method,
    /// version, params), then the request dispatched under its revision.
    void answer(boost::json::object const& o, request_context const& ctx, response& out)
    {
        boost::json::value id = nullptr;
        bool has_id = false;
        auto const refuse = [&](boost::json::value const& to, int code, std::string const& why, unsigned status) {
            out.messages.push_back(error_reply(to, code, why));
            if (ctx.http) out.status = status;
        };
        if (auto const* i = o.if_contains("id")) {
            if (!i->is_string() && !i->is_int64() && !i->is_uint64()) return refuse(nullptr, -32600, "`id` must be a string or an integer", 400);
            id = *i;
            has_id = true;
        }
        auto const* version = o.if_contains("jsonrpc");
        auto const* method = o.if_contains("method");
        if (method == nullptr) {
            // A response (`result` or `error`) needs nothing: we send no requests. Anything
            // else with an id is a request missing its method, and its sender waits.
            if (has_id && !o.contains("result") && !o.contains("error")) return refuse(id, -32600, "a request needs a `method`", 400);
            if (ctx.http) out.status = 202;
            return;
        }
        if (version == nullptr || !version->is_string() || version->as_string() != "2.0" || !method->is_string()) {
            if (has_id) return refuse(id, -32600, "not a JSON-RPC 2.0 request", 400);
            if (ctx.http) out.status = 400;
            return;
        }
        boost::json::object params;
        if (auto const* p = o.if_contains("params")) {
            if (!p->is_object()) {
                if (has_id) return refuse(id, -32602, "`params` must be an object", 400);
                if (ctx.http) out.status = 400;
                return;
            }
            params = p->as_object();
        }
        boost::json::string_view const name = method->as_string();
        // Which revision: a stateless one when the request or its header names one (an
        // HTTP request without the header, or naming an earlier revision, is of those).
        auto const* meta = params.if_contains("_meta") ? params.at("_meta").if_object() : nullptr;
        auto const* named = meta ? meta->if_contains(meta_version) : nullptr;
        bool const stateless = ctx.protocol_version ? !is_session_version(*ctx.protocol_version)
                                                    : named != nullptr && !(named->is_string() && is_session_version(named->as_string()));
        // A header and a body that name two revisions are refused whichever they name.
        if (ctx.http && ctx.protocol_version && named != nullptr && named->is_string() && *ctx.protocol_version != named->as_string())
            return refuse(id, -32020, "the MCP-Protocol-Version header does not match `params._meta`", 400);
        if (!stateless) {
            if (!has_id) { // notifications (initialized, cancelled, ...) need no answer
                if (ctx.http) out.status = 202;
                return;
            }
            // The lifecycle: until `initialize`, only it and `ping` are served (a method the
            // server does not have is not found, initialized or not). Over HTTP there is no
            // session to hold it: each request stands alone.
            if (!ctx.http && !initialized_ && serves(name) && name != "initialize" && name != "ping")
                return refuse(id, -32002, "the server is not initialized: send `initialize` first", 400);
            int code = 0;
            out.messages.push_back(dispatch(id, name, params, false, ctx.http, &code));
            if (!ctx.http && name == "initialize" && code == 0) initialized_ = true;
            return;
        }
        // A stateless request: the revision and the client's capabilities in `_meta`, the
        // same revision in the header, one the server speaks, a method the revision has.
        if (meta == nullptr || named == nullptr || !named->is_string() || !meta->contains(meta_client_capabilities))
            return refuse(id, -32602, "`params._meta` must name the protocol version and the client's capabilities", 400);
        if (ctx.http) {
            if (!ctx.protocol_version || *ctx.protocol_version != named->as_string())
                return refuse(id, -32020, "the MCP-Protocol-Version header does not match `params._meta`", 400);
            if (!ctx.method || *ctx.method != name) return refuse(id, -32020, "the Mcp-Method header does not match the method", 400);
            // The methods that name their target in `Mcp-Name` must, and it must be theirs.
            if (name == "resources/read" || name == "tools/call" || name == "prompts/get") {
                auto const* target = params.if_contains(name == "resources/read" ? "uri" : "name");
                if (!ctx.name || target == nullptr || !target->is_string() || *ctx.name != target->as_string())
                    return refuse(id, -32020, "the Mcp-Name header does not match the request", 400);
            }
        }
        if (std::find(std::begin(stateless_versions), std::end(stateless_versions), std::string_view(named->as_string())) ==
            std::end(stateless_versions)) {
            boost::json::array supported;
            for (auto v : stateless_versions) supported.emplace_back(v);
            out.messages.push_back(wire(boost::json::object{
                {"jsonrpc", "2.0"},
                {"id", id},
                {"error", boost::json::object{{"code", -32022},
                                              {"message", "unsupported protocol version"},
                                              {"data", boost::json::object{{"requested", named->as_string()}, {"supported", std::move(supported)}}}}}}));
            if (ctx.http) out.status = 400;
            return;
        }
        if (!has_id) { // the revision has no notifications from clients
            if (ctx.http) out.status = 202;
            return;
        }
        if (name == "initialize" || name == "ping" || name == "logging/setLevel" || name == "resources/subscribe" ||
            name == "resources/unsubscribe")
            return refuse(id, -32601, "method not found in protocol version " + std::string(named->as_string()) + ": " + std::string(name), 404);
        int code = 0;
        out.messages.push_back(dispatch(id, name, params, true, ctx.http, &code));
        if (ctx.http && code == -32601) out.status = 404;
    }

    static bool is_session_version(boost::json::string_view v)
    {
        return std::find(std::begin(session_versions), std::end(session_versions), std::string_view(v)) != std::end(session_versions);
    }

    struct failure
    {
        int code;
        std::string message;
        boost::json::value data = nullptr; ///< sent as the error's `data` when not null
    };

    static bool serves(boost::json::string_view method)
    {
        for (std::string_view m : {"initialize", "ping", "server/discover", "skills/list", "skills/get", "resources/list",
                                   "resources/read", "resources/directory/read", "resources/templates/list", "tools/list",
                                   "prompts/list"})
            if (method == m) return true;
        return false;
    }

    static std::string fingerprint(std::vector<served_skill> const& skills)
    {
        std::string f;
        for (auto const& s : skills) {
            f += s.path;
            f += '\0';
            f += std::to_string(s.record->where.stamp.mtime_ns);
            f += ' ';
            f += std::to_string(s.record->where.stamp.ctime_ns);
            f += '\n';
        }
        return f;
    }

    /// Every message sent: controls and invisible formatting characters in its strings (an
    /// echoed id or method, a skill's text) written as `\u` escapes, the same JSON data.
    static std::string wire(boost::json::object const& message)
    {
        return skillmd::detail::escape_hidden_in_json(json_text(message));
    }

    static std::string error_reply(boost::json::value const& id, int code, std::string const& message,
                                   boost::json::value const& data = nullptr)
    {
        boost::json::object error{{"code", code}, {"message", message}};
        if (!data.is_null()) error["data"] = data;
        return wire(boost::json::object{{"jsonrpc", "2.0"}, {"id", id}, {"error", std::move(error)}});
    }

    /// The answer to a request. Under a stateless revision every result says it is
    /// complete, as that revision requires.
    std::string dispatch(boost::json::value const& id, boost::json::string_view method, boost::json::object const& params,
                         bool stateless, bool http, int* error_code = nullptr)
    {
        try {
            std::variant<boost::json::object, failure> r = failure{-32601, "method not found: " + std::string(method)};
            if (method == "initialize") r = initialize(params, http);
            else if (method == "ping") r = boost::json::object{};
            else if (method == "server/discover") r = discover();
            else if (method == "skills/list") r = list_skills(params);
            else if (method == "skills/get") r = get_skill(params);
            else if (method == "resources/list") r = list_resources(params);
            else if (method == "resources/read") r = read_resource(params);
            else if (method == "resources/directory/read") r = read_directory(params);
            else if (method == "resources/templates/list") r = nothing_listed("resourceTemplates");
            else if (method == "tools/list") r = nothing_listed("tools");
            else if (method == "prompts/list") r = nothing_listed("prompts");
            if (auto* f = std::get_if<failure>(&r)) {
                if (error_code) *error_code = f->code;
                return error_reply(id, f->code, f->message, f->data);
            }
            auto& result = std::get<0>(r);
            if (stateless) result.emplace("resultType", "complete");
            return wire(boost::json::object{{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}});
        } catch (std::bad_alloc const&) {
            return error_reply(id, -32603, "out of memory");
        } catch (std::exception const& e) {
            return error_reply(id, -32603, std::string("internal error: ") + e.what());
        }
    }

    /// What the server offers. Resources change as the skills do; only a session (stdio)
    /// can carry the notification. No tools or prompts: their lists are answered, empty.
    boost::json::object capabilities(bool notify) const
    {
        boost::json::object resources;
        if (notify) resources["listChanged"] = true;
        return {{"resources", std::move(resources)},
                {"tools", boost::json::object{}},
                {"prompts", boost::json::object{}},
                {"extensions", boost::json::object{{extension_id, boost::json::object{{"directoryRead", true}}}}}};
    }

    boost::json::object initialize(boost::json::object const& params, bool http) const
    {
        std::string_view version = session_versions[0];
        if (auto const* v = params.if_contains("protocolVersion"); v && v->is_string())
            for (auto known : session_versions)
                if (v->as_string() == known) version = known;
        return {{"protocolVersion", version},
                {"capabilities", capabilities(!http)},
                {"serverInfo", boost::json::object{{"name", opts_.name}, {"version", opts_.version}}}};
    }

    boost::json::object discover() const
    {
        boost::json::array versions;
        for (auto v : stateless_versions) versions.emplace_back(v);
        for (auto v : session_versions) versions.emplace_back(v);
        boost::json::object r{{"supportedVersions", std::move(versions)},
                              {"capabilities", capabilities(false)},
                              {"_meta", boost::json::object{{meta_server_info, boost::json::object{{"name", opts_.name}, {"version", opts_.version}}}}}};
        cacheable(r);
        return r;
    }

    boost::json::object nothing_listed(char const* key) const
    {
        boost::json::object r{{key, boost::json::array{}}};
        cacheable(r);
        return r;
    }

    /// The page `params.cursor` names: its first index, or a failure for a cursor we did not give.
    /// A cursor is `<listing>.<offset>`: the listing is a digest of the skills served (their
    /// paths and times), so a cursor from before a change is refused, never applied to a
    /// list it was not made for (which would repeat or skip items).
    static std::string listing_of(std::vector<served_skill> const& skills)
    {
        std::string out;
        skillmd::detail::append_hex(out, static_cast<std::uint32_t>(std::hash<std::string>{}(fingerprint(skills))), 8);
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
                                                     std::string const& listing, Each each) const
    {
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
        auto const held = serving(snap); // keeps the list alive
        auto const& skills = *held;
        auto r = paged(params, skills.size(), "skills", listing_of(skills), [&](std::size_t i, boost::json::array& items) {
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
        auto const at = skill_at(*serving(snap), params);
        if (auto const* f = std::get_if<failure>(&at)) return *f;
        auto e = entry_of(std::get<served_skill>(at));
        if (!e.error.empty()) return failure{-32603, "the skill cannot be described: " + e.error};
        boost::json::object r{{"skill", std::move(e.entry)}};
        cacheable(r);
        return r;
    }

    /// Every resource of every served skill, listed (not read) once per snapshot: a page
    /// costs its own entries, not a walk of every skill.
    struct resource_listing
    {
        boost::json::array resources;
        std::string listing; ///< `listing_of` the skills served, and a hash of `uris`
        std::string uris;    ///< the files' URIs in order, one per line
    };
    /// The resources of a snapshot, listed once for it and kept (see files_changed()).
    std::shared_ptr<resource_listing const> all_resources(std::shared_ptr<snapshot const> const& snap) const
    {
        std::lock_guard<std::mutex> lock(resources_mutex_);
        if (resources_ && resources_of_.lock() == snap) return resources_;
        auto const started = std::chrono::steady_clock::now();
        resources_ = list_resources_now(snap);
        resources_of_ = snap;
        resources_listed_ = std::chrono::steady_clock::now();
        resources_cost_ = resources_listed_ - started;
        return resources_;
    }
    /// Whether files of the skills served were made or removed since resources/list last
    /// listed them (a bundled file changes no SKILL.md), looked at again when
    /// files_recheck_ms has passed. A size changed is kept for the next list, unannounced:
    /// a log a skill's script writes would otherwise be news every second. Nothing listed
    /// yet: the first list is read fresh, so there is nothing to announce.
    bool files_changed()
    {
        using std::chrono::duration_cast;
        using std::chrono::milliseconds;
        auto const snap = source_.snapshot();
        std::shared_ptr<resource_listing const> had;
        {
            std::lock_guard<std::mutex> lock(resources_mutex_);
            if (!resources_) return false;
            auto const waited = duration_cast<milliseconds>(std::chrono::steady_clock::now() - resources_listed_).count();
            auto const wait = std::max<std::int64_t>(opts_.files_recheck_ms, 20 * duration_cast<milliseconds>(resources_cost_).count());
            if (opts_.files_recheck_ms > 0 && waited < wait) return false;
            had = resources_;
        }
        auto const started = std::chrono::steady_clock::now();
        auto fresh = list_resources_now(snap);
        auto const done = std::chrono::steady_clock::now();
        std::lock_guard<std::mutex> lock(resources_mutex_);
        resources_listed_ = done;
        resources_cost_ = done - started;
        if (resources_ != had || fresh->resources == had->resources) return false; // (listed anew meanwhile, for a request)
        bool const made_or_removed = fresh->uris != had->uris;
        resources_ = std::move(fresh);
        resources_of_ = snap;
        return made_or_removed;
    }
    std::shared_ptr<resource_listing const> list_resources_now(std::shared_ptr<snapshot const> const& snap) const
    {
        auto listed = std::make_shared<resource_listing>();
        auto const held = serving(snap); // keeps the list alive
        auto const& skills = *held;
        listed->listing = listing_of(skills);
        auto* all = &listed->resources;
        for (auto const& s : skills) {
            auto const m = listing_of_skill(s);
            if (!m.complete()) continue; // as skills/list: a skill that cannot be described is not served
            for (auto const& f : m.files) {
                auto const slash = f.path.rfind('/');
                boost::json::object res{{"uri", skill_uri(s.path, f.path)},
                                        {"name", slash == std::string::npos ? f.path : f.path.substr(slash + 1)},
                                        {"mimeType", mime_type(f.path)},
                                        {"size", f.size}};
                if (f.path == "SKILL.md") {
                    res["name"] = s.record->meta.name.view();
                    res["description"] = s.record->meta.description.view();
                }
                all->push_back(std::move(res));
            }
        }
        // A cursor into one list is not taken for another: the files listed, in order, are
        // part of its name (their sizes are not: a size changed moves no entry).
        for (auto const& res : *all) {
            listed->uris += res.at("uri").as_string();
            listed->uris += '\n';
        }
        skillmd::detail::append_hex(listed->listing, static_cast<std::uint32_t>(std::hash<std::string>{}(listed->uris)), 8);
        return listed;
    }

    std::variant<boost::json::object, failure> list_resources(boost::json::object const& params) const
    {
        auto const snap = source_.snapshot();
        auto const all = all_resources(snap);
        auto r = paged(params, all->resources.size(), "resources", all->listing,
                       [&](std::size_t i, boost::json::array& items) { items.push_back(all->resources[i]); });
        if (auto* o = std::get_if<boost::json::object>(&r)) cacheable(*o);
        return r;
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

    /// Every served skill a URI's path lies inside, with the file's path in each, the
    /// innermost first; the skill's folder itself is not a file of it.
    static std::vector<located> enclosing(std::vector<served_skill> const& skills, std::string const& path)
    {
        std::vector<located> out;
        for (auto const& s : skills)
            if (path.size() > s.path.size() && path.starts_with(s.path) && path[s.path.size()] == '/')
                out.push_back(located{s, path.substr(s.path.size() + 1)});
        std::sort(out.begin(), out.end(), [](auto const& a, auto const& b) { return a.skill.path.size() > b.skill.path.size(); });
        return out;
    }

    std::variant<boost::json::object, failure> read_resource(boost::json::object const& params) const
    {
        auto const* u = params.if_contains("uri");
        if (u == nullptr || !u->is_string()) return failure{-32602, "`uri` must be a string"};
        auto const target = parse_skill_uri(u->as_string());
        if (!target) return failure{-32602, "not a resource skillmd serves: " + shown(u->as_string()), boost::json::object{{"uri", u->as_string()}}};
        auto const snap = source_.snapshot();
        boost::json::object const asked{{"uri", u->as_string()}};
        // Opened below the skill's folder, which must still be the one listed: no link
        // swapped in for the folder or a part of the path leads out of it.
        // Only what the lists show is read: a skill whose files cannot all be listed (too
        // deep, too many) is not served at all, and a file its listing leaves out is not its.
        // A nested skill's files are also files of the skills around it (the extension's
        // nested skills): a file one of them lists is read, the innermost first.
        std::optional<located> at;
        std::string unlisted;
        for (auto const& candidate : enclosing(*serving(snap), target->path)) {
            auto const m = listing_of_skill(candidate.skill);
            if (!m.complete()) {
                if (unlisted.empty()) unlisted = m.error;
                continue;
            }
            if (std::any_of(m.files.begin(), m.files.end(), [&](auto const& f) { return f.path == candidate.file; })) {
                at = candidate;
                break;
            }
        }
        if (!at && !unlisted.empty())
            return failure{-32602, "not served: " + shown(u->as_string()) + " belongs to a skill whose files cannot all be listed (" + shown(unlisted) + ")", asked};
        if (!at) return failure{-32602, "not a resource skillmd serves: " + shown(u->as_string()), asked};
        std::string error;
        auto bytes = read_of_skill(at->skill, at->file, error);
        if (!bytes) return failure{-32602, "cannot read " + shown(u->as_string()) + ": " + shown(error)};
        bool const text = is_text(*bytes);
        boost::json::object c{{"uri", skill_uri(at->skill.path, at->file)}, {"mimeType", mime_type(at->file)}};
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
        auto const at = locate(*serving(snap), target->path);
        if (!at) return failure{-32602, "not a directory skillmd serves: " + shown(u->as_string())};
        auto const m = listing_of_skill(at->skill);
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
        // A cursor holds a digest of this folder's listing: a page asked for after the
        // folder changed is refused, never taken from a different list.
        std::string names;
        for (auto const& [child, dir] : children) names += child + (dir ? "/\n" : "\n");
        std::string listing;
        skillmd::detail::append_hex(listing, static_cast<std::uint32_t>(std::hash<std::string>{}(names)), 8);
        auto r = paged(params, children.size(), "resources", listing, [&](std::size_t i, boost::json::array& items) {
            auto const& [name, dir] = children[i];
            items.push_back(boost::json::object{{"uri", skill_uri(at->skill.path, prefix + name)},
                                                {"name", name},
                                                {"mimeType", dir ? std::string_view("inode/directory") : mime_type(name)}});
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
    mutable std::mutex served_mutex_;
    mutable std::shared_ptr<std::vector<served_skill> const> served_;
    mutable std::shared_ptr<snapshot const> served_of_; ///< held: served_ points into it
    mutable std::mutex resources_mutex_;
    mutable std::shared_ptr<resource_listing const> resources_;
    mutable std::weak_ptr<snapshot const> resources_of_;
    mutable std::chrono::steady_clock::time_point resources_listed_{};
    mutable std::chrono::steady_clock::duration resources_cost_{};
};

} // namespace skillmd::mcp

#endif
