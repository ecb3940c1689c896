// @ts-check
// `make lighthouse`: Lighthouse on the built bundle served gzip-compressed on loopback, with the
// system Chromium, three runs each way, prints the medians. Two ways to apply its mobile profile
// (150 ms round trips, 1.6 Mbps, the CPU 4× slower): its default simulation, which replays a
// load observed unthrottled on loopback over a model of that network, and `devtools`, which
// throttles the load itself through the browser, as `make ttl` does. The simulation counts in
// its Largest Contentful Paint every request that ended before the paint it observed: on
// loopback the wasm, asked for at once beside the first screen, often ends first, and then the
// simulated paint waits for the wasm over the phone's network, which the throttled load shows
// it does not.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from './static_server.mjs';

const lighthouse = process.argv[2];
const runs = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const server = await serve(process.env.DIST_DIR ?? 'dist', '/', { gzip: true });
const url = `http://127.0.0.1:${server.address().port}/`;
const dir = mkdtempSync(join(tmpdir(), 'lighthouse-'));
const methods = [['simulate', 'mobile simulation'], ['devtools', 'mobile profile applied by the browser (devtools)']];
const reports = new Map();
try {
  for (const [method] of methods) {
    const results = [];
    for (let i = 0; i < runs; i++) {
      const out = join(dir, `${method}-${i}.json`);
      // Asynchronously: the server answering Lighthouse runs in this process.
      await promisify(execFile)(process.execPath, [lighthouse, url, '--quiet', '--output=json', `--output-path=${out}`,
        `--throttling-method=${method}`, '--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage'],
        { env: { ...process.env, CHROME_PATH: process.env.CHROMIUM ?? '/usr/bin/chromium' }, timeout: 300_000 });
      results.push(JSON.parse(readFileSync(out, 'utf8')));
    }
    reports.set(method, results);
  }
} finally {
  server.close();
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const [method, name] of methods) report(reports.get(method), method, name);

function report(results, method, name) {
  const score = (key) => median(results.map((r) => r.categories[key].score));
  const audit = (key) => median(results.map((r) => r.audits[key].numericValue));
  console.log(`Lighthouse ${results[0].lighthouseVersion}, ${name}, ${runs} runs, medians, served gzip-compressed:`);
  for (const key of ['performance', 'accessibility', 'best-practices']) console.log(`  ${key}: ${score(key).toFixed(2)}`);
  for (const [key, name] of [['first-contentful-paint', 'First Contentful Paint'], ['largest-contentful-paint', 'Largest Contentful Paint'], ['interactive', 'Time to Interactive'], ['total-blocking-time', 'Total Blocking Time']]) {
    console.log(`  ${name}: ${(audit(key) / 1000).toFixed(2)} s`);
  }
  console.log(`  transfer: ${(audit('total-byte-weight') / 1024).toFixed(0)} KiB`);
  // TTI's margin: Lighthouse slows the observed tasks down by its CPU multiplier, and a task then
  // over 50 ms after the first paint delays interactivity. The page is live once its wasm has
  // arrived, so the tasks that matter are those that start after it.
  /// When a run's wasm arrived, as observed (Infinity if it never did).
  const wasmArrived = (r) => r.audits['network-requests'].details.items.find((i) => i.url.endsWith('.wasm'))?.networkEndTime ?? Infinity;
  const afterWasm = results.map((r) => {
    const tasks = r.audits['main-thread-tasks'].details.items.filter((t) => t.startTime >= wasmArrived(r));
    return Math.max(0, ...tasks.map((t) => t.duration));
  });
  // (Simulated, the observed tasks are slowed afterwards; throttled, they are observed slowed.)
  const slowdown = method === 'simulate' ? results[0].configSettings.throttling.cpuSlowdownMultiplier : 1;
  const limit = slowdown > 1 ? `a long task from ${(50 / slowdown).toFixed(1)} ms (${slowdown}× CPU slowdown)` : 'a long task from 50 ms';
  console.log(`  longest task after the wasm arrived (observed): median ${median(afterWasm).toFixed(1)} ms, runs ${afterWasm.map((t) => t.toFixed(1)).join(', ')}; ${limit}`);
  // The simulated LCP's graph holds every request that ended before the paint observed on
  // loopback: where the wasm (asked for at once, beside the first screen) arrives before that paint,
  // the simulation waits for it over the phone's network, and LCP and TTI move to its arrival.
  if (method === 'simulate') raced(results, wasmArrived);
  const failing = results[0].categories.accessibility.auditRefs
    .filter((a) => results[0].audits[a.id].score === 0).map((a) => a.id);
  if (failing.length) console.log(`  accessibility audits failing: ${failing.join(', ')}`);
}

function raced(results, wasmArrived) {
  const raced = results.map((r) => ({ wasm: wasmArrived(r), paint: r.audits.metrics.details.items[0].observedFirstContentfulPaint }));
  const before = raced.filter((r) => r.wasm < r.paint).length;
  console.log(`  observed on loopback, wasm arrived / first paint: ${raced.map((r) => `${r.wasm.toFixed(0)} / ${r.paint.toFixed(0)} ms`).join(', ')}; the wasm first in ${before} of ${runs} runs`);
}
