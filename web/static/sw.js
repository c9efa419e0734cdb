// The table page's service worker: a phone that reloads its table while offline still
// shows it. Served as /sw.js (scope /t/), with the shell's file list and a version made
// from their contents filled in by the server, so a new release replaces the old cache.
//
// Table pages (/t/<id>): network first, the last copy when the network is down.
// The app shell (styles, icons, the table's modules): cache first, all cached on install.

const VERSION = "__VERSION__";
const SHELL = "__SHELL__";
const CACHE = "deathclock-shell-" + VERSION;
const SHELL_PATHS = new Set(Array.isArray(SHELL) ? SHELL : []);
const TABLE_PAGE = /^\/t\/[^/]+$/;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(Array.isArray(SHELL) ? SHELL : []))
      .then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith("deathclock-shell-") && name !== CACHE) await caches.delete(name);
      }
      // The table page that registered this worker was not fetched through it: keep it now.
      const cache = await caches.open(CACHE);
      for (const client of await self.clients.matchAll({ type: "window", includeUncontrolled: true })) {
        const url = new URL(client.url);
        if (url.origin === location.origin && TABLE_PAGE.test(url.pathname)) {
          try {
            const response = await fetch(url.pathname, { cache: "no-store" });
            if (response.ok) await cache.put(url.pathname, response);
          } catch (e) {
            /* offline already: the next visit keeps it */
          }
        }
      }
      await self.clients.claim();
    })()
  );
});

async function networkFirst(request, key) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(key, response.clone());
    return response;
  } catch (e) {
    const kept = await cache.match(key);
    if (kept) return kept;
    throw e;
  }
}

async function cacheFirst(request) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request, { ignoreSearch: true });
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== location.origin) return;
  if (request.mode === "navigate" && TABLE_PAGE.test(url.pathname)) {
    event.respondWith(networkFirst(request, url.pathname));
  } else if (SHELL_PATHS.has(url.pathname)) {
    // Only the shell: its version covers these files, so a release replaces them.
    event.respondWith(cacheFirst(request));
  }
});
