// The Lieux page in Chromium: a search from the form (hydrated), the same
// search from its shareable URL with JavaScript off (server-rendered), and a
// bad value refused with a clear message.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  BASE_URL,
  TEAM,
  TEST_TIMEOUT,
  heading,
  location,
  signIn,
  useBrowser,
  waitForHydration,
  withPage,
} from './support.mjs';

useBrowser();

// No mood words: the pick does not depend on venue vectors, which the job
// workers are still computing when the tests start.
const QUERY = 'dans le 9e pour 40 personnes en cocktail';

/** Every pick shows its matched room (cocktail, ≥ 40) and a reason. */
async function assertPicks(page) {
  const picks = page.getByTestId('venue-pick');
  await picks.first().waitFor();
  const count = await picks.count();
  assert.ok(count >= 1 && count <= 8, `${count} picks`);
  for (let i = 0; i < count; i += 1) {
    const room = await picks.nth(i).getByTestId('matched-room').innerText();
    const [, capacity] = room.match(/(\d+) places/) ?? [];
    assert.ok(Number(capacity) >= 40, `matched room holds the group: ${room}`);
    assert.match(room, /cocktail/, room);
  }
  const stats = await page.getByTestId('search-stats').innerText();
  assert.match(stats, /candidats/);
  assert.match(stats, /classement .*\((score déterministe|IA)\)/, 'the ranking source is named in French');
  const understood = await page.getByTestId('venue-results').innerText();
  assert.match(understood, /Compris : .*75009/);
  assert.match(understood, /lu par les règles/, 'who read the request is said');
}

test('a search from the Lieux form lists picks with their matched room', { timeout: TEST_TIMEOUT }, async () => {
  await withPage({}, async (page, problems) => {
    await signIn(page, TEAM, { suivant: '/lieux' });
    await heading(page, 'Lieux').waitFor();
    await waitForHydration(page, problems);
    const form = page.getByTestId('venue-search-form');
    await form.locator('select[name="pool"]').selectOption('lieux-atypiques');
    await form.locator('input[name="q"]').fill(QUERY);
    await form.getByRole('button', { name: 'Rechercher' }).click();
    await page.waitForURL((url) => url.searchParams.get('q') === QUERY);
    assert.equal(location(page).searchParams.get('pool'), 'lieux-atypiques');
    await assertPicks(page);
    assert.deepEqual(problems, []);
  });
});

test('the shareable search URL renders its results without JavaScript', { timeout: TEST_TIMEOUT }, async () => {
  await withPage({ javaScriptEnabled: false }, async (page) => {
    await signIn(page, TEAM, { js: false });
    const url = `${BASE_URL}/lieux?pool=lieux-atypiques&q=${encodeURIComponent(QUERY)}`;
    const res = await page.goto(url);
    assert.equal(res?.status(), 200);
    await assertPicks(page);
  });
});

test('a bad search value is refused with a clear message', { timeout: TEST_TIMEOUT }, async () => {
  await withPage({ javaScriptEnabled: false }, async (page) => {
    await signIn(page, TEAM, { js: false });
    await page.goto(`${BASE_URL}/lieux?pool=lieux-atypiques&q=cocktail&cp=7500`);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.match(await alert.innerText(), /Code postal invalide/);
    assert.equal(await page.getByTestId('venue-pick').count(), 0);
  });
});

test('« Compris » shows what the request implies: a range, a layout from the event, a budget', { timeout: TEST_TIMEOUT }, async () => {
  await withPage({ javaScriptEnabled: false }, async (page) => {
    await signIn(page, TEAM, { js: false });
    const q = 'conférence pour 80 à 120 personnes dans le 9e, budget 60 €/pers';
    await page.goto(`${BASE_URL}/lieux?pool=lieux-atypiques&q=${encodeURIComponent(q)}`);
    const results = page.getByTestId('venue-results');
    await results.waitFor();
    const text = await results.innerText();
    assert.match(text, /80 à 120 personnes/, text);
    assert.match(text, /théâtre/, text);
    assert.match(text, /60 €/, text);
    for (const room of await page.getByTestId('matched-room').allInnerTexts()) {
      const [, capacity] = room.match(/(\d+) places/) ?? [];
      assert.ok(Number(capacity) >= 80, `the range filters on its lower bound: ${room}`);
      assert.match(room, /théâtre/, room);
    }
  });
});

test('an unknown postal code is said, and no venue from elsewhere is shown', { timeout: TEST_TIMEOUT }, async () => {
  await withPage({ javaScriptEnabled: false }, async (page) => {
    await signIn(page, TEAM, { js: false });
    await page.goto(`${BASE_URL}/lieux?pool=lieux-atypiques&q=${encodeURIComponent('cocktail 40 personnes 75999')}`);
    await page.getByTestId('venue-results').waitFor();
    assert.match(await page.getByTestId('venue-results').innerText(), /Code postal inconnu : 75999/);
    assert.equal(await page.getByTestId('venue-pick').count(), 0);
  });
});

test('a request with nothing to search asks what is wanted', { timeout: TEST_TIMEOUT }, async () => {
  await withPage({ javaScriptEnabled: false }, async (page) => {
    await signIn(page, TEAM, { js: false });
    await page.goto(`${BASE_URL}/lieux?pool=lieux-atypiques&q=${encodeURIComponent('des lieux stp')}`);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.match(await alert.innerText(), /Que cherchez-vous/);
    assert.equal(await page.getByTestId('venue-pick').count(), 0);
  });
});
