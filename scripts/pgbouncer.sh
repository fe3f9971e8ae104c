#!/usr/bin/env bash
# PgBouncer in transaction mode in front of the private cluster
# (scripts/db.sh), for trying the server behind a connection pooler
# locally (docs/scaling.md, ADR 0040):
#
#   DATABASE_URL=$(scripts/pgbouncer.sh start) \
#   MAXY_DATABASE_DIRECT_URL=$(scripts/db.sh url) \
#   cargo run -p server -- serve
#
# (the LISTENs, the migrations and the memory index build need a session
# of their own: they use the direct URL).
#
# Usage: scripts/pgbouncer.sh start|stop|url
#
#   start   write pgbouncer.ini and its user list, start PgBouncer if it is
#           not running, check a query goes through, print its URL.
#           Idempotent (a running PgBouncer is left as it is; `stop` then
#           `start` to apply a changed setting).
#   stop    stop it (immediate shutdown: open client sessions are cut).
#   url     print its URL.
#
# PgBouncer must be 1.21 or newer, with max_prepared_statements on: older
# ones hand the statements sqlx prepares to whichever server connection
# comes next, and queries fail or silently answer another query (ADR 0040).
# scripts/install-deps.sh installs Debian's package and, on Debian 12
# (1.18), builds trixie's source package into /usr/local/bin. The first
# recent enough of MAXY_PGBOUNCER, /usr/local/bin/pgbouncer and
# /usr/sbin/pgbouncer runs, as `postgres` when started by root.
#
# Its files live next to the primary's data folder (pgbouncer/:
# pgbouncer.ini, userlist.txt, the pid file; the log in log/pgbouncer.log).
# It listens on 127.0.0.1 only and trusts whoever connects there as
# `postgres`, like the cluster itself (initdb --auth=trust); every database
# name is forwarded to the primary.
#
# Environment:
#   MAXY_PG_PORT               the primary's port (default 54329).
#   MAXY_PGBOUNCER_PORT        PgBouncer's port (default 54331).
#   MAXY_PGBOUNCER_POOL_SIZE   server connections per database and user
#                              (default_pool_size, default 20).
#   MAXY_PGBOUNCER             the PgBouncer binary to run.

# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

PRIMARY_PORT="${MAXY_PG_PORT:-54329}"
PORT="${MAXY_PGBOUNCER_PORT:-54331}"
POOL_SIZE="${MAXY_PGBOUNCER_POOL_SIZE:-20}"
[[ $PORT =~ ^[0-9]+$ ]] || die "MAXY_PGBOUNCER_PORT must be a port number, got '$PORT'"
[[ $POOL_SIZE =~ ^[1-9][0-9]*$ ]] ||
    die "MAXY_PGBOUNCER_POOL_SIZE must be a whole number above 0, got '$POOL_SIZE'"
URL="postgres://postgres@127.0.0.1:$PORT/maxy"
MIN_VERSION=1.21

locate() {
    local data
    data=$(primary 'SHOW data_directory')
    DIR="$(dirname "$data")/pgbouncer"
    INI="$DIR/pgbouncer.ini"
    USERS="$DIR/userlist.txt"
    PID_FILE="$DIR/pgbouncer.pid"
    LOG="$(dirname "$data")/log/pgbouncer.log"
}

# The pid of our PgBouncer when it runs.
running_pid() {
    local pid
    [[ -f $PID_FILE ]] || return 1
    pid=$(<"$PID_FILE")
    [[ $pid =~ ^[0-9]+$ ]] || return 1
    [[ $(cat "/proc/$pid/comm" 2>/dev/null) == pgbouncer ]] || return 1
    printf '%s\n' "$pid"
}

# The port the running PgBouncer was configured with.
running_port() { sed -nE 's/^listen_port = ([0-9]+)$/\1/p' "$INI" 2>/dev/null; }

port_busy() {
    timeout 2 bash -c "exec 3<>/dev/tcp/127.0.0.1/$PORT" 2>/dev/null
}

# Sets PGBOUNCER to the first binary recent enough, or dies saying what
# was found.
find_pgbouncer() {
    local bin ver found=""
    for bin in ${MAXY_PGBOUNCER:-/usr/local/bin/pgbouncer /usr/sbin/pgbouncer}; do
        [[ -x $bin ]] || continue
        ver=$("$bin" --version 2>/dev/null | sed -nE '1s/^PgBouncer ([0-9][0-9.]*).*/\1/p') || true
        [[ -n $ver ]] || continue
        if dpkg --compare-versions "$ver" ge "$MIN_VERSION"; then
            PGBOUNCER=$bin
            return
        fi
        found+=" $bin ($ver)"
    done
    die "no PgBouncer >= $MIN_VERSION (found:${found:- none}): run scripts/install-deps.sh as root, or set MAXY_PGBOUNCER"
}

write_config() {
    mkdir -p "$DIR" "$(dirname "$LOG")"
    # auth_type = trust still wants the user listed; no password: the
    # cluster trusts loopback connections and PgBouncer only listens there.
    printf '"postgres" ""\n' >"$USERS"
    cat >"$INI" <<EOF
; Written by scripts/pgbouncer.sh: edits are overwritten at the next start.
[databases]
* = host=127.0.0.1 port=$PRIMARY_PORT

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $PORT
unix_socket_dir =
auth_type = trust
auth_file = $USERS
admin_users = postgres
pool_mode = transaction
; Tracks the statements sqlx prepares and prepares them again on whichever
; server connection a client gets (ADR 0040).
max_prepared_statements = 200
default_pool_size = $POOL_SIZE
max_client_conn = 500
; sqlx sends extra_float_digits at connection; PgBouncer refuses unknown
; startup parameters unless told to ignore them.
ignore_startup_parameters = extra_float_digits
logfile = $LOG
pidfile = $PID_FILE
EOF
    if [[ $(id -u) -eq 0 ]]; then
        chown -R postgres:postgres "$DIR"
        [[ ! -e $LOG ]] || chown postgres "$LOG"
        chown postgres "$(dirname "$LOG")"
    fi
}

cmd_start() {
    locate
    if running_pid >/dev/null; then
        local rp
        rp=$(running_port)
        [[ -z $rp || $rp == "$PORT" ]] ||
            die "PgBouncer already runs on port $rp, not $PORT: run 'scripts/pgbouncer.sh stop' first or set MAXY_PGBOUNCER_PORT=$rp"
        say "PgBouncer already running on 127.0.0.1:$PORT"
    else
        port_busy && die "port $PORT on 127.0.0.1 is in use by another program; stop it or set MAXY_PGBOUNCER_PORT"
        find_pgbouncer
        write_config
        say "starting $PGBOUNCER (transaction mode) on 127.0.0.1:$PORT (log: $LOG)"
        as_pg "$PGBOUNCER" -d -q "$INI" ||
            die "PgBouncer did not start; see $LOG"
        wait_for 10 port_busy || die "PgBouncer does not listen on 127.0.0.1:$PORT; see $LOG"
    fi
    [[ $(psql -X -q -tA -h 127.0.0.1 -p "$PORT" -U postgres -d maxy -c 'SELECT 1' 2>/dev/null) == 1 ]] ||
        die "PgBouncer on 127.0.0.1:$PORT does not reach the primary on port $PRIMARY_PORT; see $LOG"
    printf '%s\n' "$URL"
}

cmd_stop() {
    locate
    local pid
    if pid=$(running_pid); then
        kill -TERM "$pid"
        wait_for 10 test ! -e "/proc/$pid" || die "PgBouncer (pid $pid) did not stop"
        rm -f "$PID_FILE"
        say "PgBouncer stopped"
    else
        say "PgBouncer not running"
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
