// @ts-check
// Moves Trunk's inline wasm loader out of index.html into boot-<hash>.js beside it, so the
// page runs under `script-src 'self'` (no inline script), starting the wasm after the first
// paint, counting its bytes into the starting notice and telling the page when it cannot
// start. Runs first in Trunk's post_build step (scripts/post-build.mjs), on the staged bundle; fails the build if the loader
// is not where Trunk 0.21 writes it.
import { createHash } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

const stage = process.env.TRUNK_STAGING_DIR;
const publicUrl = process.env.TRUNK_PUBLIC_URL ?? '/';
if (!stage) throw new Error('external-loader: TRUNK_STAGING_DIR is not set (run as a Trunk hook)');
const indexPath = join(stage, 'index.html');
const html = readFileSync(indexPath, 'utf8');
const loader = /<script type="module">([\s\S]*?)<\/script>/.exec(html);
if (!loader || !loader[1].includes('init(')) {
  throw new Error(`external-loader: no inline wasm loader in ${indexPath}`);
}
// The wasm is asked for at once, by a preload of the very request the loader makes (Trunk's
// carries an integrity the loader's fetch does not, so the two would not match and the module
// would come twice); it downloads while the first screen paints, and the loader instantiates it
// once that screen has painted (www/after-first-paint.js).
const afterFirstPaint = readFileSync(new URL('../www/after-first-paint.js', import.meta.url), 'utf8');
// The loader's static import becomes a dynamic one inside a try, so a bundle that does not load
// (a network error, a refused or broken file) is told on the page (`data-start-failed` shows
// www/index.html's notice) instead of leaving it waiting.
const staticImport = /^import init, \* as bindings from '([^']+)';$/m;
if (!staticImport.test(loader[1])) throw new Error(`external-loader: Trunk's loader does not import as expected in ${indexPath}`);
// The wasm is fetched through countedFetch (www/wasm-progress.js), told the module's size.
const wasmFetch = /init\(\{ module_or_path: '([^']+\.wasm)' \}\)/;
const wasmPath = wasmFetch.exec(loader[1])?.[1];
if (!wasmPath) throw new Error(`external-loader: Trunk's loader does not name the wasm as expected in ${indexPath}`);
const wasmSize = statSync(join(stage, basename(wasmPath))).size;
const wasmProgress = readFileSync(new URL('../www/wasm-progress.js', import.meta.url), 'utf8');
const body = loader[1]
  .trim()
  .replace(staticImport, "const bindings = await import('$1');\nconst init = bindings.default;")
  .replace(wasmFetch, `init({ module_or_path: countedFetch('${wasmPath}', ${wasmSize}) })`);
const code = `${afterFirstPaint}${wasmProgress}try {
${body.replace(/^(?=.)/gm, '  ')}
} catch (error) {
  document.documentElement.setAttribute('data-start-failed', '');
  throw error;
}
`;
const wasmPreload = /<link rel="preload" href="[^"]*\.wasm"[^>]*>/;
if (!wasmPreload.test(html)) throw new Error(`external-loader: no preload of the wasm in ${indexPath}`);
const name = `boot-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.js`;
writeFileSync(join(stage, name), code);
const base = publicUrl.endsWith('/') ? publicUrl : `${publicUrl}/`;
writeFileSync(
  indexPath,
  html
    .replace(loader[0], `<script type="module" src="${base}${name}"></script>`)
    .replace(wasmPreload, `<link rel="preload" href="${wasmPath}" as="fetch" type="application/wasm" crossorigin>`),
);
