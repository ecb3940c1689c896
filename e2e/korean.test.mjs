// @ts-check
// A Korean page shows none of the page's own English: every sentence of the phrasebook
// (crates/sim/src/i18n/ko.rs) that has a Korean of its own is looked for in what the page
// shows, outside what stays in English on purpose (upstream's log lines, kubectl's output,
// object names, code) — on a page opened in Korean, and on one switched to Korean with
// messages on screen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { openPlayground, switchToKorean } from './browser.mjs';

const PHRASEBOOK = await readFile(new URL('../crates/sim/src/i18n/ko.rs', import.meta.url), 'utf8');

/// The phrasebook's English whose Korean differs, as the parts a page would show of it: each
/// sentence cut at its placeholders, the parts of at least 8 letters with a space (so a word
/// kept in English inside Korean is not mistaken for one).
const ENGLISH = [...new Set([...PHRASEBOOK.matchAll(/^\s*\("((?:[^"\\]|\\.)*)",\s*"((?:[^"\\]|\\.)*)"\),?$/gm)]
  .map(([, english, korean]) => [english.replace(/\\"/g, '"'), korean.replace(/\\"/g, '"')])
  .filter(([english, korean]) => english !== korean)
  .flatMap(([english, korean]) => english.split(/\{[a-z_]+\}/).map((part) => part.trim()).filter((part) => part.includes(' ') && part.length >= 8 && !korean.includes(part))))];

/// What the page shows a person, less what stays in English on purpose.
async function shownText(page) {
  return page.evaluate(() => {
    const kept = '[role=log], pre, code, kbd, samp, body [lang=en], [data-first-screen], script, style, [hidden]';
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const parts = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node.parentElement;
      if (!element || element.closest(kept) || element.closest('[aria-hidden=true]')) continue;
      parts.push(node.textContent ?? '');
    }
    const labels = [...document.querySelectorAll('[aria-label], [title], [placeholder]')]
      .filter((e) => !e.closest(kept))
      .flatMap((e) => ['aria-label', 'title', 'placeholder'].map((a) => e.getAttribute(a) ?? ''));
    return [...parts, ...labels].join('\n');
  });
}

function englishIn(text) {
  return ENGLISH.filter((sentence) => text.includes(sentence));
}

test('the phrasebook reader finds the sentences the test looks for', () => {
  assert.ok(ENGLISH.length > 150, `${ENGLISH.length} sentences`);
  assert.ok(ENGLISH.includes('Step forward'), 'a control');
  assert.deepEqual(englishIn('… Step forward …'), ['Step forward'], 'one found where it is');
});

test('a page opened in Korean shows no English of its own: a lesson half-way, its inspector and its question', async () => {
  const { page, errors, close } = await openPlayground({ query: '?scenario=stale-read&step=12&lang=ko' });
  try {
    await page.getByRole('button', { name: '한 단계 앞으로' }).waitFor();
    assert.deepEqual(englishIn(await shownText(page)), []);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('a page switched to Korean with messages on screen shows no English of its own', async () => {
  const { page, errors, close } = await openPlayground({ query: '?scenario=sandbox&lang=en' });
  try {
    // A manifest the playground refuses with words of its own: the message stays on screen.
    await page.getByLabel('Manifest (JSON)').fill('['.repeat(80) + ']'.repeat(80));
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    const message = page.locator('.write-panel .message.failed');
    assert.match(await message.textContent() ?? '', /nests deeper than 64 levels/);
    assert.ok(englishIn(await shownText(page)).includes('the manifest nests deeper than'), 'in English the page says its own words');
    await switchToKorean(page);
    await page.getByRole('button', { name: '한 단계 앞으로' }).waitFor();
    assert.doesNotMatch(await message.textContent() ?? '', /nests deeper/, 'the message is said again in Korean');
    assert.deepEqual(englishIn(await shownText(page)), []);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});
