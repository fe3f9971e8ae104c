import { chromium } from 'playwright-core';
const BASE = 'http://127.0.0.1:3917';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
const page = await browser.newPage({ viewport: { width: 390, height: 860 } });
await page.goto(`${BASE}/connexion?suivant=/chat`);
await page.waitForTimeout(1500);
await page.getByLabel('E-mail', { exact: true }).fill('camille.martin@reciprok.fr');
await page.getByLabel('Mot de passe', { exact: true }).fill('maxy-demo-2026');
await page.getByRole('button', { name: 'Se connecter', exact: true }).click();
await page.waitForURL(/chat/);
await page.waitForTimeout(2500);
const asks = process.argv.slice(2);
for (const [i, q] of asks.entries()) {
  if (i > 0) { await page.goto(`${BASE}/chat`); await page.waitForTimeout(2500); }
  const input = page.getByTestId('chat-input');
  await input.fill(q);
  await input.press('Enter');
  await page.waitForTimeout(500);
  await page.getByTestId('turn-end').last().waitFor({ state: 'attached', timeout: 60000 });
  await page.waitForTimeout(800);
  console.log(`=== ${q}\n` + (await page.getByTestId('message-assistant').allInnerTexts()).join('\n---\n').slice(0, 1500));
  await page.screenshot({ path: `/tmp/pass-${i}.png` });
}
await browser.close();
