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
  // The stages' figures are for admins, folded under « Détails ».
  assert.equal(await page.getByTestId('search-stats').count(), 0, 'no figures for the team');
  assert.doesNotMatch(await page.getByTestId('venue-results').innerText(), /score|similarité/);
  const understood = await page.getByTestId('venue-results').innerText();
  assert.match(understood, /Compris : .*75009/);
  assert.match(understood, /lecture automatique, sans IA/, 'who read the request is said');
}

test('a search from the Lieux form lists picks with their matched room', { timeout: TEST_TIMEOUT }, async () => {
  await withPage({}, async (page, problems) => {
    await signIn(page, TEAM, { suivant: '/lieux' });
    await heading(page, 'Lieux').waitFor();
    await waitForHydration(page, problems);
    const form = page.getByTestId('venue-search-form');
    await form.locator('select[name="pool"]').selectOption('lieux-atypiques');
    await form.locator('textarea[name="q"]').fill(QUERY);
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

test('a city outside Île-de-France is said, and no Paris venue stands in for it', { timeout: TEST_TIMEOUT }, async () => {
  await withPage({ javaScriptEnabled: false }, async (page) => {
    await signIn(page, TEAM, { js: false });
    await page.goto(`${BASE_URL}/lieux?pool=lieux-atypiques&q=${encodeURIComponent('Quels lieux à Lyon pour 80 personnes en théâtre ?')}`);
    await page.getByTestId('venue-results').waitFor();
    assert.match(
      await page.getByTestId('venue-results').innerText(),
      /Je ne sais pas situer Lyon : la recherche ne connaît que Paris et l'Île-de-France\./,
    );
    assert.equal(await page.getByTestId('venue-pick').count(), 0);
    assert.equal(await page.getByTestId('search-pools').count(), 0, 'nothing was searched: no pools named');
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

// Issue 25: the page never picks a pool by itself. Opened bare, « Tous les
// pools » is chosen and nothing is searched; the search covers every pool
// and says so, with the order of the picks.
test('the Lieux page opened without a pool searches every pool and says which', { timeout: TEST_TIMEOUT }, async () => {
  await withPage({}, async (page, problems) => {
    await signIn(page, TEAM, { suivant: '/lieux' });
    await heading(page, 'Lieux').waitFor();
    await waitForHydration(page, problems);
    const form = page.getByTestId('venue-search-form');
    const select = form.locator('select[name="pool"]');
    assert.equal(await select.inputValue(), '', 'no pool chosen by default');
    assert.equal((await select.locator('option:checked').innerText()).trim(), 'Tous les pools');
    assert.equal(await page.getByTestId('venue-results').count(), 0, 'nothing searched yet');
    await form.locator('textarea[name="q"]').fill(QUERY);
    await form.getByRole('button', { name: 'Rechercher' }).click();
    await page.waitForURL((url) => url.searchParams.get('q') === QUERY);
    assert.equal(location(page).searchParams.get('pool'), '');
    await assertPicks(page);
    const pools = await page.getByTestId('search-pools').innerText();
    assert.match(pools, /^Cherché dans tous les pools \(5\) : /, pools);
    for (const name of ['Hôtels', 'Restaurants', 'Lieux atypiques', 'Salles de séminaire', 'Châteaux & domaines']) {
      assert.ok(pools.includes(name), `${name} in « ${pools} »`);
    }
    assert.match(await page.getByTestId('search-order').innerText(), /^Ordre : dans chaque groupe, /);
    assert.deepEqual(problems, []);
  });
});

test('« classés par distance » lists each group nearest first', { timeout: TEST_TIMEOUT }, async () => {
  await withPage({ javaScriptEnabled: false }, async (page) => {
    await signIn(page, TEAM, { js: false });
    const q = 'près de la gare de Lyon pour 40 personnes';
    await page.goto(`${BASE_URL}/lieux?pool=&q=${encodeURIComponent(q)}`);
    await page.getByTestId('venue-results').waitFor();
    assert.match(await page.getByTestId('venue-results').innerText(), /classés par distance/);
    assert.match(await page.getByTestId('search-order').innerText(), /du plus proche au plus loin de la gare de Lyon/);
    assert.match(await page.getByTestId('search-pools').innerText(), /tous les pools/);
    const sections = page.locator('[data-testid="venue-results"] section');
    assert.ok((await sections.count()) >= 1);
    for (let s = 0; s < (await sections.count()); s += 1) {
      const places = await sections.nth(s).getByTestId('pick-place').allInnerTexts();
      // « · à 800 m », « · à 1,2 km » (a no-break space before the unit).
      const km = places.map((p) => {
        const [, n, unit] = p.match(/· à ([\d,]+)\s(k?m)\b/) ?? [];
        return Number(n?.replace(',', '.')) / (unit === 'm' ? 1000 : 1);
      });
      assert.ok(km.every((d) => Number.isFinite(d)), `${places}`);
      for (let i = 1; i < km.length; i += 1) {
        assert.ok(km[i - 1] <= km[i], `nearest first: ${km.join(' ≤ ')}`);
      }
    }
  });
});
