// @ts-check
// The lesson builder as an author uses it: a lesson made from the sandbox — writes and faults
// recorded from what the author does, a note on the 410, a question, a challenge — checked in
// every release while it is written, previewed, exported; the file passes `validate` and the
// link it makes opens the same lesson. A copy changed in one place keeps everything else.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { openPlayground, live, screenshot, switchToKorean } from './browser.mjs';

const CLI = 'target/debug/informer-playground';

async function kubectl(page, entry) {
  await page.getByLabel('kubectl', { exact: true }).fill(entry);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
}

const pod = (name) => `kubectl create -f -\napiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\nspec:\n  containers:\n  - name: main\n    image: busybox:1.36`;

/// Types into a builder's field and leaves it, as a person does: the draft takes the text when
/// the field loses focus (before the next click, which may find the page moved by the check).
async function fill(region, label, text) {
  const field = region.getByLabel(label, { exact: true }).last();
  await field.fill(text);
  await field.press('Tab');
}

/// The builder's file, as Download saves it.
async function download(page, builder) {
  const [file] = await Promise.all([page.waitForEvent('download'), builder.getByRole('button', { name: 'Download the file' }).click()]);
  const dir = await mkdtemp(join(tmpdir(), 'built-'));
  const path = join(dir, file.suggestedFilename());
  await file.saveAs(path);
  return { dir, name: file.suggestedFilename(), text: await readFile(path, 'utf8') };
}

/// Opens the builder on a copy of the lesson on the stage; the builder's region.
async function copyInBuilder(page) {
  await page.getByRole('button', { name: 'Write a lesson' }).click();
  const builder = page.getByRole('region', { name: 'Lesson builder' });
  await builder.getByRole('button', { name: 'Copy the lesson on the stage' }).click();
  return builder;
}

/// Waits for the builder's checks to pass; when they do not, fails with the reasons it lists.
async function passes(builder) {
  const status = builder.getByRole('status').first();
  await status.waitFor();
  const said = await status.textContent();
  assert.equal(said, 'Passes every check in 1.30, 1.33, 1.37.');
}

test('an author writes a lesson from the sandbox, previews and exports it, and the file validates and opens the same', async () => {
  const { page, errors, close } = await openPlayground({ query: '?scenario=sandbox' });
  try {
    const builder = await copyInBuilder(page);
    await fill(builder, 'Lesson id (letters, digits, -)', 'my-410');
    await fill(builder, 'Title (Korean)', '내가 만든 410');
    await fill(builder, 'Title (English)', 'A 410 of my own');
    // What the sandbox says of an empty cluster, and its challenge, go: this lesson writes.
    await builder.getByRole('button', { name: 'Remove note 1' }).click();
    for (const era of ['1.30', '1.33', '1.37']) await builder.getByRole('button', { name: `Remove ${era}'s note 1` }).click();
    await builder.getByRole('button', { name: 'Remove challenge 1' }).click();
    while (await builder.getByRole('button', { name: 'Remove expectation 1' }).count()) await builder.getByRole('button', { name: 'Remove expectation 1' }).click();
    await builder.getByLabel("The API server's watch cache (off: every read and watch goes to etcd)").uncheck();
    await passes(builder);
    await builder.getByRole('button', { name: 'Preview' }).click();
    await page.locator('#scenario option:checked', { hasText: 'opened from outside' }).waitFor({ state: 'attached' });
    // The author's moves: a Pod, then the watch cut, two more Pods and a compaction while it is down.
    await page.getByLabel('Timeline').fill('12');
    await kubectl(page, pod('a'));
    await page.getByLabel('Timeline').fill('30');
    await page.getByRole('button', { name: 'Disconnect watch' }).click();
    await kubectl(page, pod('b'));
    await kubectl(page, pod('c'));
    await page.getByRole('button', { name: 'Compact store' }).click();
    await builder.getByRole('button', { name: 'Add what you did to the timeline (5)' }).click();
    assert.equal(await builder.locator('h3:text("Timeline") + ol > li').count(), 5);
    await passes(builder);
    await builder.getByRole('button', { name: 'Preview' }).click();
    // Step to the 410 and write a note and a question there.
    const log = page.getByRole('log', { name: 'Event log' });
    for (let i = 0; i < 120 && !(await log.locator('li', { hasText: 'Expired' }).count()); i++) {
      await page.getByRole('button', { name: 'Step forward' }).click();
    }
    assert.ok(await log.locator('li', { hasText: 'Expired' }).count(), 'the run reaches a 410');
    await builder.getByRole('button', { name: /^Add a note at step \d+$/ }).click();
    await fill(builder, 'Note (Korean)', 'watch가 압축된 resourceVersion부터 시작해 410을 받습니다.');
    await fill(builder, 'Note (English)', 'The watch starts from a compacted resourceVersion and gets a 410.');
    // Where the note shows, release by release, as it is written.
    assert.match(await builder.locator('.builder-shown').first().textContent(), /^Shows at — 1\.30: step \d+ · 1\.33: step \d+ · 1\.37: step \d+$/);
    await builder.getByRole('button', { name: /^Add a question at step \d+$/ }).click();
    await fill(builder, 'Question (Korean)', 'Reflector는 이제 무엇을 할까요?');
    await fill(builder, 'Question (English)', 'What does the Reflector do now?');
    await fill(builder, 'Choice 1 (Korean)', '다시 LIST 합니다');
    await fill(builder, 'Choice 1 (English)', 'It lists again');
    await fill(builder, 'Choice 2 (Korean)', '포기합니다');
    await fill(builder, 'Choice 2 (English)', 'It gives up');
    await fill(builder, 'Explanation (Korean)', '410 다음에는 전체를 다시 LIST 합니다.');
    await fill(builder, 'Explanation (English)', 'After a 410 it lists everything again.');
    // A challenge: cut the watch once more, by the author's own move; its goal, the WATCH it makes.
    await page.getByRole('button', { name: 'Disconnect watch' }).click();
    for (let i = 0; i < 6; i++) await page.getByRole('button', { name: 'Step forward' }).click();
    await builder.getByRole('button', { name: 'Add a challenge solved by your moves, its goal what holds now' }).click();
    // Its goal keeps the one check the lesson alone does not meet: one fault more than its own.
    const challenge = builder.locator('h3:text("Challenges") + ol > li').last();
    const checks = challenge.locator('ul').first().locator('li');
    while ((await checks.count()) > 1) {
      const texts = await checks.allTextContents();
      const other = texts.findIndex((t) => !t.includes('"fault"'));
      await builder.getByRole('button', { name: `Remove check ${other + 1} from the goal` }).click();
    }
    await fill(builder, 'Task (Korean)', 'watch를 직접 끊어 보세요.');
    await fill(builder, 'Task (English)', 'Cut the watch yourself.');
    await fill(builder, 'Said when solved (Korean)', 'Reflector가 다시 watch 했습니다.');
    await fill(builder, 'Said when solved (English)', 'The Reflector watched again.');
    await passes(builder);
    await screenshot(page, 'builder-en-1280', { fullPage: false });
    await builder.getByRole('button', { name: 'Preview' }).click();
    await page.getByRole('region', { name: /^Challenge: / }).waitFor();
    // Exported: the file validates in every release it declares.
    const file = await download(page, builder);
    assert.equal(file.name, 'my-410.json');
    const said = execFileSync(join(process.cwd(), CLI), ['validate', file.name], { cwd: file.dir }).toString();
    assert.match(said, /^my-410\.json: ok \(my-410: 1 narration notes, 1 questions, 1 challenges, 0 expectations\)/);
    // The link it makes opens the same lesson, its note at the same step.
    await builder.getByRole('button', { name: 'Make a link and an embed' }).click();
    const link = await builder.getByLabel('Link that carries the lesson').inputValue();
    assert.match(await builder.getByLabel('Embed snippet').inputValue(), /^<iframe src="[^"]*lesson=[^"]*embed=1"/);
    await page.goto(link);
    await live(page);
    assert.equal(await page.locator('#scenario option:checked').textContent(), 'A 410 of my own (opened from outside)');
    assert.equal(await page.getByRole('region', { name: /^Challenge: / }).count(), 1, 'its challenge with it');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('a copy of a bundled lesson changed in one place keeps every other part as it was', async () => {
  const { page, errors, close } = await openPlayground({ query: '?scenario=bookmarks' });
  try {
    const builder = await copyInBuilder(page);
    await fill(builder, 'Note (English)', 'A note of our own.');
    await passes(builder);
    const file = await download(page, builder);
    const source = JSON.parse(await readFile('static/scenarios/07-bookmarks.json', 'utf8'));
    const expected = structuredClone(source);
    expected.id = 'bookmarks-copy';
    // (The last note listed is 1.37's seventh.)
    expected.eras['1.37'].narration[6].text.en = 'A note of our own.';
    assert.deepEqual(JSON.parse(file.text), expected);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('an author points a note at another stage, writes the recap and gives one release its own title', async () => {
  const { page, errors, close } = await openPlayground({ query: '?scenario=list-then-watch' });
  try {
    await page.getByRole('button', { name: 'Step forward', exact: true }).click();
    const builder = await copyInBuilder(page);
    await builder.getByLabel('Note 1: the stage it points at').selectOption('indexer');
    await builder.getByRole('button', { name: 'Remove the recap' }).click();
    await builder.getByRole('button', { name: 'Add a recap' }).click();
    await fill(builder, 'Recap (English)', 'A LIST, then a WATCH from its resourceVersion.');
    await fill(builder, 'Recap (Korean)', 'LIST 다음에 그 resourceVersion부터 WATCH합니다.');
    await builder.getByRole('button', { name: 'Give 1.33 a title of its own' }).click();
    await fill(builder, 'Title in 1.33 (English)', 'List, then watch, in 1.33');
    await passes(builder);
    const file = await download(page, builder);
    const lesson = JSON.parse(file.text);
    assert.equal(lesson.narration[0].look_at, 'indexer');
    assert.equal(lesson.recap.en, 'A LIST, then a WATCH from its resourceVersion.');
    assert.equal(lesson.recap.claims.length, 1, 'the recap claims that its step happens');
    assert.equal(lesson.eras['1.33'].title.en, 'List, then watch, in 1.33');
    const said = execFileSync(join(process.cwd(), CLI), ['validate', file.name], { cwd: file.dir }).toString();
    assert.match(said, /ok/);
    // Back to none: the field leaves the file.
    await builder.getByLabel('Note 1: the stage it points at').selectOption('');
    await builder.getByRole('button', { name: 'Remove 1.33\'s own title' }).click();
    await passes(builder);
    const again = JSON.parse((await download(page, builder)).text);
    assert.equal(again.narration[0].look_at, undefined);
    assert.equal(again.eras['1.33'].title, undefined);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('a lesson opened from outside is copied into the builder as it came', async () => {
  const source = JSON.parse(await readFile('static/scenarios/05-disconnect-and-resume.json', 'utf8'));
  source.id = 'my-copy';
  const text = JSON.stringify(source, null, 2);
  const lesson = deflateRawSync(Buffer.from(text)).toString('base64url');
  const { page, errors, close } = await openPlayground({ query: `?lesson=${lesson}` });
  try {
    await page.locator('#scenario option:checked', { hasText: '(opened from outside)' }).waitFor({ state: 'attached' });
    const builder = await copyInBuilder(page);
    await passes(builder);
    const file = await download(page, builder);
    assert.equal(file.name, 'my-copy-copy.json');
    assert.deepEqual(JSON.parse(file.text), { ...source, id: 'my-copy-copy' });
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('the builder in both languages, at 1280 and 700 px', async () => {
  for (const width of [1280, 700]) {
    const { page, close } = await openPlayground({ width, query: '?scenario=disconnect-and-resume' });
    try {
      const builder = await copyInBuilder(page);
      await passes(builder);
      await builder.scrollIntoViewIfNeeded();
      await screenshot(page, `builder-en-${width}`, { fullPage: false });
      await switchToKorean(page);
      await page.getByRole('region', { name: '레슨 만들기' }).getByRole('status').waitFor();
      await screenshot(page, `builder-ko-${width}`, { fullPage: false });
    } finally {
      await close();
    }
  }
});
