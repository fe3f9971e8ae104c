#!/usr/bin/env bash
# Runs Maxy locally on a fresh Debian/Ubuntu machine (as root):
# installs what is missing, starts PostgreSQL and the embedding server,
# builds the site in release mode, migrates, loads demo data when the
# database is empty, then serves the app and prints its URL.
#
# Environment: MAXY_DEMO_MEMBERS (default 3000 venues), MAXY_ADDR (default
# 127.0.0.1:3000), and every variable of the README's configuration table.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

MAXY_SKIP_BROWSER=1 "$ROOT/scripts/install-deps.sh"
DATABASE_URL="$("$ROOT/scripts/db.sh" start)"
export DATABASE_URL
"$ROOT/scripts/embedder.sh" start
"$ROOT/scripts/build-site.sh" --release

maxy="$ROOT/target/release/maxy"
"$maxy" migrate
"$maxy" seed --if-empty --members "${MAXY_DEMO_MEMBERS:-3000}"

addr="${MAXY_ADDR:-127.0.0.1:3000}"
say "Maxy is starting: open http://$addr/ (Ctrl-C stops it)"
exec env MAXY_ADDR="$addr" "$maxy" serve
