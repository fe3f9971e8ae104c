// Outreach through magic links: the organizer marks favourites and leaves a
// comment on the catalogue page, with JavaScript on (updated in place) and
// off (plain form posts, back to the page); a venue answers "available with
// conditions" on a link the team just issued, and the team reads the answer.
//
// MAXY_E2E_CATALOGUE_URL comes from scripts/e2e.sh (a sent catalogue). The
// availability part signs in as the team and asks a venue of request
// MAXY_E2E_REQUEST_ID (default 1) through the team's server function.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  BASE_URL,
  TEAM,
  TEST_TIMEOUT,
  heading,
  markAFavourite,
  saveOrganizerComment as comment,
  signIn,
  useBrowser,
  assertNoBundle,
  withPage,
} from './support.mjs';

useBrowser();

const CATALOGUE_URL = process.env.MAXY_E2E_CATALOGUE_URL;
const NO_CATALOGUE = !CATALOGUE_URL && 'MAXY_E2E_CATALOGUE_URL is not set (scripts/e2e.sh issues one)';
const REQUEST_ID = process.env.MAXY_E2E_REQUEST_ID || '1';

test('the organizer marks a favourite and comments, JavaScript on', { timeout: TEST_TIMEOUT, skip: NO_CATALOGUE }, async () => {
  await withPage({}, async (page, problems) => {
    const res = await page.goto(CATALOGUE_URL);
    assert.equal(res?.status(), 200);
    await heading(page, 'Votre sélection de lieux').waitFor();
    // Link pages load no wasm (ADR 0036): their forms post as they are.
    await assertNoBundle(page);
    const name = await markAFavourite(page);
    assert.equal(new URL(page.url()).pathname, new URL(CATALOGUE_URL).pathname, 'updated in place');
    const text = `Nous aimons beaucoup ${name} (test ${Date.now()}).`;
    await comment(page, text);

    // Stored: a fresh load shows both.
    await page.reload();
    await page.locator('[data-testid="catalogue-pick"][data-favorite="true"]', { hasText: name }).waitFor();
    assert.equal(await page.getByTestId('organizer-comment').inputValue(), text);
    assert.equal(await page.getByRole('alert').count(), 0, 'no error');
    assert.deepEqual(problems, []);
  });
});

test('the organizer marks a favourite and comments, JavaScript off', { timeout: TEST_TIMEOUT, skip: NO_CATALOGUE }, async () => {
  await withPage({ javaScriptEnabled: false }, async (page) => {
    const res = await page.goto(CATALOGUE_URL);
    assert.equal(res?.status(), 200);
    await heading(page, 'Votre sélection de lieux').waitFor();
    const name = await markAFavourite(page);
    assert.equal(new URL(page.url()).pathname, new URL(CATALOGUE_URL).pathname, 'back on the catalogue');
    await comment(page, `Sans JavaScript : ${name} (test ${Date.now()}).`);
    assert.equal(await page.getByRole('alert').count(), 0, 'no error');
  });
});

test('a venue answers with conditions, and the team reads it', { timeout: TEST_TIMEOUT }, async (t) => {
  await withPage({}, async (team) => {
    await signIn(team, TEAM);
    const call = async (name, form) => {
      const res = await team.request.post(`${BASE_URL}/api/outreach/${name}`, { form, headers: { origin: BASE_URL } });
      assert.equal(res.status(), 200, `${name}: ${await res.text()}`);
      return res.json();
    };
    const view = await call('view', { request_id: REQUEST_ID });
    const member = view.catalogue?.picks?.[0]?.member_id ?? view.checks?.[0]?.member_id;
    if (!member) {
      t.skip(`request ${REQUEST_ID} has no venue to ask`);
      return;
    }
    const [sent] = await call('availability', { request_id: REQUEST_ID, 'member_ids[0]': String(member) });
    assert.match(sent.path, /^\/v\//);

    await withPage({}, async (page, problems) => {
      const res = await page.goto(`${BASE_URL}${sent.path}`);
      assert.equal(res?.status(), 200);
      await heading(page, 'Disponibilité demandée').waitFor();
      // Link pages load no wasm (ADR 0036): their forms post as they are.
      await assertNoBundle(page);
      await page.getByRole('radio', { name: 'Oui, sous conditions', exact: true }).check();
      await page.getByRole('button', { name: 'Envoyer ma réponse', exact: true }).click();
      // Conditions are required with that answer.
      await page.getByRole('alert').waitFor();
      await page.getByRole('radio', { name: 'Oui, sous conditions', exact: true }).check();
      await page.getByTestId('availability-conditions-input').fill('Uniquement en soirée');
      await page.getByRole('button', { name: 'Envoyer ma réponse', exact: true }).click();
      await page.getByTestId('availability-status').getByText('Vous avez indiqué être disponible sous conditions. Merci !').waitFor();
      await page.getByTestId('availability-conditions').getByText('Uniquement en soirée').waitFor();
    });

    const after = await call('view', { request_id: REQUEST_ID });
    const check = after.checks.find((c) => c.check_id === sent.check_id);
    assert.equal(check?.status, 'available');
    assert.equal(check?.conditions, 'Uniquement en soirée');
    assert.ok(check?.delay, 'the delay is shown');
  });
});
