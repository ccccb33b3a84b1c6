#!/usr/bin/env bash
# The command-line tool as a product (docs/cli.md): --version, the overview and each
# command's usage, one-line usage errors with "did you mean", the one JSON convention
# (JSON Lines of compact objects, string codes), --format json where it was ignored, and
# the warning for a --dir that does not exist.
set -u
cli=$(realpath "$1")
t=$(mktemp -d)
chmod 755 "$t" # the throw-away PostgreSQL cluster below runs as an unprivileged user
trap 'bash "$(dirname "$(realpath "$0")")/../postgres/cluster.sh" stop "$t/pg" >/dev/null 2>&1; rm -rf "$t"' EXIT
failed=0
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }
skill() { # skill DIR NAME [EXTRA FRONTMATTER LINE]
  mkdir -p "$1"
  printf -- '---\nname: %s\ndescription: The %s skill.\n%s---\nDo %s with $ARGUMENTS.\n' "$2" "$2" "${3:+$3
}" "$2" > "$1/SKILL.md"
}
skill "$t/user/alpha" alpha 'triggers: [alpha]'
skill "$t/user/beta" beta 'user-invocable: false'
skill "$t/sven/pkg" pkg
skill "$t/sven/pkg/sub" sub
mkdir -p "$t/empty" "$t/fmt/colon" "$t/files"
printf -- '---\nname: reminders\ndescription: Set reminders\ntriggers: [remind]\n---\nBody\n' > "$t/files/reminders.md"
printf -- '---\nname: colon\ndescription: Use when: deploying\n---\nBody.\n' > "$t/fmt/colon/SKILL.md"
dirs=(--preset claude-code --dir managed="$t/empty" --dir user="$t/user" --dir project="$t/empty")

# --version: the project's version, exit 0.
out=$("$cli" --version); rc=$?
[ $rc -eq 0 ] && [[ $out =~ ^skillmd\ [0-9]+\.[0-9]+\.[0-9]+$ ]] || fail "--version: exit $rc, '$out'"

# The overview: every command, on stdout, exit 0, the same for help, --help and -h.
overview=$("$cli" help); rc=$?
[ $rc -eq 0 ] || fail "help: exit $rc"
for c in parse lint fmt list tree index invoke match explain new digest db watch mcp install remove verify outdated update publish pack; do
  grep -q "^  $c " <<<"$overview" || fail "the overview does not list $c"
  usage=$("$cli" help "$c"); rc=$?
  [ $rc -eq 0 ] && grep -q "^usage: skillmd $c" <<<"$usage" || fail "help $c: exit $rc"
  [ "$("$cli" "$c" --help)" = "$usage" ] || fail "$c --help differs from help $c"
  [ "$(wc -l <<<"$usage")" -le 40 ] || fail "help $c is $(wc -l <<<"$usage") lines"
  grep -q "^Exit: " <<<"$usage" || fail "help $c names no exit status"
done
[ "$("$cli" --help)" = "$overview" ] && [ "$("$cli" -h)" = "$overview" ] && [ "$("$cli" help help)" = "$overview" ] ||
  fail "--help, -h or help help is not the overview"
[ "$("$cli" db create -h)" = "$("$cli" help db)" ] || fail "db create -h is not db's usage"
"$cli" list --help 2>&1 | grep -q "skillmd parse" && fail "list --help prints other commands"

# A usage error: exactly one line and a hint, nothing on stdout, exit 2.
usage_error() { # usage_error "FIRST LINE" HINT_COMMAND ARGS...
  local want=$1 hint=$2; shift 2
  local out err rc
  out=$("$cli" "$@" 2>"$t/err" </dev/null); rc=$?
  err=$(cat "$t/err")
  local want_hint="Run 'skillmd help $hint' for usage."
  [ -z "$hint" ] && want_hint="Run 'skillmd help' for the commands."
  if [ $rc -ne 2 ] || [ -n "$out" ] || [ "$err" != "$want"$'\n'"$want_hint" ]; then
    fail "skillmd $*: exit $rc, stderr:"$'\n'"$err"$'\n'"wanted:"$'\n'"$want"$'\n'"$want_hint"
  fi
}
usage_error "skillmd: unknown flag --fromat for list; did you mean --format?" list list --fromat json
usage_error "skillmd: unknown command lsit; did you mean list?" "" lsit
usage_error "skillmd: unknown flag --format=json for lint; write --format json" lint lint --format=json x
usage_error "skillmd: unknown command frobnicate" "" frobnicate
usage_error "skillmd: no command given" ""
usage_error "skillmd: unknown flag --verison; did you mean --version?" "" --verison
usage_error "skillmd: no command lits; did you mean list?" "" help lits
usage_error "skillmd: unknown preset claude-cod; did you mean claude-code?" list list --preset claude-cod
usage_error "skillmd: unknown dialect codex-0.196; did you mean codex-0.169?" lint lint --dialect codex-0.196 x
usage_error "skillmd: --format takes text or json for tree; did you mean json?" tree tree --format jsn
usage_error "skillmd: unknown index format svn; did you mean sven?" index index --format svn
usage_error "skillmd: unknown flag --lenient for list" list list --lenient
usage_error "skillmd: the agent-skills preset has no tier usr (it has user, project); did you mean user?" list list --dir usr="$t/user"
usage_error "skillmd: unknown db operation crate; did you mean create?" db db crate --db "$t/k.db"
usage_error "skillmd: unknown flag --nmae for db; did you mean --name?" db db load --nmae x --db "$t/k.db"
usage_error "skillmd: db create prints no data: --format json is for db list, db load and watch (the exit status says how it went)" db \
  db create --db "$t/k.db" --name x --description d --triggers x --content c --format json
usage_error "skillmd: unknown flag --format for mcp" mcp mcp --format json
usage_error "skillmd: new takes one NAME" new new
usage_error "skillmd: parse needs at least one path" parse parse

# The JSON convention: every line of stdout one compact object; every "code" a string
# (or null), a numeric "error_code" only from 1 to 5.
cat > "$t/check_json.py" <<'PY'
import json, re, sys
what = sys.argv[1]
lines = sys.stdin.read().split("\n")
assert lines[-1] == "", what + ": no final new line"
assert len(lines) > 1, what + ": no output"
strings = re.compile(r'"(?:[^"\\]|\\.)*"')
def walk(v):
    if isinstance(v, dict):
        for k, x in v.items():
            if k == "code": assert x is None or isinstance(x, str), what + ": code " + repr(x)
            if k == "error_code": assert isinstance(x, int) and 1 <= x <= 5, what + ": error_code " + repr(x)
            walk(x)
    elif isinstance(v, list):
        for x in v: walk(x)
for line in lines[:-1]:
    v = json.loads(line)
    assert isinstance(v, dict), what + ": not an object: " + line
    assert " " not in strings.sub('""', line), what + ": not compact: " + line
    walk(v)
PY
check_json() { python3 "$t/check_json.py" "$1" || fail "$1 does not follow the JSON convention"; }
if command -v python3 >/dev/null 2>&1; then
  while IFS= read -r cmd; do
    eval "args=($cmd)"
    (cd "$t" && "$cli" "${args[@]}" 2>/dev/null) | check_json "$cmd"
  done <<EOF
parse user/alpha/SKILL.md fmt/colon/SKILL.md missing.md
parse --lenient fmt/colon/SKILL.md
lint --format json user fmt
lint --portability --format json fmt
fmt --format json fmt
list --format json ${dirs[*]}
tree --format json --preset sven --dir project-sven=sven
index --format json ${dirs[*]}
invoke /alpha --format json ${dirs[*]}
invoke /beta --as user --format json ${dirs[*]}
invoke /nope --as user --format json ${dirs[*]}
match 'alpha please' --format json ${dirs[*]}
explain --format json ${dirs[*]}
explain alpha --format json ${dirs[*]}
digest --format json user/alpha
new gamma --dir made --format json
db list --format json --db k.db --dir user=files
EOF
else
  echo "python3 not found: the JSON convention check is skipped"
fi
[ "$("$cli" explain alpha --format json "${dirs[@]}" 2>/dev/null | wc -l)" -eq 1 ] || fail "explain of one skill is not one object"
"$cli" list --format json "${dirs[@]}" 2>/dev/null | grep -qx '{"name":"alpha","command":"alpha","tier":"user","path":"'"$t"'/user/alpha/SKILL.md","visibility":"model,user"}' ||
  fail "list --format json: $("$cli" list --format json "${dirs[@]}" 2>&1)"

# invoke: the string code always, Claude Code's number only for its codes 1-5.
out=$("$cli" invoke /nope --as user --format json "${dirs[@]}" 2>/dev/null)
grep -q '"status":"failed","code":"unknown-skill","error_code":2,' <<<"$out" || fail "invoke of an unknown skill: $out"
out=$("$cli" invoke /beta --as user --format json "${dirs[@]}" 2>/dev/null)
grep -q '"code":"user-invocation-disabled",' <<<"$out" && ! grep -q error_code <<<"$out" || fail "invoke code 6: $out"
out=$("$cli" invoke /alpha --as user --format json "${dirs[@]}" 2>/dev/null)
grep -q '"status":"run","code":null,' <<<"$out" && ! grep -q error_code <<<"$out" || fail "invoke that runs: $out"

# tree --format json: one object per skill, nested ones with their depth.
out=$("$cli" tree --format json --preset sven --dir project-sven="$t/sven" 2>/dev/null)
grep -qx '{"command":"pkg/sub","name":"sub","depth":1,"hidden":false,"description":"The sub skill."}' <<<"$out" || fail "tree --format json: $out"
# A skill's children follow it, before a sibling whose name sorts between as text (`pkg-x`).
skill "$t/sven/pkg-x" pkg-x
out=$("$cli" tree --preset sven --dir project-sven="$t/sven" 2>/dev/null | awk '{print $1}' | tr '\n' ' ')
[ "$out" = "pkg sub pkg-x " ] || fail "tree puts a child under the wrong parent: $out"
rm -r "$t/sven/pkg-x"
# --dir names a tier once.
"$cli" list --dir user="$t/user" --dir user="$t/empty" >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || fail "--dir user given twice: exit $rc"

# fmt --format json: what would be fixed, then what was, per file; text mode unchanged.
out=$("$cli" fmt --format json "$t/fmt" 2>/dev/null); rc=$?
[ $rc -eq 1 ] && grep -qx '{"file":"'"$t"'/fmt/colon/SKILL.md","status":"to-fix","edits":\[{"line":3,"edit":"quoted `Use when: deploying`"}\],"notes":\[\]}' <<<"$out" ||
  fail "fmt --check --format json: exit $rc, $out"
out=$("$cli" fmt --fix --format json "$t/fmt" 2>/dev/null); rc=$?
[ $rc -eq 0 ] && grep -q '"status":"fixed"' <<<"$out" || fail "fmt --fix --format json: exit $rc, $out"
out=$("$cli" fmt --format json "$t/fmt" 2>/dev/null); rc=$?
[ $rc -eq 0 ] && grep -qx '{"file":"'"$t"'/fmt/colon/SKILL.md","status":"clean","edits":\[\],"notes":\[\]}' <<<"$out" || fail "fmt after the fix: exit $rc, $out"

# new --format json: the path written and its content.
out=$("$cli" new delta --dir "$t/new" --format json 2>/dev/null); rc=$?
if [ $rc -ne 0 ] || ! python3 -c 'import json,sys; v=json.loads(sys.argv[1]); assert v["path"]==sys.argv[2] and v["content"]==open(sys.argv[2]).read()' \
  "$out" "$t/new/delta/SKILL.md" 2>/dev/null; then fail "new --format json: exit $rc, $out"; fi

# db load --format json: the name and the body.
"$cli" db create --db "$t/k.db" --dir user="$t/empty" --name eps --description d --triggers e --content 'Body.' >/dev/null 2>&1
out=$("$cli" db load --db "$t/k.db" --dir user="$t/empty" --name eps --format json 2>/dev/null)
[ "$out" = '{"name":"eps","content":"Body."}' ] || fail "db load --format json: $out"

# A --dir that does not exist is said on stderr; the result is otherwise the same.
"$cli" list --dir user="$t/user" --dir project="$t/nowhere" >"$t/out1" 2>"$t/err1"; rc1=$?
"$cli" list --dir user="$t/user" --dir project="$t/empty" >"$t/out2" 2>"$t/err2"; rc2=$?
grep -q "warning: --dir project=$t/nowhere: no such file or directory" "$t/err1" || fail "no warning for a missing --dir: $(cat "$t/err1")"
grep -q "warning: --dir" "$t/err2" && fail "a warning for a --dir that exists: $(cat "$t/err2")"
cmp -s "$t/out1" "$t/out2" && [ $rc1 -eq $rc2 ] || fail "a missing --dir changed the result"
"$cli" db list --db "$t/k.db" --dir user="$t/nowhere" 2>&1 >/dev/null | grep -q "warning: --dir user=" || fail "db: no warning for a missing --dir user="

# watch --format json against a throw-away PostgreSQL cluster, when a server is installed.
here=$(dirname "$(realpath "$0")")
if bash "$here/../postgres/cluster.sh" start "$t/pg" >/dev/null 2>&1; then
  url="postgresql:///skillmd?host=$t/pg&user=skillmd_admin"
  pg() { "$cli" db "$@" --db "$url" --dir user="$t/files" >/dev/null 2>&1; }
  pg create --name w1 --description d --triggers w --content x
  "$cli" watch --db "$url" --dir user="$t/files" --for 6 --format json >"$t/watch.out" 2>"$t/watch.err" &
  watcher=$!
  for _ in $(seq 1 50); do grep -q watching "$t/watch.err" && break; sleep 0.1; done
  pg update --name w1 --description changed
  pg create --name w2 --description d --triggers w --content x
  pg delete --name w1
  wait "$watcher" || fail "watch --format json: exit $?"
  grep -q '^{"change":"changed","name":"w1","revision":[0-9]*}$' "$t/watch.out" &&
    grep -q '^{"change":"added","name":"w2","revision":[0-9]*}$' "$t/watch.out" &&
    grep -qx '{"change":"removed","name":"w1","revision":null}' "$t/watch.out" || fail "watch --format json: $(cat "$t/watch.out")"
  check_json "watch --format json" <"$t/watch.out"
  bash "$here/../postgres/cluster.sh" stop "$t/pg" >/dev/null 2>&1
else
  echo "no PostgreSQL server: watch --format json is not checked"
fi

# A model's call no rule decides: Claude Code asks (exit 4, needs_approval); Pegasus,
# mycode and sven have no approval step and run it (exit 0); a deny rule denies in all.
out=$("$cli" invoke alpha "${dirs[@]}" --format json); rc=$?
[ $rc -eq 4 ] && grep -q '"status":"needs_approval"' <<<"$out" || fail "claude-code model call: exit $rc, $out"
for p in pegasus:builtin mycode:user sven:user-sven; do
  out=$("$cli" invoke alpha --preset "${p%%:*}" --dir "${p#*:}=$t/user" --format json 2>/dev/null); rc=$?
  [ $rc -eq 0 ] && grep -q '"status":"run"' <<<"$out" || fail "${p%%:*} model call: exit $rc, $out"
  out=$("$cli" invoke alpha --preset "${p%%:*}" --dir "${p#*:}=$t/user" --deny alpha --format json 2>/dev/null); rc=$?
  [ $rc -eq 1 ] && grep -q '"status":"denied"' <<<"$out" || fail "${p%%:*} denied model call: exit $rc, $out"
done

echo "product: $failed failed"
[ "$failed" -eq 0 ]
