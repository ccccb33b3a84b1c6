#!/usr/bin/env bash
# Runs the incremental-refresh property test (tests/storage/registry.cpp,
# random_changes_in_every_layout_refresh_to_what_a_first_load_gives) with many more random
# change sequences than CI affords: SEQUENCES per layout (default 1000), from SEED (default:
# the time). Uses the gcc build of scripts/test.sh, or builds the test binary there.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build="$here/build/gcc"
if [ ! -x "$build/tests/skillmd_tests" ]; then
  bash "$here/scripts/install-deps.sh"
  cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=g++ -DSKILLMD_BUILD_TESTS=ON >/dev/null
  cmake --build "$build" --target skillmd_tests -j2
fi
export SKILLMD_PROPERTY_SEQUENCES=${SEQUENCES:-1000}
export SKILLMD_PROPERTY_SEED=${SEED:-$(date +%s)}
echo "property: $SKILLMD_PROPERTY_SEQUENCES sequences per layout, seed $SKILLMD_PROPERTY_SEED"
exec "$build/tests/skillmd_tests" --run_test='registry/random_changes_in_every_layout_refresh_to_what_a_first_load_gives' --log_level=message
