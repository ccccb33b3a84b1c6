#!/usr/bin/env bash
# Compile times of three typical translation units, header-only and with compile-once
# (SKILLMD_SEPARATE_COMPILATION: the heavy code compiled once, in <skillmd/src.hpp>),
# beside the cost of including Spirit X3 alone. Each figure is the median wall time of
# RUNS compilations (default 5). Prints a Markdown table.
#
#   bash benchmarks/compile_times.sh            # g++ -O2
#   CXX=clang++-14 RUNS=3 bash benchmarks/compile_times.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cxx=${CXX:-g++}
runs=${RUNS:-5}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# median wall seconds of `runs` runs of the command
median() {
  local times=()
  for _ in $(seq "$runs"); do
    local t0 t1
    t0=$(date +%s.%N)
    "$@" >/dev/null || { echo "compile_times.sh: failed: $*" >&2; exit 1; } # never time a failure
    t1=$(date +%s.%N)
    times+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}')")
  done
  printf '%s\n' "${times[@]}" | sort -g | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.2f", m}'
}

flags=(-std=c++20 -I"$root/include")
once=(-DSKILLMD_SEPARATE_COMPILATION)
compile() { "$cxx" "${flags[@]}" -O2 -c "$@" -o "$out/tu.o"; }
syntax() { "$cxx" "${flags[@]}" -fsyntax-only "$@"; }

x3=$(median compile "$root/benchmarks/compile/x3_include_only.cpp")
readme_h=$(median compile "$root/examples/readme_example.cpp")
readme_o=$(median compile "${once[@]}" "$root/examples/readme_example.cpp")
reg_h=$(median compile "$root/benchmarks/compile/registry_only.cpp")
reg_o=$(median compile "${once[@]}" "$root/benchmarks/compile/registry_only.cpp")
reg_sh=$(median syntax "$root/benchmarks/compile/registry_only.cpp")
reg_so=$(median syntax "${once[@]}" "$root/benchmarks/compile/registry_only.cpp")
parse_h=$(median compile "$root/benchmarks/compile/parsing.cpp")
parse_o=$(median compile "${once[@]}" "$root/benchmarks/compile/parsing.cpp")
src=$(median "$cxx" "${flags[@]}" "${once[@]}" -O2 -c -x c++ "$root/include/skillmd/src.hpp" -o "$out/src.o")

ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
echo "compiler: $("$cxx" --version | head -1); $runs runs each, median wall seconds; $(nproc) cores"
echo
echo "| translation unit | header-only, -O2 | compile-once, -O2 | -fsyntax-only, header-only | -fsyntax-only, compile-once |"
echo "| --- | --- | --- | --- | --- |"
echo "| \`#include <boost/spirit/home/x3.hpp>\` alone (yardstick) | $x3 s | — | — | — |"
echo "| README example (\`examples/readme_example.cpp\`) | $readme_h s | $readme_o s | — | — |"
echo "| registry only (\`benchmarks/compile/registry_only.cpp\`) | $reg_h s | $reg_o s | $reg_sh s | $reg_so s |"
echo "| parsing (\`benchmarks/compile/parsing.cpp\`) | $parse_h s | $parse_o s | — | — |"
echo "| \`<skillmd/src.hpp>\`, compiled once per program | — | $src s | — | — |"
echo
echo "README example, compile-once / X3 include alone: $(ratio "$readme_o" "$x3")x (target <= 2x)"
echo "README example, header-only / X3 include alone: $(ratio "$readme_h" "$x3")x"
echo "registry-only TU, -fsyntax-only with compile-once: $reg_so s (target <= 1.5 s)"
