// @ts-check
// Splits the page's wasm into its first module and its later ones (crates/web/src/ui/modules.rs)
// and puts them in the staged bundle in place of Trunk's one module. Trunk 0.21 runs cargo and
// wasm-bindgen in one step, and the split must come between them, so this is the first of
// scripts/post-build.mjs: it takes the wasm cargo built (with relocations, `-Clink-args=
// --emit-relocs`, which the Makefile sets), splits it with wasm-split-cli, runs wasm-bindgen on
// the first module (`--keep-lld-exports`: the later modules import what they share with it),
// optimises every module with wasm-opt (release builds), names each later module by its
// content, and points the loaders at those names. A build that cannot split fails here, loudly:
// the bundle never ships as one module without saying so.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chunksOf, OPENING_MODULES } from './split-chunks.mjs';

const stage = process.env.TRUNK_STAGING_DIR;
if (!stage) throw new Error('split: TRUNK_STAGING_DIR is not set (run as a Trunk hook)');
const release = process.env.TRUNK_PROFILE === 'release';
const root = new URL('..', import.meta.url).pathname;
const built = join(root, 'target/wasm32-unknown-unknown', release ? 'release' : 'debug', 'informer-web.wasm');

const fail = (why) => {
  throw new Error(`split: ${why}`);
};
const run = (command, args) => execFileSync(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
const hash = (bytes) => createHash('sha256').update(bytes).digest('hex').slice(0, 16);

// Trunk's glue and module, whose names index.html already carries (the name's hash is Trunk's,
// made from the same cargo output, so it changes exactly when the module does).
const glue = readdirSync(stage).find((f) => /^informer-web-[0-9a-f]+\.js$/.test(f));
if (!glue) fail(`no informer-web-<hash>.js in ${stage}`);
const name = glue.slice(0, -'.js'.length);
if (!existsSync(built)) fail(`no ${built}: Trunk's cargo build did not leave the module where it is read`);

const work = mkdtempSync(join(tmpdir(), 'split-'));
try {
  const pieces = join(work, 'pieces');
  run('wasm-split-cli', [built, pieces]);
  const later = readdirSync(pieces).filter((f) => f.endsWith('.wasm') && f !== 'main.wasm');
  if (later.length === 0) {
    fail(
      'the module did not split into later modules: build with the `split` feature and with ' +
        'relocations (`make dist`, `make serve`: the Makefile sets -Clink-args=--emit-relocs)',
    );
  }
  const bound = join(work, 'bound');
  run('wasm-bindgen', [
    '--target', 'web', '--no-typescript', '--keep-lld-exports',
    '--out-dir', bound, '--out-name', name, join(pieces, 'main.wasm'),
  ]);
  const optimise = (path) => {
    if (!release) return;
    // The features Rust's wasm32 target emits; wasm-opt keeps to them.
    const features = ['--enable-bulk-memory', '--enable-multivalue', '--enable-mutable-globals',
      '--enable-nontrapping-float-to-int', '--enable-reference-types', '--enable-sign-ext'];
    // The page's parts stay functions of their own (crates/web/src/ui/parts.rs): wasm-opt
    // inlines a function with one caller whatever Rust asked, which made the page's view one
    // 64 KB function compiled whole in the first part's task. (Marked before -Oz: passes run in
    // order.)
    const parts = '--no-inline=informer_web::ui::parts::*';
    // `--converge` runs -Oz again until a pass changes nothing: about 1 KB brotli off the first
    // module, for some seconds of build.
    run('wasm-opt', [...features, parts, '-Oz', '--converge', '--output', path, path]);
  };
  const first = join(bound, `${name}_bg.wasm`);
  optimise(first);
  // The later modules, each named by its content; the loader wasm-split-cli wrote names them.
  let loader = readFileSync(join(pieces, '__wasm_split.js'), 'utf8');
  const modules = [];
  for (const file of later) {
    const path = join(pieces, file);
    optimise(path);
    const bytes = readFileSync(path);
    const named = `${file.slice(0, -'.wasm'.length)}-${hash(bytes)}.wasm`;
    writeFileSync(join(stage, named), bytes);
    const quoted = `"./${file}"`;
    if (!loader.includes(quoted)) fail(`the loader does not name ${file}`);
    loader = loader.replaceAll(quoted, `"./${named}"`);
    modules.push({ file: named, bytes: bytes.length });
  }
  if (!loader.includes('from "./main.js"')) fail('the loader does not import the first module as expected');
  loader = loader.replace('from "./main.js"', `from "./${glue}"`);
  const loaderName = `split-${hash(loader)}.js`;
  writeFileSync(join(stage, loaderName), loader);
  // The first module's glue imports the loader by the name wasm-split-cli gave it (the wasm's
  // own import keeps that name: only the glue's import statements change).
  let code = readFileSync(join(bound, `${name}.js`), 'utf8');
  const importer = /^(import \* as \w+ from )(['"])\.\/__wasm_split\.js\2/gm;
  if (!importer.test(code)) fail(`${glue} does not import the later modules' loader`);
  code = code.replace(importer, `$1'./${loaderName}'`);
  writeFileSync(join(stage, glue), code);
  renameSync(first, join(stage, `${name}_bg.wasm`));
  // Trunk's preload of the glue carries the old glue's integrity.
  const indexPath = join(stage, 'index.html');
  const html = readFileSync(indexPath, 'utf8');
  const integrity = `sha384-${createHash('sha384').update(code).digest('base64')}`;
  const preload = new RegExp(`(<link[^>]*href="[^"]*${glue}"[^>]*integrity=")[^"]*(")`);
  if (!/<html /.test(html)) fail(`no <html> element in ${indexPath}`);
  // The modules a link may need from its start, each with the shared chunks it imports
  // (`{"korean": ["split_korean-….wasm", "chunk_45-….wasm", …], …}`), in a file the page names:
  // first-screen.js reads it when the link needs one and asks for them beside the first module,
  // so none waits for the first module to ask for it. (A plain visit reads nothing more.)
  const opening = Object.fromEntries(
    OPENING_MODULES.map((module) => {
      const file = modules.find((m) => m.file.startsWith(`split_${module}-`))?.file;
      if (!file) fail(`no later module split_${module}`);
      return [module, [file, ...chunksOf(loader, module)]];
    }),
  );
  const openingText = JSON.stringify(opening);
  const openingName = `opening-${hash(openingText)}.json`;
  writeFileSync(join(stage, openingName), openingText);
  writeFileSync(
    indexPath,
    html.replace(preload, `$1${integrity}$2`).replace('<html ', `<html data-opening-modules="${openingName}" `),
  );
  const listed = modules.map((m) => `${m.file} (${m.bytes} bytes)`).join(', ');
  console.log(`split: ${glue} and its later modules: ${listed}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
