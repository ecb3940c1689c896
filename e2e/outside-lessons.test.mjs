// @ts-check
// Lessons from outside the bundle, as an author opens them: a file chosen in Open a lesson, a
// link that carries the lesson, an address on another site, an embed on another origin — each
// plays the same trace and shows the same texts. Broken lessons of many kinds are refused with
// the reasons `informer-playground validate` gives for the same file, and the page goes on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { DIST, launchChromium, live, screenshot, switchToKorean } from './browser.mjs';
import { serve, STRICT_CSP } from '../scripts/static_server.mjs';

const CLI = 'target/debug/informer-playground';

/// Lesson 05 as an author's copy (its own id), with `change` made to its JSON.
async function copyOf05(change = (_json) => {}) {
  const json = JSON.parse(await readFile('static/scenarios/05-disconnect-and-resume.json', 'utf8'));
  json.id = 'my-copy';
  change(json);
  return JSON.stringify(json, null, 2);
}

/// What `validate` says of a file: its reasons, one a line (none when it passes).
function validate(dir, name) {
  try {
    execFileSync(join(process.cwd(), CLI), ['validate', name], { cwd: dir, stdio: 'pipe' });
    return [];
  } catch (e) {
    return String(e.stderr).trim().replace(/^error: /, '').split('\n');
  }
}

const carried = (text) => deflateRawSync(Buffer.from(text)).toString('base64url');

/// The page (served under a CSP that lets it fetch from `lessonHost` as it would from an https
/// address) and a second origin serving lesson files with CORS.
async function twoOrigins(dir) {
  // (The other site's own pages may load the embed's script and frame from anywhere.)
  const lessons = await serve(dir, '/', { csp: 'default-src *', headers: { 'access-control-allow-origin': '*' } });
  const lessonHost = `http://127.0.0.1:${lessons.address().port}`;
  const playground = await serve(DIST, '/', { csp: STRICT_CSP.replace("connect-src 'self' https:", `connect-src 'self' https: ${lessonHost}`) });
  const own = `http://127.0.0.1:${playground.address().port}`;
  const browser = await launchChromium();
  const close = async () => {
    await browser.close();
    lessons.close();
    playground.close();
  };
  return { own, lessonHost, browser, close };
}

/// What the page shows of a lesson after `steps` steps: its title in the picker, the
/// narration, and the event log's lines.
async function shown(page, steps) {
  for (let i = 0; i < steps; i++) await page.getByRole('button', { name: 'Step forward' }).click();
  await page.locator('.step-count').filter({ hasText: new RegExp(`step ${steps}\\b`) }).waitFor();
  return {
    picked: await page.locator('#scenario option:checked').textContent(),
    narration: await page.locator('.narration').first().textContent(),
    log: await page.getByRole('log', { name: 'Event log' }).locator('li').allTextContents(),
  };
}

const BROKEN = {
  'bad-json.json': async () => (await copyOf05()).slice(0, 200),
  'unknown-field.json': () => copyOf05((j) => { j.colour = 'red'; }),
  'no-korean.json': () => copyOf05((j) => { j.title.ko = ''; }),
  'wrong-type.json': () => copyOf05((j) => { j.run.until_ms = 'soon'; }),
  'bad-id.json': () => copyOf05((j) => { j.id = 'My Lesson'; }),
  'unknown-kind.json': () => copyOf05((j) => { j.objects[0].kind = 'Widget'; }),
  'unknown-fault.json': () => copyOf05((j) => { j.timeline[2].fault = 'meteor'; }),
  'timeline-backwards.json': () => copyOf05((j) => { j.timeline[1].at_ms = 1; }),
  'one-choice.json': () => copyOf05((j) => { j.questions[0].choices = j.questions[0].choices.slice(0, 1); }),
  'html-in-a-text.json': () => copyOf05((j) => { j.narration[1].text.en = 'The <b>cache</b> keeps `<none>`'; }),
  'never-in-1-33.json': () => copyOf05((j) => {
    j.eras['1.33'].narration = [{ match: { on: 'Replace', nth: 2 }, text: { ko: '다시 LIST', en: 'A relist' }, claims_none: 'a note' }];
  }),
  'false-claim.json': () => copyOf05((j) => { Object.assign(j.narration[0].claims[0], { at_least: 3, at_most: 3 }); }),
  'expectation-unmet.json': () => copyOf05((j) => { j.expect[0] = { check: 'requests', verb: 'LIST', at_least: 9 }; }),
  'unsolved-challenge.json': () => copyOf05((j) => { j.challenges[0].solution = j.challenges[0].solution.slice(0, 1); }),
  'five-megabytes.json': () => copyOf05((j) => { j.summary.en = 'x'.repeat(5 << 20); }),
  'notes-out-of-order.json': () => copyOf05((j) => { j.narration.reverse(); }),
};

test('a lesson opened from a file, from the link, from an address and in an embed on another origin plays the same', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'lessons-'));
  const text = await copyOf05();
  await writeFile(join(dir, 'my-copy.json'), text);
  assert.deepEqual(validate(dir, 'my-copy.json'), [], 'the copy validates');
  const { own, lessonHost, browser, close } = await twoOrigins(dir);
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 }, serviceWorkers: 'block' });
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${own}/`);
    await live(page);
    // From a file.
    await page.getByRole('button', { name: 'Open a lesson…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Open a lesson' });
    await dialog.getByLabel('Choose a lesson file, or drop it here').setInputFiles(join(dir, 'my-copy.json'));
    await dialog.waitFor({ state: 'detached' });
    const fromFile = await shown(page, 26);
    assert.equal(fromFile.picked, `${JSON.parse(text).title.en} (opened from outside)`);
    // The address now carries the lesson: a link to this moment opens it again.
    await page.waitForURL(/[?&]lesson=/);
    const inLink = new URL(page.url()).searchParams.get('lesson');
    assert.equal(inflateRawSync(Buffer.from(inLink, 'base64url')).toString(), text, 'the file, carried in the link');
    // From a link that carries it, and from an address on another site.
    for (const lesson of [carried(text), `${lessonHost}/my-copy.json`]) {
      await page.goto(`${own}/?lesson=${encodeURIComponent(lesson)}`);
      await live(page);
      assert.deepEqual(await shown(page, 26), fromFile, lesson.slice(0, 40));
    }
    // In an embed on another origin (the docs page's own lesson file, data-lesson-url).
    await writeFile(join(dir, 'docs.html'), `<!doctype html><title>docs</title><link rel="icon" href="data:,">
      <div data-informer-playground="my-copy" data-lesson-url="my-copy.json" data-load="eager"></div>
      <script src="${own}/embed.js"></script>`);
    await page.goto(`${lessonHost}/docs.html`);
    const frame = page.frameLocator('iframe');
    await frame.getByRole('button', { name: 'Step forward' }).waitFor();
    for (let i = 0; i < 26; i++) await frame.getByRole('button', { name: 'Step forward' }).click();
    await frame.locator('.step-count').filter({ hasText: /step 26\b/ }).waitFor();
    assert.equal(await frame.locator('.narration').first().textContent(), fromFile.narration, 'the embed shows the same note');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('a broken lesson is refused with the reasons validate gives, and the page goes on', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'broken-'));
  const files = Object.keys(BROKEN);
  assert.ok(files.length >= 15);
  for (const name of files) await writeFile(join(dir, name), await BROKEN[name]());
  // Two kinds validate has no say in: a file that is no text, and a bundled lesson's id.
  await writeFile(join(dir, 'not-utf8.json'), Buffer.from([0x7b, 0xff, 0xfe, 0x7d]));
  await writeFile(join(dir, 'bundled-id.json'), await copyOf05((j) => { j.id = 'disconnect-and-resume'; }));
  const { own, lessonHost, browser, close } = await twoOrigins(dir);
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 }, serviceWorkers: 'block' });
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${own}/?scenario=stale-read&step=3`);
    await live(page);
    await page.getByRole('button', { name: 'Open a lesson…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Open a lesson' });
    const refusal = async (name) => {
      await dialog.getByLabel('Choose a lesson file, or drop it here').setInputFiles(join(dir, name));
      const alert = dialog.getByRole('alert');
      await alert.filter({ hasText: name }).waitFor();
      return alert.locator('li').allTextContents();
    };
    for (const name of files) {
      const reasons = await validate(dir, name);
      assert.ok(reasons.length > 0 && reasons.every((r) => r.startsWith(`${name}: `)), `${name}: ${reasons}`);
      assert.deepEqual(await refusal(name), reasons, name);
    }
    assert.deepEqual(await refusal('not-utf8.json'), ['not-utf8.json: not UTF-8 text']);
    assert.deepEqual(await refusal('bundled-id.json'), [`bundled-id.json: id: expected an id of the lesson's own: "disconnect-and-resume" is the bundled lesson 05-disconnect-and-resume.json's`]);
    await screenshot(page, 'lesson-refused-1280', { fullPage: false });
    // Nothing of them was loaded: the page is where it was, and steps on.
    await dialog.getByRole('button', { name: 'Close' }).click();
    assert.equal(await page.locator('#scenario').inputValue(), 'stale-read');
    await page.getByRole('button', { name: 'Step forward' }).click();
    await page.locator('.step-count').filter({ hasText: /step 4\b/ }).waitFor();
    // A link to a broken lesson opens the page without it and lists why.
    const unsolved = await readFile(join(dir, 'unsolved-challenge.json'), 'utf8');
    for (const [lesson, first] of [
      [carried(unsolved), 'lesson=: challenges: challenge "cut-it-yourself" in 1.30: the solution does not meet the goal'],
      [`${lessonHost}/five-megabytes.json`, `${lessonHost}/five-megabytes.json: the file is`],
      [`${lessonHost}/missing.json`, `${lessonHost}/missing.json: the host answered HTTP 404`],
      [carried('x'.repeat(400_000)), 'lesson=: the file is'],
    ]) {
      await page.goto(`${own}/?lesson=${encodeURIComponent(lesson)}&scenario=my-copy&step=9`);
      await live(page);
      const notices = page.getByRole('status', { name: 'The link could not be used as it is' });
      assert.match(await notices.textContent(), /the lesson could not be opened:/);
      const reasons = await notices.locator('.reasons li').allTextContents();
      assert.ok(reasons[0].startsWith(first), `${reasons[0]} ≠ ${first}…`);
      assert.equal(await page.locator('#scenario').inputValue(), '', 'free play, not half a lesson');
    }
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('Open a lesson in both languages, at 1280 and 700 px', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'shots-'));
  await writeFile(join(dir, 'false-claim.json'), await BROKEN['false-claim.json']());
  const { own, browser, close } = await twoOrigins(dir);
  try {
    for (const width of [1280, 700]) {
      const page = await browser.newPage({ viewport: { width, height: 720 }, serviceWorkers: 'block' });
      await page.goto(`${own}/`);
      await live(page);
      for (const lang of ['en', 'ko']) {
        if (lang === 'ko') await switchToKorean(page);
        const open = lang === 'en' ? 'Open a lesson…' : '레슨 열기…';
        await page.getByRole('button', { name: open }).click();
        const dialog = page.getByRole('dialog', { name: open.replace('…', '') });
        const picker = lang === 'en' ? 'Choose a lesson file, or drop it here' : '레슨 파일을 고르거나 여기에 끌어다 놓으세요';
        await dialog.getByLabel(picker).setInputFiles(join(dir, 'false-claim.json'));
        await dialog.getByRole('alert').waitFor();
        await screenshot(page, `lesson-opener-${lang}-${width}`, { fullPage: false });
        await dialog.getByRole('button', { name: lang === 'en' ? 'Close' : '닫기' }).click();
      }
      await page.close();
    }
  } finally {
    await close();
  }
});
