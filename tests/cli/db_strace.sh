#!/usr/bin/env bash
# Reliability goal G28: the database file is only ever opened by SQLite. skillmd opening
# (and so closing) the file itself would drop SQLite's POSIX locks on it. Each `skillmd db`
# step runs under `strace -k`; every open of the database, its -wal, -shm or -journal
# must have libsqlite3 on its stack. Exit 77 (skipped) where ptrace is not allowed.
set -u
cli=$(realpath "$1")
command -v strace >/dev/null 2>&1 || { echo "strace is not installed"; exit 77; }
strace -f -o /dev/null true 2>/dev/null || { echo "ptrace is not allowed here"; exit 77; }
source "$(dirname "$(realpath "$0")")/db_fixture.sh"
failed=0
opens=0
traced() { # traced ARGS...: one `skillmd db` step under strace, then the check of its opens
  strace -f -k -qq -e trace=open,openat,creat,truncate -o trace.log "$cli" db "$@" --db "$work/k.db" --dir user=files >/dev/null 2>&1
  # A syscall line, then its stack frames (" > ..."); find each open of the database files.
  local verdict
  verdict=$(awk -v db="$work/k.db" '
    function finish() { if (hit) { n++; if (!sqlite) { bad++; print "not through SQLite: " line } } hit = 0 }
    /^ > / { if (hit && index($0, "libsqlite3")) sqlite = 1; next }
    { finish(); line = $0; sqlite = 0
      hit = index($0, "\"" db "\"") || index($0, "\"" db "-wal\"") || index($0, "\"" db "-shm\"") || index($0, "\"" db "-journal\"") }
    END { finish(); printf "opens=%d bad=%d\n", n, bad }' trace.log)
  local n bad
  n=$(sed -n 's/^opens=\([0-9]*\) .*/\1/p' <<<"$verdict" | tail -1)
  bad=$(sed -n 's/.* bad=\([0-9]*\)$/\1/p' <<<"$verdict" | tail -1)
  opens=$((opens + n))
  if [ "$bad" != 0 ]; then echo "FAIL db $*:"; echo "$verdict"; failed=$((failed + 1)); fi
}
traced create --name deploy-check --description "Pre-deployment checklist" --triggers "deploy, ship" --content "Steps"
traced update --name deploy-check --triggers "deploy,go live"
traced load --name deploy-check
traced list --format json
traced delete --name deploy-check
# The check must have seen the opens it exists for (the database and its WAL, each step).
if [ "$opens" -lt 10 ]; then echo "FAIL: only $opens opens of the database files were traced"; failed=$((failed + 1)); fi
echo "$opens opens of the database files, each through SQLite"
[ "$failed" -eq 0 ]
