// Magic links: what an organizer and a venue see, without an account.
//
// scripts/e2e.sh issues the links (`maxy link catalogue|availability …`) and
// passes them in:
//   MAXY_E2E_CATALOGUE_URL     a link to a sent catalogue     (…/c/<token>)
//   MAXY_E2E_AVAILABILITY_URL  a link to a pending check      (…/v/<token>)
// The availability test answers the check, so its link works once: issue a
// fresh one to run it again. Without these variables the tests are skipped.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  TEST_TIMEOUT,
  hasSession,
  heading,
  mainNav,
  userMenu,
  useBrowser,
  assertNoBundle,
  withPage,
} from './support.mjs';

useBrowser();

const CATALOGUE_URL = process.env.MAXY_E2E_CATALOGUE_URL;
const AVAILABILITY_URL = process.env.MAXY_E2E_AVAILABILITY_URL;
const NO_CATALOGUE = !CATALOGUE_URL && 'MAXY_E2E_CATALOGUE_URL is not set (scripts/e2e.sh issues one)';
const NO_AVAILABILITY = !AVAILABILITY_URL && 'MAXY_E2E_AVAILABILITY_URL is not set (scripts/e2e.sh issues one)';

const INVALID_LINK = "Ce lien n'est pas valide ou a expiré";

/** The same link with one character of its token changed. */
function tampered(link) {
  const url = new URL(link);
  const i = url.pathname.lastIndexOf('/') + 1;
  // The first character: fully significant in base64url (the last may not be).
  const c = url.pathname[i];
  url.pathname = url.pathname.slice(0, i) + (c === 'A' ? 'B' : 'A') + url.pathname.slice(i + 1);
  return url.href;
}

/** A link page shows nothing of the team's app. */
async function assertNoTeamFrame(page) {
  assert.equal(await mainNav(page).count(), 0, 'no team navigation');
  assert.equal(await userMenu(page).count(), 0, 'no user menu');
  assert.ok(!(await hasSession(page)), 'no session cookie');
}

test('a catalogue link shows the selection, and nothing of the team app', { timeout: TEST_TIMEOUT, skip: NO_CATALOGUE }, async () => {
  await withPage({}, async (page, problems) => {
    const res = await page.goto(CATALOGUE_URL);
    assert.equal(res?.status(), 200);
    assert.equal(new URL(page.url()).pathname, new URL(CATALOGUE_URL).pathname, 'no redirect');
    await heading(page, 'Votre sélection de lieux').waitFor();

    const picks = page.getByTestId('catalogue-pick');
    assert.ok((await picks.count()) >= 1, 'at least one venue in the catalogue');
    const sections = page.getByRole('heading', { level: 2, name: /^(Fortement recommandés|Compatibles)$/ });
    assert.ok((await sections.count()) >= 1, 'a "Fortement recommandés" or "Compatibles" section');

    // The URL holds the token: the page must not leak it to other sites.
    const referrer = await page.locator('head meta[name="referrer"]').evaluateAll((metas) => metas.map((m) => m.content));
    assert.ok(referrer.length >= 1, 'a <meta name="referrer">');
    assert.deepEqual([...new Set(referrer)], ['same-origin'], '<meta name="referrer" content="same-origin">');

    await assertNoTeamFrame(page);
    // Link pages load no wasm (ADR 0036): their forms post as they are.
    await assertNoBundle(page);
    assert.deepEqual(problems, []);
  });
});

test('a tampered catalogue link is refused', { timeout: TEST_TIMEOUT, skip: NO_CATALOGUE }, async () => {
  await withPage({}, async (page) => {
    const res = await page.goto(tampered(CATALOGUE_URL));
    assert.equal(res?.status(), 404);
    await page.getByRole('alert').getByText(INVALID_LINK).waitFor();
    assert.equal(await page.getByTestId('catalogue-pick').count(), 0, 'no venue shown');
    assert.equal(await heading(page, 'Votre sélection de lieux').count(), 0);
    await assertNoTeamFrame(page);
  });
});

test('a venue answers its availability link once, through the form', { timeout: TEST_TIMEOUT, skip: NO_AVAILABILITY }, async () => {
  const comment = `Salle libre ce jour-là (test ${Date.now()}).`;
  await withPage({}, async (page, problems) => {
    const res = await page.goto(AVAILABILITY_URL);
    assert.equal(res?.status(), 200);
    await heading(page, 'Disponibilité demandée').waitFor();
    await assertNoTeamFrame(page);
    const send = page.getByRole('button', { name: 'Envoyer ma réponse', exact: true });
    assert.equal(await send.count(), 1, 'the answer form (is the check still pending? each run needs a fresh link)');
    // Link pages load no wasm (ADR 0036): their forms post as they are.
    await assertNoBundle(page);

    await page.getByRole('radio', { name: 'Oui', exact: true }).check();
    await page.getByRole('textbox', { name: /Commentaire/ }).fill(comment);
    await send.click();

    const status = page.getByTestId('availability-status');
    await status.getByText('Vous avez indiqué être disponible. Merci !', { exact: true }).waitFor();
    await status.getByText(comment).waitFor();
    assert.equal(await send.count(), 0, 'the form is gone');
    assert.equal(await page.getByRole('alert').count(), 0, 'no error');
    assert.deepEqual(problems, []);

    // The answer is stored: a new load shows it, and no form.
    const again = await page.reload();
    assert.equal(again?.status(), 200);
    await status.getByText('Vous avez indiqué être disponible. Merci !', { exact: true }).waitFor();
    await status.getByText(comment).waitFor();
    assert.equal(await page.getByRole('radio').count(), 0, 'no form after reload');
    assert.equal(await send.count(), 0, 'no submit button after reload');
  });
});
