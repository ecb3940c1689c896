// @ts-check
// A lesson's challenge as a learner meets it: the goal checked as they act, a wrong attempt
// not accepted, hints one at a time, the proof link reopening solved, progress kept on the
// device until the clean slate.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPlayground, live, screenshot } from './browser.mjs';

async function kubectl(page, entry) {
  await page.getByLabel('kubectl', { exact: true }).fill(entry);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
}

async function stepUntil(page, done, most = 40) {
  for (let i = 0; i < most && !(await done()); i++) {
    await page.getByRole('button', { name: 'Step forward' }).click();
  }
}

test("a challenge is solved by the learner's own moves, its link reopens solved, and progress is kept until the clean slate", async () => {
  const { page, errors, close, server } = await openPlayground({ query: '?scenario=cache-scope' });
  const origin = `http://127.0.0.1:${server.address().port}`;
  try {
    const challenge = page.getByRole('region', { name: /^Challenge: / });
    const status = challenge.getByRole('status');
    assert.match(await status.textContent(), /^Not solved yet/);
    // Hints come one at a time.
    await challenge.getByRole('button', { name: 'Show a hint (1 of 2)' }).click();
    assert.equal(await challenge.locator('.hints li').count(), 1);
    await challenge.getByRole('button', { name: 'Show a hint (2 of 2)' }).click();
    assert.equal(await challenge.locator('.hints li').count(), 2);
    assert.equal(await challenge.getByRole('button', { name: /^Show a hint/ }).count(), 0, 'no more hints');
    // A wrong attempt: a label the cache's selector does not ask for.
    await page.getByLabel('Timeline').fill('21');
    await kubectl(page, 'kubectl label pod batch-1 tier=batch');
    await stepUntil(page, async () => false, 10);
    assert.match(await status.textContent(), /^Not solved yet/, 'a label the selector does not match brings nothing in');
    // The right one.
    await kubectl(page, 'kubectl label pod batch-1 app=web --overwrite');
    await stepUntil(page, async () => /^Solved\./.test(await status.textContent()));
    assert.match(await status.textContent(), /^Solved\. With app=web, batch-1 now matches/);
    await screenshot(page, 'challenge-solved-1280', { fullPage: false });
    const proof = await challenge.getByRole('link', { name: 'Link to your solution' }).getAttribute('href');
    assert.ok(proof.startsWith(origin) && proof.includes('actions='), proof);
    assert.match(await page.locator('#scenario option[value="cache-scope"]').textContent(), /★ 16\./, 'marked in the picker');
    // The proof, opened afresh, shows it solved.
    await page.goto(proof);
    await live(page);
    assert.match(await page.getByRole('region', { name: /^Challenge: / }).getByRole('status').textContent(), /^Solved\./);
    // Kept on the device; the clean slate forgets it.
    await page.goto(`${origin}/?scenario=cache-scope`);
    await live(page);
    assert.match(await page.locator('#scenario option[value="cache-scope"]').textContent(), /★ 16\./, 'kept after a reload');
    assert.match(await page.getByRole('heading', { name: /^Challenge/ }).textContent(), /\(solved before\)/);
    await page.getByRole('button', { name: 'Forget my progress' }).click();
    assert.match(await page.locator('#scenario option[value="cache-scope"]').textContent(), /^16\./);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('the solution plays on request and the Korean page names every control', async () => {
  const { page, errors, close } = await openPlayground({ query: '?scenario=sandbox&lang=ko' });
  try {
    const challenge = page.getByRole('region', { name: /^도전 과제 - / });
    assert.match(await challenge.getByRole('status').textContent(), /^아직 풀지 못했습니다/);
    await challenge.getByRole('button', { name: '풀이 재생' }).click();
    // (The solution's console lines wait for the console's module, which may still be on its way.)
    await challenge.getByRole('status').filter({ hasText: /^풀었습니다\./ }).waitFor();
    assert.match(await challenge.getByRole('status').textContent(), /^풀었습니다\./);
    assert.ok((await challenge.getByRole('link', { name: '내 풀이 링크' }).getAttribute('href')).includes('actions='));
    assert.doesNotMatch(await page.locator('#scenario option[value="sandbox"]').textContent(), /★/, 'a solution played solves nothing');
    await screenshot(page, 'challenge-solution-1280-ko', { fullPage: false });
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});
