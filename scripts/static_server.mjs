// A static file server for the built bundle, on loopback only. Serves `root` under
// `base` (a PUBLIC_URL such as /playground/), so sub-path deployments are tested as built;
// with `gzip`, compressed as a static host serves it (for Lighthouse); with `immutable`, files
// whose names carry a content hash are cached for a year and the rest revalidated, as a static
// host set up for the bundle does. Every response carries the strict Content-Security-Policy
// the bundle must run under (no inline script, no eval).
import { createServer } from 'node:http';
import { gzipSync } from 'node:zlib';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
};

/// Trunk's and the loader's file names end in a content hash: `informer-web-9ebdf31d8ce6fa59_bg.wasm`.
const HASHED = /-[0-9a-f]{16}(_bg)?\.[a-z]+$/;

export const STRICT_CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data:";

export function serve(root, base = '/', { gzip = false, immutable = false, csp = STRICT_CSP } = {}) {
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (!path.startsWith(base)) {
      res.writeHead(404).end('not found');
      return;
    }
    const rel = normalize(path.slice(base.length) || 'index.html').replace(/^(\.\.[/\\])+/, '');
    try {
      const file = rel.endsWith('/') ? rel + 'index.html' : rel;
      const body = await readFile(join(root, file));
      const headers = { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'content-security-policy': csp };
      if (immutable) headers['cache-control'] = HASHED.test(file) ? 'public, max-age=31536000, immutable' : 'no-cache';
      if (gzip && /gzip/.test(req.headers['accept-encoding'] ?? '')) {
        headers['content-encoding'] = 'gzip';
        res.writeHead(200, headers).end(gzipSync(body, { level: 9 }));
      } else {
        res.writeHead(200, headers).end(body);
      }
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}
