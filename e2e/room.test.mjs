// @ts-check
// A workshop room (`informer-playground room`, `make room`) in Chromium on loopback: a
// facilitator's page, the projector's and three attendees' (one Korean). The attendees follow
// the facilitator's steps and vote; the projector shows only how many answered until Reveal;
// the server is stopped and started mid-vote and no vote is lost; a second vote; an attendee
// steps away and comes back; the report lists both votes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { DIST, launchChromium, live, screenshot } from './browser.mjs';

const SERVER = process.env.ROOM_SERVER ?? 'target/debug/informer-playground';

/// Starts the room's server and reads its links from what it prints.
function startRoom(args) {
  const room = spawn(SERVER, ['room', '--dist', DIST, ...args]);
  let out = '';
  const links = new Promise((found, fail) => {
    room.stdout.on('data', (chunk) => {
      out += chunk;
      if (!/Ctrl-C/.test(out)) return;
      const urls = [...out.matchAll(/(http:\/\/\S+)/g)].map((m) => m[1]);
      const facilitator = urls.find((u) => /key=/.test(u));
      const projector = urls.find((u) => /view=projector/.test(u));
      const attendee = urls.find((u) => u !== facilitator && u !== projector);
      found({ attendee, facilitator, projector, out });
    });
    room.on('exit', (code) => fail(new Error(`the room's server exited ${code}: ${out}`)));
  });
  const stopped = new Promise((done) => room.on('exit', done));
  return { links, stop: async () => { room.kill('SIGINT'); await stopped; } };
}

test('the room prints its three links with QR codes, on a network address when there is one', async () => {
  const room = startRoom(['--port', '0']);
  try {
    const { attendee, facilitator, projector, out } = await room.links;
    assert.match(facilitator, /key=[0-9a-f]{32}$/, 'a key of 128 bits');
    assert.match(projector, /view=projector$/);
    assert.doesNotMatch(projector, /key=/, 'nothing on the projector can act');
    assert.ok(out.split('\n').filter((l) => /^[█▀▄ ]+$/.test(l)).length >= 20, 'the QR codes are drawn');
    if (!/127\.0\.0\.1/.test(attendee)) assert.doesNotMatch(out, /only this machine/);
    const page = await fetch(attendee);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-security-policy') ?? '', /script-src 'self'/);
  } finally {
    await room.stop();
  }
});

test('a room follows the facilitator, votes twice, survives a restart and leaves a report', async () => {
  const journal = join(mkdtempSync(join(tmpdir(), 'room-')), 'room.jsonl');
  let room = startRoom(['--address', '127.0.0.1', '--port', '0', '--journal', journal]);
  let links = await room.links;
  const port = new URL(links.attendee).port;
  const browser = await launchChromium();
  const errors = [];
  /** @param {string} url @param {{ width?: number, height?: number }} [size] */
  const open = async (url, { width = 1280, height = 720 } = {}) => {
    // A context each: an attendee's id is kept on their own device.
    const context = await browser.newContext({ viewport: { width, height }, serviceWorkers: 'block' });
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(url);
    await live(page);
    return page;
  };
  try {
    let facilitator = await open(`${links.facilitator}&scenario=cache-scope&era=1.37`);
    await facilitator.getByText(/0 connected · 0 following|connected ·/).waitFor();
    // (The address follows the state once it has rested: wait for that, not for a time.)
    await facilitator.waitForURL((url) => !/key=/.test(url.search));
    assert.doesNotMatch(facilitator.url(), /key=/, "the facilitator's key leaves the address");
    const projector = await open(links.projector);
    const attendees = [
      await open(links.attendee, { width: 390, height: 844 }),
      await open(links.attendee),
      await open(`${links.attendee}&lang=ko`, { width: 390, height: 844 }),
    ];
    const [first, second, korean] = attendees;
    await korean.waitForSelector('html[lang="ko"]');
    for (const page of [...attendees, projector]) await page.waitForURL(/scenario=cache-scope/);
    await facilitator.getByText('3 connected · 3 following').waitFor();

    // The facilitator steps to the question; every page follows.
    await facilitator.getByRole('button', { name: 'Step forward' }).click();
    for (const page of [...attendees, projector]) await page.locator('.step-count').filter({ hasText: /\b1\b/ }).waitFor();
    await facilitator.getByRole('button', { name: /^Open the vote/ }).first().click();
    const vote = (page, name = "The room's vote, round 1") => page.getByRole('group', { name });
    await vote(first).locator('button.choice').nth(0).click();
    await vote(second).locator('button.choice').nth(1).click();
    await first.getByText('Your vote is in').waitFor();
    await projector.getByText('Vote 1: 2 of 3 answered').waitFor();
    assert.equal(await projector.locator('.histogram').count(), 0, 'no histogram on the projector before Reveal');
    await screenshot(projector, 'room-projector-counts-1280', { fullPage: false });

    // The server stops mid-vote and starts again on the same port from its journal.
    await room.stop();
    await first.getByText('Reconnecting to the room…').waitFor();
    room = startRoom(['--address', '127.0.0.1', '--port', port, '--journal', journal]);
    links = await room.links;
    await vote(korean, '방의 1차 투표').locator('button.choice').nth(1).click();
    await korean.getByText('투표했습니다').waitFor();
    await projector.getByText('Vote 1: 3 of 3 answered').waitFor();
    // The key is drawn anew at each start: the facilitator opens the link printed now.
    await facilitator.close();
    facilitator = await open(`${links.facilitator}&scenario=cache-scope&era=1.37&step=1`);
    await facilitator.getByText('Vote 1: 3 of 3 answered').waitFor();
    await screenshot(facilitator, 'room-facilitator-1280');

    // Closed, discussed, voted again, revealed.
    await facilitator.getByRole('button', { name: 'Close the vote' }).click();
    await first.getByText('The vote is closed').waitFor();
    assert.equal(await vote(first).locator('button.choice').nth(1).isDisabled(), true, 'a closed vote takes no change');
    await facilitator.getByRole('button', { name: 'Vote again' }).click();
    for (const page of [first, second]) await vote(page, "The room's vote, round 2").locator('button.choice').nth(1).click();
    await vote(korean, '방의 2차 투표').locator('button.choice').nth(1).click();
    await projector.getByText('Vote 2: 3 of 3 answered').waitFor();
    await facilitator.getByRole('button', { name: 'Reveal' }).click();
    await projector.locator('.histogram').waitFor();
    assert.match(await projector.locator('.histogram').textContent() ?? '', /the right answer/);
    assert.match(await projector.locator('.histogram').textContent() ?? '', /vote 2: /, 'both rounds are shown');
    await screenshot(projector, 'room-projector-revealed-1280', { fullPage: false });
    await screenshot(korean, 'room-attendee-ko-390', { fullPage: false });
    // On a phone the stage is drawn tall: its smallest words (what a box holds, 18 units) at
    // 12 CSS px or more.
    const smallest = await first.locator('svg.pipeline').evaluate((/** @type {SVGSVGElement} */ svg) => (svg.getBoundingClientRect().width / svg.viewBox.baseVal.width) * 18);
    assert.ok(smallest >= 12, `the stage's smallest words at ${smallest.toFixed(1)} px on a 390 px phone`);
    await screenshot(first, 'room-attendee-en-390', { fullPage: false });

    // An attendee steps away and comes back.
    await second.getByRole('button', { name: 'Step forward' }).click();
    await second.getByText('You stepped away from the room.').waitFor();
    await facilitator.getByText('3 connected · 2 following').waitFor();
    await facilitator.getByRole('button', { name: 'Step forward' }).click();
    await facilitator.getByRole('button', { name: 'Step forward' }).click();
    await second.getByRole('button', { name: 'Back to the room' }).click();
    await second.locator('.step-count').filter({ hasText: /\b3\b/ }).waitFor();
    await facilitator.getByText('3 connected · 3 following').waitFor();

    // The report: both votes beside the right answer.
    const key = new URL(links.facilitator).searchParams.get('key');
    const report = await (await fetch(`http://127.0.0.1:${port}/room/${new URL(links.attendee).searchParams.get('room')}/report.json?key=${key}`)).json();
    assert.equal(report.questions.length, 1);
    assert.equal(report.questions[0].rounds.length, 2);
    assert.deepEqual(report.questions[0].rounds[0].reduce((a, b) => a + b, 0), 3);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await room.stop();
  }
});

test('a lesson the facilitator opened from outside is brought to the room: pages follow into it and vote', async () => {
  const room = startRoom(['--address', '127.0.0.1', '--port', '0']);
  const links = await room.links;
  const source = JSON.parse(readFileSync('static/scenarios/16-cache-scope.json', 'utf8'));
  source.id = 'our-scope';
  const lesson = deflateRawSync(Buffer.from(JSON.stringify(source))).toString('base64url');
  const browser = await launchChromium();
  const errors = [];
  try {
    /** @param {string} url @param {{ width?: number, height?: number }} [size] */
    const open = async (url, { width = 1280, height = 720 } = {}) => {
      const page = await (await browser.newContext({ viewport: { width, height }, serviceWorkers: 'block' })).newPage();
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.goto(url);
      await live(page);
      return page;
    };
    const attendee = await open(links.attendee, { width: 390, height: 844 });
    const korean = await open(`${links.attendee}&lang=ko`);
    const facilitator = await open(`${links.facilitator}&lesson=${lesson}`);
    await facilitator.getByText('2 connected · 2 following').waitFor();
    for (const [page, mark] of /** @type {[import('playwright-core').Page, string][]} */ ([[attendee, '(opened from outside)'], [korean, '(외부에서 연 레슨)']])) {
      await page.waitForURL(/scenario=our-scope/);
      await page.locator('#scenario option:checked', { hasText: mark }).waitFor({ state: 'attached' });
    }
    await facilitator.getByRole('button', { name: 'Step forward' }).click();
    await attendee.locator('.step-count').filter({ hasText: /\b1\b/ }).waitFor();
    await facilitator.getByRole('button', { name: /^Open the vote/ }).first().click();
    await attendee.getByRole('group', { name: "The room's vote, round 1" }).locator('button.choice').nth(0).click();
    await korean.getByRole('group', { name: '방의 1차 투표' }).locator('button.choice').nth(1).click();
    await facilitator.getByText('Vote 1: 2 of 2 answered').waitFor();
    assert.equal(await facilitator.locator('.room-refused').count(), 0, 'nothing refused');
    await screenshot(attendee, 'room-outside-lesson-attendee-390', { fullPage: false });
    await screenshot(korean, 'room-outside-lesson-attendee-ko-1280', { fullPage: false });
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await room.stop();
  }
});
