# Shared by the install tests: arguments, a scratch folder, the consumer project.
# Usage: <script> <cmake> <source dir> <work dir> <generator> <c++ compiler> [args...]
set -euo pipefail
cmake=$1 src=$2 work=$3 generator=$4 cxx=$5
shift 5
consumer=$src/tests/install/consumer
rm -rf "$work"
mkdir -p "$work"

fail() { echo "FAIL: $*" >&2; exit 1; }
step() { echo "== $*"; }

# consume <build dir> <cmake options...>: configure, build and run the consumer project.
consume() {
  local dir=$1
  shift
  "$cmake" -S "$consumer" -B "$dir" -G "$generator" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=Release "$@" \
    >"$dir.log" 2>&1 || { cat "$dir.log"; fail "configuring the consumer in $dir"; }
  "$cmake" --build "$dir" >>"$dir.log" 2>&1 || { cat "$dir.log"; fail "building the consumer in $dir"; }
  local exe
  for exe in consumer consumer_parts consumer_net consumer_packages consumer_compiled consumer_full; do
    if [ -x "$dir/$exe" ]; then "$dir/$exe" || fail "$dir/$exe"; fi
  done
}

# consume_fails <build dir> <expected message (grep -E)> <cmake options...>: configuring must fail, saying so.
consume_fails() {
  local dir=$1 expect=$2
  shift 2
  if "$cmake" -S "$consumer" -B "$dir" -G "$generator" -DCMAKE_CXX_COMPILER="$cxx" "$@" >"$dir.log" 2>&1; then
    cat "$dir.log"; fail "configuring the consumer in $dir should have failed"
  fi
  tr -s ' \n' ' ' <"$dir.log" | grep -Eq "$expect" || { cat "$dir.log"; fail "configuring $dir failed without saying /$expect/"; }
  echo "   failed as expected: $(tr -s ' \n' ' ' <"$dir.log" | grep -Eo "$expect[^)]*\)")"
}

# plain_compile <output> <flags...>: the consumer's tiny program with a plain compiler line.
plain_compile() {
  local out=$1
  shift
  "$cxx" -std=c++20 "$consumer/tiny.cpp" -o "$out" "$@" || fail "compiling $out: $cxx -std=c++20 tiny.cpp $*"
  "$out" || fail "$out"
}
