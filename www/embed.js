// @ts-check
// informer-playground's loader for documentation pages (MkDocs, Docusaurus, Hugo, Sphinx, …):
//   <div data-informer-playground="stale-read" data-step="12" data-lang="ko"></div>
// shows the lesson's poster (its stage drawn at the opening step, posters/, in the embed's
// language and the page's theme), its title (and summary, where it asks no questions) and a
// Start button; the click makes
// the frame, at that lesson and step (also data-era, data-from and data-to for a range of
// steps), and gives it focus. data-load="eager" makes the frame at once, "lazy" when it scrolls
// near; data-poster names a poster of another step (`informer-playground poster`).
// data-lesson-url names a lesson file of the host's own (served with CORS): the frame opens
// it, checked as `informer-playground validate` checks it, with the element's value as its id.
//
// The theme is the embed's data-theme, else the page's (MkDocs Material's
// data-md-color-scheme, Docusaurus's data-theme on <html>, Furo's on <body>), else the
// system's; a change of it reaches every poster and frame. Embeds added later (MkDocs instant
// navigation, single-page docs) are picked up; removed ones are forgotten. A frame is sized to
// its content: it posts its height, and only messages from the playground's own origin are read.
// A page on another origin than the playground's is named in the frame's `host` parameter, so
// the frame obeys its host-page API (see embeds-host.js).
(function () {
  // Included twice (a shortcode on every embed), it runs once.
  if (/** @type {any} */ (window).informerPlaygroundLoader) return;
  /** @type {any} */ (window).informerPlaygroundLoader = true;
  const script = /** @type {HTMLScriptElement} */ (document.currentScript);
  const base = new URL('./', script.src);
  const embeds = new Map(); // host element → { theme it shows, frame once started }
  const words = {
    en: { start: (t) => `Start the lesson: ${t}`, opens: (n) => `opens at step ${n}`, button: 'Start' },
    ko: { start: (t) => `레슨 시작: ${t}`, opens: (n) => `${n}단계에서 열립니다`, button: '시작' },
  };
  const system = matchMedia('(prefers-color-scheme: dark)');

  // The lessons' titles (and some summaries): a script beside the posters, loaded once.
  let lessons = null;
  const waiting = [];
  function withLessons(then) {
    if (lessons) return then(lessons);
    waiting.push(then);
    if (waiting.length > 1) return;
    const tag = document.createElement('script');
    tag.src = new URL('posters/lessons.js', base).href;
    tag.onload = () => {
      lessons = /** @type {any} */ (window).informerPlaygroundLessons || {};
      waiting.splice(0).forEach((f) => f(lessons));
    };
    document.head.append(tag);
  }

  function pageTheme() {
    const html = document.documentElement, body = document.body;
    const material = body?.getAttribute('data-md-color-scheme') ?? html.getAttribute('data-md-color-scheme');
    if (material) return material === 'slate' ? 'dark' : 'light';
    for (const named of [html.getAttribute('data-theme'), body?.getAttribute('data-theme')]) {
      if (named === 'dark' || named === 'light') return named;
    }
    return system.matches ? 'dark' : 'light';
  }
  const themeOf = (host) => (['dark', 'light'].includes(host.dataset.theme) ? host.dataset.theme : pageTheme());
  const langOf = (host) => (host.dataset.lang === 'ko' ? 'ko' : 'en');

  function posterSrc(host) {
    if (host.dataset.poster) return new URL(host.dataset.poster, location.href).href;
    return new URL(`posters/${host.dataset.informerPlayground}-${langOf(host)}-${themeOf(host)}.svg`, base).href;
  }

  function showPoster(host) {
    const id = host.dataset.informerPlayground, lang = langOf(host), say = words[lang];
    const theme = themeOf(host), dark = theme === 'dark';
    const poster = document.createElement('div');
    poster.lang = lang;
    Object.assign(poster.style, {
      border: `1px solid ${dark ? '#3a4452' : '#d5dae3'}`, borderRadius: '10px', padding: '0.6rem',
      background: dark ? '#161b22' : '#ffffff', color: dark ? '#e6edf3' : '#1c2430', colorScheme: dark ? 'dark' : 'light',
    });
    const img = document.createElement('img');
    img.src = posterSrc(host);
    img.alt = '';
    img.decoding = 'async';
    img.loading = 'lazy';
    Object.assign(img.style, { width: '100%', height: 'auto', display: 'block', aspectRatio: '1000 / 384' });
    const title = document.createElement('strong');
    title.textContent = id;
    const summary = document.createElement('p');
    summary.style.margin = '0.3rem 0';
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = say.button;
    button.setAttribute('aria-label', say.start(id));
    Object.assign(button.style, { font: 'inherit', fontWeight: '650', padding: '0.45rem 1.1rem', minHeight: '44px', borderRadius: '8px', border: '0', background: '#1f4e8c', color: '#fff', cursor: 'pointer' });
    button.addEventListener('click', () => start(host, true));
    // A lesson from outside the bundle (data-lesson-url) has no poster drawn by the build.
    const parts = host.dataset.lessonUrl ? [title, summary] : [img, title, summary];
    if (host.dataset.step && !host.dataset.poster) {
      const opens = document.createElement('p');
      opens.style.margin = '0.2rem 0';
      opens.textContent = say.opens(host.dataset.step);
      parts.push(opens);
    }
    poster.append(...parts, button);
    host.replaceChildren(poster);
    withLessons((all) => {
      const lesson = all[id];
      if (!lesson) return;
      title.textContent = `${lesson.n}. ${lesson.title[lang]}`;
      // (Kept back for lessons that ask the reader to predict what it tells.)
      if (lesson.summary) summary.textContent = lesson.summary[lang];
      else summary.remove();
      button.setAttribute('aria-label', say.start(lesson.title[lang]));
    });
    embeds.get(host).theme = theme;
  }

  function start(host, focus) {
    const entry = embeds.get(host);
    if (!entry || entry.frame) return;
    const theme = themeOf(host);
    const params = new URLSearchParams({ scenario: host.dataset.informerPlayground, embed: '1', theme });
    for (const key of ['era', 'step', 'lang', 'from', 'to']) {
      if (host.dataset[key]) params.set(key, host.dataset[key]);
    }
    // A lesson file the host serves (with CORS): the frame fetches and checks it.
    if (host.dataset.lessonUrl) params.set('lesson', new URL(host.dataset.lessonUrl, location.href).href);
    if (location.origin !== base.origin && location.origin !== 'null') params.set('host', location.origin);
    const frame = document.createElement('iframe');
    frame.src = `${base.href}?${params}`;
    frame.title = host.dataset.title || `informer-playground: ${host.dataset.informerPlayground}`;
    Object.assign(frame.style, { width: '100%', height: '520px', border: '1px solid #d5dae3', borderRadius: '10px', colorScheme: theme });
    host.replaceChildren(frame);
    entry.frame = frame;
    entry.theme = theme;
    if (focus) frame.focus();
  }

  const near = 'IntersectionObserver' in window
    ? new IntersectionObserver((seen) => {
      for (const e of seen) {
        if (!e.isIntersecting) continue;
        near.unobserve(e.target);
        start(e.target, false);
      }
    }, { rootMargin: '300px' })
    : null;

  function setUp(host) {
    if (embeds.has(host)) return;
    embeds.set(host, {});
    const load = host.dataset.load;
    if (load === 'eager' || (load === 'lazy' && !near)) return start(host, false);
    showPoster(host);
    if (load === 'lazy') near.observe(host);
  }

  function scan(root) {
    if (root.matches?.('[data-informer-playground]')) setUp(root);
    root.querySelectorAll?.('[data-informer-playground]').forEach(setUp);
  }

  function forget(root) {
    for (const host of embeds.keys()) {
      if (host === root || root.contains?.(host)) {
        near?.unobserve(host);
        embeds.delete(host);
      }
    }
  }

  // A change of the page's theme reaches every poster and frame that follows it.
  function followTheme() {
    for (const [host, entry] of embeds) {
      const theme = themeOf(host);
      if (entry.theme === theme) continue;
      if (!entry.frame) {
        showPoster(host);
        continue;
      }
      entry.theme = theme;
      entry.frame.style.colorScheme = theme;
      entry.frame.contentWindow?.postMessage(JSON.stringify({ type: 'informer-playground:theme', theme }), base.origin);
    }
  }

  scan(document);
  new MutationObserver((changes) => {
    for (const change of changes) {
      change.removedNodes.forEach((node) => node.nodeType === 1 && forget(node));
      change.addedNodes.forEach((node) => node.nodeType === 1 && scan(node));
    }
  }).observe(document.documentElement, { childList: true, subtree: true });
  const themed = { attributes: true, attributeFilter: ['data-theme', 'data-md-color-scheme', 'class'] };
  const watchTheme = new MutationObserver(followTheme);
  watchTheme.observe(document.documentElement, themed);
  if (document.body) watchTheme.observe(document.body, themed);
  else addEventListener('DOMContentLoaded', () => watchTheme.observe(document.body, themed));
  system.addEventListener('change', followTheme);

  window.addEventListener('message', (event) => {
    if (event.origin !== base.origin || typeof event.data !== 'string') return;
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    if (message?.type !== 'informer-playground:height' || !Number.isFinite(message.height)) return;
    for (const entry of embeds.values()) {
      if (entry.frame?.contentWindow === event.source) entry.frame.style.height = `${Math.max(200, Math.min(message.height, 4000))}px`;
    }
  });
})();
