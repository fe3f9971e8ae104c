// Shared by the end-to-end test files: the browser, fresh pages, sign-in and
// a few locators. Not a test file itself (node --test only runs *.test.mjs).
//
// Environment:
//   MAXY_BASE_URL  the running app (default http://127.0.0.1:3000)
//   CHROMIUM_PATH  the browser binary (default /usr/bin/chromium)

import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';

export const BASE_URL = (process.env.MAXY_BASE_URL || 'http://127.0.0.1:3000').replace(/\/+$/, '');
const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export const TEST_TIMEOUT = 60_000;
export const HYDRATION_TIMEOUT = 30_000;

/** Demo accounts created by `maxy seed`. */
const DEMO_PASSWORD = 'maxy-demo-2026';
export const ADMIN = { email: 'admin@reciprok.fr', password: DEMO_PASSWORD, name: 'Admin Reciprok' };
export const TEAM = { email: 'camille.martin@reciprok.fr', password: DEMO_PASSWORD, name: 'Camille Martin' };

export const SESSION_COOKIE = 'maxy_session';

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

// Wide enough for the `md` breakpoint: the user menu is hidden below it.
const VIEWPORT = { width: 1280, height: 800 };

/** @type {import('playwright-core').Browser | undefined} */
let browser;

/**
 * Registers the hooks of a test file: check that the app answers, start
 * Chromium once (Playwright gives it a fresh temporary profile, deleted on
 * close), stop it at the end.
 */
export function useBrowser() {
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
}

/**
 * Runs fn with a fresh page in its own browser context (no cookies), closed
 * afterwards. Page errors and console errors are collected in `problems`.
 */
export async function withPage(contextOptions, fn) {
  const context = await browser.newContext({ viewport: VIEWPORT, ...contextOptions });
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    const problems = [];
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('console', (msg) => {
      if (msg.type() !== 'error') return;
      problems.push(`console error: ${msg.text()}`);
    });
    return await fn(page, problems);
  } finally {
    await context.close();
  }
}

export const mainNav = (page) => page.getByRole('navigation', { name: 'Navigation principale' });
export const userMenu = (page) => page.getByTestId('user-menu');
export const heading = (page, name) => page.getByRole('heading', { level: 1, name, exact: true });

/** The page's path and query, e.g. `/connexion?suivant=%2Fchat`. */
export const location = (page) => new URL(page.url());

/** Waits until the wasm has taken over the page (`body[data-hydrated="true"]`). */
export async function waitForHydration(page, problems = []) {
  try {
    await page.locator('body[data-hydrated="true"]').waitFor({ state: 'attached', timeout: HYDRATION_TIMEOUT });
  } catch {
    const why = problems.length ? `; page reported:\n${problems.join('\n')}` : '';
    assert.fail(`${location(page).pathname} did not hydrate within ${HYDRATION_TIMEOUT / 1000} s (no body[data-hydrated="true"])${why}`);
  }
}

/**
 * Asserts that the page loaded no wasm bundle and has no hydration script:
 * the organizer's and the venue's link pages work by plain form posts
 * (docs/adr/0036-a-light-cached-front-end.md).
 */
export async function assertNoBundle(page) {
  const found = await page.evaluate(() => ({
    scripts: document.querySelectorAll('script[type="module"], link[rel="modulepreload"], link[rel="preload"][as="fetch"]').length,
    fetched: performance.getEntriesByType('resource').map((r) => r.name).filter((n) => /\.wasm$|\/pkg\/.*\.js$/.test(n)),
  }));
  assert.equal(found.scripts, 0, `${location(page).pathname}: no hydration script nor bundle preload`);
  assert.deepEqual(found.fetched, [], `${location(page).pathname}: no bundle fetched`);
}

/** Whether the browser context holds a session cookie. */
export async function hasSession(page) {
  const cookies = await page.context().cookies(BASE_URL);
  return cookies.some((c) => c.name === SESSION_COOKIE && c.value !== '');
}

/**
 * Fills and submits the sign-in form of the page, which must be /connexion,
 * then waits for the page the server sends the browser to.
 * With `js` (the default) it first waits for hydration.
 */
export async function submitSignIn(page, { email, password }, { js = true } = {}) {
  await heading(page, 'Connexion').waitFor();
  if (js) await waitForHydration(page);
  await page.getByLabel('E-mail', { exact: true }).fill(email);
  await page.getByLabel('Mot de passe', { exact: true }).fill(password);
  const before = page.url();
  await page.getByRole('button', { name: 'Se connecter', exact: true }).click();
  await page.waitForURL((url) => url.href !== before);
}

/**
 * Signs in from /connexion (with `suivant` when given) and checks that the
 * session started. Returns the page's URL afterwards.
 */
export async function signIn(page, user, { suivant, js = true } = {}) {
  const query = suivant ? `?suivant=${encodeURIComponent(suivant)}` : '';
  const res = await page.goto(`${BASE_URL}/connexion${query}`);
  assert.equal(res?.status(), 200, 'GET /connexion');
  await submitSignIn(page, user, { js });
  const url = location(page);
  assert.notEqual(url.pathname, '/connexion', `sign-in as ${user.email} failed: still on ${url.pathname}${url.search}`);
  assert.ok(await hasSession(page), `no ${SESSION_COOKIE} cookie after signing in`);
  return url;
}

/** A demo team account of `maxy seed` (they share the demo password). */
export const demoAccount = (email, name) => ({ email, password: DEMO_PASSWORD, name });

// ---------------------------------------------------------------------------
// The catalogue builder (`/demandes/<id>/catalogue`).

export const pickCards = (page) => page.getByTestId('pick-card');
export const savedStatus = (page) => page.getByTestId('save-status').filter({ hasText: 'Enregistré' });
/** The cards of one tier, `recommended` or `compatible`. */
export const tierCards = (page, tier) => page.getByTestId(`tier-${tier}`).getByTestId('pick-card');
/** The card of one venue, by member id. */
export const cardOf = (page, memberId) => page.locator(`[data-testid="pick-card"][data-member-id="${memberId}"]`);

/**
 * Opens the builder at `path`, hydrated, on an editable draft: signed in as
 * `user`, or with the session the page's context already holds when `user`
 * is null. A request without a catalogue first gets « Préparer le
 * catalogue » (opening the page creates nothing); a sent catalogue first
 * gets « Nouvelle version ».
 */
export async function openBuilder(page, problems, path, user = null) {
  if (user) {
    await signIn(page, user, { suivant: path });
  } else {
    await page.goto(`${BASE_URL}${path}`);
  }
  await page.getByTestId('request-summary').waitFor();
  await waitForHydration(page, problems);
  const prepare = page.getByTestId('prepare-catalogue');
  if (await prepare.count()) {
    await prepare.click();
    await page.getByTestId('catalogue-status').waitFor();
  }
  const newVersion = page.getByTestId('new-version');
  if (await newVersion.count()) {
    await newVersion.click();
    await page.getByTestId('fill-from-search').waitFor();
  }
}

/** Runs one builder operation and waits until it is saved (a new version, « Enregistré »). */
export async function operate(page, action) {
  const status = page.getByTestId('catalogue-status');
  const before = await status.getAttribute('data-version');
  await action();
  await page.waitForFunction(
    (v) => document.querySelector('[data-testid="catalogue-status"]')?.dataset.version !== v,
    before,
  );
  await savedStatus(page).waitFor();
}

/**
 * Pins a room on a venue's card: unpins it, then pins its first room that
 * holds the group (each a saved operation). Returns the room's id.
 */
export async function pinFirstRoom(page, memberId) {
  const select = cardOf(page, memberId).getByTestId('room-select');
  const options = await select.locator('option').evaluateAll((os) => os.map((o) => o.value).filter((v) => v !== '0'));
  assert.ok(options.length >= 1, `venue ${memberId} has a room that holds the group`);
  await operate(page, () => select.selectOption('0'));
  await operate(page, () => select.selectOption(options[0]));
  assert.equal(await select.inputValue(), options[0]);
  return options[0];
}

/** Removes every pick of the builder's draft (what an earlier run left). */
export async function emptyCatalogue(page) {
  while (await pickCards(page).count()) {
    const n = await pickCards(page).count();
    await pickCards(page).first().getByTestId('remove-pick').click();
    await page.waitForFunction((m) => document.querySelectorAll('[data-testid="pick-card"]').length < m, n);
  }
}

/** « Remplir depuis la recherche », then waits for the picks, saved. */
export async function fillFromSearch(page) {
  await page.getByTestId('fill-from-search').click();
  await pickCards(page).first().waitFor({ timeout: 30_000 });
  await savedStatus(page).waitFor();
}

// ---------------------------------------------------------------------------
// Training: the directive fields of « Apprendre » and of the guideline form.

/** Fills `{trigger, prefer, avoid}` inside `scope` (a form locator). */
export async function fillDirective(scope, { trigger, prefer, avoid = '' }) {
  await scope.getByTestId('directive-trigger').fill(trigger);
  await scope.getByTestId('directive-prefer').fill(prefer);
  await scope.getByTestId('directive-avoid').fill(avoid);
}

// ---------------------------------------------------------------------------
// The organizer's catalogue page (`/c/<token>`), JavaScript on or off.

/** Marks the first venue not yet marked as a favourite; returns its name. */
export async function markAFavourite(page) {
  const card = page.locator('[data-testid="catalogue-pick"][data-favorite="false"]').first();
  const name = await card.locator('p.font-medium').first().innerText();
  await card.getByTestId('favorite-toggle').click();
  const marked = page.locator('[data-testid="catalogue-pick"][data-favorite="true"]', { hasText: name });
  await marked.waitFor();
  return name;
}

/** Saves the organizer's comment and checks the page shows it saved. */
export async function saveOrganizerComment(page, text) {
  await page.getByTestId('organizer-comment').fill(text);
  await page.getByRole('button', { name: 'Enregistrer le commentaire', exact: true }).click();
  await page.getByTestId('comment-saved').waitFor();
  assert.equal(await page.getByTestId('organizer-comment').inputValue(), text);
}
