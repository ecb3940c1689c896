// @ts-check
// The playground's markup as it shows, view by view and step by step: what the build keeps as
// first screens (scripts/prerender.mjs) and what the end-to-end suite compares them with.
//
// Form controls hold their state in properties, which markup leaves out, so they are written as
// attributes (sliders, fields and pickers show what the page shows). Behind a first screen the
// page draws itself into an element of its own, which holds nothing else: its markup is the page's.
export const pageMarkup = (page) =>
  page.locator('#playground').evaluate((root) => {
    for (const input of root.querySelectorAll('input')) input.setAttribute('value', input.value);
    for (const area of root.querySelectorAll('textarea')) area.textContent = area.value;
    for (const option of root.querySelectorAll('option')) option.toggleAttribute('selected', option.selected);
    const own = root.children.length === 1 && !root.firstElementChild.attributes.length;
    return (own ? root.firstElementChild : root).innerHTML;
  });

/// Until every later module the page asked for has arrived (nothing says it is loading; at most
/// 10 s), and the page has done what a step puts off to an idle moment, and drawn it.
export const settled = (page) =>
  page.evaluate(
    () =>
      new Promise((done) => {
        const started = performance.now();
        const drawn = () => requestIdleCallback(() => requestAnimationFrame(() => setTimeout(done, 0)));
        const arrived = () => (document.querySelector('[aria-busy="true"]') && performance.now() - started < 10_000 ? setTimeout(arrived, 20) : drawn());
        arrived();
      }),
  );

/// The address's query of a view a first screen can show (`default` or a lesson's id), in a
/// language, as `first-screen.js` reads it.
export function viewQuery(view, lang) {
  const params = new URLSearchParams([...(view === 'default' ? [] : [['scenario', view]]), ...(lang === 'en' ? [] : [['lang', lang]])]);
  return params.size ? `?${params}` : '';
}

/// Steps the page forward to `step` (from the one before) and waits until it is drawn and settled.
export async function stepForwardTo(page, step) {
  await page.locator('.controls .step-forward').click();
  await page.waitForFunction((n) => /** @type {HTMLInputElement} */ (document.getElementById('timeline'))?.value === String(n), step, { timeout: 10_000 });
  await settled(page);
}
