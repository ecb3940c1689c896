// The build-time first screen (scripts/prerender.mjs): shown before the wasm arrives, in the
// place the live page then takes, and never where the link or the language asks for another
// view.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { live, openPlayground, screenshot } from './browser.mjs';

/// Where the first screen's landmarks are drawn.
async function boxes(page) {
  const box = async (locator) => {
    const { x, y, width, height } = await locator.boundingBox();
    return [x, y, width, height].map(Math.round);
  };
  return {
    heading: await box(page.locator('h1')),
    stage: await box(page.locator('.stage-frame')),
    step: await box(page.locator('.controls button').filter({ hasText: 'Step forward' })),
    scenario: await box(page.locator('#scenario')),
  };
}

test('the first screen shows before the wasm arrives, inert, where the live page then draws it', async () => {
  const { page, errors, close } = await openPlayground({ ready: false });
  try {
    await page.route(/\.wasm$/, (route) => route.abort());
    await page.reload();
    await page.locator('h1').waitFor();
    assert.equal(await page.locator('#playground').getAttribute('inert'), '', 'its controls do nothing yet');
    assert.equal(await page.locator('html').getAttribute('data-live'), null);
    assert.match(await page.locator('.step-count').textContent(), /step 0/);
    const before = await boxes(page);
    await screenshot(page, 'first-screen-1280', { fullPage: false });

    await page.unroute(/\.wasm$/);
    errors.length = 0; // the refused wasm, above
    let wasmAsked;
    page.on('request', (r) => r.url().endsWith('.wasm') && (wasmAsked = Date.now()));
    await page.reload();
    await live(page);
    const painted = await page.evaluate(() => performance.timeOrigin + performance.getEntriesByName('first-contentful-paint')[0].startTime);
    assert.ok(wasmAsked >= painted, `the wasm is asked for after the first screen has painted (${Math.round(wasmAsked - painted)} ms)`);
    assert.equal(await page.locator('h1').count(), 1, 'the first screen was replaced, not added to');
    assert.equal(await page.locator('#playground').getAttribute('inert'), null);
    assert.deepEqual(await boxes(page), before, 'no layout shift when the page takes over');
    await page.getByRole('button', { name: 'Step forward' }).click();
    await page.locator('.step-count').filter({ hasText: /step 1\b/ }).waitFor();
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

for (const [why, query, korean] of [['a link with parameters', '?scenario=stale-read', false], ['a remembered Korean page', '', true]]) {
  test(`the first screen stays hidden for ${why}`, async () => {
    const { page, close } = await openPlayground({ ready: false });
    try {
      if (korean) await page.evaluate(() => localStorage.setItem('informer-playground.lang', 'ko'));
      await page.route(/\.wasm$/, (route) => route.abort());
      await page.goto(new URL(query, page.url()).href);
      await page.locator('h1').waitFor({ state: 'attached' });
      assert.equal(await page.locator('h1').isVisible(), false);
    } finally {
      await close();
    }
  });
}
