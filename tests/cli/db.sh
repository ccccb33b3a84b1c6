#!/usr/bin/env bash
# `skillmd db` end to end in a fresh directory: each step's output and exit code.
set -u
cli=$(realpath "$1")
source "$(dirname "$(realpath "$0")")/db_fixture.sh"
failed=0
step() { # step EXPECTED_CODE EXPECTED_STDOUT -- ARGS...
  local code=$1 out=$2; shift 3
  local got rc
  got=$("$cli" db "$@" --db k.db --dir user=files 2>/dev/null); rc=$?
  if [ "$rc" != "$code" ] || [ "$got" != "$out" ]; then
    echo "FAIL db $*: exit $rc (want $code)"; diff <(echo "$out") <(echo "$got"); failed=$((failed + 1))
  fi
}
step 0 "created deploy-check" -- create --name deploy-check --description "Pre-deployment checklist" --triggers "deploy, ship" --content "Steps"
step 1 "" -- create --name deploy-check --description x --triggers a --content b          # exists
step 1 "" -- create --name reminders --description x --triggers a --content b             # a file skill
step 1 "" -- create --name Bad --description x --triggers a --content b                   # invalid name
step 1 "" -- create --name no-triggers --description x --content b                        # koshi needs triggers
step 0 "updated deploy-check" -- update --name deploy-check --triggers "deploy,go live"
step 1 "" -- update --name nope --description x                                           # not found
step 1 "" -- delete --name reminders                                                      # files are never deleted
step 0 "Steps" -- load --name deploy-check
step 0 $'deploy-check\tdatabase\tdeploy,go live\tPre-deployment checklist\nreminders\tfile\tremind\tSet reminders' -- list
step 0 "deleted deploy-check" -- delete --name deploy-check
step 0 $'reminders\tfile\tremind\tSet reminders' -- list
echo "not a database, just text that is long enough to look like a header" > k.db
step 3 "" -- list                                                                         # database error
step 2 "" -- frobnicate                                                                   # usage
[ -f files/reminders.md ] || { echo "FAIL the file skill was touched"; failed=$((failed + 1)); }
echo "db: $failed failed"
[ "$failed" -eq 0 ]
