// « À faire » in Chromium: a card left pending in the chat (the offline
// planner proposes to remember something), a comment and a favourite left by
// the organizer through their catalogue link, and a reminder due today, all
// made here, are listed on the home page at 1440×900 and at 390×844, each a
// link to where it is handled, and the page is never wider than the window.
//
// The organizer's part needs MAXY_E2E_HOME_CATALOGUE_URL: a link to a sent
// catalogue of a request assigned to the demo team member (scripts/e2e.sh
// issues one); without it, that part is skipped.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  BASE_URL,
  TEAM,
  heading,
  markAFavourite,
  saveOrganizerComment,
  signIn,
  useBrowser,
  waitForHydration,
  withPage,
} from './support.mjs';

useBrowser();

const CATALOGUE_URL = process.env.MAXY_E2E_HOME_CATALOGUE_URL;
const TURN_TIMEOUT = 60_000;

/** A word no other test writes, so each run finds its own rows. */
const unique = (prefix) => `${prefix}${Date.now().toString(36)}`;
/** Today in Paris, as the date field takes it (YYYY-MM-DD). */
const todayInParis = () => new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Paris' }).format(new Date());

const item = (page, kind, text) =>
  page.locator(`[data-testid="queue-group"][data-kind="${kind}"] [data-testid="queue-item"]`).filter({ hasText: text });

test('the home queue lists a pending card, an organizer comment and a reminder due today', { timeout: 240_000 }, async () => {
  const word = unique('pavillon');
  const reminder = unique('Relancer la péniche ');
  const comment = unique('Nous aimons la terrasse, pouvez-vous confirmer le prix ? ');
  let conversation;

  await withPage({}, async (page, problems) => {
    // A card left pending: « Retiens que … » proposes to remember it.
    await signIn(page, TEAM, { suivant: '/chat' });
    await heading(page, 'Chat').waitFor();
    await waitForHydration(page, problems);
    await page.getByTestId('chat-input').fill(`Retiens que le ${word} ferme en août`);
    await page.getByTestId('chat-input').press('Enter');
    await page.waitForURL(/\/chat\/\d+$/);
    conversation = new URL(page.url()).pathname;
    await page.getByTestId('approval-card').first().waitFor({ timeout: TURN_TIMEOUT });

    // A reminder due today, written on the memory page.
    await page.goto(`${BASE_URL}/memoire`);
    await heading(page, 'Mémoire').waitFor();
    await waitForHydration(page, problems);
    await page.getByTestId('reminder-new').click();
    const form = page.getByTestId('reminder-form');
    await form.getByTestId('reminder-title').fill(reminder);
    await form.getByTestId('reminder-due').fill(todayInParis());
    await form.getByTestId('reminder-time').fill('00:01');
    await form.getByTestId('reminder-submit').click();
    await page.getByTestId('reminder-item').filter({ hasText: reminder }).first().waitFor();
  });

  if (CATALOGUE_URL) {
    // The organizer comments and marks a favourite through their link.
    // Link pages load no wasm: their forms post as they are.
    await withPage({}, async (page) => {
      const res = await page.goto(CATALOGUE_URL);
      assert.equal(res?.status(), 200);
      await heading(page, 'Votre sélection de lieux').waitFor();
      await markAFavourite(page);
      await saveOrganizerComment(page, comment);
    });
  }

  for (const viewport of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
    await withPage({ viewport }, async (page, problems) => {
      await signIn(page, TEAM);
      await heading(page, 'À faire').waitFor();
      await waitForHydration(page, problems);
      assert.equal(await page.title(), 'À faire · Maxy');

      const card = page.locator(`[data-testid="queue-group"][data-kind="approval"] a[href="${conversation}"]`);
      await card.first().waitFor();
      assert.match(await card.first().innerText(), new RegExp(word), 'the card says which conversation it waits in');

      const due = item(page, 'reminder', reminder);
      await due.waitFor();
      assert.match(await due.innerText(), /en retard : prévu aujourd'hui à \d{2}:\d{2}/);

      if (CATALOGUE_URL) {
        const said = item(page, 'comment', comment.slice(0, 40));
        await said.first().waitFor();
        assert.match(await said.first().innerText(), /a commenté le catalogue/);
        assert.match(await said.first().innerText(), /[A-Z]-\d{4}-\d+/, 'the request by its reference');
        await item(page, 'favourite', 'en favori').first().waitFor();
      }

      const over = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(over <= 0, `the page is ${over} px wider than the window`);
      const text = await page.locator('main').innerText();
      assert.doesNotMatch(text, /approval|reminder|to_qualify|undefined|null/, 'no key of ours on screen');

      // Each item leads where it is handled.
      await due.click();
      await page.waitForURL(/\/memoire$/);
    });
  }
});
