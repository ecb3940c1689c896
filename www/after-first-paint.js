// Put before Trunk's wasm loader (scripts/external-loader.mjs): where the build-time first
// screen is showing, the wasm (downloading since the page's head asked for it) is instantiated
// once that screen has been painted, so its compiling does not hold the first paint back. A
// hidden tab, which paints nothing, goes on after a second. From here until the page is live, a notice says it
// is starting (www/index.html; never shown where scripts do not run).
document.documentElement.setAttribute('data-starting', '');
await new Promise((go) => {
  const shown = document.querySelector('[data-first-screen]') && !document.documentElement.hasAttribute('data-fresh');
  if (!shown || !PerformanceObserver.supportedEntryTypes?.includes('paint')) return go();
  new PerformanceObserver((list) => list.getEntriesByName('first-contentful-paint').length && go()).observe({ type: 'paint', buffered: true });
  setTimeout(go, 1000);
});
