// @ts-check
// The printable handout: both languages, the errata from the lessons, and a QR code for
// every lesson's link, drawn against the address the handout was opened at.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { openPlayground, readQr, screenshot } from './browser.mjs';

test('the handout prints to A4, a page per language and one for its errata, with a QR code for every lesson', async () => {
  const { page, errors, close } = await openPlayground({ page: 'handout.html', ready: false, width: 794, height: 1123 });
  try {
    await page.waitForFunction(() => [.../** @type {NodeListOf<HTMLImageElement>} */ (document.querySelectorAll('img[data-link]'))].every((i) => i.src.startsWith('data:image/')));
    const links = await page.locator('img[data-link]').evaluateAll((imgs) => imgs.map((i) => new URL(i.dataset.link, location.href).href));
    const lessons = readdirSync('static/scenarios').filter((f) => /^\d\d-.+\.json$/.test(f)).length;
    assert.equal(links.length, 2 * lessons, 'every lesson, in each language');
    assert.ok(links.every((l) => l.startsWith(new URL('./?scenario=', page.url()).href)), links[0]);
    const first = page.locator('img[data-link]').first();
    assert.equal(await readQr(first), links[0], 'a camera reads the lesson\'s link from its code');
    assert.equal(await page.locator('section[lang="ko"] h1').count(), 1);
    assert.match(await page.locator('section[lang="en"] .errata').textContent(), /64-bit/);
    const pdf = await page.pdf({ format: 'A4' });
    assert.ok(pdf.length > 10_000, 'it prints');
    const pages = (pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length;
    assert.equal(pages, 5, 'per language one page and the errata on the next, then the glossary');
    await page.emulateMedia({ media: 'print' });
    await screenshot(page, 'handout-print', { fullPage: false });
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});
