// Initial JavaScript: the gzip size (zlib default level, what a static host sends) of every JS
// file the page requests while it starts, without any interaction (the target: the app's areas
// load on first use, so nothing but the editor should arrive), and, for information, of the JS
// the built index.html names (its module script and modulepreload links), with a check that no
// Monaco or QuickJS file is among them (both load only when a code editor opens or code runs).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { newPage } from './pages.mjs'

const KB = 1000
/** The project rule, also e2e/bundleBudget.spec.ts's INITIAL_JS_MAX_KB. */
const INITIAL_JS_MAX_KB = 250
/** File names of Monaco (editor, language modes, workers) and QuickJS (worker, wasm, glue). */
const LAZY_ONLY = /CodeEditor|editor\.api|\.worker|Mode-|monaco|quickjs|emscripten|\.wasm$/

const gzipKb = (file) => gzipSync(readFileSync(file)).length / KB

/** The JS files index.html names: `<script type=module src>` and `<link rel=modulepreload>`. */
export function indexScripts(appDir) {
  const html = readFileSync(join(appDir, 'index.html'), 'utf8')
  const found = []
  for (const m of html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g)) found.push(m[1])
  for (const m of html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)) found.push(m[1])
  return found.map((src) => src.replace(/^\.?\//, ''))
}

export async function measureBundle(browser, urls) {
  const staticFiles = indexScripts(urls.appDir)
  const staticKb = staticFiles.reduce((sum, f) => sum + gzipKb(join(urls.appDir, f)), 0)

  const { context, page } = await newPage(browser)
  const requested = new Set()
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname
    if (/\.(m?js|wasm)$/.test(path)) requested.add(path.replace(/^\//, ''))
  })
  await page.goto(urls.app)
  await page.getByTestId('flow-list-item').first().waitFor()
  await page.waitForLoadState('networkidle')
  await page.waitForTimeout(1000)
  await context.close()
  const loaded = [...requested]
  const loadedKb = loaded.reduce((sum, f) => sum + gzipKb(join(urls.appDir, f)), 0)
  const lazyLoaded = loaded.filter((f) => LAZY_ONLY.test(f))
  console.error(`initial JS (index.html): ${staticFiles.join(', ')}`)
  console.error(`JS requested while loading: ${loaded.join(', ')}`)
  return [
    [
      'initial JS: all JS requested while the app starts (no interaction), gzip',
      loadedKb,
      null,
      'KB',
      `<= ${INITIAL_JS_MAX_KB} KB`,
      loadedKb <= INITIAL_JS_MAX_KB,
    ],
    ['  of which index.html script + modulepreload, gzip', staticKb, null, 'KB', 'info', true],
    [
      `Monaco/QuickJS files requested on load: ${lazyLoaded.length === 0 ? 'none' : lazyLoaded.join(' ')}`,
      lazyLoaded.length,
      null,
      'files',
      '0 files',
      lazyLoaded.length === 0,
    ],
  ]
}
