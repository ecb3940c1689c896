// The embeds in a Docusaurus site (tests/docs-sites/docusaurus), apart from `make test`: its
// packages take longer to install than the test budget allows. `make test-docs` installs them
// (target/docusaurus) and runs this: the same checks as the other generators
// (e2e/docs-sites.test.mjs), the site's own colour-mode toggle, and its client-side
// navigation to a page with another embed.
import { test } from 'node:test';
import { checkNavigation, checkSite } from '../e2e/docs-site.mjs';

test('docusaurus: posters until a click, the lesson at its step, the host theme, the host API and the height', async () => {
  await checkSite('docusaurus', {
    darken: (page) => page.getByRole('button', { name: /dark and light mode/ }).click(),
  });
});

test("docusaurus: client-side navigation shows the next page's embed without a reload", async () => {
  await checkNavigation('docusaurus');
});
