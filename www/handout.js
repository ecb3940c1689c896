// @ts-check
// The handout's QR codes (www/handout.html, written by `informer-playground handout`): each
// lesson's link, resolved against where the handout was opened, so a handout printed from the
// room's address carries the room's links. Drawn by qrcode.js (loaded before this one).
// qrcode.js's global, read under a name of its own: classic scripts share one global scope.
/** @type {(type: number, level: string) => { addData(text: string): void, make(): void, createDataURL(cell?: number, margin?: number): string }} */
const makeQr = /** @type {any} */ (globalThis).qrcode;
for (const img of /** @type {NodeListOf<HTMLImageElement>} */ (document.querySelectorAll('img[data-link]'))) {
  const qr = makeQr(0, 'M');
  qr.addData(new URL(img.dataset.link, location.href).href);
  qr.make();
  img.src = qr.createDataURL(3, 2);
}
