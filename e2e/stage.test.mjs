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
    assert.match(page.url(), /scenario=disconnect-and-resume/);

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
