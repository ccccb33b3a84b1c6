#!/usr/bin/env bash
# A throw-away PostgreSQL cluster for the fleet tests and benchmarks: Unix socket only
# (no TCP listener), in a folder of its own, owned by an unprivileged user (initdb
# refuses root: as root, the cluster runs as `nobody`).
#   cluster.sh start DIR     initdb DIR/data, start it with its socket in DIR, create the
#                            database `skillmd` owned by the superuser `skillmd_admin`
#   cluster.sh stop DIR      stop it (fast); the folder stays for the caller to remove
#   cluster.sh restart DIR   stop (fast) and start again
#   cluster.sh kill DIR      stop it at once (immediate: a crash, recovered at the next start)
#   cluster.sh up DIR        start an existing cluster again
set -euo pipefail
cmd=$1 dir=$2
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -x "$bin/initdb" ] || { echo "cluster.sh: no PostgreSQL server (apt-get install postgresql-15)" >&2; exit 1; }
as=()
if [ "$(id -u)" -eq 0 ]; then as=(runuser -u nobody --); fi
ctl() { "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" "$@" >/dev/null; }
case $cmd in
  start)
    mkdir -p "$dir"
    chmod 755 "$dir"
    if [ "$(id -u)" -eq 0 ]; then chown nobody "$dir"; fi
    "${as[@]}" "$bin/initdb" -D "$dir/data" -U skillmd_admin -A trust -E UTF8 --locale=C --no-sync >/dev/null
    cat >> "$dir/data/postgresql.conf" <<CONF
listen_addresses = ''
unix_socket_directories = '$dir'
max_connections = 120
CONF
    ctl -w start
    "${as[@]}" "$bin/createdb" -h "$dir" -U skillmd_admin skillmd
    ;;
  stop) ctl -m fast -w stop ;;
  restart) ctl -m fast -w restart ;;
  kill) ctl -m immediate -w stop ;;
  up) ctl -w start ;;
  *) echo "cluster.sh: start|stop|restart|kill|up DIR" >&2; exit 2 ;;
esac
