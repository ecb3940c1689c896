// @ts-check
// Writes each text and wasm file of the staged bundle compressed beside it, gzip (`.gz`) and
// brotli (`.br`), for static hosts that serve precompressed files (nginx's gzip_static and
// brotli_static, Caddy's `precompressed`): a browser asks for brotli over HTTPS, where the
// module is about a fifth smaller than gzipped. The last of scripts/post-build.mjs, release
// builds only (after the first screen is drawn into index.html).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const stage = process.env.TRUNK_STAGING_DIR;
if (!stage) throw new Error('precompress: TRUNK_STAGING_DIR is not set (run as a Trunk hook)');
if (process.env.TRUNK_PROFILE !== 'release') process.exit(0);

const COMPRESSIBLE = /\.(html|js|css|wasm|json|svg)$/;
function files(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : COMPRESSIBLE.test(entry.name) ? [join(dir, entry.name)] : [],
  );
}
for (const path of files(stage)) {
  const body = readFileSync(path);
  writeFileSync(`${path}.gz`, gzipSync(body, { level: 9 }));
  writeFileSync(
    `${path}.br`,
    brotliCompressSync(body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    }),
  );
}
