// Browser smoke tests for Maxy, run with node's built-in test runner:
//
//   cd end2end && npm test          (the server must already be running)
//
// playwright-core drives the system Chromium; it never downloads a browser.
//
// Environment:
//   MAXY_BASE_URL  the running app (default http://127.0.0.1:3000)
//   CHROMIUM_PATH  the browser binary (default /usr/bin/chromium)

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';

const BASE_URL = (process.env.MAXY_BASE_URL || 'http://127.0.0.1:3000').replace(/\/+$/, '');
const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

// Flags for a headless Chromium that stays off the network except for the app.
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const NAV_LINKS = [
  ['Chat', '/chat'],
  ['Demandes', '/demandes'],
  ['Lieux', '/lieux'],
  ['Mémoire', '/memoire'],
  ['Console', '/console'],
];

const TEST_TIMEOUT = 60_000;
const HYDRATION_TIMEOUT = 30_000;

/** @type {import('playwright-core').Browser | undefined} */
let browser;

before(async () => {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium not found at ${CHROMIUM_PATH}: install it (scripts/install-deps.sh) or set CHROMIUM_PATH`);
  }
  try {
    const res = await fetch(`${BASE_URL}/healthz`, { signal: AbortSignal.timeout(5_000) });
    await res.arrayBuffer();
  } catch (err) {
    throw new Error(`the app does not answer at ${BASE_URL} (${err.cause?.code ?? err.message}): start it first or set MAXY_BASE_URL`);
  }
  // Playwright gives each launch a fresh temporary profile (user-data-dir)
  // and deletes it on close.
  try {
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: CHROMIUM_ARGS,
      timeout: 30_000,
    });
  } catch (err) {
    throw new Error(`could not start Chromium at ${CHROMIUM_PATH}: ${err.message.split('\n')[0]}`);
  }
});

after(async () => {
  await browser?.close();
});

/**
 * Runs fn with a fresh page in its own browser context, closed afterwards.
 * Page errors and console errors are collected in `problems`.
 */
async function withPage(contextOptions, fn) {
  const context = await browser.newContext(contextOptions);
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    const problems = [];
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('console', (msg) => {
      if (msg.type() !== 'error') return;
      // A missing favicon is not the app's fault.
      if (/\/favicon\.ico$/.test(msg.location()?.url ?? '')) return;
      problems.push(`console error: ${msg.text()}`);
    });
    return await fn(page, problems);
  } finally {
    await context.close();
  }
}

const mainNav = (page) => page.getByRole('navigation', { name: 'Navigation principale' });
const heading = (page, name) => page.getByRole('heading', { level: 1, name, exact: true });

test('GET /healthz answers 200 "ok"', async () => {
  const res = await fetch(`${BASE_URL}/healthz`);
  assert.equal(res.status, 200);
  assert.equal((await res.text()).trim(), 'ok');
});

test('home page hydrates and the nav links navigate on the client', { timeout: TEST_TIMEOUT }, async () => {
  await withPage({}, async (page, problems) => {
    const res = await page.goto(`${BASE_URL}/`);
    assert.equal(res?.status(), 200);
    await heading(page, 'Maxy').waitFor();
    try {
      await page.locator('body[data-hydrated="true"]').waitFor({ state: 'attached', timeout: HYDRATION_TIMEOUT });
    } catch {
      const why = problems.length ? `; page reported:\n${problems.join('\n')}` : '';
      assert.fail(`the page did not hydrate within ${HYDRATION_TIMEOUT / 1000} s (no body[data-hydrated="true"])${why}`);
    }
    assert.deepEqual(problems, []);

    // A full page load would drop this marker; client-side routing keeps it.
    await page.evaluate(() => {
      window.__noReload = 1;
    });
    await mainNav(page).getByRole('link', { name: 'Lieux', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/lieux');
    await heading(page, 'Lieux').waitFor();
    assert.equal(await page.evaluate(() => window.__noReload), 1, 'navigation reloaded the page');
    assert.deepEqual(problems, []);
  });
});

test('server-side rendering works without JavaScript', { timeout: TEST_TIMEOUT }, async () => {
  await withPage({ javaScriptEnabled: false }, async (page) => {
    const res = await page.goto(`${BASE_URL}/demandes`);
    assert.equal(res?.status(), 200);
    const nav = mainNav(page);
    await nav.waitFor();
    for (const [name, href] of NAV_LINKS) {
      const link = nav.getByRole('link', { name, exact: true });
      assert.equal(await link.count(), 1, `nav link "${name}"`);
      assert.equal(new URL(await link.getAttribute('href'), `${BASE_URL}/`).pathname, href, `href of "${name}"`);
    }
    await heading(page, 'Demandes').waitFor();
  });
});

test('an unknown path gets a French 404 page', { timeout: TEST_TIMEOUT }, async () => {
  await withPage({}, async (page) => {
    const res = await page.goto(`${BASE_URL}/cette-page-n-existe-pas-${Date.now()}`);
    assert.equal(res?.status(), 404);
    await page.getByText('Page introuvable').first().waitFor();
  });
});
