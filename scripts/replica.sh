#!/usr/bin/env bash
# A streaming-replication standby of the private cluster (scripts/db.sh), for
# trying MAXY_DATABASE_READ_URL locally: the venue search and the requests
# list then read from it (docs/scaling.md).
#
# Usage: scripts/replica.sh start|stop|url
#
#   start   copy the primary with pg_basebackup the first time (standby
#           settings written by -R), start the standby, print its URL.
#           Idempotent.
#   stop    stop the standby (fast shutdown).
#   url     print its URL.
#
# The primary must run (scripts/db.sh start). Its pg_hba.conf, written by
# initdb --auth=trust, already lets 127.0.0.1 replicate. The standby lives
# next to the primary's data folder (pg-replica), listens on 127.0.0.1 only.
#
# Environment:
#   MAXY_PG_PORT          the primary's port (default 54329).
#   MAXY_PG_REPLICA_PORT  the standby's port (default 54330).

# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

PRIMARY_PORT="${MAXY_PG_PORT:-54329}"
PORT="${MAXY_PG_REPLICA_PORT:-54330}"
[[ $PORT =~ ^[0-9]+$ ]] || die "MAXY_PG_REPLICA_PORT must be a port number, got '$PORT'"
URL="postgres://postgres@127.0.0.1:$PORT/maxy"

locate() {
    local data major
    data=$(primary 'SHOW data_directory')
    major=$(primary "SELECT current_setting('server_version_num')::int / 10000")
    PG_BIN="/usr/lib/postgresql/$major/bin"
    [[ -x $PG_BIN/pg_ctl ]] || die "no PostgreSQL $major server binaries in $PG_BIN"
    REPLICA="$(dirname "$data")/pg-replica"
    SOCK_DIR="$(dirname "$data")/pg-replica-sock"
    LOG="$(dirname "$data")/log/replica.log"
}

running() {
    [[ -f $REPLICA/postmaster.pid ]] && as_pg "$PG_BIN/pg_ctl" -D "$REPLICA" status >/dev/null 2>&1
}

cmd_start() {
    locate
    if [[ ! -f $REPLICA/PG_VERSION ]]; then
        say "copying the primary into $REPLICA (pg_basebackup)"
        mkdir -p "$REPLICA" "$SOCK_DIR" "$(dirname "$LOG")"
        [[ $(id -u) -ne 0 ]] || chown postgres:postgres "$REPLICA" "$SOCK_DIR"
        chmod 700 "$REPLICA"
        as_pg "$PG_BIN/pg_basebackup" -h 127.0.0.1 -p "$PRIMARY_PORT" -U postgres \
            -D "$REPLICA" -R -X stream -c fast ||
            die "pg_basebackup failed (remove $REPLICA before trying again)"
    fi
    if running; then
        say "standby already running on 127.0.0.1:$PORT"
    else
        say "starting the standby on 127.0.0.1:$PORT (log: $LOG)"
        [[ $(id -u) -ne 0 || ! -e $LOG ]] || chown postgres "$LOG"
        as_pg "$PG_BIN/pg_ctl" -D "$REPLICA" -l "$LOG" -w -t 60 \
            -o "-p $PORT -k '$SOCK_DIR' -c listen_addresses=127.0.0.1 -c hot_standby=on" start >/dev/null ||
            die "the standby did not start; see $LOG"
    fi
    [[ $(psql -X -q -tA -h 127.0.0.1 -p "$PORT" -U postgres -d maxy -c 'SELECT pg_is_in_recovery()') == t ]] ||
        die "127.0.0.1:$PORT answers but is not a standby"
    printf '%s\n' "$URL"
}

cmd_stop() {
    locate
    if running; then
        as_pg "$PG_BIN/pg_ctl" -D "$REPLICA" -m fast -w stop >/dev/null
        say "standby stopped"
    else
        say "standby not running"
    fi
}

case "${1:-}" in
start) cmd_start ;;
stop) cmd_stop ;;
url) printf '%s\n' "$URL" ;;
*)
    printf 'usage: %s start|stop|url\n' "$0" >&2
    exit 2
    ;;
esac
