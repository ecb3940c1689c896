// @ts-check
// Trunk's post_build step, in order. Trunk starts the hooks of one stage all at once, and each
// of these needs the one before: the wasm split into its first and later modules (split.mjs),
// then the loader moved out of index.html (external-loader.mjs), then the lessons written in
// the compact form the page reads (compact-lessons.mjs), then
// the first screen drawn into it (prerender.mjs, release builds), then the bundle's list written
// into its service worker (service-worker.mjs, release builds), then the lessons' oEmbed files
// for a bundle built for an absolute address (oembed.mjs), then every file compressed beside
// itself (precompress.mjs, release builds).
await import('./split.mjs');
await import('./external-loader.mjs');
await import('./compact-lessons.mjs');
await import('./prerender.mjs');
await import('./service-worker.mjs');
await import('./oembed.mjs');
await import('./precompress.mjs');
