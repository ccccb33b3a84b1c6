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
#   cluster.sh standby DIR PRIMARY [sync]
#                            a streaming hot standby of the cluster whose folder is PRIMARY:
#                            pg_basebackup into DIR/data, its socket in DIR; with `sync` the
#                            primary then waits for it at every commit (synchronous_standby_names)
#   cluster.sh promote DIR   the standby in DIR becomes a primary
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
  standby)
    primary=$3 mode=${4:-async}
    mkdir -p "$dir"
    chmod 755 "$dir"
    if [ "$(id -u)" -eq 0 ]; then chown nobody "$dir"; fi
    "${as[@]}" "$bin/pg_basebackup" -h "$primary" -U skillmd_admin -D "$dir/data" -X stream -c fast --no-sync
    # The primary's settings came along; these, later in the file, win.
    cat >> "$dir/data/postgresql.conf" <<CONF
unix_socket_directories = '$dir'
primary_conninfo = 'host=$primary user=skillmd_admin application_name=standby'
hot_standby = on
hot_standby_feedback = on
CONF
    "${as[@]}" touch "$dir/data/standby.signal"
    ctl -w start
    psql_primary() { "${as[@]}" psql -X -q -At -h "$primary" -U skillmd_admin -d skillmd -c "$1"; }
    if [ "$mode" = sync ]; then
      psql_primary "ALTER SYSTEM SET synchronous_standby_names = 'standby'" >/dev/null
      psql_primary "SELECT pg_reload_conf()" >/dev/null
    fi
    want=$([ "$mode" = sync ] && echo sync || echo async)
    for _ in $(seq 1 300); do
      state=$(psql_primary "SELECT sync_state FROM pg_stat_replication WHERE application_name = 'standby' AND state = 'streaming'")
      [ "$state" = "$want" ] && exit 0
      sleep 0.1
    done
    echo "cluster.sh: the standby in $dir is not streaming ($want) after 30 s" >&2
    exit 1
    ;;
  promote) "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -w promote >/dev/null ;;
  *) echo "cluster.sh: start|stop|restart|kill|up|promote DIR, or standby DIR PRIMARY [sync]" >&2; exit 2 ;;
esac
