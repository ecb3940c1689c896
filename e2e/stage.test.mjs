// The page in a room: presenter mode, themes and the shortcuts overlay by keyboard, and an
// address that always restores what is on the screen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPlayground, screenshot } from './browser.mjs';

test('presenter mode, the theme and the shortcuts overlay work by keyboard; the address follows the state', async () => {
  const { page, errors, close } = await openPlayground({ query: '?scenario=disconnect-and-resume' });
  try {
    for (let i = 0; i < 3; i++) await page.keyboard.press('PageDown');
    await page.keyboard.press('PageUp');
    await page.waitForFunction(() => location.search.includes('step=2'));
    assert.match(new URL(page.url()).search, /^\?scenario=disconnect-and-resume&/);

    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor();
    assert.match(await help.textContent(), /PageDown/);
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Presenter mode' }).click();
    await page.waitForFunction(() => location.search.includes('present=1'));
    assert.equal(await page.getByRole('heading', { name: 'Event log' }).isVisible(), false, 'presenter mode shows the stage only');
    await page.getByLabel('Theme').selectOption('dark');
    assert.equal(await page.locator('html').getAttribute('data-theme'), 'dark');
    await screenshot(page, 'present-dark-1280');

    // The address restores the same state: the lesson, its step, presenter mode and theme.
    await page.reload();
    await page.getByRole('heading', { name: 'informer-playground' }).waitFor();
    assert.match(await page.locator('.step-count').textContent(), /step 2/);
    assert.equal(await page.getByRole('button', { name: 'Presenter mode' }).getAttribute('aria-pressed'), 'true');
    assert.equal(await page.locator('html').getAttribute('data-theme'), 'dark');

    await page.getByRole('button', { name: '한국어' }).click();
    await page.getByRole('button', { name: '발표 모드' }).waitFor();
    await page.setViewportSize({ width: 700, height: 900 });
    await screenshot(page, 'present-dark-ko-700');
    await page.getByLabel('테마').selectOption('light');
    await page.getByRole('button', { name: '발표 모드' }).click();
    await screenshot(page, 'light-ko-700');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('a documentation page embeds three lessons at their steps and ranges, each sized to its content', async () => {
  const { page, errors, close } = await openPlayground({ page: 'embeds.html', ready: false, width: 900, height: 900 });
  try {
    const frames = page.locator('iframe');
    await page.waitForFunction(() => document.querySelectorAll('iframe').length === 3);
    const korean = page.frameLocator('iframe').nth(0);
    await korean.getByRole('button', { name: '한 단계 앞으로' }).waitFor();
    assert.match(await korean.locator('.step-count').textContent(), /12/);
    const ranged = page.frameLocator('iframe').nth(1);
    await ranged.getByRole('button', { name: 'Step forward' }).waitFor();
    assert.match(await ranged.locator('.step-count').textContent(), /step 14/, 'a range opens at its first step');
    assert.equal(await ranged.getByRole('button', { name: 'Step back' }).isDisabled(), true);
    assert.equal(await ranged.getByLabel('Timeline').getAttribute('max'), '30');
    const full = await ranged.getByRole('link', { name: 'Open in the full playground' }).getAttribute('href');
    assert.match(full, /scenario=delta-fifo-grouping/);
    assert.doesNotMatch(full, /embed|from=|to=/);
    // Each frame is sized from the height it posts.
    await page.waitForFunction(() => [...document.querySelectorAll('iframe')].every((f) => f.style.height !== '520px'));
    const heights = await frames.evaluateAll((fs) => fs.map((f) => parseInt(f.style.height, 10)));
    assert.ok(heights.every((h) => h >= 200 && h < 2000), `heights ${heights}`);
    await page.frameLocator('iframe').nth(2).getByRole('button', { name: 'Step forward' }).waitFor();
    await screenshot(page, 'embeds-900');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});
