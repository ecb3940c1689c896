// @ts-check
// Put before Trunk's wasm loader (scripts/external-loader.mjs), which fetches the wasm through
// it: the bytes are counted as they arrive, and the starting notice (www/index.html) shows the
// share of the module's `size` (its bytes as built, which is what the body decodes to) in
// `data-progress`. A response that is not the module's is handed on as it is, and so is a
// module the service worker keeps (first-screen.js's `moduleKept`), all here at once: counting
// it copied it chunk by chunk, 50–70 ms of script on a phone's CPU on the way to live.
async function countedFetch(url, size) {
  const response = await fetch(url);
  const notice = document.getElementById('starting');
  if (!response.ok || !response.body || !notice || !(size > 0) || (await globalThis.moduleKept)) return response;
  let received = 0;
  let shown = -1;
  const counting = new TransformStream({
    transform(chunk, out) {
      received += chunk.byteLength;
      const percent = Math.min(100, Math.floor((100 * received) / size));
      if (percent !== shown) notice.dataset.progress = `${(shown = percent)}%`;
      out.enqueue(chunk);
    },
  });
  const { status, statusText, headers } = response;
  return new Response(response.body.pipeThrough(counting), { status, statusText, headers });
}
