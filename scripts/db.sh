#!/usr/bin/env bash
# Private PostgreSQL cluster for development and tests.
#
# Usage: scripts/db.sh start|stop|status|url|reset-test
#
#   start       create the cluster if needed (initdb), start it if it is not
#               running, create the database `maxy` if absent, then print
#               its URL on stdout. Idempotent; a second run takes well under
#               a second.
#   stop        stop the cluster (fast shutdown).
#   status      say whether it runs; exit 0 when running, 3 when not.
#   url         print the URL (DATABASE_URL when set, else the local one).
#   reset-test  drop the databases that `#[sqlx::test]` left behind
#               (_sqlx_test_*) and its bookkeeping schema `_sqlx_test`.
#
# The cluster lives in $DATA_DIR/pg (socket dir $DATA_DIR/pg-sock, log
# $DATA_DIR/log/postgres.log), listens only on 127.0.0.1, trusts local
# connections and has the superuser `postgres`, whose URL is what the app
# and `#[sqlx::test]` (which creates its own databases) need:
#   postgres://postgres@127.0.0.1:54329/maxy
# When the user `postgres` cannot reach $DATA_DIR (a parent folder is not
# world-searchable), the cluster goes to /var/lib/maxy/<hash of that path>.
#
# Environment:
#   DATABASE_URL     when set, `start` only checks that this server answers and
#                    prints the URL; nothing local is created or started.
#   MAXY_PG_PORT     TCP port on 127.0.0.1 (default 54329).
#   MAXY_PG_VERSION  PostgreSQL major version for a new cluster (default: the
#                    newest installed); an existing cluster keeps its own.
#   MAXY_DATA_DIR    local state folder (default <repo>/.data).
#
# Runs as root (initdb and the server run as the user `postgres` through
# runuser) or as an ordinary user who owns the data folder.

# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

PORT="${MAXY_PG_PORT:-54329}"
DB_NAME=maxy
[[ $PORT =~ ^[0-9]+$ ]] || die "MAXY_PG_PORT must be a port number, got '$PORT'"

IS_ROOT=0
[[ $(id -u) -eq 0 ]] && IS_ROOT=1

# Runs a command as the cluster's owner.
# Where the cluster lives: $DATA_DIR, unless `postgres` cannot get there.
PG_HOME="$DATA_DIR"
if ((IS_ROOT)); then
    id postgres >/dev/null 2>&1 || die "no user 'postgres': run scripts/install-deps.sh first"
    mkdir -p "$DATA_DIR"
    if ! runuser -u postgres -- test -x "$DATA_DIR"; then
        PG_HOME="/var/lib/maxy/$(printf %s "$DATA_DIR" | sha256sum | cut -c1-16)"
        RELOCATED=1
    fi
fi
PGDATA="$PG_HOME/pg"
SOCK_DIR="$PG_HOME/pg-sock"
PG_LOG="$PG_HOME/log/postgres.log"
LOCAL_URL="postgres://postgres@127.0.0.1:$PORT/$DB_NAME"

# Sets PG_BIN to the binaries of the cluster's own version, else of the
# newest installed one; returns 1 when there are none.
find_pg_bin() {
    local ver=""
    PG_BIN=""
    if [[ -f $PGDATA/PG_VERSION ]]; then
        ver=$(<"$PGDATA/PG_VERSION")
    else
        ver=$(pg_major) || return 1
    fi
    [[ -x /usr/lib/postgresql/$ver/bin/pg_ctl ]] || return 1
    PG_BIN="/usr/lib/postgresql/$ver/bin"
}

pg_bin() {
    find_pg_bin || die "PostgreSQL server binaries not found: run scripts/install-deps.sh"
}

# A client binary (psql, pg_isready): the server's own, else the one on PATH.
client() {
    local name=$1
    shift
    if [[ -n ${PG_BIN:-} && -x $PG_BIN/$name ]]; then
        "$PG_BIN/$name" "$@"
    elif have "$name"; then
        "$name" "$@"
    else
        die "$name not found: install the PostgreSQL client (scripts/install-deps.sh)"
    fi
}

# psql as the superuser over TCP, one value per line, stop at first error.
sql() {
    client psql -X -q -v ON_ERROR_STOP=1 -tA -h 127.0.0.1 -p "$PORT" -U postgres "$@"
}

# 0 when our cluster's postmaster runs.
running() {
    [[ -f $PGDATA/postmaster.pid ]] || return 1
    as_pg "$PG_BIN/pg_ctl" -D "$PGDATA" status >/dev/null 2>&1
}

# Port written in postmaster.pid (4th line) of the running cluster.
running_port() { sed -n 4p "$PGDATA/postmaster.pid" 2>/dev/null; }

port_busy() {
    timeout 2 bash -c "exec 3<>/dev/tcp/127.0.0.1/$PORT" 2>/dev/null
}

# Who listens on the port, when ss can tell.
port_owner() {
    have ss || return 0
    ss -Hltnp "sport = :$PORT" 2>/dev/null | head -n1 |
        sed -nE 's/.*users:\(\("([^"]+)",pid=([0-9]+).*/(\1, pid \2)/p' || true
}

ensure_dirs() {
    mkdir -p "$PGDATA" "$SOCK_DIR" "${PG_LOG%/*}"
    if ((IS_ROOT)); then
        chown postgres:postgres "$PGDATA" "$SOCK_DIR"
        chown postgres "${PG_LOG%/*}"
        [[ ! -e $PG_LOG ]] || chown postgres "$PG_LOG"
    fi
    chmod 700 "$PGDATA"
}

init_cluster() {
    if [[ -f $PGDATA/PG_VERSION ]]; then
        return
    fi
    if [[ -n $(ls -A "$PGDATA" 2>/dev/null) ]]; then
        die "$PGDATA is not empty but holds no PostgreSQL cluster: move it away"
    fi
    say "creating cluster in $PGDATA (PostgreSQL $(basename "$(dirname "$PG_BIN")"))"
    quiet initdb as_pg "$PG_BIN/initdb" -D "$PGDATA" -U postgres --auth=trust \
        -E UTF8 --locale=C.UTF-8
}

start_cluster() {
    if running; then
        local rp
        rp=$(running_port)
        if [[ -n $rp && $rp != "$PORT" ]]; then
            die "the cluster already runs on port $rp, not $PORT: run 'scripts/db.sh stop' first or set MAXY_PG_PORT=$rp"
        fi
        say "PostgreSQL already running on 127.0.0.1:$PORT"
        return
    fi
    if port_busy; then
        die "port $PORT on 127.0.0.1 is in use by another program $(port_owner); stop it or set MAXY_PG_PORT to a free port"
    fi
    say "starting PostgreSQL on 127.0.0.1:$PORT (log: $PG_LOG)"
    # pg_ctl hands -o to a shell: quote the socket path. shared_buffers: the
    # default 128 MB cannot hold the venue vectors of 70,000 venues (110 MB)
    # next to the rest, and stage 2 of the search then reads from the OS cache
    # (docs/benchmarks.md).
    if ! as_pg "$PG_BIN/pg_ctl" -D "$PGDATA" -l "$PG_LOG" -w -t 60 \
        -o "-p $PORT -k '$SOCK_DIR' -c listen_addresses=127.0.0.1 -c shared_buffers=${MAXY_PG_SHARED_BUFFERS:-512MB}" start >/dev/null 2>&1; then
        tail -n 10 "$PG_LOG" 2>/dev/null | sed 's/^/  | /' >&2
        die "PostgreSQL did not start; see $PG_LOG"
    fi
}

ensure_database() {
    local out
    out=$(sql -d postgres -c "SELECT
            (SELECT count(*) FROM pg_database WHERE datname = '$DB_NAME'),
            coalesce((SELECT default_version FROM pg_available_extensions WHERE name = 'vector'), '')" -F ' ') ||
        die "cannot connect to 127.0.0.1:$PORT as postgres"
    if [[ ${out%% *} == 0 ]]; then
        say "creating database $DB_NAME"
        sql -d postgres -c "CREATE DATABASE $DB_NAME" >/dev/null
    fi
    if [[ -z ${out#* } ]]; then
        warn "pgvector is not installed for this server: run scripts/install-deps.sh"
    fi
}

cmd_start() {
    if [[ -n ${DATABASE_URL:-} ]]; then
        find_pg_bin || true
        client pg_isready -q -t 10 -d "$DATABASE_URL" ||
            die "DATABASE_URL is set but its server does not answer"
        local err
        if ! err=$(client psql -X -q -tA -d "$DATABASE_URL" -c 'SELECT 1' 2>&1 >/dev/null); then
            die "DATABASE_URL is set but connecting failed: $(printf '%s' "$err" | head -n1)"
        fi
        say "using DATABASE_URL from the environment (no local cluster)"
        printf '%s\n' "$DATABASE_URL"
        return
    fi
    pg_bin
    if [[ ${RELOCATED:-0} == 1 ]]; then
        say "user postgres cannot reach $DATA_DIR: cluster lives in $PG_HOME"
    fi
    ensure_dirs
    init_cluster
    start_cluster
    ensure_database
    printf '%s\n' "$LOCAL_URL"
}

cmd_stop() {
    pg_bin
    if ! running; then
        say "PostgreSQL is not running"
        return
    fi
    as_pg "$PG_BIN/pg_ctl" -D "$PGDATA" -m fast -w -t 60 stop >/dev/null ||
        die "pg_ctl stop failed; see $PG_LOG"
    say "PostgreSQL stopped"
}

cmd_status() {
    if [[ ! -f $PGDATA/PG_VERSION ]]; then
        echo "stopped: no cluster in $PGDATA (run scripts/db.sh start)"
        exit 3
    fi
    pg_bin
    if running; then
        echo "running: pid $(head -n1 "$PGDATA/postmaster.pid"), 127.0.0.1:$(running_port), data $PGDATA"
    else
        echo "stopped (data $PGDATA)"
        exit 3
    fi
}

cmd_url() {
    printf '%s\n' "${DATABASE_URL:-$LOCAL_URL}"
}

cmd_reset_test() {
    local url=${DATABASE_URL:-$LOCAL_URL} out db n=0
    local -a dbs
    find_pg_bin || true
    out=$(client psql -X -q -tA -v ON_ERROR_STOP=1 -d "$url" \
        -c "SELECT datname FROM pg_database WHERE datname LIKE '\\_sqlx\\_test\\_%'" 2>/dev/null) ||
        die "cannot connect to $url (is the cluster running? scripts/db.sh start)"
    mapfile -t dbs <<<"$out"
    for db in "${dbs[@]}"; do
        [[ -n $db ]] || continue
        client psql -X -q -v ON_ERROR_STOP=1 -d "$url" \
            -c "DROP DATABASE IF EXISTS \"$db\" WITH (FORCE)" >/dev/null
        n=$((n + 1))
    done
    client psql -X -q -v ON_ERROR_STOP=1 -d "$url" \
        -c 'SET client_min_messages = warning; DROP SCHEMA IF EXISTS _sqlx_test CASCADE' >/dev/null
    say "dropped $n test database(s) and the _sqlx_test schema"
}

case "${1:-}" in
start) cmd_start ;;
stop) cmd_stop ;;
status) cmd_status ;;
url) cmd_url ;;
reset-test) cmd_reset_test ;;
*)
    printf 'usage: %s start|stop|status|url|reset-test\n' "$0" >&2
    exit 2
    ;;
esac
