// The admin playbook console in Chromium (issue « Playbooks », Must show):
// a week of calls made outside any playbook is planted with a pattern; the
// console's « Analyser la semaine maintenant » finds it with its count and
// drafts a suggested playbook; accepting it lists the playbook
// « En observation ». Without JavaScript: a station's thresholds out of
// order are refused with the message and left unchanged, and an invalid
// YAML edit is refused with its line and field, the version in force
// unchanged. Every console page fits a 390 px phone (tables scroll inside
// their box).
//
// The week is planted with psql in the e2e database (`maxy_e2e` on the
// server of DATABASE_URL, as scripts/e2e.sh makes it; or
// MAXY_E2E_DATABASE_URL).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  ADMIN,
  BASE_URL,
  TEST_TIMEOUT,
  heading,
  signIn,
  useBrowser,
  waitForHydration,
  withPage,
} from './support.mjs';

useBrowser();

function databaseUrl() {
  if (process.env.MAXY_E2E_DATABASE_URL) return process.env.MAXY_E2E_DATABASE_URL;
  const base = process.env.DATABASE_URL;
  assert.ok(base, 'DATABASE_URL (or MAXY_E2E_DATABASE_URL) is needed to plant the week');
  return `${base.replace(/\/[^/]*$/, '')}/maxy_e2e`;
}

/** One value (or nothing) from the e2e database. */
const sql = (query) =>
  execFileSync('psql', [databaseUrl(), '-qXAt', '-v', 'ON_ERROR_STOP=1', '-c', query], { encoding: 'utf8' }).trim();

// A pattern no demo week has: « Nouveau rappel » right after « Comptage des lieux ».
const PLANTED_KEY = 'after:count_members|call:create_reminder';
const PLANTED_COUNT = 9;

test('a planted pattern is mined, its suggestion accepted, and the playbook is in observation', { timeout: TEST_TIMEOUT * 2 }, async () => {
  sql(`INSERT INTO observations (pattern_key, tool_name, after_tool, station, created_at)
       SELECT '${PLANTED_KEY}', 'create_reminder', 'count_members', 'chat', now() - interval '1 minute' * g
         FROM generate_series(1, ${PLANTED_COUNT}) g`);
  await withPage({}, async (page, problems) => {
    await signIn(page, ADMIN, { suivant: '/console/motifs' });
    await heading(page, 'Motifs').waitFor();
    await waitForHydration(page, problems);
    await page.getByTestId('trend-chart').locator('svg[role="img"]').waitFor();

    await page.getByTestId('mine-now').click();
    await page.waitForURL((url) => (url.searchParams.get('fait') ?? '').startsWith('analyse-'));
    await page.getByTestId('console-done').waitFor();

    const pattern = page.locator(`[data-testid="pattern"][data-key="${PLANTED_KEY}"]`);
    await pattern.waitFor();
    assert.equal(await pattern.getByTestId('pattern-count').innerText(), String(PLANTED_COUNT));
    const sentence = await pattern.getByTestId('pattern-sentence').innerText();
    assert.match(sentence, new RegExp(`^${PLANTED_COUNT} fois cette semaine, `));
    assert.doesNotMatch(sentence, /create_reminder|count_members/, 'tools in words, never their keys');

    const suggestion = page.getByTestId('suggestion').filter({ hasText: `${PLANTED_COUNT} fois cette semaine` });
    await suggestion.waitFor();
    const yaml = await suggestion.getByTestId('suggestion-yaml').inputValue();
    const name = yaml.match(/^name:\s*"?([a-z0-9-]+)"?/m)?.[1];
    assert.ok(name, `the draft names its playbook:\n${yaml}`);

    await suggestion.getByTestId('suggestion-accept').click();
    await page.waitForURL((url) => url.pathname === '/console/playbooks');
    await page.getByTestId('console-done').filter({ hasText: 'en observation' }).waitFor();
    const row = page.locator(`[data-testid="playbook-row"][data-name="${name}"]`);
    await row.waitFor();
    assert.equal(await row.getByTestId('playbook-status').innerText(), 'En observation');
    assert.deepEqual(problems, []);
  });
  assert.equal(
    sql(`SELECT p.status FROM suggested_playbooks s JOIN playbooks p ON p.id = s.accepted_playbook_id WHERE s.pattern_key = '${PLANTED_KEY}'`),
    'observe',
  );
});

test('thresholds out of order are refused and unchanged (JavaScript off)', { timeout: TEST_TIMEOUT }, async () => {
  const before = sql(`SELECT enforce_threshold || ' ' || suggest_threshold FROM stations WHERE name = 'chat'`);
  await withPage({ javaScriptEnabled: false }, async (page) => {
    await signIn(page, ADMIN, { suivant: '/console/stations', js: false });
    await heading(page, 'Stations').waitFor();
    const station = page.locator('[data-testid="station"][data-name="chat"]');
    const enforce = await station.getByTestId('station-chat-enforce').inputValue();
    await station.getByTestId('station-chat-suggest').fill('0.99');
    await station.getByTestId('station-chat-enforce').fill('0.6');
    await station.getByTestId('station-chat-submit').click();
    const error = page.getByTestId('station-error');
    await error.waitFor();
    assert.match(await error.innerText(), /« Suggérer dès » \(0\.99\) doit être inférieur ou égal au seuil « Imposer dès » \(0\.6\)/);
    assert.equal(
      await page.locator('[data-testid="station"][data-name="chat"]').getByTestId('station-chat-enforce').inputValue(),
      enforce,
      'the page shows the settings in force',
    );
  });
  assert.equal(sql(`SELECT enforce_threshold || ' ' || suggest_threshold FROM stations WHERE name = 'chat'`), before);
});

test('an invalid YAML edit is refused with its line and field (JavaScript off)', { timeout: TEST_TIMEOUT }, async () => {
  const name = sql(`SELECT name FROM playbooks ORDER BY id LIMIT 1`);
  assert.ok(name, 'the demo ships playbooks');
  const version = sql(`SELECT version FROM playbooks WHERE name = '${name}'`);
  await withPage({ javaScriptEnabled: false }, async (page) => {
    await signIn(page, ADMIN, { suivant: `/console/playbooks?nom=${name}`, js: false });
    await page.getByTestId('playbook').waitFor();
    const source = await page.getByTestId('playbook-edit-yaml').inputValue();
    // A step names a skill that does not exist.
    const broken = source.replace(/- skill: [a-z_]+/, '- skill: outil_inconnu');
    assert.notEqual(broken, source);
    await page.getByTestId('playbook-edit-yaml').fill(broken);
    await page.getByTestId('playbook-edit-submit').click();
    const error = page.getByTestId('playbook-edit-error');
    await error.waitFor();
    const message = await error.innerText();
    assert.match(message, /ligne \d+/, message);
    assert.match(message, /steps\[0\]\.skill/, message);
    assert.doesNotMatch(await page.getByTestId('playbook-yaml').innerText(), /outil_inconnu/, 'the version in force is shown unchanged');
  });
  assert.equal(sql(`SELECT version FROM playbooks WHERE name = '${name}'`), version);
});

test('the simulator answers its explicit form (JavaScript off)', { timeout: TEST_TIMEOUT }, async () => {
  await withPage({ javaScriptEnabled: false }, async (page) => {
    await signIn(page, ADMIN, { suivant: '/console/simulateur', js: false });
    await heading(page, 'Simulateur').waitFor();
    await page.getByTestId('simulate-explicit-submit').click();
    await page.waitForURL((url) => url.searchParams.has('explicite'));
    await page.getByTestId('simulation').waitFor();
    assert.equal(await page.getByTestId('simulation-mode').innerText(), 'Imposé');
    assert.equal(await page.getByTestId('simulation-opened').innerText(), 'qualifier-une-demande');
  });
});

test('every console page fits a 390 px phone', { timeout: TEST_TIMEOUT }, async () => {
  await withPage({ viewport: { width: 390, height: 844 } }, async (page) => {
    await signIn(page, ADMIN, { suivant: '/console' });
    for (const path of ['/console', '/console/playbooks', '/console/stations', '/console/decisions', '/console/motifs', '/console/simulateur']) {
      await page.goto(`${BASE_URL}${path}`);
      await page.getByRole('navigation', { name: 'Sections de la console' }).waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `${path} scrolls sideways by ${overflow} px at 390 px`);
    }
  });
});
