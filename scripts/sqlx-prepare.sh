#!/usr/bin/env bash
# Refreshes the committed `.sqlx/` data that `sqlx::query!` checks against when
# building offline (the default, see .cargo/config.toml). Run it after adding or
# changing a query or a migration, then commit `.sqlx/`.
# Needs a running PostgreSQL (scripts/db.sh start); uses a scratch database
# `maxy_sqlx_prepare`, migrated from migrations/, so your data is untouched.
# Usage: scripts/sqlx-prepare.sh [--check]   (--check: fail if .sqlx/ is stale)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

base_url="$(scripts/db.sh url)"
base_url="${base_url%/*}"
prepare_url="$base_url/maxy_sqlx_prepare"
PGOPTIONS="-c client_min_messages=warning" psql "$base_url/postgres" -qX -v ON_ERROR_STOP=1 \
  -c 'DROP DATABASE IF EXISTS maxy_sqlx_prepare WITH (FORCE)' -c 'CREATE DATABASE maxy_sqlx_prepare' >/dev/null
for file in migrations/*.sql; do
  psql "$prepare_url" -qX -v ON_ERROR_STOP=1 --single-transaction -f "$file" >/dev/null
done

out="$ROOT/.sqlx"
[[ "${1:-}" == "--check" ]] && out="$(mktemp -d)"
rm -f "$out"/query-*.json
# The macros only run when their crate recompiles.
cargo clean -p server -p demo
SQLX_OFFLINE=false SQLX_OFFLINE_DIR="$out" DATABASE_URL="$prepare_url" \
  cargo check -p server -p demo --all-targets --quiet

if [[ "${1:-}" == "--check" ]]; then
  diff -r "$out" "$ROOT/.sqlx" >/dev/null || die ".sqlx/ is stale: run scripts/sqlx-prepare.sh and commit it"
  say ".sqlx/ is up to date"
else
  say "$(find "$out" -name 'query-*.json' | wc -l) queries recorded in .sqlx/"
fi
