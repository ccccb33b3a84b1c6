#!/usr/bin/env bash
# The Debian package: cpack -G DEB in a built skillmd, its contents and dependencies, then
# unpacked with dpkg-deb -x into a temporary folder and used from there: find_package,
# pkg-config, and its bin/skillmd.
# Usage: deb.sh <cmake> <source> <work> <generator> <c++> <skillmd build dir>
here=$(cd "$(dirname "$0")" && pwd)
source "$here/common.sh"
build=$1
cpack=$(dirname "$cmake")/cpack

step "cpack -G DEB"
"$cpack" -G DEB --config "$build/CPackConfig.cmake" -B "$work/package" >"$work/cpack.log" 2>&1 || { cat "$work/cpack.log"; fail "cpack"; }
deb=$(ls "$work"/package/skillmd_*.deb)
echo "   $(basename "$deb")"
dpkg-deb --info "$deb" >"$work/info.txt"
dpkg-deb --contents "$deb" >"$work/contents.txt"
grep -E "^ (Package|Version|Architecture|Depends|Recommends|Section):" "$work/info.txt" | sed 's/^/  /'
grep -q "^ Depends:.*libboost[0-9.]*-dev.*libicu-dev" "$work/info.txt" || fail "Depends lacks Boost and ICU"
grep -q "^ Depends:.*libsqlite3-0" "$work/info.txt" || fail "Depends lacks bin/skillmd's shared libraries (dpkg-shlibdeps)"
for f in usr/bin/skillmd usr/include/skillmd/skillmd.hpp usr/lib/cmake/skillmd/skillmd-config.cmake \
         usr/share/pkgconfig/skillmd.pc usr/share/doc/skillmd/LICENSE usr/lib/libskillmd.a; do
  grep -q " \./$f\$" "$work/contents.txt" || fail "$f is not in the package"
done

step "dpkg-deb -x into $work/root"
dpkg-deb -x "$deb" "$work/root"
root=$work/root/usr
"$root/bin/skillmd" --help >/dev/null 2>&1 || "$root/bin/skillmd" help >/dev/null 2>&1 || fail "usr/bin/skillmd does not run"
step "find_package(skillmd COMPONENTS sqlite compiled) from the unpacked tree"
consume "$work/find_package" -DSKILLMD_CONSUME=find_package -DCMAKE_PREFIX_PATH="$root" \
  "-DSKILLMD_COMPONENTS=sqlite;compiled" -DSKILLMD_EXPECT_PARTS=sqlite
step "pkg-config from the unpacked tree"
export PKG_CONFIG_PATH=$root/share/pkgconfig
# shellcheck disable=SC2046
plain_compile "$work/pkg_config" $(pkg-config --cflags --libs skillmd)
echo "ok"
