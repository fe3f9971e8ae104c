// Every team page at 1440×900 and on a 390×844 phone: never wider than the
// window (no horizontal scroll); on the phone the navigation is a drawer
// behind « Menu ». The chat by keyboard alone: the message box is reached in
// at most 3 Tab presses from page load (it has the focus at once), and the
// focus is back in it after a message is sent. « Aller au contenu » is the
// first stop of the Tab key and moves the focus to the page's content.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN, BASE_URL, TEAM, heading, mainNav, signIn, useBrowser, waitForHydration, withPage } from './support.mjs';

useBrowser();

const REQUEST_ID = Number(process.env.MAXY_E2E_REQUEST_ID || 1);
const WIDE = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const TURN_TIMEOUT = 60_000;

const TEAM_PAGES = [
  '/',
  '/chat',
  '/demandes',
  `/demandes/${REQUEST_ID}`,
  `/demandes/${REQUEST_ID}/catalogue`,
  '/atelier',
  '/lieux',
  '/memoire',
  '/entrainement',
];
const ADMIN_PAGES = [
  '/console',
  '/console/playbooks',
  '/console/stations',
  '/console/decisions',
  '/console/motifs',
  '/console/simulateur',
  '/console/mesures',
  '/console/mesures/lignes?famille=appels&jours=30',
];

/** The page's width beyond the window, and the widest elements that cause it. */
async function overflow(page) {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const over = document.documentElement.scrollWidth - width;
    if (over <= 0) return null;
    const culprits = [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > width + 1)
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}${el.dataset.testid ? `[${el.dataset.testid}]` : ''}.${[...el.classList].slice(0, 4).join('.')}`);
    return { over, culprits };
  });
}

for (const [name, viewport] of [['1440×900', WIDE], ['390×844', PHONE]]) {
  test(`no page is wider than the window at ${name}`, { timeout: 240_000 }, async () => {
    await withPage({ viewport }, async (page, problems) => {
      await signIn(page, ADMIN);
      const wide = [];
      const untitled = [];
      for (const path of [...TEAM_PAGES, ...ADMIN_PAGES]) {
        const res = await page.goto(`${BASE_URL}${path}`);
        assert.equal(res?.status(), 200, `GET ${path}`);
        await waitForHydration(page, problems);
        const title = await page.title();
        if (!/^\S.* · Maxy$/.test(title)) untitled.push(`${path}: « ${title} »`);
        const o = await overflow(page);
        if (o) wide.push(`${path}: ${o.over} px too wide (${o.culprits.join(', ')})`);
      }
      assert.deepEqual(wide, [], `pages wider than ${viewport.width} px`);
      assert.deepEqual(untitled, [], 'every page has a title of its own');
    });
  });
}

test('on a phone the navigation is a drawer behind « Menu »', { timeout: 60_000 }, async () => {
  await withPage({ viewport: PHONE }, async (page, problems) => {
    await signIn(page, TEAM, { suivant: '/demandes' });
    await waitForHydration(page, problems);
    const chat = mainNav(page).getByRole('link', { name: 'Chat', exact: true });
    assert.equal(await chat.isVisible(), false, 'the links are folded away');
    await page.getByTestId('menu-button').click();
    await chat.waitFor({ state: 'visible' });
    await chat.click();
    await page.waitForURL(/\/chat$/);
    await heading(page, 'Chat').waitFor();
  });
});

test('« Aller au contenu » is the first Tab stop and leads to the content', { timeout: 60_000 }, async () => {
  await withPage({ viewport: WIDE }, async (page, problems) => {
    await signIn(page, TEAM, { suivant: '/demandes' });
    await waitForHydration(page, problems);
    await page.keyboard.press('Tab');
    const first = await page.evaluate(() => document.activeElement?.textContent?.trim());
    assert.equal(first, 'Aller au contenu');
    assert.ok(await page.getByTestId('skip-link').isVisible(), 'visible once focused');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.id === 'contenu' || document.activeElement?.closest('#contenu'));
  });
});

/** Tab presses from load until the chat's message box has the focus (0 when it has it at once). */
async function tabsToComposer(page, most = 40) {
  for (let n = 0; n <= most; n += 1) {
    if (await page.evaluate(() => document.activeElement?.id === 'chat-input')) return n;
    await page.keyboard.press('Tab');
  }
  return Infinity;
}

const inComposer = (page) => page.evaluate(() => document.activeElement?.id === 'chat-input');

for (const [name, viewport] of [['1440×900', WIDE], ['390×844', PHONE]]) {
  test(`the chat works by keyboard alone at ${name}`, { timeout: 180_000 }, async () => {
    await withPage({ viewport }, async (page, problems) => {
      await signIn(page, TEAM, { suivant: '/chat' });
      await heading(page, 'Chat').waitFor();
      await waitForHydration(page, problems);
      const tabs = await tabsToComposer(page);
      assert.ok(tabs <= 3, `${tabs} Tab presses to reach the message box`);

      await page.keyboard.type('Trouve un rooftop pour 80 personnes dans le 8e');
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/chat\/\d+$/);
      await page.getByTestId('message-user').first().waitFor();
      await page.waitForFunction(() => document.activeElement?.id === 'chat-input', null, { timeout: 10_000 });
      await page.getByTestId('chat-running').waitFor({ state: 'detached', timeout: TURN_TIMEOUT });
      assert.ok(await inComposer(page), 'the focus stays in the message box while Maxy answers');

      // A second message in the same conversation: the focus comes back too.
      await page.keyboard.type('Merci');
      await page.keyboard.press('Enter');
      await page.getByTestId('message-user').nth(1).waitFor();
      await page.getByTestId('chat-running').waitFor({ state: 'detached', timeout: TURN_TIMEOUT });
      assert.ok(await inComposer(page), 'the focus is back in the message box after sending');
      assert.equal(await page.getByTestId('chat-input').inputValue(), '', 'the box is empty for the next one');

      // Nothing clipped: « Envoyer » is on screen, the page as wide as the window.
      const send = await page.getByTestId('chat-send').boundingBox();
      assert.ok(send && send.x >= 0 && send.x + send.width <= viewport.width, `« Envoyer » within the window: ${JSON.stringify(send)}`);
      assert.equal(await overflow(page), null, 'the conversation fits the window');

      // Reloaded (the server's page): the box has the focus again.
      await page.reload();
      await waitForHydration(page, problems);
      assert.equal(await tabsToComposer(page, 3) <= 3, true, 'the box is in reach after a reload');
    });
  });
}

test('the conversation list folds away, and opens as a drawer on a phone', { timeout: 60_000 }, async () => {
  await withPage({ viewport: PHONE }, async (page, problems) => {
    await signIn(page, TEAM, { suivant: '/chat' });
    await waitForHydration(page, problems);
    const list = page.getByTestId('conversations-list');
    assert.equal(await list.isVisible(), false, 'folded on a phone');
    await page.getByTestId('conversations-toggle').click();
    await list.waitFor({ state: 'visible' });
    await page.getByTestId('new-conversation').waitFor({ state: 'visible' });
  });
  await withPage({ viewport: WIDE }, async (page, problems) => {
    await signIn(page, TEAM, { suivant: '/chat' });
    await waitForHydration(page, problems);
    const list = page.getByTestId('conversations-list');
    assert.ok(await list.isVisible(), 'shown on a wide screen');
    await page.getByTestId('conversations-toggle').click();
    await list.waitFor({ state: 'hidden' });
  });
});
