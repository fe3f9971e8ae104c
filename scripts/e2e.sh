#!/usr/bin/env bash
# Starts the built `maxy` (debug) on a fresh, seeded database and a free port,
# runs the Playwright tests of end2end/ in Debian's Chromium, then stops it.
# Needs DATABASE_URL (a superuser URL: a database `maxy_e2e` is recreated on
# that server), the embedding server, and `scripts/build-site.sh` done.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

: "${DATABASE_URL:?DATABASE_URL must point at the test server}"
base="${DATABASE_URL%/*}"
admin_url="$base/postgres"
e2e_url="$base/maxy_e2e"
psql "$admin_url" -qX -v ON_ERROR_STOP=1 -c 'DROP DATABASE IF EXISTS maxy_e2e WITH (FORCE)' -c 'CREATE DATABASE maxy_e2e' >/dev/null

maxy="$ROOT/target/debug/maxy"
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
export MAXY_ADDR="127.0.0.1:$port"
DATABASE_URL="$e2e_url" "$maxy" seed --members 300 --quiet
mkdir -p "$LOG_DIR"
DATABASE_URL="$e2e_url" "$maxy" serve >"$LOG_DIR/e2e-server.log" 2>&1 &
server=$!
trap 'kill -TERM $server 2>/dev/null; wait $server 2>/dev/null || true' EXIT
wait_for 60 curl -fsS "http://$MAXY_ADDR/readyz" ||
  { tail -n 20 "$LOG_DIR/e2e-server.log" >&2; die "the server did not become ready"; }

cd "$ROOT/end2end"
MAXY_BASE_URL="http://$MAXY_ADDR" npm test --silent
