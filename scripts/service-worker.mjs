// @ts-check
// Writes the staged bundle's file list and version into its service worker (www/sw.js, copied
// by Trunk), so the worker caches exactly this build and a new build, whose files differ,
// installs a new worker. Release builds only, in scripts/post-build.mjs after the first screen
// is drawn into index.html (its final bytes count in the version) and before compression.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { HASHED } from './contract.mjs';

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
const build = bundle.map((file) => /_bg\.wasm$/.test(file) && HASHED.exec(file)?.[1]).find(Boolean);
if (!build) throw new Error(`service-worker: no hashed wasm in ${stage}`);
const places = {
  "const VERSION = '';": `const VERSION = '${version.digest('hex').slice(0, 16)}';`,
  'const BUNDLE = [];': `const BUNDLE = ${JSON.stringify(bundle)};`,
  "const BUILD = '';": `const BUILD = '${build}';`,
  'const HASHED = /$^/;': `const HASHED = ${HASHED};`,
};
let filled = template;
for (const [place, value] of Object.entries(places)) {
  if (!filled.includes(place)) throw new Error(`service-worker: no \`${place}\` in ${path}`);
  filled = filled.replace(place, value);
}
writeFileSync(path, filled);
