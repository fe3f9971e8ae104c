// The Demandes pages in Chromium: filter the list from its form (hydrated),
// open a request and edit its memo, and the same filtered list from its
// shareable URL with JavaScript off (server-rendered).

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

test('filtering the list narrows it and keeps the filters in the URL', { timeout: TEST_TIMEOUT }, async () => {
  await withPage({}, async (page, problems) => {
    await signIn(page, TEAM, { suivant: '/demandes' });
    await heading(page, 'Demandes').waitFor();
    await waitForHydration(page, problems);
    const rows = page.getByTestId('request-row');
    await rows.first().waitFor();
    assert.equal(await rows.count(), 25, 'a full first page');
    const form = page.getByTestId('requests-filters');
    await form.getByTestId('filter-status').selectOption('won');
    await form.getByTestId('apply-filters').click();
    await page.waitForURL((url) => url.searchParams.get('status') === 'won');
    await page.waitForFunction(() => {
      const badges = [...document.querySelectorAll('[data-testid="request-row"] [data-testid="status-badge"]')];
      return badges.length > 0 && badges.every((b) => b.dataset.status === 'won');
    });
    // The next page keeps the filter.
    const next = page.getByTestId('next-page');
    if (await next.count()) {
      await next.click();
      await page.waitForURL((url) => url.searchParams.get('page') === '2');
      assert.equal(location(page).searchParams.get('status'), 'won');
    }
    assert.deepEqual(problems, []);
  });
});

test('a request opens on its page and its memo is saved', { timeout: TEST_TIMEOUT }, async () => {
  await withPage({}, async (page, problems) => {
    await signIn(page, TEAM, { suivant: '/demandes' });
    await waitForHydration(page, problems);
    const first = page.getByTestId('request-link').first();
    const reference = await first.innerText();
    await first.click();
    await page.waitForURL((url) => /^\/demandes\/\d+$/.test(url.pathname));
    await page.getByTestId('request-reference').waitFor();
    assert.equal(await page.getByTestId('request-reference').innerText(), reference);
    await page.getByTestId('request-extras').waitFor({ state: 'attached' });
    const id = location(page).pathname.split('/').pop();
    assert.equal(await page.getByTestId('build-catalogue').getAttribute('href'), `/demandes/${id}/catalogue`);
    assert.equal(await page.getByTestId('open-in-chat').getAttribute('href'), `/chat?request=${id}`);
    const memo = `Rappeler l'organisateur lundi (${Date.now()})`;
    await page.getByTestId('team-memo').fill(memo);
    // A server-rendered form (ADR 0038): the post comes back to the page,
    // which says it was saved, once.
    await Promise.all([page.waitForEvent('load'), page.getByTestId('save-notes').click()]);
    assert.match(await page.getByTestId('edit-outcome').innerText(), /Enregistré/);
    await page.reload();
    assert.equal(await page.getByTestId('edit-outcome').count(), 0, 'the confirmation is said once');
    await page.getByTestId('team-memo').waitFor();
    assert.equal(await page.getByTestId('team-memo').inputValue(), memo);
    // Its reference is an address too (the assistant links references so),
    // in any case; a reference that names no request says so.
    await page.goto(`${BASE_URL}/demandes/${reference.toLowerCase()}`);
    await page.getByTestId('request-reference').waitFor();
    assert.equal(await page.getByTestId('request-reference').innerText(), reference);
    assert.equal(await page.getByTestId('build-catalogue').getAttribute('href'), `/demandes/${id}/catalogue`);
    assert.deepEqual(problems, []);
    // (Its 404 is a console error of its own: checked after.)
    await page.goto(`${BASE_URL}/demandes/D-1999-99999`);
    await page.getByText("Cette page n'existe pas.").waitFor();
  });
});

test('the filtered list renders without JavaScript, and a bad filter says why', { timeout: TEST_TIMEOUT }, async () => {
  await withPage({ javaScriptEnabled: false }, async (page) => {
    await signIn(page, TEAM, { js: false });
    const res = await page.goto(`${BASE_URL}/demandes?status=catalogue_sent`);
    assert.equal(res?.status(), 200);
    const rows = page.getByTestId('request-row');
    assert.ok((await rows.count()) > 0);
    for (const status of await page.locator('[data-testid="request-row"] [data-testid="status-badge"]').evaluateAll(
      (badges) => badges.map((b) => b.dataset.status),
    )) {
      assert.equal(status, 'catalogue_sent');
    }
    // The GET form submits without JavaScript.
    await page.getByTestId('filter-q').fill('cocktail');
    await page.getByTestId('apply-filters').click();
    await page.waitForURL((url) => url.searchParams.get('q') === 'cocktail');
    assert.equal(location(page).searchParams.get('status'), 'catalogue_sent');
    const bad = await page.goto(`${BASE_URL}/demandes?status=bogus`);
    assert.equal(bad?.status(), 422);
    assert.match(await page.getByRole('alert').innerText(), /Statut inconnu/);
  });
});
