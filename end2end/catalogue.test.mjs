// The catalogue builder in Chromium: open a request's builder, fill it from
// the search, move a pick, pin a room, see « Enregistré », reload and find it
// kept; then two team members on the same catalogue: the one editing a stale
// version is told who changed it and when, and gets the other's version.
// Opening the builder of a request without a catalogue creates nothing: its
// button does, JavaScript on (support.mjs `openBuilder`) or off.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ADMIN,
  BASE_URL,
  TEAM,
  cardOf,
  TEST_TIMEOUT,
  emptyCatalogue,
  fillFromSearch,
  openBuilder as openBuilderAt,
  operate,
  pickCards as cards,
  pinFirstRoom,
  savedStatus,
  signIn,
  useBrowser,
  waitForHydration,
  withPage,
} from './support.mjs';

useBrowser();

// A demo request other than the chat's (MAXY_E2E_REQUEST_ID and the next).
const REQUEST_ID = process.env.MAXY_E2E_BUILDER_REQUEST_ID || '5';
const BUILDER = `/demandes/${REQUEST_ID}/catalogue`;

// Camille's session from the first test, reused by the second: the server
// allows few sign-ins a minute per account and the whole suite shares them.
let camilleSession;

/** Opens this file's builder (see support.mjs `openBuilder`). */
const openBuilder = (page, problems, user) => openBuilderAt(page, problems, BUILDER, user);

test('build a catalogue: fill from the search, move a pick, pin a room, reload', { timeout: TEST_TIMEOUT * 2 }, async () => {
  await withPage({}, async (page, problems) => {
    await openBuilder(page, problems, TEAM);
    camilleSession = await page.context().storageState();
    // Start from an empty draft: remove what an earlier run left.
    await emptyCatalogue(page);
    await fillFromSearch(page);
    const recommended = page.getByTestId('tier-recommended').getByTestId('pick-card');
    const compatible = page.getByTestId('tier-compatible').getByTestId('pick-card');
    assert.ok(await recommended.count() <= 4, 'at most 4 recommended');
    assert.ok(await compatible.count() <= 4, 'at most 4 compatible');
    assert.ok((await recommended.count()) + (await compatible.count()) >= 1, 'the search proposed a venue');

    // Move the first venue to the other tier. The demo's training may leave
    // the recommended tier empty for this request (a venue the team rejected
    // for this kind of event is not proposed again): never padded.
    const from = (await recommended.count()) ? 'recommended' : 'compatible';
    const to = from === 'recommended' ? 'compatible' : 'recommended';
    const source = from === 'recommended' ? recommended : compatible;
    const moved = await source.first().getAttribute('data-member-id');
    await operate(page, () => source.first().getByTestId('move-tier').click());
    await page.locator(`[data-testid="tier-${to}"] [data-testid="pick-card"][data-member-id="${moved}"]`).waitFor();

    // Pin a room of that venue: unpin, then pin its first fitting room.
    const card = () => cardOf(page, moved);
    const room = await pinFirstRoom(page, moved);

    // Everything was saved: a reload shows it.
    await page.reload();
    await page.getByTestId('request-summary').waitFor();
    await page.locator(`[data-testid="tier-${to}"] [data-testid="pick-card"][data-member-id="${moved}"]`).waitFor();
    assert.equal(await card().getByTestId('room-select').inputValue(), room);
    assert.match(await page.getByTestId('acceptance-rate').first().innerText(), /1 déplacée/);
    assert.deepEqual(problems, []);
  });
});

test('two members on one catalogue: the stale edit is refused and reloaded', { timeout: TEST_TIMEOUT * 2 }, async () => {
  const signedIn = camilleSession ? { storageState: camilleSession } : {};
  await withPage(signedIn, async (camille, camilleProblems) => {
    await openBuilder(camille, camilleProblems, camilleSession ? null : TEAM);
    if (!(await cards(camille).count())) {
      await camille.getByTestId('fill-from-search').click();
      await cards(camille).first().waitFor({ timeout: 30_000 });
    }
    await withPage({}, async (admin, adminProblems) => {
      await openBuilder(admin, adminProblems, ADMIN);
      // Both see the same version. Camille edits a reason first.
      const reason = `Vue dégagée (${Date.now()})`;
      const first = cards(camille).first();
      const member = await first.getAttribute('data-member-id');
      await operate(camille, async () => {
        await first.getByTestId('reason-input').fill(reason);
        await first.getByTestId('reason-input').press('Enter');
        await first.getByTestId('reason-input').blur();
      });
      // The admin, still on the old version, removes that venue: refused.
      await cards(admin).first().getByTestId('remove-pick').click();
      const message = admin.getByTestId('stale-message');
      await message.waitFor();
      assert.match(
        await message.innerText(),
        /Ce catalogue a été modifié par Camille Martin à \d\d:\d\d — version rechargée/,
      );
      // The admin now sees Camille's version, her reason included.
      const theirs = admin.locator(`[data-testid="pick-card"][data-member-id="${member}"]`);
      await theirs.waitFor();
      assert.equal(await theirs.getByTestId('reason-input').inputValue(), reason);
      // The refusal is a 409 the browser logs; nothing else may go wrong.
      assert.deepEqual(adminProblems.filter((p) => !/status of 409 \(Conflict\)/.test(p)), []);
    });
    assert.deepEqual(camilleProblems, []);
  });
});

test('the workspace: invent a request, build its training catalogue', { timeout: TEST_TIMEOUT * 2 }, async () => {
  const signedIn = camilleSession ? { storageState: camilleSession } : {};
  await withPage(signedIn, async (page, problems) => {
    if (camilleSession) {
      await page.goto(`${BASE_URL}/atelier`);
    } else {
      await signIn(page, TEAM, { suivant: '/atelier' });
    }
    await page.getByTestId('invent-form').waitFor();
    await waitForHydration(page, problems);
    const form = page.getByTestId('invent-form');
    await form.locator('select').selectOption({ index: 1 });
    await page.getByTestId('invent-description').fill('Soirée festive pour une agence, terrasse appréciée');
    await page.getByTestId('invent-participants').fill('40');
    await form.getByLabel('cocktail').check();
    await page.getByTestId('invent-submit').click();
    await page.waitForURL((url) => url.searchParams.get('atelier') === '1');
    await page.getByText("Catalogue d'entraînement", { exact: false }).first().waitFor();
    assert.match(await page.getByTestId('request-summary').innerText(), /scénario d'atelier/);
    await page.getByTestId('fill-from-search').click();
    await savedStatus(page).waitFor({ timeout: 30_000 });
    // No 4-slot grid in training (up to 25), and never a send button.
    assert.equal(await page.getByTestId('empty-slot').count(), 0);
    assert.match(await page.getByTestId('catalogue-status').innerText(), /sur 25 au plus/);
    assert.equal(await page.getByRole('button', { name: /Envoyer/ }).count(), 0);
    assert.deepEqual(problems, []);
  });
});

test('a request without a training catalogue: opening its builder creates nothing, the button does (JavaScript off)', { timeout: TEST_TIMEOUT }, async () => {
  await withPage({ javaScriptEnabled: false }, async (page) => {
    await signIn(page, TEAM, { js: false });
    const res = await page.goto(`${BASE_URL}/atelier`);
    assert.equal(res?.status(), 200);
    // A request the workspace lists without a training catalogue.
    const row = page.getByTestId('workspace-scenario').filter({ hasNotText: 'en entraînement' }).first();
    const href = await row.getByTestId('train-on-request').getAttribute('href');
    assert.match(href, /\/catalogue\?atelier=1$/);
    await page.goto(`${BASE_URL}${href}`);
    await page.getByTestId('request-summary').waitFor();
    const prepare = page.getByTestId('prepare-catalogue');
    assert.equal(await prepare.innerText(), "Commencer l'entraînement");
    // Opened twice, still nothing: no draft, no builder.
    await page.reload();
    await prepare.waitFor();
    assert.equal(await page.getByTestId('catalogue-status').count(), 0);
    // The button posts; the page comes back on the new draft.
    await prepare.click();
    const status = page.getByTestId('catalogue-status');
    await status.waitFor();
    assert.match(await status.innerText(), /Brouillon · 0 lieu sur 25 au plus/);
    assert.equal(await prepare.count(), 0);
    assert.equal(new URL(page.url()).pathname, new URL(`${BASE_URL}${href}`).pathname);
  });
});
