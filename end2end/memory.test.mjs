// The « Mémoire » page in Chromium: a memory added from the form is listed
// and found by the search box, labelled in words (« correspond » or
// « peut-être », never a score), and the « Vos recherches » panel counts
// the search at once; a reminder due today is listed under « Cette
// semaine » or « En retard », one due in 10 days under « Plus tard », and
// « Fait » takes one away; the same forms and the search work without
// JavaScript; an empty memory is refused with its message; a search opened
// from another site's link is shown, not run, until the member clicks
// « Lancer la recherche » (JavaScript on or off).

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
const inDays = (n) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

/** How many searches the « Vos recherches (30 jours) » panel counts. */
async function searchesCounted(page) {
  const text = await page.getByTestId('memory-chart').innerText();
  const m = text.match(/Sur (\d+) recherches? :/);
  return m ? Number(m[1]) : 0;
}

/** The results of a search: its hits, each labelled in words, no score. */
async function checkResults(page, word) {
  const results = page.getByTestId('memory-results');
  await results.waitFor();
  const text = await results.innerText();
  assert.doesNotMatch(text, /score|vecteur|plein texte|récence/);
  const hit = results.getByTestId('memory-hit').filter({ hasText: word }).first();
  await hit.waitFor();
  assert.equal(await hit.getByTestId('memory-hit-kind').innerText(), 'souvenir');
  assert.match(await hit.getByTestId('memory-hit-confidence').innerText(), /^(correspond|peut-être)$/);
}

test('a memory is added, found by the search, and a reminder is done (JavaScript on)', { timeout: TEST_TIMEOUT }, async () => {
  await withPage({}, async (page, problems) => {
    await signIn(page, TEAM, { suivant: '/memoire' });
    await heading(page, 'Mémoire').waitFor();
    await waitForHydration(page, problems);
    await page.getByTestId('memory-chart').waitFor();

    const word = unique('pavillon');
    const form = page.getByTestId('memory-add-form');
    await form.getByTestId('memory-add-content').fill(`Le ${word} ne prend plus de groupes le dimanche`);
    // A server-rendered form (ADR 0038): the post comes back to the page, listed.
    await Promise.all([page.waitForEvent('load'), form.getByTestId('memory-add-submit').click()]);
    await page.getByTestId('memory-add-saved').waitFor();
    await page.getByTestId('memory-item').filter({ hasText: word }).first().waitFor();

    const before = await searchesCounted(page);
    await page.getByTestId('memory-search-input').fill(word);
    await Promise.all([page.waitForURL(/\/memoire\?q=/), page.getByTestId('memory-search-submit').click()]);
    await checkResults(page, word);
    // The panel counts the search on the page that shows its results.
    await page.waitForFunction(
      (n) => /Sur (\d+) recherches? :/.exec(document.querySelector('[data-testid="memory-chart"]')?.innerText ?? '')?.[1] == n,
      before + 1,
    );

    const title = unique('Relancer la barge ');
    await page.getByTestId('reminder-new').click();
    const reminder = page.getByTestId('reminder-form');
    await reminder.getByTestId('reminder-title').fill(title);
    await reminder.getByTestId('reminder-due').fill(today());
    await reminder.getByTestId('reminder-time').fill('23:59');
    await Promise.all([page.waitForEvent('load'), reminder.getByTestId('reminder-submit').click()]);
    const item = page.getByTestId('reminder-item').filter({ hasText: title });
    await item.first().waitFor();
    const group = await item.first().evaluate((el) => el.closest('[data-testid="reminder-group"]').dataset.group);
    assert.ok(['this_week', 'overdue'].includes(group), group);

    const later = unique('Confirmer le traiteur ');
    const newReminder = page.getByTestId('reminder-new');
    if (!(await newReminder.evaluate((el) => el.closest('details').open))) {
      await newReminder.click();
    }
    await reminder.getByTestId('reminder-title').fill(later);
    await reminder.getByTestId('reminder-due').fill(inDays(10));
    await Promise.all([page.waitForEvent('load'), reminder.getByTestId('reminder-submit').click()]);
    const laterItem = page.locator('[data-group="later"]').getByTestId('reminder-item').filter({ hasText: later });
    await laterItem.first().waitFor();
    await Promise.all([page.waitForEvent('load'), item.first().getByTestId('reminder-done').click()]);
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

    // The search form posts; the browser lands on the results, counted.
    const before = await searchesCounted(page);
    await page.getByTestId('memory-search-input').fill(word);
    await Promise.all([page.waitForURL(/\/memoire\?q=/), page.getByTestId('memory-search-submit').click()]);
    await checkResults(page, word);
    assert.equal(await searchesCounted(page), before + 1);
    // A reload shows the same results and counts nothing more (GET never writes).
    await page.reload();
    await checkResults(page, word);
    assert.equal(await searchesCounted(page), before + 1);

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
