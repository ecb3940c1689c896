// @ts-check
// Writes each bundled lesson (`scenarios/NN-id.json`) beside itself in the form the page reads
// (`NN-id.bin`, crates/sim/src/scenario/compact.rs, whose doc comment defines the bytes): what
// the JSON holds as tagged bytes, lengths first, so the page reads a lesson without a JSON
// reader. In Trunk's post_build step (scripts/post-build.mjs), before the first screen is drawn
// (which opens every lesson from its compact form: a file the page cannot read fails the build).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const stage = process.env.TRUNK_STAGING_DIR;
if (!stage) throw new Error('compact-lessons: TRUNK_STAGING_DIR is not set (run as a Trunk hook)');

const [NULL, FALSE, TRUE, UNSIGNED, SIGNED, FLOAT, STRING, SEQ, MAP] = [0, 1, 2, 3, 4, 5, 6, 7, 8];

/** LEB128 of a non-negative integer. @param {number[]} out @param {bigint} n */
function length(out, n) {
  do {
    const byte = Number(n & 0x7fn);
    n >>= 7n;
    out.push(n === 0n ? byte : byte | 0x80);
  } while (n !== 0n);
}

/** @param {number[]} out @param {string} text */
function string(out, text) {
  const bytes = Buffer.from(text, 'utf8');
  out.push(STRING);
  length(out, BigInt(bytes.length));
  out.push(...bytes);
}

/** @param {number[]} out @param {unknown} value */
function write(out, value) {
  if (value === null) out.push(NULL);
  else if (value === true) out.push(TRUE);
  else if (value === false) out.push(FALSE);
  else if (typeof value === 'number') {
    if (Number.isInteger(value) && value >= 0) {
      out.push(UNSIGNED);
      length(out, BigInt(value));
    } else if (Number.isInteger(value)) {
      out.push(SIGNED);
      const n = BigInt(value);
      length(out, BigInt.asUintN(64, (n << 1n) ^ (n >> 63n)));
    } else {
      out.push(FLOAT);
      const bytes = Buffer.alloc(8);
      bytes.writeDoubleLE(value);
      out.push(...bytes);
    }
  } else if (typeof value === 'string') string(out, value);
  else if (Array.isArray(value)) {
    out.push(SEQ);
    length(out, BigInt(value.length));
    for (const item of value) write(out, item);
  } else if (typeof value === 'object') {
    const entries = Object.entries(value);
    out.push(MAP);
    length(out, BigInt(entries.length));
    for (const [key, item] of entries) {
      string(out, key);
      write(out, item);
    }
  } else throw new Error(`compact-lessons: no compact form for ${typeof value}`);
}

const dir = join(stage, 'scenarios');
for (const file of readdirSync(dir).filter((f) => /^\d+-[a-z0-9-]+\.json$/.test(f))) {
  // Integers beyond 2^53 would lose digits in JavaScript's numbers: no lesson has one.
  const text = readFileSync(join(dir, file), 'utf8');
  if (/[^\d.]\d{16,}/.test(text)) throw new Error(`compact-lessons: ${file} has an integer too large to carry`);
  /** @type {number[]} */
  const out = [];
  write(out, JSON.parse(text));
  writeFileSync(join(dir, file.replace(/\.json$/, '.bin')), Buffer.from(out));
}
