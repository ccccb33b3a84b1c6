#!/usr/bin/env bash
# Installs the Debian 12 packages skillmd needs to build, test, fuzz and benchmark.
# Only asks apt for what is missing, so a prepared machine pays nothing.
set -euo pipefail

packages=(
  g++ cmake make ninja-build pkg-config
  clang-14 libclang-rt-14-dev
  libboost1.81-dev libboost-filesystem1.81-dev libboost-test1.81-dev
  libboost-json1.81-dev libboost-locale1.81-dev
  libyaml-cpp-dev libfyaml-dev libbenchmark-dev libsqlite3-dev libicu-dev libssl-dev libarchive-dev
  libpq-dev postgresql-15 pgbouncer
  strace git dpkg-dev nginx-light
)
# libssl-dev: skills over MCP (skillmd::mcp) hash with OpenSSL's libcrypto.
# libarchive-dev: installing and publishing skills (skillmd::packages) reads and writes tar.gz and zip.
# libpq-dev: the fleet tier (skillmd::postgres); postgresql-15: the throw-away test clusters (a primary,
# a streaming standby); pgbouncer: the transaction pooler the fleet tests put in front of them.
# dpkg-dev: dpkg-shlibdeps, which names bin/skillmd's shared libraries in the .deb
# (cpack -G DEB, tested by tests/install/deb.sh).
# nginx-light: the TLS front (with a private CA) of the remote fleet test, tests/mcp/remote_fleet.sh,
# and the web server of the packages round trip, tests/packages/round_trip.sh.
# git: installs from repositories (skillmd::packages runs the git program; tests/packages/ serve
# repositories with git daemon); the tests against captures of the real agents recreate their tree with the captures' make_tree.sh,
# which makes the project folder a git repository.
# Node.js runs the reference script of Claude Code's line parser in the tests; any node on PATH will do.
command -v node >/dev/null 2>&1 || packages+=(nodejs)
# npm installs the official MCP TypeScript SDK the MCP tests drive skillmd with.
command -v npm >/dev/null 2>&1 || packages+=(npm)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The MCP tests' client and server library, at the version package-lock.json pins.
here=$(cd "$(dirname "$0")/.." && pwd)
lock="$here/tests/mcp/package-lock.json" installed="$here/tests/mcp/node_modules/.package-lock.json"
if [ ! -f "$installed" ] || [ "$installed" -ot "$lock" ]; then
  npm ci --prefix "$here/tests/mcp" --no-audit --no-fund --loglevel=error
fi
