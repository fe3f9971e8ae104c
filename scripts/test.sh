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
DATABASE_URL="$("$ROOT/scripts/db.sh" start)"
export DATABASE_URL
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
