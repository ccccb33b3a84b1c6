#!/usr/bin/env bash
# `skillmd mcp --http` from the command line: its flags and their errors, the token, a
# foreign origin and host, a request answered, and a clean stop on SIGTERM. Requests go
# through bash's /dev/tcp, so nothing beyond bash is needed.
# usage: mcp_http.sh PATH/TO/skillmd
set -uo pipefail
skillmd=$1
work=$(mktemp -d)
server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"' EXIT
fail=0
check() { # name, expected, actual
  if [ "$2" = "$3" ]; then echo "ok   $1"; else echo "FAIL $1: expected '$2', got '$3'"; fail=1; fi
}
mkdir -p "$work/skills/hello"
printf -- '---\nname: hello\ndescription: Says hello\n---\nHello.\n' > "$work/skills/hello/SKILL.md"
base=(mcp --preset agent-skills --dir "user=$work/skills" --dir "project=$work/none")

# Flags: what goes with --http, malformed addresses, a token file that cannot be used.
"$skillmd" "${base[@]}" --token-file "$work/t" </dev/null >/dev/null 2>&1
check "--token-file without --http is a usage error" 2 $?
for bad in 127.0.0.1 127.0.0.1:99999 :80 127.0.0.1:x; do
  "$skillmd" "${base[@]}" --http "$bad" </dev/null >/dev/null 2>&1
  check "--http $bad is refused" 2 $?
done
"$skillmd" "${base[@]}" --http 127.0.0.1:0 --token-file "$work/missing" </dev/null >/dev/null 2>&1
check "an unreadable token file" 1 $?
: > "$work/empty"
"$skillmd" "${base[@]}" --http 127.0.0.1:0 --token-file "$work/empty" </dev/null >/dev/null 2>&1
check "an empty token file" 1 $?
printf 'abc \n' > "$work/blank"
"$skillmd" "${base[@]}" --http 127.0.0.1:0 --token-file "$work/blank" </dev/null >/dev/null 2>&1
check "a token with a blank" 1 $?

printf 's3cret-token\n' > "$work/token"
: > "$work/log"
"$skillmd" "${base[@]}" --http 127.0.0.1:0 --token-file "$work/token" --allow-origin https://app.example 2>"$work/log" &
server=$!
port=""
for _ in $(seq 1 100); do
  port=$(sed -n 's|^skillmd: serving MCP at http://127.0.0.1:\([0-9]*\)/mcp$|\1|p' "$work/log")
  [ -n "$port" ] && break
  sleep 0.1
done
check "it says where it listens" yes "$([ -n "$port" ] && echo yes || echo no)"
[ -n "$port" ] || { cat "$work/log"; exit 1; }

# One request; prints the status line's code and the body.
request() { # method, extra headers (one per line, may be empty), body
  local body=$3
  exec 3<>"/dev/tcp/127.0.0.1/$port" || return 1
  {
    printf '%s /mcp HTTP/1.1\r\nHost: 127.0.0.1:%s\r\nContent-Type: application/json\r\nConnection: close\r\n' "$1" "$port"
    [ -n "$2" ] && printf '%s\r\n' "$2"
    printf 'Content-Length: %s\r\n\r\n%s' "${#body}" "$body"
  } >&3
  local reply
  reply=$(timeout 10 cat <&3)
  exec 3>&-
  printf '%s\n' "$reply" | head -1 | cut -d' ' -f2
  printf '%s\n' "${reply#*$'\r\n\r\n'}"
}
list='{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{}}'
auth='Authorization: Bearer s3cret-token'
check "no token: 401" 401 "$(request POST "" "$list" | head -1)"
check "a wrong token: 401" 401 "$(request POST 'Authorization: Bearer s3cret-tokem' "$list" | head -1)"
check "a foreign origin: 403" 403 "$(request POST "$auth"$'\r\nOrigin: http://evil.example' "$list" | head -1)"
check "a loopback origin: 200" 200 "$(request POST "$auth"$'\r\nOrigin: http://localhost:3000' "$list" | head -1)"
out=$(request POST "$auth" "$list")
check "with the token: 200" 200 "$(head -1 <<<"$out")"
check "the skill is listed" yes "$(grep -q '"uri":"skill://hello/SKILL.md"' <<<"$out" && echo yes || echo no)"
check "GET: 405" 405 "$(request GET "$auth" "" | head -1)"
check "DELETE: 405" 405 "$(request DELETE "$auth" "" | head -1)"
# A browser page's preflight (no token): answered for an --allow-origin page, with what it
# may send; a loopback page (any local server) gets no CORS, so it meets the token.
pre='Access-Control-Request-Method: POST'$'\r\n''Access-Control-Request-Headers: authorization, content-type, mcp-protocol-version'
check "a CORS preflight from an allowed page: 204" 204 "$(request OPTIONS 'Origin: https://app.example'$'\r\n'"$pre" "" | head -1)"
check "a CORS preflight from a loopback page: 401" 401 "$(request OPTIONS 'Origin: http://localhost:3000'$'\r\n'"$pre" "" | head -1)"
check "a CORS preflight from a foreign page: 403" 403 "$(request OPTIONS 'Origin: http://evil.example'$'\r\n''Access-Control-Request-Method: POST' "" | head -1)"
check "a notification: 202" 202 "$(request POST "$auth" '{"jsonrpc":"2.0","method":"notifications/initialized"}' | head -1)"

kill -TERM "$server"
wait "$server"
check "SIGTERM stops it cleanly" 0 $?
server=""
exit $fail
