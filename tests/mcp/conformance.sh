#!/usr/bin/env bash
# `skillmd mcp --http` against the official MCP conformance suite
# (@modelcontextprotocol/conformance, pinned in package.json, run on the Node 22 that
# package.json pins too): the Skills extension's scenarios and the generic server
# scenarios a skills server answers, on both wires (2025-11-25 with its session,
# 2026-07-28 stateless), and those of origins (DNS rebinding) and unknown resources,
# over (a) the shipped skills/ and (b) a fixture of awkward files. Every check must pass, warn or be skipped by the suite, but for the checks
# listed in `needs_suite_tools`, which call test tools (`test_missing_capability`, ...)
# that only the suite's own reference server has.
# usage: conformance.sh PATH/TO/skillmd
set -euo pipefail
skillmd=$1
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
node="$here/node_modules/.bin/node"
suite="$here/node_modules/@modelcontextprotocol/conformance/dist/index.js"
[ -x "$node" ] && [ -f "$suite" ] || { echo "conformance.sh: run scripts/install-deps.sh (npm ci in tests/mcp)" >&2; exit 1; }
work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

needs_suite_tools=(sep-2575-server-rejects-undeclared-capability sep-2575-missing-capability-http-400
  sep-2575-http-server-no-independent-requests-on-stream sep-2575-server-no-log-without-loglevel)

# (b) subfolders (first skill included: the directory scenario reads the first one),
# binary and non-UTF-8 files, names with spaces and characters that must be
# percent-encoded, a deep folder, typed frontmatter, and a skill over the file limit
# (refused, never half served).
b="$work/fixture"
mkdir -p "$b/alpha/references/deep/er/still/deeper" "$b/alpha/assets" "$b/beta/my docs" "$b/huge/data"
cat > "$b/alpha/SKILL.md" <<'EOF'
---
name: alpha
description: "Alpha: a skill with typed frontmatter"
license: MIT
metadata:
  version: 0o17
  build: 0x1F
  big: 123456789012345678901234567890
  ratio: 2.5e3
  limit: .inf
  stable: yes
  on: true
  owner: ~
  tags: [a, "b c", 3]
---
# Alpha

See references/guide.md.
EOF
printf '# Guide\n\nÜnïcödé\n' > "$b/alpha/references/guide.md"
printf 'deep\n' > "$b/alpha/references/deep/er/still/deeper/leaf.md"
printf '\x89PNG\r\n\x1a\n\x00\x00\xff' > "$b/alpha/assets/logo.png"
printf 'caf\xe9 latin-1\n' > "$b/alpha/assets/latin1.txt"
printf -- '---\nname: beta\ndescription: Beta\n---\nBeta.\n' > "$b/beta/SKILL.md"
printf 'spaces\n' > "$b/beta/my docs/100% #1?.md"
printf -- '---\nname: huge\ndescription: Over the file limit\n---\n' > "$b/huge/SKILL.md"
for i in $(seq 1 520); do : > "$b/huge/data/f$i"; done

run_suite() { # $1: label, $2: skills folder
  local label=$1 tree=$2 log="$work/$1.log" port=""
  : > "$log"
  "$skillmd" mcp --preset agent-skills --dir "user=$tree" --dir "project=$work/none" --http 127.0.0.1:0 2>"$log" &
  pids+=($!)
  for _ in $(seq 1 100); do
    port=$(sed -n 's|^skillmd: serving MCP at http://127.0.0.1:\([0-9]*\)/mcp$|\1|p' "$log")
    [ -n "$port" ] && break
    sleep 0.1
  done
  [ -n "$port" ] || { echo "FAIL $label: skillmd mcp --http did not start"; cat "$log"; return 1; }
  local failed=0
  for version in 2025-11-25 2026-07-28; do
    for scenario in server-initialize ping resources-list server-stateless caching dns-rebinding-protection sep-2164-resource-not-found \
      sep-2640-skills-enumeration sep-2640-skills-manifest sep-2640-skills-directory; do
      local force=()
      case $scenario in sep-2640-*) force=(--force) ;; esac # extension scenarios run only when asked
      local out="$work/out-$label-$version-$scenario"
      mkdir -p "$out"
      "$node" "$suite" server --url "http://127.0.0.1:$port/mcp" --scenario "$scenario" --spec-version "$version" \
        "${force[@]}" -o "$out" >"$out/stdout" 2>&1 || true
      if grep -q '^SKIPPED: scenario' "$out/stdout"; then continue; fi # not of this revision (the suite says so)
      local checks
      checks=$(find "$out" -name checks.json | head -1)
      if [ -z "$checks" ]; then
        echo "FAIL $label $version $scenario: no checks"; sed 's/\x1b\[[0-9;]*m//g' "$out/stdout" | tail -5; failed=1; continue
      fi
      # Every check a success, a warning, a skip or information; the failures that need
      # the suite's own tools are allowed only as such, and reported.
      local verdict
      verdict=$("$node" -e '
        const checks = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
        const allowed = new Set(process.argv.slice(2));
        const bad = checks.filter(c => c.status === "FAILURE" && !allowed.has(c.id));
        const excused = checks.filter(c => c.status === "FAILURE" && allowed.has(c.id));
        const ok = checks.filter(c => c.status === "SUCCESS").length;
        for (const c of bad) console.log("  FAILURE " + c.id + ": " + (c.errorMessage || c.description));
        for (const c of excused) console.log("  needs test tools only the suite has: " + c.id);
        console.log((bad.length ? "FAIL" : "PASS") + " " + ok + "/" + checks.length + " passed");
      ' "$checks" "${needs_suite_tools[@]}")
      echo "$label $version $scenario: $(tail -1 <<<"$verdict")"
      sed '$d' <<<"$verdict"
      case $(tail -1 <<<"$verdict") in FAIL*) failed=1 ;; esac
    done
  done
  grep -q 'not served: .*huge' "$log" || [ "$label" = shipped ] || { echo "FAIL $label: the skill over the limit is not reported"; failed=1; }
  return $failed
}

rc=0
run_suite shipped "$repo/skills" || rc=1
run_suite fixture "$b" || rc=1
exit $rc
