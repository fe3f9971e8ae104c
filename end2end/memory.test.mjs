// The « Mémoire » page in Chromium: a memory added from the form is listed
// and found by the search box with its source badge and score; a reminder
// due today is listed among the week's and « Fait » takes it away; the
// same forms work without JavaScript; an empty memory is refused with its
// message; a search opened from another site's link is shown, not run,
// until the member clicks « Lancer la recherche » (JavaScript on or off).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  BASE_URL,
  TEAM,
  TEST_TIMEOUT,
  heading,
  signIn,
  useBrowser,
  waitForHydration,
  withPage,
} from './support.mjs';

useBrowser();

/** A word no other test writes, so each run finds its own rows. */
const unique = (prefix) => `${prefix}${Date.now().toString(36)}`;
const today = () => new Date().toISOString().slice(0, 10);

test('a memory is added, found by the search, and a reminder is done (JavaScript on)', { timeout: TEST_TIMEOUT }, async () => {
  await withPage({}, async (page, problems) => {
    await signIn(page, TEAM, { suivant: '/memoire' });
    await heading(page, 'Mémoire').waitFor();
    await waitForHydration(page, problems);
    await page.getByTestId('memory-chart').waitFor();

    const word = unique('pavillon');
    const form = page.getByTestId('memory-add-form');
    await form.getByTestId('memory-add-content').fill(`Le ${word} ne prend plus de groupes le dimanche`);
    await form.getByTestId('memory-add-submit').click();
    await page.getByTestId('memory-add-saved').waitFor();
    await page.getByTestId('memory-item').filter({ hasText: word }).first().waitFor();

    await page.getByTestId('memory-search-input').fill(word);
    await Promise.all([page.waitForURL(/\/memoire\?q=/), page.getByTestId('memory-search-submit').click()]);
    const results = page.getByTestId('memory-results');
    await results.waitFor();
    assert.match(await results.getByTestId('memory-source').innerText(), /vecteur|plein texte|récence/);
    const hit = results.getByTestId('memory-hit').filter({ hasText: word }).first();
    await hit.waitFor();
    assert.equal(await hit.getByTestId('memory-hit-kind').innerText(), 'mémoire');
    assert.match(await hit.getByTestId('memory-hit-score').innerText(), /score \d/);

    const title = unique('Relancer la barge ');
    await page.getByTestId('reminder-new').click();
    const reminder = page.getByTestId('reminder-form');
    await reminder.getByTestId('reminder-title').fill(title);
    await reminder.getByTestId('reminder-due').fill(today());
    await reminder.getByTestId('reminder-time').fill('23:59');
    await reminder.getByTestId('reminder-submit').click();
    const item = page.getByTestId('reminder-item').filter({ hasText: title });
    await item.first().waitFor();
    await item.first().getByTestId('reminder-done').click();
    await page.getByTestId('reminder-done-saved').waitFor();
    await item.first().waitFor({ state: 'detached' });
    assert.deepEqual(problems, []);
  });
});

test('the memory forms work without JavaScript, and an empty memory is refused', { timeout: TEST_TIMEOUT }, async () => {
  await withPage({ javaScriptEnabled: false }, async (page) => {
    await signIn(page, TEAM, { js: false });
    const res = await page.goto(`${BASE_URL}/memoire`);
    assert.equal(res?.status(), 200);
    const word = unique('rooftop');
    const form = page.getByTestId('memory-add-form');
    await form.getByTestId('memory-add-content').fill(`Mme Konan préfère les ${word}`);
    await Promise.all([page.waitForURL(/\/memoire/), form.getByTestId('memory-add-submit').click()]);
    await page.getByTestId('memory-item').filter({ hasText: word }).first().waitFor();

    await page.goto(`${BASE_URL}/memoire?q=${encodeURIComponent(word)}`);
    await page.getByTestId('memory-hit').filter({ hasText: word }).first().waitFor();

    // Empty: the page comes back with the store's message.
    await page.getByTestId('memory-add-content').evaluate((el) => el.removeAttribute('required'));
    await page.getByTestId('memory-add-content').fill('   ');
    await Promise.all([page.waitForURL(/__err=/), page.getByTestId('memory-add-submit').click()]);
    const alert = page.getByTestId('memory-add-error');
    await alert.waitFor();
    assert.match(await alert.innerText(), /vide/);
  });
});

/**
 * Opens `/memoire?q=<word>` the way a link on another site would: from a
 * page of another origin (served by the test itself), so the browser marks
 * the navigation cross-site and still sends the session cookie (Lax).
 */
async function followLinkFromElsewhere(page, word) {
  const target = `${BASE_URL}/memoire?q=${encodeURIComponent(word)}`;
  await page.route('http://ailleurs.example/**', (route) =>
    route.fulfill({ contentType: 'text/html', body: `<a id="lien" href="${target}">mémoire</a>` }),
  );
  await page.goto('http://ailleurs.example/');
  await Promise.all([page.waitForURL(/\/memoire\?q=/), page.click('#lien')]);
}

for (const js of [true, false]) {
  test(`a search opened from another site waits for the member's click (JavaScript ${js ? 'on' : 'off'})`, { timeout: TEST_TIMEOUT }, async () => {
    await withPage({ javaScriptEnabled: js }, async (page, problems) => {
      await signIn(page, TEAM, { js });
      const word = unique('ailleurs');
      await followLinkFromElsewhere(page, word);
      await page.getByTestId('memory-search-held').waitFor();
      assert.equal(await page.getByTestId('memory-results').count(), 0, 'not run');
      assert.equal(await page.getByTestId('memory-search-input').inputValue(), word);
      if (js) {
        await waitForHydration(page, problems);
      }
      await page.getByTestId('memory-run-search').click();
      await page.getByTestId('memory-results').waitFor();
      assert.equal(await page.getByTestId('memory-search-held').count(), 0);
      if (js) {
        assert.deepEqual(problems, []);
      }
    });
  });
}
