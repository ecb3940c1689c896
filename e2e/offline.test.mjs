// @ts-check
// Offline after the first visit: the service worker (www/sw.js) keeps the bundle and every
// lesson, so a reload with the network down opens the playground, and a lesson, and steps.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DIST, launchChromium, live, openPlayground } from './browser.mjs';
import { serve } from '../scripts/static_server.mjs';

test('after one visit the playground and its lessons open with the network down', async () => {
  const { page, errors, close } = await openPlayground({ serviceWorkers: 'allow' });
  try {
    // The worker installs once the page is live, keeping the whole bundle.
    const kept = await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
      const names = await caches.keys();
      const cache = await caches.open(names.find((n) => n.startsWith('informer-playground-')));
      return (await cache.keys()).map((r) => new URL(r.url).pathname);
    });
    assert.ok(kept.some((p) => p.endsWith('.wasm')), `the module is kept: ${kept.join(', ')}`);
    assert.ok(kept.some((p) => p.endsWith('09-stale-read.bin')), 'every lesson is kept');
    await page.context().setOffline(true);
    await page.reload();
    await live(page);
    // The kept module was all here at once: its bytes were not counted on the way.
    assert.equal(await page.locator('#starting').getAttribute('data-progress'), null);
    await page.getByLabel('Scenario').selectOption('stale-read');
    await page.waitForURL(/scenario=stale-read/);
    await page.getByRole('button', { name: 'Step forward' }).click();
    await page.locator('.step-count').filter({ hasText: /step 1\b/ }).waitFor();
    // A link to a lesson opens offline too: every address is the same page.
    await page.goto(new URL('?scenario=resync&lang=ko', page.url()).href);
    await live(page);
    await page.getByRole('button', { name: '한 단계 앞으로' }).click();
    await page.locator('.step-count').filter({ hasText: /1단계/ }).waitFor();
    assert.deepEqual(errors.filter((e) => !/ERR_INTERNET_DISCONNECTED|Failed to load resource/.test(e)), []);
  } finally {
    await close();
  }
});

test('the worker is registered once the page is live, not while the wasm is on its way', async () => {
  // Its install fetches every lesson and file the page may open: on a phone, beside the wasm's
  // download, it would share the one slow network with it.
  const server = await serve(DIST);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ serviceWorkers: 'allow' });
    /** @type {(value?: unknown) => void} */
    let release;
    const held = new Promise((go) => (release = go));
    await page.route(/_bg\.wasm$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`http://127.0.0.1:${server.address().port}/`, { waitUntil: 'load' });
    await page.waitForTimeout(500);
    const registered = () => page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length);
    assert.equal(await registered(), 0, 'no worker while the wasm is held back, the page loaded');
    release();
    await live(page);
    await page.evaluate(() => navigator.serviceWorker.ready);
    assert.equal(await registered(), 1, 'the worker once the page is live');
  } finally {
    await browser.close();
    server.close();
  }
});

test('a visit after one that kept the bundle starts at once, no first screen drawn; a wasm not kept shows it', async () => {
  const { page, errors, close } = await openPlayground({ serviceWorkers: 'allow' });
  try {
    await page.waitForFunction(() => navigator.serviceWorker.controller);
    // Whether the first screen was laid out when the document was parsed, and whether it was
    // shown (data-fresh taken off) before the page went live.
    await page.addInitScript(() => {
      const seen = (/** @type {any} */ (window).__firstScreen = { parsed: null, shown: false });
      new MutationObserver(() => {
        const html = document.documentElement;
        if (html && !html.hasAttribute('data-fresh') && !html.hasAttribute('data-live')) seen.shown = true;
      }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-fresh'] });
      addEventListener('DOMContentLoaded', () => {
        seen.parsed = getComputedStyle(document.getElementById('playground')).display;
      });
    });
    // The address with nothing in it (the live page writes its language into the link).
    const plain = new URL('/', page.url()).href;
    await page.goto(plain);
    await live(page);
    assert.deepEqual(await page.evaluate(() => /** @type {any} */ (window).__firstScreen), { parsed: 'none', shown: false });
    assert.equal(await page.locator('#playground[data-first-screen]').count(), 0, 'the live page in its place');
    // The worker's cache without this build's wasm (a new build, the old worker): the first
    // screen shows as on a first visit.
    await page.evaluate(async () => {
      for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        for (const request of await cache.keys()) if (request.url.endsWith('.wasm')) await cache.delete(request);
      }
    });
    await page.goto(plain);
    await live(page);
    assert.equal((await page.evaluate(() => /** @type {any} */ (window).__firstScreen)).shown, true, 'the first screen shown');
    await page.getByRole('button', { name: 'Step forward' }).click();
    await page.locator('.step-count').filter({ hasText: /step 1\b/ }).waitFor();
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test("a lesson's file comes from the worker's cache for a page of its build, and no network for it", async () => {
  const { page, errors, close, server } = await openPlayground({ serviceWorkers: 'allow', query: '?scenario=stale-read' });
  try {
    await page.waitForFunction(() => navigator.serviceWorker.controller);
    const asked = [];
    server.on('request', (request) => asked.push(request.url));
    await page.goto(new URL('/?scenario=stale-read', page.url()).href);
    await live(page);
    await page.getByRole('button', { name: 'Step forward' }).click();
    await page.locator('.step-count').filter({ hasText: /step 1\b/ }).waitFor();
    assert.deepEqual(asked.filter((url) => url.includes('stale-read.bin')), [], `asked the server for: ${asked.join(', ')}`);
    // A page of another build (its wasm not this worker's) is answered from the network.
    const other = await page.evaluate(async () => (await fetch('scenarios/09-stale-read.bin?build=0123456789abcdef')).ok);
    assert.ok(other);
    assert.ok(asked.some((url) => url.includes('stale-read.bin?build=0123456789abcdef')), `asked: ${asked.join(', ')}`);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});
