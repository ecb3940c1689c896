// @ts-check
// Put before Trunk's wasm loader (scripts/external-loader.mjs): where the build-time first
// screen is showing, the wasm (downloading since the page's head asked for it) is instantiated
// once that screen has been painted (first-screen.js's `firstPaint`, which a hidden tab, painting
// nothing, passes after a second), so its compiling does not hold the first paint back. From here
// until the page is live, a notice says it is starting (www/index.html; never shown where scripts
// do not run).
document.documentElement.setAttribute('data-starting', '');
const shown = document.querySelector('[data-first-screen]') && !document.documentElement.hasAttribute('data-fresh');
if (shown) await globalThis.firstPaint;
