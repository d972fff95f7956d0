/**
 * The service worker's decisions, kept free of service-worker globals so Vitest can check them:
 * which requests it answers and how, what its cache is called, and how a build is copied into
 * that cache at install. `sw.ts` wires these to the worker's events.
 *
 * Imported ONLY by sw.ts: if the page imported it too, the bundler would move it into a shared
 * chunk and sw.js (a classic worker script) would need an `import`.
 */

/** One file of the build, as the build-time plugin lists it (vite/precachePlugin.ts). */
export interface PrecacheEntry {
  /** Path relative to the site root (the folder of sw.js and index.html), e.g. `assets/x-1a2b.js`. */
  path: string
  /** Hex SHA-256 of the file's bytes: a cached copy is used only when it matches. */
  sha256: string
  size: number
  /** Content-hashed file name (Vite's assets/): its bytes never change, so cache first. */
  immutable: boolean
  /**
   * A large file (Monaco and its language workers, the tokenizer's worker with its table and the
   * page's fallback copy of the table): fetched after the worker has taken over (precacheBuild's
   * `phase: 'deferred'`), so the app shell is offline within seconds of a first visit instead of
   * after ~20 MB. Absent means false.
   */
  deferred?: boolean
}

export interface PrecacheManifest {
  /** Hash of every path and content hash: a new deploy gets a new cache. */
  version: string
  entries: PrecacheEntry[]
}

export type Strategy = 'cache-first' | 'network-first'

export interface Route {
  strategy: Strategy
  /** The URL the precached copy is stored under (no query string). */
  cacheKey: string
}

/** What a request looks like to the router (a Request has all three). */
export interface RequestLike {
  method: string
  url: string
  mode: string
}

const CACHE_PREFIX = 'wardflow-precache'

/**
 * The cache for one build at one scope. Sites on GitHub Pages share an origin (user.github.io)
 * and so one CacheStorage: the scope is part of the name, so a deploy only replaces its own.
 */
export function cacheName(scope: string, version: string): string {
  return `${CACHE_PREFIX} ${new URL(scope).pathname} ${version}`
}

/** True for this scope's caches of other builds: the ones to delete once a new build is active. */
export function isOutdatedCache(name: string, scope: string, version: string): boolean {
  const ours = `${CACHE_PREFIX} ${new URL(scope).pathname} `
  return name.startsWith(ours) && name !== cacheName(scope, version)
}

/** The absolute URL of every entry, keyed to its entry. */
export function entriesByUrl(manifest: PrecacheManifest, scope: string): Map<string, PrecacheEntry> {
  return new Map(manifest.entries.map((entry) => [new URL(entry.path, scope).href, entry]))
}

/**
 * How the worker answers `request`, or null to leave it alone (the browser then fetches as if
 * there were no worker): anything but GET, anything outside the scope (other origins: a flow's
 * calls to model servers and HTTP nodes) and any file that is not part of the build.
 * Navigations go to the network first so a new deploy shows at once online; files with a
 * content hash in their name come from the cache first; the build's other files (templates,
 * data, index.html) go to the network first too, so online the site behaves as if unhosted
 * by a worker and the cache is the offline copy.
 */
export function routeOf(
  request: RequestLike,
  scope: string,
  entries: ReadonlyMap<string, PrecacheEntry>,
): Route | null {
  if (request.method !== 'GET') return null
  const url = new URL(request.url)
  const root = new URL(scope)
  if (url.origin !== root.origin || !url.pathname.startsWith(root.pathname)) return null
  const navigation = request.mode === 'navigate'
  // A navigation's query string is app state; a file request with one is not a build file.
  if (!navigation && url.search !== '') return null
  let cacheKey = `${url.origin}${url.pathname}`
  if (navigation && cacheKey.endsWith('/')) cacheKey += 'index.html'
  const entry = entries.get(cacheKey)
  if (!entry) return null
  return { strategy: !navigation && entry.immutable ? 'cache-first' : 'network-first', cacheKey }
}

export interface InstallDeps {
  caches: CacheStorage
  fetch: (url: string, init: RequestInit) => Promise<Response>
  /** Hex SHA-256 of the bytes. */
  sha256: (bytes: ArrayBuffer) => Promise<string>
}

/**
 * `install`: every file, but deferred ones only when an older cache has them (no network), so
 * the worker takes over as soon as the app shell is cached. `deferred`: everything still
 * missing, from the network (sent by the page once the worker is in charge; safe to repeat).
 */
export type PrecachePhase = 'install' | 'deferred'

/**
 * How many files are fetched at once: the page's own requests keep most of the connection.
 * The one number not in src/defaults.ts: this module must not share a module with the page
 * (see the header), and defaults.ts is the page's.
 */
export const PRECACHE_CONCURRENCY = 3

/**
 * Copies every file of the build into this build's cache (see PrecachePhase for which, when). A file is taken from, in order: this
 * cache (an install interrupted before), any older cache (a file a deploy did not change), the
 * network; a copy is stored only when its SHA-256 is the manifest's, so a cache named after a
 * build holds exactly that build (a deploy landing mid-install fails it; the next update check
 * brings the new worker). Rejects when a file cannot be had: the install then fails and the
 * old worker, if any, stays in charge.
 */
export async function precacheBuild(
  manifest: PrecacheManifest,
  scope: string,
  deps: InstallDeps,
  phase: PrecachePhase = 'install',
  concurrency = PRECACHE_CONCURRENCY,
): Promise<void> {
  const cache = await deps.caches.open(cacheName(scope, manifest.version))
  const queue = [...manifest.entries]
  const copyOne = async (entry: PrecacheEntry): Promise<void> => {
    const url = new URL(entry.path, scope).href
    if (await cache.match(url)) return
    const old = await deps.caches.match(url)
    if (old && (await storeIfIntact(cache, url, old, entry, deps))) return
    if (phase === 'install' && entry.deferred === true) return
    // Content-hashed files may come from the HTTP cache; others are revalidated with the server.
    const fresh = await deps.fetch(url, { cache: entry.immutable ? 'default' : 'no-cache' })
    if (!fresh.ok) throw new Error(`precache: ${url} answered HTTP ${fresh.status}`)
    if (!(await storeIfIntact(cache, url, fresh, entry, deps))) {
      throw new Error(`precache: ${url} differs from this build (a new deploy?)`)
    }
  }
  const lane = async (): Promise<void> => {
    for (let entry = queue.shift(); entry; entry = queue.shift()) await copyOne(entry)
  }
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, lane))
}

async function storeIfIntact(
  cache: Cache,
  url: string,
  response: Response,
  entry: PrecacheEntry,
  deps: InstallDeps,
): Promise<boolean> {
  const bytes = await response.arrayBuffer()
  if ((await deps.sha256(bytes)) !== entry.sha256) return false
  // Headers are kept: workers and wasm need their Content-Type when served from the cache.
  await cache.put(url, new Response(bytes, { status: 200, headers: response.headers }))
  return true
}

/** Hex SHA-256, as the build-time plugin writes it (node:crypto's digest('hex')). */
export async function hexSha256(bytes: ArrayBuffer): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes)
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('')
}
