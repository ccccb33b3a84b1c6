#!/usr/bin/env bash
# Installs what is missing, then builds and runs the tests:
#  1. gcc 12, optimised, with the benchmarks compiled too: every test, the install and
#     packaging tests (label "install", tests/install/) among them;
#  2. clang 14 with AddressSanitizer and UndefinedBehaviorSanitizer: every test but those;
#  3. clang 14 with ThreadSanitizer: the suites that run threads (sources, registry, whole
#     systems, containment, the database tier with its parallel reads and several processes,
#     the HTTP server, the MCP host over HTTP).
# Both compilers build with -Werror. SKILLMD_BUILD_TESTS=ON: a missing dependency fails
# the configuration instead of leaving the tests out.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
bash scripts/install-deps.sh

echo "== gcc 12 (Release)"
# The configure lines skillmd prints: the parts on and off, and each suite skipped for want
# of its external data
# (SKILLMD_SKILL_CORPUS_DIR, SKILLMD_YAML_TEST_SUITE_DIR, SKILLMD_AGENT_CAPTURES_DIR).
cmake -S . -B build/gcc -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=g++ \
  -DSKILLMD_BUILD_TESTS=ON -DSKILLMD_BUILD_BENCHMARKS=ON | { grep -E '^-- skillmd' || true; }
cmake --build build/gcc -j2
(cd build/gcc && ctest --output-on-failure -j2)

# The sanitizer builds: -O1 and line tables only (what a sanitizer's report needs), a fifth
# less compile time than -O2 -g; each header alone is checked header-only here, and
# with compile-once too by gcc above.
sanitized=(-DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG"
  -DCMAKE_CXX_COMPILER=clang++-14 -DSKILLMD_BUILD_TESTS=ON -DSKILLMD_CHECK_HEADERS_COMPILE_ONCE=OFF)

echo "== clang 14 + ASan + UBSan"
cmake -S . -B build/clang-asan -G Ninja "${sanitized[@]}" -DSKILLMD_SANITIZE=address,undefined >/dev/null
cmake --build build/clang-asan -j2
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
(cd build/clang-asan && ctest --output-on-failure -j2 -LE install)

echo "== clang 14 + TSan (threaded suites)"
cmake -S . -B build/clang-tsan -G Ninja "${sanitized[@]}" -DSKILLMD_SANITIZE=thread -DSKILLMD_BUILD_EXAMPLES=OFF >/dev/null
cmake --build build/clang-tsan -j2 --target skillmd_tests skillmd_net_tests
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1
(cd build/clang-tsan && ctest --output-on-failure -R '^(sources|registry|preset_layouts|systems|containment|database|koshi_preset|fleet|fleet_replicas|attacks_containment|net_http_server|mcp_remote)$')
