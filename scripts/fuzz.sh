#!/usr/bin/env bash
# Builds a libFuzzer target with clang 14 and runs it for the given number of seconds
# (default 60), growing its corpus folder and saving crashing inputs to tests/fuzz/crashes.
# FUZZ_TARGET: frontmatter (the default), slash, prompt, store, mcp, tool_call, settings,
# remote, packages
# (tests/fuzz/README.md says what each drives). The frontmatter and slash targets also
# read the SKILL.md files under $SKILLMD_CORPUS_DIR (a folder of public skills) as seeds
# when it is set. Extra arguments go to libFuzzer.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-60}
shift || true
bash "$here/scripts/install-deps.sh"
build="$here/build/fuzz"
cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++-14 \
  -DSKILLMD_BUILD_FUZZERS=ON -DSKILLMD_BUILD_TESTS=OFF -DSKILLMD_BUILD_EXAMPLES=OFF -DSKILLMD_INSTALL=OFF >/dev/null
target=${FUZZ_TARGET:-frontmatter}
cmake --build "$build" --target "fuzz_$target" -j2
mkdir -p "$here/tests/fuzz/crashes"
# The store, mcp and packages targets write a database file or a tree to $TMPDIR: in memory,
# each run spares the disk its syncs, several times as many runs a second.
if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then export TMPDIR=/dev/shm; fi
cd "$build"
max_len=4096
dict=()
seeds=()
case "$target" in
  frontmatter) corpus=corpus; dict=(-dict="$here/tests/fuzz/yaml.dict") ;;
  store) corpus=corpus_store; max_len=16384 ;; # whole database files
  packages) corpus=corpus_packages; max_len=65536 ;; # whole archives
  slash|prompt|mcp|tool_call|settings|remote) corpus=corpus_$target ;;
  *) echo "fuzz.sh: unknown FUZZ_TARGET '$target'" >&2; exit 2 ;;
esac
if [ -n "${SKILLMD_CORPUS_DIR:-}" ] && { [ "$target" = frontmatter ] || [ "$target" = slash ]; }; then
  seeds=("$SKILLMD_CORPUS_DIR") # read, never written: new inputs go to the first folder
fi
mkdir -p "$here/tests/fuzz/$corpus"
"$build/tests/fuzz/fuzz_$target" "$here/tests/fuzz/$corpus" "${seeds[@]}" "${dict[@]}" -max_total_time="$seconds" \
  -max_len="$max_len" -timeout=10 -rss_limit_mb=4096 -artifact_prefix="$here/tests/fuzz/crashes/" \
  -print_final_stats=1 "$@"
