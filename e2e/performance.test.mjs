// @ts-check
// Speed figures of the page with 5,000 extra Pods: a step forward or back (target: its cost,
// script and rendering, within one 16 ms frame) and scrubbing to any step of a 10,000-step run
// (target: ≤ 100 ms). Measured and printed; no timing is asserted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPlayground } from './browser.mjs';

/// Clicks a button (or sets the timeline) in the page and measures: the step's work (the
/// update and the drawing, until the next task runs); the step's cost, its work and the
/// rendering (style, layout and paint) of the frame that shows it, which is what must fit in
/// one 16 ms frame; and the time to the next frame, which also waits for the display's frame
/// clock (up to a frame more, however little the step costs).
function timed(page, what, value) {
  return page.evaluate(async ([what, value]) => {
    const nextTask = () => new Promise((r) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => r();
      channel.port2.postMessage(0);
    });
    const t0 = performance.now();
    if (what === 'scrub') {
      const slider = /** @type {HTMLInputElement} */ (document.getElementById('timeline'));
      slider.value = String(value);
      slider.dispatchEvent(new InputEvent('input', { bubbles: true }));
    } else {
      [...document.querySelectorAll('button')].find((b) => b.textContent === what).click();
    }
    await nextTask();
    const work = performance.now() - t0;
    await new Promise((r) => requestAnimationFrame(() => r()));
    const frame = performance.now() - t0;
    // A task queued from the frame's callback runs once that frame is rendered.
    await nextTask();
    const cost = work + (performance.now() - t0 - frame);
    return { work, cost, frame };
  }, [what, value]);
}

async function repeat(page, n, what, value) {
  const samples = [];
  for (let i = 0; i < n; i++) samples.push(await timed(page, what, typeof value === 'function' ? value(i) : value));
  return samples;
}

const quantiles = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(1);
  return `median ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${sorted[sorted.length - 1].toFixed(1)} ms`;
};
const summary = (samples) =>
  `${samples.length} samples; cost (work and rendering) ${quantiles(samples.map((s) => s.cost))}; work ${quantiles(samples.map((s) => s.work))}; to the next frame ${quantiles(samples.map((s) => s.frame))}`;

// Steps of the 10,000-step run to scrub to, spread over it in no order.
const scrubTarget = (i) => (i * 7919 + 7044) % 9990 + 5;

test('stepping and scrubbing with 5,000 objects (figures printed)', async () => {
  const { page, errors, close } = await openPlayground({ query: '?objects=5000' });
  try {
    const pods = await page.getByRole('table', { name: 'Objects' }).textContent();
    assert.match(pods, /… and \d+ more/, 'a large collection is summarised');
    const forward = await repeat(page, 60, 'Step forward');
    const back = await repeat(page, 40, 'Step back');
    assert.match(await page.getByTestId('current-step').textContent(), /^#20 /);
    const [run] = await repeat(page, 1, 'scrub', 10_000);
    assert.match(await page.getByTestId('current-step').textContent(), /^#10000 /);
    const scrubs = await repeat(page, 40, 'scrub', scrubTarget);
    assert.match(await page.getByTestId('current-step').textContent(), new RegExp(`^#${scrubTarget(39)} `));
    const deepForward = await repeat(page, 40, 'Step forward');
    const deepBack = await repeat(page, 40, 'Step back');
    console.log(`5000 objects, first steps: forward ${summary(forward)}`);
    console.log(`5000 objects, first steps: back ${summary(back)}`);
    console.log(`5000 objects, caches full (from step ${scrubTarget(39)}): forward ${summary(deepForward)}`);
    console.log(`5000 objects, caches full: back ${summary(deepBack)}`);
    console.log(`first run to step 10000: ${run.frame.toFixed(0)} ms; scrub within it: ${summary(scrubs)}`);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});
