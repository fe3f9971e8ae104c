// The second security review's findings, in the browser: text stored in a
// <textarea> cannot close it (with JavaScript and without), a trailing slash
// lands on the page, and a NUL character gets a French answer, not a 500.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  BASE_URL,
  TEAM,
  TEST_TIMEOUT,
  assertNoBundle,
  heading,
  location,
  signIn,
  useBrowser,
  waitForHydration,
  withPage,
} from './support.mjs';

useBrowser();

const CATALOGUE_URL = process.env.MAXY_E2E_CATALOGUE_URL;
const NO_CATALOGUE = !CATALOGUE_URL && 'MAXY_E2E_CATALOGUE_URL is not set (scripts/e2e.sh issues one)';

/** What the reviewer stored: it tries to close the field and plant markup. */
const payload = (id) =>
  `Merci</textarea><h1 id="${id}">Lien expiré</h1><meta http-equiv="refresh" content="30;url=about:blank"><!-- </script><textarea>`;

/** The page has none of the payload's elements, and the field holds it whole. */
async function assertInert(page, field, id, value) {
  assert.equal(await page.locator(`#${id}`).count(), 0, `no <h1 id="${id}"> on ${location(page).pathname}`);
  assert.equal(await page.locator('meta[http-equiv="refresh"]').count(), 0, 'no refresh tag');
  assert.equal(await field.inputValue(), value, 'the field shows exactly what was saved');
}

/** The answer to the form's post (a fetch with JavaScript, a navigation without). */
const saved = (page, endpoint) =>
  page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === endpoint);

/** Opens the first request of the list; returns its path. */
async function openFirstRequest(page) {
  await page.goto(`${BASE_URL}/demandes`);
  const first = page.getByTestId('request-link').first();
  const href = await first.getAttribute('href');
  await page.goto(`${BASE_URL}${href}`);
  await page.getByTestId('team-memo').waitFor();
  return href;
}

for (const js of [true, false]) {
  const mode = js ? 'with JavaScript' : 'without JavaScript';

  test(`a memo that holds </textarea> stays text (${mode})`, { timeout: TEST_TIMEOUT }, async () => {
    await withPage({ javaScriptEnabled: js }, async (page, problems) => {
      await signIn(page, TEAM, { js });
      const path = await openFirstRequest(page);
      if (js) await waitForHydration(page, problems);
      const id = `memo-${js ? 'js' : 'nojs'}`;
      const value = payload(id);
      await page.getByTestId('team-memo').fill(value);
      await Promise.all([saved(page, '/api/requests/edit'), page.getByTestId('save-notes').click()]);
      await page.goto(`${BASE_URL}${path}`);
      await page.getByTestId('team-memo').waitFor();
      if (js) await waitForHydration(page, problems);
      await assertInert(page, page.getByTestId('team-memo'), id, value);
      if (js) assert.deepEqual(problems, []);
    });
  });

  test(`an organizer's comment that holds </textarea> stays text (${mode})`, { timeout: TEST_TIMEOUT, skip: NO_CATALOGUE }, async () => {
    await withPage({ javaScriptEnabled: js }, async (page, problems) => {
      await page.goto(CATALOGUE_URL);
      await heading(page, 'Votre sélection de lieux').waitFor();
      // The organizer's page loads no wasm (ADR 0036): its forms post as they are.
      if (js) await assertNoBundle(page);
      const id = `comment-${js ? 'js' : 'nojs'}`;
      const value = payload(id);
      const field = page.getByTestId('organizer-comment');
      await field.fill(value);
      const submit = page.getByRole('button', { name: 'Enregistrer le commentaire', exact: true });
      await Promise.all([saved(page, '/api/links/catalogue/comment'), submit.click()]);
      await page.goto(CATALOGUE_URL);
      await field.waitFor();
      if (js) await assertNoBundle(page);
      await assertInert(page, field, id, value);
      if (js) assert.deepEqual(problems, []);
    });
  });
}

test('a trailing slash lands on the page itself', { timeout: TEST_TIMEOUT }, async () => {
  await withPage({}, async (page) => {
    await signIn(page, TEAM);
    for (const path of ['/demandes/', '/lieux/', '/memoire/']) {
      const res = await page.goto(`${BASE_URL}${path}`);
      assert.equal(res?.status(), 200, path);
      assert.equal(location(page).pathname, path.slice(0, -1));
    }
    const link = await page.goto(`${BASE_URL}/c/not-a-token/`);
    assert.equal(link?.status(), 404);
  });
});

test('a NUL character in a search is refused in French', { timeout: TEST_TIMEOUT }, async () => {
  await withPage({ javaScriptEnabled: false }, async (page) => {
    await signIn(page, TEAM, { js: false });
    const res = await page.goto(`${BASE_URL}/lieux?q=rooftop%00`);
    assert.equal(res?.status(), 400);
    assert.match(await page.locator('body').innerText(), /caractère nul/);
  });
});
