// The build-time first screen (scripts/prerender.mjs): shown before the wasm arrives, in the
// place the live page then takes, and never where the link or the language asks for another
// view.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DIST, launchChromium, live, openPlayground, rememberLanguage, screenshot } from './browser.mjs';
import { serve } from '../scripts/static_server.mjs';

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
    // The wasm is asked for at once, by a preload the loader's own fetch then takes: one request.
    const wasmAsked = [];
    page.on('request', (r) => r.url().endsWith('.wasm') && wasmAsked.push(r.url()));
    await page.reload();
    await live(page);
    assert.equal(wasmAsked.length, 1, `the module is fetched once: ${wasmAsked.join(', ')}`);
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
      if (korean) await rememberLanguage(page, 'ko');
      await page.route(/\.wasm$/, (route) => route.abort());
      await page.goto(new URL(query, page.url()).href);
      await page.locator('h1').waitFor({ state: 'attached' });
      assert.equal(await page.locator('h1').isVisible(), false);
    } finally {
      await close();
    }
  });
}

/// The notices outside the page: [starting shown, failure shown, the visible notice's text].
async function notices(page) {
  const starting = page.locator('#starting');
  const failed = page.locator('#start-failed');
  const shown = (await starting.isVisible()) ? starting : (await failed.isVisible()) ? failed : null;
  return [await starting.isVisible(), await failed.isVisible(), shown ? (await shown.innerText()).trim() : null];
}

for (const [lang, query, remembered, width, starting, failure, reload] of [
  ['English', '', null, 1280, 'Starting the playground…', /could not start: its code did not load/, 'Reload'],
  ['Korean, as the link asks', '?lang=ko&scenario=stale-read', null, 700, '플레이그라운드를 시작하는 중…', /시작하지 못했습니다/, '다시 불러오기'],
  ['Korean, as remembered', '', 'ko', 1280, '플레이그라운드를 시작하는 중…', /시작하지 못했습니다/, '다시 불러오기'],
  ['English, in an embed whatever is remembered', '?embed=1', 'ko', 700, 'Starting the playground…', /could not start/, 'Reload'],
]) {
  test(`while the page starts it says so, and says so if it cannot start, in ${lang}`, async () => {
    const { page, errors, close } = await openPlayground({ ready: false, width, height: 720 });
    try {
      if (remembered) await rememberLanguage(page, remembered);
      const url = new URL(query, page.url()).href;
      // The wasm held back until the notice has been seen.
      let release;
      const held = new Promise((go) => (release = go));
      await page.route(/\.wasm$/, async (route) => {
        await held;
        await route.continue();
      });
      await page.goto(url);
      await page.locator('#starting').waitFor();
      assert.deepEqual(await notices(page), [true, false, starting]);
      const shot = `${remembered ?? ''}${query ? 'link' : 'default'}-${width}`;
      await screenshot(page, `starting-${shot}`, { fullPage: false });
      release();
      await live(page);
      assert.deepEqual(await notices(page), [false, false, null], 'no notice once the page is live');
      // The bytes were counted as they arrived, up to the module's size as built.
      assert.equal(await page.locator('#starting').getAttribute('data-progress'), '100%');
      assert.deepEqual(errors, []);

      await page.unroute(/\.wasm$/);
      await page.route(/\.wasm$/, (route) => route.abort());
      await page.goto(url);
      await page.locator('#start-failed').waitFor();
      const [, , text] = await notices(page);
      assert.match(text, failure);
      assert.equal(await page.locator('html').getAttribute('data-live'), null);
      await screenshot(page, `start-failed-${shot}`, { fullPage: false });
      // Its link reloads the same address, the link's parameters kept.
      await page.unroute(/\.wasm$/);
      await page.getByRole('link', { name: reload }).click();
      await live(page);
      assert.equal(page.url(), url);
      assert.deepEqual(await notices(page), [false, false, null]);
    } finally {
      await close();
    }
  });
}

test('without scripts the page says it needs them, and no notice claims it is starting', async () => {
  const server = await serve(DIST, '/');
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ javaScriptEnabled: false, viewport: { width: 700, height: 720 } });
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    assert.match(await page.locator('body').innerText(), /needs JavaScript and WebAssembly/);
    assert.deepEqual(await notices(page), [false, false, null]);
  } finally {
    await browser.close();
    server.close();
  }
});

test('on a slow network the starting notice counts the code as it arrives', async () => {
  const { page, errors, close } = await openPlayground({ ready: false, width: 700, height: 720 });
  try {
    const network = await page.context().newCDPSession(page);
    // About 2 s for the gzipped module.
    await network.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: 250_000, uploadThroughput: 250_000 });
    await page.reload();
    const partway = await page.waitForFunction(() => {
      const percent = Number.parseInt(document.getElementById('starting').dataset.progress, 10);
      return percent > 0 && percent < 100 && percent;
    });
    assert.ok(await partway.jsonValue() < 100);
    // Shown after the words, whatever their language.
    const after = await page.locator('#starting').evaluate((notice) => getComputedStyle(notice, '::after').content);
    assert.match(after, /^" \d{1,2}%"$/);
    await screenshot(page, 'starting-slow-700', { fullPage: false });
    await live(page);
    assert.equal(await page.locator('#starting').getAttribute('data-progress'), '100%');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});
