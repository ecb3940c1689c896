// @ts-check
// A static file server for the built bundle, on loopback unless a `host` is given. Serves `root` under
// `base` (a PUBLIC_URL such as /playground/), so sub-path deployments are tested as built;
// with `gzip`, compressed as a static host serves it (for Lighthouse); with `precompressed`, the
// build's `.br` or `.gz` beside a file, as the browser accepts (browsers ask for brotli only
// over HTTPS: `tls` with a key and certificate serves HTTPS); with `immutable`, files
// whose names carry a content hash are cached for a year and the rest revalidated, as a static
// host set up for the bundle does; with `link` ({ latency, bytesPerSecond }), every answer goes
// through one shared slow link, as a phone's network carries every request of the page and of
// its service worker alike; `headers` are added to every answer (a host that serves lesson files
// to other sites adds CORS). Every response carries the strict Content-Security-Policy the
// bundle must run under (no inline script, no eval).
import { createServer } from 'node:http';
import { createServer as createSecureServer } from 'node:https';
import { gzipSync } from 'node:zlib';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { HASHED } from './contract.mjs';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
};


export const STRICT_CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self' https:";

export function serve(root, base = '/', { gzip = false, precompressed = false, immutable = false, tls = null, link = null, csp = STRICT_CSP, headers: extra = {}, host = '127.0.0.1', port = 0 } = {}) {
  const send = link ? sharedLink(link) : (res, status, headers, body) => res.writeHead(status, headers).end(body);
  const answer = async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (!path.startsWith(base)) {
      send(res, 404, {}, 'not found');
      return;
    }
    const rel = normalize(path.slice(base.length) || 'index.html').replace(/^(\.\.[/\\])+/, '');
    try {
      const file = rel.endsWith('/') ? rel + 'index.html' : rel;
      const body = await readFile(join(root, file));
      const headers = /** @type {Record<string, string>} */ ({ 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'content-security-policy': csp, ...extra });
      if (immutable) headers['cache-control'] = HASHED.test(file) ? 'public, max-age=31536000, immutable' : 'no-cache';
      const accepts = req.headers['accept-encoding'] ?? '';
      const stored = precompressed && (await storedEncoding(join(root, file), accepts));
      if (gzip || precompressed) headers.vary = 'accept-encoding';
      if (stored) {
        headers['content-encoding'] = stored.encoding;
        send(res, 200, headers, stored.body);
      } else if (gzip && /gzip/.test(accepts)) {
        headers['content-encoding'] = 'gzip';
        send(res, 200, headers, gzipSync(body, { level: 9 }));
      } else {
        send(res, 200, headers, body);
      }
    } catch {
      send(res, 404, extra, 'not found');
    }
  };
  const server = tls ? createSecureServer(tls, answer) : createServer(answer);
  return new Promise((resolve, reject) => server.once('error', reject).listen(port, host, () => resolve(server)));
}

/// The build's compressed copy of `path` the request accepts, brotli first.
async function storedEncoding(path, accepts) {
  for (const [encoding, suffix] of [['br', '.br'], ['gzip', '.gz']]) {
    if (!accepts.includes(encoding)) continue;
    const body = await readFile(path + suffix).catch(() => null);
    if (body) return { encoding, body };
  }
  return null;
}

/// One slow link for every answer: each starts `latency` ms after its request, and the bodies
/// being sent share `bytesPerSecond` between them, a slice every 10 ms, round robin.
function sharedLink({ latency, bytesPerSecond }) {
  const sending = [];
  let clock = null;
  const tick = () => {
    let budget = bytesPerSecond / 100;
    while (budget >= 1 && sending.length) {
      const share = Math.max(1, Math.floor(budget / sending.length));
      for (const answer of [...sending]) {
        const piece = answer.body.subarray(answer.sent, answer.sent + share);
        answer.res.write(piece);
        answer.sent += piece.length;
        budget -= piece.length;
        if (answer.sent === answer.body.length) {
          answer.res.end();
          sending.splice(sending.indexOf(answer), 1);
        }
      }
    }
    if (!sending.length) clock = clearInterval(clock) ?? null;
  };
  return (res, status, headers, body) =>
    setTimeout(() => {
      res.writeHead(status, headers);
      sending.push({ res, body: Buffer.from(body), sent: 0 });
      clock ??= setInterval(tick, 10);
    }, latency);
}
