// Writes the first screen into the staged index.html (in Trunk's post_build step,
// scripts/post-build.mjs; release builds only): the default view as the page itself renders it, in the system Chromium, so the first
// screen shows before the wasm has arrived. Marked `data-first-screen` and `inert` (its
// controls do nothing; crates/web/src/ui/first_screen.rs replaces it once the page is drawn), after the
// mount's <noscript>; hidden by first-screen.js where the link or a remembered language asks
// for another view. Fails the build if the page does not render.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchChromium } from './chromium.mjs';
import { serve } from './static_server.mjs';

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

const server = await serve(stage, base);
const browser = await launchChromium();
let view;
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  await page.goto(`http://127.0.0.1:${server.address().port}${base}`);
  await page.waitForSelector('html[data-live]', { timeout: 60_000 });
  // Form controls hold their state in properties, which markup leaves out: written as
  // attributes, so sliders, fields and pickers show what the page shows.
  view = await page.locator('#playground').evaluate((root) => {
    for (const input of root.querySelectorAll('input')) input.setAttribute('value', input.value);
    for (const area of root.querySelectorAll('textarea')) area.textContent = area.value;
    for (const option of root.querySelectorAll('option')) option.toggleAttribute('selected', option.selected);
    return root.innerHTML;
  });
} finally {
  await browser.close();
  server.close();
}
// The lessons' files (`NN-id.json`), so first-screen.js can ask for a linked lesson's file
// at once, beside the wasm, instead of after it.
const lessons = readdirSync(join(stage, 'scenarios'))
  .filter((f) => /^\d+-[a-z0-9-]+\.json$/.test(f))
  .map((f) => f.slice(0, -'.json'.length))
  .join(' ');
const guard = `<script src="${base}first-screen.js" data-lessons="${lessons}"></script>`;
writeFileSync(
  indexPath,
  html
    .replace('</head>', `  ${guard}\n  </head>`)
    .replace(html.slice(start, end), `<div id="playground" data-first-screen inert>${noscript}${view}`),
);
