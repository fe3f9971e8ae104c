// The team's French on every page of the demo (issue 29): signed in as a team
// member and as an admin, and through an organizer's and a venue's link,
// the test reads every page of `routes::PAGES` (wide and phone-sized) and
// fails, naming page, rule and text, on a slug or stored key, a snake_case
// or dotted key, a wrapper tag, an unformatted number, a UTC time, an
// engineering word or a « tu ». The rules live in wording.mjs.
//
// MAXY_WORDING_ONLY (a regular expression over paths, e.g. "^/console")
// reads only those pages and skips the check that every page was read.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ADMIN,
  BASE_URL,
  TEAM,
  location,
  signIn,
  useBrowser,
  waitForHydration,
  withPage,
} from './support.mjs';
import { findProblems, matchesPattern, pageText, routePatterns } from './wording.mjs';

useBrowser();

const ONLY = process.env.MAXY_WORDING_ONLY ? new RegExp(process.env.MAXY_WORDING_ONLY) : null;
const CATALOGUE_URL = process.env.MAXY_E2E_CATALOGUE_URL;
const AVAILABILITY_URL = process.env.MAXY_E2E_AVAILABILITY_URL;
const SEARCH = `/lieux?pool=lieux-atypiques&q=${encodeURIComponent('dans le 9e pour 40 personnes en cocktail')}`;
const PHONE = { width: 390, height: 844 };
const WIDE = { width: 1440, height: 900 };
const WORDING_TIMEOUT = 300_000;

/** What was read: `{ who, path, text }` per page and viewport. */
const readings = [];
/** Keys known only at run time: the demo pools' slugs. */
const runtimeKeys = { pools: [] };

const wanted = (path) => !ONLY || ONLY.test(path);

/**
 * Waits for the wasm to take over, when it does: the wording is read either
 * way (the pages are server-rendered whole), and whether a page hydrates is
 * other tests' business.
 */
async function settle(page) {
  try {
    await page.locator('body[data-hydrated="true"]').waitFor({ state: 'attached', timeout: 15_000 });
  } catch {
    // Read what the server sent.
  }
}

/**
 * Opens `path` (a path of the app or a whole URL) and keeps its text, wide
 * and phone-sized. `hydrate`: wait for the wasm first (pages of the app).
 */
async function read(page, _problems, who, path, { hydrate = true, status } = {}) {
  const url = path.startsWith('http') ? path : `${BASE_URL}${path}`;
  const shown = path.startsWith('http') ? new URL(path).pathname : path;
  if (!wanted(shown)) return null;
  await page.setViewportSize(WIDE);
  const res = await page.goto(url);
  if (status !== undefined) assert.equal(res?.status(), status, `GET ${shown}`);
  if (hydrate) await settle(page);
  return keep(page, who, shown);
}

/** Keeps the current page's text, wide then phone-sized. */
async function keep(page, who, shown) {
  await page.setViewportSize(WIDE);
  readings.push({ who, path: shown, text: await pageText(page) });
  await page.setViewportSize(PHONE);
  readings.push({ who, path: `${shown} (phone)`, text: await pageText(page) });
  await page.setViewportSize(WIDE);
  return shown;
}

/** The `data-id` of the first request row of a list page, if any. */
async function firstRequestId(page, which = 'first') {
  const rows = page.getByTestId('request-row');
  if (!(await rows.count())) return null;
  return (which === 'last' ? rows.last() : rows.first()).getAttribute('data-id');
}

test('the rules catch what the issue found', () => {
  const found = (text) => findProblems(text, { pools: ['chateaux'] }).map((p) => `${p.rule}: ${p.found}`);
  assert.deepEqual(found('Séminaire · 2\u202f635 lieux · à 850\u00a0m · 1,2\u00a0km · 06/12/2026 14:05 · D-2025-00043 · 75008 Paris'), []);
  assert.deepEqual(found('Soirée : soiree'), ['raw key (event_types): soiree']);
  assert.deepEqual(found('réseau chateaux'), ['raw key (pools): chateaux']);
  assert.deepEqual(found('2635 lieux'), ['unformatted number: 2635']);
  assert.deepEqual(found('à 1000 m'), ['unformatted number: 1000']);
  assert.deepEqual(found('Zone : 48,8650'), ['long decimal (coordinates?): 48,8650']);
  assert.deepEqual(found('la demande n° 43'), ['internal id instead of a reference: demande n° 43']);
  assert.deepEqual(found('1 déplacées'), ['agreement: 1 déplacées']);
  assert.deepEqual(found('12\u00a0ms / 0\u00a0ms / 1\u00a0ms'), [], 'a unit is invariable');
  assert.deepEqual(found('lu par les règles'), ['jargon: lu par les règles']);
  assert.ok(found('Heure (UTC)').includes('ISO date or UTC time: UTC'));
  assert.ok(found('<third_party>x</third_party>').includes('wrapper tag: <third_party>'));
  assert.ok(found('action auth.sign_in').includes('dotted key: auth.sign_in'));
  assert.deepEqual(found('Tu peux'), ['« tu » instead of « vous »: Tu']);
  assert.deepEqual(found('le score est bon'), ['engineering word: score']);
});

test('anonymous pages and the outsiders\' links', { timeout: WORDING_TIMEOUT }, async () => {
  await withPage({}, async (page, problems) => {
    await read(page, problems, 'anonymous', '/connexion', { status: 200 });
    await read(page, problems, 'anonymous', `/page-introuvable-${Date.now()}`, { status: 404, hydrate: false });
    // The links are only read (GET never writes): the venue's answer stays open for other tests.
    if (CATALOGUE_URL) await read(page, problems, 'organizer', CATALOGUE_URL, { status: 200 });
    if (AVAILABILITY_URL) await read(page, problems, 'venue', AVAILABILITY_URL, { status: 200 });
  });
});

test('the team\'s pages, with real requests, a search, a venue and a proposal', { timeout: WORDING_TIMEOUT }, async () => {
  await withPage({}, async (page, problems) => {
    await signIn(page, TEAM);
    await read(page, problems, 'team', '/');
    await read(page, problems, 'team', '/demandes');
    await page.goto(`${BASE_URL}/demandes?status=catalogue_sent`);
    const sent = await firstRequestId(page);
    await read(page, problems, 'team', '/demandes?status=catalogue_sent');
    await page.goto(`${BASE_URL}/demandes?status=new`);
    // The last new request of the first page: the chat tests take the first ones.
    const fresh = await firstRequestId(page, 'last');
    await read(page, problems, 'team', '/demandes?status=new');
    assert.ok(sent && fresh, 'the demo has a request with a sent catalogue and a new one');
    await read(page, problems, 'team', `/demandes/${sent}`);
    await read(page, problems, 'team', `/demandes/${sent}/catalogue`);
    await read(page, problems, 'team', `/demandes/${fresh}`);
    await read(page, problems, 'team', '/atelier');
    await read(page, problems, 'team', '/lieux');
    await read(page, problems, 'team', SEARCH);
    if (wanted('/lieux')) {
      // The pools' slugs are the demo's data: read them where the page offers them.
      runtimeKeys.pools = await page.locator('select[name="pool"] option').evaluateAll((options) =>
        options
          .filter((o) => o.value && o.value.toLowerCase() !== o.textContent.trim().toLowerCase())
          .map((o) => o.value),
      );
      assert.ok(runtimeKeys.pools.length > 0, 'the search form lists the pools');
    }
    const sheet = page.getByTestId('venue-sheet-link').first();
    if (wanted('/lieux/') && (await sheet.count())) {
      await read(page, problems, 'team', await sheet.getAttribute('href'));
    }
    await read(page, problems, 'team', '/memoire');
    await read(page, problems, 'team', '/entrainement');
    await read(page, problems, 'team', '/chat');
    if (wanted('/chat/')) {
      // A conversation with an approval card: the offline planner proposes a catalogue.
      await page.goto(`${BASE_URL}/chat?request=${fresh}`);
      await waitForHydration(page, problems);
      const input = page.getByTestId('chat-input');
      await input.fill('Qualifie cette demande');
      await input.press('Enter');
      await page.waitForURL((url) => /^\/chat\/\d+$/.test(url.pathname));
      await page.getByTestId('chat-running').waitFor({ state: 'detached', timeout: 90_000 });
      await page.getByTestId('turn-end').last().waitFor({ state: 'attached', timeout: 60_000 });
      // The planner proposes a catalogue when the request is complete enough;
      // otherwise it asks a question, and that answer is read all the same.
      const card = await page.getByTestId('approval-card').count();
      if (!card) console.log(`# wording: no approval card after qualifying request ${fresh}`);
      const conversation = location(page).pathname;
      await keep(page, 'team', `${conversation} (live)`);
      await read(page, problems, 'team', conversation);
    }
  });
});

test('the admin\'s console', { timeout: WORDING_TIMEOUT }, async () => {
  await withPage({}, async (page, problems) => {
    await signIn(page, ADMIN);
    for (const path of [
      '/console',
      '/console?journal=equipe',
      '/console?journal=exterieurs',
      '/console?journal=systeme',
      '/console/comptes',
      '/console/playbooks',
      '/console/stations',
      '/console/decisions',
      '/console/motifs',
      '/console/simulateur',
      '/console/mesures',
      '/console/mesures/lignes?famille=appels&jours=30',
      '/console/mesures/lignes?famille=recherches&jours=30',
      '/console/mesures/lignes?famille=validations&jours=30',
    ]) {
      await read(page, problems, 'admin', path);
    }
  });
});

test('no page shows a key, a slug, a tag, a raw number, UTC, jargon or « tu »', () => {
  const failures = [];
  for (const { who, path, text } of readings) {
    for (const p of findProblems(text, runtimeKeys)) {
      failures.push(`${path} [${who}] — ${p.rule}: « ${p.found} » in « ${p.excerpt} »`);
    }
  }
  assert.ok(readings.length > 0, 'some page was read');
  assert.deepEqual(failures, [], `\n${failures.length} wording problems:\n${failures.join('\n')}\n`);
});

test('every page of routes::PAGES was read', { skip: ONLY ? 'MAXY_WORDING_ONLY reads some pages only' : false }, () => {
  const read = readings.map((r) => r.path.split(/[?\s]/)[0]);
  const links = { '/c/:token': CATALOGUE_URL, '/v/:token': AVAILABILITY_URL };
  const missing = routePatterns().filter(
    (pattern) => !(pattern in links && !links[pattern]) && !read.some((path) => matchesPattern(pattern, path)),
  );
  assert.deepEqual(missing, [], `pages never read (add them to wording.test.mjs): ${missing.join(', ')}`);
});
