#!/usr/bin/env bash
# The operator's flags end to end: --project-settings turns a skill off for every command
# (list, index, invoke, explain), a bad settings file is an error, --events appends one
# JSON line per rendering and per invocation, and fmt --fix rewrites a file once.
set -u
cli=$1
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
for n in alpha beta; do
  mkdir -p "$t/skills/$n"
  printf -- '---\nname: %s\ndescription: The %s skill\n---\nDo %s with $ARGUMENTS.\n' "$n" "$n" "$n" > "$t/skills/$n/SKILL.md"
done
printf '{"skillOverrides": {"beta": "off"}}\n' > "$t/project.json"
printf '{"skillOverrides": {"beta": "on", "alpha": "name-only"}}\n' > "$t/user.json"
dirs=(--preset agent-skills --dir user="$t/skills" --dir project="$t/none")
set_=(--user-settings "$t/user.json" --project-settings "$t/project.json")

"$cli" list "${dirs[@]}" "${set_[@]}" 2>/dev/null | grep -q beta && fail "list shows a skill the project turned off"
idx=$("$cli" index "${dirs[@]}" "${set_[@]}" 2>/dev/null)
echo "$idx" | grep -qx 'alpha' || fail "index lost alpha: $idx"
echo "$idx" | grep -q 'The alpha skill' && fail "name-only alpha shows its description"
echo "$idx" | grep -q beta && fail "index shows beta"
"$cli" invoke "/beta x" --as user "${dirs[@]}" "${set_[@]}" >/dev/null 2>&1 && fail "beta invoked"
"$cli" explain beta "${dirs[@]}" "${set_[@]}" 2>/dev/null | grep -q 'project settings' || fail "explain does not name the layer"
printf '{"skillOverrides": {"beta": "sometimes"}}\n' > "$t/bad.json"
"$cli" list "${dirs[@]}" --project-settings "$t/bad.json" >/dev/null 2>&1 && fail "a bad settings file was accepted"

"$cli" index "${dirs[@]}" --events "$t/events.jsonl" >/dev/null 2>&1 || fail "index --events"
"$cli" invoke "/alpha one two" --as user "${dirs[@]}" --events "$t/events.jsonl" >/dev/null 2>&1 || fail "invoke --events"
[ "$(wc -l < "$t/events.jsonl")" -eq 2 ] || fail "expected 2 event lines: $(cat "$t/events.jsonl")"
grep -q '"event.name":"skill_index_rendered"' "$t/events.jsonl" || fail "no index event"
grep -q '"event.name":"skill_activated","event.timestamp":"[0-9T:.Z-]*","skill.name":"alpha","skill.source":"user","skill.trigger":"user_command","skill.arguments.length":7' "$t/events.jsonl" || fail "activation event: $(cat "$t/events.jsonl")"

mkdir -p "$t/fix/colon"
printf -- '---\nname: colon\ndescription: Use when: deploying\n---\nBody: unchanged.\n' > "$t/fix/colon/SKILL.md"
chmod 640 "$t/fix/colon/SKILL.md"
"$cli" fmt --check "$t/fix" >/dev/null 2>&1 && fail "fmt --check passed a file that needs quotes"
"$cli" fmt --fix "$t/fix" >/dev/null 2>&1 || fail "fmt --fix"
grep -qx "description: 'Use when: deploying'" "$t/fix/colon/SKILL.md" || fail "fixed file: $(cat "$t/fix/colon/SKILL.md")"
grep -qx 'Body: unchanged.' "$t/fix/colon/SKILL.md" || fail "the body changed"
[ "$(stat -c %a "$t/fix/colon/SKILL.md")" = 640 ] || fail "the mode changed"
[ "$(ls -A "$t/fix/colon")" = SKILL.md ] || fail "a temporary file was left: $(ls -A "$t/fix/colon")"
"$cli" fmt --check "$t/fix" >/dev/null 2>&1 || fail "a second fmt still finds edits"
"$cli" lint --portability "$t/fix" >/dev/null 2>&1 || fail "the fixed file still reads differently"
echo "operators: ok"
