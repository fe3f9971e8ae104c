// Catalogue proposals in Chromium, as the team hit them (issue 25), against
// the offline planner: « Qualifie cette demande » on a request whose draft is
// full proposes a card that says it replaces the draft; refused with a reason
// (« Trop loin du 14e… je veux rester à Montparnasse »), asking again around
// Montparnasse proposes none of the refused venues, all near Montparnasse;
// approved, the builder shows exactly the card's venues.
// The request is made by scripts/e2e.sh (MAXY_E2E_FULL_DRAFT_REQUEST_ID).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE_URL, TEAM, heading, signIn, useBrowser, waitForHydration, withPage } from './support.mjs';

useBrowser();

const TIMEOUT = 180_000;
const TURN_TIMEOUT = 60_000;
const REQUEST_ID = Number(process.env.MAXY_E2E_FULL_DRAFT_REQUEST_ID);

async function waitForTurnEnd(page) {
  await page.getByTestId('chat-running').waitFor({ state: 'detached', timeout: TURN_TIMEOUT });
  await page.getByTestId('turn-end').last().waitFor({ state: 'attached', timeout: TURN_TIMEOUT });
}

async function send(page, text) {
  const input = page.getByTestId('chat-input');
  await input.fill(text);
  await input.press('Enter');
  await page.waitForURL((url) => /^\/chat\/\d+$/.test(url.pathname));
}

/** The venue codes of a card, in its order. */
async function codesOf(card) {
  const rows = await card.getByTestId('card-pick').allInnerTexts();
  return rows.map((r) => r.match(/#\d+/)?.[0]).filter(Boolean);
}

test('a full draft is replaced on approval, and a refusal with a reason is respected', { timeout: TIMEOUT }, async () => {
  assert.ok(REQUEST_ID > 0, 'MAXY_E2E_FULL_DRAFT_REQUEST_ID is set by scripts/e2e.sh');
  await withPage({}, async (page, problems) => {
    await signIn(page, TEAM, { suivant: `/chat?request=${REQUEST_ID}` });
    await heading(page, 'Chat').waitFor();
    await waitForHydration(page, problems);

    // The draft holds 4 + 4: the card says it replaces them.
    await send(page, 'Qualifie cette demande');
    const first = page.getByTestId('approval-card').first();
    await first.waitFor({ timeout: TURN_TIMEOUT });
    await waitForTurnEnd(page);
    const title = await first.locator('h3').innerText();
    assert.match(title, /^Remplace les 8 lieux du brouillon/, title);
    assert.doesNotMatch(await first.innerText(), /recommended|compatible »/);
    // Where the proposal came from, in French; no e-mail was read.
    const sources = await first.getByTestId('card-sources').innerText();
    assert.match(sources, /^Proposée après : Lecture de la demande/, sources);
    assert.doesNotMatch(sources, /_/, sources);
    assert.equal(await first.getByTestId('card-after-emails').count(), 0);
    const refused = await codesOf(first);
    assert.ok(refused.length >= 1, refused.join());

    // Refused with a reason.
    await first.getByTestId('reject-button').click();
    await first.getByTestId('reject-reason').fill('Trop loin du 14e… je veux rester à Montparnasse');
    await first.getByTestId('reject-confirm').click();
    const status = first.getByTestId('card-status');
    await status.waitFor({ timeout: TURN_TIMEOUT });
    assert.equal(await status.getAttribute('data-status'), 'rejected');

    // Asked again: none of the refused venues, all around Montparnasse.
    await send(page, 'Qualifie cette demande en restant autour de Montparnasse');
    const second = page.getByTestId('approval-card').nth(1);
    await second.waitFor({ timeout: TURN_TIMEOUT });
    await waitForTurnEnd(page);
    const answer = await page.getByTestId('message-assistant').last().innerText();
    assert.match(answer, /Montparnasse/, answer);
    assert.match(answer, /non reproposés?/, answer);
    const proposed = await codesOf(second);
    assert.ok(proposed.length >= 1, 'a new card');
    for (const code of proposed) {
      assert.ok(!refused.includes(code), `${code} was refused: ${proposed.join()}`);
    }
    // The search's reasons say how far each venue is from Montparnasse.
    for (const row of await second.getByTestId('card-pick').allInnerTexts()) {
      const km = row.match(/à (\d+(?:,\d+)?) km/);
      if (km) assert.ok(Number(km[1].replace(',', '.')) <= 3, row);
    }
    assert.match(await second.locator('h3').innerText(), /^Remplace les 8 lieux du brouillon/);

    // Approved: the builder shows exactly the card's venues.
    await second.getByTestId('approve-button').click();
    const done = second.getByTestId('card-status');
    await done.waitFor({ timeout: TURN_TIMEOUT });
    assert.equal(await done.getAttribute('data-status'), 'executed', await done.innerText());

    await page.goto(`${BASE_URL}/demandes/${REQUEST_ID}/catalogue`);
    await page.getByTestId('request-summary').waitFor();
    await waitForHydration(page, problems);
    const inBuilder = await page.getByTestId('pick-card').evaluateAll((cards) => cards.map((c) => c.dataset.code));
    assert.deepEqual([...inBuilder].sort(), [...proposed].sort());
    assert.deepEqual(problems.filter((p) => p.startsWith('page error')), []);
  });
});
