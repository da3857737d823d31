#!/usr/bin/env bash
# A streaming replica of the PostgreSQL server at 127.0.0.1:5432, for the read-replica test and
# deploy/scale-out.sh: `deploy/replica.sh start` makes it with pg_basebackup and starts it on
# 127.0.0.1:${REPLICA_PORT:-5433}; `stop [--keep]` stops it (and removes its directory); `status`.
# Needs the server's binaries (Debian's postgresql package) and trust or a password for the
# replication connection from 127.0.0.1 (a pg_hba line is added when missing, and the server reloaded).
set -euo pipefail
BIN=/usr/lib/postgresql/$(ls /usr/lib/postgresql | sort -n | tail -1)/bin
DIR=${REPLICA_DIR:-/tmp/ringmes-replica}
PORT=${REPLICA_PORT:-5433}
PRIMARY_PORT=${PRIMARY_PORT:-5432}
# PostgreSQL refuses to run as root: its commands run as the postgres user then.
as_pg() { if [ "$(id -u)" = 0 ]; then su postgres -s /bin/bash -c "$*"; else bash -c "$*"; fi; }

case "${1:-}" in
  start)
    if as_pg "$BIN/pg_ctl -D $DIR status" >/dev/null 2>&1; then echo "replica already running on port $PORT"; exit 0; fi
    hba=$(psql -h 127.0.0.1 -p "$PRIMARY_PORT" -U postgres -Atc 'SHOW hba_file')
    if ! grep -qE '^host\s+replication\s+all\s+127\.0\.0\.1/32' "$hba"; then
      echo 'host replication all 127.0.0.1/32 trust' >>"$hba"
      psql -h 127.0.0.1 -p "$PRIMARY_PORT" -U postgres -qAtc 'SELECT pg_reload_conf()' >/dev/null
    fi
    # Made afresh at each start: without a replication slot the primary does not keep the WAL a
    # stopped replica would need, and a slot kept for a stopped replica would fill the disk.
    if true; then
      rm -rf "$DIR"
      mkdir -p "$DIR"
      [ "$(id -u)" = 0 ] && chown postgres:postgres "$DIR"
      chmod 700 "$DIR"
      as_pg "$BIN/pg_basebackup -h 127.0.0.1 -p $PRIMARY_PORT -U postgres -D $DIR -R -X stream -c fast"
      # Debian keeps the server's configuration outside its data directory: the copy gets its own.
      as_pg "printf '%s\n' \"listen_addresses = '127.0.0.1'\" \"port = $PORT\" \"unix_socket_directories = '/tmp'\" 'hot_standby = on' 'max_connections = 100' >$DIR/postgresql.conf"
      as_pg "printf '%s\n' 'local all all trust' 'host all all 127.0.0.1/32 trust' >$DIR/pg_hba.conf"
    fi
    as_pg "$BIN/pg_ctl -D $DIR -l $DIR/server.log -w -t 60 start" >/dev/null
    echo "replica running on 127.0.0.1:$PORT"
    ;;
  stop)
    as_pg "$BIN/pg_ctl -D $DIR -m fast -w stop" >/dev/null 2>&1 || true
    [ "${2:-}" = --keep ] || rm -rf "$DIR"
    echo "replica stopped"
    ;;
  status)
    as_pg "$BIN/pg_ctl -D $DIR status"
    ;;
  *)
    echo "usage: deploy/replica.sh start|stop|status" >&2
    exit 2
    ;;
esac
