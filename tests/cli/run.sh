#!/usr/bin/env bash
# Runs the skillmd CLI on each case under cases/: in the case's folder it runs
# `skillmd $(cat args)` (or one argument per line of args.lines) and compares stdout with `expected.out` and the exit code
# with `expected.code`. Prints a diff and fails on the first difference.
set -u
cli=$(realpath "$1")
root=$2
failed=0
count=0
for dir in "$root"/cases/*/; do
  name=$(basename "$dir")
  if [ -f "$dir/args.lines" ]; then
    mapfile -t args < "$dir/args.lines" # one argument per line, spaces kept
  else
    read -r -a args < "$dir/args"
  fi
  actual=$(cd "$dir" && "$cli" "${args[@]}" 2>/dev/null; echo "exit=$?")
  expected=$(cat "$dir/expected.out"; echo "exit=$(cat "$dir/expected.code")")
  count=$((count + 1))
  if [ "$actual" != "$expected" ]; then
    echo "FAIL $name"
    diff <(echo "$expected") <(echo "$actual")
    failed=$((failed + 1))
  fi
done
echo "$((count - failed)) passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$count" -gt 0 ]
