#!/usr/bin/env bash
# `cmake --install` of a built skillmd into a temporary prefix, then consumers of it:
# find_package(skillmd) (with COMPONENTS, with skillmd::compiled, one program with the
# whole library), add_subdirectory of the sources, pkg-config, a plain compiler line.
# Usage: install.sh <cmake> <source> <work> <generator> <c++> <skillmd build dir>
here=$(cd "$(dirname "$0")" && pwd)
source "$here/common.sh"
build=$1
prefix=$work/prefix

step "cmake --install $build --prefix $prefix"
"$cmake" --install "$build" --prefix "$prefix" >"$work/install.log" 2>&1 || { cat "$work/install.log"; fail "install"; }
for f in include/skillmd/skillmd.hpp include/skillmd/model.hpp lib/cmake/skillmd/skillmd-config.cmake \
         lib/cmake/skillmd/skillmd-config-version.cmake share/pkgconfig/skillmd.pc share/pkgconfig/skillmd-sqlite.pc \
         share/pkgconfig/skillmd-net.pc share/pkgconfig/skillmd-packages.pc share/doc/skillmd/LICENSE lib/libskillmd.a bin/skillmd; do
  [ -f "$prefix/$f" ] || fail "$f is not installed (is $build built?)"
done
"$prefix/bin/skillmd" --help >/dev/null 2>&1 || "$prefix/bin/skillmd" help >/dev/null 2>&1 || fail "bin/skillmd does not run"

step "find_package(skillmd): skillmd::skillmd, no optional part; one program with the whole library"
consume "$work/find_package" -DSKILLMD_CONSUME=find_package -DCMAKE_PREFIX_PATH="$prefix" -DSKILLMD_FULL=ON
step "find_package(skillmd COMPONENTS sqlite postgres mcp net compiled)"
consume "$work/components" -DSKILLMD_CONSUME=find_package -DCMAKE_PREFIX_PATH="$prefix" \
  "-DSKILLMD_COMPONENTS=sqlite;postgres;mcp;net;compiled" "-DSKILLMD_EXPECT_PARTS=sqlite;postgres;mcp;net"
step "find_package(skillmd COMPONENTS packages): brings mcp and net with it"
consume "$work/packages" -DSKILLMD_CONSUME=find_package -DCMAKE_PREFIX_PATH="$prefix" \
  "-DSKILLMD_COMPONENTS=packages" "-DSKILLMD_EXPECT_PARTS=mcp;net;packages"
consume_fails "$work/typo" "missing components: sqlit \\(no such component" \
  -DSKILLMD_CONSUME=find_package -DCMAKE_PREFIX_PATH="$prefix" -DSKILLMD_COMPONENTS=sqlit

step "add_subdirectory(skillmd): no optional part unless asked for"
"$cmake" -S "$consumer" -B "$work/subdir_default" -G "$generator" -DCMAKE_CXX_COMPILER="$cxx" \
  -DSKILLMD_CONSUME=subdirectory -DSKILLMD_SOURCE="$src" >"$work/subdir_default.log" 2>&1 ||
  { cat "$work/subdir_default.log"; fail "add_subdirectory with the defaults"; }
grep -q "skillmd parts on: none; off: sqlite (SKILLMD_WITH_SQLITE=OFF)" "$work/subdir_default.log" ||
  { cat "$work/subdir_default.log"; fail "as a subproject the parts are not off by default"; }
consume "$work/subdir" -DSKILLMD_CONSUME=subdirectory -DSKILLMD_SOURCE="$src" \
  -DSKILLMD_WITH_SQLITE=ON -DSKILLMD_WITH_POSTGRES=ON -DSKILLMD_WITH_MCP=ON -DSKILLMD_WITH_NET=ON -DSKILLMD_WITH_PACKAGES=ON \
  "-DSKILLMD_EXPECT_PARTS=sqlite;postgres;mcp;net;packages"

step "pkg-config"
export PKG_CONFIG_PATH=$prefix/share/pkgconfig
echo "   pkg-config --cflags --libs skillmd: $(pkg-config --cflags --libs skillmd)"
# shellcheck disable=SC2046
plain_compile "$work/pkg_config" $(pkg-config --cflags --libs skillmd)
# shellcheck disable=SC2046
"$cxx" -std=c++20 "$consumer/parts.cpp" -o "$work/pkg_config_parts" \
  $(pkg-config --cflags --libs skillmd-sqlite skillmd-postgres skillmd-mcp) || fail "pkg-config skillmd-sqlite skillmd-postgres skillmd-mcp"
"$work/pkg_config_parts" || fail "pkg_config_parts"
# shellcheck disable=SC2046
"$cxx" -std=c++20 "$consumer/net.cpp" -o "$work/pkg_config_net" $(pkg-config --cflags --libs skillmd-net) ||
  fail "pkg-config skillmd-net"
"$work/pkg_config_net" || fail "pkg_config_net"
# shellcheck disable=SC2046
"$cxx" -std=c++20 "$consumer/packages.cpp" -o "$work/pkg_config_packages" $(pkg-config --cflags --libs skillmd skillmd-packages) ||
  fail "pkg-config skillmd-packages"
"$work/pkg_config_packages" || fail "pkg_config_packages"

step "a plain compiler line"
plain_compile "$work/plain" -I"$prefix/include" -lboost_filesystem -lboost_json -licui18n -licuuc
"$cxx" -std=c++20 -DSKILLMD_SEPARATE_COMPILATION -I"$prefix/include" "$consumer/compiled.cpp" -o "$work/plain_compiled" \
  -L"$prefix/lib" -lskillmd -lboost_filesystem -lboost_json -licui18n -licuuc || fail "compile-once with a plain compiler line"
"$work/plain_compiled" || fail "plain_compiled"
echo "ok"
