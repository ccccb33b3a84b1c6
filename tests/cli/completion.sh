#!/usr/bin/env bash
# The bash completion script (tools/skillmd/completion/skillmd.bash), sourced in bash:
# completions for a few prefixes, and every flag it offers for a command is one
# `skillmd help COMMAND` documents (and the command accepts).
set -u
cli=$(realpath "$1")
here=$(dirname "$(realpath "$0")")
# shellcheck source=../../tools/skillmd/completion/skillmd.bash
source "$here/../../tools/skillmd/completion/skillmd.bash"
failed=0
complete_line() { # complete_line WORD...: the completions of the last word
  COMP_WORDS=(skillmd "$@")
  COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
  COMPREPLY=()
  _skillmd
  printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ' | sed 's/ $//'
}
expect() { # expect "WANTED" WORD...
  local want=$1; shift
  local got; got=$(complete_line "$@")
  if [ "$got" != "$want" ]; then echo "FAIL complete '$*': got '$got', wanted '$want'"; failed=$((failed + 1)); fi
}
expect "index install invoke" in
expect "lint list" li
expect "--help --version" --
expect "--dialect" lint --di
expect "--dir" list --di
expect "--fix --format" fmt --f
expect "claude-code claude-code-2.1" list --preset cl
expect "table text" list --format t
expect "text" tree --format t
expect "codex-0.169" index --format co
expect "create" db cr
expect "user" invoke /x --as u
expect "invoke" help inv
# Each flag offered is one the command takes: its help names it, and the command does not
# call it unknown.
for cmd in parse lint fmt list tree index invoke match explain new digest db watch mcp install remove verify outdated update publish pack; do
  helptext=$("$cli" help "$cmd") || { echo "FAIL skillmd help $cmd"; failed=$((failed + 1)); continue; }
  for flag in $(_skillmd_flags "$cmd"); do
    grep -q -- "$flag" <<<"$helptext" || { echo "FAIL $cmd $flag: not in 'skillmd help $cmd'"; failed=$((failed + 1)); }
    args=("$cmd"); [ "$cmd" = db ] && args+=(list)
    if "$cli" "${args[@]}" "$flag" 2>&1 </dev/null | grep -q "unknown flag"; then
      echo "FAIL $cmd $flag: the command calls it unknown"; failed=$((failed + 1))
    fi
  done
done
echo "completion: $failed failed"
[ "$failed" -eq 0 ]
