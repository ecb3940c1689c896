// @ts-check
// Launches the system Chromium through playwright-core (no browser downloads) and opens the
// built playground served on loopback.
import { launchChromium } from '../scripts/chromium.mjs';
import { serve } from '../scripts/static_server.mjs';
import { contract } from '../scripts/contract.mjs';

export { launchChromium };

export const DIST = process.env.DIST_DIR ?? 'dist';

/// Opens the playground in a fresh browser. Its service worker is blocked unless asked for
/// (`serviceWorkers: 'allow'`): a worker answers requests before `page.route` can see them.
/**
 * @param {{ width?: number, height?: number, query?: string, dist?: string, base?: string, page?: string,
 *   ready?: boolean, serviceWorkers?: 'allow' | 'block' }} [options]
 */
export async function openPlayground({ width = 1280, height = 720, query = '', dist = DIST, base = '/', page: path = '', ready = true, serviceWorkers = 'block' } = {}) {
  const server = await serve(dist, base);
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width, height }, serviceWorkers });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  const { port } = server.address();
  await page.goto(`http://127.0.0.1:${port}${base}${path}${query}`);
  if (ready) await live(page);
  const close = async () => {
    await browser.close();
    server.close();
  };
  return { page, errors, close, server };
}

/// Waits until the page has rendered and answers input: before, the build-time first screen
/// (the same heading and controls, inert) may be showing.
export async function live(page) {
  await page.waitForSelector('html[data-live]');
}

/// Switches the page to Korean as a person does, and waits until it shows Korean: the switch
/// waits for the Korean phrasebook's module, so the page may still show English just after the click.
export async function switchToKorean(page) {
  await page.getByRole('button', { name: '한국어' }).click();
  await page.waitForSelector('html[lang="ko"]');
}

/// Remembers a language as the page would, for every page the tab opens from now on: written
/// before the page's own scripts run, so no page still starting can write its own over it.
export async function rememberLanguage(page, lang) {
  await page.addInitScript(([key, lang]) => localStorage.setItem(key, lang), [contract.languageKey, lang]);
}

/// Saves a screenshot for people to look at (not compared by any test).
export async function screenshot(page, name, { fullPage = true } = {}) {
  const dir = process.env.SCREENSHOT_DIR ?? 'target/screenshots';
  await import('node:fs/promises').then((fs) => fs.mkdir(dir, { recursive: true }));
  await page.screenshot({ path: `${dir}/${name}.png`, fullPage });
}

/// Decodes the QR code an image shows (jsQR, run here on the pixels the page drew): what a
/// phone's camera would read.
export async function readQr(img) {
  const { data, width, height } = await img.evaluate(async (img) => {
    await img.decode();
    // Scaled up without smoothing, on white: each module several pixels wide.
    const scale = 4;
    const canvas = document.createElement('canvas');
    canvas.width = img.naturalWidth * scale;
    canvas.height = img.naturalHeight * scale;
    const context = canvas.getContext('2d');
    context.imageSmoothingEnabled = false;
    context.fillStyle = '#fff';
    context.fillRect(0, 0, canvas.width, canvas.height);
    context.drawImage(img, 0, 0, canvas.width, canvas.height);
    const pixels = context.getImageData(0, 0, canvas.width, canvas.height);
    return { data: Array.from(pixels.data), width: pixels.width, height: pixels.height };
  });
  const { default: jsQR } = await import('jsqr');
  return jsQR(Uint8ClampedArray.from(data), width, height)?.data ?? null;
}
