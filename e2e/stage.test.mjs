// @ts-check
// The page in a room: presenter mode, themes and the shortcuts overlay by keyboard, and an
// address that always restores what is on the screen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { live, openPlayground, readQr, screenshot, switchToKorean } from './browser.mjs';
import { serve, STRICT_CSP } from '../scripts/static_server.mjs';
import { HASHED } from '../scripts/contract.mjs';

test('presenter mode, the theme and the shortcuts overlay work by keyboard; the address follows the state', async () => {
  const { page, errors, close } = await openPlayground({ query: '?scenario=disconnect-and-resume' });
  try {
    for (let i = 0; i < 3; i++) await page.keyboard.press('PageDown');
    await page.keyboard.press('PageUp');
    await page.waitForFunction(() => location.search.includes('step=2'));
    assert.match(new URL(page.url()).search, /^\?scenario=disconnect-and-resume&/);

    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor();
    assert.match(await help.textContent(), /PageDown/);
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Presenter mode' }).click();
    await page.waitForFunction(() => location.search.includes('present=1'));
    assert.equal(await page.getByRole('heading', { name: 'Event log' }).isVisible(), false, 'presenter mode shows the stage only');
    await page.getByLabel('Theme').selectOption('dark');
    assert.equal(await page.locator('html').getAttribute('data-theme'), 'dark');
    await screenshot(page, 'present-dark-1280');
    // The address follows once the state has rested (ADDRESS_REST_MS).
    await page.waitForFunction(() => location.search.includes('theme=dark'));

    // The address restores the same state: the lesson, its step, presenter mode and theme.
    await page.reload();
    await live(page);
    assert.match(await page.locator('.step-count').textContent(), /step 2/);
    assert.equal(await page.getByRole('button', { name: 'Presenter mode' }).getAttribute('aria-pressed'), 'true');
    assert.equal(await page.locator('html').getAttribute('data-theme'), 'dark');

    await switchToKorean(page);
    await page.getByRole('button', { name: '발표 모드' }).waitFor();
    await page.setViewportSize({ width: 700, height: 900 });
    await screenshot(page, 'present-dark-ko-700');
    await page.getByLabel('테마').selectOption('light');
    await page.getByRole('button', { name: '발표 모드' }).click();
    await screenshot(page, 'light-ko-700');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('a documentation page embeds three lessons at their steps and ranges, each sized to its content', async () => {
  const { page, errors, close } = await openPlayground({ page: 'embeds.html', ready: false, width: 900, height: 900 });
  try {
    const frames = page.locator('iframe');
    // Posters until started; the driven one (data-load="eager") is a frame at once.
    await page.waitForFunction(() => document.querySelectorAll('iframe').length === 1);
    // By keyboard: a frame that has started sizes itself to its content, which moves the
    // posters below it, and a pointer's click aimed before the move can land beside them.
    await page.getByRole('button', { name: /^레슨 시작: / }).press('Enter');
    await page.getByRole('button', { name: /^Start the lesson: / }).press('Enter');
    await page.waitForFunction(() => document.querySelectorAll('iframe').length === 3);
    const korean = page.frameLocator('iframe').nth(0);
    await korean.getByRole('button', { name: '한 단계 앞으로' }).waitFor();
    assert.match(await korean.locator('.step-count').textContent(), /12/);
    const ranged = page.frameLocator('iframe').nth(1);
    await ranged.getByRole('button', { name: 'Step forward' }).waitFor();
    assert.match(await ranged.locator('.step-count').textContent(), /step 14/, 'a range opens at its first step');
    assert.equal(await ranged.getByRole('button', { name: 'Step back' }).isDisabled(), true);
    assert.equal(await ranged.getByLabel('Timeline').getAttribute('max'), '30');
    const full = await ranged.getByRole('link', { name: 'Open in the full playground' }).getAttribute('href');
    assert.match(full, /scenario=delta-fifo-grouping/);
    assert.doesNotMatch(full, /embed|from=|to=/);
    // Each frame is sized from the height it posts.
    await page.waitForFunction(() => [...document.querySelectorAll('iframe')].every((f) => f.style.height !== '520px'));
    const heights = await frames.evaluateAll((fs) => fs.map((f) => parseInt(f.style.height, 10)));
    assert.ok(heights.every((h) => h >= 200 && h < 2000), `heights ${heights}`);
    await page.frameLocator('iframe').nth(2).getByRole('button', { name: 'Step forward' }).waitFor();
    await screenshot(page, 'embeds-900');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('the host page drives an embed through its API and hears every step and answer', async () => {
  const { page, errors, close } = await openPlayground({ page: 'embeds.html', ready: false, width: 900, height: 900 });
  try {
    const driven = page.frameLocator('#driven iframe');
    await driven.getByRole('button', { name: 'Step forward' }).waitFor();
    // At step 28 the lesson has asked its question: the answer is told to the host page.
    await driven.getByRole('group', { name: 'Question 1' }).getByRole('button').first().click();
    await page.locator('#said').filter({ hasText: /^question 1: (right|not right)$/ }).waitFor();
    await page.getByRole('button', { name: 'Step 1', exact: true }).click();
    await driven.locator('.step-count').filter({ hasText: /step 1\b/ }).waitFor();
    await page.locator('#said').filter({ hasText: /^step 1: #1 / }).waitFor();
    // The host page's own button: it tells the embed to switch (the host page stays English).
    await page.getByRole('button', { name: '한국어' }).click();
    await driven.getByRole('button', { name: '한 단계 앞으로' }).waitFor();
    await page.getByRole('button', { name: 'Play' }).click();
    await page.locator('#said').filter({ hasText: /^step ([3-9]|\d\d+):/ }).waitFor();
    await page.getByRole('button', { name: 'Pause' }).click();
    const paused = await page.locator('#said').textContent();
    await page.waitForTimeout(800);
    assert.equal(await page.locator('#said').textContent(), paused, 'no step after Pause');
    // Another lesson, fetched on demand, at a step.
    await page.getByRole('button', { name: 'Stale reads at step 5' }).click();
    await page.locator('#said').filter({ hasText: /^step 5: #5 / }).waitFor();
    assert.match(await driven.locator('a.open-full').getAttribute('href'), /scenario=stale-read/);
    // A malformed command is answered, naming what was wrong.
    await page.evaluate(() => /** @type {HTMLIFrameElement} */ (document.querySelector('#driven iframe')).contentWindow.postMessage('{"type":"informer-playground:goto","step":-3}', location.origin));
    await page.locator('#said').filter({ hasText: 'refused: the field "step" cannot be -3' }).waitFor();
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('a frame obeys only its own origin and the hosts its link lists', async () => {
  const { page: playground, errors, close } = await openPlayground({ query: '?scenario=disconnect-and-resume&step=5' });
  const own = new URL(playground.url()).origin;
  const dir = await mkdtemp(join(tmpdir(), 'foreign-'));
  const frame = (host) => `<iframe src="${own}/?scenario=disconnect-and-resume&step=5&embed=1${host}" title="embed"></iframe>`;
  const foreign = await serve(dir, '/', { csp: `${STRICT_CSP}; frame-src ${own}` });
  const foreignOrigin = `http://127.0.0.1:${foreign.address().port}`;
  await writeFile(join(dir, 'index.html'), `<!doctype html><title>foreign</title><link rel="icon" href="data:,">${frame('')}${frame(`&host=${encodeURIComponent(foreignOrigin)}`)}`);
  try {
    const page = playground;
    // What the frames say to this page, heard from its start.
    await page.addInitScript(() => {
      /** @type {any} */ (window).heard = [];
      window.addEventListener('message', (e) => /** @type {any} */ (window).heard.push(e.data));
    });
    await page.goto(`${foreignOrigin}/`);
    const [unlisted, listed] = [page.frameLocator('iframe').nth(0), page.frameLocator('iframe').nth(1)];
    await unlisted.getByRole('button', { name: 'Step forward' }).waitFor();
    await listed.getByRole('button', { name: 'Step forward' }).waitFor();
    // The listed frame takes commands once it says it is ready (its reader is a module of its own).
    await page.waitForFunction(() => /** @type {any} */ (window).heard.some((m) => typeof m === 'string' && m.includes('informer-playground:ready')));
    await page.evaluate(() => {
      for (const f of document.querySelectorAll('iframe')) f.contentWindow.postMessage(JSON.stringify({ type: 'informer-playground:goto', step: 2 }), '*');
    });
    await listed.locator('.step-count').filter({ hasText: /step 2\b/ }).waitFor();
    await page.waitForTimeout(300);
    assert.match(await unlisted.locator('.step-count').textContent(), /step 5\b/, 'a foreign origin is ignored');
    const heard = await page.evaluate(() => /** @type {any} */ (window).heard.filter((m) => !m.includes(':height')).map((m) => JSON.parse(m)));
    assert.ok(heard.some((m) => m.type === 'informer-playground:step' && m.step === 2), JSON.stringify(heard));
    assert.equal(heard.filter((m) => m.type === 'informer-playground:ready').length, 1, 'only the listed frame speaks to this origin');
    assert.deepEqual(errors, []);
  } finally {
    foreign.close();
    await close();
  }
});

test('Share copies the link, shows its QR code, offers the run as files, and a shared link opens the same moment', async () => {
  const { page, errors, close } = await openPlayground({ query: '?scenario=stale-read&step=12&inspect=fifo' });
  try {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Share this moment' });
    const link = await dialog.getByLabel('Link').inputValue();
    assert.match(link, /^http:\/\/127\.0\.0\.1:\d+\/\?scenario=stale-read&lang=en&step=12&inspect=fifo$/);
    await dialog.getByRole('button', { name: 'Copy the link' }).click();
    await dialog.getByRole('status').filter({ hasText: 'The link is copied.' }).waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), link);
    const snippet = await dialog.getByLabel('Embed in a page').inputValue();
    assert.match(snippet, /^<iframe src="http:\/\/127\.0\.0\.1:\d+\/\?scenario=stale-read&amp;lang=en&amp;step=12&amp;inspect=fifo&amp;embed=1" title="informer-playground: stale-read"/);
    const qr = dialog.getByRole('img', { name: 'QR code of the link' });
    await qr.waitFor();
    assert.match(await qr.getAttribute('src'), /^data:image\/gif;base64,/);
    assert.equal(await readQr(qr), link, 'a camera reads the page\'s own address from it');
    await screenshot(page, 'share-1280');
    const saved = async (name) => {
      const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name }).click()]);
      const path = await download.path();
      return { name: download.suggestedFilename(), text: await import('node:fs/promises').then((fs) => fs.readFile(path, 'utf8')) };
    };
    const jsonl = await saved('The run as JSON lines');
    assert.equal(jsonl.name, 'stale-read-12-steps.jsonl');
    assert.deepEqual(jsonl.text.trim().split('\n').map((l) => JSON.parse(l).step), Array.from({ length: 12 }, (_, i) => i + 1));
    const mermaid = await saved('The run as a Mermaid diagram');
    assert.match(mermaid.text, /^sequenceDiagram\n/);
    assert.equal(mermaid.text.split('\n').filter((l) => l.includes('->>')).length, 12);
    const svg = await saved("This step's diagram as SVG");
    assert.equal(svg.name, 'stale-read-step-12.svg');
    assert.match(svg.text, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    assert.match(svg.text, /#12 /, 'the step is written under the drawing');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    // The shared link, opened elsewhere: the same step and inspector.
    const other = page;
    await other.goto('about:blank');
    await other.goto(link);
    await other.locator('.step-count').filter({ hasText: /step 12\b/ }).waitFor();
    assert.equal(await other.getByRole('button', { name: /^Inspect DeltaFIFO|^Inspect RealFIFO/ }).getAttribute('aria-pressed'), 'true');
    // A saved state file opens the state it holds (bad parameters in it become notices).
    await other.getByRole('button', { name: 'Share', exact: true }).click();
    await other.getByLabel('Open a saved state').setInputFiles({ name: 'state.txt', mimeType: 'text/plain', buffer: Buffer.from(`${link.replace('step=12', 'step=5')}&bogus=1\n`) });
    await other.locator('.step-count').filter({ hasText: /step 5\b/ }).waitFor();
    await other.getByText('unknown parameter bogus (ignored)').waitFor();
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('where the page has no clipboard (plain http on a network address), Copy selects the link for the person to copy', async () => {
  const { page, errors, close } = await openPlayground({ ready: false });
  try {
    // A page opened over plain http at a network address is no secure context: no clipboard.
    await page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined }));
    await page.reload();
    await live(page);
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Share this moment' });
    await dialog.getByRole('button', { name: 'Copy the link' }).click();
    await dialog.getByRole('status').filter({ hasText: 'the text is selected, copy it with Ctrl+C' }).waitFor();
    const selected = await dialog.getByLabel('Link').evaluate((/** @type {HTMLInputElement} */ input) => input.value.slice(input.selectionStart, input.selectionEnd));
    assert.equal(selected, await dialog.getByLabel('Link').inputValue(), 'the whole link is selected');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

// Where the token's dot is, in page pixels, for each of `frames` animation frames.
const dotPath = (page, frames) =>
  page.evaluate(
    (n) =>
      new Promise((resolve) => {
        const seen = [];
        const sample = () => {
          const dot = [...document.querySelectorAll('.stage-frame .tokens .token:not(.past) .dot')].pop();
          const r = dot?.getBoundingClientRect();
          seen.push(r ? [Math.round(r.x), Math.round(r.y)] : null);
          if (seen.length < n) requestAnimationFrame(sample);
          else resolve(seen);
        };
        requestAnimationFrame(sample);
      }),
    frames,
  );

test('a step travels along its edge at normal speed, and not at all with reduced motion', async () => {
  const { page, errors, close } = await openPlayground({ query: '?scenario=list-then-watch&step=3' });
  try {
    await page.getByRole('button', { name: 'Step forward' }).click();
    const moving = (await dotPath(page, 20)).filter(Boolean);
    const distinct = new Set(moving.map((p) => p.join(','))).size;
    assert.ok(distinct >= 4, `the dot moves over several frames: ${JSON.stringify(moving)}`);
    const [first, last] = [moving[0], moving[moving.length - 1]];
    assert.notDeepEqual(first, last);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.getByRole('button', { name: 'Step forward' }).click();
    const still = (await dotPath(page, 12)).filter(Boolean);
    assert.equal(new Set(still.map((p) => p.join(','))).size, 1, `parked: ${JSON.stringify(still)}`);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('the DeltaFIFO box shows the queued keys with their deltas after a burst, and empties as they pop', async () => {
  const { page, errors, close } = await openPlayground({ query: '?scenario=delta-fifo-grouping' });
  try {
    const chips = page.getByTestId('fifo-chips');
    let burst = null;
    for (let i = 0; i < 120 && !burst; i++) {
      await page.keyboard.press('ArrowRight');
      const text = await chips.textContent();
      if (/×3/.test(text)) burst = text;
    }
    assert.ok(burst, 'a key with three deltas waits in the FIFO');
    const fifo = page.getByRole('button', { name: 'Inspect DeltaFIFO' });
    assert.match(await page.locator(`#${await fifo.getAttribute('aria-describedby')}`).textContent(), /×3/, 'its description says so');
    let drained = false;
    for (let i = 0; i < 60 && !drained; i++) {
      await page.keyboard.press('ArrowRight');
      drained = (await chips.textContent()) === '';
    }
    assert.ok(drained, 'the FIFO empties as the informer pops');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

for (const lang of ['en', 'ko']) {
  test(`at 1280×720 the controls, the stage, the narration, the question and the newest events fit the first screen (${lang})`, async () => {
    const { page, errors, close } = await openPlayground({ query: `?scenario=delta-fifo-grouping&step=33&lang=${lang}` });
    try {
      const inside = async (selector) => {
        const box = await page.locator(selector).first().boundingBox();
        assert.ok(box, `${selector} is shown`);
        assert.ok(box.y >= 0 && box.y + box.height <= 720 && box.x >= 0 && box.x + box.width <= 1280, `${selector} is inside the first screen: ${JSON.stringify(box)}`);
      };
      for (const selector of ['.controls', 'svg.pipeline', '.narration', '.question', '.event-log .line']) await inside(selector);
      await screenshot(page, `room-${lang}-1280`, { fullPage: false });
      await page.setViewportSize({ width: 700, height: 900 });
      await screenshot(page, `room-${lang}-700`, { fullPage: false });
      await page.emulateMedia({ colorScheme: 'dark' });
      await screenshot(page, `room-${lang}-700-dark`, { fullPage: false });
      await page.setViewportSize({ width: 1280, height: 720 });
      await screenshot(page, `room-${lang}-1280-dark`, { fullPage: false });
      if (lang === 'en' && process.env.DOCS_PICTURE) await page.screenshot({ path: 'docs/stage.png' });
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  });
}

test('lessons load on demand: the first screen fetches none, opening one fetches its file once', async () => {
  const { page, errors, close } = await openPlayground({ ready: false });
  const fetched = [];
  page.on('request', (r) => r.url().includes('/scenarios/') && fetched.push(new URL(r.url()).pathname));
  try {
    await page.reload();
    await live(page);
    assert.deepEqual(fetched, [], 'no lesson on the first screen');
    await page.getByLabel('Scenario').selectOption('stale-read');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('scenario') === 'stale-read');
    assert.deepEqual(fetched, ['/scenarios/09-stale-read.bin']);
    await page.getByLabel('Scenario').selectOption('list-then-watch');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('scenario') === 'list-then-watch');
    await page.getByLabel('Scenario').selectOption('stale-read');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('scenario') === 'stale-read');
    assert.equal(fetched.filter((p) => p.endsWith('09-stale-read.bin')).length, 1, 'fetched once');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test("a lesson's link asks for the lesson's file at once, beside the wasm, and the page takes that answer", async () => {
  const { page, errors, close } = await openPlayground({ ready: false });
  const fetched = [];
  page.on('request', (r) => r.url().includes('/scenarios/') && fetched.push(new URL(r.url()).pathname));
  try {
    // The module held back: the lesson's file is asked for while it is still on its way.
    /** @type {(value?: unknown) => void} */
    let release;
    const held = new Promise((go) => (release = go));
    await page.route(/\.wasm$/, async (route) => {
      await held;
      await route.continue();
    });
    const asked = page.waitForRequest((r) => r.url().includes('/scenarios/'));
    await page.goto(new URL('?scenario=stale-read', page.url()).href);
    await asked;
    release();
    await live(page);
    // Its address names the build, by its wasm's hash, as the page's own fetch of it does.
    const wasm = await page.locator('link[rel="preload"][href$=".wasm"]').getAttribute('href');
    const build = HASHED.exec(wasm)[1];
    assert.equal(await page.locator('link[rel="preload"][href*="/scenarios/"]').getAttribute('href'), new URL(`scenarios/09-stale-read.bin?build=${build}`, page.url()).href);
    assert.deepEqual(fetched, ['/scenarios/09-stale-read.bin'], 'one request: the page took the preload');
    assert.match(await page.locator('#scenario').inputValue(), /stale-read/);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('Next note (N) goes to the step of each narration note in turn', async () => {
  const { page, errors, close } = await openPlayground({ query: '?scenario=disconnect-and-resume' });
  try {
    const step = async () => Number((await page.locator('.step-count').textContent()).match(/\d+/)[0]);
    const seen = [];
    await page.getByRole('button', { name: 'Next note' }).click();
    await page.locator('.lesson .narration').waitFor();
    seen.push(await step());
    for (let i = 0; i < 2; i++) {
      const before = await page.locator('.lesson .narration').textContent();
      await page.keyboard.press('n');
      await page.waitForFunction((text) => document.querySelector('.lesson .narration')?.textContent !== text, before);
      seen.push(await step());
    }
    assert.ok(seen[0] > 0 && seen[1] > seen[0] && seen[2] > seen[1], `each note further on: ${seen}`);
    await page.keyboard.press('?');
    await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).getByText('Next note').waitFor();
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('Edit opens an object of the cluster as its manifest in the write form', async () => {
  const { page, errors, close } = await openPlayground();
  try {
    const edit = page.getByRole('button', { name: /^Edit / }).first();
    const label = await edit.getAttribute('aria-label');
    const [, kind, namespace, name] = label.match(/^Edit (\w+)\/([^/]+)\/(.+)$/);
    await edit.click();
    const manifest = JSON.parse(await page.getByLabel('Manifest').inputValue());
    assert.deepEqual([manifest.kind, manifest.metadata.namespace, manifest.metadata.name], [kind, namespace, name]);
    assert.ok(manifest.metadata.resourceVersion, 'with its resourceVersion');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

for (const lang of ['en', 'ko']) {
  test(`on a 390×844 phone the first viewport holds the step controls and the stage, every control a 44 px target (${lang})`, async () => {
    const { page, errors, close } = await openPlayground({ width: 390, height: 844, query: `?scenario=stale-read&step=12&lang=${lang}` });
    try {
      const step = page.locator('.controls button.step-forward');
      for (const [what, locator] of /** @type {[string, import('playwright-core').Locator][]} */ ([['the step controls', step], ['the stage', page.locator('.stage-frame')]])) {
        const box = await locator.boundingBox();
        assert.ok(box && box.y >= 0 && box.y + box.height <= 844 && box.x >= 0 && box.x + box.width <= 390, `${what} inside the first viewport: ${JSON.stringify(box)}`);
      }
      const small = await page.locator('button:visible, select:visible').evaluateAll((controls) =>
        controls.map((c) => /** @type {[string, DOMRect]} */ ([c.textContent.trim().slice(0, 30) || c.getAttribute('aria-label'), c.getBoundingClientRect()]))
          .filter(([, r]) => r.height < 44 || r.width < 44)
          .map(([name, r]) => `${name} ${Math.round(r.width)}×${Math.round(r.height)}`));
      assert.deepEqual(small, [], 'touch targets of 44 px or more');
      await screenshot(page, `phone-${lang}-390`, { fullPage: false });
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  });
}
