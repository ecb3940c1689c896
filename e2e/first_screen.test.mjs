// @ts-check
// The build-time first screen (scripts/prerender.mjs): shown before the wasm arrives, in the
// place the live page then takes, and never where the link or the language asks for another
// view.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DIST, launchChromium, live, openPlayground, rememberLanguage, screenshot } from './browser.mjs';
import { serve } from '../scripts/static_server.mjs';
import { contract } from '../scripts/contract.mjs';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pageMarkup, settled, stepForwardTo, viewQuery } from '../scripts/page-markup.mjs';

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

/// The wasm held back until `release()`: the first screen stays until then.
async function holdWasm(page) {
  /** @type {(value?: unknown) => void} */
  let release;
  const held = new Promise((go) => (release = go));
  await page.route(/\.wasm$/, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/// What the first screen lets a person do: [operable stepping buttons, other controls that answer].
async function operable(page) {
  return page.locator('#playground').evaluate((screen) => {
    const answers = (el) => !el.disabled && !el.closest('[inert]') && !el.closest('[hidden]');
    const controls = [...screen.querySelectorAll('a[href], button, input, select, textarea, summary')].filter(answers);
    const stepping = controls.filter((c) => c.matches('.controls :is(.step-forward, .step-back)'));
    return [stepping.map((c) => c.className).sort(), controls.length - stepping.length];
  });
}

const stepShown = (page) => page.locator('#timeline').evaluate((t) => Number(t.value));

test('the first screen shows before the wasm arrives, where the live page then draws it, and steps', async () => {
  const { page, errors, close } = await openPlayground({ ready: false });
  try {
    await page.route(/\.wasm$/, (route) => route.abort());
    await page.reload();
    await page.locator('h1').waitFor();
    assert.equal(await page.locator('html').getAttribute('data-live'), null);
    assert.match(await page.locator('.step-count').textContent(), /step 0/);
    const before = await boxes(page);
    await screenshot(page, 'first-screen-1280', { fullPage: false });
    // Its steps arrive: Step forward answers, Step back once there is a step to go back to.
    await page.locator('#playground[data-step]').waitFor();
    assert.deepEqual(await operable(page), [['step-forward'], 0], 'only stepping answers before the wasm');
    await page.getByRole('button', { name: 'Step forward' }).click();
    await page.getByRole('button', { name: 'Step forward' }).click();
    assert.equal(await stepShown(page), 2);
    assert.match(await page.locator('.step-count').textContent(), /step 2\b/);
    assert.deepEqual(await operable(page), [['step-back', 'step-forward'], 0]);
    await page.keyboard.press('ArrowLeft');
    assert.equal(await stepShown(page), 1, 'the arrow keys step it too');
    assert.equal(await page.evaluate(() => document.activeElement.className), 'step-back');
    await page.keyboard.press('PageDown');
    assert.equal(await stepShown(page), 2, "and a presentation clicker's PageDown");
    assert.equal(await page.evaluate(() => scrollY), 0, 'which does not scroll the page');
    assert.deepEqual(await boxes(page), before, 'stepping moves nothing on the screen');

    await page.unroute(/\.wasm$/);
    errors.length = 0; // the refused wasm, above
    // The wasm is asked for at once, by a preload the loader's own fetch then takes: one request.
    const wasmAsked = [];
    page.on('request', (r) => r.url().endsWith('.wasm') && wasmAsked.push(r.url()));
    await page.reload();
    await live(page);
    // (The later modules — split_*, and chunk_* they share — come after the page is live.)
    const first = wasmAsked.filter((url) => /\/informer-web-[0-9a-f]+_bg\.wasm$/.test(url));
    assert.equal(first.length, 1, `the first module is fetched once: ${wasmAsked.join(', ')}`);
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

test('where its steps cannot be read, the first screen offers nothing to press', async () => {
  const { page, errors, close } = await openPlayground({ ready: false, width: 390, height: 844 });
  try {
    await holdWasm(page);
    const refused = new Promise((go) => page.route(/first-steps\//, (route) => route.abort().then(go)));
    await page.reload();
    await refused;
    await page.evaluate(() => globalThis.firstPaint);
    await page.waitForTimeout(200);
    assert.equal(await page.locator('#playground').getAttribute('data-step'), null, 'no step marked');
    assert.deepEqual(await operable(page), [[], 0], 'not even Step forward, which would do nothing');
    assert.ok(errors.every((e) => /first-steps|Failed to load/.test(e)), errors.join('\n'));
  } finally {
    await close();
  }
});

for (const [view, query, remembered, heading] of /** @type {[string, string, string | null, RegExp][]} */ ([
  ['a Korean lesson\'s link', '?scenario=stale-read&lang=ko', null, /[가-힣]/],
  ['a remembered Korean page', '', 'ko', /[가-힣]/],
  ['a lesson\'s link', '?scenario=stale-read', null, /stale/i],
])) {
  test(`${view} steps on its own first screen, and the live page opens at the step shown, the focus kept`, async () => {
    const { page, errors, close } = await openPlayground({ ready: false, width: 390, height: 844 });
    try {
      if (remembered) await rememberLanguage(page, remembered);
      const release = await holdWasm(page);
      await page.goto(new URL(query, page.url()).href);
      await page.locator('#playground[data-step] .controls .step-forward').waitFor();
      assert.match(await page.locator('#playground').innerText(), heading);
      const forward = page.locator('.controls .step-forward');
      await forward.click();
      await forward.click();
      await forward.click();
      assert.equal(await stepShown(page), 3);
      await screenshot(page, `first-screen-steps-${remembered ?? ''}${query.replace(/\W+/g, '-') || 'default'}-390`, { fullPage: false });
      const shown = await page.locator('.page').evaluate((/** @type {HTMLElement} */ p) => p.innerText);
      release();
      await live(page);
      assert.equal(await stepShown(page), 3, 'the live page opens at the step the reader is on');
      assert.equal(await page.locator('.page').evaluate((/** @type {HTMLElement} */ p) => p.innerText), shown, 'and shows what the first screen showed');
      assert.equal(await page.evaluate(() => document.activeElement.className), 'step-forward', 'the focus passes to the live button');
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => /** @type {HTMLInputElement} */ (document.getElementById('timeline')).value === '4');
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  });
}

for (const [why, query] of [['a link with other parameters', '?scenario=stale-read&step=3'], ['a link to no lesson', '?scenario=no-such-lesson']]) {
  test(`the first screen stays hidden for ${why}`, async () => {
    const { page, close } = await openPlayground({ ready: false });
    try {
      await page.route(/\.wasm$/, (route) => route.abort());
      await page.goto(new URL(query, page.url()).href);
      await page.locator('h1').waitFor({ state: 'attached' });
      await page.waitForLoadState('networkidle');
      assert.equal(await page.locator('h1').isVisible(), false);
    } finally {
      await close();
    }
  });
}

/// Where two markups first differ, with some of each around it.
function firstDifference(a, b) {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return `at ${i}: …${a.slice(Math.max(0, i - 80), i + 80)}… / …${b.slice(Math.max(0, i - 80), i + 80)}…`;
}

test('every step a first screen shows is what the live page draws at that step, on a phone too', async () => {
  const server = await serve(DIST, '/');
  const browser = await launchChromium();
  try {
    const origin = `http://127.0.0.1:${server.address().port}`;
    const files = readdirSync(join(DIST, 'first-steps')).filter((f) => f.endsWith('.json'));
    assert.equal(files.length, 2 * (1 + readdirSync(join(DIST, 'scenarios')).filter((f) => /^\d+-.+\.json$/.test(f)).length), 'every view, both languages');
    for (const file of files) {
      const [, view, lang] = /^(.+)\.(en|ko)\.json$/.exec(file);
      const steps = JSON.parse(readFileSync(join(DIST, 'first-steps', file), 'utf8'));
      const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
      await page.goto(`${origin}/${viewQuery(view, lang)}`);
      await live(page);
      for (const [step, markup] of steps.entries()) {
        if (step > 0) await stepForwardTo(page, step);
        else await settled(page);
        const drawn = await pageMarkup(page);
        assert.ok(drawn === markup, `${file}, step ${step}: the live page draws otherwise ${firstDifference(drawn, markup)}`);
        assert.equal(await page.locator('#timeline').evaluate((/** @type {HTMLInputElement} */ t) => t.value), String(step));
      }
      await page.close();
    }
  } finally {
    await browser.close();
    server.close();
  }
});

/// The notices outside the page: [starting shown, failure shown, the visible notice's text].
async function notices(page) {
  const starting = page.locator('#starting');
  const failed = page.locator('#start-failed');
  const shown = (await starting.isVisible()) ? starting : (await failed.isVisible()) ? failed : null;
  return [await starting.isVisible(), await failed.isVisible(), shown ? (await shown.innerText()).trim() : null];
}

// The last column is the language the page opens in, which its address then names (`lang=`).
for (const [lang, query, remembered, width, starting, failure, reload, code] of /** @type {[string, string, string | null, number, string, RegExp, string, string][]} */ ([
  ['English', '', null, 1280, 'Starting the playground…', /could not start: its code did not load/, 'Reload', 'en'],
  ['Korean, as the link asks', '?lang=ko&scenario=stale-read', null, 700, '플레이그라운드를 시작하는 중…', /시작하지 못했습니다/, '다시 불러오기', 'ko'],
  ['Korean, as remembered', '', 'ko', 1280, '플레이그라운드를 시작하는 중…', /시작하지 못했습니다/, '다시 불러오기', 'ko'],
  ['English, in an embed whatever is remembered', '?embed=1', 'ko', 700, 'Starting the playground…', /could not start/, 'Reload', 'en'],
])) {
  test(`while the page starts it says so, and says so if it cannot start, in ${lang}`, async () => {
    const { page, errors, close } = await openPlayground({ ready: false, width, height: 720 });
    try {
      if (remembered) await rememberLanguage(page, remembered);
      const url = new URL(query, page.url()).href;
      // The wasm held back until the notice has been seen.
      const release = await holdWasm(page);
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
      // Its link reloads the same address, the link's parameters kept: the page that could not
      // start ran none of its code, so nothing has rewritten the address its link resolves to.
      await page.unroute(/\.wasm$/);
      const link = page.getByRole('link', { name: reload });
      assert.equal(await link.evaluate((/** @type {HTMLAnchorElement} */ a) => a.href), url);
      const reloaded = page.waitForRequest((r) => r.isNavigationRequest() && r.frame() === page.mainFrame());
      await link.click();
      assert.equal((await reloaded).url(), url, 'the reload asks for the address the page was given');
      await live(page);
      // Live, the page keeps the address as its own link (docs/using.md, Links; written
      // ADDRESS_REST_MS after it rests): the link's parameters kept, the language it shows named.
      // Waited for, not read at one moment: once true it stays true, whenever the page writes it.
      await page.waitForFunction(([given, named]) => {
        const now = new URLSearchParams(location.search);
        return [...new URLSearchParams(given)].every(([k, v]) => now.get(k) === v) && now.get('lang') === named;
      }, [new URL(url).search, code]);
      assert.deepEqual(await notices(page), [false, false, null]);
    } finally {
      await close();
    }
  });
}

// The language rule, case by case as the page's contract holds it (www/contract.json, whose
// cases the wasm's own rule meets in the native layer): the first screen's script, which decides
// before the wasm has arrived, and the live page open in the same language. The document says
// it from its first frame, and the page's start leaves it be: set again, it would have the whole
// page styled and laid out anew.
for (const { query, remembered, lang } of contract.openingLanguage) {
  test(`the page opens in ${lang} for "${query || 'no parameters'}" with ${remembered ?? 'nothing'} remembered, before the wasm and after, the document's language set once`, async () => {
    const { page, errors, close } = await openPlayground({ ready: false, width: 700, height: 720 });
    try {
      if (remembered) await rememberLanguage(page, remembered);
      // The document's language as each change after the document was parsed left it.
      await page.addInitScript(() => {
        const changes = (/** @type {any} */ (window).__languageChanges = []);
        let parsed = false;
        document.addEventListener('DOMContentLoaded', () => (parsed = true));
        new MutationObserver((records) => {
          for (const record of records) if (parsed && record.target === document.documentElement) changes.push(document.documentElement.lang);
        }).observe(document, { attributes: true, subtree: true, attributeFilter: ['lang'] });
      });
      const release = await holdWasm(page);
      await page.goto(new URL(query, page.url()).href);
      await page.locator('#starting').waitFor();
      assert.equal(await page.locator('html').getAttribute('lang'), lang, 'the first screen');
      release();
      await live(page);
      assert.equal(await page.locator('html').getAttribute('lang'), lang, 'the live page');
      assert.deepEqual(await page.evaluate(() => /** @type {any} */ (window).__languageChanges), [], 'the language set again as the page started');
      assert.deepEqual(errors, []);
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
