// @ts-check
// Guided scenarios in the page: pick a lesson, follow its narration, answer a question, and
// switch the language (every word of the page's own, not the upstream texts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { live, openPlayground, screenshot, switchToKorean } from './browser.mjs';

const narration = (page) => page.locator('.narration').textContent();
const forward = (page) => page.getByRole('button', { name: 'Step forward' }).click();

test('three lessons from the picker, with narration and a question', async () => {
  const { page, errors, close } = await openPlayground();
  try {
    const picker = page.getByLabel('Scenario');
    await picker.selectOption('list-then-watch');
    // Its file arrives before it plays: step once the address names it.
    await page.waitForURL(/scenario=list-then-watch/);
    await forward(page);
    assert.match(await narration(page), /The Reflector starts ListAndWatch/);
    await forward(page);
    await forward(page);
    assert.match(await narration(page), /moves etcd's revision to 6/);
    const question = page.getByRole('group', { name: 'Question 1' });
    await question.getByRole('button', { name: "The LIST response's own resourceVersion" }).click();
    assert.match(await question.textContent(), /Correct\./);
    // The explanation points at the step it explains: the WATCH from the list's resourceVersion.
    await question.getByRole('button', { name: 'See it on the timeline' }).click();
    await page.locator('.step-count').filter({ hasText: /step 20\b/ }).waitFor();
    assert.match(await page.getByRole('log', { name: 'Event log' }).locator('.line').first().textContent(), /WATCH request/);
    await page.getByLabel('Timeline').fill('2');
    await page.keyboard.press('ArrowLeft');
    assert.match(await narration(page), /The Reflector starts ListAndWatch/, 'the narration rewinds with the step');
    await screenshot(page, 'lesson-1280');

    await picker.selectOption('stale-read');
    // The lesson's file is fetched when it is first opened: scrub once it is the one playing
    // (the address follows the session).
    await page.waitForURL(/scenario=stale-read/);
    await page.getByLabel('Timeline').fill('24');
    assert.match(await narration(page), /nothing to do|It is already "true"/);

    await picker.selectOption('compaction-410-relist');
    await page.waitForURL(/scenario=compaction-410-relist/);
    await page.getByLabel('Timeline').fill('50');
    assert.match(await narration(page), /DeletedFinalStateUnknown/);
    assert.match(await page.getByRole('log', { name: 'Event log' }).textContent(), /The resourceVersion for the provided watch is too old\./);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('switching to Korean changes the page and is remembered', async () => {
  const { page, errors, close } = await openPlayground({ query: '?scenario=rbac-without-list-watch' });
  try {
    await switchToKorean(page);
    await page.getByRole('button', { name: '한 단계 앞으로' }).click();
    await page.getByRole('button', { name: '한 단계 앞으로' }).click();
    await page.getByRole('button', { name: '한 단계 앞으로' }).click();
    assert.match(await narration(page), /403 Forbidden을 받습니다/);
    assert.equal(await page.locator('html').getAttribute('lang'), 'ko');
    for (const name of ['watch 끊기', '저장소 컴팩션', 'API 서버 재시작', 'list 권한 부여']) {
      await page.getByRole('button', { name }).waitFor();
    }
    await page.getByRole('heading', { name: '이벤트 로그' }).waitFor();
    assert.match(await page.getByRole('log', { name: '이벤트 로그' }).textContent(), /configmaps is forbidden/, 'upstream text stays as Kubernetes prints it');
    await screenshot(page, 'lesson-ko-1280');
    await page.reload();
    await live(page);
    await page.getByRole('button', { name: '한 단계 앞으로' }).waitFor();
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('two releases side by side: the same lesson, the same instant, the differences marked (eras)', async () => {
  const { page, errors, close } = await openPlayground({ query: '?scenario=delta-fifo-grouping&compare=1.33' });
  try {
    const panel = page.getByRole('region', { name: 'Compare releases' });
    await panel.waitFor();
    // Just after the Pops: the panel shows the latest steps of each release.
    await page.getByLabel('Timeline').fill('48');
    const left = panel.getByRole('region', { name: 'Kubernetes 1.30' });
    const right = panel.getByRole('region', { name: 'Kubernetes 1.33' });
    await left.locator('.line.differs').first().waitFor();
    assert.match(await left.textContent(), /Pop default\/a \[Updated, Updated, Deleted\]/);
    assert.match(await right.textContent(), /Pop default\/a \[Deleted\]/);
    assert.ok((await right.locator('.line.differs').count()) >= 3, 'three Pops where 1.30 has one');
    await screenshot(page, 'compare-1280');
    await page.getByLabel('Compare with').selectOption('');
    await panel.waitFor({ state: 'detached' });
    await page.setViewportSize({ width: 700, height: 900 });
    await page.getByLabel('Compare with').selectOption('1.37');
    await page.getByRole('region', { name: 'Kubernetes 1.37' }).waitFor();
    await screenshot(page, 'compare-700');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('Fast-forward passes over a bulk phase as one labelled jump, by button or F, in both languages', async () => {
  const { page, errors, close } = await openPlayground({ query: '?scenario=polling-vs-watch' });
  try {
    const button = page.getByRole('button', { name: 'Fast-forward' });
    assert.equal(await button.isDisabled(), true, 'no bulk phase at step 0');
    for (let i = 0; i < 20; i++) await page.keyboard.press('ArrowRight');
    assert.equal(await button.isEnabled(), true, 'the initial ADDED events are a bulk phase');
    await page.keyboard.press('f');
    const jump = page.getByTestId('jump');
    await jump.waitFor();
    assert.match(await jump.textContent(), /^» passed over 4,9\d\d steps \(#21–#5,0\d\d\): ADDED api-server → reflector ×4,9\d\d$/);
    assert.match(await page.getByTestId('current-step').textContent(), /^#5,?0\d\d api-server → reflector: BOOKMARK/);
    await screenshot(page, 'fast-forward-1280', { fullPage: false });
    await switchToKorean(page);
    assert.match(await jump.textContent(), /^» 4,9\d\d단계를 건너뛰었습니다\(#21–#5,0\d\d\): ADDED api-server → reflector ×4,9\d\d$/);
    assert.equal(await page.getByRole('button', { name: '빨리 감기' }).getAttribute('aria-keyshortcuts'), 'F');
    await page.keyboard.press('ArrowLeft');
    assert.equal(await jump.count(), 0, 'a step back forgets the jump');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test("the facilitator's guide opens in the page in both languages, a lesson's name opens it, and a lesson ends with its recap and questions for the room", async () => {
  const { page, errors, close } = await openPlayground();
  try {
    await page.getByRole('button', { name: 'Guide', exact: true }).click();
    const guide = page.getByRole('dialog', { name: "Facilitator's guide" });
    await guide.getByRole('heading', { name: /^Part 1/ }).waitFor();
    assert.match(await guide.textContent(), /The two parts take about \d+ minutes\./);
    assert.match(await guide.textContent(), /Glossary.*relist.*다시 LIST/s);
    await screenshot(page, 'guide-1280', { fullPage: false });
    await guide.getByRole('button', { name: /^14\. Resync/ }).click();
    assert.equal(await guide.count(), 0, 'opening a lesson closes the guide');
    // The lesson opens once its file has been fetched.
    await page.waitForFunction(() => /** @type {HTMLSelectElement} */ (document.querySelector('select#scenario'))?.value === 'resync');

    // The end of the run: the question first, then the recap and the article's question.
    // (`informer-playground run resync` ends at step 43.)
    const last = 43;
    await page.getByLabel('Timeline').fill(String(last));
    assert.equal(await page.getByRole('region', { name: 'End of the lesson' }).count(), 0, 'not above an unanswered question');
    await page.getByRole('group', { name: 'Question 1' }).getByRole('button', { name: /^Nothing/ }).click();
    const end = page.getByRole('region', { name: 'End of the lesson' });
    assert.match(await end.textContent(), /Remember: A resync is not a relist/);
    assert.match(await end.textContent(), /To discuss.*long informer resync period/s);
    await page.getByLabel('Timeline').fill(String(last - 1));
    assert.equal(await end.count(), 0, 'one step back, the run is not over');
    await page.getByLabel('Timeline').fill(String(last));
    await end.scrollIntoViewIfNeeded();
    await screenshot(page, 'lesson-end-1280', { fullPage: false });

    await switchToKorean(page);
    const 마무리 = page.getByRole('region', { name: '레슨 마무리' });
    assert.match(await 마무리.textContent(), /기억할 것: resync는 다시 LIST가 아닙니다/);
    await page.getByRole('button', { name: '진행 안내', exact: true }).click();
    const 안내 = page.getByRole('dialog', { name: '진행자 안내' });
    await 안내.getByRole('heading', { name: /^1부/ }).waitFor();
    assert.match(await 안내.textContent(), /두 부분에 약 \d+분이 걸립니다\./);
    await screenshot(page, 'guide-1280-ko', { fullPage: false });
    await page.keyboard.press('Escape');
    assert.equal(await 안내.count(), 0, 'Esc closes the guide');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('a finished lesson is marked in the picker after a reload, and the clean slate forgets it', async () => {
  const { page, errors, close } = await openPlayground({ query: '?scenario=resync' });
  try {
    const timeline = page.getByLabel('Timeline');
    await timeline.fill(await timeline.getAttribute('max'));
    await page.getByRole('group', { name: 'Question 1' }).getByRole('button').first().click();
    await page.locator('.closing').waitFor();
    const option = () => page.locator('#scenario option[value="resync"]').textContent();
    assert.match(await option(), /^✓ 14\./);
    await page.reload();
    await live(page);
    assert.match(await option(), /^✓ 14\./, 'kept on the device');
    assert.doesNotMatch(await page.locator('#scenario option[value="stale-read"]').textContent(), /✓/);
    await page.getByRole('button', { name: 'Forget my progress' }).click();
    assert.match(await option(), /^14\./);
    assert.equal(await page.getByRole('button', { name: 'Forget my progress' }).count(), 0);
    await page.reload();
    await live(page);
    assert.match(await option(), /^14\./, 'forgotten on the device too');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test("the cache's levers in Costs: a Transform and metadata alone show what the cache would hold with its objects whole, in both languages", async () => {
  const open = async (page, lesson, last) => {
    await page.getByLabel('Scenario').selectOption(lesson);
    await page.waitForURL(new RegExp(`scenario=${lesson}`));
    await page.getByLabel('Timeline').fill(String(last));
  };
  /** The bytes a figure of the costs panel states: `7 (2,484 B)`, `3,326 B` or `165 KiB`. */
  const bytes = async (page, term) => {
    const text = await page.locator('dl.costs div', { has: page.locator('dt', { hasText: term }) }).locator('dd').textContent();
    const [, n, unit] = text.match(/([\d,]+) (B|KiB)\)?$/) ?? [];
    return Number(n.replace(/,/g, '')) * (unit === 'KiB' ? 1024 : 1);
  };
  const { page, errors, close } = await openPlayground();
  try {
    // `informer-playground run transform-and-field-selector` ends at step 53, `run metadata-only` at 28.
    await open(page, 'transform-and-field-selector', 53);
    const [cached, whole] = [await bytes(page, 'Cached objects'), await bytes(page, 'Cached with objects whole')];
    assert.ok(cached > 0 && cached < whole, `the transform saves: ${cached} B cached against ${whole} B whole`);
    assert.match(await page.locator('dl.costs').textContent(), /Same kind in the cluster503 \(/);
    await page.locator('dl.costs').scrollIntoViewIfNeeded();
    await screenshot(page, 'costs-transform-1280', { fullPage: false });

    await open(page, 'metadata-only', 28);
    assert.match(await page.locator('ol.lines').textContent(), /Accept: as=PartialObjectMetadata/, "the steps show the request's Accept header");
    await switchToKorean(page);
    const [적은, 통째] = [await bytes(page, '캐시된 오브젝트'), await bytes(page, '오브젝트를 통째로 캐시했다면')];
    assert.ok(적은 < 통째, `metadata alone saves: ${적은} B against ${통째} B`);
    await page.locator('dl.costs').scrollIntoViewIfNeeded();
    await screenshot(page, 'costs-metadata-1280-ko', { fullPage: false });
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});
