// The organizer's catalogue page (`/c/<token>`) at 1440×900 and 390×844,
// with JavaScript off and on (the page loads no wasm either way, ADR 0036:
// its forms post and the server sends the browser back to the place it
// left): a favourite brings the page back at the same card (`#lieu-…`, the
// card in view), a word on one venue and a comment on the whole are kept,
// the contact and the next step are there, no venue code (« #101 ») and no
// horizontal scroll. Then the team member the request is assigned to finds
// the venue's word in « À faire », and in the builder's outreach panel.
//
// MAXY_E2E_HOME_CATALOGUE_URL comes from scripts/e2e.sh: a sent catalogue of
// a request assigned to the demo team member (so its contact is known and
// the word reaches her queue). Every write here is undone or overwritten by
// the next run; the words are unique, so other tests' rows do not match.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  BASE_URL,
  TEAM,
  TEST_TIMEOUT,
  assertNoBundle,
  heading,
  saveOrganizerComment,
  signIn,
  useBrowser,
  waitForHydration,
  withPage,
} from './support.mjs';

useBrowser();

const CATALOGUE_URL = process.env.MAXY_E2E_HOME_CATALOGUE_URL;
const NO_CATALOGUE = !CATALOGUE_URL && 'MAXY_E2E_HOME_CATALOGUE_URL is not set (scripts/e2e.sh issues one)';
const VIEWPORTS = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
];

/** The last word left on a venue, for the team's side. */
let lastVenueWord;

/** Whether the element's top edge is inside the window. */
const inView = (locator) =>
  locator.evaluate((el) => {
    const { top } = el.getBoundingClientRect();
    return top >= 0 && top < window.innerHeight;
  });

async function assertBackAt(page, anchor, card) {
  await page.waitForURL((url) => url.hash === `#${anchor}`);
  assert.equal(new URL(page.url()).pathname, new URL(CATALOGUE_URL).pathname, 'back on the catalogue');
  // The browser scrolls to the fragment once the page is laid out.
  await page.waitForFunction((id) => {
    const el = document.getElementById(id);
    if (!el) return false;
    const { top } = el.getBoundingClientRect();
    return top >= 0 && top < window.innerHeight;
  }, anchor);
  assert.ok(await inView(card), `#${anchor} is in view`);
}

for (const javaScriptEnabled of [false, true]) {
  for (const viewport of VIEWPORTS) {
    const name = `the organizer answers on the catalogue page, JavaScript ${javaScriptEnabled ? 'on' : 'off'}, ${viewport.width}×${viewport.height}`;
    test(name, { timeout: TEST_TIMEOUT, skip: NO_CATALOGUE }, async () => {
      await withPage({ viewport, javaScriptEnabled }, async (page, problems) => {
        const res = await page.goto(CATALOGUE_URL);
        assert.equal(res?.status(), 200);
        await heading(page, 'Votre sélection de lieux').waitFor();
        if (javaScriptEnabled) await assertNoBundle(page);

        // Who the organizer deals with, and what comes next.
        const next = page.getByTestId('next-step');
        await next.getByRole('heading', { name: 'Prochaine étape', exact: true }).waitFor();
        assert.match(await next.innerText(), /Marquez vos lieux préférés/);
        const contact = page.getByTestId('team-contact');
        assert.match(await contact.innerText(), /^Votre contact : Camille Martin · \S+@\S+$/);
        assert.match(await contact.getByRole('link').getAttribute('href'), /^mailto:\S+@\S+$/);

        // The last card: far down the page, so coming back to it means
        // scrolling to it.
        const cards = page.getByTestId('catalogue-pick');
        assert.ok((await cards.count()) >= 2, 'a catalogue of several venues');
        const anchor = await cards.last().getAttribute('id');
        assert.match(anchor, /^lieu-\d+$/);
        const card = page.locator(`#${anchor}`);
        const was = await card.getAttribute('data-favorite');

        // A favourite, then undone: back at the same card each time.
        await card.getByTestId('favorite-toggle').click();
        await assertBackAt(page, anchor, card);
        assert.notEqual(await card.getAttribute('data-favorite'), was, 'the favourite is toggled');
        await card.getByTestId('favorite-toggle').click();
        await assertBackAt(page, anchor, card);
        assert.equal(await card.getAttribute('data-favorite'), was, 'and toggled back');

        // A word on this venue.
        const word = `Cette salle a-t-elle la lumière du jour ? (essai ${Date.now()})`;
        await card.getByTestId('pick-comment-open').click();
        await card.getByTestId('pick-comment').fill(word);
        await card.getByTestId('pick-comment-save').click();
        await assertBackAt(page, anchor, card);
        assert.equal(await card.getByTestId('pick-comment-saved').innerText(), `Votre mot : « ${word} »`);
        assert.equal(await card.getByTestId('pick-comment').inputValue(), word);
        lastVenueWord = word;

        // A comment on the whole catalogue.
        await saveOrganizerComment(page, `Dans l'ensemble, très bien (essai ${Date.now()}).`);
        assert.equal(new URL(page.url()).hash, '#commentaire');

        const text = await page.locator('body').innerText();
        assert.doesNotMatch(text, /#\s?\d/, 'no venue code on screen');
        assert.doesNotMatch(text, /lieu-\d|undefined|null|true|false/, 'no key of ours on screen');
        const over = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        assert.ok(over <= 0, `the page is ${over} px wider than the window`);
        assert.equal(await page.getByRole('alert').count(), 0, 'no error');
        assert.deepEqual(problems, []);
      });
    });
  }
}

test("the team reads the venue's word in « À faire » and in the outreach panel", { timeout: TEST_TIMEOUT, skip: NO_CATALOGUE }, async () => {
  assert.ok(lastVenueWord, 'an organizer test left a word');
  await withPage({}, async (page, problems) => {
    await signIn(page, TEAM);
    await heading(page, 'À faire').waitFor();
    const item = page
      .locator('[data-testid="queue-group"][data-kind="comment"] [data-testid="queue-item"]')
      .filter({ hasText: lastVenueWord.slice(0, 60) })
      .first();
    await item.waitFor();
    assert.match(await item.innerText(), /a commenté .+ : « Cette salle/);
    assert.match(await item.innerText(), /[A-Z]-\d{4}-\d+/, 'the request by its reference');
    await item.locator('a').first().click();
    await page.waitForURL(/\/demandes\/\d+\/catalogue$/);
    await waitForHydration(page, problems);
    const seen = page.getByTestId('organizer-pick-comment').filter({ hasText: lastVenueWord });
    await seen.first().waitFor();
    assert.match(await seen.first().innerText(), /^Mot de l'organisateur : « /);
    assert.equal(new URL(page.url()).origin, BASE_URL);
  });
});
