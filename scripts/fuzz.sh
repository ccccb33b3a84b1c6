#!/usr/bin/env bash
# Builds the libFuzzer target with clang 14 and runs it for the given number of
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
cmake --build "$build" --target fuzz_frontmatter -j2
mkdir -p "$here/tests/fuzz/crashes"
cd "$build"
"$build/tests/fuzz/fuzz_frontmatter" "$here/tests/fuzz/corpus" \
  -dict="$here/tests/fuzz/yaml.dict" -max_total_time="$seconds" -max_len=4096 \
  -timeout=10 -rss_limit_mb=4096 -artifact_prefix="$here/tests/fuzz/crashes/" \
  -print_final_stats=1 "$@"
