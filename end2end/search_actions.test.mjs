// Search results you can act on, and the builder's fixes (issue 29), in
// Chromium at 1440×900 and 390×844: the form shows what the search
// understood; a result opens the venue's sheet; a search opened from a
// request adds a venue to its catalogue in one click; the candidates left
// out unfold with their reason; no debug figures for the team. In the
// builder: the reason is a multi-line box, the last change can be undone,
// and « Apprendre » asks for a verdict and a reason before anything is sent.
// No page scrolls sideways.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  BASE_URL,
  TEAM,
  TEST_TIMEOUT,
  emptyCatalogue,
  openBuilder,
  operate,
  pickCards,
  signIn,
  useBrowser,
  waitForHydration,
  withPage,
} from './support.mjs';

useBrowser();

// A demo request no other test edits (the chat's are 1–2, the builder's 5).
const REQUEST_ID = process.env.MAXY_E2E_SEARCH_REQUEST_ID || '9';
const BUILDER = `/demandes/${REQUEST_ID}/catalogue`;
const QUERY = 'dans le 9e pour 40 personnes en cocktail';
const SIZES = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
];

async function assertNoSidewaysScroll(page, what) {
  const { scroll, width } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    width: window.innerWidth,
  }));
  assert.ok(scroll <= width, `${what}: ${scroll} px wide in a ${width} px window`);
}

for (const viewport of SIZES) {
  test(`search, read what was understood, open a sheet, add to the request's catalogue (${viewport.width} px)`, { timeout: TEST_TIMEOUT * 3 }, async () => {
    await withPage({ viewport }, async (page, problems) => {
      // A clean draft for the request.
      await openBuilder(page, problems, BUILDER, TEAM);
      await emptyCatalogue(page);

      // The search, opened for the request.
      await page.goto(`${BASE_URL}/lieux?demande=${REQUEST_ID}&q=${encodeURIComponent(QUERY)}`);
      const picks = page.getByTestId('venue-pick');
      await picks.first().waitFor({ timeout: 30_000 });
      await waitForHydration(page, problems);
      await assertNoSidewaysScroll(page, '/lieux');

      // The form shows what « Compris » says.
      const form = page.getByTestId('venue-search-form');
      assert.equal(await form.getByTestId('form-participants').inputValue(), '40');
      assert.match(await form.getByTestId('form-postal-codes').inputValue(), /75009/);
      assert.ok(await form.getByTestId('form-config-cocktail').isChecked(), 'cocktail ticked');
      const understood = await page.getByTestId('search-understood').innerText();
      assert.match(understood, /40 personnes/);
      const notes = understood.replace(/^Compris : /, '').split(' · ');
      assert.equal(new Set(notes).size, notes.length, `each criterion once: ${understood}`);
      assert.doesNotMatch(understood, /\d+,\d{4}/, 'no coordinates');

      // No debug figures for the team.
      const results = await page.getByTestId('venue-results').innerText();
      assert.doesNotMatch(results, /score|similarité|SQL|embedding/i, results);
      assert.equal(await page.getByTestId('search-details').count(), 0);

      // The candidates left out unfold, each with its reason.
      const excluded = page.getByTestId('excluded');
      if (await excluded.count()) {
        assert.match(await page.getByTestId('excluded-summary').innerText(), /autres? candidats? écartés?/);
        await page.getByTestId('excluded-summary').click();
        const first = page.getByTestId('excluded-venue').first();
        await first.waitFor();
        assert.match(await first.innerText(), / — \S/, 'a reason beside the venue');
      }

      // One click adds the first result to the request's catalogue.
      const card = picks.first();
      const memberId = await card.getAttribute('data-member-id');
      const add = card.getByTestId('add-to-catalogue-button');
      assert.match(await add.innerText(), /^Ajouter au catalogue de /);
      await add.click();
      await card.getByTestId('added-to-catalogue').waitFor();
      assert.match(await card.getByTestId('added-to-catalogue').innerText(), /Ajouté au catalogue de/);
      assert.deepEqual(problems, []);

      // The venue's sheet.
      const name = await card.getByTestId('venue-sheet-link').innerText();
      await card.getByTestId('venue-sheet-link').click();
      await page.waitForURL((url) => url.pathname === `/lieux/${memberId}`);
      await page.getByRole('heading', { level: 1, name }).waitFor();
      await page.getByTestId('venue-rooms').waitFor();
      assert.match(await page.getByTestId('venue-catalogues').innerText(), /D-/);
      await assertNoSidewaysScroll(page, `/lieux/${memberId}`);

      // The builder holds it.
      await page.goto(`${BASE_URL}${BUILDER}`);
      await page.locator(`[data-testid="pick-card"][data-member-id="${memberId}"]`).waitFor();
      await assertNoSidewaysScroll(page, BUILDER);
    });
  });
}

test('the builder: a multi-line reason, undo of the last change, « Apprendre » checked before it is sent', { timeout: TEST_TIMEOUT * 3 }, async () => {
  await withPage({ viewport: SIZES[1] }, async (page, problems) => {
    await openBuilder(page, problems, BUILDER, TEAM);
    if (!(await pickCards(page).count())) {
      await page.getByTestId('fill-from-search').click();
      await pickCards(page).first().waitFor({ timeout: 30_000 });
    }
    const card = pickCards(page).first();
    const memberId = await card.getAttribute('data-member-id');

    // The reason is a box of several lines.
    const reason = card.getByTestId('reason-input');
    assert.equal(await reason.evaluate((el) => el.tagName), 'TEXTAREA');

    // Remove, then undo: the venue is back.
    const before = await pickCards(page).count();
    await operate(page, () => card.getByTestId('remove-pick').click());
    assert.equal(await pickCards(page).count(), before - 1);
    await operate(page, () => page.getByTestId('undo').click());
    await page.locator(`[data-testid="pick-card"][data-member-id="${memberId}"]`).waitFor();
    assert.equal(await pickCards(page).count(), before);

    // « Apprendre »: nothing chosen for the user, nothing sent half-filled.
    const learnPosts = [];
    page.on('request', (r) => { if (r.url().includes('/api/training/learn')) learnPosts.push(r.url()); });
    const again = page.locator(`[data-testid="pick-card"][data-member-id="${memberId}"]`);
    await again.getByTestId('learn-button').click();
    const learn = again.getByTestId('learn-form');
    assert.equal(await learn.locator('input[name="verdict"]:checked').count(), 0, 'no verdict chosen by default');
    await learn.getByTestId('learn-submit').click();
    await learn.getByTestId('learn-invalid').waitFor();
    assert.match(await learn.getByTestId('learn-invalid').innerText(), /Choisissez un verdict/);
    await learn.getByTestId('learn-verdict-rejected').check();
    await learn.getByTestId('learn-submit').click();
    await page.waitForFunction(
      () => /raison est obligatoire/.test(document.querySelector('[data-testid="learn-invalid"]')?.textContent ?? ''),
    );
    await page.waitForTimeout(300);
    assert.deepEqual(learnPosts, [], 'nothing was sent');
    await assertNoSidewaysScroll(page, BUILDER);
    assert.deepEqual(problems, []);
  });
});
