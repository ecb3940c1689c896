// @ts-check
// Writes the staged bundle's file list and version into its service worker (www/sw.js, copied
// by Trunk), so the worker caches exactly this build and a new build, whose files differ,
// installs a new worker. Release builds only, in scripts/post-build.mjs after the first screen
// is drawn into index.html (its final bytes count in the version) and before compression.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const stage = process.env.TRUNK_STAGING_DIR;
if (!stage) throw new Error('service-worker: TRUNK_STAGING_DIR is not set (run as a Trunk hook)');
if (process.env.TRUNK_PROFILE !== 'release') process.exit(0);

const WORKER = 'sw.js';
function files(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}
const bundle = files(stage)
  .map((path) => relative(stage, path).split('\\').join('/'))
  // Embeds' posters are for documentation pages, which register no worker; the first screens'
  // steps serve only a visit that waits for the wasm, which a cached bundle does not.
  .filter((file) => file !== WORKER && !/\.(br|gz)$/.test(file) && !/^(posters|first-steps)\//.test(file))
  .sort();
const version = createHash('sha256');
for (const file of bundle) version.update(file).update(readFileSync(join(stage, file)));
const path = join(stage, WORKER);
const template = readFileSync(path, 'utf8');
const filled = template
  .replace("const VERSION = '';", `const VERSION = '${version.digest('hex').slice(0, 16)}';`)
  .replace('const BUNDLE = [];', `const BUNDLE = ${JSON.stringify(bundle)};`);
if (filled === template) throw new Error(`service-worker: no placeholders in ${path}`);
writeFileSync(path, filled);
