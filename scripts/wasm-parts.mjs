// @ts-check
// Sums a wasm module's function bodies by the first two segments of their names (a build with
// a name section: `wasm-opt -g`) and prints the largest groups, raw bytes: where a module's
// weight is. Usage: node scripts/wasm-parts.mjs MODULE.wasm [how many groups]
import { readFileSync } from 'node:fs';

const bytes = readFileSync(process.argv[2]);
const shown = Number(process.argv[3] || 15);
let at = 8;
const leb = () => {
  let value = 0, shift = 0, byte;
  do { byte = bytes[at++]; value += (byte & 0x7f) * 2 ** shift; shift += 7; } while (byte & 0x80);
  return value;
};
const skipLimits = () => { const flags = bytes[at++]; leb(); if (flags & 1) leb(); };
const names = new Map();
const bodies = [];
let imported = 0, data = 0;
while (at < bytes.length) {
  const id = bytes[at++];
  const size = leb();
  const end = at + size;
  if (id === 2) {
    for (let n = leb(); n > 0; n--) {
      for (const _ of [0, 1]) { const length = leb(); at += length; } // module and field names
      const kind = bytes[at++];
      if (kind === 0) { leb(); imported++; } else if (kind === 1) { at++; skipLimits(); } else if (kind === 2) skipLimits(); else at += 2;
    }
  } else if (id === 10) {
    for (let n = leb(); n > 0; n--) { const body = leb(); bodies.push(body); at += body; }
  } else if (id === 11) {
    data += size;
  } else if (id === 0) {
    const length = leb();
    if (bytes.subarray(at, at + length).toString() === 'name') {
      at += length;
      while (at < end) {
        const sub = bytes[at++];
        const subEnd = leb() + at;
        if (sub === 1) for (let n = leb(); n > 0; n--) { const index = leb(); const l = leb(); names.set(index, bytes.subarray(at, at + l).toString()); at += l; }
        at = subEnd;
      }
    }
  }
  at = end;
}
if (names.size === 0) { console.error(`${process.argv[2]}: no name section (build it with wasm-opt -g)`); process.exit(1); }

// `<A as B>::f` and `A<T>::f` are counted under A's path; the hash suffix is dropped.
const group = (name) => {
  let path = name.replace(/::h[0-9a-f]{16}$/, '');
  if (path.startsWith('<')) path = path.slice(1).replace(/^&(mut )?/, '');
  return path.split(/[<> ]/)[0].split('::').slice(0, 2).join('::').replace(/\[[0-9a-f]+\]/g, '');
};
const groups = new Map();
let code = 0;
bodies.forEach((size, i) => { const g = group(names.get(imported + i) ?? '?'); groups.set(g, (groups.get(g) ?? 0) + size); code += size; });
console.log(`  code ${code} bytes in ${bodies.length} functions, data ${data} bytes; the largest groups:`);
for (const [g, size] of [...groups].sort((a, b) => b[1] - a[1]).slice(0, shown))
  console.log(`  ${String(size).padStart(9)}  ${(100 * size / code).toFixed(1).padStart(4)}%  ${g}`);
