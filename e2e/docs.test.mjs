// @ts-check
// Embeds on a documentation page of another origin, as a docs site has them: posters until the
// reader starts one, the host's theme followed, embeds added and removed as single-page docs
// do, the host API driving a frame, all under the host's strict CSP.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { screenshot } from './browser.mjs';
import { besideThePlayground } from './docs-site.mjs';
import { serve, STRICT_CSP } from '../scripts/static_server.mjs';

/// A docs page on another origin than the bundle that loads the loader from it under a strict
/// CSP.
function docsSite(body, { theme = '' } = {}) {
  return besideThePlayground(async (own) => {
    const dir = await mkdtemp(join(tmpdir(), 'docs-'));
    const csp = `${STRICT_CSP.replace("script-src 'self'", `script-src 'self' ${own}`).replace("img-src 'self' data:", `img-src 'self' data: ${own}`)}; frame-src ${own}`;
    await writeFile(join(dir, 'index.html'), `<!doctype html><html lang="en"${theme}><head><meta charset="utf-8"><title>Docs</title><link rel="icon" href="data:,"></head><body><main>${body}</main><script src="${own}/embed.js"></script></body></html>`);
    return serve(dir, '/', { csp });
  }, { width: 900 });
}

const THREE = ['stale-read" data-step="12" data-lang="ko', 'delta-fifo-grouping" data-era="1.30', 'list-then-watch']
  .map((attrs) => `<h2>Lesson</h2><div data-informer-playground="${attrs}"></div>`)
  .join('');

test('three embeds show posters and fetch no wasm until the reader starts one, which opens at its step with focus', async () => {
  const { page, errors, fetched, own, origin, close } = await docsSite(THREE);
  try {
    await page.goto(`${origin}/`);
    // What the frames say to this page, to hear when one is ready for the host API.
    await page.evaluate(() => {
      /** @type {any} */ (window).heard = [];
      window.addEventListener('message', (e) => /** @type {any} */ (window).heard.push(e.data));
    });
    const starts = page.getByRole('button', { name: /^Start the lesson: |^레슨 시작: / });
    await page.waitForFunction(() => document.querySelectorAll('[data-informer-playground] img').length === 3);
    await page.waitForFunction(() => [.../** @type {NodeListOf<HTMLImageElement>} */ (document.querySelectorAll('[data-informer-playground] img'))].every((i) => i.complete && i.naturalWidth > 0));
    await page.waitForLoadState('networkidle');
    assert.equal(await starts.count(), 3);
    assert.equal(await page.locator('iframe').count(), 0, 'no frame before a click');
    assert.ok(!fetched.some((f) => f.url.endsWith('.wasm')), 'no wasm before a click');
    const before = fetched.reduce((sum, f) => sum + f.bytes, 0);
    console.log(`three embeds before a click: ${fetched.length} requests, ${before} bytes from the playground's origin`);
    assert.ok(before <= 60_000, `${before} bytes before a click`);
    assert.match(await page.locator('[data-informer-playground="stale-read"]').textContent(), /12단계에서 열립니다/, 'where it will open');
    await screenshot(page, 'docs-posters-900', { fullPage: false });
    // Start the Korean one: the frame opens at step 12, in Korean, and takes focus.
    await starts.first().click();
    const frame = page.frameLocator('[data-informer-playground="stale-read"] iframe');
    await frame.getByRole('button', { name: '한 단계 앞으로' }).waitFor();
    assert.match(await frame.locator('.step-count').textContent(), /12/);
    assert.equal(await page.evaluate(() => document.activeElement?.tagName), 'IFRAME');
    assert.equal(await page.locator('iframe').count(), 1, 'the others stay posters');
    assert.ok(fetched.some((f) => f.url.startsWith(own) && f.url.endsWith('.wasm')));
    // The host API drives it (the loader named this origin in the frame's link), once the frame
    // says it is ready: its reader of commands is a module that may still be on its way.
    await page.waitForFunction(() => /** @type {any} */ (window).heard.some((m) => typeof m === 'string' && m.includes('informer-playground:ready')));
    await page.evaluate((own) => document.querySelector('iframe').contentWindow.postMessage(JSON.stringify({ type: 'informer-playground:goto', step: 3 }), own), own);
    await frame.locator('.step-count').filter({ hasText: /\b3단계/ }).waitFor();
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test("the host's dark theme reaches posters and frames, and a toggle on the host follows", async () => {
  const { page, errors, origin, close } = await docsSite(THREE, { theme: ' data-theme="dark"' });
  try {
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => document.querySelectorAll('[data-informer-playground] img').length === 3);
    const sources = () => page.locator('[data-informer-playground] img').evaluateAll((/** @type {HTMLImageElement[]} */ imgs) => imgs.map((i) => i.src));
    assert.ok((await sources()).every((s) => s.endsWith('-dark.svg')), 'Docusaurus-style data-theme on <html>');
    await page.getByRole('button', { name: /^Start the lesson: / }).first().click();
    const frame = page.frameLocator('[data-informer-playground="delta-fifo-grouping"] iframe');
    await frame.getByRole('button', { name: 'Step forward' }).waitFor();
    assert.equal(await frame.locator('html').getAttribute('data-theme'), 'dark', 'the frame opens dark');
    await screenshot(page, 'docs-dark-900', { fullPage: false });
    // The reader toggles the site's theme.
    await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'light'));
    await page.waitForFunction(() => [.../** @type {NodeListOf<HTMLImageElement>} */ (document.querySelectorAll('[data-informer-playground] img'))].every((i) => i.src.endsWith('-light.svg')));
    await frame.locator('html[data-theme="light"]').waitFor({ state: 'attached' });
    // MkDocs Material's scheme, on <body>, wins over the system's.
    await page.evaluate(() => {
      document.documentElement.removeAttribute('data-theme');
      document.body.setAttribute('data-md-color-scheme', 'slate');
    });
    await frame.locator('html[data-theme="dark"]').waitFor({ state: 'attached' });
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('embeds added after load are picked up and removed ones forgotten, as instant navigation does', async () => {
  const { page, errors, own, origin, close } = await docsSite('<p>No lesson on this page.</p>');
  try {
    await page.goto(`${origin}/`);
    // Instant navigation: the content is swapped without a reload.
    await page.evaluate(() => {
      document.querySelector('main').innerHTML = '<h1>Second page</h1><div data-informer-playground="resync" data-load="eager"></div><div data-informer-playground="bookmarks"></div>';
    });
    await page.frameLocator('[data-informer-playground="resync"] iframe').getByRole('button', { name: 'Step forward' }).waitFor();
    await page.getByRole('button', { name: /^Start the lesson: .*bookmark/i }).waitFor();
    // The loader included again, as a shortcode per embed does: still one poster each.
    await page.evaluate((src) => document.body.append(Object.assign(document.createElement('script'), { src })), `${own}/embed.js`);
    await page.waitForLoadState('networkidle');
    assert.equal(await page.getByRole('button', { name: /^Start the lesson: / }).count(), 1);
    // Frames are sized from their height as before.
    await page.waitForFunction(() => document.querySelector('iframe').style.height !== '520px');
    await page.evaluate(() => {
      document.querySelector('main').innerHTML = '<h1>Third page</h1><div data-informer-playground="sandbox"></div>';
    });
    await page.getByRole('button', { name: /^Start the lesson: .*Sandbox/ }).waitFor();
    assert.equal(await page.locator('iframe').count(), 0, 'the removed frame is gone');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});
