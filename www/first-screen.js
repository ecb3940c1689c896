// Runs before the body is drawn: the build-time first screen is the default view (English,
// no link parameters), so a link with parameters or a remembered Korean page hides it until
// the page renders its own view (crates/web/src/ui/first_screen.rs). The notice shown while the page
// starts speaks the language the page will open in (`data-lang`): the link's, else the
// remembered one outside embeds, as crates/web/src/ui/app.rs decides; a chosen theme applies at
// once. A linked lesson's file is
// asked for at once; outside embeds it registers the service worker that keeps the playground
// working offline.
const root = document.documentElement;
try {
  const link = new URLSearchParams(location.search);
  const remembered = localStorage.getItem('informer-playground.lang');
  if (location.search.length > 1 || remembered === 'ko') root.setAttribute('data-fresh', '');
  const embed = link.has('embed') && ['', '1', 'true', 'yes'].includes(link.get('embed'));
  const named = ['ko', 'en'].includes(link.get('lang')) ? link.get('lang') : null;
  const lang = named ?? (embed ? 'en' : remembered);
  if (lang === 'ko') root.setAttribute('data-lang', 'ko');
  // A chosen theme from the first frame: an embed on a dark page shows no white flash.
  if (['light', 'dark'].includes(link.get('theme'))) root.setAttribute('data-theme', link.get('theme'));
  // A linked lesson's file, asked for now, beside the wasm: the page's own fetch of it then
  // takes this answer (crates/web/src/ui/lessons.rs).
  const lesson = (document.currentScript.dataset.lessons ?? '').split(' ').find((f) => f.replace(/^\d+-/, '') === link.get('scenario'));
  if (lesson) {
    const preload = Object.assign(document.createElement('link'), { rel: 'preload', as: 'fetch', crossOrigin: 'anonymous' });
    preload.href = new URL(`scenarios/${lesson}.json`, document.currentScript.src).href;
    document.head.append(preload);
  }
  // Offline after the first visit (www/sw.js), once this load is done: never beside it.
  const worker = new URL('sw.js', document.currentScript.src);
  if ('serviceWorker' in navigator && !embed) {
    addEventListener('load', () => navigator.serviceWorker.register(worker).catch(() => {}));
  }
} catch {
  root.setAttribute('data-fresh', '');
}
