// @ts-check
// For a bundle built for an absolute public URL (`make dist PUBLIC_URL=https://…/playground/`):
// an oEmbed description per lesson (oembed/<lesson>.json) and a page per lesson
// (lessons/<lesson>.html) that names it with <link rel="alternate" type="application/json+oembed">
// and Open Graph tags, for the platforms that unfurl links, and sends people on to the lesson.
// Release builds, in scripts/post-build.mjs after the service worker's list (these are for
// other sites, not for offline use) and before compression. A relative public URL writes none:
// oEmbed needs absolute addresses.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const stage = process.env.TRUNK_STAGING_DIR;
const publicUrl = process.env.TRUNK_PUBLIC_URL ?? '/';
if (!stage) throw new Error('oembed: TRUNK_STAGING_DIR is not set (run as a Trunk hook)');

if (process.env.TRUNK_PROFILE === 'release' && /^https?:\/\//.test(publicUrl)) {
  const base = publicUrl.endsWith('/') ? publicUrl : `${publicUrl}/`;
  // The lessons' titles and summaries, as the embed loader reads them (www/posters/lessons.js).
  const script = readFileSync(join(stage, 'posters', 'lessons.js'), 'utf8');
  const json = script.slice(script.indexOf('{'), script.lastIndexOf('}') + 1);
  const lessons = JSON.parse(json);
  const html = (text) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
  mkdirSync(join(stage, 'oembed'), { recursive: true });
  mkdirSync(join(stage, 'lessons'), { recursive: true });
  for (const [id, { n, title, summary }] of Object.entries(lessons)) {
    const name = `${n}. ${title.en}`;
    // (A lesson that asks questions keeps its summary back: it gives the answers away.)
    const about = summary?.en ?? 'A lesson of informer-playground: the Kubernetes list-watch machinery, step by step, in the browser.';
    const lesson = `${base}?scenario=${id}`;
    const frame = `<iframe src="${html(`${lesson}&embed=1`)}" title="${html(`informer-playground: ${name}`)}" width="800" height="560" style="border: 0"></iframe>`;
    writeFileSync(join(stage, 'oembed', `${id}.json`), `${JSON.stringify({
      version: '1.0',
      type: 'rich',
      title: name,
      provider_name: 'informer-playground',
      provider_url: base,
      html: frame,
      width: 800,
      height: 560,
      thumbnail_url: `${base}posters/${id}-en-light.svg`,
      thumbnail_width: 1000,
      thumbnail_height: 384,
    })}\n`);
    writeFileSync(join(stage, 'lessons', `${id}.html`), `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${html(name)} · informer-playground</title>
<meta name="description" content="${html(about)}">
<meta property="og:title" content="${html(name)}">
<meta property="og:description" content="${html(about)}">
<meta property="og:image" content="${html(`${base}posters/${id}-en-light.svg`)}">
<meta property="og:url" content="${html(lesson)}">
<link rel="alternate" type="application/json+oembed" href="${html(`${base}oembed/${id}.json`)}" title="${html(name)}">
<link rel="canonical" href="${html(lesson)}">
<meta http-equiv="refresh" content="0; url=${html(lesson)}">
<link rel="icon" href="data:,">
</head>
<body><p><a href="${html(lesson)}">${html(name)}</a></p></body>
</html>
`);
  }
}
