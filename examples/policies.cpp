// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
//
// One complete exemplar of each policy concept (docs/policies.md), put together into
// one skill system and run. The test `policy_exemplars` runs this program: it checks
// what the system does with its own asserts and exits 1 when anything differs.

#include <skillmd/system.hpp>
#include <skillmd/storage/registry.hpp>
#include <skillmd/frontmatter/line_parser.hpp>
#include <skillmd/text.hpp>

#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

namespace sk = skillmd;

// Source: skills kept in a map of command -> SKILL.md text. Required: label, discover,
// read_head, read_all. Optional: stamp (lets refresh() keep what did not change).
class map_source
{
public:
    explicit map_source(std::string label) : label_(std::move(label)), state_(std::make_shared<state>()) {}

    void put(std::string command, std::string text)
    {
        std::lock_guard<std::mutex> lock(state_->mutex);
        state_->skills[std::move(command)] = {std::move(text), ++state_->version};
    }

    std::string_view label() const { return label_; }

    // Cheap: lists what exists, reads no text. Called on the refreshing thread.
    sk::discovery discover() const
    {
        std::lock_guard<std::mutex> lock(state_->mutex);
        sk::discovery d;
        for (auto const& [command, e] : state_->skills) {
            sk::candidate c;
            c.command = command;
            c.path = "map:" + label_ + "/" + command; // where diagnostics point
            c.directory_name = command;               // the name a skill gets when it gives none
            c.stamp = {0, 0, e.text.size(), static_cast<std::int64_t>(e.version)};
            d.skills.push_back(std::move(c));
        }
        return d;
    }

    // Called from the registry's reader threads at once: const and locked.
    sk::read_outcome read_head(sk::candidate const& c) const { return read_all(c); }
    sk::read_outcome read_all(sk::candidate const& c) const
    {
        std::lock_guard<std::mutex> lock(state_->mutex);
        sk::read_outcome r;
        auto const it = state_->skills.find(c.command);
        if (it == state_->skills.end()) {
            r.error = "gone from the map"; // problems are values, never exceptions
            return r;
        }
        r.text = it->second.text;
        r.complete = true;
        r.stamp = {0, 0, it->second.text.size(), static_cast<std::int64_t>(it->second.version)};
        return r;
    }

    // Optional hook: the current stamp; an unchanged one means the last read still holds.
    std::optional<sk::file_stamp> stamp(sk::candidate const& c) const
    {
        std::lock_guard<std::mutex> lock(state_->mutex);
        auto const it = state_->skills.find(c.command);
        if (it == state_->skills.end()) return std::nullopt;
        return sk::file_stamp{0, 0, it->second.text.size(), static_cast<std::int64_t>(it->second.version)};
    }

private:
    struct entry
    {
        std::string text;
        std::uint64_t version = 0;
    };
    struct state
    {
        std::mutex mutex;
        std::map<std::string, entry> skills;
        std::uint64_t version = 0;
    };
    std::string label_;
    std::shared_ptr<state> state_; // shared, so the source can be copied into a registry and still filled
};
static_assert(sk::skill_source<map_source>, "map_source must model skill_source");

// Dedup: among skills that share a command (in tier order), the last tier wins; the
// same file reached twice is not reported as shadowed.
struct last_wins
{
    static constexpr bool collapse_same_file = true;
    static sk::dedup_decision resolve(std::span<sk::dedup_entry const> group) { return {group.size() - 1, false}; }
};
static_assert(sk::dedup_policy<last_wins>, "last_wins must model dedup_policy");

// Frontmatter parser: the line parser, refusing frontmatter over 2 KB. Pure and const:
// the registry calls parse() from several threads at once.
struct small_frontmatter
{
    sk::frontmatter::line_parser inner;

    sk::frontmatter::parse_result parse(std::string_view yaml, std::string_view origin, std::uint32_t first_line) const
    {
        if (yaml.size() > 2048) {
            sk::frontmatter::parse_result r;
            r.diagnostics.push_back({"frontmatter-too-large", sk::severity::error, std::string(origin), first_line, 1,
                                     "the frontmatter is over 2 KB"});
            return r;
        }
        return inner.parse(yaml, origin, first_line);
    }
};
static_assert(sk::frontmatter::frontmatter_parser<small_frontmatter>, "small_frontmatter must model frontmatter_parser");

// Index format: `* name: description` lines under a heading. `entry` may be called to
// measure and then taken back, so it only appends; `begin` runs last, with the summary.
struct bullet_index
{
    static constexpr sk::escaping escape = sk::escaping::none;

    void describe(std::string& out, sk::index_entry const& e) const { sk::text::append_clean_line(out, e.description); }
    void entry(std::string& out, sk::index_entry const& e, std::string_view text) const
    {
        out += "* ";
        sk::text::append_clean_line(out, e.name);
        if (!text.empty()) {
            out += ": ";
            out += text;
        }
        out += '\n';
    }
    void begin(std::string& out, sk::index_summary const& s) const
    {
        out += "Skills (" + std::to_string(s.listed) + "):\n";
    }
    void end(std::string&, sk::index_summary const&) const {}
};
static_assert(sk::index_format<bullet_index>, "bullet_index must model index_format");

// Content format: what the model receives for one invoked skill.
struct markdown_content
{
    std::string render(sk::loaded_skill const& s) const { return "# " + sk::text::clean_line(s.name) + "\n\n" + s.content; }
};
static_assert(sk::content_format<markdown_content>, "markdown_content must model content_format");

using my_registry = sk::basic_registry<small_frontmatter, last_wins, map_source, map_source>;
using my_system = sk::basic_system<my_registry, bullet_index, markdown_content>;

// One alias for each policy: the same system with only that policy replaced.
using first_wins_system = my_system::with_dedup<sk::first_tier_wins>;                       // dedup
using plain_parser_system = my_system::with_parser<sk::frontmatter::line_parser>;           // parser
using one_tier_system = my_system::with_sources<map_source>;                                // tiers
using pegasus_index_system = my_system::with_index_format<sk::index_formats::pegasus>;      // index format
using pegasus_content_system = my_system::with_content_format<sk::content_formats::pegasus>; // content format
using first_wins_registry = my_registry::with_dedup<sk::first_tier_wins>;                   // on the registry
using whole_registry_system = my_system::with_registry<first_wins_registry>;                // a whole registry
static_assert(std::is_same_v<first_wins_system, whole_registry_system>);
static_assert(std::is_same_v<first_wins_registry, sk::basic_registry<small_frontmatter, sk::first_tier_wins, map_source, map_source>>);
static_assert(std::is_same_v<plain_parser_system::registry_type,
                             sk::basic_registry<sk::frontmatter::line_parser, last_wins, map_source, map_source>>);
static_assert(std::is_same_v<one_tier_system::registry_type, my_registry::with_sources<map_source>>);
static_assert(std::is_same_v<one_tier_system::registry_type, sk::basic_registry<small_frontmatter, last_wins, map_source>>);
static_assert(std::is_same_v<pegasus_index_system::registry_type, my_registry>);
static_assert(std::is_same_v<pegasus_content_system::index_format_type, bullet_index>);

static int failures = 0;
static void expect(bool ok, std::string_view what)
{
    if (!ok) {
        std::cerr << "FAILED: " << what << "\n";
        ++failures;
    }
}

int main()
{
    map_source shipped("shipped"), user("user");
    shipped.put("greet", "---\nname: greet\ndescription: Say hello.\n---\nSay hello to $ARGUMENTS.\n");
    shipped.put("huge", "---\nname: huge\ndescription: " + std::string(3000, 'x') + "\n---\nbody\n");
    user.put("greet", "---\nname: greet\ndescription: Say hello warmly.\n---\nWarmly greet $ARGUMENTS.\n");

    sk::system_settings settings;
    my_system agent(std::make_unique<my_registry>(small_frontmatter{}, sk::registry_options{}, shipped, user), settings);
    agent.load();

    std::string const index = agent.index().text;
    std::cout << index;
    expect(index == "Skills (1):\n* greet: Say hello warmly.\n", "the user tier wins and the index has the bullet format");

    bool refused = false;
    for (auto const& d : agent.snapshot()->diagnostics()) refused = refused || d.code == "frontmatter-too-large";
    expect(refused, "the parser's refusal reaches the snapshot's diagnostics");

    auto const run = agent.invoke("/greet the team", sk::caller::user);
    std::cout << run.content << "\n";
    expect(run.status() == sk::invoke_status::run && run.content == "# greet\n\nWarmly greet the team.\n",
           "the content format renders the winner with its arguments");

    user.put("greet", "---\nname: greet\ndescription: Say hi.\n---\nHi $ARGUMENTS.\n");
    agent.refresh();
    expect(agent.index().text == "Skills (1):\n* greet: Say hi.\n", "a refresh sees the changed stamp");

    // The registry's type changes with its parser or dedup policy: a new registry over
    // the same tiers and options, under the same settings.
    first_wins_system first(std::make_unique<first_wins_registry>(agent.registry()), agent.settings());
    first.load();
    expect(first.index().text == "Skills (1):\n* greet: Say hello.\n", "with_dedup: now the first tier wins");
    plain_parser_system plain(std::make_unique<plain_parser_system::registry_type>(agent.registry()), agent.settings());
    plain.load();
    expect(plain.snapshot()->find("/huge") != nullptr, "with_parser: the line parser has no 2 KB limit");
    one_tier_system alone(std::make_unique<one_tier_system::registry_type>(small_frontmatter{}, sk::registry_options{}, user),
                          agent.settings());
    alone.load();
    expect(alone.index().text == "Skills (1):\n* greet: Say hi.\n", "with_sources: one tier");
    // The formats change without touching the registry: the system moves into the new type.
    one_tier_system::with_content_format<sk::content_formats::pegasus> pegasus_content(std::move(alone));
    auto const shown = pegasus_content.invoke("/greet you", sk::caller::user);
    expect(shown.status() == sk::invoke_status::run && shown.content.find("Hi you.") != std::string::npos,
           "with_content_format: the registry carries over");
    return failures == 0 ? 0 : 1;
}
