// `make ttl` (and `make lighthouse`): the time until a person can act, as a phone on a slow
// network sees it. Chromium's own throttling through CDP, Lighthouse's mobile profile: 150 ms
// round trips, 1.6 Mbps down, 750 Kbps up, the CPU 4× slower. For each address — the default
// view, a lesson's link, a Korean lesson's link — cold (an empty cache) and warm (a second
// visit), it prints the median of TTL_RUNS (5) of two times from navigation:
//   answers  the first frame that shows a click on Step forward moving the timeline (the
//            build-time first screen is inert: its button does nothing);
//   live     the page is live: the wasm has stepped the world and every part is drawn
//            (`html[data-live]`: the fault buttons, the inspector, the lesson picker work).
// The bundle is served gzip-compressed, hashed files as immutable, as a static host serves it.
import { launchChromium } from './chromium.mjs';
import { serve } from './static_server.mjs';

const runs = Number(process.env.TTL_RUNS ?? 5);
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
  window.__timeToLive = seen;
  const shown = (el) => el && !el.closest('[inert]') && el.checkVisibility();
  let before = null;
  const frame = () => {
    const button = [...document.querySelectorAll('button.step-forward')].find(shown);
    const timeline = [...document.querySelectorAll('#timeline')].find(shown);
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

async function throttled(context, page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: PHONE.latency,
    downloadThroughput: PHONE.download,
    uploadThroughput: PHONE.upload,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: PHONE.cpu });
}

/// One visit: the two times, and the bytes the page transferred.
async function visit(context, url) {
  const page = await context.newPage();
  await throttled(context, page);
  let bytes = 0;
  page.on('response', async (response) => {
    const size = await response.request().sizes().catch(() => null);
    bytes += size ? size.responseBodySize + size.responseHeadersSize : 0;
  });
  await page.addInitScript(probe);
  await page.goto(url, { waitUntil: 'commit' });
  await page.waitForFunction(() => window.__timeToLive?.answers !== null && window.__timeToLive?.live !== null, null, {
    timeout: 60_000,
    polling: 100,
  });
  const times = await page.evaluate(() => window.__timeToLive);
  await page.close();
  return { ...times, bytes };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;
const server = await serve(dist, '/', { gzip: true, immutable: true });
const origin = `http://127.0.0.1:${server.address().port}`;
const browser = await launchChromium();
const rows = [];
try {
  for (const [name, path] of addresses) {
    const cold = [];
    const warm = [];
    for (let i = 0; i < runs; i++) {
      const context = await browser.newContext({ viewport: { width: 412, height: 823 }, isMobile: true });
      cold.push(await visit(context, origin + path));
      warm.push(await visit(context, origin + path));
      await context.close();
    }
    for (const [visitKind, results] of [['cold', cold], ['warm', warm]]) {
      rows.push({
        name,
        visitKind,
        answers: median(results.map((r) => r.answers)),
        live: median(results.map((r) => r.live)),
        bytes: median(results.map((r) => r.bytes)),
      });
    }
  }
} finally {
  await browser.close();
  server.close();
}
console.log(`Time until a person can act: Chromium, ${PHONE.latency} ms RTT, 1.6 Mbps down, ${PHONE.cpu}× CPU; median of ${runs}:`);
console.log(`  ${'address'.padEnd(18)} ${'visit'.padEnd(5)} ${'answers'.padStart(8)} ${'live'.padStart(8)} ${'transferred'.padStart(12)}`);
for (const r of rows) {
  console.log(`  ${r.name.padEnd(18)} ${r.visitKind.padEnd(5)} ${seconds(r.answers).padStart(8)} ${seconds(r.live).padStart(8)} ${`${(r.bytes / 1024).toFixed(0)} KiB`.padStart(12)}`);
}
