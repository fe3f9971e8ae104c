// Browser smoke tests for Maxy, run with node's built-in test runner:
//
//   cd end2end && npm test          (the server must already be running)
//
// playwright-core drives the system Chromium; it never downloads a browser.
// Every team page needs a session: the tests sign in with the demo admin of
// `maxy seed` (support.mjs). Environment: see support.mjs.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ADMIN,
  BASE_URL,
  TEST_TIMEOUT,
  heading,
  location,
  mainNav,
  signIn,
  useBrowser,
  waitForHydration,
  withPage,
} from './support.mjs';

useBrowser();

const NAV_LINKS = [
  ['Chat', '/chat'],
  ['Demandes', '/demandes'],
  ['Lieux', '/lieux'],
  ['Mémoire', '/memoire'],
  ['Console', '/console'],
];

test('GET /healthz answers 200 "ok"', async () => {
  const res = await fetch(`${BASE_URL}/healthz`);
  assert.equal(res.status, 200);
  assert.equal((await res.text()).trim(), 'ok');
});

test('home page hydrates and the nav links open the next page, which hydrates too', { timeout: TEST_TIMEOUT }, async () => {
  await withPage({}, async (page, problems) => {
    await signIn(page, ADMIN);
    assert.equal(location(page).pathname, '/', 'sign-in without `suivant` lands on /');
    // The home page is « À faire »: the member's queue (or its empty state).
    await heading(page, 'À faire').waitFor();
    assert.equal(await page.title(), 'À faire · Maxy');
    await page.locator('[data-testid="work-queue"], [data-testid="queue-empty"]').first().waitFor();
    await waitForHydration(page, problems);
    assert.deepEqual(problems, []);

    // Islands (ADR 0038): no client-side router, a link is a page load,
    // the current entry is marked by the server, and the next page's
    // islands hydrate from the cached bundle.
    await mainNav(page).getByRole('link', { name: 'Lieux', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/lieux');
    await heading(page, 'Lieux').waitFor();
    assert.equal(await mainNav(page).getByRole('link', { name: 'Lieux', exact: true }).getAttribute('aria-current'), 'page');
    await waitForHydration(page, problems);
    assert.deepEqual(problems, []);
  });
});


test('server-side rendering works without JavaScript', { timeout: TEST_TIMEOUT }, async (t) => {
  await withPage({ javaScriptEnabled: false }, async (page) => {
    await signIn(page, ADMIN, { js: false });
    const res = await page.goto(`${BASE_URL}/demandes`);
    assert.equal(res?.status(), 200);
    await heading(page, 'Demandes').waitFor();

    // Without JavaScript the DOM is final once loaded: count, do not wait.
    await t.test('the main nav is server-rendered with its five links', async () => {
      const nav = mainNav(page);
      assert.equal(await nav.count(), 1, 'the nav "Navigation principale"');
      for (const [name, href] of NAV_LINKS) {
        const link = nav.getByRole('link', { name, exact: true });
        assert.equal(await link.count(), 1, `nav link "${name}"`);
        assert.equal(new URL(await link.getAttribute('href'), `${BASE_URL}/`).pathname, href, `href of "${name}"`);
      }
    });

    // Signed in, an unknown path is still a 404 (not a redirect, not a 403).
    const missing = await page.goto(`${BASE_URL}/cette-page-n-existe-pas-${Date.now()}`);
    assert.equal(missing?.status(), 404, 'signed in: unknown path');
    await page.getByText('Page introuvable').first().waitFor();
  });
});

test('an unknown path gets a French 404 page without signing in', { timeout: TEST_TIMEOUT }, async () => {
  await withPage({}, async (page) => {
    const res = await page.goto(`${BASE_URL}/cette-page-n-existe-pas-${Date.now()}`);
    assert.equal(res?.status(), 404, 'anonymous: an unknown path is not a page, so no redirect to /connexion');
    await page.getByText('Page introuvable').first().waitFor();
  });
});
