#!/usr/bin/env bash
# A remote fleet, as docs/mcp.md shows it: one `skillmd mcp --http` with a token in front
# of a PostgreSQL namespace (the fleet preset), two agents (examples/remote_agent.cpp)
# reading it over HTTP, and a write through `skillmd db` that both see. Then the same
# server behind nginx with TLS and a private CA: the certificate is checked against the
# CA and the host; without the CA, or by a name the certificate does not carry, refused.
# usage: remote_fleet.sh PATH/TO/skillmd PATH/TO/remote_agent
set -uo pipefail
skillmd=$1 agent=$2
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../support/nginx_tls.sh
source "$here/../support/nginx_tls.sh"
work=$(mktemp -d)
chmod 755 "$work"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  [ -f "$work/nginx/nginx.pid" ] && kill "$(cat "$work/nginx/nginx.pid")" 2>/dev/null
  bash "$here/../postgres/cluster.sh" stop "$work/pg" >/dev/null 2>&1
  rm -rf "$work"
}
trap cleanup EXIT
fail=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fail=1; }
# waits up to 10 s for FILE to hold a line matching REGEX
wait_for() { for _ in $(seq 1 100); do grep -Eq "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done; return 1; }

bash "$here/../postgres/cluster.sh" start "$work/pg" >"$work/pg.log" 2>&1 || { cat "$work/pg.log"; echo "FAIL cannot start PostgreSQL"; exit 1; }
db="postgresql:///skillmd?host=$work/pg&user=skillmd_admin"
mkdir -p "$work/files" "$work/cache"
dbcmd() { "$skillmd" db "$@" --db "$db" --namespace team --dir user="$work/files" --dir cache="$work/cache/snap.json"; }
dbcmd create --name deploy-check --description "Checks a deployment" --triggers deploy --content "Run the checks." >/dev/null ||
  bad "db create deploy-check"

# The server: the fleet preset over the namespace, on a free port, with a token.
printf 'fleet-token-1\n' >"$work/token"
"$skillmd" mcp --preset fleet --db "$db" --namespace team --dir user="$work/files" --dir cache="$work/cache/server.json" \
  --http 127.0.0.1:0 --token-file "$work/token" 2>"$work/server.log" &
pids+=($!)
wait_for "$work/server.log" "http://127\.0\.0\.1:[0-9]+/mcp" || { cat "$work/server.log"; bad "the server did not start"; exit 1; }
url=$(grep -Eo "http://127\.0\.0\.1:[0-9]+/mcp" "$work/server.log" | head -n 1)
grep -q "not served" "$work/server.log" && bad "the server leaves skills out: $(grep 'not served' "$work/server.log")"

# Two agents watch it; a write reaches both.
for n in 1 2; do
  "$agent" "$url" --token-file "$work/token" --watch 20 >"$work/agent$n.out" 2>"$work/agent$n.err" &
  pids+=($!)
done
for n in 1 2; do
  wait_for "$work/agent$n.out" "^team:deploy-check: Checks a deployment$" && ok "agent $n lists the namespace's skill" ||
    bad "agent $n: $(cat "$work/agent$n.out" "$work/agent$n.err")"
done
dbcmd create --name rollback --description "Rolls a release back" --triggers rollback --content "Undo it." >/dev/null ||
  bad "db create rollback"
for n in 1 2; do
  wait_for "$work/agent$n.out" "^team:rollback: Rolls a release back$" && ok "agent $n sees the new skill" ||
    bad "agent $n did not see the write: $(cat "$work/agent$n.out" "$work/agent$n.err")"
done
# The body arrives whole and checked against its digest.
printf 'wrong\n' >"$work/wrong"
"$agent" "$url" --token-file "$work/wrong" >"$work/wrong.out" 2>&1
[ $? -eq 1 ] && grep -q "HTTP 401" "$work/wrong.out" && ok "a wrong token is refused" || bad "a wrong token: $(cat "$work/wrong.out")"
"$agent" "$url" >"$work/none.out" 2>&1
[ $? -eq 1 ] && grep -q "HTTP 401" "$work/none.out" && ok "no token is refused" || bad "no token: $(cat "$work/none.out")"

# TLS: nginx in front with a certificate from a private CA, for 127.0.0.1 and localhost.
if command -v nginx >/dev/null 2>&1 && command -v openssl >/dev/null 2>&1; then
  t=$work/tls
  tls_ca "$t"
  upstream=${url#http://}
  upstream=${upstream%/mcp}
  tls_port=""
  if nginx_tls "$work/nginx" "$t" "    location /mcp { proxy_pass http://$upstream; proxy_http_version 1.1; proxy_set_header Host $upstream; }"; then
    pids+=("$nginx_pid")
    tls_port=$nginx_port
  fi
  if [ -z "$tls_port" ]; then
    bad "nginx did not start: $(cat "$work/nginx/start.log" "$work/nginx/logs/error.log" 2>/dev/null)"
  else
    "$agent" "https://127.0.0.1:$tls_port/mcp" --token-file "$work/token" --ca-file "$t/ca.pem" >"$work/tls.out" 2>&1
    grep -q "^team:rollback: Rolls a release back$" "$work/tls.out" && ok "over https, the CA given" || bad "over https: $(cat "$work/tls.out")"
    "$agent" "https://localhost:$tls_port/mcp" --token-file "$work/token" --ca-file "$t/ca.pem" >"$work/tls-name.out" 2>&1
    grep -q "^team:deploy-check:" "$work/tls-name.out" && ok "over https by the name localhost" || bad "by name: $(cat "$work/tls-name.out")"
    "$agent" "https://127.0.0.1:$tls_port/mcp" --token-file "$work/token" >"$work/untrusted.out" 2>&1
    [ $? -eq 1 ] && grep -q "certificate of 127.0.0.1:$tls_port is refused: unable to get local issuer certificate" "$work/untrusted.out" &&
      ok "a certificate from an unknown CA is refused" || bad "unknown CA: $(cat "$work/untrusted.out")"
    # The same certificate for another name: a host mismatch.
    printf 'subjectAltName=DNS:other.test\n' >"$t/ext.cnf"
    openssl x509 -req -in "$t/server.csr" -CA "$t/ca.pem" -CAkey "$t/ca.key" -CAcreateserial -out "$t/server.pem" -days 2 \
      -extfile "$t/ext.cnf" 2>/dev/null
    kill "$nginx_pid" 2>/dev/null
    wait "$nginx_pid" 2>/dev/null
    nginx -p "$work/nginx" -c "$work/nginx/nginx.conf" 2>>"$work/nginx/start.log" &
    pids+=($!)
    sleep 0.5
    "$agent" "https://127.0.0.1:$tls_port/mcp" --token-file "$work/token" --ca-file "$t/ca.pem" >"$work/mismatch.out" 2>&1
    [ $? -eq 1 ] && grep -q "is refused: IP address mismatch" "$work/mismatch.out" && ok "a certificate for another host is refused" ||
      bad "host mismatch: $(cat "$work/mismatch.out")"
  fi
else
  bad "nginx and openssl are needed for the TLS half (scripts/install-deps.sh installs them)"
fi
exit $fail
