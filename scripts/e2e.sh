#!/usr/bin/env bash
# Starts the built `maxy` (debug) on a fresh, seeded database and a free port,
# issues one catalogue link and one availability link, runs the Playwright
# tests of end2end/ in Debian's Chromium, then stops the server.
# Needs DATABASE_URL (a superuser URL: a database `maxy_e2e` is recreated on
# that server), the embedding server, and `scripts/build-site.sh` done.
# The server's log is kept in $LOG_DIR/e2e-server.log. MAXY_E2E_FILES
# (space-separated names in end2end/) runs only those test files.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

: "${DATABASE_URL:?DATABASE_URL must point at the test server}"
maxy="$ROOT/target/debug/maxy"
[[ -x $maxy ]] || die "$maxy is missing: run scripts/build-site.sh first"
[[ -f $ROOT/target/site/pkg/bundle.txt ]] || die "the wasm bundle is missing: run scripts/build-site.sh first"
chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"
[[ -x $chromium ]] || die "Chromium not found at $chromium: install it (scripts/install-deps.sh) or set CHROMIUM_PATH"
[[ -d $ROOT/end2end/node_modules/playwright-core ]] || die "playwright-core is missing: run 'npm ci' in end2end/ (scripts/install-deps.sh does)"

base="${DATABASE_URL%/*}"
admin_url="$base/postgres"
e2e_url="$base/maxy_e2e"
psql "$admin_url" -qX -v ON_ERROR_STOP=1 -c 'DROP DATABASE IF EXISTS maxy_e2e WITH (FORCE)' -c 'CREATE DATABASE maxy_e2e' >/dev/null

port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
export MAXY_ADDR="127.0.0.1:$port"
base_url="http://$MAXY_ADDR"
# The link command and the server must share the signing key and the public
# address: links are signed with the one and built on the other. A fresh key
# per run: links of earlier runs never open.
MAXY_SECRET_KEY="$(od -An -N32 -tx1 /dev/urandom | tr -d ' \n')"
export MAXY_SECRET_KEY MAXY_PUBLIC_URL="$base_url"

say "seeding maxy_e2e"
DATABASE_URL="$e2e_url" "$maxy" seed --members 300 --quiet

# One value from the e2e database (empty when the query finds no row).
sql() { psql "$e2e_url" -qXAt -v ON_ERROR_STOP=1 -c "$1"; }

# Issues a magic link with `maxy link KIND ID` and prints its URL on this
# server. The command prints `link <id> (<kind>): <base>/<c|v>/<token>`.
issue_link() {
    local kind=$1 id=$2 out path
    out="$(DATABASE_URL="$e2e_url" "$maxy" link "$kind" "$id" 2>"$LOG_DIR/e2e-link.log")" ||
        { tail -n 5 "$LOG_DIR/e2e-link.log" >&2; die "maxy link $kind $id failed"; }
    path="$(sed -n "s|^link [0-9]* ($kind): [a-z]*://[^/]*\(/.*\)$|\1|p" <<<"$out")"
    [[ -n $path ]] || die "unexpected output of 'maxy link $kind $id': $out"
    printf '%s%s\n' "$base_url" "$path"
}

mkdir -p "$LOG_DIR"
catalogue_id="$(sql "SELECT id FROM catalogues WHERE status = 'sent' AND kind = 'standard' ORDER BY id LIMIT 1")"
[[ -n $catalogue_id ]] || die "the seed made no sent catalogue to link to"
# The seed's dates are fixed, so its pending checks may have expired: answer
# a live one, or open a new one for a venue of a catalogue (at most one
# pending check per request and venue).
check_id="$(sql "SELECT id FROM availability_checks WHERE status = 'pending' AND expires_at > now() ORDER BY id LIMIT 1")"
if [[ -z $check_id ]]; then
    check_id="$(sql "INSERT INTO availability_checks (request_id, member_id, status, expires_at)
        SELECT c.request_id, p.member_id, 'pending', now() + interval '7 days'
          FROM catalogue_picks p
          JOIN catalogues c ON c.id = p.catalogue_id
         WHERE c.kind = 'standard'
           AND NOT EXISTS (SELECT 1 FROM availability_checks a
                            WHERE a.request_id = c.request_id AND a.member_id = p.member_id
                              AND a.status = 'pending')
         ORDER BY p.id
         LIMIT 1
        RETURNING id")"
    [[ -n $check_id ]] || die "could not open an availability check to link to"
fi
# The whole-story test (end2end/story.test.mjs) builds the catalogue of a
# request no other test touches, then runs the same kind of request again.
# Both are copies of a demo request for a large cocktail (same pool, event
# type, text, group and configurations; in the demo data, a launch for 210
# guests whose search fills both tiers), searched over the whole pool: the
# Lieux page's link for a request carries no centre, so neither has one.
story_source="$(sql "SELECT id FROM requests
     WHERE id > 5 AND NOT workspace_scenario AND event_type IS NOT NULL
       AND participants >= 150 AND 'cocktail' = ANY (configurations)
     ORDER BY id LIMIT 1")"
[[ -n $story_source ]] || die "the seed made no large cocktail request to copy for the story test"
copy_request() {
    sql "INSERT INTO requests (reference, pool_id, source, organizer_name, organizer_email,
            description, event_type, participants, budget_eur, configurations, area,
            event_start_date, event_end_date, date_flexible)
        SELECT reference || '$1', pool_id, 'manual', organizer_name, organizer_email,
            description, event_type, participants, budget_eur, configurations, NULL,
            event_start_date, event_end_date, date_flexible
          FROM requests WHERE id = $story_source
        RETURNING id"
}
story_id="$(copy_request -RECIT)"
twin_id="$(copy_request -BIS)"
export MAXY_E2E_STORY_REQUEST_ID="$story_id" MAXY_E2E_STORY_TWIN_ID="$twin_id"
say "story: request $story_id and its twin $twin_id"
# The catalogue-proposals test (end2end/catalogue_proposals.test.mjs) qualifies
# a request in Paris 14e whose draft is full: 4 + 4 venues of its pool, the
# farthest from Montparnasse.
full_id="$(sql "INSERT INTO requests (reference, pool_id, source, description, event_type,
        participants, configurations, area, center_lat, center_lng, radius_km)
    SELECT 'T-BROUILLON-PLEIN', id, 'manual', 'Cocktail de fin d''année pour 40 personnes',
        'cocktail', 40, '{cocktail,banquet}', '8 km autour de Paris 14e', 48.8331, 2.3264, 8
      FROM pools WHERE slug = 'hotels'
    RETURNING id")"
sql "WITH c AS (INSERT INTO catalogues (request_id, kind, status) VALUES ($full_id, 'standard', 'draft') RETURNING id)
     INSERT INTO catalogue_picks (catalogue_id, member_id, tier, position, explanation, added_by)
     SELECT c.id, v.id, CASE WHEN v.n <= 4 THEN 'recommended' ELSE 'compatible' END, (v.n - 1) % 4,
            'Choisi par l''équipe.', 'team'
       FROM c, (SELECT m.id, row_number() OVER (ORDER BY earth_distance(ll_to_earth(m.lat, m.lng),
                    ll_to_earth(48.8421, 2.3219)) DESC NULLS LAST, m.id) AS n
                  FROM members m JOIN pools p ON p.id = m.pool_id
                 WHERE p.slug = 'hotels' AND m.status = 'active') v
      WHERE v.n <= 8" >/dev/null
export MAXY_E2E_FULL_DRAFT_REQUEST_ID="$full_id"
MAXY_E2E_CATALOGUE_URL="$(issue_link catalogue "$catalogue_id")"
MAXY_E2E_AVAILABILITY_URL="$(issue_link availability "$check_id")"
export MAXY_E2E_CATALOGUE_URL MAXY_E2E_AVAILABILITY_URL
# The home queue test (end2end/home_queue.test.mjs): a sent catalogue of a
# request assigned to the demo team member, so that the organizer's comment
# and favourite reach her « À faire ».
home_request="$(sql "INSERT INTO requests (reference, pool_id, source, organizer_name, description,
        event_type, participants, status, assigned_user_id)
    SELECT r.reference || '-AF', r.pool_id, 'manual', 'Nadia Rousseau', r.description, r.event_type,
        r.participants, 'catalogue_sent', u.id
      FROM catalogues c JOIN requests r ON r.id = c.request_id, users u
     WHERE c.id = $catalogue_id AND u.email = 'camille.martin@reciprok.fr'
    RETURNING id")"
home_catalogue="$(sql "WITH c AS (INSERT INTO catalogues (request_id, kind, status, sent_at)
        VALUES ($home_request, 'standard', 'sent', now()) RETURNING id),
     p AS (INSERT INTO catalogue_picks (catalogue_id, member_id, tier, position, explanation, added_by)
        SELECT c.id, p.member_id, p.tier, p.position, p.explanation, 'team'
          FROM c, catalogue_picks p WHERE p.catalogue_id = $catalogue_id)
    SELECT id FROM c")"
[[ -n $home_catalogue ]] || die "could not make the home queue test's catalogue"
MAXY_E2E_HOME_CATALOGUE_URL="$(issue_link catalogue "$home_catalogue")"
export MAXY_E2E_HOME_CATALOGUE_URL
say "links issued: catalogue $catalogue_id, availability check $check_id"

server=""
stop_server() {
    [[ -n $server ]] || return 0
    kill -TERM "$server" 2>/dev/null || return 0
    # A graceful stop, then a hard one if it hangs.
    local i
    for ((i = 0; i < 50; i++)); do
        kill -0 "$server" 2>/dev/null || break
        sleep 0.2
    done
    kill -KILL "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
}
trap stop_server EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

DATABASE_URL="$e2e_url" "$maxy" serve >"$LOG_DIR/e2e-server.log" 2>&1 &
server=$!
wait_for 60 curl -fsS "$base_url/readyz" || {
    tail -n 20 "$LOG_DIR/e2e-server.log" >&2
    die "the server did not become ready at $base_url (log: $LOG_DIR/e2e-server.log)"
}
say "server ready at $base_url (log: $LOG_DIR/e2e-server.log)"

cd "$ROOT/end2end"
rc=0 t0=$SECONDS
# The tests need the links, not the key that signs them.
# MAXY_E2E_FILES (e.g. "story.test.mjs training.test.mjs") runs only those.
read -r -a files <<<"${MAXY_E2E_FILES:-}"
run_tests() { env -u MAXY_SECRET_KEY MAXY_BASE_URL="$base_url" npm test --silent -- "$@" || rc=$?; }
if ((${#files[@]} == 0)); then
    # The wording test reads every page of the demo as seeded: it runs
    # first, before the other files add their test text (hostile comments,
    # timestamped notes) to the pages it reads.
    run_tests wording.test.mjs
    mapfile -t files < <(ls ./*.test.mjs | grep -v '/wording\.test\.mjs$')
fi
run_tests "${files[@]}"
say "end-to-end tests: $((SECONDS - t0)) s"
if ((rc != 0)); then
    die "end-to-end tests failed (exit $rc); server log: $LOG_DIR/e2e-server.log"
fi
