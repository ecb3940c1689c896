// @ts-check
// Writes the first screen into the staged index.html (in Trunk's post_build step,
// scripts/post-build.mjs; release builds only): the default view as the page itself renders it,
// in the system Chromium, so the first screen shows before the wasm has arrived. Marked
// `data-first-screen` and `inert` (crates/web/src/ui/first_screen.rs replaces it once the page
// is drawn), after the mount's <noscript>; hidden by first-screen.js where the link or a
// remembered language asks for another view.
//
// Beside it, the first steps of every view a first screen can show — the default view and each
// lesson, in English and Korean — as the page draws them after each Step forward:
// `first-steps/<view>.<lang>.json`, the markup of steps 0 to FIRST_STEPS. first-screen.js shows
// them while the wasm is on its way, so Step forward and Step back answer from the first
// paint, and the live page opens at the step the reader is on. Fails the build if the page
// does not render or does not step.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchChromium } from './chromium.mjs';
import { pageMarkup, settled, stepForwardTo, viewQuery } from './page-markup.mjs';
import { serve } from './static_server.mjs';
import { HASHED, firstScreenPart } from './contract.mjs';

/// The steps after the opening one that a first screen can show.
const FIRST_STEPS = 8;
const LANGS = ['en', 'ko'];

const stage = process.env.TRUNK_STAGING_DIR;
if (!stage) throw new Error('prerender: TRUNK_STAGING_DIR is not set (run as a Trunk hook)');
if (process.env.TRUNK_PROFILE !== 'release') process.exit(0);
const publicUrl = process.env.TRUNK_PUBLIC_URL ?? '/';
const base = publicUrl.endsWith('/') ? publicUrl : `${publicUrl}/`;
const indexPath = join(stage, 'index.html');
const html = readFileSync(indexPath, 'utf8');
const mount = '<div id="playground">';
const start = html.indexOf(mount);
const end = html.indexOf('</div>', start);
if (start < 0 || end < 0) throw new Error(`prerender: no ${mount} in ${indexPath}`);
const noscript = /<noscript>[\s\S]*?<\/noscript>/.exec(html.slice(start, end))?.[0] ?? '';

// The lessons' files (`NN-id.json`), so first-screen.js can ask for a linked lesson's file
// at once, beside the wasm, instead of after it.
const lessons = readdirSync(join(stage, 'scenarios'))
  .filter((f) => /^\d+-[a-z0-9-]+\.json$/.test(f))
  .map((f) => f.slice(0, -'.json'.length));
const views = ['default', ...lessons.map((file) => file.replace(/^\d+-/, ''))];

/// Steps 0 to FIRST_STEPS of the view `query` opens, as the page draws them for a first visit
/// (a page of its own: nothing remembered).
async function firstSteps(browser, origin, query) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  // What the page said went wrong, for the build's error when it never goes live.
  const errors = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  await page.goto(`${origin}${base}${query}`);
  await page.waitForSelector('html[data-live]', { timeout: 60_000 }).catch((timeout) => {
    throw new Error(`prerender: ${query || 'the default view'} never went live: ${errors.join(' | ') || timeout}`);
  });
  await settled(page);
  const steps = [await pageMarkup(page)];
  for (let step = 1; step <= FIRST_STEPS; step++) {
    await stepForwardTo(page, step);
    steps.push(await pageMarkup(page));
  }
  await page.close();
  return steps;
}

const server = await serve(stage, base);
const browser = await launchChromium();
let view;
try {
  const origin = `http://127.0.0.1:${server.address().port}`;
  mkdirSync(join(stage, 'first-steps'), { recursive: true });
  for (const name of views) {
    for (const lang of LANGS) {
      const query = viewQuery(name, lang);
      const steps = await firstSteps(browser, origin, query);
      if (!query) view = steps[0];
      writeFileSync(join(stage, 'first-steps', `${name}.${lang}.json`), JSON.stringify(steps));
    }
  }
} finally {
  await browser.close();
  server.close();
}
// The first screen's script under a name carrying its content's hash, as Trunk names the bundle's
// other files: hosts (and the service worker) keep it as long as they like, so a second visit's
// parser does not wait a round trip for it to be revalidated.
const script = readFileSync(join(stage, 'first-screen.js'));
const scriptName = `first-screen-${createHash('sha256').update(script).digest('hex').slice(0, 16)}.js`;
renameSync(join(stage, 'first-screen.js'), join(stage, scriptName));
// Its part of the page's contract, and the build it belongs to: its wasm's hash.
const wasm = /<link rel="preload" href="[^"]*?([^"/]+_bg\.wasm)"/.exec(html)?.[1] ?? '';
const build = HASHED.exec(wasm)?.[1];
if (!build) throw new Error(`prerender: no hashed wasm preloaded in ${indexPath}`);
const attribute = (/** @type {string} */ text) => text.replaceAll('&', '&amp;').replaceAll('"', '&quot;');
const guard = `<script src="${base}${scriptName}" data-lessons="${lessons.join(' ')}" data-build="${build}" data-contract="${attribute(firstScreenPart)}"></script>`;
writeFileSync(
  indexPath,
  html
    .replace('</head>', `  ${guard}\n  </head>`)
    .replace(html.slice(start, end), `<div id="playground" data-first-screen inert>${noscript}${view}`),
);
