// @ts-check
// The service worker (registered by first-screen.js where the browser allows one: HTTPS and
// loopback): after the first visit the playground opens with the network down, any lesson
// too. The build (scripts/service-worker.mjs) writes the bundle's files and their version
// below. The page itself is fetched network-first, so the first reload after a new build shows
// the new bundle; hashed files never change under their name and are served from the cache
// first, and so is a lesson asked for by a page of this build (`?build=`, its wasm's hash);
// everything else (the guide, a lesson for another build) network-first, the cache behind it.
const VERSION = '';
const BUNDLE = [];
// This build, by its wasm's hash, and the pattern of a name carrying its content's hash: both
// written by the build from the page's contract (www/contract.json).
const BUILD = '';
const HASHED = /$^/;
const CACHE = `informer-playground-${VERSION}`;
// `self`, typed as what it is here: a service worker's global scope. jsconfig.json checks this
// file with the page's DOM types, whose `self` is a window; TypeScript's webworker library names
// these types, but read beside the DOM's it loosens the page scripts' (their events become `any`),
// so the few this worker uses are named here, as that library names them.
/**
 * @typedef {Event & { waitUntil(promise: Promise<unknown>): void }} ExtendableEvent
 * @typedef {ExtendableEvent & {
 *   readonly request: Request,
 *   readonly preloadResponse: Promise<Response | undefined>,
 *   respondWith(response: Response | PromiseLike<Response>): void,
 * }} FetchEvent
 * @typedef {{
 *   readonly registration: ServiceWorkerRegistration,
 *   readonly location: Location,
 *   readonly clients: { claim(): Promise<void> },
 *   skipWaiting(): Promise<void>,
 *   addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void,
 *   addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void,
 * }} ServiceWorkerGlobalScope
 */
const worker = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

worker.addEventListener('install', (event) => {
  // addAll reads each URL as its string (the checker's RequestInfo names only Request and string).
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(BUNDLE.map((file) => /** @type {any} */ (new URL(file, worker.registration.scope))))));
  worker.skipWaiting();
});

worker.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith('informer-playground-') && n !== CACHE).map((n) => caches.delete(n))))
      // The page's request starts while the worker starts, instead of after it.
      .then(() => worker.registration.navigationPreload?.enable())
      .then(() => worker.clients.claim()),
  );
});

/// The network's answer (the navigation's preloaded one where there is one), kept for next
/// time; the cache's when the network fails.
async function networkFirst(request, cacheKey, preloaded) {
  const cache = await caches.open(CACHE);
  try {
    const response = (await preloaded) ?? (await fetch(request));
    if (response.ok) await cache.put(cacheKey, response.clone());
    return response;
  } catch (failure) {
    const kept = await cache.match(cacheKey);
    if (kept) return kept;
    throw failure;
  }
}

async function cacheFirst(request) {
  const kept = await caches.match(request);
  return kept ?? fetch(request);
}

worker.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== worker.location.origin || !url.href.startsWith(worker.registration.scope)) return;
  // A room's API (its event stream, its views) is live: never the worker's to keep.
  if (url.href.startsWith(`${worker.registration.scope}room/`)) return;
  if (request.mode === 'navigate') {
    // Every address of the page is the same file: the link's parameters are read by the page.
    const file = url.pathname.endsWith('/') ? `${url.pathname}index.html` : url.pathname;
    event.respondWith(networkFirst(request, new URL(file, url.origin), event.preloadResponse));
  } else if (HASHED.test(url.pathname)) {
    event.respondWith(cacheFirst(request));
  } else if (url.searchParams.get('build') === BUILD) {
    // A file asked for by a page of this worker's build (a lesson: `?build=`, its wasm's hash):
    // this cache's copy is that build's.
    const kept = new URL(url.pathname, url.origin);
    event.respondWith(caches.open(CACHE).then((cache) => cache.match(kept)).then((hit) => hit ?? networkFirst(request, kept)));
  } else {
    event.respondWith(networkFirst(request, new URL(url.pathname, url.origin)));
  }
});
