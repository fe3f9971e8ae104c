// The console's « Mesures » in Chromium (issue « Operations »): with
// JavaScript off, an admin reads every chart (an SVG drawn by the server,
// as wide as its box), the period is a link, a chart's numbers open day by
// day and a day leads to the rows it counts, in French. At 390 px the
// charts shrink with the page and nothing is wider than the window.
//
// A day of model calls and venue searches is planted with psql in the e2e
// database (`maxy_e2e` on the server of DATABASE_URL, as scripts/e2e.sh
// makes it; or MAXY_E2E_DATABASE_URL): a few cents, far under the cap.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { ADMIN, BASE_URL, TEST_TIMEOUT, heading, signIn, useBrowser, withPage } from './support.mjs';

useBrowser();

function databaseUrl() {
  if (process.env.MAXY_E2E_DATABASE_URL) return process.env.MAXY_E2E_DATABASE_URL;
  const base = process.env.DATABASE_URL;
  assert.ok(base, 'DATABASE_URL (or MAXY_E2E_DATABASE_URL) is needed to plant the day');
  return `${base.replace(/\/[^/]*$/, '')}/maxy_e2e`;
}

const sql = (query) =>
  execFileSync('psql', [databaseUrl(), '-qXAt', '-v', 'ON_ERROR_STOP=1', '-c', query], { encoding: 'utf8' }).trim();

function plant() {
  sql(`INSERT INTO llm_calls (task, provider, model, input_tokens, cache_read_tokens, output_tokens,
                              cost_usd, latency_ms, status, created_at)
       VALUES ('chat', 'anthropic', 'claude-sonnet-4-5', 1200, 3400, 250, 0.03, 900, 'ok', now() - interval '1 minute'),
              ('rank', 'anthropic', 'claude-haiku-4-5', 800, 0, 120, 0.01, 400, 'ok', now() - interval '1 day')`);
  sql(`INSERT INTO search_runs (semantic_query, sql_candidates, vector_candidates, llm_candidates,
                                result_count, sql_ms, embed_ms, vector_ms, llm_ms, total_ms, ranking_source, created_at)
       VALUES ('péniche pour un séminaire', 412, 40, 20, 8, 11, 24, 35, 820, 930, 'llm', now() - interval '2 minutes'),
              ('rooftop avec vue', 188, 40, 20, 8, 9, 22, 31, 0, 95, 'deterministic', now() - interval '1 day')`);
}

const CHARTS = 11;

test('an admin reads the charts, their numbers and their rows without JavaScript', { timeout: TEST_TIMEOUT }, async () => {
  plant();
  await withPage({ javaScriptEnabled: false }, async (page) => {
    await signIn(page, ADMIN, { suivant: '/console/mesures', js: false });
    await heading(page, 'Mesures').waitFor();
    const charts = page.getByTestId('measure-chart');
    assert.equal(await charts.count(), CHARTS);
    for (let i = 0; i < CHARTS; i += 1) {
      const svg = charts.nth(i).locator('svg[role="img"]');
      const box = await svg.boundingBox();
      assert.ok(box && box.width > 300 && box.height > 100, `chart ${i} is drawn (${JSON.stringify(box)})`);
      assert.match(await charts.nth(i).getByTestId('measure-period').innerText(), /^(Du |Depuis le )/);
    }
    const cost = page.locator('[data-chart="couts"]');
    assert.match(await cost.getByTestId('measure-summary').innerText(), /sur la période, dont .* pour « Conversation »/);
    const search = page.locator('[data-chart="recherche-duree"]');
    assert.match(await search.getByTestId('measure-summary').innerText(), /recherches? : médiane \d+ ms/);

    // The period is a link.
    await page.getByRole('link', { name: '7 jours' }).click();
    await page.waitForURL((url) => url.searchParams.get('jours') === '7');
    assert.equal(await page.getByRole('link', { name: '7 jours' }).getAttribute('aria-current'), 'page');
    assert.match(await cost.getByTestId('measure-period').innerText(), /\(7 jours, heure de Paris\)/);

    // The numbers, newest day first; the day leads to its rows.
    await cost.locator('summary').click();
    const numbers = cost.getByTestId('measure-numbers');
    assert.match(await numbers.locator('thead').innerText(), /Jour/);
    await numbers.locator('tbody tr').first().getByRole('link').click();
    await page.waitForURL((url) => url.pathname === '/console/mesures/lignes' && url.searchParams.get('famille') === 'appels');
    await heading(page, 'Lignes des mesures').waitFor();
    const rows = await page.getByTestId('rows-table').innerText();
    assert.match(rows, /Conversation/);
    assert.match(rows, /Réussi/);
    assert.doesNotMatch(rows, /\bchat\b|\bok\b/);
    assert.match(await page.getByTestId('rows-count').innerText(), /^Le \d{2}\/\d{2}\/\d{4} — \d+ lignes?/);
  });
});

test('the charts shrink with a 390 px phone', { timeout: TEST_TIMEOUT }, async () => {
  await withPage({ viewport: { width: 390, height: 844 } }, async (page) => {
    await signIn(page, ADMIN, { suivant: '/console/mesures' });
    await heading(page, 'Mesures').waitFor();
    const box = await page.getByTestId('measure-chart').first().locator('svg[role="img"]').boundingBox();
    assert.ok(box && box.width <= 390 && box.width > 250, JSON.stringify(box));
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the page is ${overflow} px wider than the phone`);
  });
});
