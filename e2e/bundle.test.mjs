// @ts-check
// The built bundle as a static host takes it: every text and wasm file with its gzip and brotli
// copy beside it, each decompressing to the file itself, and served by encoding as the browser
// asks (scripts/precompress.mjs, scripts/static_server.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { request } from 'node:http';
import { DIST } from './browser.mjs';
import { serve } from '../scripts/static_server.mjs';

test('every file of the bundle has its gzip and brotli copy, the same bytes when decompressed', () => {
  const files = readdirSync(DIST).filter((f) => /\.(html|js|css|wasm|json|svg)$/.test(f));
  assert.ok(files.some((f) => f.endsWith('.wasm')), `the bundle has its module: ${files}`);
  for (const file of files) {
    const body = readFileSync(join(DIST, file));
    assert.deepEqual(gunzipSync(readFileSync(join(DIST, `${file}.gz`))), body, `${file}.gz`);
    assert.deepEqual(brotliDecompressSync(readFileSync(join(DIST, `${file}.br`))), body, `${file}.br`);
  }
  const wasm = files.find((f) => f.endsWith('.wasm'));
  const [gz, br] = ['.gz', '.br'].map((s) => readFileSync(join(DIST, wasm + s)).length);
  assert.ok(br < gz, `brotli is the smaller (${br} against ${gz} bytes)`);
});

test('a host serving the precompressed copies sends brotli when asked, gzip otherwise, and hashed files as immutable', async () => {
  const server = await serve(DIST, '/', { precompressed: true, immutable: true });
  const get = (path, encoding) =>
    new Promise((done, fail) => {
      request({ host: '127.0.0.1', port: server.address().port, path, headers: { 'accept-encoding': encoding } }, (res) => {
        res.resume();
        done(res.headers);
      }).on('error', fail).end();
    });
  try {
    const wasm = readdirSync(DIST).find((f) => f.endsWith('.wasm'));
    const brotli = await get(`/${wasm}`, 'gzip, deflate, br');
    assert.equal(brotli['content-encoding'], 'br');
    assert.equal(brotli['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal((await get(`/${wasm}`, 'gzip'))['content-encoding'], 'gzip');
    assert.equal((await get('/', 'identity'))['content-encoding'], undefined);
    assert.equal((await get('/', 'br'))['cache-control'], 'no-cache', 'the page itself is revalidated');
  } finally {
    server.close();
  }
});
