// A running turn that goes silent, in Chromium: within 5 seconds the page
// says « Le modèle ne répond pas… » with a button that stops the turn. The
// watch is the page's own, so it must work when the server sends nothing at
// all: here the send is answered by the test and the event stream is held
// open without a byte, as a stalled model (or a silent network) would.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TEAM, heading, location, signIn, useBrowser, waitForHydration, withPage } from './support.mjs';

useBrowser();

const TURN_TIMEOUT = 60_000;

test('a silent turn shows « Le modèle ne répond pas… » within 5 seconds, with a stop button', { timeout: 120_000 }, async () => {
  await withPage({}, async (page, problems) => {
    await signIn(page, TEAM, { suivant: '/chat' });
    await heading(page, 'Chat').waitFor();
    await waitForHydration(page, problems);

    // A first, real turn (the offline planner): the conversation exists.
    const input = page.getByTestId('chat-input');
    await input.fill('Bonjour');
    await input.press('Enter');
    await page.waitForURL((url) => /^\/chat\/\d+$/.test(url.pathname));
    // `/chat/:id` is a new page: when the turn ended before it was rendered,
    // its HTML already shows the end, and a message typed before it hydrates
    // would be a new line in a plain textarea, never sent.
    await waitForHydration(page, problems);
    await page.getByTestId('chat-running').waitFor({ state: 'detached', timeout: TURN_TIMEOUT });
    await page.getByTestId('turn-end').last().waitFor({ state: 'attached', timeout: TURN_TIMEOUT });
    const conversationId = Number(location(page).pathname.split('/').pop());
    assert.equal(await page.getByTestId('chat-stalled').count(), 0, 'no warning after a turn that ended');

    // The next message: « sent », then nothing ever comes.
    await page.route('**/api/chat/conversations/*/events*', () => {
      // Never answered: the stream stays open and silent.
    });
    await page.route('**/api/chat/send', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ conversation_id: conversationId, seq: 1_000_000 }),
      }),
    );
    await input.fill('Et maintenant ?');
    const sentAt = Date.now();
    await input.press('Enter');
    await page.getByTestId('chat-running').waitFor();
    const stalled = page.getByTestId('chat-stalled');
    await stalled.waitFor({ timeout: 8_000 });
    const waited = Date.now() - sentAt;
    assert.ok(waited >= 4_000, `not before the model had time to answer (${waited} ms)`);
    assert.ok(waited <= 7_000, `within about 5 seconds (${waited} ms)`);
    assert.match(await stalled.innerText(), /Le modèle ne répond pas…/);

    // The button asks the server to stop the turn.
    const stop = page.waitForRequest((r) => r.url().includes('/api/chat/stop') && r.method() === 'POST');
    await page.getByTestId('chat-stalled-stop').click();
    const request = await stop;
    assert.match(request.postData() ?? '', new RegExp(`conversation_id=${conversationId}`));
    assert.deepEqual(problems.filter((p) => p.startsWith('page error')), []);
  });
});
