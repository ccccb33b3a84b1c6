#!/usr/bin/env bash
# Builds a libFuzzer target with clang 14 (FUZZ_TARGET=frontmatter, the default, prompt, store or mcp) and runs it for the given number of
# seconds (default 60) growing tests/fuzz/corpus and saving crashing
# inputs to tests/fuzz/crashes. Extra arguments go to libFuzzer.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-60}
shift || true
bash "$here/scripts/install-deps.sh"
build="$here/build/fuzz"
cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++-14 \
  -DSKILLMD_BUILD_FUZZERS=ON -DSKILLMD_BUILD_TESTS=OFF -DSKILLMD_BUILD_EXAMPLES=OFF -DSKILLMD_INSTALL=OFF >/dev/null
target=${FUZZ_TARGET:-frontmatter} # or prompt: arguments, text cleaning, index formats; store: database files;
# mcp: JSON-RPC messages into the MCP server, tool calls into call_tool, settings files
cmake --build "$build" --target "fuzz_$target" -j2
mkdir -p "$here/tests/fuzz/crashes"
cd "$build"
max_len=4096
if [ "$target" = prompt ]; then
  corpus="$here/tests/fuzz/corpus_prompt"; dict=()
elif [ "$target" = mcp ]; then
  corpus="$here/tests/fuzz/corpus_mcp"; dict=()
elif [ "$target" = store ]; then
  corpus="$here/tests/fuzz/corpus_store"; dict=(); max_len=16384 # whole database files
else
  corpus="$here/tests/fuzz/corpus"; dict=(-dict="$here/tests/fuzz/yaml.dict")
fi
"$build/tests/fuzz/fuzz_$target" "$corpus" "${dict[@]}" -max_total_time="$seconds" -max_len="$max_len" \
  -timeout=10 -rss_limit_mb=4096 -artifact_prefix="$here/tests/fuzz/crashes/" \
  -print_final_stats=1 "$@"
