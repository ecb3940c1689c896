// @ts-check
// The playground page end to end, driven by role and accessible name as a person would
// (semantics §1, §7, §8).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPlayground, screenshot } from './browser.mjs';

const current = (page) => page.getByTestId('current-step').textContent();
const log = (page) => page.getByRole('log', { name: 'Event log' }).textContent();

/// Presses "Step forward" until the current step's text matches, at most `max` times.
async function stepUntil(page, pattern, max = 120) {
  const forward = page.getByRole('button', { name: 'Step forward' });
  for (let i = 0; i < max; i++) {
    await forward.click();
    if (pattern.test(await current(page))) return;
  }
  assert.fail(`no step matched ${pattern} within ${max} steps; last: ${await current(page)}`);
}

/// Presses "Step forward" until a locator's text matches, at most `max` times.
async function stepUntilText(page, locator, pattern, max = 200) {
  const forward = page.getByRole('button', { name: 'Step forward' });
  for (let i = 0; i < max; i++) {
    if (pattern.test(await locator.textContent())) return;
    await forward.click();
  }
  assert.fail(`${pattern} did not appear within ${max} steps`);
}

async function stepTimes(page, n) {
  for (let i = 0; i < n; i++) await page.getByRole('button', { name: 'Step forward' }).click();
}

test('in 1.30 a LIST hands its resourceVersion to the WATCH (semantics §1.2)', async () => {
  const { page, errors, close } = await openPlayground({ query: '?era=1.30' });
  try {
    await screenshot(page, 'default-1280');
    await stepUntil(page, /LIST response/);
    assert.match(await current(page), /items at rv 2; WATCH from rv="2"/);
    await stepUntil(page, /WATCH started/);
    assert.match(await log(page), /resourceVersion="0"&limit=500 → 1 items at rv 2/);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('the current release syncs with one watch-list: initial events, the end bookmark, no LIST (semantics §1.5)', async () => {
  const { page, errors, close } = await openPlayground();
  try {
    await stepUntil(page, /WATCH request .*sendInitialEvents=true/);
    await stepUntil(page, /BOOKMARK with k8s\.io\/initial-events-end: the initial list is complete/);
    await stepUntil(page, /ReplacedAll at rv \d+: indexer replace/);
    assert.doesNotMatch(await log(page), /LIST response/);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('a disconnected watch resumes from the last resourceVersion without a relist (semantics §1.2)', async () => {
  const { page, errors, close } = await openPlayground();
  try {
    await stepTimes(page, 40);
    await page.getByRole('button', { name: 'Disconnect watch' }).click();
    assert.match(await current(page), /fault .*disconnected: events in flight are lost/);
    await stepUntil(page, /watch #\d+ ended; WATCH from rv="\d+"/);
    await stepUntil(page, /WATCH request .*from rv="\d+"/);
    await page.getByRole('button', { name: 'Inspect Reflector' }).click();
    const inspector = page.getByRole('region', { name: /Inspector: Reflector/ });
    assert.match(await inspector.textContent(), /\b0 LISTs/, 'no relist (and in 1.37 no LIST at all)');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('a restart behind a write elsewhere gives 410 Expired, then a relist (semantics §8)', async () => {
  const { page, errors, close } = await openPlayground();
  try {
    await stepTimes(page, 40);
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'configmap/demo created' }).waitFor();
    await page.getByRole('button', { name: 'Restart API server' }).click();
    await stepUntil(page, /too old resource version: \d+ \(\d+\)/);
    await stepUntil(page, /WATCH request .*from rv="\d+".*sendInitialEvents=true/);
    await page.getByRole('button', { name: 'Compact store' }).click();
    assert.match(await current(page), /etcd compacted at revision \d+/);
    await page.getByRole('button', { name: 'Inspect etcd' }).click();
    await page.getByRole('note').filter({ hasText: /compacted at revision/ }).waitFor();
    await screenshot(page, 'inspector-store-1280');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('in the current release revoking watch fails the watch-list, which falls back to LIST, then the WATCH: one structured error line (semantics §1.3, §1.5)', async () => {
  const { page, errors, close } = await openPlayground();
  try {
    await stepTimes(page, 40);
    await page.getByRole('button', { name: 'Revoke watch' }).click();
    await page.getByRole('button', { name: 'Restart API server' }).click();
    await page.getByRole('button', { name: 'Inspect Reflector' }).click();
    const reflectorLog = page.getByLabel('Deployment reflector log');
    await stepUntilText(page, reflectorLog, /Failed to watch/);
    const logText = await reflectorLog.textContent();
    assert.match(logText, /reflector\.go:227\] "Failed to watch" err="deployments\.apps is forbidden: User \\"system:serviceaccount:default:playground-controller\\" cannot watch resource \\"deployments\\" in API group \\"apps\\" at the cluster scope" logger="UnhandledError" reflector="pkg\/mod\/k8s\.io\/client-go@v0\.37\.2\/tools\/cache\/reflector\.go:343" type="\*v1\.Deployment"/);
    assert.doesNotMatch(logText, /reflector\.go:547/, 'no W line since 1.33');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('in 1.30 revoking list shows the forbidden W/E pair and the reflector backs off (semantics §1.3)', async () => {
  const { page, errors, close } = await openPlayground({ query: '?era=1.30' });
  try {
    await stepTimes(page, 40);
    await page.getByRole('button', { name: 'Revoke list' }).click();
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByRole('button', { name: 'Restart API server' }).click();
    await page.getByRole('button', { name: 'Inspect Reflector' }).click();
    const reflectorLog = page.getByLabel('Deployment reflector log');
    await stepUntilText(page, reflectorLog, /is forbidden/);
    const logText = await reflectorLog.textContent();
    assert.match(logText, /reflector\.go:547\] pkg\/mod\/k8s\.io\/client-go@v0\.30\.14\/tools\/cache\/reflector\.go:232: failed to list \*v1\.Deployment: deployments\.apps is forbidden: User "system:serviceaccount:default:playground-controller" cannot list resource "deployments" in API group "apps" at the cluster scope/);
    assert.match(logText, /reflector\.go:150\] .*Failed to watch \*v1\.Deployment: failed to list \*v1\.Deployment/);
    await screenshot(page, 'inspector-reflector-1280');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('stepping back shows the earlier state in the inspectors (semantics §9)', async () => {
  // 1.30: the Deployment's own indexer write is one step of its own (a DeltaFIFO pop).
  const { page, errors, close } = await openPlayground({ query: '?era=1.30' });
  try {
    await page.getByRole('button', { name: 'Inspect Indexer' }).click();
    const inspector = page.getByRole('region', { name: /Inspector: Indexer/ });
    await stepUntil(page, /indexer write .*default\/web/);
    assert.match(await inspector.textContent(), /Deployment informer1 objects/);
    const after = await current(page);
    const step = Number(after.match(/^#(\d+)/)[1]);
    await page.keyboard.press('ArrowLeft');
    assert.match(await current(page), new RegExp(`^#${step - 1} `));
    assert.match(await inspector.textContent(), /Deployment informer0 objects/);
    await page.keyboard.press('ArrowRight');
    assert.equal(await current(page), after);
    await page.getByLabel('Timeline').fill('3');
    assert.match(await current(page), /^#3 /);
    for (const [name, file] of [['DeltaFIFO', 'fifo'], ['Handlers', 'handlers'], ['Workqueue', 'workqueue'], ['Reconciler', 'reconciler'], ['API server', 'api-server']]) {
      await page.getByRole('button', { name: `Inspect ${name}` }).click();
      await page.getByRole('heading', { name: `Inspector: ${name}` }).waitFor();
      await screenshot(page, `inspector-${file}-1280`);
    }
    await page.setViewportSize({ width: 700, height: 900 });
    await screenshot(page, 'default-700');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('bad input gets upstream errors in the page and loses nothing', async () => {
  const { page, errors, close } = await openPlayground();
  try {
    const manifest = page.getByLabel('Manifest (JSON)');
    await manifest.fill('{ not json');
    await page.getByRole('button', { name: 'Update', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'json parse error' }).waitFor();
    await manifest.fill('{"kind": "Widget", "metadata": {"name": "w"}}');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'no matches for kind "Widget"' }).waitFor();
    assert.equal(await page.getByTestId('store-revision').textContent(), '2', 'failed writes change nothing');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});
