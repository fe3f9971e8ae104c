// Forms posted without JavaScript that the server refuses: the browser comes
// back to the form's page, which shows the server's French message in an
// alert (pages/form_error.rs), keeps the form, and has written nothing.
// (The accepted answers are in links.test.mjs and outreach.test.mjs.)
//
// The availability part asks a venue of request MAXY_E2E_REQUEST_ID
// (default 1) through the team's server function, as outreach.test.mjs does.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE_URL, TEAM, TEST_TIMEOUT, fillDirective, heading, signIn, useBrowser, withPage } from './support.mjs';

useBrowser();

const REQUEST_ID = process.env.MAXY_E2E_REQUEST_ID || '1';

/** Clicks `button` (a form's submit) and waits for the page it comes back to with an error. */
async function postRefused(page, button) {
  await Promise.all([page.waitForURL(/__err=/), button.click()]);
}

test('without JavaScript, a refused availability answer comes back with its message', { timeout: TEST_TIMEOUT }, async (t) => {
  await withPage({ javaScriptEnabled: false }, async (page) => {
    await signIn(page, TEAM, { js: false });
    const call = async (name, form) => {
      const res = await page.request.post(`${BASE_URL}/api/outreach/${name}`, { form, headers: { origin: BASE_URL } });
      assert.equal(res.status(), 200, `${name}: ${await res.text()}`);
      return res.json();
    };
    const view = await call('view', { request_id: REQUEST_ID });
    const member = view.catalogue?.picks?.[0]?.member_id ?? view.checks?.[0]?.member_id;
    if (!member) {
      t.skip(`request ${REQUEST_ID} has no venue to ask`);
      return;
    }
    const [sent] = await call('availability', { request_id: REQUEST_ID, 'member_ids[0]': String(member) });

    // The venue, in a browser of its own, without JavaScript.
    await withPage({ javaScriptEnabled: false }, async (venue) => {
      const res = await venue.goto(`${BASE_URL}${sent.path}`);
      assert.equal(res?.status(), 200);
      await heading(venue, 'Disponibilité demandée').waitFor();
      await venue.getByRole('radio', { name: 'Oui, sous conditions', exact: true }).check();
      const send = venue.getByRole('button', { name: 'Envoyer ma réponse', exact: true });
      await postRefused(venue, send);
      const alert = venue.getByTestId('link-form-error');
      await alert.waitFor();
      assert.equal(await alert.getAttribute('role'), 'alert');
      assert.equal(
        await alert.innerText(),
        'Précisez vos conditions pour répondre « disponible sous conditions ».',
      );
      // Nothing answered: the form is still there. (Not answered here: the
      // check may be the one scripts/e2e.sh opened for links.test.mjs,
      // whose asking reuses a pending check.)
      assert.equal(await send.count(), 1);
      assert.equal(await venue.getByTestId('availability-status').count(), 0);
      await venue.reload();
      await venue.getByTestId('link-form-error').waitFor();
      assert.equal(await venue.getByTestId('availability-status').count(), 0, 'still pending after a reload');
    });
  });
});

test('without JavaScript, refused team forms come back with their message', { timeout: TEST_TIMEOUT }, async () => {
  await withPage({ javaScriptEnabled: false }, async (page) => {
    await signIn(page, TEAM, { js: false });

    // A guideline from a request's page whose trigger is blank. Its form
    // sits in a disclosure, which must open again on the message.
    const res = await page.goto(`${BASE_URL}/demandes/${REQUEST_ID}`);
    assert.equal(res?.status(), 200);
    await page.getByTestId('request-guideline').locator('summary').click();
    const form = page.getByTestId('guideline-form');
    await form.getByTestId('training-event-type').fill('cocktail');
    await fillDirective(form, { trigger: ' ', prefer: 'jardin' });
    await postRefused(page, form.getByTestId('guideline-submit'));
    const alert = page.getByTestId('guideline-error');
    await alert.waitFor();
    assert.match(await alert.innerText(), /déclencheur de la consigne est vide/);
    assert.equal(new URL(page.url()).pathname, `/demandes/${REQUEST_ID}`, 'back on the request');
    assert.equal(await page.getByTestId('request-guideline').getAttribute('open'), '', 'the disclosure is open');

    // My search preferences: postal codes without a zone name.
    await page.goto(`${BASE_URL}/lieux`);
    await page.getByTestId('my-preferences').locator('summary').click();
    const prefs = page.getByTestId('my-preferences-form');
    await prefs.getByTestId('pref-zone-label').fill('');
    await prefs.getByTestId('pref-postal-codes').fill('75009');
    await postRefused(page, page.getByTestId('save-my-preferences'));
    const refused = page.getByTestId('my-preferences-error');
    await refused.waitFor();
    assert.match(await refused.innerText(), /Donnez un nom à la zone/);
    assert.equal(await page.getByTestId('my-preferences').getAttribute('open'), '', 'the panel opens on its message');
    assert.match(await page.getByTestId('my-preferences-summary').innerText(), /aucune/, 'nothing saved');
  });
});
