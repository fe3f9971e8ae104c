// Sign-in, sign-out and roles, in Chromium, with the demo accounts of
// `maxy seed`. Environment: see support.mjs.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ADMIN,
  BASE_URL,
  TEAM,
  TEST_TIMEOUT,
  hasSession,
  heading,
  location,
  mainNav,
  signIn,
  submitSignIn,
  userMenu,
  useBrowser,
  waitForHydration,
  withPage,
} from './support.mjs';

useBrowser();

const TEAM_LINKS = ['Chat', 'Demandes', 'Lieux', 'Mémoire'];

/** Opens `path` anonymously and checks the redirect to /connexion?suivant=path. */
async function expectSignInRequired(page, path) {
  const res = await page.goto(`${BASE_URL}${path}`);
  assert.equal(res?.status(), 200, `GET ${path} ends on the sign-in page`);
  const url = location(page);
  assert.equal(url.pathname, '/connexion', `GET ${path} without a session`);
  assert.equal(url.searchParams.get('suivant'), path, 'the sign-in page remembers where to go next');
  await heading(page, 'Connexion').waitFor();
}

test('a team member signs in, lands on the page asked for, and signs out', { timeout: TEST_TIMEOUT }, async () => {
  await withPage({}, async (page, problems) => {
    await expectSignInRequired(page, '/chat');

    await submitSignIn(page, TEAM);
    assert.equal(location(page).pathname, '/chat', 'after sign-in, back to `suivant`');
    assert.ok(await hasSession(page), 'a session cookie is set');
    await heading(page, 'Chat').waitFor();
    await waitForHydration(page, problems);

    const menu = userMenu(page);
    assert.ok(await menu.isVisible(), 'the user menu is visible on a wide screen');
    await menu.getByText(TEAM.name, { exact: true }).waitFor();

    const nav = mainNav(page);
    for (const name of TEAM_LINKS) {
      assert.equal(await nav.getByRole('link', { name, exact: true }).count(), 1, `nav link "${name}"`);
    }
    assert.equal(await nav.getByRole('link', { name: 'Console', exact: true }).count(), 0, 'no Console link for the team');
    assert.deepEqual(problems, []);

    await menu.getByRole('button', { name: 'Se déconnecter', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/connexion');
    assert.equal(location(page).searchParams.get('deconnecte'), '1');
    await page.getByRole('status').getByText('Vous êtes déconnecté.', { exact: true }).waitFor();
    assert.ok(!(await hasSession(page)), 'the session cookie is gone');

    await expectSignInRequired(page, '/chat');
  });
});

test('a wrong password shows an error and starts no session', { timeout: TEST_TIMEOUT }, async () => {
  await withPage({}, async (page) => {
    await expectSignInRequired(page, '/demandes');
    await submitSignIn(page, { email: TEAM.email, password: 'pas-le-bon-mot-de-passe' });
    const url = location(page);
    assert.equal(url.pathname, '/connexion');
    assert.equal(url.searchParams.get('erreur'), 'identifiants');
    assert.equal(url.searchParams.get('suivant'), '/demandes', '`suivant` survives a failed attempt');
    await page.getByRole('alert').getByText('E-mail ou mot de passe incorrect.', { exact: true }).waitFor();
    assert.ok(!(await hasSession(page)), 'no session cookie');
    assert.equal(await mainNav(page).count(), 0, 'no team navigation');

    await expectSignInRequired(page, '/demandes');
  });
});

test('the console is refused to a team member (403)', { timeout: TEST_TIMEOUT }, async () => {
  await withPage({}, async (page) => {
    await signIn(page, TEAM);
    const res = await page.goto(`${BASE_URL}/console`);
    assert.equal(res?.status(), 403);
    assert.equal(location(page).pathname, '/console', 'no redirect');
    await heading(page, 'Accès refusé').waitFor();
    assert.equal(await page.getByTestId('audit-log').count(), 0, 'no audit log');
  });
});

// The journal's views (team, outsiders, system) are links: they work
// without JavaScript and, hydrated, switch in place. The team's view holds
// the admin's own sign-in however many outsiders failed meanwhile.
const journalViews = (page) => page.getByRole('navigation', { name: 'Filtrer le journal' });

test("the console's journal shows the team's view, with and without JavaScript", { timeout: TEST_TIMEOUT }, async () => {
  await withPage({}, async (page, problems) => {
    await signIn(page, ADMIN);
    const res = await page.goto(`${BASE_URL}/console`);
    assert.equal(res?.status(), 200);
    await waitForHydration(page, problems);
    await journalViews(page).getByRole('link', { name: 'Équipe', exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('journal') === 'equipe');
    const current = journalViews(page).locator('[aria-current="page"]');
    await current.getByText('Équipe', { exact: true }).waitFor();
    const log = page.getByTestId('audit-log');
    await log.getByRole('cell', { name: ADMIN.name, exact: true }).first().waitFor();
    // Switched in place: the link is marked before the team's rows replace
    // the full journal's (other tests' failed sign-ins among them), so wait
    // for the table to settle rather than count at once.
    const outsiders = log.getByRole('cell', { name: 'anonyme', exact: true });
    await page.waitForFunction(
      () => ![...document.querySelectorAll('[data-testid="audit-log"] td')].some((td) => td.textContent.trim() === 'anonyme'),
      null,
      { timeout: 5000 },
    ).catch(() => {});
    assert.equal(await outsiders.count(), 0, 'no outsider in the team view');
    assert.deepEqual(problems, []);
  });
  await withPage({ javaScriptEnabled: false }, async (page) => {
    await signIn(page, ADMIN, { js: false });
    const res = await page.goto(`${BASE_URL}/console?journal=equipe`);
    assert.equal(res?.status(), 200);
    const log = page.getByTestId('audit-log');
    assert.ok((await log.getByRole('cell', { name: ADMIN.name, exact: true }).count()) > 0, "the admin's sign-in");
    assert.equal(await log.getByRole('cell', { name: 'anonyme', exact: true }).count(), 0);
    const unknown = await page.goto(`${BASE_URL}/console?journal=inconnu`);
    assert.equal(unknown?.status(), 400);
    assert.equal(await page.getByRole('alert').getByText(/Ce journal n.existe pas/).count(), 1);
  });
});

// 2. The layout's nav and user menu sit in a <Transition> over the

test('sign-in works without JavaScript', { timeout: TEST_TIMEOUT }, async (t) => {
  await withPage({ javaScriptEnabled: false }, async (page) => {
    await expectSignInRequired(page, '/lieux');
    // Without JavaScript the DOM is final once loaded: count, do not wait.
    await t.test('the server-rendered form carries `suivant`', async () => {
      assert.equal(await page.locator('input[name="suivant"]').inputValue(), '/lieux');
    });

    await submitSignIn(page, ADMIN, { js: false });
    const landed = location(page);
    assert.notEqual(landed.pathname, '/connexion', `signed in (landed on ${landed.pathname}${landed.search})`);
    assert.ok(await hasSession(page), 'a session cookie is set');
    await t.test('sign-in lands on `suivant`', async () => {
      assert.equal(landed.pathname, '/lieux');
    });

    const res = await page.goto(`${BASE_URL}/lieux`);
    assert.equal(res?.status(), 200);
    await heading(page, 'Lieux').waitFor();

    await t.test('the user menu is server-rendered and signs out', async () => {
      const menu = userMenu(page);
      assert.equal(await menu.count(), 1, 'the user menu');
      assert.equal(await menu.getByText(ADMIN.name, { exact: true }).count(), 1, 'the display name');
      assert.equal(await mainNav(page).getByRole('link', { name: 'Console', exact: true }).count(), 1, 'Console link for an admin');
      await menu.getByRole('button', { name: 'Se déconnecter', exact: true }).click();
      await page.waitForURL((url) => url.pathname === '/connexion');
      await page.getByRole('status').getByText('Vous êtes déconnecté.', { exact: true }).waitFor();
      assert.ok(!(await hasSession(page)), 'the session cookie is gone');
    });
  });
});
