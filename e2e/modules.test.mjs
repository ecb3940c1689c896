// @ts-check
// The page in modules: what the first step needs arrives first, and each later module when it
// is first asked for, online and offline (the service worker keeps every module and chunk); a
// module that cannot arrive says so, the rest of the page goes on, and asking again fetches it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DIST, live, openPlayground } from './browser.mjs';
import { chunksOf, OPENING_MODULES } from '../scripts/split-chunks.mjs';

/** The later module a file's address names (`…/split_share-<hash>.wasm` → share), if any. */
const moduleNamed = (/** @type {string} */ url) => /\/split_([a-z]+)-[0-9a-f]+\.wasm$/.exec(url)?.[1];

/** The later modules' files a page asked for, by module name. */
function modulesAsked(page) {
  /** @type {string[]} */
  const asked = [];
  page.on('request', (/** @type {import('playwright-core').Request} */ r) => {
    const name = moduleNamed(r.url());
    if (name) asked.push(name);
  });
  return asked;
}

test('the modules the page draws without are asked for once it is live, never on its way there', async () => {
  const { page, errors, close } = await openPlayground({ ready: false });
  try {
    // When the page is marked live, from navigation, as the page's own scripts see it; and
    // the wasm files fetched before the microtasks queued in the task that marks it live have
    // run (each fetch costs the main thread a few milliseconds on a phone: in that task, they
    // made it one long task).
    await page.addInitScript(() => {
      const seen = /** @type {any} */ (window);
      seen.fetchedAsLive = [];
      let marking = false;
      new MutationObserver((_, watch) => {
        if (!document.documentElement?.hasAttribute('data-live')) return;
        seen.liveAt = performance.now();
        watch.disconnect();
        marking = true;
        queueMicrotask(() => Promise.resolve().then(() => (marking = false)));
      }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-live'] });
      const fetch = window.fetch;
      window.fetch = function (input, init) {
        const url = input instanceof Request ? input.url : String(input);
        if (marking && /\.wasm$/.test(url)) seen.fetchedAsLive.push(url.replace(/^.*\//, ''));
        return fetch.call(this, input, init);
      };
    });
    await page.reload();
    await live(page);
    await page.getByRole('textbox', { name: 'kubectl' }).waitFor();
    await page.locator('dl.costs').waitFor();
    const { liveAt, fetchedAsLive, fetched } = await page.evaluate(() => ({
      liveAt: /** @type {any} */ (window).liveAt,
      fetchedAsLive: /** @type {any} */ (window).fetchedAsLive,
      fetched: performance.getEntriesByType('resource').map((entry) => ({ url: entry.name, at: entry.startTime })),
    }));
    const asked = fetched.map(({ url, at }) => ({ module: moduleNamed(url), at })).filter((a) => a.module);
    assert.equal(typeof liveAt, 'number', 'the page was marked live');
    assert.deepEqual(asked.map((a) => a.module).sort(), ['console', 'figures']);
    for (const { module, at } of asked) assert.ok(at >= liveAt, `${module} asked for at ${at} ms, before the page was live at ${liveAt} ms`);
    assert.deepEqual(fetchedAsLive, [], 'no module fetched in the task that marks the page live');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('each later module is fetched the first time it is asked for, once, and works', async () => {
  const { page, errors, close } = await openPlayground({ ready: false });
  const asked = modulesAsked(page);
  try {
    await live(page);
    // The console and the figures arrive while the reader reads: their panels wait for them.
    await page.getByRole('textbox', { name: 'kubectl' }).waitFor();
    await page.locator('dl.costs').waitFor();
    assert.deepEqual([...asked].sort(), ['console', 'figures'], 'only what the page draws is fetched once live');
    // The servers' inspectors draw their tables from the same module: etcd's revisions, the
    // API server's metrics.
    await page.getByRole('button', { name: 'Inspect etcd' }).click();
    await page.locator('table.timeline').filter({ hasText: 'empty store: the first write is revision 2' }).waitFor();
    await page.getByRole('button', { name: 'Inspect API server' }).click();
    await page.locator('.metrics table').first().waitFor();
    await page.getByRole('textbox', { name: 'kubectl' }).fill('kubectl get pods');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.locator('.transcript').filter({ hasText: 'NAME' }).waitFor();
    // Share: fetched when it opens.
    await page.getByRole('button', { name: 'Share' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Copy the link' }).waitFor();
    assert.ok(asked.includes('share'));
    await page.keyboard.press('Escape');
    // The comparison: fetched when a second release is shown.
    await page.getByLabel('Compare with').selectOption('1.30');
    await page.locator('.compare-column').first().waitFor();
    // The guide.
    await page.getByRole('button', { name: 'Guide' }).click();
    await page.getByRole('heading', { name: "Facilitator's guide" }).waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    await page.getByRole('button', { name: 'Share' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Copy the link' }).waitFor();
    assert.deepEqual([...asked].sort(), ['compare', 'console', 'figures', 'guide', 'share'], 'each once');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('a module that cannot arrive says so (a panel, a dialog, the language switch), the page goes on, and asking again fetches it', async () => {
  const { page, close } = await openPlayground({ ready: false });
  try {
    await page.route(/\/split_(share|console|figures|korean)-[0-9a-f]+\.wasm$/, (route) => route.abort('internetdisconnected'));
    await live(page);
    // A panel: the console says it could not arrive, with a way to try again.
    const console = page.getByRole('region', { name: 'Console' }).getByRole('alert').filter({ hasText: 'Could not load the console' });
    await console.waitFor();
    const figures = page.locator('.faults-panel').getByRole('alert').filter({ hasText: 'Could not load the figures' });
    await figures.waitFor();
    // A dialog: Share says so too, and closes as any dialog.
    await page.getByRole('button', { name: 'Share' }).click();
    await page.getByRole('alert').filter({ hasText: 'Could not load Share' }).waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    // The language switch says so beside it.
    await page.getByRole('button', { name: '한국어' }).click();
    const korean = page.getByRole('alert').filter({ hasText: 'Could not load Korean' });
    await korean.waitFor();
    // The rest of the page answers.
    await page.getByRole('button', { name: 'Step forward' }).click();
    await page.locator('.step-count').filter({ hasText: /step 1\b/ }).waitFor();
    // The network back, asking again fetches each: the button, and opening the dialog again.
    await page.unroute(/\/split_(share|console|figures|korean)-[0-9a-f]+\.wasm$/);
    await console.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('textbox', { name: 'kubectl' }).waitFor();
    await figures.getByRole('button', { name: 'Try again' }).click();
    await page.locator('dl.costs').waitFor();
    await page.getByRole('button', { name: 'Share' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Copy the link' }).waitFor();
    await page.keyboard.press('Escape');
    // Korean, asked for again, arrives, and the switch that waited for it happens.
    await korean.getByRole('button', { name: 'Try again' }).click();
    await page.waitForSelector('html[lang="ko"]');
  } finally {
    await close();
  }
});

test('a module the page opens with that cannot arrive stops the start with the page\'s notice, and Reload starts it', async () => {
  const cases = [
    ['?scenario=stale-read&lang=ko', 'korean', '플레이그라운드를 시작하지 못했습니다', '다시 불러오기'],
    ['?actions=x', 'recorded', 'The playground could not start', 'Reload'],
    ['?lesson=x', 'opener', 'The playground could not start', 'Reload'],
  ];
  for (const [query, module, says, reload] of cases) {
    const { page, close } = await openPlayground({ ready: false });
    try {
      const refused = new RegExp(`/split_${module}-[0-9a-f]+\\.wasm$`);
      await page.route(refused, (route) => route.abort('internetdisconnected'));
      await page.goto(new URL(query, page.url()).href);
      await page.locator('#start-failed').filter({ hasText: says }).waitFor();
      assert.equal(await page.locator('html[data-live]').count(), 0, `${module}: not live`);
      // The network back, the notice's link reloads the page, which starts.
      await page.unroute(refused);
      await page.locator('#start-failed').getByRole('link', { name: reload }).click();
      await live(page);
    } finally {
      await close();
    }
  }
});

test('a module that waits says so in the page language: Korean', async () => {
  const { page, close } = await openPlayground({ ready: false, query: '?lang=ko' });
  try {
    /** @type {(value?: unknown) => void} */
    let release = () => {};
    const held = new Promise((go) => (release = go));
    await page.route(/\/split_console-[0-9a-f]+\.wasm$/, async (route) => {
      await held;
      await route.continue();
    });
    await live(page);
    await page.getByRole('status').filter({ hasText: '콘솔 불러오는 중…' }).first().waitFor();
    release();
    await page.getByRole('textbox', { name: 'kubectl' }).waitFor();
  } finally {
    await close();
  }
});

/** What the split loader would ask for on `module`'s first use: the module and its chunks. */
function moduleFiles(module) {
  const loader = readdirSync(DIST).find((f) => /^split-[0-9a-f]+\.js$/.test(f)) ?? '';
  const file = readdirSync(DIST).find((f) => f.startsWith(`split_${module}-`) && f.endsWith('.wasm'));
  return [file, ...chunksOf(readFileSync(join(DIST, loader), 'utf8'), module)];
}

test('a link asks for the later modules it needs from its start, with their chunks, beside the first module', async () => {
  const links = { korean: '?scenario=stale-read&lang=ko', recorded: '?actions=x', opener: '?lesson=x', room: '?room=x', live: '?live=x' };
  assert.deepEqual(Object.keys(links).sort(), [...OPENING_MODULES].sort());
  const { page, errors, close } = await openPlayground({ ready: false, query: links.korean });
  try {
    /** @type {(value?: unknown) => void} */
    let release = () => {};
    const held = new Promise((go) => (release = go));
    // The first module is held back: what is asked for meanwhile, the page asked for by itself.
    await page.route(/\/informer-web-[0-9a-f]+_bg\.wasm$/, async (route) => {
      await held;
      // (A request of a page navigated away from is gone by then.)
      await route.continue().catch(() => {});
    });
    /** @type {Set<string>} */
    const asked = new Set();
    page.on('request', (r) => asked.add(new URL(r.url()).pathname.split('/').pop() ?? ''));
    for (const [module, query] of Object.entries(links)) {
      const needed = moduleFiles(module);
      if (module === 'korean') assert.ok(needed.length > 1, `the phrasebook imports shared chunks: ${needed.join(', ')}`);
      asked.clear();
      await page.goto(new URL(query, page.url()).href, { waitUntil: 'domcontentloaded' });
      const listed = await page.evaluate(async (m) => {
        const named = document.documentElement.dataset.openingModules ?? '';
        return (await (await fetch(named)).json())[m];
      }, module);
      assert.deepEqual([...(listed ?? [])].sort(), [...needed].sort(), `the page lists ${module} and its chunks`);
      for (let tries = 0; needed.some((f) => !asked.has(f ?? '')) && tries < 200; tries++) await page.waitForTimeout(50);
      assert.deepEqual(needed.filter((f) => !asked.has(f ?? '')), [], `${module}: asked for before the first module arrived`);
    }
    // Let through, a Korean lesson opens in Korean.
    await page.goto(new URL(links.korean, page.url()).href, { waitUntil: 'commit' });
    release();
    await live(page);
    await page.waitForSelector('html[lang="ko"]');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('offline after one visit, every later module still arrives (the worker keeps them)', async () => {
  const { page, errors, close } = await openPlayground({ serviceWorkers: 'allow' });
  const later = readdirSync(DIST).flatMap((f) => moduleNamed(`/${f}`) ?? []);
  assert.equal(later.length, 12, `the bundle's later modules: ${later.join(', ')}`);
  try {
    const kept = await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
      const names = await caches.keys();
      const cache = await caches.open(names.find((n) => n.startsWith('informer-playground-')) ?? '');
      return (await cache.keys()).map((r) => new URL(r.url).pathname.split('/').pop());
    });
    for (const file of readdirSync(DIST).filter((f) => /^(split|chunk)_.*\.wasm$/.test(f))) {
      assert.ok(kept.includes(file), `the worker keeps ${file}`);
    }
    await page.context().setOffline(true);
    // Each module that arrives with the network down, from the worker (frames' included).
    /** @type {Set<string>} */
    const arrived = new Set();
    page.on('response', (r) => {
      const module = moduleNamed(r.url());
      if (module && r.ok() && r.fromServiceWorker()) arrived.add(module);
    });
    await page.reload();
    await live(page);
    await page.getByRole('textbox', { name: 'kubectl' }).waitFor();
    await page.locator('dl.costs').waitFor();
    await page.getByRole('button', { name: 'Share' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Copy the link' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Guide' }).click();
    await page.getByRole('heading', { name: "Facilitator's guide" }).waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    await page.getByLabel('Compare with').selectOption('1.30');
    await page.locator('.compare-column').first().waitFor();
    await page.getByRole('button', { name: 'Open a lesson…' }).click();
    await page.getByRole('dialog', { name: 'Open a lesson' }).getByLabel('Choose a lesson file, or drop it here').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Write a lesson' }).click();
    await page.getByRole('region', { name: 'Lesson builder' }).getByRole('button', { name: 'Copy the lesson on the stage' }).waitFor();
    await page.getByRole('button', { name: '한국어' }).click();
    await page.waitForSelector('html[lang="ko"]');
    // The modules a link opens with: each reads the link (here, what is wrong with it) or joins.
    const opens = async (/** @type {string} */ query, /** @type {import('playwright-core').Locator} */ shown) => {
      await page.goto(new URL(query, page.url()).href);
      await live(page);
      await shown.waitFor();
    };
    const notice = page.locator('.notices');
    await opens('?actions=x&lang=en', notice.filter({ hasText: 'the recorded actions cannot be replayed' }));
    await opens('?lesson=x&lang=en', notice.filter({ hasText: 'the lesson could not be opened' }));
    await opens('?room=x&lang=en', page.locator('.room').filter({ hasText: 'Room x' }));
    await opens(`?live=${'0'.repeat(32)}&lang=en`, page.locator('.live-bar').filter({ hasText: 'The live feed was lost' }));
    // The host page's commands: the page in another page's frame.
    await page.evaluate(() => {
      const frame = Object.assign(document.createElement('iframe'), { src: '?embed=1', title: 'embedded' });
      document.body.append(frame);
    });
    await page.frameLocator('iframe[title="embedded"]').locator('html[data-live]').waitFor({ state: 'attached' });
    for (let tries = 0; !arrived.has('host') && tries < 100; tries++) await page.waitForTimeout(50);
    assert.deepEqual(later.filter((m) => !arrived.has(m)), [], `every later module arrived offline: ${[...arrived].join(', ')}`);
    assert.equal(await page.locator('.module-failed').count(), 0, 'no module said it could not load');
    assert.deepEqual(errors.filter((e) => !/ERR_INTERNET_DISCONNECTED|ERR_FAILED|Failed to load resource/.test(e)), []);
  } finally {
    await close();
  }
});
