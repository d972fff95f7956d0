/**
 * The service worker that makes the whole site work offline once it has loaded. Built to
 * `<base>sw.js` (its folder is the site root, so its scope is the app's sub-path) by
 * vite/precachePlugin.ts, which writes the build's file list into it: a new deploy is a new
 * sw.js, which the browser picks up as an update.
 *
 * install: copy the build's files into a cache named after the build (precache.ts), all but the
 *   large deferred ones (Monaco, the tokenizer), which are only reused from an older cache;
 * activate: delete this scope's caches of older builds and take over open pages;
 * message PRECACHE_DEFERRED_MESSAGE (sent by the page once this worker is in charge): fetch the
 *   deferred files, so the app shell is offline within seconds and everything soon after;
 * fetch: only same-origin GETs of the build's own files (routeOf); everything else, above all a
 * flow's calls to model servers and HTTP nodes, is left to the browser and never cached.
 */
import {
  cacheName,
  entriesByUrl,
  hexSha256,
  isOutdatedCache,
  precacheBuild,
  routeOf,
  type PrecacheManifest,
} from './precache.ts'

// Replaced with the build's manifest (a JSON literal) by vite/precachePlugin.ts.
declare const __WARDFLOW_PRECACHE_MANIFEST__: PrecacheManifest

// The parts of the service-worker scope used here. The app's tsconfig has the DOM lib, not
// WebWorker (the two conflict), so they are declared locally.
interface SwExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void
}
interface SwFetchEvent extends SwExtendableEvent {
  readonly request: Request
  respondWith(response: Promise<Response>): void
}
interface SwMessageEvent extends SwExtendableEvent {
  readonly data: unknown
}
interface SwScope {
  readonly location: { readonly href: string }
  skipWaiting(): Promise<void>
  readonly clients: { claim(): Promise<void> }
  addEventListener(type: 'install' | 'activate', listener: (event: SwExtendableEvent) => void): void
  addEventListener(type: 'fetch', listener: (event: SwFetchEvent) => void): void
  addEventListener(type: 'message', listener: (event: SwMessageEvent) => void): void
}

// The same text as registerServiceWorker.ts's PRECACHE_DEFERRED_MESSAGE (not imported: sw.js
// must not share a module with the page, see precache.ts).
const PRECACHE_DEFERRED_MESSAGE = 'wardflow:precache-deferred'

const worker = self as unknown as SwScope
const manifest = __WARDFLOW_PRECACHE_MANIFEST__
const root = new URL('./', worker.location.href).href
const ownCache = cacheName(root, manifest.version)
const entries = entriesByUrl(manifest, root)
const installDeps = { caches, fetch: (url: string, init: RequestInit) => fetch(url, init), sha256: hexSha256 }
/** The running download of the deferred files, so repeated messages share it. */
let deferredDownload: Promise<void> | null = null

worker.addEventListener('install', (event) => {
  event.waitUntil(
    precacheBuild(manifest, root, installDeps, 'install').then(
      // The new cache is a whole build, so the new worker may take over at once: navigations
      // are network-first anyway, so an open page already loads the new index.html online.
      () => worker.skipWaiting(),
    ),
  )
})

worker.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (isOutdatedCache(name, root, manifest.version)) await caches.delete(name)
      }
      // The page that registered the worker is served by it without a reload.
      await worker.clients.claim()
    })(),
  )
})

worker.addEventListener('message', (event) => {
  if (event.data !== PRECACHE_DEFERRED_MESSAGE) return
  deferredDownload ??= precacheBuild(manifest, root, installDeps, 'deferred').catch((error: unknown) => {
    // Offline again, or a new deploy: the next page load asks again and resumes.
    console.warn('Wardflow offline copy: the large files are not all cached yet.', error)
    deferredDownload = null
  })
  event.waitUntil(deferredDownload)
})

worker.addEventListener('fetch', (event) => {
  const route = routeOf(event.request, root, entries)
  if (!route) return
  const { request } = event
  event.respondWith(
    route.strategy === 'cache-first'
      ? cacheFirst(request, route.cacheKey)
      : networkFirst(request, route.cacheKey),
  )
})

// caches.match with cacheName, not caches.open: opening would re-create a deleted cache empty.
function fromCache(cacheKey: string): Promise<Response | undefined> {
  return caches.match(cacheKey, { cacheName: ownCache })
}

async function cacheFirst(request: Request, cacheKey: string): Promise<Response> {
  return (await fromCache(cacheKey)) ?? fetch(request)
}

/** The network's answer, whatever its status; the cached copy only when there is no network. */
async function networkFirst(request: Request, cacheKey: string): Promise<Response> {
  try {
    return await fetch(request)
  } catch (error) {
    const copy = await fromCache(cacheKey)
    if (copy) return copy
    throw error
  }
}
