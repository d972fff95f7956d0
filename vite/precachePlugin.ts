/**
 * Build step of the offline service worker (src/offline/sw.ts): bundles it to `<outDir>/sw.js`
 * (the site root, so its scope is the whole app under any base), then, once every file is
 * written (the bundle AND the copied public/ folder: templates, demo scripts, data), lists the
 * output with each file's SHA-256 and writes that manifest into sw.js. A new deploy therefore
 * changes sw.js, which is what makes browsers install the new worker and its new cache.
 *
 * Only in `vite build` (apply: 'build'): the dev server never gets a worker.
 */
import { createHash } from 'node:crypto'
import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type { Plugin, ResolvedConfig } from 'vite'
import { PRECACHE_DEFERRED_MIN_BYTES, SERVICE_WORKER_FILE } from '../src/defaults.ts'
import type { PrecacheEntry, PrecacheManifest } from '../src/offline/precache.ts'

/** The free identifier in sw.ts the manifest replaces (minifiers never rename globals). */
const MANIFEST_TOKEN = '__WARDFLOW_PRECACHE_MANIFEST__'
/** Never precached: source maps are for debuggers; .gz/.br twins are served transparently. */
const IGNORED = /\.(map|gz|br)$/

/** Every file under `dir`, as `/`-separated paths relative to it. */
async function listFiles(dir: string, prefix = ''): Promise<string[]> {
  const found: string[] = []
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = `${prefix}${entry.name}`
    if (entry.isDirectory()) found.push(...(await listFiles(join(dir, entry.name), `${path}/`)))
    else if (entry.isFile()) found.push(path)
  }
  return found
}

/** The manifest of the build in `outDir`; `hashedFiles` are the bundle's content-hashed files. */
export async function buildManifest(
  outDir: string,
  hashedFiles: ReadonlySet<string>,
): Promise<PrecacheManifest> {
  const paths = (await listFiles(outDir)).filter(
    (path) => path !== SERVICE_WORKER_FILE && !IGNORED.test(path),
  )
  const entries: PrecacheEntry[] = await Promise.all(
    paths.map(async (path) => {
      const bytes = await readFile(join(outDir, path))
      const sha256 = createHash('sha256').update(bytes).digest('hex')
      const immutable = hashedFiles.has(path)
      const deferred = bytes.length > PRECACHE_DEFERRED_MIN_BYTES
      return { path, sha256, size: bytes.length, immutable, ...(deferred ? { deferred } : {}) }
    }),
  )
  // Smallest first: the app shell and its chunks are cached before Monaco's multi-MB workers.
  entries.sort((a, b) => a.size - b.size || a.path.localeCompare(b.path))
  const listing = entries.map((entry) => `${entry.path} ${entry.sha256}`).join('\n')
  return { version: createHash('sha256').update(listing).digest('hex').slice(0, 16), entries }
}

export function precachePlugin(options: { source: string }): Plugin {
  let config: ResolvedConfig | undefined
  return {
    name: 'wardflow:precache',
    apply: 'build',
    configResolved(resolved) {
      config = resolved
    },
    buildStart() {
      const id = resolve(config?.root ?? process.cwd(), options.source)
      this.emitFile({ type: 'chunk', id, fileName: SERVICE_WORKER_FILE })
    },
    writeBundle: {
      sequential: true,
      order: 'post',
      async handler(_output, bundle) {
        if (!config) return
        const outDir = resolve(config.root, config.build.outDir)
        // Vite names what it emits under assetsDir with a content hash; index.html and public/
        // files keep their names, so they are not immutable.
        const assets = `${config.build.assetsDir}/`
        const hashed = new Set(Object.keys(bundle).filter((file) => file.startsWith(assets)))
        const manifest = await buildManifest(outDir, hashed)
        const workerPath = join(outDir, SERVICE_WORKER_FILE)
        const code = await readFile(workerPath, 'utf8')
        const parts = code.split(MANIFEST_TOKEN)
        if (parts.length !== 2) {
          throw new Error(
            `precache: expected ${MANIFEST_TOKEN} once in ${SERVICE_WORKER_FILE}, found ${parts.length - 1}`,
          )
        }
        await writeFile(workerPath, parts.join(JSON.stringify(manifest)))
        const megabytes = manifest.entries.reduce((sum, entry) => sum + entry.size, 0) / 1e6
        config.logger.info(
          `precache: ${manifest.entries.length} files, ${megabytes.toFixed(1)} MB, build ${manifest.version} -> ${SERVICE_WORKER_FILE}`,
        )
      },
    },
  }
}
