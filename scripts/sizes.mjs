// @ts-check
// Prints what a built bundle costs, and fails when a part is above its budget in
// scripts/size-budget (a ratchet: lowered with every cut that lands, raised only with a
// written reason beside it):
//  - the first load, gzipped: index.html (which carries the first screen), the files it and its
//    loader name, the modules the page's glue imports, and the default view's first steps;
//  - the first wasm module, with brotli (what an HTTPS host serves a browser);
//  - each later module (split_<name>), with brotli, and the chunks later modules share.
// Usage: node scripts/sizes.mjs [dist]
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dir = process.argv[2] ?? 'dist';
const budgetFile = new URL('./size-budget', import.meta.url);

/** @type {Map<string, number>} */
const budgets = new Map();
for (const line of readFileSync(budgetFile, 'utf8').split('\n')) {
  const row = /^([a-z-]+)\s+(\d+)\b/.exec(line);
  if (row) budgets.set(row[1], Number(row[2]));
}

const gzip = (/** @type {Buffer} */ bytes) => gzipSync(bytes, { level: 9 }).length;
const brotli = (/** @type {Buffer} */ bytes) =>
  brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }).length;

const files = readdirSync(dir).filter((f) => /\.(html|wasm|js|css)$/.test(f));
const text = (/** @type {string} */ f) => readFileSync(join(dir, f), 'utf8');
// The first load: index.html and what it names, what its loader (boot-*.js) names, and the
// modules the page's glue imports.
const named = new Set(['index.html']);
const names = (/** @type {string} */ f) => files.filter((g) => text(f).includes(g)).forEach((g) => named.add(g));
names('index.html');
for (const f of [...named].filter((f) => /^boot-.*\.js$/.test(f))) names(f);
for (const f of [...named].filter((f) => /^informer-web-[0-9a-f]+\.js$/.test(f))) names(f);
const steps = join(dir, 'first-steps/default.en.json');

/** @type {{ name: string, raw: number, gz: number, br: number, first: boolean }[]} */
const rows = files.map((f) => {
  const bytes = readFileSync(join(dir, f));
  return { name: f, raw: bytes.length, gz: gzip(bytes), br: brotli(bytes), first: named.has(f) && !/^(split|chunk)_/.test(f) };
});
if (existsSync(steps)) {
  const bytes = readFileSync(steps);
  rows.push({ name: 'first-steps/default.en.json', raw: bytes.length, gz: gzip(bytes), br: brotli(bytes), first: true });
}
const pad = (/** @type {string | number} */ v, /** @type {number} */ n) => String(v).padStart(n);
for (const r of rows) {
  const note = r.first ? '' : '  (not in the first load)';
  console.log(`${r.name.padEnd(48)} ${pad(r.raw, 9)} bytes ${pad(r.gz, 8)} gzipped ${pad(r.br, 8)} brotli${note}`);
}

/** @type {[string, number][]} */
const measured = [];
measured.push(['first-load', rows.filter((r) => r.first).reduce((sum, r) => sum + r.gz, 0)]);
const first = rows.find((r) => /^informer-web-[0-9a-f]+_bg\.wasm$/.test(r.name));
if (!first) throw new Error(`sizes: no first module in ${dir}`);
measured.push(['first-module', first.br]);
for (const r of rows.filter((r) => r.name.startsWith('split_'))) {
  measured.push([r.name.replace(/^split_/, '').replace(/-[0-9a-f]+\.wasm$/, ''), r.br]);
}
measured.push(['shared', rows.filter((r) => r.name.startsWith('chunk_')).reduce((sum, r) => sum + r.br, 0)]);

let over = 0;
console.log('');
for (const [part, bytes] of measured) {
  const budget = budgets.get(part);
  const unit = part === 'first-load' ? 'gzipped' : 'brotli';
  if (budget === undefined) {
    console.log(`${part.padEnd(16)} ${pad(bytes, 9)} ${unit}  (no budget: add one to scripts/size-budget)`);
    over++;
    continue;
  }
  const mark = bytes > budget ? `  OVER by ${bytes - budget}` : '';
  console.log(`${part.padEnd(16)} ${pad(bytes, 9)} ${unit}  (budget ${budget})${mark}`);
  if (bytes > budget) over++;
}
if (over > 0) {
  console.error(`${over} part(s) of the bundle above their budget or without one (scripts/size-budget)`);
  process.exit(1);
}
