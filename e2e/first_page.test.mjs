// The first page end to end, as a person uses it: write objects, compact, read the history
// and the API server's metrics (semantics §7, §8).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPlayground, screenshot } from './browser.mjs';

test('create, update and compact show in the revision history (semantics §7)', async () => {
  const { page, errors, close } = await openPlayground();
  try {
    const revision = page.getByTestId('store-revision');
    assert.equal(await revision.textContent(), '1', 'an empty store is at revision 1');

    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'configmap/demo created (resourceVersion 2)' }).waitFor();
    assert.equal(await revision.textContent(), '2', 'the first write is revision 2');

    const manifest = page.getByLabel('Manifest (JSON)');
    const edited = (await manifest.inputValue()).replace('"hello"', '"hello again"');
    await manifest.fill(edited);
    await page.getByRole('button', { name: 'Update', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'configmap/demo replaced (resourceVersion 3)' }).waitFor();

    const history = page.getByRole('table', { name: 'Revision history' });
    const rows = history.getByRole('row');
    assert.match(await rows.nth(1).textContent(), /^3PUT\/registry\/configmaps\/default\/demov2 · created 2$/);
    assert.match(await rows.nth(2).textContent(), /^2PUT\/registry\/configmaps\/default\/demov1 · created 2$/);

    await page.getByLabel('Compact to revision').fill('3');
    await page.getByRole('button', { name: 'Compact store' }).click();
    await page.getByRole('status').filter({ hasText: 'compacted at revision 3' }).waitFor();
    const note = history.getByRole('note');
    assert.match(await note.textContent(), /compacted at revision 3/);
    assert.equal(await history.getByText('/registry/configmaps/default/demo').count(), 1, 'compaction keeps only the newest revision of the key');

    const objects = page.getByRole('table', { name: 'Objects' });
    assert.match(await objects.textContent(), /default\/demo3/, 'the object shows its resourceVersion');

    const requests = page.getByRole('table', { name: 'Requests' });
    assert.match(await requests.textContent(), /POSTconfigmaps2011/);
    assert.match(await requests.textContent(), /PUTconfigmaps2001/);
    await screenshot(page, 'first-page-1280');
    await page.setViewportSize({ width: 700, height: 900 });
    await screenshot(page, 'first-page-700');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('bad input gets upstream errors in the page and loses nothing (semantics §7, §8)', async () => {
  const { page, errors, close } = await openPlayground();
  try {
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'created' }).waitFor();

    await page.getByLabel('Compact to revision').fill('99');
    await page.getByRole('button', { name: 'Compact store' }).click();
    const alert = page.getByRole('alert');
    await alert.filter({ hasText: 'etcdserver: mvcc: required revision is a future revision' }).waitFor();

    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await alert.filter({ hasText: 'Error from server (AlreadyExists): configmaps "demo" already exists' }).waitFor();

    await page.getByLabel('Manifest (JSON)').fill('{"kind": "ConfigMap", "metadata": {"name": "Bad_Name"}}');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await alert.filter({ hasText: 'Error from server (Invalid): ConfigMap "Bad_Name" is invalid: metadata.name: Invalid value' }).waitFor();

    await page.getByLabel('Manifest (JSON)').fill('{"kind": "Widget", "metadata": {"name": "w"}}');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await alert.filter({ hasText: 'no matches for kind "Widget"' }).waitFor();

    await page.getByLabel('Manifest (JSON)').fill('{ not json');
    await page.getByRole('button', { name: 'Update', exact: true }).click();
    await alert.filter({ hasText: 'json parse error' }).waitFor();
    await screenshot(page, 'first-page-error-1280');

    assert.equal(await page.getByTestId('store-revision').textContent(), '2', 'failed writes change nothing');
    assert.match(await page.getByRole('table', { name: 'Objects' }).textContent(), /default\/demo/);
    await page.getByRole('button', { name: 'Delete ConfigMap/default/demo' }).click();
    await page.getByRole('status').filter({ hasText: 'configmap/demo deleted (at revision 3)' }).waitFor();
    assert.match(await page.getByRole('table', { name: 'Revision history' }).getByRole('row').nth(1).textContent(), /^3DELETE/);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});
