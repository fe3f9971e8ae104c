#!/usr/bin/env bash
# Runs every test of Maxy on a fresh Debian/Ubuntu machine (as root):
# installs what is missing, starts PostgreSQL and the embedding server, then
# formatting, clippy, unit + integration tests on the real database, and the
# Chromium end-to-end tests against a freshly built and seeded server.
set -euo pipefail
# One build per run: incremental caches would only cost CI disk (several GB).
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

"$ROOT/scripts/install-deps.sh"

# What this run starts, it stops when it ends, passed or failed, so a failed
# run leaves no port taken for the next one; services that were already
# running (a developer's own database) are left as they were.
to_stop=()
stop_what_this_run_started() {
    local script
    for script in "${to_stop[@]}"; do
        "$ROOT/scripts/$script" stop >/dev/null 2>&1 || true
    done
}
trap stop_what_this_run_started EXIT
if [[ -z ${DATABASE_URL:-} ]] && ! "$ROOT/scripts/db.sh" status >/dev/null 2>&1; then
    to_stop+=(db.sh)
fi
DATABASE_URL="$("$ROOT/scripts/db.sh" start)"
export DATABASE_URL
if ! "$ROOT/scripts/embedder.sh" status >/dev/null 2>&1; then
    to_stop=(embedder.sh "${to_stop[@]}")
fi
"$ROOT/scripts/embedder.sh" start
"$ROOT/scripts/db.sh" reset-test

say "cargo fmt --check"
cargo fmt --all -- --check

# The wasm entry crate is checked for its own target: built together with the
# server, Cargo would unify `hydrate` and `ssr` into one Leptos and break both.
say "cargo clippy"
cargo clippy --workspace --exclude frontend --all-targets -- -D warnings
cargo clippy -p frontend --target wasm32-unknown-unknown -- -D warnings

say "cargo test (unit + integration, real PostgreSQL)"
cargo test --workspace --exclude frontend

say "end-to-end tests in Chromium"
"$ROOT/scripts/build-site.sh"
"$ROOT/scripts/e2e.sh"
