# shellcheck shell=bash
# Helpers shared by the scripts in this folder. Source it, do not run it:
#
#   . "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
#
# It defines:
#   ROOT      the repository root, found from this file's own location
#   DATA_DIR  local state (database cluster, virtualenv, logs): $ROOT/.data,
#             or MAXY_DATA_DIR when set. It is gitignored.
#   LOG_DIR   $DATA_DIR/log
#   say MSG...            progress line "maxy: MSG" on stderr
#   warn MSG...           "maxy: warning: MSG" on stderr
#   die MSG...            "maxy: error: MSG" on stderr, then exit 1
#   need_root             die unless running as root
#   timed LABEL CMD...    run CMD, then print how many seconds it took
#   quiet NAME CMD...     run CMD with its output sent to $LOG_DIR/NAME.log;
#                         on failure print the log's last lines and die
#   wait_for SECS CMD...  poll CMD (quietly) every 0.2 s until it succeeds;
#                         returns 1 after SECS seconds
#   have CMD              true when CMD is on PATH
#   pg_major              major version of the newest installed PostgreSQL
#                         server (Debian/Ubuntu layout), or MAXY_PG_VERSION
#
# Progress goes to stderr so that a script's stdout carries only its result
# (for example `DATABASE_URL=$(scripts/db.sh url)`).
# An ERR trap turns an unexpected failing command into one error line.

set -Eeuo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
DATA_DIR="${MAXY_DATA_DIR:-$ROOT/.data}"
LOG_DIR="$DATA_DIR/log"
export ROOT DATA_DIR LOG_DIR

say() { printf 'maxy: %s\n' "$*" >&2; }
warn() { printf 'maxy: warning: %s\n' "$*" >&2; }
die() {
    printf 'maxy: error: %s\n' "$*" >&2
    exit 1
}

# One line for a command that failed without a more specific message.
# Subshells inherit the trap (set -E); only the main shell reports.
_maxy_on_err() {
    local rc=$1 cmd=$2 line=$3
    if [[ $BASHPID == "$$" ]]; then
        printf 'maxy: error: command failed (exit %s) at %s:%s: %s\n' \
            "$rc" "${BASH_SOURCE[1]##*/}" "$line" "$cmd" >&2
    fi
}
_maxy_err_trap() { trap '_maxy_on_err "$?" "$BASH_COMMAND" "$LINENO"' ERR; }
_maxy_err_trap

need_root() {
    [[ $(id -u) -eq 0 ]] || die "this must run as root (try: sudo $0 $*)"
}

have() { command -v "$1" >/dev/null 2>&1; }

# Microseconds since the epoch (bash 5).
_maxy_now_us() { local t=${EPOCHREALTIME/[.,]/}; printf '%s' "$t"; }

# Formats a duration given in microseconds as seconds with one decimal.
_maxy_secs() { local us=$1; printf '%d.%d' $((us / 1000000)) $((us % 1000000 / 100000)); }

timed() {
    local label=$1 t0
    shift
    t0=$(_maxy_now_us)
    "$@"
    say "$label: $(_maxy_secs $(($(_maxy_now_us) - t0))) s"
}

quiet() {
    local name=$1 rc=0 log
    shift
    mkdir -p "$LOG_DIR"
    log="$LOG_DIR/$name.log"
    # A plain subshell with errexit re-enabled, so that a shell function
    # passed as CMD still stops at its first failing command. The ERR trap
    # is off meanwhile: the failure is reported below, once.
    trap - ERR
    set +e
    (
        set -e
        "$@"
    ) >"$log" 2>&1 </dev/null
    rc=$?
    set -e
    _maxy_err_trap
    if [[ $rc -ne 0 ]]; then
        tail -n 15 "$log" | sed 's/^/  | /' >&2
        die "$name failed (exit $rc); full log: $log"
    fi
}

wait_for() {
    local secs=$1 deadline
    shift
    deadline=$(($(_maxy_now_us) + secs * 1000000))
    until "$@" >/dev/null 2>&1; do
        (($(_maxy_now_us) < deadline)) || return 1
        sleep 0.2
    done
}

pg_major() {
    if [[ -n ${MAXY_PG_VERSION:-} ]]; then
        printf '%s\n' "$MAXY_PG_VERSION"
        return
    fi
    local d best=""
    for d in /usr/lib/postgresql/*/bin/postgres; do
        [[ -x $d ]] || continue
        d=${d#/usr/lib/postgresql/}
        d=${d%%/*}
        if [[ -z $best ]] || ((d > best)); then best=$d; fi
    done
    [[ -n $best ]] || return 1
    printf '%s\n' "$best"
}

# Runs a command as the user `postgres` when we are root (initdb, the
# server, pg_basebackup and PgBouncer refuse root), as ourselves otherwise.
as_pg() {
    if [[ $(id -u) -eq 0 ]]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

# One value from the private cluster (scripts/db.sh), the primary of the
# replica and of PgBouncer: MAXY_PG_PORT, 54329 by default.
primary() {
    local port="${MAXY_PG_PORT:-54329}"
    psql -X -q -tA -h 127.0.0.1 -p "$port" -U postgres -d postgres -c "$1" 2>/dev/null ||
        die "the primary does not answer on 127.0.0.1:$port: run scripts/db.sh start"
}
