// A whole e-mail pasted into the Lieux search, as the team receives them:
// greeting, body, a signature with the sender's own address, phone and
// postcode, and the quoted thread below. Only the body is read: the zone
// without the arrondissement ruled out, the people attending rather than
// the club's members, every layout of the programme, the kind of venue
// refused; « Compris » says all of it, and nothing from the signature or the
// thread.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  TEAM,
  TEST_TIMEOUT,
  heading,
  location,
  signIn,
  useBrowser,
  waitForHydration,
  withPage,
} from './support.mjs';

useBrowser();

const EMAIL = `Bonjour Camille,

Notre club de randonnée réunit 900 adhérents ; pour l'assemblée annuelle nous serons environ 120.
Nous cherchons un lieu à Paris, mais on évite le 17e. Conférence en théâtre, puis un verre debout pour prolonger les échanges. Pas de péniche, merci.

Cordialement,

Stéphanie Roux
Responsable événementiel – Club Alpin Francilien
8 avenue de Paris, 94300 Vincennes
06 12 34 56 78

Le mar. 3 mars 2026 à 10:12, Julie Martin <julie@acme.fr> a écrit :
> Bonjour, pouvez-vous nous aider pour 40 personnes à Boulogne ?`;

for (const width of [1440, 390]) {
  test(`a pasted e-mail is read from its body only (${width} px)`, { timeout: TEST_TIMEOUT }, async () => {
    await withPage({ viewport: { width, height: 900 } }, async (page, problems) => {
      await signIn(page, TEAM, { suivant: '/lieux' });
      await heading(page, 'Lieux').waitFor();
      await waitForHydration(page, problems);
      const text = page.getByTestId('venue-search-text');
      await text.fill(EMAIL);
      // Enter searches; the e-mail keeps its lines in the shareable URL (a
      // form sends a textarea's line breaks as CRLF).
      const sent = (url) => url.searchParams.get('q')?.replace(/\r\n/g, '\n');
      await text.press('Enter');
      await page.waitForURL((url) => sent(url) === EMAIL);
      assert.equal(sent(location(page)), EMAIL);

      const results = page.getByTestId('venue-results');
      await results.waitFor();
      const understood = await results.getByText(/^Compris :/).innerText();
      for (const wanted of [
        'Paris intra-muros',
        'hors Paris 17e',
        '120 personnes',
        'théâtre ou cocktail',
        'sans péniche',
        'jauge : 120 (le nombre de participants) ; non retenu : « 900 adhérents », l\'effectif de l\'organisation',
      ]) {
        assert.ok(understood.includes(wanted), `« ${wanted} » in ${understood}`);
      }
      for (const unwanted of ['94300', 'Vincennes', 'Boulogne', '40 personnes', '06 12', 'Stéphanie', 'Cordialement']) {
        assert.ok(!understood.includes(unwanted), `« ${unwanted} » read from the signature or the thread: ${understood}`);
      }
      const picks = page.getByTestId('venue-pick');
      await picks.first().waitFor();
      const places = await page.getByTestId('pick-place').allInnerTexts();
      assert.ok(places.length > 0);
      for (const place of places) {
        assert.match(place, /^750\d\d /, `a venue in Paris: ${place}`);
        assert.doesNotMatch(place, /^75017 /, `the 17th was ruled out: ${place}`);
      }
      // The page fits the screen: no sideways scrolling on a phone.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `${overflow} px wider than the screen`);
      assert.deepEqual(problems, []);
    });
  });
}
