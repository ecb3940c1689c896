// @ts-check
// `make ttl` (and `make lighthouse`): the time until a person can act, as a phone on a slow
// network sees it. Chromium's own throttling through CDP, Lighthouse's mobile profile: 150 ms
// round trips, 1.6 Mbps down, 750 Kbps up, the CPU 4× slower. For each address — the default
// view, a lesson's link, a Korean lesson's link — cold (an empty cache) and warm (a second
// visit), it prints the median of TTL_RUNS (5) of two times from navigation:
//   answers  the first frame that shows a click on Step forward moving the timeline (on the
//            build-time first screen too, whose steps answer before the wasm has arrived);
//   live     the page is live: the wasm has stepped the world and every part is drawn
//            (`html[data-live]`: the fault buttons, the inspector, the lesson picker work).
// The bundle is served as static hosts serve it, hashed files immutable, three ways: over HTTP
// gzip-compressed, and over HTTPS (a certificate made for loopback) with the build's brotli
// files, which browsers ask for only over HTTPS, throttled by Chromium; and over HTTPS through
// one slow link the server shapes, which the service worker's requests share with the page's
// as on a phone (Chromium throttles the page's own requests, not its worker's).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium } from './chromium.mjs';
import { serve } from './static_server.mjs';

const runs = Number(process.env.TTL_RUNS ?? 5);
// TTL_SERVED picks the transports by name ('https, brotli;https, one link'; all three by default).
const served = process.env.TTL_SERVED?.split(';');
const dist = process.env.DIST_DIR ?? 'dist';
const addresses = [
  ['the default view', '/'],
  ['a lesson', '/?scenario=stale-read'],
  ['a Korean lesson', '/?scenario=stale-read&lang=ko'],
];
const PHONE = { latency: 150, download: (1.6 * 1024 * 1024) / 8, upload: (750 * 1024) / 8, cpu: 4 };

// In the page before its own scripts: clicks Step forward on every frame until a frame shows
// the timeline moved, and notes when the page is marked live (times from navigation start).
const probe = () => {
  const seen = { answers: null, live: null };
  /** @type {any} */ (window).__timeToLive = seen;
  const shown = (el) => el && el.checkVisibility();
  const operable = (el) => shown(el) && !el.closest('[inert]');
  let before = null;
  const frame = () => {
    const button = [.../** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll('button.step-forward'))].find(operable);
    const timeline = [.../** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll('#timeline'))].find(shown);
    if (button && timeline && !button.disabled) {
      const step = Number(timeline.value);
      if (before !== null && step > before) seen.answers = performance.now();
      else {
        before = step;
        button.click();
      }
    }
    if (seen.answers === null) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  // (At document start there is no <html> element yet: the document is watched.)
  new MutationObserver((_, observer) => {
    if (document.documentElement?.hasAttribute('data-live')) {
      seen.live = performance.now();
      observer.disconnect();
    }
  }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-live'] });
};

/// The phone's CPU, and its network unless the server shapes it (`network` false); the page's
/// protocol session.
async function throttled(context, page, network) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  if (network) {
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: PHONE.latency,
      downloadThroughput: PHONE.download,
      uploadThroughput: PHONE.upload,
    });
  }
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: PHONE.cpu });
  return cdp;
}

/// The page's two times once both are in, asked for through the browser's own protocol every
/// 100 ms: Playwright's waiting functions would first evaluate its own script in the page, about
/// 80 ms of the phone's CPU in the middle of the page's start.
async function timesOf(cdp) {
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    const asked = cdp.send('Runtime.evaluate', { expression: 'window.__timeToLive', returnByValue: true });
    // (While the document is replaced, the question finds no context: asked again.)
    const times = (await asked.catch(() => null))?.result?.value;
    if (times && times.answers !== null && times.live !== null) return times;
    await new Promise((go) => setTimeout(go, 100));
  }
  throw new Error('the page was not live within 60 s');
}

/// One visit: the two times, and the bytes the page transferred.
async function visit(context, url, network) {
  const page = await context.newPage();
  const cdp = await throttled(context, page, network);
  const sizes = [];
  page.on('response', (response) => sizes.push(response.request().sizes().catch(() => null)));
  await page.addInitScript(probe);
  await page.goto(url, { waitUntil: 'commit' });
  const times = await timesOf(cdp);
  await page.waitForLoadState('networkidle');
  // A person stays a moment: long enough for the service worker to keep the bundle (at most 10 s).
  await page.waitForFunction(() => navigator.serviceWorker?.controller, null, { timeout: 10_000, polling: 100 }).catch(() => {});
  const bytes = (await Promise.all(sizes)).reduce((sum, s) => sum + (s ? s.responseBodySize + s.responseHeadersSize : 0), 0);
  await page.close();
  return { ...times, bytes };
}

/// A key and a self-signed certificate for 127.0.0.1, made with openssl for this run, and the
/// Chromium flag that trusts it (by its public key's hash): a certificate Chromium only lets
/// pass with an error would keep its responses out of the HTTP cache, and no visit be warm.
function loopbackCertificate() {
  const dir = mkdtempSync(join(tmpdir(), 'ttl-tls-'));
  const [key, cert] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
    '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', key, '-out', cert],
  { stdio: 'ignore' });
  const publicKey = execFileSync('openssl', ['x509', '-in', cert, '-pubkey', '-noout']);
  const der = execFileSync('openssl', ['pkey', '-pubin', '-outform', 'der'], { input: publicKey });
  const spki = createHash('sha256').update(der).digest('base64');
  return { tls: { key: readFileSync(key), cert: readFileSync(cert) }, trust: [`--ignore-certificate-errors-spki-list=${spki}`] };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;
const https = () => {
  const { tls, trust } = loopbackCertificate();
  return { scheme: 'https', options: { precompressed: true, immutable: true, tls }, trust, network: true };
};
/** @type {[string, () => { scheme: string, options: Parameters<typeof serve>[2], trust: string[], network: boolean }][]} */
const transports = [
  ['http, gzip', () => ({ scheme: 'http', options: { gzip: true, immutable: true }, trust: [], network: true })],
  ['https, brotli', https],
  // Chromium throttles the page's own requests, not its service worker's, which on a phone
  // share one network: here the server shapes every answer through one link instead.
  ['https, one link', () => {
    const served = https();
    return { ...served, options: { ...served.options, link: { latency: PHONE.latency, bytesPerSecond: PHONE.download } }, network: false };
  }],
];
const rows = [];
for (const [transport, setUp] of transports.filter(([name]) => !served || served.includes(name))) {
  const { scheme, options, trust, network } = setUp();
  const server = await serve(dist, '/', options);
  const browser = await launchChromium(trust);
  try {
    await measure(browser, transport, `${scheme}://127.0.0.1:${server.address().port}`, network);
  } finally {
    await browser.close();
    server.close();
  }
}

async function measure(browser, transport, origin, network) {
  for (const [name, path] of addresses) {
    const cold = [];
    const warm = [];
    for (let i = 0; i < runs; i++) {
      const context = await browser.newContext({ viewport: { width: 412, height: 823 }, isMobile: true });
      cold.push(await visit(context, origin + path, network));
      warm.push(await visit(context, origin + path, network));
      await context.close();
    }
    for (const [visitKind, results] of /** @type {[string, typeof cold][]} */ ([['cold', cold], ['warm', warm]])) {
      rows.push({
        transport,
        name,
        visitKind,
        answers: median(results.map((r) => r.answers)),
        live: median(results.map((r) => r.live)),
        bytes: median(results.map((r) => r.bytes)),
      });
    }
  }
}
console.log(`Time until a person can act: Chromium, ${PHONE.latency} ms RTT, 1.6 Mbps down, ${PHONE.cpu}× CPU; median of ${runs}:`);
console.log(`  ${'served'.padEnd(15)} ${'address'.padEnd(18)} ${'visit'.padEnd(5)} ${'answers'.padStart(8)} ${'live'.padStart(8)} ${'transferred'.padStart(12)}`);
for (const r of rows) {
  console.log(`  ${r.transport.padEnd(15)} ${r.name.padEnd(18)} ${r.visitKind.padEnd(5)} ${seconds(r.answers).padStart(8)} ${seconds(r.live).padStart(8)} ${`${(r.bytes / 1024).toFixed(0)} KiB`.padStart(12)}`);
}
