// @ts-check
// The bundle built for a sub-path (`make dist PUBLIC_URL=/playground/`) works there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { openPlayground } from './browser.mjs';

const dist = process.env.SUBPATH_DIST ?? 'target/dist-subpath';

test('the bundle serves from /playground/', { skip: !existsSync(dist) && `no ${dist}: build it with trunk build --release --public-url /playground/ --dist ${dist}` }, async () => {
  const { page, errors, close } = await openPlayground({ dist, base: '/playground/' });
  try {
    await page.getByRole('button', { name: 'Step forward' }).click();
    assert.match(await page.getByTestId('current-step').textContent(), /^#1 /);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});
