// @ts-check
// The page against axe-core's WCAG 2.1 A and AA rules, as a person meets it: a lesson half-way
// (its note, its question, the log, the inspector), in both languages, both themes, on a
// desktop and a phone, and with a dialog open. A violation names its rule and where it is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { openPlayground } from './browser.mjs';

const AXE = await readFile(new URL('../node_modules/axe-core/axe.min.js', import.meta.url), 'utf8');

/// axe-core's violations of WCAG 2.1 A and AA on the page as it stands, each as
/// `rule: target <element…> (summary)`.
async function violations(page) {
  const results = await page.evaluate(async (source) => {
    // The page's policy allows no script of ours; the rules are evaluated as a test harness's code.
    // eslint-disable-next-line no-new-func
    new Function(source)();
    // @ts-ignore: axe is what the source just defined
    return await window.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
  }, AXE);
  return results.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')} ${n.html.slice(0, 80)} (${n.failureSummary?.split('\n')[1]?.trim() ?? v.help})`));
}

const SIZES = [
  { name: '1280×720', width: 1280, height: 720 },
  { name: '390×844', width: 390, height: 844 },
];

for (const lang of ['en', 'ko']) {
  for (const size of SIZES) {
    test(`a lesson half-way meets WCAG 2.1 A and AA in light and dark (${lang}, ${size.name})`, async () => {
      const { page, errors, close } = await openPlayground({ width: size.width, height: size.height, query: `?scenario=stale-read&step=12&lang=${lang}` });
      try {
        for (const colorScheme of /** @type {const} */ (['light', 'dark'])) {
          await page.emulateMedia({ colorScheme });
          assert.deepEqual(await violations(page), [], `${colorScheme}`);
        }
        assert.deepEqual(errors, []);
      } finally {
        await close();
      }
    });
  }
}

test('with a dialog open the page meets WCAG 2.1 A and AA (the guide, en and ko)', async () => {
  for (const lang of ['en', 'ko']) {
    const { page, errors, close } = await openPlayground({ query: `?scenario=list-then-watch&lang=${lang}` });
    try {
      await page.getByRole('button', { name: lang === 'en' ? 'Guide' : '진행 안내', exact: true }).click();
      await page.getByRole('dialog').getByRole('heading', { level: 3 }).first().waitFor();
      assert.deepEqual(await violations(page), [], lang);
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  }
});
