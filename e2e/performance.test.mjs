// Speed figures of the page with 5,000 extra Pods: a step forward or back (target: within one
// 16 ms frame) and scrubbing to any step of a 10,000-step run (target: ≤ 100 ms). Measured and
// printed; no timing is asserted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPlayground } from './browser.mjs';

/// Clicks a button (or sets the timeline) in the page and measures until the next frame.
function timed(page, what, value) {
  return page.evaluate(async ([what, value]) => {
    const t0 = performance.now();
    if (what === 'scrub') {
      const slider = document.getElementById('timeline');
      slider.value = String(value);
      slider.dispatchEvent(new InputEvent('input', { bubbles: true }));
    } else {
      [...document.querySelectorAll('button')].find((b) => b.textContent === what).click();
    }
    await new Promise((r) => requestAnimationFrame(() => r()));
    return performance.now() - t0;
  }, [what, value]);
}

const summary = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(1);
  return `median ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${sorted[sorted.length - 1].toFixed(1)} ms`;
};

test('stepping and scrubbing with 5,000 objects (figures printed)', async () => {
  const { page, errors, close } = await openPlayground({ query: '?objects=5000' });
  try {
    const pods = await page.getByRole('table', { name: 'Objects' }).textContent();
    assert.match(pods, /… and \d+ more/, 'a large collection is summarised');
    const forward = [];
    for (let i = 0; i < 40; i++) forward.push(await timed(page, 'Step forward'));
    const back = [];
    for (let i = 0; i < 20; i++) back.push(await timed(page, 'Step back'));
    const run = await timed(page, 'scrub', 10_000);
    assert.match(await page.getByTestId('current-step').textContent(), /^#10000 /);
    const scrubs = [];
    for (const step of [2500, 9000, 500, 7500, 9990, 4000, 100, 6200]) {
      scrubs.push(await timed(page, 'scrub', step));
      assert.match(await page.getByTestId('current-step').textContent(), new RegExp(`^#${step} `));
    }
    const deepForward = [];
    const deepBack = [];
    for (let i = 0; i < 20; i++) deepForward.push(await timed(page, 'Step forward'));
    for (let i = 0; i < 20; i++) deepBack.push(await timed(page, 'Step back'));
    console.log(`5000 objects, first steps: forward ${summary(forward)}; back ${summary(back)}`);
    console.log(`5000 objects, caches full (step ~6200): forward ${summary(deepForward)}; back ${summary(deepBack)}`);
    console.log(`first run to step 10000: ${run.toFixed(0)} ms; scrub within it: ${summary(scrubs)}`);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});
