// The « Entraînement » page in Chromium: a guideline added from the form
// (hydrated) appears in the list; the same form posts without JavaScript
// and the page comes back with it listed; a guideline without a trigger is
// refused with its message, JavaScript on or off.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  BASE_URL,
  TEAM,
  TEST_TIMEOUT,
  fillDirective,
  heading,
  signIn,
  useBrowser,
  waitForHydration,
  withPage,
} from './support.mjs';

useBrowser();

/** A word no other test writes, so each run finds its own guideline. */
const unique = (prefix) => `${prefix}${Date.now().toString(36)}`;

async function fillGuideline(page, { trigger, prefer, avoid = '' }) {
  const form = page.getByTestId('guideline-form');
  await form.getByTestId('training-event-type').fill('cocktail');
  await fillDirective(form, { trigger, prefer, avoid });
  await form.getByTestId('guideline-reason').fill('Les soirées festives se passent dehors.');
  return form;
}

test('a guideline added on /entrainement is listed (JavaScript on)', { timeout: TEST_TIMEOUT }, async () => {
  await withPage({}, async (page, problems) => {
    await signIn(page, TEAM, { suivant: '/entrainement' });
    await heading(page, 'Entraînement').waitFor();
    await waitForHydration(page, problems);
    const prefer = unique('jardin');
    const form = await fillGuideline(page, { trigger: 'festif', prefer, avoid: 'sous-sol' });
    await Promise.all([page.waitForEvent('load'), form.getByTestId('guideline-submit').click()]);
    await page.getByTestId('guideline-saved').waitFor();
    const item = page.getByTestId('training-session').filter({ hasText: prefer });
    await item.first().waitFor();
    assert.match(await item.first().getByTestId('training-directive').innerText(), /Quand « festif » : préférer/);
    assert.equal(await item.first().getByTestId('training-event').innerText(), 'cocktail');

    // No trigger: refused, with the reason, in place.
    await fillGuideline(page, { trigger: ' ', prefer: unique('terrasse') });
    await page.getByTestId('directive-trigger').evaluate((el) => el.removeAttribute('required'));
    await page.getByTestId('guideline-submit').click();
    const error = page.getByTestId('guideline-error');
    await error.waitFor();
    assert.match(await error.innerText(), /déclencheur de la consigne est vide/);
    // The refusal is a 422 the browser logs: expected, and the only one.
    const unexpected = problems.filter((p) => !p.includes('status of 422'));
    assert.deepEqual(unexpected, []);
    assert.ok(problems.length <= 1, `${problems}`);
  });
});

test('the guideline form posts without JavaScript', { timeout: TEST_TIMEOUT }, async () => {
  await withPage({ javaScriptEnabled: false }, async (page) => {
    await signIn(page, TEAM, { js: false });
    const res = await page.goto(`${BASE_URL}/entrainement`);
    assert.equal(res?.status(), 200);
    const prefer = unique('verriere');
    const form = await fillGuideline(page, { trigger: 'festif', prefer });
    await Promise.all([page.waitForURL(/\/entrainement/), form.getByTestId('guideline-submit').click()]);
    const item = page.getByTestId('training-session').filter({ hasText: prefer });
    await item.first().waitFor();
    assert.match(await item.first().innerText(), /consigne générale/i);

    // Refused: the page comes back with the message.
    await fillGuideline(page, { trigger: 'festif', prefer: 'jardin', avoid: 'Jardin' });
    await Promise.all([page.waitForURL(/__err=/), page.getByTestId('guideline-submit').click()]);
    const alert = page.getByTestId('guideline-error');
    await alert.waitFor();
    assert.match(await alert.innerText(), /à la fois à préférer et à éviter/);
  });
});
