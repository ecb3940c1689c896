// @ts-check
// The embeds in real documentation generators (tests/docs-sites/): MkDocs with Material, Sphinx
// with Furo and Hugo, each site built here with the playground's address written in and served
// on another loopback port than the bundle (a cross-origin host, as a real docs site is).
// Per site: posters and no wasm before a click (the bytes printed), the click starting the
// lesson at its step, the host's dark theme reaching the frame, the host API driving it, its
// height following its content; MkDocs's instant navigation showing the next page's embeds.
import { test } from 'node:test';
import { checkNavigation, checkSite } from './docs-site.mjs';

// How each site turns dark as its reader would make it.
const DARKEN = {
  mkdocs: async (page) => page.getByRole('button', { name: 'Dark' }).or(page.locator('label[title="Dark"]')).first().click(),
  sphinx: async (page) => page.evaluate(() => { document.body.dataset.theme = 'dark'; }),
  hugo: async (page) => page.evaluate(() => document.documentElement.setAttribute('data-theme', 'dark')),
};

for (const name of ['mkdocs', 'sphinx', 'hugo']) {
  test(`${name}: posters until a click, the lesson at its step, the host's theme, the host API and the frame's height`, async () => {
    await checkSite(name, { path: name === 'hugo' ? 'lessons/' : '', darken: DARKEN[name] });
  });
}

test("mkdocs: instant navigation to the next page shows that page's embed without a reload", async () => {
  await checkNavigation('mkdocs');
});
