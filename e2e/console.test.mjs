// @ts-check
// The kubectl console and object views, as a person uses them (semantics §8).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPlayground, screenshot, switchToKorean } from './browser.mjs';

async function kubectl(page, entry) {
  await page.getByLabel('kubectl', { exact: true }).fill(entry);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  return page.getByRole('log', { name: 'kubectl output' }).textContent();
}

test('kubectl reads, writes, watches and explains RBAC', async () => {
  const { page, errors, close } = await openPlayground();
  try {
    // The Deployment's ReplicaSet has made its Pods and the kubelet has started them.
    await page.getByLabel('Timeline').fill('220');
    let out = await kubectl(page, 'kubectl get pods');
    assert.match(out, /\$ kubectl get pods\nNAME +READY +STATUS +RESTARTS +AGE\nweb-[a-z0-9]{10}-[a-z0-9]{5} +1\/1 +Running +0 +\d+s/);
    await page.getByRole('button', { name: 'kubectl get pods -w' }).click();
    out = await kubectl(page, 'kubectl apply -f -\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 4\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n      - name: web\n        image: nginx:1.27\n');
    assert.match(out, /deployment\.apps\/web configured/);
    for (let i = 0; i < 80; i++) await page.getByRole('button', { name: 'Step forward' }).click();
    out = await page.getByRole('log', { name: 'kubectl output' }).textContent();
    assert.match(out, /web-[a-z0-9]{10}-[a-z0-9]{5} +0\/1 +Pending +0/, 'the watch prints the new Pod as it appears');
    out = await kubectl(page, 'kubectl get deployments.apps nope');
    assert.match(out, /Error from server \(NotFound\): deployments\.apps "nope" not found$/);
    out = await kubectl(page, 'kubectl auth can-i delete secrets --as=system:serviceaccount:default:playground-controller');
    assert.match(out, /\nno$/);
    out = await kubectl(page, 'kubectl get widgets');
    assert.match(out, /error: the server doesn't have a resource type "widgets"$/);
    await screenshot(page, 'console-1280');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('a cached object opens as YAML with its resourceVersion', async () => {
  const { page, errors, close } = await openPlayground();
  try {
    await page.getByLabel('Timeline').fill('40');
    await page.getByRole('button', { name: 'Inspect Indexer' }).click();
    await page.getByRole('button', { name: 'Open default/web', exact: true }).click();
    const yaml = await page.getByLabel('Object YAML').textContent();
    assert.match(yaml, /^apiVersion: apps\/v1\nkind: Deployment\nmetadata:\n/);
    assert.match(yaml, /\n  resourceVersion: "\d+"\n/);
    assert.match(yaml, /\nspec:\n  replicas: 3\n/);
    await screenshot(page, 'inspector-indexer-1280');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test("the console's presets ask about what the lesson's controller watches, as its own account", async () => {
  const { page, errors, close } = await openPlayground({ query: '?scenario=rbac-without-list-watch' });
  try {
    const log = page.getByRole('log', { name: 'kubectl output' });
    assert.equal(await page.getByRole('button', { name: 'Scale web to 5' }).count(), 0, 'no Deployment here to scale');
    await page.getByRole('button', { name: 'Can the controller get configmaps?' }).click();
    assert.match(await log.textContent(), /\$ kubectl auth can-i get configmaps --as=system:serviceaccount:default:playground-controller\nyes\s*$/);
    await page.getByRole('button', { name: 'Can the controller list configmaps?' }).click();
    assert.match(await log.textContent(), /\$ kubectl auth can-i list configmaps --as=system:serviceaccount:default:playground-controller\nno\s*$/);
    await switchToKorean(page);
    assert.equal(await page.getByRole('button', { name: '컨트롤러에 configmaps list 권한이 있습니까?' }).count(), 1);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});
