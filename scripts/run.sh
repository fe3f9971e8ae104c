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

# Magic links are signed with this key: keep it across restarts.
if [[ -z ${MAXY_SECRET_KEY:-} ]]; then
  key_file="$DATA_DIR/secret-key"
  if [[ ! -s $key_file ]]; then
    (umask 077 && head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$key_file")
  fi
  MAXY_SECRET_KEY="$(cat "$key_file")"
  export MAXY_SECRET_KEY
fi
addr="${MAXY_ADDR:-127.0.0.1:3000}"
export MAXY_ADDR="$addr" MAXY_PUBLIC_URL="${MAXY_PUBLIC_URL:-http://$addr}"
# The local CPU model embeds ~900-character venue texts slowly: small batches, patient timeout.
export MAXY_VENUE_EMBEDDING_BATCH_SIZE="${MAXY_VENUE_EMBEDDING_BATCH_SIZE:-16}" MAXY_EMBEDDING_TIMEOUT_MS="${MAXY_EMBEDDING_TIMEOUT_MS:-60000}"

# A local mail catcher (maildev: SMTP on 1025, web view on 1080) unless an
# SMTP server is configured: the e-mails Maxy sends are read in a browser.
mail_view=""
if [[ -z ${MAXY_SMTP_URL:-} && -x $DATA_DIR/maildev/node_modules/.bin/maildev ]]; then
  "$DATA_DIR/maildev/node_modules/.bin/maildev" --ip 127.0.0.1 --smtp 1025 --web 1080 \
    >"$LOG_DIR/maildev.log" 2>&1 &
  trap 'kill $! 2>/dev/null || true' EXIT
  export MAXY_SMTP_URL="smtp://127.0.0.1:1025"
  mail_view="http://127.0.0.1:1080/"
fi

maxy="$ROOT/target/release/maxy"
"$maxy" migrate
"$maxy" seed --if-empty --members "${MAXY_DEMO_MEMBERS:-3000}"

# A catalogue as an organizer sees it, through a fresh magic link.
catalogue="$(psql "$DATABASE_URL" -qAtX -c "SELECT id FROM catalogues WHERE status = 'sent' AND kind = 'standard' ORDER BY id LIMIT 1")"
organizer_link=""
[[ -n $catalogue ]] && organizer_link="$("$maxy" link catalogue "$catalogue" | sed 's/^.*: //')"

say "Maxy is starting: open $MAXY_PUBLIC_URL/ (Ctrl-C stops it)"
say "demo accounts (password maxy-demo-2026): admin@reciprok.fr (admin), camille.martin@reciprok.fr (team)"
[[ -n $organizer_link ]] && say "an organizer's catalogue link: $organizer_link"
[[ -n $mail_view ]] && say "e-mails sent by Maxy (local catcher): $mail_view"
"$maxy" serve
