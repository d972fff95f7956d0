/**
 * The offline service worker's decisions (src/offline/precache.ts) and the build step that
 * lists the site (vite/precachePlugin.ts): which requests it answers, how caches are named and
 * replaced, and that a cache named after a build holds exactly that build.
 */
import { createHash } from 'node:crypto'
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import {
  cacheName,
  entriesByUrl,
  hexSha256,
  isOutdatedCache,
  precacheBuild,
  routeOf,
  type PrecacheManifest,
} from '../../src/offline/precache.ts'
import { SERVICE_WORKER_FILE } from '../../src/defaults.ts'
import { buildManifest } from '../../vite/precachePlugin.ts'
import { PRECACHE_DEFERRED_MIN_BYTES } from '../../src/defaults.ts'

const SCOPE = 'https://user.github.io/wardflow/'
const sha = (text: string): string => createHash('sha256').update(text).digest('hex')

const FILES: Record<string, string> = {
  'index.html': '<!doctype html>',
  'assets/index-abc123.js': 'console.log(1)',
  'templates/index.json': '{"templates":[]}',
}
const MANIFEST: PrecacheManifest = {
  version: 'v1',
  entries: Object.entries(FILES).map(([path, text]) => ({
    path,
    sha256: sha(text),
    size: text.length,
    immutable: path.startsWith('assets/'),
  })),
}
const ENTRIES = entriesByUrl(MANIFEST, SCOPE)

/** A CacheStorage in memory: enough of the interface for precacheBuild. */
class MemoryCaches {
  readonly stores = new Map<string, Map<string, Response>>()
  async open(name: string): Promise<Cache> {
    const store = this.stores.get(name) ?? new Map<string, Response>()
    this.stores.set(name, store)
    const cache = {
      match: async (url: string) => store.get(url)?.clone(),
      put: async (url: string, response: Response) => void store.set(url, response),
    }
    return cache as unknown as Cache
  }
  async match(url: string): Promise<Response | undefined> {
    for (const store of this.stores.values()) if (store.has(url)) return store.get(url)?.clone()
    return undefined
  }
  text(name: string, url: string): Promise<string> | undefined {
    return this.stores.get(name)?.get(url)?.clone().text()
  }
}

function siteFetch(files: Record<string, string>, log: string[]) {
  return async (url: string): Promise<Response> => {
    log.push(url)
    const path = url.slice(SCOPE.length)
    const body = files[path]
    return body === undefined ? new Response('missing', { status: 404 }) : new Response(body)
  }
}

function deps(caches: MemoryCaches, files: Record<string, string>, log: string[]) {
  return {
    caches: caches as unknown as CacheStorage,
    fetch: siteFetch(files, log),
    sha256: hexSha256,
  }
}

describe('routeOf', () => {
  const get = (url: string, mode = 'cors') => routeOf({ method: 'GET', url, mode }, SCOPE, ENTRIES)

  it('answers navigations network-first from the index.html copy, whatever the query string', () => {
    const route = { strategy: 'network-first', cacheKey: `${SCOPE}index.html` }
    expect(get(SCOPE, 'navigate')).toEqual(route)
    expect(get(`${SCOPE}?flow=42`, 'navigate')).toEqual(route)
    expect(get(`${SCOPE}index.html`, 'navigate')).toEqual(route)
  })

  it('serves content-hashed files cache-first and the build’s other files network-first', () => {
    expect(get(`${SCOPE}assets/index-abc123.js`)).toEqual({
      strategy: 'cache-first',
      cacheKey: `${SCOPE}assets/index-abc123.js`,
    })
    expect(get(`${SCOPE}templates/index.json`)?.strategy).toBe('network-first')
  })

  it('leaves alone other origins, other sub-paths, other methods and files not in the build', () => {
    expect(get('https://api.openai.com/v1/chat/completions')).toBeNull()
    expect(get('https://user.github.io/other-repo/assets/index-abc123.js')).toBeNull()
    expect(get('https://user.github.io/wardflow-old/', 'navigate')).toBeNull()
    expect(routeOf({ method: 'POST', url: `${SCOPE}index.html`, mode: 'cors' }, SCOPE, ENTRIES)).toBeNull()
    expect(get(`${SCOPE}data/not-in-the-build.json`)).toBeNull()
    expect(get(`${SCOPE}no/such/page`, 'navigate')).toBeNull()
    expect(get(`${SCOPE}assets/index-abc123.js?v=2`)).toBeNull()
  })
})

describe('cache names', () => {
  it('name the scope and the build, so a deploy replaces only its own site’s cache', () => {
    const current = cacheName(SCOPE, 'v2')
    expect(isOutdatedCache(cacheName(SCOPE, 'v1'), SCOPE, 'v2')).toBe(true)
    expect(isOutdatedCache(current, SCOPE, 'v2')).toBe(false)
    expect(isOutdatedCache(cacheName('https://user.github.io/other/', 'v1'), SCOPE, 'v2')).toBe(false)
    expect(isOutdatedCache('someone-elses-cache', SCOPE, 'v2')).toBe(false)
  })
})

describe('precacheBuild', () => {
  it('stores every file of the build, with its headers, and fetches at most 3 at once', async () => {
    const caches = new MemoryCaches()
    let inFlight = 0
    let most = 0
    const fetchSlowly = async (url: string): Promise<Response> => {
      inFlight += 1
      most = Math.max(most, inFlight)
      await new Promise((resolve) => setTimeout(resolve, 5))
      inFlight -= 1
      const body = FILES[url.slice(SCOPE.length)] ?? ''
      return new Response(body, { headers: { 'Content-Type': 'text/javascript' } })
    }
    const many: PrecacheManifest = { version: 'v1', entries: [...MANIFEST.entries, ...MANIFEST.entries] }
    await precacheBuild(many, SCOPE, { ...deps(caches, FILES, []), fetch: fetchSlowly })
    const name = cacheName(SCOPE, 'v1')
    expect(await caches.text(name, `${SCOPE}index.html`)).toBe(FILES['index.html'])
    expect(caches.stores.get(name)?.get(`${SCOPE}assets/index-abc123.js`)?.headers.get('content-type')).toBe(
      'text/javascript',
    )
    expect(caches.stores.get(name)?.size).toBe(3)
    expect(most).toBe(3)
  })

  it('takes unchanged files from an older build’s cache and fetches only the rest', async () => {
    const caches = new MemoryCaches()
    const old = await caches.open(cacheName(SCOPE, 'v0'))
    await old.put(`${SCOPE}assets/index-abc123.js`, new Response(FILES['assets/index-abc123.js']))
    await old.put(`${SCOPE}index.html`, new Response('<!doctype html> the OLD page'))
    const log: string[] = []
    await precacheBuild(MANIFEST, SCOPE, deps(caches, FILES, log))
    expect(log.sort()).toEqual([`${SCOPE}index.html`, `${SCOPE}templates/index.json`])
    expect(await caches.text(cacheName(SCOPE, 'v1'), `${SCOPE}index.html`)).toBe(FILES['index.html'])
  })

  it('resumes an interrupted install without fetching again', async () => {
    const caches = new MemoryCaches()
    await precacheBuild(MANIFEST, SCOPE, deps(caches, FILES, []))
    const log: string[] = []
    await precacheBuild(MANIFEST, SCOPE, deps(caches, FILES, log))
    expect(log).toEqual([])
  })

  it('fails when the server has another build’s file or none, and stores no wrong copy', async () => {
    const caches = new MemoryCaches()
    const redeployed = { ...FILES, 'templates/index.json': '{"templates":["new"]}' }
    await expect(precacheBuild(MANIFEST, SCOPE, deps(caches, redeployed, []))).rejects.toThrow(
      /templates\/index\.json differs from this build/,
    )
    expect(caches.stores.get(cacheName(SCOPE, 'v1'))?.has(`${SCOPE}templates/index.json`)).toBe(false)
    const missing = { ...FILES, 'index.html': undefined } as unknown as Record<string, string>
    await expect(precacheBuild(MANIFEST, SCOPE, deps(new MemoryCaches(), missing, []))).rejects.toThrow(
      /HTTP 404/,
    )
  })
})

describe('precacheBuild in two phases', () => {
  const BIG = 'assets/ts.worker-abc.js'
  const files = { ...FILES, [BIG]: 'a large Monaco worker' }
  const manifest: PrecacheManifest = {
    version: 'v1',
    entries: [
      ...MANIFEST.entries,
      { path: BIG, sha256: sha(files[BIG] ?? ''), size: 2_000_000, immutable: true, deferred: true },
    ],
  }

  it('install leaves deferred files to the later phase, which fetches only them', async () => {
    const caches = new MemoryCaches()
    const log: string[] = []
    await precacheBuild(manifest, SCOPE, deps(caches, files, log), 'install')
    expect(log).not.toContain(`${SCOPE}${BIG}`)
    expect(caches.stores.get(cacheName(SCOPE, 'v1'))?.size).toBe(3)
    log.length = 0
    await precacheBuild(manifest, SCOPE, deps(caches, files, log), 'deferred')
    expect(log).toEqual([`${SCOPE}${BIG}`])
    expect(await caches.text(cacheName(SCOPE, 'v1'), `${SCOPE}${BIG}`)).toBe(files[BIG])
  })

  it('install still takes a deferred file an older build cached, without the network', async () => {
    const caches = new MemoryCaches()
    const old = await caches.open(cacheName(SCOPE, 'v0'))
    await old.put(`${SCOPE}${BIG}`, new Response(files[BIG]))
    const log: string[] = []
    await precacheBuild(manifest, SCOPE, deps(caches, files, log), 'install')
    expect(log).not.toContain(`${SCOPE}${BIG}`)
    expect(await caches.text(cacheName(SCOPE, 'v1'), `${SCOPE}${BIG}`)).toBe(files[BIG])
  })
})

describe('buildManifest (vite/precachePlugin.ts)', () => {
  let dir = ''
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true })
  })

  it('lists every output file but sw.js and source maps, smallest first, with the browser’s hashes', async () => {
    dir = await mkdtemp(join(tmpdir(), 'wardflow-precache-'))
    await mkdir(join(dir, 'assets'))
    await mkdir(join(dir, 'data', 'meetup'), { recursive: true })
    await writeFile(join(dir, 'index.html'), '<!doctype html><title>x</title>')
    await writeFile(join(dir, 'assets', 'index-abc123.js'), 'x'.repeat(100))
    await writeFile(join(dir, 'assets', 'index-abc123.js.map'), '{}')
    await writeFile(join(dir, 'data', 'meetup', 'cities.json'), '[]')
    await writeFile(join(dir, SERVICE_WORKER_FILE), 'self')
    const manifest = await buildManifest(dir, new Set(['assets/index-abc123.js']))
    expect(manifest.entries.map((e) => [e.path, e.immutable])).toEqual([
      ['data/meetup/cities.json', false],
      ['index.html', false],
      ['assets/index-abc123.js', true],
    ])
    const bytes = new TextEncoder().encode('[]')
    expect(manifest.entries[0]?.sha256).toBe(await hexSha256(bytes.buffer))

    await writeFile(join(dir, 'data', 'meetup', 'cities.json'), '["Lyon"]')
    const next = await buildManifest(dir, new Set(['assets/index-abc123.js']))
    expect(next.version).not.toBe(manifest.version)
    expect(await buildManifest(dir, new Set(['assets/index-abc123.js']))).toEqual(next)
  })

  it('marks files over PRECACHE_DEFERRED_MIN_BYTES as deferred, and only those', async () => {
    dir = await mkdtemp(join(tmpdir(), 'wardflow-precache-'))
    await writeFile(join(dir, 'small.js'), 'x'.repeat(PRECACHE_DEFERRED_MIN_BYTES))
    await writeFile(join(dir, 'large.js'), 'x'.repeat(PRECACHE_DEFERRED_MIN_BYTES + 1))
    const manifest = await buildManifest(dir, new Set())
    expect(manifest.entries.map((e) => [e.path, e.deferred === true])).toEqual([
      ['small.js', false],
      ['large.js', true],
    ])
  })
})
