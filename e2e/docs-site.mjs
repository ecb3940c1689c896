// @ts-check
// A documentation site built by a real generator from tests/docs-sites/<name>, served on another
// loopback port than the bundle (a cross-origin host, as a real docs site is), and a browser
// page on it: for e2e/docs-sites.test.mjs and, with Docusaurus, e2e-docs/.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import assert from 'node:assert/strict';
import { DIST, launchChromium, screenshot } from './browser.mjs';
import { serve } from '../scripts/static_server.mjs';

const SITES = resolve('tests/docs-sites');
const VENV = resolve('target/docs-venv/bin');

/// Copies a site's sources, writes the playground's and the site's own addresses in
/// (`PLAYGROUND`, `SITE`), and builds it into `out`.
export function build(name, playground, site, out) {
  const dir = mkdtempSync(join(tmpdir(), `site-${name}-`));
  cpSync(join(SITES, name), dir, { recursive: true });
  const walk = (d) => readdirSync(d).flatMap((f) => (statSync(join(d, f)).isDirectory() ? walk(join(d, f)) : [join(d, f)]));
  for (const file of walk(dir)) writeFileSync(file, readFileSync(file, 'utf8').replaceAll('PLAYGROUND', playground).replaceAll('SITE', site));
  const run = (cmd, args) => execFileSync(cmd, args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, NO_MKDOCS_2_WARNING: '1' } });
  if (name === 'mkdocs') run(join(VENV, 'mkdocs'), ['build', '--quiet', '--site-dir', out]);
  if (name === 'sphinx') run(join(VENV, 'sphinx-build'), ['-q', '-b', 'html', '.', out]);
  if (name === 'hugo') run('hugo', ['--quiet', '--destination', out]);
  if (name === 'docusaurus') {
    // The packages installed once by `make test-docs` (target/docusaurus).
    symlinkSync(resolve('target/docusaurus/node_modules'), join(dir, 'node_modules'));
    // Its build cache lives in the shared packages: a cache from another address misbuilds.
    rmSync(resolve('target/docusaurus/node_modules/.cache'), { recursive: true, force: true });
    run(join(dir, 'node_modules/.bin/docusaurus'), ['build', '--out-dir', out]);
  }
}

/// The bundle served compressed (as a static host serves the build), a site beside it on
/// another loopback port (`makeSite(playgroundOrigin)` serves it), and a browser page, with
/// what the playground's origin sent (encoded bytes) and every console error but a site's own
/// missing favicon.
export async function besideThePlayground(makeSite, { width = 1100 } = {}) {
  const playground = await serve(DIST, '/', { precompressed: true });
  const own = `http://127.0.0.1:${playground.address().port}`;
  let site;
  try {
    site = await makeSite(own);
  } catch (e) {
    playground.close();
    throw e;
  }
  const origin = `http://127.0.0.1:${site.address().port}`;
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width, height: 1000 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && !m.location()?.url?.endsWith('/favicon.ico') && errors.push(`${m.text()} (${m.location()?.url})`));
  const fetched = [];
  page.on('requestfinished', async (request) => {
    if (!request.url().startsWith(own)) return;
    const sizes = await request.sizes().catch(() => ({ responseBodySize: 0 }));
    fetched.push({ url: request.url(), bytes: sizes.responseBodySize });
  });
  const close = async () => {
    await browser.close();
    site.close();
    playground.close();
  };
  return { page, errors, fetched, own, origin, close };
}

/// A site a generator builds from tests/docs-sites/<name>, beside the bundle.
export function open(name) {
  return besideThePlayground(async (own) => {
    const out = mkdtempSync(join(tmpdir(), `built-${name}-`));
    const site = await serve(out, '/', { csp: `frame-src ${own}` });
    try {
      build(name, own, `http://127.0.0.1:${site.address().port}`, out);
    } catch (e) {
      site.close();
      throw e;
    }
    return site;
  });
}

/// A site's client-side navigation (MkDocs's instant navigation, Docusaurus's router) to its
/// next page shows that page's Korean embed without a reload.
export async function checkNavigation(name) {
  const { page, errors, origin, close } = await open(name);
  try {
    await page.goto(`${origin}/`);
    await page.getByRole('button', { name: /^Start the lesson: / }).waitFor();
    await page.evaluate(() => { /** @type {any} */ (window).notReloaded = true; });
    await page.getByRole('link', { name: 'The next page' }).click();
    await page.getByRole('button', { name: /^레슨 시작: / }).waitFor();
    assert.equal(await page.evaluate(() => /** @type {any} */ (window).notReloaded), true, 'the page was swapped, not reloaded');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
}

/// What every site must show (docs/embedding.md, "In a documentation page"): posters and no wasm before a
/// click (the bytes printed), the click starting the lesson at its step, the host's dark theme
/// (made by `darken`, as the site's reader would) reaching posters and the frame, its height
/// following its content, the host API driving it, and no console error.
export async function checkSite(name, { path = '', darken }) {
  const { page, errors, fetched, own, origin, close } = await open(name);
  try {
    await page.goto(`${origin}/${path}`);
    const posters = page.locator('[data-informer-playground] img');
    await page.waitForFunction(() => document.querySelectorAll('[data-informer-playground] img').length >= 1);
    await page.waitForFunction(() => [.../** @type {NodeListOf<HTMLImageElement>} */ (document.querySelectorAll('[data-informer-playground] img'))].every((i) => i.complete && i.naturalWidth > 0));
    await page.waitForLoadState('networkidle');
    assert.equal(await page.locator('iframe').count(), 0, 'no frame before a click');
    assert.ok(!fetched.some((f) => f.url.endsWith('.wasm')), 'no wasm before a click');
    const before = fetched.reduce((sum, f) => sum + f.bytes, 0);
    console.log(`${name}: ${await posters.count()} posters, ${before} bytes from the playground's origin before a click`);
    assert.ok(before <= 60_000, `${before} bytes`);
    await screenshot(page, `site-${name}-light`, { fullPage: false });
    // Dark, as the reader makes it: the posters follow.
    await darken(page);
    await page.waitForFunction(() => [.../** @type {NodeListOf<HTMLImageElement>} */ (document.querySelectorAll('[data-informer-playground] img'))].every((i) => i.src.endsWith('-dark.svg')));
    await page.getByRole('button', { name: /^Start the lesson: / }).first().click();
    const frame = page.frameLocator('iframe').first();
    await frame.getByRole('button', { name: 'Step forward' }).waitFor();
    assert.match(await frame.locator('.step-count').textContent(), /step 12\b/, 'at its step');
    assert.equal(await frame.locator('html').getAttribute('data-theme'), 'dark', "the host's theme");
    await page.waitForFunction(() => document.querySelector('iframe').style.height !== '520px');
    await screenshot(page, `site-${name}-dark`, { fullPage: false });
    await page.evaluate((own) => document.querySelector('iframe').contentWindow.postMessage(JSON.stringify({ type: 'informer-playground:goto', step: 3 }), own), own);
    await frame.locator('.step-count').filter({ hasText: /step 3\b/ }).waitFor();
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
}
