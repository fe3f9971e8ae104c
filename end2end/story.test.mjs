// Issue 11's whole story in one Chromium test, as the team and its outside
// contacts live it:
//
// 1. the builder of a request: fill from the search, top up to 4 + 4, pin a
//    room;
// 2. « Apprendre » on a recommended venue: « À ne plus proposer », with a
//    reason and a directive; the venue leaves the catalogue;
// 3. the same kind of request again (its twin, made by scripts/e2e.sh): the
//    venue is not proposed, and the Lieux page cites the training;
// 4. send the catalogue; the organizer opens the link in a fresh browser
//    context, JavaScript on then off, marks favourites and comments; the
//    builder shows them;
// 5. ask a venue its availability from the builder; the venue answers on
//    its link (a fresh context); the builder shows the answer.
//
// MAXY_E2E_STORY_REQUEST_ID (a demo request without catalogue, no other
// test touches it) and MAXY_E2E_STORY_TWIN_ID (a copy of it: same pool,
// event type, text and criteria) come from scripts/e2e.sh. Signs in once,
// as Antoine Girard (a demo team account no other test uses).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  BASE_URL,
  TEST_TIMEOUT,
  assertNoBundle,
  cardOf,
  demoAccount,
  emptyCatalogue,
  fillDirective,
  fillFromSearch,
  heading,
  markAFavourite,
  openBuilder,
  operate,
  pickCards,
  pinFirstRoom,
  saveOrganizerComment,
  tierCards,
  useBrowser,
  waitForHydration,
  withPage,
} from './support.mjs';

useBrowser();

const REQUEST_ID = process.env.MAXY_E2E_STORY_REQUEST_ID;
const TWIN_ID = process.env.MAXY_E2E_STORY_TWIN_ID;
const NO_STORY = (!REQUEST_ID || !TWIN_ID) && 'MAXY_E2E_STORY_REQUEST_ID / MAXY_E2E_STORY_TWIN_ID are not set (scripts/e2e.sh makes them)';
const ANTOINE = demoAccount('antoine.girard@reciprok.fr', 'Antoine Girard');
const SLOTS = 4;

/** The venue codes of the builder's cards. */
const cardCodes = (page) => pickCards(page).evaluateAll((cards) => cards.map((c) => c.dataset.code));

/**
 * Tops the tier up to 4 venues with « Ajouter un lieu »: types a few letters,
 * takes the first suggestion not in the catalogue yet. Each add is saved.
 */
async function topUp(page, tier) {
  const queries = ['le', 'la', 'de', 'es', 'an', 'er', 'on', 'ou'];
  for (const query of queries) {
    if ((await tierCards(page, tier).count()) >= SLOTS) return;
    await page.getByTestId('add-venue-tier').selectOption(tier);
    await page.getByTestId('add-venue-input').fill(query);
    const suggestions = page.getByTestId('add-venue-suggestions').getByRole('button');
    try {
      await suggestions.first().waitFor({ timeout: 5_000 });
    } catch {
      continue; // nothing named like that in the pool: next letters
    }
    const taken = new Set(await cardCodes(page));
    const texts = await suggestions.allInnerTexts();
    // A suggestion reads « Name CODE · City ».
    for (let i = 0; i < texts.length && (await tierCards(page, tier).count()) < SLOTS; i += 1) {
      const code = texts[i].split(' · ')[0].trim().split(/\s+/).pop();
      if (taken.has(code)) continue;
      await operate(page, () => suggestions.nth(i).click());
      taken.add(code);
      // The list closes after an add: type again for the next one.
      if ((await tierCards(page, tier).count()) < SLOTS) {
        await page.getByTestId('add-venue-input').fill(query);
        await suggestions.first().waitFor({ timeout: 5_000 }).catch(() => {});
      }
    }
  }
  assert.equal(await tierCards(page, tier).count(), SLOTS, `${tier}: 4 venues`);
}

test('issue 11, the whole story: build, learn, search again, send, organizer, availability', { timeout: TEST_TIMEOUT * 6, skip: NO_STORY }, async () => {
  const builder = `/demandes/${REQUEST_ID}/catalogue`;
  const stamp = Date.now().toString(36);
  await withPage({}, async (page, problems) => {
    // 1. A 4 + 4 catalogue with a pinned room.
    await openBuilder(page, problems, builder, ANTOINE);
    await emptyCatalogue(page);
    await fillFromSearch(page);
    const recommended = tierCards(page, 'recommended');
    assert.ok((await recommended.count()) >= 1, 'the search recommends at least one venue for this request');
    await topUp(page, 'recommended');
    await topUp(page, 'compatible');
    assert.equal(await pickCards(page).count(), 2 * SLOTS, '4 + 4');
    assert.equal(await page.getByTestId('empty-slot').count(), 0, 'no free slot');

    // The venue to teach about: the search's first recommendation.
    const searched = page.locator('[data-testid="tier-recommended"] [data-testid="pick-card"]', { hasText: 'recherche' });
    const rejected = await searched.first().getAttribute('data-member-id');
    const rejectedCode = await searched.first().getAttribute('data-code');
    // Pin a room on another venue of the search, which stays.
    const kept = await page.locator('[data-testid="pick-card"]', { hasText: 'recherche' })
      .evaluateAll((cards, id) => cards.map((c) => c.dataset.memberId).find((m) => m !== id), rejected);
    const pinnedOn = kept ?? rejected;
    const room = await pinFirstRoom(page, pinnedOn);

    // 2. « Apprendre »: never propose it again for this kind of event.
    const card = cardOf(page, rejected);
    await card.getByTestId('learn-button').click();
    const learn = card.getByTestId('learn-form');
    await learn.getByRole('radio', { name: 'À ne plus proposer', exact: true }).check();
    const reason = `Trop classique pour un lancement, pas d'extérieur (récit ${stamp})`;
    await learn.getByTestId('learn-reason').fill(reason);
    await learn.getByTestId('training-category').selectOption('ambiance');
    await fillDirective(learn, { trigger: 'lancement', prefer: 'rooftop, terrasse', avoid: 'sous-sol' });
    await learn.getByTestId('learn-submit').click();
    await card.getByTestId('learn-saved').waitFor();
    // It leaves this catalogue too, and another venue takes its slot.
    await operate(page, () => card.getByTestId('remove-pick').click());
    await topUp(page, 'recommended');

    // The catalogue was saved as built: a reload shows 4 + 4 and the room.
    await page.reload();
    await page.getByTestId('request-summary').waitFor();
    await waitForHydration(page, problems);
    assert.equal(await tierCards(page, 'recommended').count(), SLOTS);
    assert.equal(await tierCards(page, 'compatible').count(), SLOTS);
    assert.equal(await cardOf(page, rejected).count(), 0, 'the rejected venue left the catalogue');
    assert.equal(await cardOf(page, pinnedOn).getByTestId('room-select').inputValue(), room, 'the pinned room is kept');

    // 3. The same kind of request again: its twin.
    await openBuilder(page, problems, `/demandes/${TWIN_ID}/catalogue`);
    await emptyCatalogue(page);
    await fillFromSearch(page);
    assert.equal(await cardOf(page, rejected).count(), 0, `${rejectedCode} is not proposed again`);
    // The Lieux page on the twin's criteria says why, citing the training.
    await page.goto(`${BASE_URL}/demandes/${TWIN_ID}`);
    await page.getByTestId('request-search-link').click();
    await page.waitForURL((url) => url.pathname === '/lieux' && url.searchParams.get('demande') === TWIN_ID);
    await page.getByTestId('venue-results').waitFor({ timeout: 30_000 });
    assert.equal(
      await page.locator(`[data-testid="venue-pick"][data-member-id="${rejected}"]`).count(),
      0,
      `${rejectedCode} is neither recommended nor compatible`,
    );
    // The left-out venues fold under « N autres candidats écartés ».
    await page.getByTestId('excluded-summary').click();
    const why = page.getByTestId('excluded-venue').filter({ has: page.locator(`a[href="/lieux/${rejected}"]`) });
    await why.waitFor();
    const citation = await why.innerText();
    assert.match(citation, /Écarté le \d\d\/\d\d/, citation);
    assert.ok(citation.includes(reason), `the training's reason is cited: ${citation}`);

    // 4. Send the catalogue: the organizer's link, shown once.
    await openBuilder(page, problems, builder);
    await page.getByTestId('outreach-send-button').click();
    const linkInput = page.getByTestId('organizer-link');
    await linkInput.waitFor();
    await page.waitForFunction(() => document.querySelector('[data-testid="organizer-link"]')?.value.startsWith('http'));
    const organizerLink = await linkInput.inputValue();
    assert.match(organizerLink, /\/c\/[A-Za-z0-9_.-]+$/);
    await page.getByTestId('outreach-status').filter({ hasText: /Envoyé à l'organisateur le/ }).waitFor();

    // The organizer, JavaScript on, in a browser that never saw the team.
    const comments = [];
    const favourites = [];
    for (const javaScriptEnabled of [true, false]) {
      await withPage({ javaScriptEnabled }, async (organizer, organizerProblems) => {
        const res = await organizer.goto(organizerLink);
        assert.equal(res?.status(), 200);
        await heading(organizer, 'Votre sélection de lieux').waitFor();
        // The organizer's page loads no wasm (ADR 0036): its forms post as they are.
        if (javaScriptEnabled) await assertNoBundle(organizer);
        assert.equal(await organizer.getByTestId('catalogue-pick').count(), 2 * SLOTS, 'the 8 venues sent');
        // The pinned room is shown with its capacity.
        assert.ok((await organizer.getByTestId('pick-room').count()) >= 1, 'a pinned room is shown');
        favourites.push(await markAFavourite(organizer));
        const text = `${javaScriptEnabled ? 'Avec' : 'Sans'} JavaScript : ${favourites.at(-1)} nous plaît (récit ${stamp}).`;
        await saveOrganizerComment(organizer, text);
        comments.push(text);
        assert.equal(await organizer.getByRole('alert').count(), 0, 'no error');
        assert.deepEqual(organizerProblems, []);
      });
    }

    // The team sees both favourites and the last comment on the builder.
    await page.reload();
    await page.getByTestId('request-summary').waitFor();
    await waitForHydration(page, problems);
    await page.getByTestId('organizer-comment-seen').filter({ hasText: comments.at(-1) }).waitFor();
    for (const name of favourites) {
      await page.getByTestId('outreach-venue').filter({ hasText: name }).getByTestId('organizer-favorite').waitFor();
    }

    // 5. Availability: ask the venue with the pinned room, from the builder.
    const venue = page.locator(`[data-testid="outreach-venue"][data-member-id="${pinnedOn}"]`);
    await venue.getByRole('checkbox').check();
    await page.getByTestId('ask-availability').click();
    const askLink = page.getByTestId('availability-links').getByTestId('availability-link');
    await askLink.first().waitFor();
    await page.waitForFunction(() => document.querySelector('[data-testid="availability-link"]')?.value.startsWith('http'));
    const availabilityLink = await askLink.first().inputValue();
    assert.match(availabilityLink, /\/v\/[A-Za-z0-9_.-]+$/);
    await venue.getByTestId('availability-state').filter({ hasText: 'En attente de réponse' }).waitFor();

    const conditions = `Uniquement après 19 h (récit ${stamp})`;
    await withPage({}, async (host, hostProblems) => {
      const res = await host.goto(availabilityLink);
      assert.equal(res?.status(), 200);
      await heading(host, 'Disponibilité demandée').waitFor();
      await assertNoBundle(host);
      await host.getByRole('radio', { name: 'Oui, sous conditions', exact: true }).check();
      await host.getByTestId('availability-conditions-input').fill(conditions);
      await host.getByRole('button', { name: 'Envoyer ma réponse', exact: true }).click();
      await host.getByTestId('availability-status').getByText('Vous avez indiqué être disponible sous conditions. Merci !').waitFor();
      assert.deepEqual(hostProblems, []);
    });

    // The answer, its conditions and its delay, on the builder.
    await page.reload();
    await page.getByTestId('request-summary').waitFor();
    const state = venue.getByTestId('availability-state');
    await state.filter({ hasText: 'Disponible sous conditions' }).waitFor();
    assert.match(await state.innerText(), /répondu en/);
    await venue.getByText(`Conditions : « ${conditions} »`).waitFor();
    assert.deepEqual(problems, []);
  });
});
