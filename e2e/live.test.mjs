// @ts-check
// Live mode: serve-api serves the page on its loopback http port; the page follows its world
// while real clients talk to it. Client-go's informer of 1.37 (target/realclients, built by the
// set-up) appears as a lane with its watch; paused, a ConfigMap written with kubectl reaches
// the informer only when the page steps; the API server restarted from the page makes the
// informer list again; with the watch cache off, a compaction and a cut watch make it get 410
// first, drawn on its lane. Without the token the page says so and follows nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DIST, launchChromium, screenshot, switchToKorean } from './browser.mjs';

const SERVER = process.env.ROOM_SERVER ?? 'target/debug/informer-playground';
const CLIENTS = 'target/realclients';

/// Starts serve-api (with `args`, e.g. a lesson) with the page port and reads the live link it prints.
function startServeApi(args = []) {
  const kubeconfig = join(mkdtempSync(join(tmpdir(), 'live-')), 'kubeconfig');
  const server = spawn(SERVER, ['serve-api', '--port', '0', '--page-port', '0', '--dist', DIST, '--kubeconfig', kubeconfig, '--quiet', ...args]);
  let said = '';
  const link = new Promise((found, fail) => {
    server.stderr.on('data', (chunk) => {
      said += chunk;
      const printed = said.match(/live page: (\S+)/);
      if (printed) found(printed[1]);
    });
    server.on('exit', (code) => fail(new Error(`serve-api exited ${code}: ${said}`)));
  });
  const stopped = new Promise((done) => server.on('exit', done));
  return { link, kubeconfig, stop: async () => { server.kill('SIGINT'); await stopped; } };
}

/// kubectl against serve-api, `input` on its standard input; fails the test when kubectl does.
function kubectl(kubeconfig, input, ...args) {
  const run = spawnSync(join(CLIENTS, 'kubectl'), ['--kubeconfig', kubeconfig, ...args], { encoding: 'utf8', input });
  assert.equal(run.status, 0, `kubectl ${args.join(' ')}: ${run.stdout}${run.stderr}`);
  return run.stdout;
}

/// The 1.37 client-go informer on ConfigMaps; what its handlers were told, as JSON lines.
function startInformer(kubeconfig) {
  const informer = spawn(join(CLIENTS, 'informer-v0.37'), ['--kubeconfig', kubeconfig, '--resource', 'configmaps', '--namespace', 'default', '--seconds', '120', '--after-sync', '120', '--most', '120']);
  const told = [];
  let partial = '';
  informer.stdout.on('data', (chunk) => {
    partial += chunk;
    const lines = partial.split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) if (line.trim()) told.push(JSON.parse(line));
  });
  return { told, stop: () => informer.kill() };
}

/// serve-api (with `args`), a browser and a page on the live link, playing; `client` (given the
/// kubeconfig) started beside them; `body` run with the page and the client; all stopped after.
async function onLivePage(args, client, body) {
  const served = startServeApi(args);
  const link = await served.link;
  const browser = await launchChromium();
  const started = client(served.kubeconfig);
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(link);
    await page.waitForSelector('.live-state:text("serve-api, playing")').catch(async (failure) => {
      // What the page said instead, for whoever reads the failure.
      const said = await page.locator('.live-bar').first().textContent({ timeout: 1000 }).catch(() => 'no live bar');
      throw new Error(`the live page did not say "serve-api, playing"; it said: ${said}`, { cause: failure });
    });
    await body(page, started, served.kubeconfig);
    assert.deepEqual(errors, []);
  } finally {
    started.stop();
    await browser.close();
    await served.stop();
  }
}

/// Waits until `holds` does, polling (a test's deadline, not a timing it relies on).
async function until(holds, what, ms = 30_000) {
  const deadline = Date.now() + ms;
  while (!(await holds())) {
    if (Date.now() > deadline) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

test('a real informer on the stage: its lane, stepped one event at a time, and its relist after a restart and a cut watch', () => onLivePage([], startInformer, async (page, informer, kubeconfig) => {
    await until(() => !/[0-9a-f]{32}/.test(page.url()), 'the token to leave the address');
    assert.match(page.url(), /live=kept/);
    const lane = page.locator('.lane', { hasText: 'informer-v0.37' });
    await lane.locator('.lane-watches li', { hasText: 'watch #' }).waitFor();
    await until(() => informer.told.some((l) => l.synced), 'the informer to sync');
    assert.match(await lane.locator('.lane-watches').innerText(), /of ConfigMap from resourceVersion "", bookmarks, initial events/);

    await page.getByRole('button', { name: 'Pause', exact: true }).first().click();
    await page.waitForSelector('.live-state:text("serve-api, paused")');
    // (apply sends JSON: serve-api reads no protobuf bodies, which `kubectl create` sends.)
    kubectl(kubeconfig, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: golden\ndata:\n  colour: gold\n', 'apply', '-f', '-');
    await page.locator('.lane', { hasText: 'kubectl' }).locator('.lane-requests', { hasText: 'ConfigMap default/golden' }).waitFor();
    await new Promise((r) => setTimeout(r, 1000));
    const added = () => informer.told.some((l) => l.call === 'OnAdd' && l.key === 'default/golden');
    assert.ok(!added(), 'paused: the ADDED waits for the page to step');
    let steps = 0;
    while (!added() && steps < 20) {
      await page.getByRole('button', { name: 'Step forward', exact: true }).click();
      steps += 1;
      await until(async () => added() || !(await page.locator('.live-waiting').count()), 'the step to come back', 5_000).catch(() => {});
    }
    assert.ok(added(), `the informer was told of golden after ${steps} steps`);
    await screenshot(page, 'live-1280-en', { fullPage: false });

    // Paused, silver's ADDED is owed to the informer's watch when the API server restarts (its
    // watch cache starts over after silver) and the watch is cut: the informer's next watch
    // asks from before silver, which the new watch cache no longer has.
    kubectl(kubeconfig, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: silver\n', 'apply', '-f', '-');
    await page.getByRole('button', { name: 'Restart API server' }).click();
    await page.getByRole('button', { name: 'Disconnect watch' }).click();
    await page.getByRole('button', { name: 'Play', exact: true }).first().click();
    await until(() => informer.told.some((l) => l.call === 'OnAdd' && l.key === 'default/silver'), 'silver through the relist');
    await lane.locator('.lane-notices li', { hasText: 'the whole list of ConfigMap again: a relist' }).waitFor();
    assert.match(await lane.locator('.lane-watches').innerText(), /watches ended/);
    await switchToKorean(page);
    await page.locator('.lane-notices li', { hasText: 'ConfigMap 목록 전체를 다시 받습니다' }).waitFor();
    await screenshot(page, 'live-1280-ko', { fullPage: false });
    await page.setViewportSize({ width: 700, height: 900 });
    await screenshot(page, 'live-700-ko', { fullPage: false });
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'live-390-ko', { fullPage: false });
}));

test('with the watch cache off, a compaction and a cut watch from the page make the real informer get 410 and list again, drawn on its lane', () =>
  // Lesson 06 runs without the watch cache: a watch is served by etcd, whose compaction a
  // re-watch from an older resourceVersion meets.
  onLivePage(['--scenario', 'compaction-410-relist'], startInformer, async (page, informer, kubeconfig) => {
    const lane = page.locator('.lane', { hasText: 'informer-v0.37' });
    await lane.locator('.lane-watches li', { hasText: 'watch #' }).waitFor();
    await until(() => informer.told.some((l) => l.synced), 'the informer to sync');
    await page.getByRole('button', { name: 'Pause', exact: true }).first().click();
    await page.waitForSelector('.live-state:text("serve-api, paused")');
    // Paused, golden's ADDED is owed to the informer's watch, which asks from before it.
    kubectl(kubeconfig, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: golden\n', 'apply', '-f', '-');
    await page.locator('.lane', { hasText: 'kubectl' }).locator('.lane-requests', { hasText: 'ConfigMap default/golden' }).waitFor();
    await page.getByRole('button', { name: 'Compact store' }).click();
    await page.getByRole('button', { name: 'Disconnect watch' }).click();
    await page.getByRole('button', { name: 'Play', exact: true }).first().click();
    await until(() => informer.told.some((l) => l.call === 'OnAdd' && l.key === 'default/golden'), 'golden through the relist');
    await lane.locator('.lane-notices li', { hasText: '410 Gone, then the whole list of ConfigMap again: a relist' }).waitFor();
    await screenshot(page, 'live-410-1280-en', { fullPage: false });
  }));

test('without this start\'s token the live page follows nothing and says why', async () => {
  const served = startServeApi();
  const link = await served.link;
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    const origin = new URL(link).origin;
    await page.goto(`${origin}/?live=${'0'.repeat(32)}`);
    await page.waitForSelector('.live-state:text("The live feed refused this page")');
    assert.equal(await page.locator('.lane').count(), 0);
    const feed = await fetch(`${origin}/playground/live?token=${'0'.repeat(32)}`);
    assert.equal(feed.status, 401);
    const elsewhere = await fetch(`${origin}/playground/live/control`, { method: 'POST', headers: { origin: 'http://elsewhere.example' }, body: '{"do":"pause"}' });
    assert.equal(elsewhere.status, 403);
  } finally {
    await browser.close();
    await served.stop();
  }
});

/// The starter controller learners run; what it prints.
function startStarter(kubeconfig) {
  const starter = spawn(join(CLIENTS, 'starter-controller'), ['--kubeconfig', kubeconfig]);
  const printed = { said: '', stop: () => starter.kill() };
  starter.stdout.on('data', (chunk) => { printed.said += chunk; });
  return printed;
}

test('the starter controller learners run appears on the stage as a lane of its own, with its watch and its write', () => onLivePage([], startStarter, async (page, starter, kubeconfig) => {
    kubectl(kubeconfig, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: golden\ndata:\n  colour: gold\n', 'apply', '-f', '-');
    await until(() => starter.said.includes('reconcile default/golden: wrote 1 keys'), 'the starter to write golden\'s count');
    const lane = page.locator('.lane', { hasText: 'starter-controller as kubernetes-admin' });
    await lane.locator('.lane-watches li', { hasText: 'of ConfigMap from resourceVersion' }).waitFor();
    await lane.locator('.lane-requests li', { hasText: 'PUT ConfigMap default/golden' }).waitFor();
    await screenshot(page, 'live-starter-1280-en', { fullPage: false });
}));
