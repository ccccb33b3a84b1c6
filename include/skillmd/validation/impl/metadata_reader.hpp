// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_VALIDATION_IMPL_METADATA_READER_HPP
#define SKILLMD_VALIDATION_IMPL_METADATA_READER_HPP

// How read_metadata (validation/read_skill.hpp) works: metadata_reader walks one
// frontmatter document field by field under a dialect, with the small readers it uses.

#include <skillmd/validation/dialect.hpp>
#include <skillmd/validation/name_rules.hpp>
#include <skillmd/validation/read_result.hpp>
#include <skillmd/model/diagnostic.hpp>
#include <skillmd/frontmatter/document.hpp>
#include <skillmd/model/names.hpp>
#include <skillmd/model/skill.hpp>
#include <skillmd/detail/hex.hpp>
#include <skillmd/detail/unicode.hpp>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace skillmd {

namespace detail {

/// Splits an `allowed-tools` string: on commas when there is one outside parentheses,
/// otherwise on white space outside parentheses (`Bash(git diff:*) Read`).
inline std::vector<std::string> split_tools(std::string_view s)
{
    int depth = 0;
    std::size_t commas = 0, spaces = 0; // outside parentheses: room for the items below
    for (char c : s) {
        if (c == '(') ++depth;
        else if (c == ')' && depth > 0) --depth;
        else if (depth == 0) {
            commas += c == ',';
            spaces += c == ' ';
        }
    }
    bool const comma = commas > 0;
    std::vector<std::string> out;
    out.reserve((comma ? commas : spaces) + 1);
    std::string cur;
    depth = 0;
    auto flush = [&] {
        auto const t = skillmd::detail::strip(cur);
        if (!t.empty()) out.emplace_back(t);
        cur.clear();
    };
    for (char c : s) {
        if (c == '(') ++depth;
        else if (c == ')' && depth > 0) --depth;
        bool const sep = depth == 0 && (comma ? c == ',' : (c == ' ' || c == '\t' || c == '\n' || c == '\r'));
        if (sep) flush();
        else cur += c;
    }
    flush();
    return out;
}

/// `true/false/yes/no/on/off/1/0`, any case.
inline std::optional<bool> parse_bool(std::string_view v)
{
    std::string s(v);
    for (auto& c : s) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
    if (s == "true" || s == "yes" || s == "on" || s == "1") return true;
    if (s == "false" || s == "no" || s == "off" || s == "0") return false;
    return std::nullopt;
}

/// The first paragraph of a Markdown body: the first run of text lines that is not a
/// heading, a fence or a rule, joined with spaces (Pegasus's default description).
inline std::string first_paragraph(std::string_view body)
{
    std::string out;
    bool in_fence = false;
    std::size_t pos = 0;
    while (pos <= body.size()) {
        std::size_t end = body.find('\n', pos);
        if (end == std::string_view::npos) end = body.size();
        std::string_view line = body.substr(pos, end - pos);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        std::string_view const t = skillmd::detail::strip(line);
        pos = end + 1;
        if (t.substr(0, 3) == "```" || t.substr(0, 3) == "~~~") {
            if (!out.empty()) break;
            in_fence = !in_fence;
            continue;
        }
        if (in_fence) continue;
        if (t.empty() || t[0] == '#' || t == "---" || t == "***") {
            if (!out.empty()) break;
            continue;
        }
        if (!out.empty()) out += ' ';
        out += t;
        if (end == body.size()) break;
    }
    return out;
}

/// The text of the first Markdown heading, or `fallback` (Claude Code's default description).
inline std::string first_heading(std::string_view body, std::string_view fallback = "Skill")
{
    std::size_t pos = 0;
    while (pos < body.size()) {
        std::size_t end = body.find('\n', pos);
        if (end == std::string_view::npos) end = body.size();
        std::string_view line = body.substr(pos, end - pos);
        pos = end + 1;
        std::size_t h = 0;
        while (h < line.size() && line[h] == '#') ++h;
        if (h > 0 && h <= 6 && h < line.size() && (line[h] == ' ' || line[h] == '\t')) {
            auto const t = skillmd::detail::strip(line.substr(h));
            if (!t.empty()) return std::string(t);
        }
    }
    return std::string(fallback);
}

class metadata_reader
{
public:
    metadata_reader(dialect const& d, validation_mode m, skill_origin const& o) : d_(d), mode_(m), origin_(o) {}

    read_result read(frontmatter::document const* doc)
    {
        read_result r;
        skill_metadata& s = r.skill.emplace();
        bool stop = false;
        if (doc != nullptr) {
            if (doc->empty() || !doc->root().is_mapping()) {
                if (d_.spec_yaml && mode_ == validation_mode::strict) {
                    error(doc->empty() ? std::nullopt : std::optional(doc->root()), codes::frontmatter_not_mapping,
                          codes::frontmatter_not_mapping, "the frontmatter must be a mapping of `key: value` lines");
                    stop = true;
                } else if (!doc->empty()) {
                    error(doc->root(), codes::frontmatter_not_mapping, codes::frontmatter_not_mapping,
                          "the frontmatter must be a mapping of `key: value` lines; it is ignored");
                }
            } else if (d_.spec_yaml && mode_ == validation_mode::strict && refuse_flow(doc->root())) {
                stop = true;
            } else {
                read_fields(doc->root(), s, false);
            }
        }
        if (stop) {
            r.skill.reset();
            r.diagnostics = std::move(out_);
            return r;
        }
        apply_defaults(s);
        validate(s);
        r.diagnostics = std::move(out_);
        if (has_error(r.diagnostics)) r.skill.reset();
        return r;
    }

private:
    using node = frontmatter::document::node_ref;

    void report(std::optional<node> at, severity sev, std::string_view code, std::string_view rule, std::string msg)
    {
        diagnostic d{std::string(code), sev, std::string(origin_.file), 0, 0, std::move(msg), std::string(rule)};
        if (auto const place = at ? at : key_) { // found only now: most keys are never reported
            auto const p = place->where();
            d.line = p.line;
            d.column = p.column;
        } else {
            d.line = 1;
            d.column = 1;
        }
        out_.push_back(std::move(d));
    }
    void error(std::optional<node> at, std::string_view code, std::string_view rule, std::string msg)
    {
        report(at, severity::error, code, rule, std::move(msg));
    }
    /// A value of the wrong shape. The reference validator does not check the shape of
    /// the fields it only passes through, so the agent-skills dialect warns where others refuse.
    void wrong_shape(node at, std::string_view code, std::string msg)
    {
        report(at, d_.spec_yaml ? severity::warning : severity::error, code, {}, std::move(msg));
    }

    /// A rule of the dialect's document: an error in strict mode, a warning in lenient mode.
    void rule_broken(std::optional<node> at, std::string_view code, std::string_view rule, std::string msg)
    {
        report(at, mode_ == validation_mode::strict ? severity::error : severity::warning, code, rule, std::move(msg));
    }

    /// strictyaml refuses flow collections; the reference validator calls that invalid YAML.
    bool refuse_flow(node n)
    {
        if (!n.is_scalar() && n.is_flow()) {
            error(n, codes::yaml_flow_collection, codes::yaml_invalid,
                  "flow collections (`[a, b]`, `{k: v}`) are not allowed by the Agent Skills reference "
                  "validator's strict YAML; write a block list (`- a`) or quote the value");
            return true;
        }
        for (auto c : n)
            if (refuse_flow(c)) return true;
        return false;
    }

    std::optional<std::string> scalar(node v, std::string_view key)
    {
        if (v.is_scalar()) return std::string(v.value());
        wrong_shape(v, codes::field_not_string,
                    "`" + std::string(key) + "` must be a single text value, not a " +
                        (v.is_sequence() ? "list" : "mapping"));
        return std::nullopt;
    }

    std::vector<std::string> list(node v, std::string_view key, bool tools)
    {
        std::vector<std::string> out;
        if (v.is_scalar()) {
            if (v.value().empty()) return out;
            if (tools) return split_tools(v.value());
            if (key == "arguments") {
                for (auto& a : split_tools(v.value())) out.push_back(std::move(a));
                return out;
            }
            out.emplace_back(v.value());
            return out;
        }
        if (v.is_mapping()) {
            wrong_shape(v, codes::field_not_list, "`" + std::string(key) + "` must be a list (`- item` lines) or a text value");
            return out;
        }
        for (auto item : v) {
            if (!item.is_scalar()) {
                wrong_shape(item, codes::field_not_list, "every item of `" + std::string(key) + "` must be a text value");
                continue;
            }
            out.emplace_back(item.value());
        }
        return out;
    }

    void boolean(node v, std::string_view key, bool& target)
    {
        if (v.is_scalar())
            if (auto b = parse_bool(v.value())) {
                target = *b;
                return;
            }
        wrong_shape(v, codes::field_not_boolean,
                    "`" + std::string(key) + "` must be true or false (yes/no, on/off and 1/0 are accepted too)");
    }

    void read_fields(node map, skill_metadata& s, bool sven_block)
    {
        for (auto const [key, v] : map.entries()) {
            std::string const k(key.value());
            key_ = key;
            auto const f = sven_block ? d_.sven_field_of(k) : d_.field_of(k);
            if (!f) {
                unknown(key, v, s, sven_block);
                continue;
            }
            seen_ |= bit(*f);
            read_field(*f, k, v, s);
        }
        key_.reset();
    }

    /// One known field: its value checked for the shape the field takes and stored.
    void read_field(field f, std::string const& k, node v, skill_metadata& s)
    {
        switch (f) {
        case field::name:
            name_node_ = v;
            if (v.is_scalar()) {
                s.name = std::string(v.value());
                s.name_given = true;
            }
            break;
        case field::description:
            description_node_ = v;
            if (v.is_scalar()) {
                s.description = std::string(v.value());
                s.description_given = true;
            }
            break;
        case field::compatibility:
            compatibility_node_ = v;
            if (v.is_scalar()) s.compatibility = std::string(v.value());
            break;
        case field::when_to_use: s.when_to_use = scalar(v, k); break;
        case field::license: s.license = scalar(v, k); break;
        case field::version: s.version = scalar(v, k); break;
        case field::author: s.author = scalar(v, k); break;
        case field::agent: s.agent = scalar(v, k); break;
        case field::argument_hint: s.argument_hint = scalar(v, k); break;
        case field::model:
            s.model = scalar(v, k);
            if (s.model == "inherit") s.model.reset();
            break;
        case field::context:
            if (auto c = scalar(v, k)) {
                if (*c == "fork") s.context = context_mode::fork;
                else if (*c == "inline" || c->empty()) s.context = context_mode::inline_;
                else wrong_shape(v, codes::field_bad_value, "`context` must be `inline` or `fork`, not " + quote_short(*c));
            }
            break;
        case field::metadata: read_metadata(v, s); break;
        case field::tags: s.tags = list(v, k, false); break;
        case field::allowed_tools: s.allowed_tools = list(v, k, true); break;
        case field::arguments: s.arguments = list(v, k, false); break;
        case field::triggers: s.triggers = list(v, k, false); break;
        case field::knowledge: s.knowledge = list(v, k, false); break;
        case field::requires_bins: s.requires_bins = list(v, k, false); break;
        case field::requires_env: s.requires_env = list(v, k, false); break;
        case field::disable_model_invocation: boolean(v, k, s.disable_model_invocation); break;
        case field::user_invocable: boolean(v, k, s.user_invocable); break;
        case field::always: boolean(v, k, s.always); break;
        case field::user_invocable_only: boolean(v, k, s.user_invocable_only); break;
        case field::sven_block:
            if (v.is_mapping()) read_fields(v, s, true);
            else if (!(v.is_scalar() && v.value().empty()))
                wrong_shape(v, codes::field_not_mapping, "`sven` must be a mapping (always, requires_bins, ...)");
            break;
        }
    }

    /// `metadata:` is a mapping of text; a value that is not text is kept as JSON, with a warning.
    void read_metadata(node v, skill_metadata& s)
    {
        if (!v.is_mapping()) {
            if (!(v.is_scalar() && v.value().empty()))
                wrong_shape(v, codes::field_not_mapping, "`metadata` must be a mapping of `key: value` lines");
            return;
        }
        for (auto const [key, value] : v.entries()) {
            std::string mk(key.value());
            std::string mv;
            if (value.is_scalar()) {
                mv = value.value();
            } else {
                write_json(mv, value);
                report(value, severity::warning, codes::metadata_not_string, {},
                       "metadata value `" + mk + "` is not text; it is kept as JSON");
            }
            s.metadata.emplace_back(std::move(mk), std::move(mv));
        }
    }

    void unknown(node key, node v, skill_metadata& s, bool sven_block)
    {
        auto const at = key.where();
        unknown_field u{std::string(key.value()), {}, at.line, at.column};
        write_json(u.json, v);
        s.unknown.push_back(std::move(u));
        auto policy = d_.unknown;
        if (policy == unknown_keys::ignore) return;
        std::string msg = "unexpected field `" + std::string(key.value()) + "`";
        if (sven_block) msg += " in the `sven:` block";
        msg += "; the " + std::string(d_.id) + " dialect knows ";
        bool first = true;
        for (auto const& k : sven_block ? d_.sven_keys : d_.keys) {
            msg += first ? "" : ", ";
            msg += k.key;
            first = false;
        }
        if (d_.field_of("metadata") && !sven_block) msg += "; put extra information under `metadata:`";
        if (policy == unknown_keys::error) rule_broken(key, codes::unexpected_field, codes::unexpected_field, msg);
        else report(key, severity::warning, codes::unexpected_field, codes::unexpected_field, msg);
    }

    static std::uint64_t bit(field f) noexcept { return std::uint64_t{1} << static_cast<unsigned>(f); }
    static_assert(static_cast<unsigned>(field::user_invocable_only) < 64, "the fields seen fit one 64-bit set");
    bool given(field f) const { return (seen_ & bit(f)) != 0; }

    void apply_defaults(skill_metadata& s)
    {
        std::string_view const command = !origin_.command.empty() ? origin_.command : origin_.directory_name;
        if (d_.name_is_label) {
            // The name is the folder's (sven: `sven/plan` is named `plan`); the command,
            // kept by the source, is the path.
            if (s.name_given) s.label = s.name;
            s.name = std::string(origin_.directory_name.empty() ? command : origin_.directory_name);
        } else if (!given(field::name)) {
            s.name = std::string(command);
        }
        if (!given(field::description)) {
            if (d_.description_from == description_default::first_paragraph) s.description = first_paragraph(origin_.body);
            else if (d_.description_from == description_default::first_heading) s.description = first_heading(origin_.body);
            // A description taken from the body is held to the same length as a written one.
            if (std::size_t const n = skillmd::detail::utf8_length(s.description); n > d_.max_description)
                report(std::nullopt, severity::warning, codes::description_too_long, "",
                       "the description taken from the body is " + std::to_string(n) + " characters; the limit is " +
                           std::to_string(d_.max_description) + ". Add a short `description:`");
        }
    }

    void validate(skill_metadata& s)
    {
        bool const spec = d_.names == name_rule::agent_skills;
        // name
        if (!given(field::name)) {
            if (d_.name_required) {
                if (spec && mode_ == validation_mode::lenient)
                    report(std::nullopt, severity::warning, codes::name_missing, codes::name_missing,
                           "no `name`; the directory name " + quote_short(s.name) + " is used");
                else
                    error(std::nullopt, codes::name_missing, spec ? codes::name_missing : "",
                          "missing required field `name`; add `name: " + std::string(origin_.directory_name) + "`");
            }
        } else if (!name_node_->is_scalar() || skillmd::detail::strip(name_node_->value()).empty()) {
            error(*name_node_, codes::name_empty, spec ? codes::name_empty : "", "`name` must be a non-empty text value");
        } else if (!d_.name_is_label) {
            check_name(*name_node_, s.name);
        }
        if (d_.name_is_label && s.label) check_invisible(*name_node_, *s.label, "name", true);
        check_name_characters(s);
        check_path_safety(s.name);

        // description
        if (!given(field::description)) {
            if (d_.description_required)
                error(std::nullopt, codes::description_missing, spec ? codes::description_missing : "",
                      "missing required field `description`: say what the skill does and when to use it");
        } else if (!description_node_->is_scalar() || skillmd::detail::strip(description_node_->value()).empty()) {
            if (d_.description_required || spec)
                error(*description_node_, codes::description_empty, spec ? codes::description_empty : "",
                      "`description` must be a non-empty text value");
        } else {
            std::size_t const n = skillmd::detail::utf8_length(s.description);
            if (n > d_.max_description)
                rule_broken(*description_node_, codes::description_too_long, spec ? codes::description_too_long : "",
                            "`description` is " + std::to_string(n) + " characters; the limit is " +
                                std::to_string(d_.max_description) + ". Move detail into the body");
            check_invisible(*description_node_, s.description, "description", false);
        }

        // compatibility
        if (given(field::compatibility)) {
            if (!compatibility_node_->is_scalar())
                rule_broken(*compatibility_node_, codes::compatibility_not_string, codes::compatibility_not_string,
                            "`compatibility` must be a text value");
            else if (std::size_t const n = skillmd::detail::utf8_length(compatibility_node_->value());
                     n > d_.max_compatibility)
                rule_broken(*compatibility_node_, codes::compatibility_too_long, codes::compatibility_too_long,
                            "`compatibility` is " + std::to_string(n) + " characters; the limit is " +
                                std::to_string(d_.max_compatibility));
        }

        if (d_.triggers_required && s.triggers.empty())
            error(std::nullopt, codes::triggers_missing, {},
                  "missing required field `triggers`: list the words or phrases that should activate this skill");
    }

    /// The name rules of the specification (as the reference validator applies them)
    /// or of Pegasus and koshi.
    void check_name(node at, std::string const& given_name)
    {
        if (d_.names == name_rule::agent_skills) {
            std::string const name = skillmd::detail::nfkc(skillmd::detail::strip(given_name));
            for (auto& f : broken_name_rules(given_name, d_.max_name)) rule_broken(at, f.code, f.code, std::move(f.message));
            if (d_.name_matches_directory && !origin_.directory_name.empty()) {
                std::string const dir = skillmd::detail::nfkc(origin_.directory_name);
                if (dir != name)
                    rule_broken(at, codes::name_directory_mismatch, codes::name_directory_mismatch,
                                "name " + quote_short(name) + " must equal the directory name " + quote_short(dir) +
                                    "; rename one of them");
            }
        } else if (d_.names == name_rule::lowercase_hyphen) {
            bool ok = !given_name.empty() && given_name.size() <= d_.max_name && given_name.front() != '-' &&
                      given_name.back() != '-';
            for (char c : given_name) ok = ok && ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-');
            if (!ok)
                rule_broken(at, codes::name_format, {},
                            "name " + quote_short(given_name) + " must be lowercase letters, digits and `-`, at most " +
                                std::to_string(d_.max_name) + " characters");
        }
        check_invisible(at, given_name, "name", true);
    }

    void check_invisible(node at, std::string_view text, std::string_view what, bool is_name)
    {
        if (auto bad = skillmd::detail::find_invisible(text, !is_name)) {
            report(at, is_name ? severity::error : severity::warning, std::string(what) + "-invisible-character", {},
                   std::string(what) + " holds the invisible or control character " +
                       skillmd::detail::code_point_label(bad->first) + "; remove it");
        }
    }

    /** The characters no name may hold in any dialect (find_name_fault): `@`, `:` and
        their look-alikes, white space that makes two names look alike. Where `name:` is
        only a label (Claude Code, sven), the label is dropped with a warning and the skill
        is found by its folder's name; elsewhere the skill is refused. Invisible characters
        are check_invisible's. The specification's validator strips white space off a
        name's ends before checking it, so in its dialect the name is read stripped.
    */
    void check_name_characters(skill_metadata& s)
    {
        if (!given(field::name) || !name_node_) return;
        if (!d_.name_is_label && d_.names == name_rule::agent_skills) {
            if (std::string_view const stripped = skillmd::detail::strip(s.name); stripped.size() != s.name.size()) {
                report(*name_node_, severity::warning, codes::name_white_space, {},
                       "the name " + quote_short(s.name) + " has white space at its ends; it is read as " + quote_short(stripped));
                s.name = std::string(stripped);
            }
        }
        std::string_view const given_name = !d_.name_is_label ? std::string_view(s.name) : s.label ? std::string_view(*s.label) : std::string_view();
        auto const fault = find_name_fault(given_name);
        if (!fault || fault->kind == name_fault_kind::hidden) return;
        auto const code = fault->kind == name_fault_kind::reserved ? codes::name_reserved_character : codes::name_white_space;
        std::string const what = "the name " + quote_short(given_name) + " " + fault->why;
        if (!d_.name_is_label) {
            error(*name_node_, code, {}, what + "; skipped");
        } else {
            report(*name_node_, severity::warning, code, {}, what + "; the skill is found by its folder's name only");
            s.label.reset();
        }
    }

    void check_path_safety(std::string_view name)
    {
        bool const bad = name == "." || name == ".." || name.find('/') != std::string_view::npos ||
                         name.find('\\') != std::string_view::npos || name.find('\0') != std::string_view::npos ||
                         name.substr(0, 3) == "../" || name.find("/../") != std::string_view::npos;
        // A nested skill's command is its path below the root: safe, since the walk made it.
        if (bad && !(!origin_.command.empty() && name == origin_.command))
            error(name_node_, codes::name_unsafe_path, {},
                  "name " + quote_short(name) + " contains a path separator or `..`; a skill name must be one plain word");
    }

    dialect const& d_;
    validation_mode mode_;
    skill_origin const& origin_;
    std::vector<diagnostic> out_;
    std::uint64_t seen_ = 0; ///< the fields given, one bit each
    std::optional<node> name_node_, description_node_, compatibility_node_;
    std::optional<node> key_; ///< the key being read: where a report about its value goes without a node of its own
};

} // namespace detail

} // namespace skillmd

#endif
