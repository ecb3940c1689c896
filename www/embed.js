// informer-playground's loader for documentation pages (MkDocs, Docusaurus, Hugo, …): each
//   <div data-informer-playground="stale-read" data-step="12" data-lang="ko"></div>
// becomes an iframe of the playground this script is served with, at that lesson and step
// (also data-era, data-from and data-to for a range of steps), sized to its content: the
// frame posts its height, and only messages from the playground's own origin are read.
// A page on another origin than the playground's is named in the frame's `host` parameter,
// so the frame obeys its host-page API (see embeds-host.js).
(function () {
  const base = new URL('./', document.currentScript.src);
  const frames = [];
  for (const host of document.querySelectorAll('[data-informer-playground]')) {
    const params = new URLSearchParams({ scenario: host.dataset.informerPlayground, embed: '1' });
    for (const key of ['era', 'step', 'lang', 'from', 'to']) {
      if (host.dataset[key]) params.set(key, host.dataset[key]);
    }
    if (location.origin !== base.origin && location.origin !== 'null') params.set('host', location.origin);
    const frame = document.createElement('iframe');
    frame.src = `${base.href}?${params}`;
    frame.title = host.dataset.title || `informer-playground: ${host.dataset.informerPlayground}`;
    frame.setAttribute('style', 'width: 100%; height: 520px; border: 1px solid #d5dae3; border-radius: 10px;');
    frame.loading = 'lazy';
    host.replaceChildren(frame);
    frames.push(frame);
  }
  window.addEventListener('message', (event) => {
    if (event.origin !== base.origin || typeof event.data !== 'string') return;
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    if (message?.type !== 'informer-playground:height' || !Number.isFinite(message.height)) return;
    const frame = frames.find((f) => f.contentWindow === event.source);
    if (frame) frame.style.height = `${Math.max(200, Math.min(message.height, 4000))}px`;
  });
})();
