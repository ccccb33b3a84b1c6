#!/usr/bin/env bash
# The operator's flags end to end: --project-settings turns a skill off for every command
# (list, index, invoke, explain), a bad settings file is an error, mcp follows edits of
# it, --events appends one JSON line per rendering and per invocation, and fmt --fix
# rewrites a file once.
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

# `mcp` follows its settings files: an edit is in force at the next message, as a fresh
# start would read it; an edit that holds an error leaves the rules in force, said once.
printf '{"skillOverrides": {"beta": "off"}}\n' > "$t/live.json"
coproc MCP { "$cli" mcp "${dirs[@]}" --project-settings "$t/live.json" 2>"$t/mcp.err"; }
ask() { # ID METHOD [PARAMS]: the answer to ID in $answer, notifications passed over
  # (no command substitution: a subshell does not have the coprocess's descriptors)
  local params='{}'
  [ $# -ge 3 ] && params=$3
  printf '{"jsonrpc":"2.0","id":%s,"method":"%s","params":%s}\n' "$1" "$2" "$params" >&"${MCP[1]}"
  answer=
  while IFS= read -r -t 20 answer <&"${MCP[0]}"; do
    case $answer in *'"id":'"$1"','*) return 0 ;; esac
  done
  return 1
}
expect_served() { # ID WHAT LIST: resources/list names exactly the SKILL.md files of LIST
  ask "$1" resources/list || fail "mcp did not answer $2"
  local got
  got=$(printf '%s' "$answer" | grep -o 'skill://[a-z]*/SKILL.md' | tr '\n' ' ')
  [ "$got" = "$3" ] || fail "mcp $2: $got ($answer)"
}
ask 1 initialize '{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"operators","version":"1"}}' \
  || fail "mcp did not answer initialize"
printf '{"jsonrpc":"2.0","method":"notifications/initialized"}\n' >&"${MCP[1]}"
expect_served 2 "at the start" "skill://alpha/SKILL.md "
printf '{"skillOverrides": {"alpha": "off"}}\n' > "$t/live.json"
expect_served 3 "after an edit of the settings" "skill://beta/SKILL.md "
printf '{"skillOverrides": {"alpha": "sometimes"}}\n' > "$t/live.json"
expect_served 4 "after an edit with an error" "skill://beta/SKILL.md "
expect_served 5 "a message later" "skill://beta/SKILL.md "
printf '{}\n' > "$t/live.json.new" && mv "$t/live.json.new" "$t/live.json"
expect_served 6 "after the settings were replaced" "skill://alpha/SKILL.md skill://beta/SKILL.md "
# A FIFO in the settings' place is refused before it is opened to be read: a writer
# waiting on it stays blocked (an open for reading would let it through), and the
# rules in force are kept.
mkfifo "$t/fifo.json" && mv "$t/fifo.json" "$t/live.json"
( exec 3>"$t/live.json"; touch "$t/through" ) &
writer=$!
sleep 0.3
expect_served 7 "with a FIFO for settings" "skill://alpha/SKILL.md skill://beta/SKILL.md "
sleep 1.2 # a quiet second: the server reads the settings again by itself
expect_served 8 "a second later" "skill://alpha/SKILL.md skill://beta/SKILL.md "
[ -e "$t/through" ] && fail "the FIFO in the settings' place was opened for reading"
kill "$writer" 2>/dev/null; wait "$writer" 2>/dev/null
exec {MCP[1]}>&-
wait "$MCP_PID" || fail "mcp exited with an error"
[ "$(grep -c 'still in force' "$t/mcp.err")" = 2 ] || fail "each error in the settings, said once: $(cat "$t/mcp.err")"
grep -q 'live.json: error: \[override-invalid\] cannot read the settings: is not a regular file' "$t/mcp.err" \
  || fail "the FIFO is not refused by type: $(cat "$t/mcp.err")"
grep -q 'live.json: error: \[override-invalid\]' "$t/mcp.err" || fail "the settings' error is not shown: $(cat "$t/mcp.err")"

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
