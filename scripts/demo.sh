#!/usr/bin/env bash
# Installs what is missing, builds the skillmd command-line tool and runs it over
# the shipped skills/ directory.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
bash scripts/install-deps.sh
cmake -S . -B build/demo -G Ninja -DCMAKE_BUILD_TYPE=Release -DSKILLMD_BUILD_TESTS=OFF -DSKILLMD_BUILD_TOOLS=ON >/dev/null
cmake --build build/demo -j2 --target skillmd_cli readme_example
skillmd=build/demo/tools/skillmd
mapfile -t files < <(find skills -name SKILL.md | sort)

echo "== skillmd --version, and the commands (skillmd help COMMAND shows one; docs/cli.md has them all)"
"$skillmd" --version
"$skillmd" help
echo
echo "== skillmd parse: the frontmatter of every shipped skill, as JSON Lines"
"$skillmd" parse "${files[@]}"
echo
echo "== skillmd parse --format text: diagnostics, compiler style (none expected)"
"$skillmd" parse --format text "${files[@]}" && echo "(no diagnostics)"
echo
echo "== skillmd lint --dialect claude-code --strict skills: the shipped skills under Claude Code's rules"
"$skillmd" lint --dialect claude-code --strict skills
echo
echo "== skillmd lint skills: the same under the Agent Skills specification, lenient (warnings for extension fields)"
"$skillmd" lint skills
echo
echo "== skillmd list --preset claude-code: the shipped skills as the user tier, a project tier with its own commit"
"$skillmd" list --preset claude-code --dir user=skills --dir project=examples/project-skills
echo
echo "== skillmd tree --preset sven: the shipped skills as nested commands"
"$skillmd" tree --preset sven --dir project-sven=skills 2>/dev/null
echo
echo "== skillmd index --preset claude-code: the index as Claude Code (reverse-engineered) lists it (15,000-character budget)"
"$skillmd" index --preset claude-code --dir user=skills
echo
echo "== skillmd index --format agent-skills: the same skills in the reference tool's XML"
"$skillmd" index --preset claude-code --dir user=skills --format agent-skills
echo
echo "== skillmd index --format codex-0.169 --budget 600: Codex's format, descriptions shortened to fit"
"$skillmd" index --preset claude-code --dir user=skills --format codex-0.169 --budget 600 | sed -n '1,12p'
echo
echo "== skillmd invoke \"/commit keep the subject under 50 characters\" --as user: validation, substitution, content"
"$skillmd" invoke "/commit keep the subject under 50 characters" --as user --preset claude-code --dir user=skills 2>&1
echo
echo "== skillmd invoke review-code --format json: an unknown skill, \"code\":\"unknown-skill\" beside Claude Code's error code 2"
"$skillmd" invoke review-code --preset claude-code --dir user=skills --format json || true
echo
echo "== skillmd match: the skills whose trigger phrases a message holds"
"$skillmd" match "Please do a code review of this pull request before the release notes" --preset claude-code --dir user=skills
echo
echo "== skillmd db: an agent-created skill in the koshi database (a temporary one), listed beside a file skill"
db_dir=$(mktemp -d)
trap 'rm -rf "$db_dir"' EXIT
mkdir "$db_dir/files"
printf -- '---\nname: reminders\ndescription: Set reminders\ntriggers: [remind]\n---\nUse the scheduler.\n' > "$db_dir/files/reminders.md"
"$skillmd" db create --db "$db_dir/skills.db" --dir user="$db_dir/files" --name deploy-check \
  --description "Pre-deployment verification checklist" --triggers "deploy, ship" --content $'## Steps\n1. Run the tests\n'
"$skillmd" db create --db "$db_dir/skills.db" --dir user="$db_dir/files" --name reminders \
  --description "An agent's copy" --triggers x --content x || echo "(refused: files win, exit $?)"
"$skillmd" db list --db "$db_dir/skills.db" --dir user="$db_dir/files"
echo
echo "== skillmd digest skills/plan: every file's SHA-256 and the skill's digest (Agent Skills discovery RFC)"
"$skillmd" digest skills/plan
echo
echo "== skillmd mcp: the shipped skills served over MCP; one initialize and one skills/list, as a client sends them"
printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"demo","version":"1"}}}' \
  '{"jsonrpc":"2.0","id":2,"method":"skills/list","params":{}}' |
  "$skillmd" mcp --dir user=skills --dir project="$db_dir" 2>/dev/null | cut -c1-300
echo
echo "== the README's example program"
build/demo/examples/readme_example skills
