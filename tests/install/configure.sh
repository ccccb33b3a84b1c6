#!/usr/bin/env bash
# Configuring skillmd with an optional dependency hidden: it configures, reports the part
# off and leaves out the tool and the tests; asked for explicitly, it fails naming the option.
# Usage: configure.sh <cmake> <source> <work> <generator> <c++> <case>
# Cases: no-sqlite (also installs right after configuring and uses the result), no-postgres,
# no-openssl, none (all four hidden), explicit-sqlite, explicit-tools.
here=$(cd "$(dirname "$0")" && pwd)
source "$here/common.sh"
case_=$1

# configure <expected exit: ok|fail> <options...>: a fresh build of skillmd; its output in $work/configure.log.
configure() {
  local expect=$1
  shift
  local status=0
  "$cmake" -S "$src" -B "$work/build" -G "$generator" -DCMAKE_CXX_COMPILER="$cxx" "$@" >"$work/configure.log" 2>&1 || status=$?
  if [ "$expect" = ok ] && [ $status -ne 0 ]; then cat "$work/configure.log"; fail "configuring with $* failed"; fi
  if [ "$expect" = fail ] && [ $status -eq 0 ]; then cat "$work/configure.log"; fail "configuring with $* succeeded"; fi
  grep -E "skillmd parts on|skillmd: |SKILLMD_" "$work/configure.log" | sed 's/^/   /' || true
}
# expect_log <regex>: the configure output says it (CMake wraps messages: lines joined first).
expect_log() {
  tr -s ' \n' ' ' <"$work/configure.log" | grep -Eq "$1" || { cat "$work/configure.log"; fail "the configure output does not say /$1/"; }
}
# expect_off <part>...: the status line lists each part as off, and the tool and the tests are left out.
expect_off() {
  local part
  for part in "$@"; do expect_log "skillmd parts on: [^;]*; off: ([^-]*, )?$part \\("; done
  expect_log "skillmd: not building the skillmd tool \\(bin/skillmd\\), missing: .*$1 \\("
  expect_log "skillmd: not building the tests, missing: .*$1 \\("
}
expect_on() {
  local part
  for part in "$@"; do expect_log "skillmd parts on: ([a-z]+ )*$part[ ;]"; done
}

case $case_ in
no-sqlite)
  step "SQLite hidden: configures with sqlite off"
  configure ok -DCMAKE_DISABLE_FIND_PACKAGE_SQLite3=ON
  expect_off sqlite
  expect_on postgres mcp net packages
  step "installed right after configuring (nothing built): headers, CMake package, pkg-config, licence"
  "$cmake" --install "$work/build" --prefix "$work/prefix" >"$work/install.log" 2>&1 || { cat "$work/install.log"; fail "install"; }
  for f in include/skillmd/skillmd.hpp lib/cmake/skillmd/skillmd-config.cmake share/pkgconfig/skillmd.pc \
           share/pkgconfig/skillmd-mcp.pc share/doc/skillmd/LICENSE; do
    [ -f "$work/prefix/$f" ] || fail "$f is not installed"
  done
  for f in lib/libskillmd.a bin/skillmd share/pkgconfig/skillmd-sqlite.pc lib/cmake/skillmd/skillmd-sqlite-targets.cmake; do
    [ ! -e "$work/prefix/$f" ] || fail "$f is installed"
  done
  grep -q "skillmd::compiled not installed" "$work/install.log" || fail "install does not say libskillmd.a was left out"
  step "cpack right after configuring: refused, saying to build first"
  if "$(dirname "$cmake")/cpack" -G DEB --config "$work/build/CPackConfig.cmake" -B "$work/package" >"$work/cpack.log" 2>&1; then
    cat "$work/cpack.log"; fail "cpack made a package of an unbuilt tree"
  fi
  tr -s ' \n' ' ' <"$work/cpack.log" | grep -q "the package would lack lib/libskillmd.a, which is not built: run .cmake --build" ||
    { cat "$work/cpack.log"; fail "cpack failed without saying to build first"; }
  step "find_package(skillmd) from it: builds"
  consume "$work/plain" -DSKILLMD_CONSUME=find_package -DCMAKE_PREFIX_PATH="$work/prefix"
  step "find_package(skillmd COMPONENTS postgres mcp): found; COMPONENTS sqlite, compiled: fail naming them"
  "$cmake" -S "$consumer" -B "$work/pm" -G "$generator" -DCMAKE_CXX_COMPILER="$cxx" -DSKILLMD_CONSUME=find_package \
    -DCMAKE_PREFIX_PATH="$work/prefix" "-DSKILLMD_COMPONENTS=postgres;mcp" "-DSKILLMD_EXPECT_PARTS=postgres;mcp" \
    >"$work/pm.log" 2>&1 || { cat "$work/pm.log"; fail "find_package(skillmd COMPONENTS postgres mcp)"; }
  consume_fails "$work/sqlite" "missing components: sqlite \\(this skillmd was built without it\\)" \
    -DSKILLMD_CONSUME=find_package -DCMAKE_PREFIX_PATH="$work/prefix" -DSKILLMD_COMPONENTS=sqlite
  consume_fails "$work/compiled" "missing components: compiled \\(libskillmd.a was not built" \
    -DSKILLMD_CONSUME=find_package -DCMAKE_PREFIX_PATH="$work/prefix" -DSKILLMD_COMPONENTS=compiled
  consume_fails "$work/typo" "missing components: sqlit \\(no such component" \
    -DSKILLMD_CONSUME=find_package -DCMAKE_PREFIX_PATH="$work/prefix" -DSKILLMD_COMPONENTS=sqlit
  ;;
no-postgres)
  step "libpq hidden: configures with postgres off"
  configure ok -DCMAKE_DISABLE_FIND_PACKAGE_PostgreSQL=ON
  expect_off postgres
  expect_on sqlite mcp net packages
  ;;
no-openssl)
  step "OpenSSL hidden: configures with mcp, net and packages off"
  configure ok -DCMAKE_DISABLE_FIND_PACKAGE_OpenSSL=ON
  expect_off mcp net packages
  expect_on sqlite postgres
  ;;
no-libarchive)
  step "libarchive hidden: configures with packages off, the rest on"
  configure ok -DCMAKE_DISABLE_FIND_PACKAGE_LibArchive=ON
  expect_off packages
  expect_on sqlite postgres mcp net
  ;;
none)
  step "SQLite, libpq, OpenSSL and threads hidden: configures with every part off"
  configure ok -DCMAKE_DISABLE_FIND_PACKAGE_SQLite3=ON -DCMAKE_DISABLE_FIND_PACKAGE_PostgreSQL=ON \
    -DCMAKE_DISABLE_FIND_PACKAGE_OpenSSL=ON -DCMAKE_DISABLE_FIND_PACKAGE_Threads=ON
  expect_off sqlite postgres mcp net packages
  expect_log "skillmd parts on: none;"
  ;;
explicit-sqlite)
  step "-DSKILLMD_WITH_SQLITE=ON with SQLite hidden: fails naming the option"
  configure fail -DSKILLMD_WITH_SQLITE=ON -DCMAKE_DISABLE_FIND_PACKAGE_SQLite3=ON
  expect_log "SKILLMD_WITH_SQLITE=ON but SQLite 3 was not found"
  ;;
explicit-tools)
  step "-DSKILLMD_BUILD_TOOLS=ON with libpq hidden: fails naming the option and the part"
  configure fail -DSKILLMD_BUILD_TOOLS=ON -DCMAKE_DISABLE_FIND_PACKAGE_PostgreSQL=ON
  expect_log "SKILLMD_BUILD_TOOLS=ON but the skillmd tool \\(bin/skillmd\\) cannot be built, missing: postgres"
  ;;
*)
  fail "unknown case $case_"
  ;;
esac
echo "ok"
