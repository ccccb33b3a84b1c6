#!/usr/bin/env bash
# The packages layer against real servers, through the command line:
#   publish -> nginx over TLS (a private CA) -> install -> verify: the files are the published
#   ones; outdated and update after a new version; a one-byte change found by verify;
#   refused without the CA, and for plain http:// to another machine;
#   a bare repository over file:// and over `git daemon` on loopback: install, outdated, update;
#   pack -> install from the package; hostile answers from nginx: a redirect loop, a wrong
#   digest, a trickle, nothing installed each time.
# Usage: round_trip.sh <skillmd>
set -u
skillmd=$1
# shellcheck source=../support/nginx_tls.sh
source "$(cd "$(dirname "$0")" && pwd)/../support/nginx_tls.sh"
work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  wait 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
failures=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; failures=$((failures + 1)); }
same_tree() { diff -r "$1" "$2" >/dev/null 2>&1; }

for tool in nginx openssl git; do
  command -v "$tool" >/dev/null 2>&1 || { echo "FAIL $tool is needed (scripts/install-deps.sh installs it)"; exit 1; }
done

# Two skills: one that is one file, one with bundled files.
mkdir -p "$work/skills/solo" "$work/skills/bundle/scripts" "$work/skills/bundle/docs"
printf -- '---\nname: solo\ndescription: A skill that is one file.\n---\nSolo body.\n' >"$work/skills/solo/SKILL.md"
printf -- '---\nname: bundle\ndescription: A skill with files.\n---\nRun scripts/go.sh.\n' >"$work/skills/bundle/SKILL.md"
printf '#!/bin/sh\necho go\n' >"$work/skills/bundle/scripts/go.sh"
chmod +x "$work/skills/bundle/scripts/go.sh"
printf 'notes\n' >"$work/skills/bundle/docs/notes.md"

# A private CA and nginx serving the site over TLS on loopback.
t=$work/tls
mkdir -p "$work/site"
tls_ca "$t"
nginx_tls "$work/nginx" "$t" "    types { application/json json; application/gzip gz; text/markdown md; application/zip zip; }
    root $work/site;
    location = /loop/a { return 302 /loop/b; }
    location = /loop/b { return 302 /loop/a; }
    location /slow/ { limit_rate 1; }" ||
  { echo "FAIL nginx did not start: $(cat "$work/nginx/start.log" "$work/nginx/logs/error.log" 2>/dev/null)"; exit 1; }
pids+=("$nginx_pid")
port=$nginx_port
base=https://127.0.0.1:$port

# publish -> serve -> install -> verify.
"$skillmd" publish "$work/skills" --out "$work/site" --base-url "$base" --version 1.0.0 >"$work/publish.out" 2>&1 &&
  grep -q "published bundle" "$work/publish.out" && ok "publish writes the index" || bad "publish: $(cat "$work/publish.out")"
# The artifact is what `skillmd digest` says, GNU tar reads it back, and its gzip header has no time.
arc=$work/site/.well-known/agent-skills/v1.0.0/bundle.tar.gz
mkdir -p "$work/untar"
"$skillmd" digest "$work/skills/bundle" >"$work/digest.out" 2>&1
grep -q "artifact sha256:$(sha256sum "$arc" | cut -c1-64)  archive" "$work/digest.out" && tar -xzf "$arc" -C "$work/untar" &&
  same_tree "$work/skills/bundle" "$work/untar" && [ "$(od -A n -t x1 -j 4 -N 4 "$arc" | tr -d ' ')" = 00000000 ] &&
  ok "the published archive is the digest's artifact, and tar reads it" || bad "the artifact: $(cat "$work/digest.out")"
"$skillmd" install "$base" --into "$work/no-ca" >"$work/no-ca.out" 2>&1
[ $? -eq 1 ] && grep -q "unable to get local issuer certificate" "$work/no-ca.out" && [ ! -e "$work/no-ca/solo" ] &&
  ok "without the CA the certificate is refused, nothing installed" || bad "without the CA: $(cat "$work/no-ca.out")"
"$skillmd" install "$base" --into "$work/into" --ca-file "$t/ca.pem" >"$work/install.out" 2>&1 &&
  grep -q "installed bundle" "$work/install.out" && grep -q "installed solo" "$work/install.out" &&
  ok "install from the published site over TLS" || bad "install: $(cat "$work/install.out")"
same_tree "$work/skills/bundle" "$work/into/bundle" && same_tree "$work/skills/solo" "$work/into/solo" &&
  [ -x "$work/into/bundle/scripts/go.sh" ] && ok "the installed files are the published ones" ||
  bad "the installed files differ: $(diff -r "$work/skills" "$work/into" 2>&1 | head -5)"
"$skillmd" verify --into "$work/into" >"$work/verify.out" 2>&1 && grep -q "verified bundle" "$work/verify.out" &&
  ok "verify: every file matches" || bad "verify: $(cat "$work/verify.out")"
"$skillmd" list --installed "$work/into" --format json >"$work/list.out" 2>&1 &&
  grep -q '"name":"bundle".*"verified":true' "$work/list.out" && grep -q '"installed":"1.0.0"' "$work/list.out" &&
  ok "list --installed names the source and version" || bad "list --installed: $(cat "$work/list.out")"
"$skillmd" list --dir "project=$work/into" --format json >"$work/tier.out" 2>/dev/null &&
  grep -q '"name":"bundle"' "$work/tier.out" && ok "the install folder is a tier of a preset" ||
  bad "as a tier: $(cat "$work/tier.out")"
"$skillmd" explain solo --dir "project=$work/into" >"$work/explain.out" 2>&1 &&
  grep -q "installed from $base/.well-known/agent-skills/index.json (1.0.0); its files match skills-lock.json" "$work/explain.out" &&
  ok "explain says where an installed skill came from" || bad "explain: $(cat "$work/explain.out")"

# A one-byte change in each file is found.
for f in bundle/SKILL.md bundle/scripts/go.sh bundle/docs/notes.md solo/SKILL.md; do
  cp "$work/into/$f" "$work/saved"
  printf 'X' | dd of="$work/into/$f" bs=1 seek=3 conv=notrunc 2>/dev/null
  "$skillmd" verify --into "$work/into" >"$work/v.out" 2>&1
  [ $? -eq 1 ] && grep -q "^changed $f$" "$work/v.out" && ok "verify finds one byte changed in $f" || bad "verify after changing $f: $(cat "$work/v.out")"
  cp "$work/saved" "$work/into/$f"
done

# A new version upstream: outdated says so and touches nothing; update applies it.
printf 'more notes\n' >>"$work/skills/bundle/docs/notes.md"
"$skillmd" publish "$work/skills" --out "$work/site" --base-url "$base" --version 1.1.0 >/dev/null 2>&1 || bad "publish 1.1.0"
"$skillmd" outdated --into "$work/into" --ca-file "$t/ca.pem" >"$work/outdated.out" 2>&1 &&
  grep -q "^bundle	outdated	1.0.0	1.1.0" "$work/outdated.out" && ok "outdated sees the new version" ||
  bad "outdated: $(cat "$work/outdated.out")"
"$skillmd" verify --into "$work/into" >/dev/null 2>&1 && ok "outdated touched nothing" || bad "outdated changed the folder"
"$skillmd" update --into "$work/into" --ca-file "$t/ca.pem" >"$work/update.out" 2>&1 && grep -q "updated bundle" "$work/update.out" &&
  same_tree "$work/skills/bundle" "$work/into/bundle" && ok "update installs the new version" || bad "update: $(cat "$work/update.out")"

# Hostile answers through nginx: nothing installed each time.
mkdir -p "$work/site/bad/.well-known/agent-skills" "$work/site/slow/.well-known/agent-skills"
hostile() { # hostile NAME URL-PATH EXPECTED INDEX-JSON
  local name=$1 path=$2 expect=$3
  printf '%s' "$4" >"$work/site/$path"
  rm -rf "$work/h"
  "$skillmd" install "$base/${path}" --into "$work/h" --ca-file "$t/ca.pem" --timeout 3 >"$work/h.out" 2>&1
  [ $? -eq 1 ] && grep -q "$expect" "$work/h.out" && [ ! -e "$work/h/solo" ] && ok "$name: refused, nothing installed" ||
    bad "$name: $(cat "$work/h.out")"
}
schema=https://schemas.agentskills.io/discovery/0.2.0/schema.json
solo_url="$base/.well-known/agent-skills/v1.0.0/solo/SKILL.md"
hostile "a wrong digest" bad/.well-known/agent-skills/index.json "not the index's" \
  "{\"\$schema\":\"$schema\",\"skills\":[{\"name\":\"solo\",\"type\":\"skill-md\",\"description\":\"d\",\"url\":\"$solo_url\",\"digest\":\"sha256:$(printf '%064d' 0)\"}]}"
hostile "a redirect loop" bad/.well-known/agent-skills/index.json "redirect loop" \
  "{\"\$schema\":\"$schema\",\"skills\":[{\"name\":\"solo\",\"type\":\"skill-md\",\"description\":\"d\",\"url\":\"/loop/a\",\"digest\":\"sha256:$(printf '%064d' 0)\"}]}"
hostile "another schema" bad/.well-known/agent-skills/index.json "discovery schema 0.2.0" '{"$schema":"x","skills":[]}'
hostile "an https index listing plain http" bad/.well-known/agent-skills/index.json "which is not https://" \
  "{\"\$schema\":\"$schema\",\"skills\":[{\"name\":\"solo\",\"type\":\"skill-md\",\"description\":\"d\",\"url\":\"http://127.0.0.1:$port/x\",\"digest\":\"sha256:$(printf '%064d' 0)\"}]}"
cp "$work/site/.well-known/agent-skills/v1.0.0/solo/SKILL.md" "$work/site/slow/SKILL.md"
hostile "a server that trickles" slow/.well-known/agent-skills/index.json "within 3000 ms" \
  "{\"\$schema\":\"$schema\",\"skills\":[{\"name\":\"solo\",\"type\":\"skill-md\",\"description\":\"d\",\"url\":\"/slow/SKILL.md\",\"digest\":\"sha256:$(sha256sum "$work/site/slow/SKILL.md" | cut -c1-64)\"}]}"
"$skillmd" install "http://127.0.0.1:9/x/SKILL.md" --into "$work/h2" >"$work/h2.out" 2>&1
[ $? -eq 1 ] && grep -q "refused without --allow-http" "$work/h2.out" && ok "plain http:// needs --allow-http" ||
  bad "plain http without --allow-http: $(cat "$work/h2.out")"
"$skillmd" install "http://example.com/x/SKILL.md" --into "$work/h2" --allow-http >"$work/h2.out" 2>&1
[ $? -eq 1 ] && grep -q "reaches only this machine" "$work/h2.out" && ok "plain http:// to another machine is refused, --allow-http or not" ||
  bad "plain http to another machine: $(cat "$work/h2.out")"

# git: a bare repository over file:// and over git daemon on loopback.
g=$work/git
mkdir -p "$g/work"
cp -r "$work/skills" "$g/work/skills"
(cd "$g/work" && git init -q -b main && git add -A && git -c user.name=t -c user.email=t@t commit -qm one && git tag v1) || bad "git init"
git clone -q --bare "$g/work" "$g/served/skills.git" || bad "git clone --bare"
touch "$g/served/skills.git/git-daemon-export-ok"
"$skillmd" install "git+file://$g/served/skills.git#v1:skills" --into "$work/from-file" >"$work/git-file.out" 2>&1 &&
  same_tree "$work/skills/bundle" "$work/from-file/bundle" && same_tree "$work/skills/solo" "$work/from-file/solo" &&
  ok "install from git over file://" || bad "git over file://: $(cat "$work/git-file.out")"
gport=""
for candidate in $(shuf -i 20000-60000 -n 5); do
  git daemon --reuseaddr --listen=127.0.0.1 --port="$candidate" --base-path="$g/served" "$g/served" 2>"$work/daemon.log" &
  daemon_pid=$!
  sleep 0.5
  if kill -0 "$daemon_pid" 2>/dev/null; then
    pids+=("$daemon_pid")
    gport=$candidate
    break
  fi
done
if [ -n "$gport" ]; then
  url=git://127.0.0.1:$gport/skills.git
  "$skillmd" install "$url#main:skills" --into "$work/no-flag" >"$work/no-flag.out" 2>&1
  [ $? -eq 1 ] && grep -q "only with --allow-http" "$work/no-flag.out" && ok "git:// needs --allow-http" ||
    bad "git:// without --allow-http: $(cat "$work/no-flag.out")"
  "$skillmd" install "$url#main:skills" --into "$work/from-daemon" --allow-http >"$work/daemon.out" 2>&1 &&
    same_tree "$work/skills/bundle" "$work/from-daemon/bundle" && same_tree "$work/skills/solo" "$work/from-daemon/solo" &&
    ok "install from git daemon on loopback" || bad "git daemon: $(cat "$work/daemon.out")"
  (cd "$g/work" && printf 'v2\n' >>skills/solo/SKILL.md && git -c user.name=t -c user.email=t@t commit -qam two &&
    git push -q "$g/served/skills.git" main) || bad "git push"
  "$skillmd" outdated --into "$work/from-daemon" --allow-http >"$work/g-outdated.out" 2>&1 && grep -q "^solo	outdated" "$work/g-outdated.out" &&
    ok "outdated asks git daemon for the new commit" || bad "git outdated: $(cat "$work/g-outdated.out")"
  "$skillmd" update solo --into "$work/from-daemon" --allow-http >"$work/g-update.out" 2>&1 && grep -q "updated solo" "$work/g-update.out" &&
    same_tree "$g/work/skills/solo" "$work/from-daemon/solo" && ok "update follows the branch" || bad "git update: $(cat "$work/g-update.out")"
else
  bad "git daemon did not start: $(cat "$work/daemon.log")"
fi

# pack -> install from the package.
"$skillmd" pack "$work/skills" --out "$work/tools.zip" --name tools >"$work/pack.out" 2>&1 &&
  "$skillmd" install "$work/tools.zip" --into "$work/from-pack" >"$work/from-pack.out" 2>&1 &&
  same_tree "$work/skills/bundle" "$work/from-pack/bundle" && ok "pack, then install from the Agent Plugins package" ||
  bad "pack: $(cat "$work/pack.out" "$work/from-pack.out")"
"$skillmd" remove solo bundle --into "$work/from-pack" >/dev/null 2>&1 && [ ! -e "$work/from-pack/solo" ] &&
  ok "remove" || bad "remove"

[ "$failures" -eq 0 ] && echo "all passed" || { echo "$failures failed"; exit 1; }
