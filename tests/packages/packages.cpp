// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
//
// The packages layer: archives in and out under hostile-input rules, sources, the lock,
// plugin.json and discovery indexes, installs from folders, archives, git and HTTP (a
// server in this process plays every hostile server), transactions killed at each step,
// publishing and packing. tests/packages/round_trip.sh does the same against nginx with
// TLS and git daemon.

#include "../support/test_support.hpp"

#include <skillmd/packages.hpp>

#include <boost/test/unit_test.hpp>

#include <archive.h>
#include <archive_entry.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <functional>
#include <map>
#include <thread>

using namespace skillmd;
using namespace skillmd::packages;
namespace fs = std::filesystem;
using test::temp_dir;
using test::write;

namespace {

test::compiled_parser const parser{};

std::string skill_md(std::string const& name, std::string const& description = "Does a thing when asked.")
{
    return "---\nname: " + name + "\ndescription: " + description + "\n---\nBody of " + name + ".\n";
}

/// A skill folder with SKILL.md and, when given, more files.
void make_skill(fs::path const& dir, std::string const& name, std::map<std::string, std::string> const& more = {})
{
    write(dir / "SKILL.md", skill_md(name));
    for (auto const& [p, t] : more) write(dir / p, t);
}

/// Every regular file below `dir` with its bytes (links followed), by relative path.
std::map<std::string, std::string> tree(fs::path const& dir)
{
    std::map<std::string, std::string> out;
    for (auto const& e : fs::recursive_directory_iterator(dir))
        if (e.is_regular_file()) out[fs::relative(e.path(), dir).string()] = test::slurp(e.path());
    return out;
}

/// One entry of a hand-made (hostile) archive.
struct raw_entry
{
    std::string path;
    unsigned type = AE_IFREG;
    std::string bytes = {};
    std::string link = {}; ///< symlink target, or hard link target when `hard`
    bool hard = false;
    la_int64_t claimed_size = -1; ///< the size the header claims (-1: the real size)
};

std::string raw_archive(std::vector<raw_entry> const& entries, bool zip = false)
{
    std::string out;
    struct archive* a = archive_write_new();
    if (zip) {
        archive_write_set_format_zip(a);
    } else {
        archive_write_set_format_pax_restricted(a);
        archive_write_add_filter_gzip(a);
    }
    archive_write_open(a, &out, nullptr,
                       [](struct archive*, void* self, void const* d, std::size_t n) -> la_ssize_t {
                           static_cast<std::string*>(self)->append(static_cast<char const*>(d), n);
                           return static_cast<la_ssize_t>(n);
                       },
                       nullptr);
    for (auto const& e : entries) {
        struct archive_entry* x = archive_entry_new();
        archive_entry_set_pathname(x, e.path.c_str());
        if (e.hard) {
            archive_entry_set_hardlink(x, e.link.c_str());
            archive_entry_set_filetype(x, AE_IFREG);
            archive_entry_set_size(x, 0);
        } else {
            archive_entry_set_filetype(x, e.type);
            if (e.type == AE_IFLNK) archive_entry_set_symlink(x, e.link.c_str());
            archive_entry_set_size(x, e.type == AE_IFREG ? (e.claimed_size >= 0 ? e.claimed_size : static_cast<la_int64_t>(e.bytes.size())) : 0);
        }
        archive_entry_set_perm(x, 0644);
        archive_write_header(a, x);
        if (e.type == AE_IFREG && !e.hard && !e.bytes.empty()) archive_write_data(a, e.bytes.data(), e.bytes.size());
        archive_entry_free(x);
    }
    archive_write_close(a);
    archive_write_free(a);
    return out;
}

/// A small HTTP server on 127.0.0.1 for the tests: each path answers with a status,
/// headers and a body, or runs a handler that writes raw bytes (a trickle, a lie).
class site_server
{
public:
    struct route
    {
        std::string status = "200 OK";
        std::string headers;
        std::string body;
        std::function<void(int)> raw = {}; ///< writes the whole answer itself
    };

    site_server()
    {
        fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t n = sizeof a;
        BOOST_TEST_REQUIRE(::bind(fd_, reinterpret_cast<sockaddr*>(&a), n) == 0);
        ::listen(fd_, 16);
        ::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &n);
        port_ = ntohs(a.sin_port);
        thread_ = std::thread([this] { serve(); });
    }
    ~site_server()
    {
        stop_ = true;
        ::shutdown(fd_, SHUT_RDWR);
        ::close(fd_);
        thread_.join();
    }
    std::string url(std::string const& path = "") const { return "http://127.0.0.1:" + std::to_string(port_) + path; }
    void set(std::string const& path, route r)
    {
        std::lock_guard<std::mutex> l(m_);
        routes_[path] = std::move(r);
    }
    void file(std::string const& path, std::string body, std::string type = "application/octet-stream")
    {
        set(path, {"200 OK", "Content-Type: " + type + "\r\n", std::move(body)});
    }
    /// Serves every file below `root` at its path.
    void folder(fs::path const& root)
    {
        for (auto const& e : fs::recursive_directory_iterator(root))
            if (e.is_regular_file()) file("/" + fs::relative(e.path(), root).string(), test::slurp(e.path()));
    }

private:
    void serve()
    {
        while (!stop_) {
            int const c = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
            if (c < 0) return;
            std::string in;
            char buf[4096];
            while (in.find("\r\n\r\n") == std::string::npos) {
                auto const got = ::recv(c, buf, sizeof buf, 0);
                if (got <= 0) break;
                in.append(buf, static_cast<std::size_t>(got));
            }
            auto const sp = in.find(' ');
            std::string path = sp == std::string::npos ? "" : in.substr(sp + 1, in.find(' ', sp + 1) - sp - 1);
            route r{"404 Not Found", "", "no such file"};
            {
                std::lock_guard<std::mutex> l(m_);
                if (auto const it = routes_.find(path); it != routes_.end()) r = it->second;
            }
            if (r.raw) {
                r.raw(c);
            } else {
                std::string const answer = "HTTP/1.1 " + r.status + "\r\nContent-Length: " + std::to_string(r.body.size()) +
                                           "\r\nConnection: close\r\n" + r.headers + "\r\n" + r.body;
                send_all(c, answer);
            }
            ::shutdown(c, SHUT_RDWR);
            ::close(c);
        }
    }

public:
    /// False once the client is gone.
    static bool send_all(int c, std::string_view s)
    {
        while (!s.empty()) {
            auto const w = ::send(c, s.data(), s.size(), MSG_NOSIGNAL);
            if (w <= 0) return false;
            s.remove_prefix(static_cast<std::size_t>(w));
        }
        return true;
    }

private:
    int fd_ = -1;
    unsigned short port_ = 0;
    std::atomic<bool> stop_{false};
    std::mutex m_;
    std::map<std::string, route> routes_;
    std::thread thread_;
};

/// For the servers of these tests: plain http:// on loopback (--allow-http), short time-outs.
install_options quick()
{
    install_options o;
    o.fetch.limits.timeout = std::chrono::milliseconds(2000);
    o.fetch.allow_http = true;
    return o;
}

bool installed_nothing(fs::path const& into)
{
    std::string why;
    auto const lock = install_folder(into.string()).lock(why);
    if (!lock || !lock->skills.empty()) return false;
    for (auto const& e : fs::directory_iterator(into))
        if (e.path().filename() != ".skillmd-tx") return false;
    return true;
}

std::string index_json(std::vector<index_entry> const& entries)
{
    discovery_index i;
    i.skills = entries;
    return to_json(i);
}

std::string digest_of(std::string const& bytes) { return "sha256:" + mcp::sha256_hex(bytes); }

} // namespace

BOOST_AUTO_TEST_SUITE(packages_archive)

BOOST_AUTO_TEST_CASE(packed_archives_unpack_to_the_same_files_and_are_deterministic)
{
    for (auto const format : {archive_format::tar_gz, archive_format::zip}) {
        std::string why;
        std::vector<archive_member> members{{"SKILL.md", skill_md("a"), false}, {"scripts/run.sh", "#!/bin/sh\necho hi\n", true},
                                            {"references/deep/x.md", std::string(100000, 'x'), false}};
        auto const bytes = pack_archive(members, format, why);
        BOOST_TEST_REQUIRE(!bytes.empty(), why);
        std::reverse(members.begin(), members.end());
        BOOST_TEST(pack_archive(members, format, why) == bytes); // order and time do not matter
        temp_dir t;
        BOOST_TEST(unpack_archive(bytes, (t / "out").string()) == "");
        auto const files = tree(t / "out");
        BOOST_TEST(files.size() == 3u);
        BOOST_TEST(files.at("references/deep/x.md") == std::string(100000, 'x'));
        // Readable by all whatever the umask (root reads a file of mode 0000; nobody else does).
        BOOST_TEST(static_cast<unsigned>(fs::status(t / "out/scripts/run.sh").permissions() & fs::perms::all) == 0755u);
        BOOST_TEST(static_cast<unsigned>(fs::status(t / "out/SKILL.md").permissions() & fs::perms::all) == 0644u);
    }
}

BOOST_AUTO_TEST_CASE(hostile_entries_are_refused_by_name)
{
    struct hostile
    {
        std::string what;
        std::vector<raw_entry> entries;
        std::string expect;
    };
    std::vector<hostile> const cases{
        {"parent", {{"../evil", AE_IFREG, "x"}}, "unsafe name: ../evil"},
        {"nested parent", {{"a/../../evil", AE_IFREG, "x"}}, "unsafe name"},
        {"absolute", {{"/tmp/evil", AE_IFREG, "x"}}, "unsafe name: /tmp/evil"},
        {"backslash", {{"a\\..\\evil", AE_IFREG, "x"}}, "unsafe name"},
        {"control", {{"a\nb", AE_IFREG, "x"}}, "unsafe name"},
        {"device", {{"dev", AE_IFCHR}}, "a device, FIFO or socket"},
        {"fifo", {{"pipe", AE_IFIFO}}, "a device, FIFO or socket"},
        {"twice", {{"SKILL.md", AE_IFREG, "a"}, {"SKILL.md", AE_IFREG, "b"}}, "given twice"},
        {"link out", {{"l", AE_IFLNK, "", "../../etc/passwd"}}, "a link that leaves the archive"},
        {"absolute link", {{"l", AE_IFLNK, "", "/etc/passwd"}}, "a link that leaves the archive"},
        {"link to a folder", {{"d/x", AE_IFREG, "x"}, {"l", AE_IFLNK, "", "d"}}, "leads to a folder"},
        {"link to the root", {{"l", AE_IFLNK, "", "."}}, "a link that leaves the archive"},
        {"link loop", {{"a", AE_IFLNK, "", "b"}, {"b", AE_IFLNK, "", "a"}}, "round in a loop"},
        {"hard link out", {{"h", AE_IFREG, "", "../../etc/passwd", true}}, "a hard link that leaves"},
        {"through a file", {{"f", AE_IFREG, "x"}, {"f/g", AE_IFREG, "y"}}, "cannot write f/g"},
        {"too deep", {{[] { std::string p; for (int i = 0; i < 30; ++i) p += "a/"; return p + "x"; }(), AE_IFREG, "x"}}, "unsafe name"},
        {"not UTF-8", {{"caf\xe9.md", AE_IFREG, "x"}}, "unsafe name"},
    };
    for (auto const& c : cases) {
        temp_dir t;
        auto const why = unpack_archive(raw_archive(c.entries), (t / "out").string());
        BOOST_TEST(why.find(c.expect) != std::string::npos, c.what << ": " << why);
        BOOST_TEST(!fs::exists(t.path.parent_path() / "evil"));
    }
    // Not an archive at all.
    temp_dir t;
    BOOST_TEST(unpack_archive("just text", (t / "out").string()).find("not a tar") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(links_inside_become_copies)
{
    temp_dir t;
    auto const why = unpack_archive(raw_archive({{"docs/a.md", AE_IFREG, "text"}, {"b.md", AE_IFLNK, "", "docs/a.md"},
                                                 {"docs/c.md", AE_IFLNK, "", "../b.md"}, {"h.md", AE_IFREG, "", "docs/a.md", true}}),
                                    (t / "out").string());
    BOOST_TEST_REQUIRE(why == "");
    for (auto const* p : {"b.md", "docs/c.md", "h.md"}) {
        BOOST_TEST(!fs::is_symlink(t / "out" / p));
        BOOST_TEST(test::slurp(t / "out" / p) == "text");
    }
}

BOOST_AUTO_TEST_CASE(bombs_and_counts_stop_at_the_limits)
{
    package_limits small;
    small.max_total_bytes = 1 << 20;
    small.max_file_bytes = 512 * 1024;
    small.max_entries = 10;
    { // 4 MiB of zeros compress to a few KiB: stopped at the total, as unpacked.
        temp_dir t;
        std::vector<raw_entry> files;
        for (int i = 0; i < 8; ++i) files.push_back({"z" + std::to_string(i), AE_IFREG, std::string(500 * 1024, '\0')});
        auto const bomb = raw_archive(files);
        BOOST_TEST(bomb.size() < 64 * 1024u);
        BOOST_TEST(unpack_archive(bomb, (t / "out").string(), small).find("decompression bomb") != std::string::npos);
    }
    { // One file over the per-file bound.
        temp_dir t;
        BOOST_TEST(unpack_archive(raw_archive({{"big", AE_IFREG, std::string(600 * 1024, 'a')}}), (t / "out").string(), small)
                       .find("a file over 524288 bytes: big") != std::string::npos);
    }
    { // Too many entries.
        temp_dir t;
        std::vector<raw_entry> many;
        for (int i = 0; i < 11; ++i) many.push_back({"f" + std::to_string(i), AE_IFREG, "x"});
        BOOST_TEST(unpack_archive(raw_archive(many), (t / "out").string(), small).find("more than 10 entries") != std::string::npos);
    }
    { // A header that claims less than the data: libarchive reads what the header says; nothing is written past it.
        temp_dir t;
        auto const why = unpack_archive(raw_archive({{"f", AE_IFREG, "abcdef", "", false, 3}}), (t / "out").string(), small);
        if (why.empty()) BOOST_TEST(test::slurp(t / "out/f").size() <= 3u);
    }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(packages_formats)

BOOST_AUTO_TEST_CASE(sources_are_read_by_their_form)
{
    std::string why;
    struct row
    {
        std::string given, type, location, ref, path;
    };
    std::vector<row> const rows{
        {"git+https://example.com/a/b#v1:skills/x", "git", "https://example.com/a/b", "v1", "skills/x"},
        {"https://example.com/a/b.git", "git", "https://example.com/a/b.git", "", ""},
        {"https://example.com/a/b.git#main", "git", "https://example.com/a/b.git", "main", ""},
        {"git://127.0.0.1:9418/r.git#:sub", "git", "git://127.0.0.1:9418/r.git", "", "sub"},
        {"https://example.com", "index", "https://example.com/.well-known/agent-skills/index.json", "", ""},
        {"https://example.com/.well-known/agent-skills/", "index", "https://example.com/.well-known/agent-skills/index.json", "", ""},
        {"https://example.com/v2/index.json#pdf", "index", "https://example.com/v2/index.json", "", "pdf"},
        {"https://example.com/skills/pdf/SKILL.md", "skill-md", "https://example.com/skills/pdf/SKILL.md", "", ""},
        {"https://example.com/p.tar.gz", "archive", "https://example.com/p.tar.gz", "", ""},
        {"/x/y/plugin.zip", "archive", "/x/y/plugin.zip", "", ""},
        {"/x/y/plugin.zip#skills", "archive", "/x/y/plugin.zip", "", "skills"},
        {"/x/y/", "folder", "/x/y", "", ""},
        {"/x/repo#v2:skills", "git", "file:///x/repo", "v2", "skills"},
    };
    for (auto const& r : rows) {
        auto const o = parse_source(r.given, why);
        BOOST_TEST_REQUIRE(o.has_value(), r.given << ": " << why);
        BOOST_TEST(o->type == r.type, r.given);
        BOOST_TEST(o->location == r.location, r.given);
        BOOST_TEST(o->ref == r.ref, r.given);
        BOOST_TEST(o->path == r.path, r.given);
        auto const again = parse_source(source_text(*o), why);
        BOOST_TEST((again && *again == *o), r.given << " written back as " << source_text(*o));
    }
    // git's remote-helper form is a path here (a folder of that name), never a URL given to git.
    BOOST_TEST(parse_source("ext::sh -c touch% /tmp/pwned", why).value().type == "folder");
    for (std::string bad : {"", "-x", "ftp://example.com/x", "git+-oProxyCommand=x", "/x/repo#-x", "https://user:token@example.com/r.git",
                            "https://token@example.com/.well-known/agent-skills/index.json",
                            "/x/repo#main:../up", "https://example.com/SKILL.md#x", "file\x01name"}) {
        why.clear();
        BOOST_TEST(!parse_source(bad, why).has_value(), bad);
        BOOST_TEST(!why.empty(), bad);
    }
}

BOOST_AUTO_TEST_CASE(urls_resolve_as_rfc_3986_says)
{
    std::string const base = "https://h.example/.well-known/agent-skills/index.json";
    BOOST_TEST(resolve_url(base, "pdf/SKILL.md") == "https://h.example/.well-known/agent-skills/pdf/SKILL.md");
    BOOST_TEST(resolve_url(base, "../x.tar.gz") == "https://h.example/.well-known/x.tar.gz");
    BOOST_TEST(resolve_url(base, "../../../../x") == "https://h.example/x");
    BOOST_TEST(resolve_url(base, "/a/./b/../c") == "https://h.example/a/c");
    BOOST_TEST(resolve_url(base, "//cdn.example/y") == "https://cdn.example/y");
    BOOST_TEST(resolve_url(base, "http://other/z") == "http://other/z");
    BOOST_TEST(resolve_url(base, "?v=2") == "https://h.example/.well-known/agent-skills/index.json?v=2");
    BOOST_TEST(resolve_url("http://127.0.0.1:8080", "a") == "http://127.0.0.1:8080/a");
}

BOOST_AUTO_TEST_CASE(the_lock_reads_back_what_it_writes_and_nothing_else)
{
    lock_file l;
    locked_skill s;
    s.name = "pdf";
    s.source = {"git", "https://example.com/r.git", "v1", "skills/pdf"};
    s.revision = std::string(40, 'a');
    s.files = {{"SKILL.md", std::string(64, 'b'), 12}, {"scripts/x \"q\".sh", std::string(64, 'c'), 0}};
    l.put(s);
    s.name = "docx";
    s.source = {"index", "https://example.com/.well-known/agent-skills/index.json", "", "docx"};
    s.revision.clear();
    s.version = "1.2.0";
    s.digest = "sha256:" + std::string(64, 'd');
    s.resolved_index = s.source.location;
    l.put(s);
    auto const text = to_json(l);
    std::string why;
    auto const back = parse_lock(text, why);
    BOOST_TEST_REQUIRE(back.has_value(), why);
    BOOST_TEST(to_json(*back) == text);
    BOOST_TEST(back->skills.front().name == "docx"); // sorted by name
    BOOST_TEST(back->find("pdf")->files.at(1).path == "scripts/x \"q\".sh");
    BOOST_TEST(to_json(lock_file{}) == "{\n  \"lockfileVersion\": 1,\n  \"skills\": {}\n}\n");
    for (std::string bad : {std::string("[]"), std::string("{\"lockfileVersion\":2,\"skills\":{}}"),
                            std::string("{\"lockfileVersion\":1,\"skills\":{},\"extra\":1}"),
                            std::string("{\"lockfileVersion\":1,\"skills\":{\"a\":{\"source\":{\"type\":\"folder\",\"location\":\"/x\"},\"files\":{\"../x\":{\"sha256\":\"") +
                                std::string(64, 'a') + "\",\"size\":1}}}}}",
                            std::string("{\"lockfileVersion\":1,\"skills\":{\"a\":{\"source\":{\"type\":\"folder\",\"location\":\"/x\"},\"digest\":\"md5:x\",\"files\":{}}}}"),
                            std::string("{\"lockfileVersion\":1,\"skills\":{\"../x\":{\"source\":{\"type\":\"folder\",\"location\":\"/x\"},\"files\":{}}}}"),
                            std::string("{\"lockfileVersion\":1,\"skills\":{\".\":{\"source\":{\"type\":\"folder\",\"location\":\"/x\"},\"files\":{}}}}"),
                            std::string("{\"lockfileVersion\":1,\"skills\":{\"a\":{\"source\":{\"type\":\"ftp\",\"location\":\"/x\"},\"files\":{}}}}")}) {
        why.clear();
        BOOST_TEST(!parse_lock(bad, why).has_value(), bad);
        BOOST_TEST(!why.empty());
    }
}

BOOST_AUTO_TEST_CASE(plugin_manifests_are_graded_as_the_specification_says)
{
    std::string const schema = "\"$schema\":\"" + std::string(plugin_schema_1_0_0) + "\"";
    std::string why;
    auto const ok = check_plugin_manifest("{" + schema + ",\"name\":\"my.plugin-2\",\"version\":\"not semver\",\"author\":{\"name\":\"A\"},"
                                                         "\"keywords\":[\"x\"],\"extensions\":{\"com.example\":{}},\"surprise\":1}",
                                          why);
    BOOST_TEST_REQUIRE(ok.has_value(), why);
    BOOST_TEST(ok->name == "my.plugin-2");
    BOOST_TEST(ok->warnings.size() == 1u); // the unknown field, reported and ignored
    auto const ext = check_plugin_manifest("{" + schema + ",\"name\":\"p\",\"extensions\":[]}", why);
    BOOST_TEST_REQUIRE(ext.has_value());
    BOOST_TEST(ext->warnings.size() == 1u);
    for (std::string bad : {std::string("{\"name\":\"p\"}"), std::string("{\"$schema\":\"https://agent-plugins.org/schemas/2.0.0/plugin.schema.json\",\"name\":\"p\"}"),
                            "{" + schema + "}", "{" + schema + ",\"name\":\"P\"}", "{" + schema + ",\"name\":\"a--b\"}",
                            "{" + schema + ",\"name\":\"a.\"}", "{" + schema + ",\"name\":\"p\",\"version\":1}",
                            "{" + schema + ",\"name\":\"p\",\"author\":{\"name\":\"a\",\"x\":1}}",
                            "{" + schema + ",\"name\":\"p\",\"keywords\":[1]}", std::string("not json")}) {
        why.clear();
        BOOST_TEST(!check_plugin_manifest(bad, why).has_value(), bad);
        BOOST_TEST(!why.empty());
    }
}

BOOST_AUTO_TEST_CASE(discovery_indexes_skip_bad_entries_and_refuse_other_schemas)
{
    std::string why;
    std::string const d = "sha256:" + std::string(64, 'a');
    auto const i = parse_index(std::string("{\"$schema\":\"") + std::string(discovery_schema_0_2_0) + "\",\"skills\":["
                                   "{\"name\":\"ok\",\"type\":\"skill-md\",\"description\":\"d\",\"url\":\"ok/SKILL.md\",\"digest\":\"" + d + "\",\"new\":1},"
                                   "{\"name\":\"arc\",\"type\":\"archive\",\"description\":\"d\",\"url\":\"arc.tar.gz\",\"digest\":\"" + d + "\",\"version\":\"1.0.0\"},"
                                   "{\"name\":\"Bad\",\"type\":\"skill-md\",\"description\":\"d\",\"url\":\"x\",\"digest\":\"" + d + "\"},"
                                   "{\"name\":\"t\",\"type\":\"wheel\",\"description\":\"d\",\"url\":\"x\",\"digest\":\"" + d + "\"},"
                                   "{\"name\":\"g\",\"type\":\"skill-md\",\"description\":\"d\",\"url\":\"x\",\"digest\":\"sha256:ABC\"},"
                                   "{\"name\":\"ok\",\"type\":\"skill-md\",\"description\":\"d\",\"url\":\"x\",\"digest\":\"" + d + "\"},"
                                   "7]}",
                               why);
    BOOST_TEST_REQUIRE(i.has_value(), why);
    BOOST_TEST(i->skills.size() == 2u);
    BOOST_TEST(i->find("arc")->version == "1.0.0");
    BOOST_TEST(i->warnings.size() == 5u);
    BOOST_TEST(!parse_index("{\"skills\":[]}", why).has_value());
    BOOST_TEST(!parse_index("{\"$schema\":\"https://schemas.agentskills.io/discovery/0.1.0/schema.json\",\"skills\":[]}", why).has_value());
    BOOST_TEST(why.find("0.2.0") != std::string::npos);
    // What publish writes, parse reads.
    auto const again = parse_index(index_json(i->skills), why);
    BOOST_TEST_REQUIRE(again.has_value());
    BOOST_TEST(again->skills.size() == 2u);
    BOOST_TEST(again->warnings.empty());
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(packages_install)

BOOST_AUTO_TEST_CASE(folders_install_verify_and_remove)
{
    temp_dir t;
    make_skill(t / "src/alpha", "alpha", {{"scripts/run.sh", "echo run\n"}, {"references/a.md", "ref\n"}});
    make_skill(t / "src/beta", "beta");
    std::string const into = (t / "into").string();
    auto r = install(parser, (t / "src").string(), into);
    BOOST_TEST_REQUIRE(r.ok(), r.error);
    BOOST_TEST((r.installed == std::vector<std::string>{"alpha", "beta"}));
    BOOST_TEST(tree(t / "into/alpha") == tree(t / "src/alpha"));
    auto v = verify(into);
    BOOST_TEST(v.ok());
    BOOST_TEST(v.verified.size() == 2u);
    std::string why;
    auto const lock = install_folder(into).lock(why);
    BOOST_TEST_REQUIRE(lock.has_value(), why);
    BOOST_TEST(lock->find("alpha")->files.size() == 3u);
    BOOST_TEST(lock->find("alpha")->source.type == "folder");

    // Reinstalling the same is unchanged; a changed source is an update.
    r = install(parser, (t / "src").string(), into);
    BOOST_TEST((r.unchanged == std::vector<std::string>{"alpha", "beta"}));
    write(t / "src/beta/SKILL.md", skill_md("beta", "Now does another thing."));
    r = install(parser, (t / "src").string(), into);
    BOOST_TEST((r.updated == std::vector<std::string>{"beta"}));
    BOOST_TEST(test::slurp(t / "into/beta/SKILL.md") == skill_md("beta", "Now does another thing."));

    // One byte changed in any file, a file added or removed: verify names it.
    for (std::string const f : {"alpha/SKILL.md", "alpha/scripts/run.sh", "alpha/references/a.md", "beta/SKILL.md"}) {
        auto const before = test::slurp(t / "into" / f);
        auto changed = before;
        changed[changed.size() / 2] ^= 1;
        write(t / "into" / f, changed);
        v = verify(into);
        BOOST_TEST(!v.ok());
        BOOST_TEST_REQUIRE(v.faults.size() == 1u);
        BOOST_TEST(v.faults[0].what == "changed");
        BOOST_TEST(v.faults[0].skill + "/" + v.faults[0].path == f);
        write(t / "into" / f, before);
    }
    write(t / "into/alpha/extra.txt", "x");
    fs::remove(t / "into/alpha/references/a.md");
    v = verify(into);
    BOOST_TEST_REQUIRE(v.faults.size() == 2u);
    BOOST_TEST(v.faults[0].what == "missing");
    BOOST_TEST(v.faults[1].what == "extra");
    // Reinstalling restores a skill changed on disk.
    r = install(parser, (t / "src").string(), into);
    BOOST_TEST((r.updated == std::vector<std::string>{"alpha"}));
    BOOST_TEST(verify(into).ok());

    // Remove: the folder and the entry go; a name not installed refuses everything.
    r = remove({"alpha", "nope"}, into);
    BOOST_TEST(r.error.find("\"nope\" is not installed") != std::string::npos);
    BOOST_TEST(fs::exists(t / "into/alpha"));
    r = remove({"alpha"}, into);
    BOOST_TEST_REQUIRE(r.ok(), r.error);
    BOOST_TEST(!fs::exists(t / "into/alpha"));
    BOOST_TEST(install_folder(into).lock(why)->skills.size() == 1u);
    fs::remove_all(t / "into/beta");
    v = verify(into);
    BOOST_TEST_REQUIRE(v.faults.size() == 1u);
    BOOST_TEST(v.faults[0].what == "missing");
    BOOST_TEST(v.faults[0].path == "");
}

BOOST_AUTO_TEST_CASE(what_is_not_ours_is_not_touched)
{
    temp_dir t;
    make_skill(t / "a/alpha", "alpha");
    make_skill(t / "b/alpha", "alpha", {{"x.md", "other"}});
    make_skill(t / "into/mine", "mine");
    std::string const into = (t / "into").string();
    BOOST_TEST_REQUIRE(install(parser, (t / "a").string(), into).ok());
    auto r = install(parser, (t / "b").string(), into);
    BOOST_TEST(r.error.find("is installed from " + (t / "a").string()) != std::string::npos, r.error);
    make_skill(t / "c/mine", "mine", {{"y.md", "y"}});
    r = install(parser, (t / "c").string(), into);
    BOOST_TEST(r.error.find("skillmd did not install it") != std::string::npos, r.error);
    BOOST_TEST(!fs::exists(t / "into/mine/y.md"));
    BOOST_TEST(!remove({"mine"}, into).ok());
    BOOST_TEST(fs::exists(t / "into/mine/SKILL.md"));
}

BOOST_AUTO_TEST_CASE(skills_that_break_the_rules_are_skipped_and_said)
{
    temp_dir t;
    make_skill(t / "src/good", "good");
    write(t / "src/wrong-name/SKILL.md", skill_md("other-name"));
    write(t / "src/no-description/SKILL.md", "---\nname: no-description\n---\nbody\n");
    write(t / "src/Upper/SKILL.md", skill_md("Upper"));
    auto const r = install(parser, (t / "src").string(), (t / "into").string());
    BOOST_TEST_REQUIRE(r.ok(), r.error);
    BOOST_TEST((r.installed == std::vector<std::string>{"good"}));
    BOOST_TEST(r.warnings.size() >= 3u);
    bool named = false;
    for (auto const& w : r.warnings) named = named || (w.find("wrong-name") != std::string::npos && w.find("skipped") != std::string::npos);
    BOOST_TEST(named);
    // Nothing valid at all: refused, nothing installed.
    write(t / "bad/only/SKILL.md", "no frontmatter");
    auto const none = install(parser, (t / "bad").string(), (t / "into2").string());
    BOOST_TEST(!none.ok());
    BOOST_TEST(installed_nothing(t / "into2"));
}

BOOST_AUTO_TEST_CASE(plugins_install_from_folders_and_archives)
{
    temp_dir t;
    std::string const manifest = plugin_manifest_json("tools.example", "1.0.0", "Tools");
    write(t / "plugin/plugin.json", manifest);
    make_skill(t / "plugin/skills/one", "one", {{"ref.md", "r"}});
    make_skill(t / "plugin/skills/two", "two");
    make_skill(t / "plugin/skills/two/nested", "nested"); // one level deep only: part of two, not a skill
    write(t / "plugin/com.example.client/x.json", "{}");
    auto r = install(parser, (t / "plugin").string(), (t / "into").string());
    BOOST_TEST_REQUIRE(r.ok(), r.error);
    BOOST_TEST((r.installed == std::vector<std::string>{"one", "two"}));
    BOOST_TEST(fs::exists(t / "into/two/nested/SKILL.md"));
    BOOST_TEST(!fs::exists(t / "into/nested"));

    // The same plugin packed (both formats) installs the same files.
    for (std::string const ext : {".tar.gz", ".zip"}) {
        auto const p = pack(parser, (t / "plugin").string(), (t / ("pkg" + ext)).string(), "");
        BOOST_TEST_REQUIRE(p.ok(), p.error);
        auto const into = t / ("from" + ext);
        r = install(parser, (t / ("pkg" + ext)).string(), into.string());
        BOOST_TEST_REQUIRE(r.ok(), r.error);
        BOOST_TEST(tree(into / "one") == tree(t / "plugin/skills/one"));
        std::string why;
        BOOST_TEST(install_folder(into.string()).lock(why)->find("one")->digest == digest_of(test::slurp(t / ("pkg" + ext))));
    }

    // A plugin.json that breaks its schema rejects the plugin; one that leads outside too.
    write(t / "bad/plugin.json", "{\"name\":\"x\"}");
    make_skill(t / "bad/skills/one", "one");
    r = install(parser, (t / "bad").string(), (t / "into-bad").string());
    BOOST_TEST(r.error.find("$schema") != std::string::npos, r.error);
    BOOST_TEST(installed_nothing(t / "into-bad"));
    write(t / "outside/plugin.json", manifest);
    fs::create_directories(t / "escape/skills");
    make_skill(t / "escape/skills/one", "one");
    fs::create_symlink(t / "outside/plugin.json", t / "escape/plugin.json");
    fs::create_directories(t / "secret");
    make_skill(t / "secret/two", "two");
    fs::create_directory_symlink(t / "secret/two", t / "escape/skills/two");
    write(t / "escape/skills/one/leak.md", "");
    fs::remove(t / "escape/skills/one/leak.md");
    fs::create_symlink("/etc/passwd", t / "escape/skills/one/leak.md");
    r = install(parser, (t / "escape").string(), (t / "into-escape").string());
    // plugin.json is a link that leaves: it is not read as the plugin's, so the folder is not a plugin;
    // skills/two leaves the root and is not taken; leak.md is left out and said.
    BOOST_TEST(!fs::exists(t / "into-escape/two"));
    BOOST_TEST(!fs::exists(t / "into-escape/one/leak.md"));
    bool said = false;
    for (auto const& w : r.warnings) said = said || w.find("leak.md") != std::string::npos;
    BOOST_TEST(said);
}

BOOST_AUTO_TEST_CASE(git_repositories_at_a_branch_tag_or_commit)
{
    temp_dir t;
    auto const sh = [&](std::string const& cmd) {
        return std::system(("cd '" + t.path.string() + "' && " + cmd + " >/dev/null 2>&1").c_str());
    };
    make_skill(t / "work/skills/gamma", "gamma", {{"run.sh", "echo 1\n"}});
    make_skill(t / "work/other/delta", "delta");
    BOOST_TEST_REQUIRE(sh("cd work && git init -q -b main && git add -A && git -c user.name=t -c user.email=t@t commit -qm one && git tag v1") == 0);
    BOOST_TEST_REQUIRE(sh("git clone -q --bare work repo.git") == 0);
    std::string const repo = (t / "repo.git").string(), into = (t / "into").string();
    auto r = install(parser, repo + "#main:skills", into);
    BOOST_TEST_REQUIRE(r.ok(), r.error);
    BOOST_TEST((r.installed == std::vector<std::string>{"gamma"}));
    BOOST_TEST(tree(t / "into/gamma") == tree(t / "work/skills/gamma"));
    std::string why;
    auto lock = install_folder(into).lock(why);
    std::string const first = lock->find("gamma")->revision;
    BOOST_TEST(first.size() == 40u);

    // A new commit upstream: outdated says so (asking, not cloning), update applies it.
    write(t / "work/skills/gamma/run.sh", "echo 2\n");
    BOOST_TEST_REQUIRE(sh("cd work && git -c user.name=t -c user.email=t@t commit -qam two && git push -q ../repo.git main") == 0);
    auto rows = outdated(into, {}, why);
    BOOST_TEST_REQUIRE(rows.size() == 1u);
    BOOST_TEST(rows[0].state == "outdated");
    BOOST_TEST(rows[0].installed == first);
    BOOST_TEST(verify(into).ok()); // outdated touched nothing
    r = update(parser, {}, into);
    BOOST_TEST_REQUIRE(r.ok(), r.error);
    BOOST_TEST((r.updated == std::vector<std::string>{"gamma"}));
    BOOST_TEST(test::slurp(t / "into/gamma/run.sh") == "echo 2\n");
    BOOST_TEST(outdated(into, {}, why).at(0).state == "current");

    // A tag and a commit pin what is installed.
    r = install(parser, "git+file://" + repo + "#v1:other/delta", into);
    BOOST_TEST_REQUIRE(r.ok(), r.error);
    BOOST_TEST((r.installed == std::vector<std::string>{"delta"}));
    r = install(parser, repo + "#" + first + ":skills", (t / "pinned").string());
    BOOST_TEST_REQUIRE(r.ok(), r.error);
    BOOST_TEST(test::slurp(t / "pinned/gamma/run.sh") == "echo 1\n");
    BOOST_TEST(outdated((t / "pinned").string(), {}, why).at(0).state == "current");

    // The repository's attributes are not applied: a filter driver (a program) never runs,
    // and variables that point git elsewhere (a hook sets GIT_DIR) choose nothing.
    write(t / "home/.gitconfig", "[filter \"x\"]\n\tsmudge = touch " + (t / "SMUDGED").string() + "; cat\n\tclean = cat\n");
    write(t / "work/.gitattributes", "* filter=x\n");
    make_skill(t / "other/skills/gamma", "gamma", {{"run.sh", "from another repository\n"}});
    BOOST_TEST_REQUIRE(sh("cd work && git add -A && git -c user.name=t -c user.email=t@t commit -qm attrs && git push -q ../repo.git main") == 0);
    BOOST_TEST_REQUIRE(sh("cd other && git init -q -b main && git add -A && git -c user.name=t -c user.email=t@t commit -qm other") == 0);
    std::string const home = std::getenv("HOME") ? std::getenv("HOME") : "";
    ::setenv("HOME", (t / "home").c_str(), 1);
    ::setenv("GIT_DIR", (t / "other/.git").c_str(), 1);
    r = install(parser, repo + "#main:skills", (t / "filtered").string());
    ::unsetenv("GIT_DIR");
    ::setenv("HOME", home.c_str(), 1);
    BOOST_TEST_REQUIRE(r.ok(), r.error);
    BOOST_TEST(!fs::exists(t / "SMUDGED"));
    BOOST_TEST(test::slurp(t / "filtered/gamma/run.sh") == "echo 2\n");

    // What does not exist is said.
    auto const nope = install(parser, repo + "#nope", (t / "x").string()).error;
    BOOST_TEST(nope.find("no branch, tag or commit \"nope\"") != std::string::npos, nope);
    BOOST_TEST(install(parser, repo + "#main:missing", (t / "x").string()).error.find("no folder \"missing\"") != std::string::npos);
    BOOST_TEST(!install(parser, "git+file://" + (t / "none.git").string(), (t / "x").string()).ok());
    // Plain git:// to another machine is refused before git runs, and so is git's
    // remote-helper form, which names a program (`http::` would be plain HTTP).
    BOOST_TEST(install(parser, "git://example.com/r.git", (t / "x").string()).error.find("not encrypted") != std::string::npos);
    BOOST_TEST(install(parser, "git+http::http://example.com/r.git", (t / "x").string()).error.find("not a git URL") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(packages_transactions)

// The state of an install folder: every file below it but the transaction area, and the lock.
std::map<std::string, std::string> state_of(fs::path const& into)
{
    std::map<std::string, std::string> out;
    for (auto it = fs::recursive_directory_iterator(into); it != fs::recursive_directory_iterator(); ++it) {
        if (it->path().filename() == ".skillmd-tx") {
            it.disable_recursion_pending();
            continue;
        }
        if (it->is_regular_file()) out[fs::relative(it->path(), into).string()] = test::slurp(it->path());
    }
    return out;
}

// Runs `change` in a child that is killed (SIGKILL) when it reaches step `stop`; true
// when it got there.
bool killed_at(std::string const& stop, std::function<void(install_options const&)> const& change)
{
    int fds[2];
    if (::pipe(fds) != 0) return false;
    pid_t const pid = ::fork();
    if (pid == 0) {
        ::close(fds[0]);
        install_options o;
        o.on_step = [&](std::string_view s) {
            if (s == stop) {
                if (::write(fds[1], "k", 1) != 1) {}
                ::raise(SIGKILL);
            }
        };
        change(o);
        ::_exit(0);
    }
    ::close(fds[1]);
    char c = 0;
    bool const reached = ::read(fds[0], &c, 1) == 1;
    ::close(fds[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    return reached && WIFSIGNALED(status);
}

BOOST_AUTO_TEST_CASE(a_change_killed_at_any_step_leaves_the_old_or_the_new_folder)
{
    temp_dir t;
    make_skill(t / "v1/alpha", "alpha", {{"a.md", "one"}});
    make_skill(t / "v1/beta", "beta");
    make_skill(t / "v2/alpha", "alpha", {{"a.md", "two"}, {"b.md", "new file"}});
    make_skill(t / "v2/beta", "beta", {{"c.md", "more"}});
    make_skill(t / "v2/gamma", "gamma");
    std::vector<std::string> const steps{"fetched", "journal", "out:alpha", "in:alpha", "out:beta", "in:beta", "in:gamma", "committed",
                                         "cleaned"};
    for (auto const& step : steps) {
        temp_dir run;
        std::string const into = (run / "into").string();
        // The old state: v1 installed from `src`; the change: src now holds v2, installed again.
        fs::copy(t / "v1", run / "src", fs::copy_options::recursive);
        BOOST_TEST_REQUIRE(install(parser, (run / "src").string(), into).ok());
        auto const before = state_of(run / "into");
        fs::remove_all(run / "src");
        fs::copy(t / "v2", run / "src", fs::copy_options::recursive);
        BOOST_TEST_REQUIRE(killed_at(step, [&](install_options const& o) { install(parser, (run / "src").string(), into, o); }), step);
        // verify reads only: it reports the interrupted change. The next change (here
        // begin() alone) finishes or undoes it; then the folder is all of one state.
        bool const journaled = step != "fetched" && step != "cleaned";
        BOOST_TEST(verify(into).error.empty() != journaled, step);
        BOOST_TEST_REQUIRE(install_folder(into).begin() == "", step);
        auto const v = verify(into);
        BOOST_TEST(v.ok(), step << ": " << (v.faults.empty() ? v.error : v.faults[0].skill + "/" + v.faults[0].path + " " + v.faults[0].what));
        auto const after = state_of(run / "into");
        bool const committed = step == "committed" || step == "cleaned";
        if (committed) {
            BOOST_TEST(after != before, step);
            BOOST_TEST(after.at("gamma/SKILL.md") == skill_md("gamma"), step);
            BOOST_TEST(after.at("alpha/a.md") == "two", step);
        } else {
            BOOST_TEST((after == before), step << ": the folder is not as it was");
        }
        BOOST_TEST(fs::is_empty(run / "into/.skillmd-tx"), step);
        // And the change then goes through.
        auto const again = install(parser, (run / "src").string(), into);
        BOOST_TEST(again.ok(), step << ": " << again.error);
        BOOST_TEST(tree(run / "into/beta") == tree(t / "v2/beta"), step);
    }
    // A removal killed half way.
    for (std::string const step : {"journal", "out:alpha", "out:beta", "committed"}) {
        temp_dir run;
        std::string const into = (run / "into").string();
        fs::copy(t / "v1", run / "src", fs::copy_options::recursive);
        BOOST_TEST_REQUIRE(install(parser, (run / "src").string(), into).ok());
        auto const before = state_of(run / "into");
        BOOST_TEST_REQUIRE(killed_at(step, [&](install_options const& o) { remove({"alpha", "beta"}, into, o); }), step);
        BOOST_TEST_REQUIRE(install_folder(into).begin() == "", step);
        BOOST_TEST(verify(into).ok(), step);
        auto const after = state_of(run / "into");
        if (step == "committed") BOOST_TEST(after.size() == 1u, step); // the lock alone
        else BOOST_TEST((after == before), step);
    }
}

// A `.skillmd-tx/` that skillmd did not write here (a cloned repository can hold one) is
// never acted on: its journal names another area, so nothing is moved or removed.
BOOST_AUTO_TEST_CASE(a_planted_journal_is_never_acted_on)
{
    temp_dir t;
    make_skill(t / "src/alpha", "alpha");
    std::string const into = (t / "into").string();
    BOOST_TEST_REQUIRE(install(parser, (t / "src").string(), into).ok());
    make_skill(t / "victim", "victim");
    make_skill(t / "into/mine", "mine");
    write(t / "into/.skillmd-tx/journal", "put alpha\nput mine\nput victim\n");
    write(t / "into/.skillmd-tx/lock.json", "{}");
    fs::create_directory_symlink(t.path, t / "into/.skillmd-tx/old");
    for (std::string stamp : {std::string(), std::string("area 1 2\n")}) {
        write(t / "into/.skillmd-tx/journal", stamp + "put alpha\nput mine\nput victim\n");
        auto const r = install(parser, (t / "src").string(), into);
        BOOST_TEST(r.error.find("was not written by skillmd in this folder") != std::string::npos, r.error);
        BOOST_TEST(fs::exists(t / "victim/SKILL.md"));
        BOOST_TEST(fs::exists(t / "into/mine/SKILL.md"));
        BOOST_TEST(fs::exists(t / "into/alpha/SKILL.md"));
        BOOST_TEST(!verify(into).ok()); // reported, never repaired on its word
    }
    // A lock that names a folder outside is not a lock.
    fs::remove_all(t / "into/.skillmd-tx");
    write(t / "into/skills-lock.json", "{\"lockfileVersion\":1,\"skills\":{\"../victim\":{\"source\":{\"type\":\"folder\",\"location\":\"/x\"},\"files\":{}}}}");
    BOOST_TEST(!remove({"../victim"}, into).ok());
    BOOST_TEST(fs::exists(t / "victim/SKILL.md"));
    // The area itself as a link: refused.
    fs::remove(t / "into/skills-lock.json");
    fs::remove_all(t / "into/.skillmd-tx");
    fs::create_directory_symlink(t / "victim", t / "into/.skillmd-tx");
    BOOST_TEST(install(parser, (t / "src").string(), into).error.find("a link, or not a folder") != std::string::npos);
    BOOST_TEST(fs::exists(t / "victim/SKILL.md"));
}

// A folder made under a skill's name after a change was killed between moving the old copy
// aside and the new one in: undoing the change never removes it.
BOOST_AUTO_TEST_CASE(undoing_never_removes_a_folder_made_since)
{
    temp_dir t;
    make_skill(t / "src/alpha", "alpha", {{"a.md", "one"}});
    std::string const into = (t / "into").string();
    BOOST_TEST_REQUIRE(install(parser, (t / "src").string(), into).ok());
    write(t / "src/alpha/a.md", "two");
    BOOST_TEST_REQUIRE(killed_at("out:alpha", [&](install_options const& o) { install(parser, (t / "src").string(), into, o); }));
    BOOST_TEST(!fs::exists(t / "into/alpha"));
    write(t / "into/alpha/PRECIOUS.txt", "mine");
    auto const why = install_folder(into).begin();
    BOOST_TEST(why.find("is not the folder the interrupted change put there") != std::string::npos, why);
    BOOST_TEST(test::slurp(t / "into/alpha/PRECIOUS.txt") == "mine");
    fs::rename(t / "into/alpha", t / "moved-away");
    BOOST_TEST(install_folder(into).begin() == ""); // now the old copy goes back
    BOOST_TEST(test::slurp(t / "into/alpha/a.md") == "one");
    BOOST_TEST(verify(into).ok());
}

BOOST_AUTO_TEST_CASE(one_change_at_a_time)
{
    temp_dir t;
    make_skill(t / "src/alpha", "alpha");
    std::string const into = (t / "into").string();
    install_folder holder(into);
    BOOST_TEST_REQUIRE(holder.begin() == "");
    auto const r = install(parser, (t / "src").string(), into);
    BOOST_TEST(r.error.find("another skillmd is changing") != std::string::npos, r.error);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(packages_http)

BOOST_AUTO_TEST_CASE(indexes_and_urls_install_with_their_digests)
{
    site_server site;
    std::string const one = skill_md("one");
    std::string why;
    auto const arc = pack_archive({{"SKILL.md", skill_md("arc"), false}, {"docs/x.md", "x", false}}, archive_format::tar_gz, why);
    site.file("/.well-known/agent-skills/one/SKILL.md", one, "text/markdown");
    site.file("/files/arc.tar.gz", arc, "application/gzip");
    site.file("/.well-known/agent-skills/index.json",
              index_json({{"one", "skill-md", "One.", "one/SKILL.md", digest_of(one), "2.0.0"},
                          {"arc", "archive", "Arc.", "/files/arc.tar.gz", digest_of(arc), ""}}),
              "application/json");
    site.set("/moved/SKILL.md", {"301 Moved Permanently", "Location: /.well-known/agent-skills/one/SKILL.md\r\n", ""});
    temp_dir t;
    std::string const into = (t / "into").string();
    auto r = install(parser, site.url(), into, quick());
    BOOST_TEST_REQUIRE(r.ok(), r.error);
    BOOST_TEST((r.installed == std::vector<std::string>{"arc", "one"}));
    BOOST_TEST(test::slurp(t / "into/arc/docs/x.md") == "x");
    auto lock = install_folder(into).lock(why);
    BOOST_TEST(lock->find("one")->version == "2.0.0");
    BOOST_TEST(lock->find("arc")->digest == digest_of(arc));
    BOOST_TEST(lock->find("arc")->resolved_index == site.url("/.well-known/agent-skills/index.json"));
    auto rows = outdated(into, quick().fetch, why);
    BOOST_TEST_REQUIRE(rows.size() == 2u);
    BOOST_TEST(rows[0].state == "current");
    BOOST_TEST(rows[1].state == "current");
    // Upstream changes one artifact: outdated and update follow.
    std::string const one2 = skill_md("one", "Changed upstream.");
    site.file("/.well-known/agent-skills/one/SKILL.md", one2);
    site.file("/.well-known/agent-skills/index.json",
              index_json({{"one", "skill-md", "One.", "one/SKILL.md", digest_of(one2), "2.1.0"},
                          {"arc", "archive", "Arc.", "/files/arc.tar.gz", digest_of(arc), ""}}));
    rows = outdated(into, quick().fetch, why);
    BOOST_TEST(rows[1].name == "one");
    BOOST_TEST(rows[1].state == "outdated");
    BOOST_TEST(rows[1].available == "2.1.0");
    r = update(parser, {"one"}, into, quick());
    BOOST_TEST_REQUIRE(r.ok(), r.error);
    BOOST_TEST((r.updated == std::vector<std::string>{"one"}));
    BOOST_TEST(test::slurp(t / "into/one/SKILL.md") == one2);
    // One skill of an index, and a SKILL.md URL through a redirect.
    r = install(parser, site.url("/.well-known/agent-skills/index.json#arc"), (t / "just-arc").string(), quick());
    BOOST_TEST((r.installed == std::vector<std::string>{"arc"}));
    r = install(parser, site.url("/moved/SKILL.md"), (t / "url").string(), quick());
    BOOST_TEST_REQUIRE(r.ok(), r.error);
    BOOST_TEST(install_folder((t / "url").string()).lock(why)->find("one")->digest == digest_of(one2));
}

BOOST_AUTO_TEST_CASE(hostile_servers_are_refused_with_nothing_installed)
{
    site_server site;
    std::string why;
    std::string const good = skill_md("good");
    auto const index_for = [&](std::string const& url, std::string const& digest, std::string const& type = "archive") {
        return index_json({{"good", type, "Good.", url, digest, ""}});
    };
    std::vector<raw_entry> zeros{{"SKILL.md", AE_IFREG, good}};
    for (int i = 0; i < 5; ++i) zeros.push_back({"zeros" + std::to_string(i), AE_IFREG, std::string(15u << 20, '\0')});
    std::string const bomb = raw_archive(zeros); // 75 MiB unpacked from about 75 KB
    std::string const escaping = raw_archive({{"SKILL.md", AE_IFREG, good}, {"../../evil", AE_IFREG, "x"}});
    std::string const absolute = raw_archive({{"SKILL.md", AE_IFREG, good}, {"/tmp/skillmd-evil", AE_IFREG, "x"}});
    std::string const linking = raw_archive({{"SKILL.md", AE_IFREG, good}, {"l", AE_IFLNK, "", "../../../../etc/passwd"}});
    std::string const wrapped = pack_archive({{"good/SKILL.md", good, false}}, archive_format::tar_gz, why);
    site.file("/bomb.tar.gz", bomb);
    site.file("/escaping.tar.gz", escaping);
    site.file("/absolute.tar.gz", absolute);
    site.file("/linking.tar.gz", linking);
    site.file("/wrapped.tar.gz", wrapped);
    site.file("/good/SKILL.md", good);
    site.file("/big", std::string(3u << 20, 'a'));
    site.set("/loop-a", {"302 Found", "Location: /loop-b\r\n", ""});
    site.set("/loop-b", {"302 Found", "Location: /loop-a\r\n", ""});
    for (int i = 0; i < 8; ++i)
        site.set("/hop" + std::to_string(i), {"302 Found", "Location: /hop" + std::to_string(i + 1) + "\r\n", ""});
    site.set("/trickle", {"", "", "", [&](int c) {
                              site_server::send_all(c, "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n");
                              for (int i = 0; i < 30 && site_server::send_all(c, "x"); ++i)
                                  std::this_thread::sleep_for(std::chrono::milliseconds(100));
                          }});
    // Five entries of one archive that each stay under the per-archive bound: together over it.
    std::string const big = raw_archive({{"SKILL.md", AE_IFREG, good}, {"a", AE_IFREG, std::string(10u << 20, '\0')},
                                         {"b", AE_IFREG, std::string(10u << 20, '\0')}});
    site.file("/big.tar.gz", big);
    std::vector<index_entry> five;
    for (std::string n : {"good", "good-b", "good-c", "good-d"})
        five.push_back({n, "archive", "Good.", "/big.tar.gz", digest_of(big), ""});
    struct hostile
    {
        std::string what, index, expect;
    };
    std::vector<hostile> const cases{
        {"a wrong digest", index_for("/good/SKILL.md", digest_of("something else"), "skill-md"), "not the index's"},
        {"a decompression bomb", index_for("/bomb.tar.gz", digest_of(bomb)), "decompression bomb"},
        {"../ entries", index_for("/escaping.tar.gz", digest_of(escaping)), "unsafe name: ../../evil"},
        {"absolute entries", index_for("/absolute.tar.gz", digest_of(absolute)), "unsafe name: /tmp/skillmd-evil"},
        {"a link that escapes", index_for("/linking.tar.gz", digest_of(linking)), "a link that leaves the archive"},
        {"SKILL.md not at the root", index_for("/wrapped.tar.gz", digest_of(wrapped)), "no SKILL.md at its root"},
        {"a redirect loop", index_for("/loop-a", digest_of(good), "skill-md"), "redirect loop"},
        {"too many redirects", index_for("/hop0", digest_of(good), "skill-md"), "more than 5 redirects"},
        {"a trickle", index_for("/trickle", digest_of(good), "skill-md"), "within 2000 ms"},
        {"an oversized answer", index_for("/big", digest_of(good), "skill-md"), "/big"},
        {"a missing artifact", index_for("/none", digest_of(good), "skill-md"), "HTTP 404"},
        {"another schema", "{\"$schema\":\"https://example.com/other.json\",\"skills\":[]}", "discovery schema 0.2.0"},
        {"not JSON", "<html>", "not a JSON object"},
        {"an entry of another type only", index_for("/good/SKILL.md", digest_of(good), "wheel"), "no skill listed"},
        {"many archives, together too large", index_json(five), "bytes unpacked in all"},
    };
    auto opts = quick();
    opts.fetch.limits.max_download_bytes = 2u << 20;
    for (auto const& c : cases) {
        site.file("/.well-known/agent-skills/index.json", c.index);
        temp_dir t;
        auto const r = install(parser, site.url(), (t / "into").string(), opts);
        BOOST_TEST(!r.ok(), c.what);
        BOOST_TEST(r.error.find(c.expect) != std::string::npos, c.what << ": " << r.error);
        BOOST_TEST(installed_nothing(t / "into"), c.what);
        BOOST_TEST(!fs::exists(t.path.parent_path() / "evil"));
        BOOST_TEST(!fs::exists("/tmp/skillmd-evil"));
    }
    // Plain http:// needs --allow-http, and reaches only this machine even then: refused
    // before any connection.
    temp_dir t;
    BOOST_TEST(install(parser, "http://example.com/x/SKILL.md", (t / "into").string(), opts).error.find("only this machine") !=
               std::string::npos);
    BOOST_TEST(install(parser, site.url("/good/SKILL.md"), (t / "into").string()).error.find("--allow-http") != std::string::npos);
    BOOST_TEST(installed_nothing(t / "into"));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(packages_publish)

BOOST_AUTO_TEST_CASE(published_sites_install_to_the_same_files)
{
    temp_dir t;
    make_skill(t / "skills/solo", "solo");
    make_skill(t / "skills/bundle", "bundle", {{"scripts/go.sh", "#!/bin/sh\n"}, {"docs/a.md", "a"}});
    fs::permissions(t / "skills/bundle/scripts/go.sh", fs::perms::owner_exec, fs::perm_options::add);
    site_server site;
    auto p = publish(parser, (t / "skills").string(), (t / "site").string(), {site.url(), "1.0.0"});
    BOOST_TEST_REQUIRE(p.ok(), p.error);
    BOOST_TEST((p.published == std::vector<std::string>{"bundle", "solo"}));
    std::string const root = (t / "site/.well-known/agent-skills").string();
    std::string why;
    auto const index = parse_index(test::slurp(root + "/index.json"), why);
    BOOST_TEST_REQUIRE(index.has_value(), why);
    BOOST_TEST(index->find("solo")->type == "skill-md");
    BOOST_TEST(index->find("bundle")->type == "archive");
    BOOST_TEST(index->find("bundle")->url == site.url("/.well-known/agent-skills/v1.0.0/bundle.tar.gz"));
    BOOST_TEST(index->find("bundle")->digest == digest_of(test::slurp(root + "/v1.0.0/bundle.tar.gz")));
    BOOST_TEST(index->find("solo")->description == "Does a thing when asked.");
    BOOST_TEST(test::slurp(root + "/v1.0.0/index.json") == test::slurp(root + "/index.json"));
    BOOST_TEST(test::slurp(root + "/versions.json") == "{\"latest\":\"1.0.0\",\"versions\":[\"1.0.0\"]}\n");

    site.folder(t / "site");
    auto r = install(parser, site.url(), (t / "into").string(), quick());
    BOOST_TEST_REQUIRE(r.ok(), r.error);
    BOOST_TEST(tree(t / "into/bundle") == tree(t / "skills/bundle"));
    BOOST_TEST(tree(t / "into/solo") == tree(t / "skills/solo"));
    BOOST_TEST(static_cast<unsigned>(fs::status(t / "into/bundle/scripts/go.sh").permissions() & fs::perms::all) == 0755u);
    BOOST_TEST(verify((t / "into").string()).ok());

    // The same skills published again: the same bytes. A published version does not change.
    auto const before = test::slurp(root + "/v1.0.0/bundle.tar.gz");
    BOOST_TEST(publish(parser, (t / "skills").string(), (t / "site").string(), {site.url(), "1.0.0"}).ok());
    BOOST_TEST(test::slurp(root + "/v1.0.0/bundle.tar.gz") == before);
    write(t / "skills/bundle/docs/a.md", "changed");
    p = publish(parser, (t / "skills").string(), (t / "site").string(), {site.url(), "1.0.0"});
    BOOST_TEST(p.error.find("does not change") != std::string::npos, p.error);
    p = publish(parser, (t / "skills").string(), (t / "site").string(), {site.url(), "1.10.0"});
    BOOST_TEST_REQUIRE(p.ok(), p.error);
    p = publish(parser, (t / "skills").string(), (t / "site").string(), {site.url(), "1.9.0"});
    BOOST_TEST(test::slurp(root + "/versions.json") == "{\"latest\":\"1.10.0\",\"versions\":[\"1.0.0\",\"1.9.0\",\"1.10.0\"]}\n");
    BOOST_TEST(!publish(parser, (t / "skills").string(), (t / "site").string(), {site.url(), "../x"}).ok());

    // Without a version: artifacts beside the index, URLs relative to it when no base is given.
    p = publish(parser, (t / "skills").string(), (t / "plain").string(), {});
    BOOST_TEST_REQUIRE(p.ok(), p.error);
    auto const plain = parse_index(test::slurp(t / "plain/.well-known/agent-skills/index.json"), why);
    BOOST_TEST(plain->find("solo")->url == "solo/SKILL.md");
    BOOST_TEST(!fs::exists(t / "plain/.well-known/agent-skills/versions.json"));
}

BOOST_AUTO_TEST_CASE(packs_are_agent_plugins_packages)
{
    temp_dir t;
    make_skill(t / "my-tools/alpha", "alpha", {{"x.md", "x"}});
    std::string why;
    auto const p = pack(parser, (t / "my-tools").string(), (t / "out.zip").string(), "");
    BOOST_TEST_REQUIRE(p.ok(), p.error);
    BOOST_TEST(unpack_archive(test::slurp(t / "out.zip"), (t / "unpacked").string()) == "");
    auto const m = check_plugin_manifest(test::slurp(t / "unpacked/plugin.json"), why);
    BOOST_TEST_REQUIRE(m.has_value(), why);
    BOOST_TEST(m->name == "my-tools");
    BOOST_TEST(tree(t / "unpacked/skills/alpha") == tree(t / "my-tools/alpha"));
    BOOST_TEST(pack(parser, (t / "my-tools").string(), (t / "x.tar.gz").string(), "Bad Name").error.find("not a plugin name") !=
               std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
