// @ts-check
// What a later module needs besides itself: read from the loader wasm-split-cli writes
// (scripts/split.mjs names its files), so a page can ask for them all at once.

/**
 * The later modules a link may need from its start, by what names them in its query: the Korean
 * phrasebook (`lang=ko`, or the remembered language), a link's recorded actions (`actions`), the
 * opener of a lesson from outside (`lesson`), a workshop room's bar (`room`), live mode
 * (`live`). The build lists each with its chunks in a file the page names
 * (`data-opening-modules`, scripts/split.mjs); www/first-screen.js asks for those its link needs.
 */
export const OPENING_MODULES = ['korean', 'recorded', 'opener', 'room', 'live'];

/**
 * The files of the shared chunks a later module imports, and theirs, as the loader wasm-split-cli
 * wrote names them: `const __chunk_N = makeLoad(() => { … fetch(new URL("./FILE" …)) … }, [deps])`,
 * and the module's `__wasm_split_load_NAME = wrapAsyncCb(makeLoad(…, [deps]))`.
 * @param {string} loader the loader's text
 * @param {string} module the later module's name (`korean`)
 * @returns {string[]}
 */
export function chunksOf(loader, module) {
  /** @type {Map<string, { file: string, deps: string[] }>} */
  const loads = new Map();
  const load = /(?:const (__chunk_\d+)|export const __wasm_split_load_(\w+)) = [^]*?fetch\(new URL\("\.\/([^"]+)"[^]*?\n\}\n, \[([^\]]*)\]/g;
  for (const [, chunk, name, file, deps] of loader.matchAll(load)) {
    loads.set(chunk ?? name, { file, deps: deps.split(',').map((d) => d.trim()).filter(Boolean) });
  }
  if (!loads.has(module)) throw new Error(`the split loader does not load the module ${module}`);
  /** @type {Set<string>} */
  const files = new Set();
  const visit = (/** @type {string} */ name) => {
    for (const dep of loads.get(name)?.deps ?? []) {
      const chunk = loads.get(dep);
      if (!chunk) throw new Error(`the split loader's ${name} imports ${dep}, which it does not load`);
      if (files.has(chunk.file)) continue;
      files.add(chunk.file);
      visit(dep);
    }
  };
  visit(module);
  return [...files];
}
