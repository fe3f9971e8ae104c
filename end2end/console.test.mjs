// The admin console in Chromium (issue #29, « Console »): the assistant's
// card (provider, offline planner and why, the month's spend); the audit
// journal in French, filtered by what (the address carries the filter),
// paged, and its object links followed to the request's page; accounts
// created in the page (a generated password shown once) and disabled
// (signing in with it is then refused). Both at 1440×900 and 390×844,
// with no horizontal scroll.
//
// Journal rows are planted with psql in the e2e database (`maxy_e2e` on the
// server of DATABASE_URL, as scripts/e2e.sh makes it; or
// MAXY_E2E_DATABASE_URL).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  ADMIN,
  BASE_URL,
  TEST_TIMEOUT,
  heading,
  location,
  signIn,
  submitSignIn,
  useBrowser,
  waitForHydration,
  withPage,
} from './support.mjs';

useBrowser();

function databaseUrl() {
  if (process.env.MAXY_E2E_DATABASE_URL) return process.env.MAXY_E2E_DATABASE_URL;
  const base = process.env.DATABASE_URL;
  assert.ok(base, 'DATABASE_URL (or MAXY_E2E_DATABASE_URL) is needed to plant journal rows');
  return `${base.replace(/\/[^/]*$/, '')}/maxy_e2e`;
}

const sql = (query) =>
  execFileSync('psql', [databaseUrl(), '-qXAt', '-v', 'ON_ERROR_STOP=1', '-c', query], { encoding: 'utf8' }).trim();

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

async function assertNoHorizontalScroll(page, what) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  assert.ok(scrollWidth <= innerWidth, `${what}: ${scrollWidth} px wide in a ${innerWidth} px window`);
}

// Words that must never reach the screen of the console.
const RAW = [/auth\.sign_in/, /ai_pending_approval/, /request\.updated/, /n° \d/];

async function assertFrenchOnly(page, what) {
  const text = await page.locator('main').innerText();
  for (const pattern of RAW) assert.doesNotMatch(text, pattern, `${what} shows ${pattern}`);
}

test('the journal filters, pages and links; an account is created then disabled (1440×900)', { timeout: TEST_TIMEOUT * 3 }, async () => {
  // 60 sign-ins of the admin two days ago (more than a page) and one
  // request change whose object links to its page.
  const request = sql('SELECT id FROM requests ORDER BY id LIMIT 1');
  sql(`INSERT INTO audit_log (at, actor_id, actor_kind, action, object_type, object_id)
       SELECT now() - interval '2 days' - g * interval '1 minute', u.id, 'user', 'auth.sign_in', 'user', u.id
         FROM users u, generate_series(1, 60) g WHERE u.email = '${ADMIN.email}'`);
  sql(`INSERT INTO audit_log (actor_id, actor_kind, action, object_type, object_id)
       SELECT id, 'user', 'request.updated', 'request', ${request} FROM users WHERE email = '${ADMIN.email}'`);

  await withPage({ viewport: DESKTOP }, async (page, problems) => {
    await signIn(page, ADMIN, { suivant: '/console' });
    await heading(page, 'Console').waitFor();
    await waitForHydration(page, problems);

    const card = page.getByTestId('assistant-status');
    await card.getByTestId('assistant-mode').waitFor();
    assert.match(await card.innerText(), /Planificateur hors ligne/);
    assert.match(await card.getByTestId('assistant-spend').innerText(), /€ sur .*€ ce mois-ci/);
    await assertNoHorizontalScroll(page, '/console');
    await assertFrenchOnly(page, '/console');

    // What: « Connexions »; the address carries the filter.
    await page.getByTestId('journal-what').selectOption('connexions');
    await page.getByTestId('journal-submit').click();
    await page.waitForURL((url) => url.searchParams.get('quoi') === 'connexions');
    const actions = await page.locator('[data-testid="journal-row"] [data-action]').evaluateAll((cells) =>
      cells.map((c) => c.getAttribute('data-action')),
    );
    assert.equal(actions.length, 50, 'a full first page');
    assert.ok(actions.every((a) => a.startsWith('auth.')), actions.join(' '));
    assert.match(await page.locator('[data-testid="journal-row"]').first().innerText(), /Connexion/);

    // Pages: the next one keeps the filter.
    await page.getByTestId('journal-next').click();
    await page.waitForURL((url) => url.searchParams.get('page') === '2' && url.searchParams.get('quoi') === 'connexions');
    await page.getByTestId('journal-page').filter({ hasText: 'Page 2' }).waitFor();
    await page.getByTestId('journal-previous').waitFor();

    // Words: the request change, its object a link to the request.
    await page.goto(`${BASE_URL}/console?q=${encodeURIComponent('demande modifiée')}`);
    await waitForHydration(page, problems);
    const link = page.locator('[data-testid="journal-row"]').filter({ hasText: 'Demande modifiée' }).first().getByTestId('journal-object');
    assert.match(await link.innerText(), /^demande D-\d{4}-\d{5}$/);
    await link.click();
    await page.waitForURL((url) => url.pathname === `/demandes/${request}`);

    // Accounts: a member created with a generated password, then disabled.
    await page.goto(`${BASE_URL}/console/comptes`);
    await heading(page, 'Comptes').waitFor();
    await waitForHydration(page, problems);
    await assertNoHorizontalScroll(page, '/console/comptes');
    const email = `e2e.${Date.now()}@reciprok.fr`;
    await page.getByTestId('account-name').fill('Lina Test');
    await page.getByTestId('account-email').fill(email);
    await page.getByTestId('account-role').selectOption('team');
    await page.getByTestId('account-submit').click();
    const password = (await page.getByTestId('account-password').innerText()).trim();
    assert.equal(password.length, 20, 'the generated password is shown once');
    const member = page.locator(`[data-testid="account"][data-email="${email}"]`);
    await member.waitFor();
    assert.match(await member.getByTestId('account-state').innerText(), /Actif/);
    await member.getByTestId('account-toggle').click();
    await member.getByTestId('account-state').filter({ hasText: 'Désactivé' }).waitFor();
    assert.match(await page.getByTestId('console-done').innerText(), /Accès du compte modifié/);
    assert.deepEqual(problems, []);

    // The disabled member cannot sign in.
    await withPage({ viewport: DESKTOP }, async (other) => {
      await other.goto(`${BASE_URL}/connexion`);
      await submitSignIn(other, { email, password }, { js: false }).catch(() => {});
      assert.equal(location(other).pathname, '/connexion', 'a disabled account is refused');
    });
    // And the journal says so, in French.
    await page.goto(`${BASE_URL}/console?quoi=comptes`);
    await page.locator('[data-testid="journal-row"]').filter({ hasText: 'Compte désactivé' }).filter({ hasText: 'Lina Test' }).first().waitFor();
  });
});

test('the console and the accounts page fit a 390 px phone', { timeout: TEST_TIMEOUT }, async () => {
  await withPage({ viewport: PHONE }, async (page, problems) => {
    await signIn(page, ADMIN, { suivant: '/console' });
    await heading(page, 'Console').waitFor();
    await waitForHydration(page, problems);
    await page.getByTestId('assistant-mode').waitFor();
    await assertNoHorizontalScroll(page, '/console at 390 px');
    await assertFrenchOnly(page, '/console at 390 px');
    await page.goto(`${BASE_URL}/console/comptes`);
    await heading(page, 'Comptes').waitFor();
    await page.getByTestId('accounts').waitFor();
    await assertNoHorizontalScroll(page, '/console/comptes at 390 px');
    assert.deepEqual(problems, []);
  });
});
