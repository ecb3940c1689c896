// @ts-check
// Runs before the body is drawn: the build-time first screen is the default view (English,
// no link parameters), so a link with parameters or a remembered Korean page hides it until
// the page renders its own view (crates/web/src/ui/first_screen.rs). The notice shown while
// the page starts speaks the language the page will open in, which is the document's language
// from its first frame (`lang`): the link's, else the remembered one outside embeds, as
// crates/web/src/ui/app.rs decides (set later, the whole page would be styled and laid out
// again for the other language's fonts); a chosen theme applies at once. A linked lesson's
// file is asked for at once; outside embeds, once the page is live, it registers the service
// worker that keeps the playground working offline.
//
// The first screen steps: for the default view and a lesson's link (nothing in it but the
// lesson and the language) it asks for that view's first steps as the page drew them at build
// time (scripts/prerender.mjs), shows them, and lets Step forward and Step back (and the
// page's keys for them) go through them while the wasm is on its way; nothing else on it
// answers yet. It marks the step shown (`data-step`), where the live page opens. On a visit
// after one that kept the bundle, the page starts at once and no first screen is drawn.
const root = document.documentElement;
const script = /** @type {HTMLScriptElement} */ (document.currentScript);
// The first paint (its first contentful paint; in a hidden tab, which paints nothing, a second
// on). Where the first screen shows at once, the work that can wait for it does: the wasm's
// start (after-first-paint.js) and the first screen's stepping, so neither holds the paint back.
globalThis.firstPaint = new Promise((go) => {
  if (!PerformanceObserver.supportedEntryTypes?.includes('paint')) return go();
  new PerformanceObserver((list) => list.getEntriesByName('first-contentful-paint').length && go()).observe({ type: 'paint', buffered: true });
  setTimeout(go, 1000);
});
try {
  // The page's contract (www/contract.json), as the build wrote it on this script's tag.
  /** @type {{ languageKey: string, languages: string[], embedYes: string[] }} */
  const contract = JSON.parse(script.dataset.contract);
  const link = new URLSearchParams(location.search);
  const remembered = localStorage.getItem(contract.languageKey);
  const fresh = location.search.length > 1 || remembered === 'ko';
  // A visit after one that kept the bundle (the service worker answers, this build's wasm in
  // its cache): the live page is a few frames away, so the first screen is never drawn (laid
  // out and then replaced, it would cost more time than it shows). Where the wasm is not kept
  // (a new build, the worker's cache still the old one), the first screen shows as on a first
  // visit.
  const wasm = /** @type {HTMLLinkElement} */ (document.querySelector('link[rel="preload"][href$=".wasm"]'));
  const kept = navigator.serviceWorker?.controller ? keptModule(wasm) : null;
  globalThis.moduleKept = kept;
  if (fresh || kept) root.setAttribute('data-fresh', '');
  // The language rule, as the wasm's (crates/sim/src/session/link.rs, `opening_lang`).
  const embed = link.has('embed') && contract.embedYes.includes(link.get('embed'));
  const named = contract.languages.includes(link.get('lang')) ? link.get('lang') : null;
  const lang = named ?? (embed ? 'en' : remembered);
  if (lang === 'ko') root.lang = 'ko';
  // A chosen theme from the first frame: an embed on a dark page shows no white flash.
  if (['light', 'dark'].includes(link.get('theme'))) root.setAttribute('data-theme', link.get('theme'));
  // A linked lesson's file, asked for now, beside the wasm: the page's own fetch of it then
  // takes this answer (crates/web/src/ui/lessons.rs).
  const lesson = (script.dataset.lessons ?? '').split(' ').find((f) => f.replace(/^\d+-/, '') === link.get('scenario'));
  // The build, named by its wasm's hash (the build wrote it here), rides on a lesson's address
  // (`?build=`, here and in crates/web/src/ui/lessons.rs): a service worker that kept that
  // build answers from its cache.
  const build = script.dataset.build;
  if (build) root.dataset.build = build;
  /** Asks for a file at once, beside the wasm: the page's own fetch of it takes this answer. */
  const preload = (/** @type {string} */ path) => {
    const link = Object.assign(document.createElement('link'), { rel: 'preload', as: 'fetch', crossOrigin: 'anonymous' });
    link.href = new URL(path, script.src).href;
    document.head.append(link);
  };
  if (lesson) preload(`scenarios/${lesson}.bin${build ? `?build=${build}` : ''}`);
  // The later modules the link needs from its start, each with the shared chunks it imports
  // (the build lists them, scripts/split-chunks.mjs): a Korean page draws once the phrasebook is
  // here; recorded actions, a lesson from outside, a room and live mode are read or joined as
  // the page opens.
  const needs = { korean: lang === 'ko', recorded: link.has('actions'), opener: link.has('lesson'), room: link.has('room'), live: link.has('live') };
  const needed = Object.keys(needs).filter((module) => needs[module]);
  if (needed.length && root.dataset.openingModules) {
    fetch(new URL(root.dataset.openingModules, script.src))
      .then((response) => response.json())
      .then((files) => needed.flatMap((module) => files[module] ?? []).forEach(preload))
      .catch(() => {});
  }
  // The view's first steps, where the link names nothing but a lesson and a language.
  const plain = [...link.keys()].every((key) => key === 'scenario' || (key === 'lang' && named));
  if (plain && (lesson || !link.has('scenario'))) {
    const view = lesson ? link.get('scenario') : 'default';
    const steps = new URL(`first-steps/${view}.${lang === 'ko' ? 'ko' : 'en'}.json`, script.src);
    if (!kept) stepFirstScreen(steps);
    else {
      kept.then((held) => {
        if (held) return;
        if (!fresh) root.removeAttribute('data-fresh');
        stepFirstScreen(steps);
      });
    }
  }
  // Offline after the first visit (www/sw.js), once the page is live and loaded: its install
  // fetches every lesson and file the page may open, which beside the wasm's download would
  // share a slow network with it.
  const worker = new URL('sw.js', script.src);
  if ('serviceWorker' in navigator && !embed) {
    const loaded = new Promise((go) => addEventListener('load', go));
    Promise.all([loaded, live()]).then(() => navigator.serviceWorker.register(worker)).catch(() => {});
  }
} catch {
  root.setAttribute('data-fresh', '');
}

/// Whether the service worker's cache holds `wasm`, the module this page's head preloads.
function keptModule(wasm) {
  if (!wasm || !globalThis.caches) return Promise.resolve(false);
  return caches.match(wasm.href, { ignoreVary: true }).then(Boolean, () => false);
}

/// Resolves once the page is live (`data-live` on <html>, set when every part is drawn).
function live() {
  return new Promise((go) => {
    const watch = new MutationObserver(() => root.hasAttribute('data-live') && (watch.disconnect(), go()));
    watch.observe(root, { attributes: true, attributeFilter: ['data-live'] });
  });
}

/// Shows the first steps in `file` on the first screen, until the live page takes its place.
function stepFirstScreen(file) {
  // The step drawn: the default view's first is in the page already (drawn again, it would
  // count as a later paint of the page's largest content). Its controls are marked as the
  // document is parsed, within the first layout; its stepping waits for its paint.
  let drawn = root.hasAttribute('data-fresh') ? null : 0;
  const asked = fetch(file).catch(() => null);
  const parsed = new Promise((go) => document.addEventListener('readystatechange', go, { once: true }));
  const ready = new Promise((go) => addEventListener('DOMContentLoaded', go));
  const read = (response) => (response?.ok ? response.json().catch(() => null) : null);
  // The first screen while it shows (once the live page has taken its place, it is no longer marked).
  const showing = () => /** @type {HTMLElement} */ (document.querySelector('#playground[data-first-screen]'));
  if (drawn === 0) {
    parsed.then(() => {
      const screen = showing();
      if (screen) mark(screen, false);
    });
  }
  Promise.all([asked, ready, drawn === null || globalThis.firstPaint]).then(([response]) => read(response)).then((steps) => {
    const screen = showing();
    if (!Array.isArray(steps) || !steps.length || !screen) return;
    let step = 0;
    const show = (next, focus) => {
      step = Math.max(0, Math.min(steps.length - 1, next));
      // The live page, drawing itself hidden beside the screen, stays.
      const live = screen.querySelector(':scope > [data-live-page]');
      if (step !== drawn) {
        for (const node of [...screen.childNodes]) if (node !== live) node.remove();
        const markup = document.createElement('template');
        markup.innerHTML = steps[step];
        screen.insertBefore(markup.content, live);
        drawn = step;
      }
      const [back, forward] = mark(screen, true);
      if (forward && step === steps.length - 1) forward.disabled = true;
      screen.dataset.step = String(step);
      root.removeAttribute('data-fresh');
      const focused = focus === 'back' && !back?.disabled ? back : forward?.disabled ? back : forward;
      if (focus) focused?.focus();
    };
    const go = (by, focus) => showing() && show(step + by, focus);
    screen.addEventListener('click', (event) => {
      const button = /** @type {Partial<Element>} */ (event.target).closest?.('button');
      if (button?.matches('.controls .step-forward')) go(1, 'forward');
      else if (button?.matches('.controls .step-back')) go(-1, 'back');
    });
    // The live page's keys for them (presentation clickers send PageDown and PageUp).
    const keys = { ArrowRight: [1, 'forward'], PageDown: [1, 'forward'], ArrowLeft: [-1, 'back'], PageUp: [-1, 'back'] };
    addEventListener('keydown', (event) => {
      const typing = /** @type {Partial<Element>} */ (event.target).closest?.('input, textarea, select, [contenteditable]');
      if (typing || event.altKey || event.ctrlKey || event.metaKey || !keys[event.key] || !showing()) return;
      event.preventDefault();
      go(...keys[event.key]);
    });
    show(0);
  });
}

/// Marks every control on `screen` inert but its Step back and Step forward, which answer
/// when `stepping` (the screen itself no longer inert); returns those two. Only what changes is
/// marked: after the first paint, every changed mark is style and layout to compute again.
function mark(screen, stepping) {
  const live = screen.querySelector(':scope > [data-live-page]');
  const [back, forward] = ['.step-back', '.step-forward'].map((c) => screen.querySelector(`:scope > :not([data-live-page]) .controls ${c}`));
  for (const control of screen.querySelectorAll('a[href], button, input, select, textarea, summary, [tabindex]')) {
    const inert = (control !== back && control !== forward) || !stepping;
    if (control.inert !== inert && !live?.contains(control)) control.inert = inert;
  }
  screen.removeAttribute('inert');
  return [back, forward];
}
