// The Chat page in Chromium, against the offline planner (the default when no
// model is configured): a message streams an answer with its tool activity;
// « Qualifie cette demande » on a demo request proposes a catalogue on an
// approval card that a click executes; a reload in the middle of a turn
// resumes it without writing any text twice; a conversation reads without
// JavaScript.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  BASE_URL,
  TEAM,
  heading,
  location,
  signIn,
  useBrowser,
  waitForHydration,
  withPage,
} from './support.mjs';

useBrowser();

// Turns run the venue search and, for a qualification, several tools.
const CHAT_TIMEOUT = 120_000;
const TURN_TIMEOUT = 60_000;

const PROMPT = 'Trouve un rooftop pour 80 personnes dans le 8e';
const QUALIFY = 'Qualifie cette demande';
// The demo seed numbers its requests from 1 (`maxy seed`); any two of them do.
const REQUEST_ID = Number(process.env.MAXY_E2E_REQUEST_ID || 1);
const OTHER_REQUEST_ID = REQUEST_ID + 1;

/** `/chat/<id>` once the first message created the conversation. */
const isConversation = (url) => /^\/chat\/\d+$/.test(url.pathname);

/** Errors of the page itself (panics, hydration), not of the network. */
const pageErrors = (problems) => problems.filter((p) => p.startsWith('page error'));

/**
 * Waits until the page's current turn is over (the input is enabled again).
 * The end marker is waited for attached: it is empty, hence not visible,
 * when a turn ends well and costs nothing (offline).
 */
async function waitForTurnEnd(page) {
  await page.getByTestId('chat-running').waitFor({ state: 'detached', timeout: TURN_TIMEOUT });
  await page.getByTestId('turn-end').last().waitFor({ state: 'attached', timeout: TURN_TIMEOUT });
}

/** Signs in, opens `path` (a chat page) and waits for hydration. */
async function openChat(page, problems, path) {
  await signIn(page, TEAM, { suivant: path });
  await heading(page, 'Chat').waitFor();
  await waitForHydration(page, problems);
}

/** Types a message and sends it with Enter; returns the conversation's path. */
async function send(page, text) {
  const input = page.getByTestId('chat-input');
  await input.fill(text);
  await input.press('Enter');
  await page.waitForURL(isConversation);
  return location(page).pathname;
}

/** The assistant's text of the page, all bubbles joined. */
async function assistantText(page) {
  return (await page.getByTestId('message-assistant').allInnerTexts()).join('\n---\n');
}

test('a message streams the answer and its tool activity, in offline mode', { timeout: CHAT_TIMEOUT }, async () => {
  await withPage({}, async (page, problems) => {
    await openChat(page, problems, '/chat');
    const input = page.getByTestId('chat-input');

    // Shift+Enter is a new line, not a send.
    await input.fill('Bonjour');
    await input.press('Shift+Enter');
    assert.equal(await input.inputValue(), 'Bonjour\n');
    assert.equal(location(page).pathname, '/chat');

    // Over the limit: refused on the page, with the reason.
    await input.fill('a'.repeat(10_001));
    assert.ok(await page.getByTestId('chat-send').isDisabled(), 'send is disabled over 10 000 characters');
    await input.press('Enter');
    assert.match(await page.getByTestId('chat-error').innerText(), /trop long/);
    assert.equal(location(page).pathname, '/chat');

    // The first message opens its conversation's page (ADR 0038); a marker
    // set there, still there after the answer, means the answer arrived
    // live, without another page load.
    const path = await send(page, PROMPT);
    await waitForHydration(page, problems);
    await page.evaluate(() => {
      window.__chatMarker = 'same page';
    });
    await page.getByTestId('message-user').filter({ hasText: PROMPT }).waitFor();
    const tool = page.getByTestId('tool-activity').first();
    await tool.waitFor({ timeout: TURN_TIMEOUT });
    await page.getByTestId('message-assistant').first().waitFor({ timeout: TURN_TIMEOUT });
    await waitForTurnEnd(page);
    assert.equal(await page.evaluate(() => window.__chatMarker), 'same page', 'the answer streamed into the page');
    assert.equal(await tool.getAttribute('data-state'), 'done', 'the tool line shows its summary');
    assert.ok((await tool.innerText()).trim().length > 0);
    assert.ok((await assistantText(page)).trim().length > 0, 'the assistant answered');

    await page.getByTestId('offline-badge').waitFor();
    assert.match(await page.getByTestId('offline-badge').innerText(), /mode hors-ligne/);
    assert.equal(await page.getByTestId('chat-cost').count(), 0, 'no « 0,00 € » when no model billed anything');
    assert.ok(await page.getByTestId('chat-input').isEnabled(), 'the input is free again after the turn');

    // The conversation is listed first (newest first), marked current.
    await page.waitForFunction(
      (href) => document.querySelector('[data-testid="conversation-link"]')?.getAttribute('href') === href,
      path,
    );
    assert.equal(await page.getByTestId('conversation-link').first().getAttribute('aria-current'), 'page');
    assert.deepEqual(pageErrors(problems), []);
  });
});

test('« Qualifie cette demande » proposes a catalogue that one approval writes', { timeout: CHAT_TIMEOUT }, async () => {
  await withPage({}, async (page, problems) => {
    await openChat(page, problems, `/chat?request=${REQUEST_ID}`);
    const about = page.getByTestId('conversation-request');
    assert.equal(await about.getByRole('link').getAttribute('href'), `/demandes/${REQUEST_ID}`);
    await send(page, QUALIFY);
    // Named by its reference, never by its id.
    await page.getByTestId('conversation-title').waitFor();
    assert.match(await about.innerText(), /la demande [A-Z]+-\d{4}-\d+/);
    assert.equal(await about.getByRole('link').getAttribute('href'), `/demandes/${REQUEST_ID}`);

    const card = page.getByTestId('approval-card').first();
    await card.waitFor({ timeout: TURN_TIMEOUT });
    await waitForTurnEnd(page);

    // Up to 4 recommended + 4 compatible venues, each with a pinned room and a reason.
    const picks = card.getByTestId('card-pick');
    const count = await picks.count();
    assert.ok(count >= 1 && count <= 8, `${count} picks`);
    const tiers = await picks.evaluateAll((rows) => rows.map((r) => r.dataset.tier));
    assert.ok(tiers.filter((t) => t === 'recommended').length <= 4, tiers.join());
    assert.ok(tiers.filter((t) => t === 'compatible').length <= 4, tiers.join());
    assert.ok(tiers.includes('recommended'), 'at least one recommended venue');
    for (const room of await card.getByTestId('card-room').allInnerTexts()) {
      assert.match(room, /\d+ places/, `a pinned room with its capacity: ${room}`);
    }
    assert.match(await card.innerText(), /Recommandé/);

    // The conversation list says an approval waits.
    const current = page.locator('[data-testid="conversation-link"][aria-current="page"]');
    await current.getByTestId('pending-badge').waitFor();
    assert.equal((await current.getByTestId('pending-badge').innerText()).trim(), '1');

    // A double click sends one decision: no « already decided » error.
    await card.getByTestId('approve-button').dblclick();
    const status = card.getByTestId('card-status');
    await status.waitFor({ timeout: TURN_TIMEOUT });
    assert.equal(await status.getAttribute('data-status'), 'executed', await status.innerText());
    assert.match(await status.innerText(), /Exécutée/);
    assert.equal(await card.getByRole('alert').count(), 0, 'no second decision was refused');
    assert.equal(await card.getByTestId('approve-button').count(), 0, 'a decided card has no buttons');
    await current.getByTestId('pending-badge').waitFor({ state: 'detached' });

    // The decision is part of the log: a reload shows the card executed.
    await page.reload();
    await waitForHydration(page, problems);
    const reloaded = page.getByTestId('approval-card').first();
    assert.equal(await reloaded.getByTestId('card-status').getAttribute('data-status'), 'executed');
    assert.deepEqual(pageErrors(problems), []);
  });
});

test('a reload in the middle of a turn resumes it without writing anything twice', { timeout: CHAT_TIMEOUT }, async () => {
  let path;
  let live;
  await withPage({}, async (page, problems) => {
    await openChat(page, problems, `/chat?request=${OTHER_REQUEST_ID}`);
    path = await send(page, QUALIFY);
    // Reload as soon as the turn shows anything: the turn goes on on the
    // server, and the page resumes from the last event it rendered.
    await page.locator('[data-testid="tool-activity"], [data-testid="message-assistant"]').first()
      .waitFor({ timeout: TURN_TIMEOUT });
    await page.reload();
    await waitForHydration(page, problems);
    await waitForTurnEnd(page);
    assert.equal(await page.getByTestId('turn-end').count(), 1, 'one turn, ended once');
    assert.equal(await page.getByTestId('message-user').count(), 1);
    live = {
      text: await assistantText(page),
      tools: await page.getByTestId('tool-activity').allInnerTexts(),
      cards: await page.getByTestId('approval-card').count(),
    };
    assert.ok(live.text.trim().length > 0, 'the assistant answered');
  });
  // What the server renders from the whole log, without JavaScript, is
  // exactly what the resumed page showed: no text twice, nothing lost.
  await withPage({ javaScriptEnabled: false }, async (page) => {
    await signIn(page, TEAM, { js: false });
    const res = await page.goto(`${BASE_URL}${path}`);
    assert.equal(res?.status(), 200);
    assert.equal(await assistantText(page), live.text);
    assert.deepEqual(await page.getByTestId('tool-activity').allInnerTexts(), live.tools);
    assert.equal(await page.getByTestId('approval-card').count(), live.cards);
  });
});

test('a conversation reads whole without JavaScript', { timeout: CHAT_TIMEOUT }, async () => {
  let path;
  await withPage({}, async (page, problems) => {
    await openChat(page, problems, '/chat');
    path = await send(page, PROMPT);
    await waitForTurnEnd(page);
  });
  await withPage({ javaScriptEnabled: false }, async (page) => {
    await signIn(page, TEAM, { js: false });
    const res = await page.goto(`${BASE_URL}${path}`);
    assert.equal(res?.status(), 200);
    assert.match(await page.getByTestId('message-user').first().innerText(), /rooftop pour 80 personnes/);
    assert.ok((await assistantText(page)).trim().length > 0);
    assert.ok((await page.getByTestId('tool-activity').count()) >= 1);
    assert.equal(await page.getByTestId('tool-activity').first().getAttribute('data-state'), 'done');
    await page.getByTestId('offline-badge').waitFor();
    assert.equal(await page.getByTestId('chat-cost').count(), 0, 'no cost offline');
    assert.ok((await page.getByTestId('conversation-link').count()) >= 1, 'the list is rendered too');

    // An unknown conversation: a clear message, not a broken page.
    await page.goto(`${BASE_URL}/chat/999999999`);
    await page.getByRole('alert').first().waitFor();
    assert.equal(await page.getByTestId('message-user').count(), 0);
  });
});
