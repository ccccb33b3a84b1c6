#!/usr/bin/env bash
# Attacks through the command-line tool, one function per class (docs/security.md has the
# index). Each says what it attacks and what must hold; every failure is reported, and
# the script fails if any attack got through.
set -u
cli=$1
t=$(mktemp -d)
trap 'chmod -R u+rwx "$t" 2>/dev/null; rm -rf "$t"' EXIT
failures=0
fail() { echo "ATTACK GOT THROUGH: $*"; failures=$((failures + 1)); }
# Standard input is JSON Lines in UTF-8, as a strict reader takes them.
json_lines() { python3 -c 'import json,sys; [json.loads(l) for l in sys.stdin.buffer.read().decode("utf-8").splitlines()]' 2>/dev/null; }
skill() { # skill DIR NAME [BODY]
  mkdir -p "$1"
  printf -- '---\nname: %s\ndescription: The %s skill.\n---\n%s\n' "$2" "$2" "${3:-Body.}" > "$1/SKILL.md"
}
# A command killed by a signal (bad_alloc's abort, a crash) exits above 128.
not_crashed() { [ "$1" -lt 128 ]; }

# Unbounded reads: a 50 GB sparse SKILL.md is refused by its size, never read into memory.
unbounded_reads() {
  mkdir -p "$t/huge/big"
  truncate -s 50G "$t/huge/big/SKILL.md"
  local rc out
  out=$("$cli" parse "$t/huge/big/SKILL.md" 2>&1); rc=$?
  not_crashed $rc || fail "parse of a 50 GB file crashed (exit $rc)"
  [ $rc -ne 0 ] && echo "$out" | grep -q 'larger than' || fail "parse of a 50 GB file: exit $rc, $out"
  out=$("$cli" fmt --check "$t/huge" 2>&1); rc=$?
  not_crashed $rc || fail "fmt --check of a 50 GB file crashed (exit $rc)"
  [ $rc -ne 0 ] && echo "$out" | grep -q 'larger than' || fail "fmt --check of a 50 GB file: exit $rc, $out"
  echo "$out" | grep -q '0 to fix, 0 left untouched' && fail "fmt calls a refused file clean: $out"
  out=$("$cli" db create --db "$t/k.db" --dir user="$t/none" --name x --description d --content-file "$t/huge/big/SKILL.md" 2>&1); rc=$?
  not_crashed $rc || fail "db create --content-file of 50 GB crashed (exit $rc)"
  [ $rc -ne 0 ] && echo "$out" | grep -q 'larger than' || fail "db create --content-file of 50 GB: exit $rc, $out"
}

# Write errors: output that cannot be written fails the command, with a message.
write_errors() {
  [ -w /dev/full ] || { echo "skip write_errors: no /dev/full"; return; }
  skill "$t/w/a" a
  local rc
  "$cli" list --dir user="$t/w" > /dev/full 2>"$t/err"; rc=$?
  [ $rc -ne 0 ] && grep -q 'cannot write' "$t/err" || fail "list to a full disk: exit $rc, $(cat "$t/err")"
  "$cli" parse "$t/w/a/SKILL.md" > /dev/full 2>"$t/err"; rc=$?
  [ $rc -ne 0 ] || fail "parse to a full disk exits 0"
  "$cli" index --dir user="$t/w" --events /dev/full > /dev/null 2>"$t/err"; rc=$?
  [ $rc -ne 0 ] && grep -q 'events' "$t/err" || fail "index --events to a full disk: exit $rc, $(cat "$t/err")"
}

# Numbers from the command line are range-checked: nothing wraps.
numbers_wrap() {
  local rc
  "$cli" watch --db postgresql://nowhere --for 10000000000 >/dev/null 2>&1; rc=$?
  [ $rc -eq 2 ] || fail "watch --for 10000000000 is not a usage error (exit $rc)"
  "$cli" mcp --dir user="$t/none" --page-size 18446744073709551615 </dev/null >/dev/null 2>&1; rc=$?
  [ $rc -eq 2 ] || fail "mcp --page-size 2^64-1 is not a usage error (exit $rc)"
  "$cli" index --dir user="$t/none" --budget 99999999999999999999 >/dev/null 2>&1; rc=$?
  [ $rc -eq 2 ] || fail "index --budget past 64 bits is not a usage error (exit $rc)"
  "$cli" index --dir user="$t/none" --budget 0 >/dev/null 2>&1; rc=$?
  [ $rc -eq 2 ] || fail "index --budget 0 (the library's 'no budget') is not a usage error (exit $rc)"
}

# fmt reads as lint does: a SKILL.md that links out of the tree is refused, not printed or "fixed".
fmt_through_links() {
  mkdir -p "$t/outside" "$t/fmt/leak"
  printf -- '---\nname: leak\ndescription: SECRET: value\n---\nx\n' > "$t/outside/SKILL.md"
  ln -s "$t/outside/SKILL.md" "$t/fmt/leak/SKILL.md"
  local out rc
  out=$("$cli" fmt --check "$t/fmt" 2>&1); rc=$?
  echo "$out" | grep -q SECRET && fail "fmt printed a value through a link out of the tree: $out"
  [ $rc -ne 0 ] || fail "fmt --check passed a file it cannot read"
  out=$("$cli" fmt --fix "$t/fmt" 2>&1)
  echo "$out" | grep -q ' 1 fixed' && fail "fmt --fix calls a refused file fixed: $out"
  grep -q "SECRET: value" "$t/outside/SKILL.md" || fail "fmt --fix wrote through a link out of the tree"
}

# Terminal-safe: C1 controls and bidirectional controls never reach the terminal raw.
terminal_controls() {
  mkdir -p "$t/c1/c"
  printf -- '---\nname: c\ndescription: "x \\u009b2J \\u202e y"\n---\nRun with $ARGUMENTS.\n' > "$t/c1/c/SKILL.md"
  local out
  out=$("$cli" parse "$t/c1/c/SKILL.md" 2>&1)
  printf '%s' "$out" | LC_ALL=C grep -q $'\xc2\x9b' && fail "parse's JSON carries a raw U+009B"
  printf '%s' "$out" | LC_ALL=C grep -q $'\xe2\x80\xae' && fail "parse's JSON carries a raw U+202E"
  printf '%s' "$out" | grep -q '\\u009b' || fail "parse's JSON lost the U+009B escape: $out"
  out=$("$cli" invoke "/c $(printf 'a\xc2\x9b2J b\xe2\x80\xae')" --as user --dir user="$t/c1" 2>&1)
  printf '%s' "$out" | LC_ALL=C grep -q $'\xc2\x9b' && fail "invoke printed a raw U+009B"
  printf '%s' "$out" | LC_ALL=C grep -q $'\xe2\x80\xae' && fail "invoke printed a raw U+202E"
  out=$("$cli" list --format json --dir user="$t/c1" 2>&1)
  printf '%s' "$out" | LC_ALL=C grep -q $'\xc2\x9b' && fail "list --format json carries a raw U+009B"
  # A body with a C1 control is refused as one with ESC is.
  mkdir -p "$t/c1b/e"
  printf -- '---\nname: e\ndescription: d\n---\nsay \xc2\x9b2J\n' > "$t/c1b/e/SKILL.md"
  "$cli" lint "$t/c1b" 2>&1 | grep -q 'body-not-text' || fail "lint accepts a body with U+009B"
  # A usage error quotes what was typed, escaped.
  for args in "list --x"$'\e'"[31m" "list --preset "$'\e'"[31m" "index --format "$'\e'"[31m" "help "$'\e'"[31m"; do
    # shellcheck disable=SC2086
    out=$("$cli" $args 2>&1)
    printf '%s' "$out" | LC_ALL=C grep -q $'\e' && fail "a usage error printed a raw ESC: skillmd $args"
  done
  # The index as text for a terminal: line and paragraph separators and C1 controls in a
  # description are shown escaped, in every format; `--format json` keeps them escaped too.
  mkdir -p "$t/ls/ls"
  printf -- '---\nname: ls\ndescription: "A\\u2028B\\u2029C\\u0085D"\n---\nBody\n' > "$t/ls/ls/SKILL.md"
  for f in pegasus claude-code koshi sven agent-skills claude-code-2.1 codex-0.169 gemini-cli-0.61 opencode-1.18; do
    out=$("$cli" index --format "$f" --dir user="$t/ls" 2>/dev/null)
    printf '%s' "$out" | grep -q 'A' || fail "index --format $f lost the skill: $out"
    printf '%s' "$out" | LC_ALL=C grep -q -e $'\xe2\x80\xa8' -e $'\xe2\x80\xa9' -e $'\xc2\x85' &&
      fail "index --format $f printed a raw line separator or C1 control"
  done
  out=$("$cli" index --format json --dir user="$t/ls" 2>/dev/null)
  printf '%s' "$out" | LC_ALL=C grep -q -e $'\xe2\x80\xa8' -e $'\xc2\x85' && fail "index --format json carries a raw U+2028 or U+0085"
  # A file or folder name that is not UTF-8 leaves JSON output valid.
  local u8="$t/u8"/$'tx\xff'
  mkdir -p "$u8/g"
  printf -- '---\nname: g\ndescription: d\n---\nb\n' > "$u8/g/SKILL.md"
  printf x > "$u8/g"/$'f\xfe'
  out=$("$cli" list --format json --dir user="$u8" 2>/dev/null)
  printf '%s' "$out" | grep -q '"g"' || fail "list --format json under a root that is not UTF-8 lost the skill: $out"
  printf '%s' "$out" | json_lines ||
    fail "list --format json with a name that is not UTF-8 is not JSON: $out"
  out=$("$cli" digest --format json "$u8/g" 2>/dev/null)
  printf '%s' "$out" | json_lines ||
    fail "digest --format json with a name that is not UTF-8 is not JSON: $out"
}

# One name resolution: a deny rule binds every spelling; `name@tier` is never a folder's.
name_resolution() {
  skill "$t/n/helper" deploy
  local rc out
  out=$("$cli" invoke /deploy --as user --deny deploy --dir user="$t/n" 2>&1); rc=$?
  [ $rc -ne 0 ] || fail "--deny deploy: /deploy ran through helper/'s name"
  echo "$out" | grep -q 'matches no skill' && fail "the deny rule is said to match no skill: $out"
  "$cli" invoke deploy --deny deploy --allow helper --dir user="$t/n" >/dev/null 2>&1; rc=$?
  [ $rc -ne 0 ] || fail "--deny deploy --allow helper: the model's deploy ran"
  # A rule no name can match is a usage error, not a warning.
  for rule in '/dep:*' 'deploy/' 'a//b' 'deploy@' '@user' 'deploy@user@user' 'deploy@nosuch' 'deploy@User'; do
    "$cli" invoke /deploy --as user --deny "$rule" --dir user="$t/n" >/dev/null 2>&1; rc=$?
    [ $rc -eq 2 ] || fail "--deny '$rule' (matches nothing, ever) is not a usage error (exit $rc)"
  done
  # A name with a no-break space at its end is not another `deploy` past a rule.
  mkdir -p "$t/nb/helper"
  printf -- '---\nname: "deploy\\u00a0"\ndescription: d\n---\nNBSP\n' > "$t/nb/helper/SKILL.md"
  for preset in mycode agent-skills claude-code; do
    out=$("$cli" invoke $'deploy\xc2\xa0' --preset "$preset" --deny deploy --allow $'deploy\xc2\xa0' --dir user="$t/nb" --dir project="$t/none" 2>/dev/null)
    echo "$out" | grep -q NBSP && fail "$preset: deploy+U+00A0 ran past --deny deploy"
  done
  skill "$t/u/deploy" deploy "REAL"
  skill "$t/p/deploy@user" deploy "IMPOSTOR"
  for preset in mycode agent-skills claude-code; do
    out=$("$cli" invoke deploy@user --as user --preset "$preset" --dir user="$t/u" --dir project="$t/p" 2>/dev/null)
    echo "$out" | grep -q IMPOSTOR && fail "$preset: a folder named deploy@user answered deploy@user"
    "$cli" list --preset "$preset" --dir user="$t/u" --dir project="$t/p" 2>&1 | grep -q 'name-reserved-character' ||
      fail "$preset: no diagnostic for a folder holding @"
  done
}

# Digests are complete or say so: a file 17 folders down is not left out in silence.
digest_completeness() {
  skill "$t/d/s" s
  local deep="$t/d/s" i rc
  for i in $(seq 1 17); do deep="$deep/d$i"; done
  mkdir -p "$deep" && echo "script" > "$deep/run.sh"
  "$cli" digest "$t/d/s" >/dev/null 2>&1; rc=$?
  [ $rc -ne 0 ] || fail "digest of a skill with a file 17 folders deep exits 0"
  skill "$t/g/s" s
  mkdir -p "$t/g/s/.git" && echo x > "$t/g/s/.git/config"
  "$cli" digest "$t/g/s" 2>&1 >/dev/null | grep -q 'excluded .git' || fail "digest leaves .git out without a word"
}

# A skill that is listed can be loaded: a path past PATH_MAX is not listed.
listed_can_load() {
  local d="$t/long" seg i
  seg=$(printf 'x%.0s' $(seq 1 240))
  mkdir -p "$d"
  ( cd "$d" && for i in $(seq 1 18); do mkdir "$seg$i" && cd "$seg$i" || exit 1; done &&
    printf -- '---\nname: deep\ndescription: d\n---\nB\n' > SKILL.md ) || { echo "skip listed_can_load: cannot make the tree"; return; }
  skill "$d/ok" ok
  local cmd
  while IFS=$'\t' read -r cmd _; do
    "$cli" invoke "/$cmd" --as user --preset sven --dir project-sven="$d" >/dev/null 2>&1 || fail "listed but not loadable: ${cmd:0:40}..."
  done < <("$cli" list --preset sven --dir project-sven="$d" 2>/dev/null)
}

# An unreachable database is exit 3 for every db command and for watch, never an empty answer.
unreachable_database() {
  local url="postgresql:///skills?host=$t/no-server" rc
  for args in "db list" "db load --name x" "watch --for 1"; do
    # shellcheck disable=SC2086
    timeout 60 "$cli" $args --db "$url" >/dev/null 2>&1; rc=$?
    [ $rc -eq 3 ] || fail "$args with the database unreachable: exit $rc"
  done
}

# MCP protocol hygiene over stdio.
mcp_hygiene() {
  skill "$t/m/a" a
  local out
  out=$(printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"skills/list"}' '{"jsonrpc":"2.0","id":2}' |
        timeout 20 "$cli" mcp --dir user="$t/m" 2>/dev/null)
  echo "$out" | grep -q '"id":1,"error"' || fail "mcp served skills/list before initialize: $out"
  echo "$out" | grep -q '"id":2,"error"' || fail "mcp left a request without a method unanswered: $out"
  # The last message of the input, without its newline, is answered too.
  out=$(printf '%s' '{"jsonrpc":"2.0","id":3,"method":"ping"}' | timeout 20 "$cli" mcp --dir user="$t/m" 2>/dev/null)
  echo "$out" | grep -q '"id":3' || fail "mcp dropped a last message without its newline: $out"
}

unbounded_reads
write_errors
numbers_wrap
fmt_through_links
terminal_controls
name_resolution
digest_completeness
listed_can_load
unreachable_database
mcp_hygiene
[ "$failures" -eq 0 ] && echo "every attack refused"
exit $((failures > 0))
