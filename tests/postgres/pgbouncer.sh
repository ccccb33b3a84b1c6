#!/usr/bin/env bash
# PgBouncer in transaction mode in front of a throw-away cluster (cluster.sh): a Unix
# socket in a folder of its own (port 6432, no TCP listener), run by an unprivileged user
# (PgBouncer refuses root: as root, it runs as `nobody`).
#   pgbouncer.sh start DIR CLUSTER USER...   pool the database `skillmd` of the cluster in
#                                            CLUSTER for these roles (no passwords: the
#                                            cluster trusts its socket)
#   pgbouncer.sh stop DIR
set -euo pipefail
cmd=$1 dir=$2
bouncer=$(command -v pgbouncer || echo /usr/sbin/pgbouncer)
[ -x "$bouncer" ] || { echo "pgbouncer.sh: no PgBouncer (apt-get install pgbouncer)" >&2; exit 1; }
as=()
if [ "$(id -u)" -eq 0 ]; then as=(runuser -u nobody --); fi
case $cmd in
  start)
    cluster=$3
    shift 3
    mkdir -p "$dir"
    chmod 755 "$dir"
    : > "$dir/users.txt"
    for u in "$@"; do printf '"%s" ""\n' "$u" >> "$dir/users.txt"; done
    cat > "$dir/pgbouncer.ini" <<INI
[databases]
skillmd = host=$cluster dbname=skillmd

[pgbouncer]
unix_socket_dir = $dir
listen_port = 6432
auth_type = trust
auth_file = $dir/users.txt
pool_mode = transaction
default_pool_size = 4
max_client_conn = 400
logfile = $dir/pgbouncer.log
pidfile = $dir/pgbouncer.pid
INI
    if [ "$(id -u)" -eq 0 ]; then chown -R nobody "$dir"; fi
    "${as[@]}" "$bouncer" -q -d "$dir/pgbouncer.ini"
    for _ in $(seq 1 100); do
      [ -S "$dir/.s.PGSQL.6432" ] && exit 0
      sleep 0.1
    done
    echo "pgbouncer.sh: PgBouncer did not start:" >&2
    cat "$dir/pgbouncer.log" >&2 || true
    exit 1
    ;;
  stop)
    if [ -f "$dir/pgbouncer.pid" ]; then kill "$(cat "$dir/pgbouncer.pid")" 2>/dev/null || true; fi
    ;;
  *) echo "pgbouncer.sh: start DIR CLUSTER USER... | stop DIR" >&2; exit 2 ;;
esac
