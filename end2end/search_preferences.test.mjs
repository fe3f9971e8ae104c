// Search preferences in Chromium (issue 11): a team member sets a zone on
// the Lieux page, the next search applies it and says so (« Zone : Paris 9e
// — votre préférence »), « retirer » runs the same search without it and
// « rétablir » with it again; with JavaScript off, a request's preference is
// saved from its page and its search link shows it as the request's.
//
// Signs in as Léa Dubois (a demo team account no other test uses), once per
// test, and leaves her preferences empty at the end: the other tests'
// searches never see them.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE_URL, TEST_TIMEOUT, heading, location, signIn, useBrowser, waitForHydration, withPage } from './support.mjs';

useBrowser();

const LEA = { email: 'lea.dubois@reciprok.fr', password: 'maxy-demo-2026', name: 'Léa Dubois' };
// No area in the text: the zone preference fills it. No mood words (the
// venue vectors may still be computing).
const QUERY = 'cocktail pour 40 personnes';
const SEARCH = `/lieux?pool=lieux-atypiques&q=${encodeURIComponent(QUERY)}`;

/** Fills the preferences form `form` (a locator) and submits it. */
async function fillPreferences(form, { label = '', codes = '', favorites = '' }) {
  await form.getByTestId('pref-zone-label').fill(label);
  await form.getByTestId('pref-postal-codes').fill(codes);
  await form.getByTestId('pref-centre').fill('');
  await form.getByTestId('pref-radius').fill('');
  await form.getByTestId('pref-favorites-first').selectOption(favorites);
  await form.getByTestId('pref-specialities').fill('');
}

/** The postal code of every pick (the card's second line starts with it). */
async function pickPostalCodes(page) {
  const lines = await page.getByTestId('pick-place').allInnerTexts();
  return lines.map((l) => l.trim().slice(0, 5));
}

test('a zone preference is applied to the next search, labelled, and cleared in one click', { timeout: TEST_TIMEOUT * 2 }, async () => {
  await withPage({}, async (page, problems) => {
    await signIn(page, LEA, { suivant: '/lieux' });
    await heading(page, 'Lieux').waitFor();
    await waitForHydration(page, problems);

    const panel = page.getByTestId('my-preferences');
    await panel.locator('summary').click();
    const form = page.getByTestId('my-preferences-form');
    await form.waitFor();
    await fillPreferences(form, { label: 'Paris 9e', codes: '75009' });
    await Promise.all([page.waitForEvent('load'), page.getByTestId('save-my-preferences').click()]);
    await page.getByTestId('my-preferences-saved').waitFor();

    await page.goto(`${BASE_URL}${SEARCH}`);
    await waitForHydration(page, problems);
    const applied = page.locator('[data-testid="applied-default"][data-key="zone"]');
    await applied.waitFor();
    assert.match(await applied.innerText(), /Zone : Paris 9e — votre préférence/);
    await page.getByTestId('venue-pick').first().waitFor();
    const codes = await pickPostalCodes(page);
    assert.ok(codes.length > 0 && codes.every((c) => c === '75009'), `the zone narrows: ${codes}`);

    await page.getByTestId('clear-default-zone').click();
    await page.waitForURL((url) => url.searchParams.getAll('sans').includes('zone'));
    await page.getByTestId('venue-results').waitFor();
    await page.getByTestId('venue-pick').first().waitFor();
    assert.equal(await page.locator('[data-testid="applied-default"][data-key="zone"]').count(), 0);
    assert.equal(location(page).searchParams.get('q'), QUERY);

    // « rétablir » brings it back: the same search, without `sans=zone`.
    const removed = page.locator('[data-testid="removed-default"][data-key="zone"]');
    assert.match(await removed.innerText(), /Zone : Paris 9e — votre préférence \(retiré pour cette recherche\)/);
    await page.getByTestId('restore-default-zone').click();
    await page.waitForURL((url) => !url.searchParams.getAll('sans').includes('zone'));
    assert.equal(location(page).searchParams.get('q'), QUERY);
    await applied.waitFor();
    assert.equal(await removed.count(), 0);
    await page.getByTestId('venue-pick').first().waitFor();
    const restored = await pickPostalCodes(page);
    assert.ok(restored.length > 0 && restored.every((c) => c === '75009'), `the zone applies again: ${restored}`);

    // An explicit postal code in the form wins over the preference.
    await page.goto(`${BASE_URL}${SEARCH}&cp=75008`);
    await page.getByTestId('venue-results').waitFor();
    assert.equal(await page.locator('[data-testid="applied-default"][data-key="zone"]').count(), 0);

    // Leave no preference behind.
    await page.goto(`${BASE_URL}/lieux`);
    await waitForHydration(page, problems);
    await page.getByTestId('my-preferences').locator('summary').click();
    const again = page.getByTestId('my-preferences-form');
    await fillPreferences(again, {});
    await Promise.all([page.waitForEvent('load'), page.getByTestId('save-my-preferences').click()]);
    assert.match(await page.getByTestId('my-preferences-summary').innerText(), /aucune/);
    assert.deepEqual(problems, []);
  });
});

test('a request preference saved without JavaScript labels its search as the request’s', { timeout: TEST_TIMEOUT * 2 }, async () => {
  await withPage({ javaScriptEnabled: false }, async (page) => {
    await signIn(page, LEA, { js: false });
    const id = process.env.MAXY_E2E_REQUEST_ID || '1';
    const res = await page.goto(`${BASE_URL}/demandes/${id}`);
    assert.equal(res?.status(), 200);
    const form = page.getByTestId('request-preferences-form');
    await form.waitFor();
    await fillPreferences(form, { favorites: 'oui' });
    await page.getByTestId('save-request-preferences').click();
    // Back on the request's page (the post redirects), the stored value shows.
    await page.getByTestId('request-preferences-summary').filter({ hasText: /Favoris de l'équipe d'abord/ }).waitFor();
    assert.equal(await page.getByTestId('pref-favorites-first').inputValue(), 'oui');

    await page.getByTestId('request-search-link').click();
    await page.waitForURL((url) => url.pathname === '/lieux' && url.searchParams.get('demande') === id);
    const results = page.getByTestId('venue-results').or(page.getByRole('alert'));
    await results.first().waitFor();
    const applied = page.locator('[data-testid="applied-default"][data-key="favoris"]');
    if ((await page.getByTestId('venue-results').count()) > 0) {
      assert.match(await applied.innerText(), /Favoris de l'équipe d'abord — préférence de la demande/);
      assert.equal(await applied.getAttribute('data-source'), 'demande');
    } else {
      assert.fail(`the request's search failed: ${await page.getByRole('alert').first().innerText()}`);
    }

    // Leave the request as it was.
    await page.goto(`${BASE_URL}/demandes/${id}`);
    await fillPreferences(page.getByTestId('request-preferences-form'), {});
    await page.getByTestId('save-request-preferences').click();
    await page.getByTestId('request-preferences-summary').filter({ hasText: /Aucune préférence/ }).waitFor();
    assert.equal(await page.getByTestId('pref-favorites-first').inputValue(), '');
  });
});
