#!/usr/bin/env bash
# Installs what is missing, then builds and runs the tests:
#  1. gcc 12 at -O2 (what distributions build with), with the benchmarks compiled too:
#     every test, the install and packaging tests (label "install", tests/install/) among
#     them, and each public header compiled alone, header-only and with compile-once;
#  2. clang 14 with AddressSanitizer and UndefinedBehaviorSanitizer: every test but those
#     (the header checks are compile-only, so gcc's stand for both);
#  3. clang 14 with ThreadSanitizer: only the suites that run threads, label "threaded"
#     (tests/CMakeLists.txt names them), built alone with SKILLMD_TESTS_THREADED_ONLY.
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
cmake -S . -B build/gcc -G Ninja -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG" -DCMAKE_CXX_COMPILER=g++ \
  -DSKILLMD_BUILD_TESTS=ON -DSKILLMD_BUILD_BENCHMARKS=ON | { grep -E '^-- skillmd' || true; }
cmake --build build/gcc -j2
(cd build/gcc && ctest --output-on-failure -j2)

# The sanitizer builds: -O0 and line tables only (what a sanitizer's report needs); clang
# instruments at -O0 in a third of the time it takes at -O1, and the suites are bound by
# their servers and files more than by the code. Neither compiles the headers alone nor
# compile-once again.
sanitized=(-DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O0 -gline-tables-only -DNDEBUG"
  -DCMAKE_CXX_COMPILER=clang++-14 -DSKILLMD_BUILD_TESTS=ON -DSKILLMD_CHECK_HEADERS=OFF -DSKILLMD_CHECK_COMPILE_ONCE=OFF)

echo "== clang 14 + ASan + UBSan"
cmake -S . -B build/clang-asan -G Ninja "${sanitized[@]}" -DSKILLMD_SANITIZE=address,undefined >/dev/null
cmake --build build/clang-asan -j2
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
(cd build/clang-asan && ctest --output-on-failure -j2 -LE install)

echo "== clang 14 + TSan (threaded suites)"
cmake -S . -B build/clang-tsan -G Ninja "${sanitized[@]}" -DSKILLMD_SANITIZE=thread -DSKILLMD_BUILD_EXAMPLES=OFF \
  -DSKILLMD_TESTS_THREADED_ONLY=ON >/dev/null
cmake --build build/clang-tsan -j2
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1
(cd build/clang-tsan && ctest --output-on-failure -L threaded)
