/**
 * The Pages build works offline after one visit (issue #6): once the service worker controls
 * the page and its cache holds every file of the build, the browser goes offline and the app
 * still reloads with its flows, opens Monaco (and its workers), runs QuickJS and the research
 * agent's HTTP tools (which read the site's JSON) with the demo provider, and switches to
 * zh-CN (a catalogue loaded on demand).
 *
 * Chromium's offline emulation must reach the worker too, or this test would pass while the
 * worker quietly used the network: Playwright applies setOffline to service-worker targets
 * (unless serviceWorkers: 'block'). The probes below check it: the same requests that work
 * online fail once offline, from the page and from inside the worker.
 */
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import type { BrowserContext, Page } from '@playwright/test'
import { expect, test } from './support/fixtures.ts'

const OUT_DIR = process.env.PAGES_OUT_DIR ?? 'dist-pages'
/** The cache name of an older build (the worker names caches `wardflow-precache <scope> <version>`). */
const STALE_CACHE = (scopePath: string): string => `wardflow-precache ${scopePath} 0000000000000000`
/** The probe of a file the build does not have: a 404 online, a network error offline. */
const NOT_IN_BUILD = 'not-in-the-build.json'

// The probes' own failures: the missing file (404 online) and the other origin while offline.
test.use({ allowedErrors: /not-in-the-build\.json|ERR_INTERNET_DISCONNECTED \(http:\/\/localhost:/ })

/** Every file the site serves, as the static server sees it (sw.js itself is not precached). */
function siteFiles(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const path = `${prefix}${entry.name}`
    if (entry.isDirectory()) return siteFiles(dir, `${path}/`)
    return path === 'sw.js' || /\.(map|gz|br)$/.test(path) ? [] : [path]
  })
}

/** Waits until the worker is active and controls the page; what its caches hold then. */
async function offlineReady(page: Page, scopePath: string): Promise<{ names: string[]; urls: string[] }> {
  // `ready` resolves once a worker is active, which happens only after install has cached the
  // app shell (install waits for the copy; a failed copy fails the install).
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready
  })
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null)
  return page.evaluate(async (ours) => {
    const names = (await caches.keys()).filter((name) => name.startsWith('wardflow-precache'))
    const urls: string[] = []
    for (const name of names.filter((n) => n.startsWith(ours))) {
      urls.push(...(await (await caches.open(name)).keys()).map((r) => r.url))
    }
    return { names, urls }
  }, `wardflow-precache ${scopePath} `)
}

/** What the page, and the worker itself, get when they ask the network for something. */
async function probes(page: Page, context: BrowserContext, otherOrigin: string) {
  const [worker] = context.serviceWorkers()
  if (!worker) throw new Error('no service worker')
  return {
    // Not in the build, so the worker leaves it to the network: a 404 online.
    pageUncached: await page.evaluate(
      (url) =>
        fetch(url).then(
          (response) => `HTTP ${response.status}`,
          () => 'network error',
        ),
      `./${NOT_IN_BUILD}`,
    ),
    // Another origin (an opaque answer online): a stand-in for a model server.
    pageCrossOrigin: await page.evaluate(
      (url) =>
        fetch(url, { mode: 'no-cors' }).then(
          () => 'answered',
          () => 'network error',
        ),
      otherOrigin,
    ),
    // The worker's own fetch of a page it has cached: `no-store`, so only the network answers.
    worker: await worker.evaluate(() =>
      fetch('./index.html', { cache: 'no-store' }).then(
        (response) => `HTTP ${response.status}`,
        () => 'network error',
      ),
    ),
  }
}

test('after one online visit the whole site works offline', async ({ app, page, context, baseURL }) => {
  test.setTimeout(180_000)
  const site = new URL(baseURL ?? '')
  // Same server, another origin (localhost vs 127.0.0.1): a stand-in for a model server.
  const otherOrigin = `http://localhost:${site.port}${site.pathname}`

  await app.open()
  // An older build's cache of this site and one of another site on the same origin (as sites on
  // github.io share one), made before the worker activates: it registers after load and idle
  // and then downloads ~20 MB, so this evaluate comes seconds earlier.
  await page.evaluate(
    async (names) => {
      for (const name of names) await (await caches.open(name)).put('./old-file', new Response('old'))
    },
    [STALE_CACHE(site.pathname), STALE_CACHE('/another-site/')],
  )
  await app.templates.open()
  await app.templates.openTemplate('js-transform')
  const title = (await app.flows.current().textContent()) ?? ''

  const cached = await offlineReady(page, site.pathname)
  // The stale cache went at activate; the other site's stayed; this build has one cache.
  expect(cached.names).not.toContain(STALE_CACHE(site.pathname))
  expect(cached.names).toContain(STALE_CACHE('/another-site/'))
  expect(cached.names.filter((name) => name.startsWith(`wardflow-precache ${site.pathname} `))).toHaveLength(
    1,
  )
  const expected = siteFiles(OUT_DIR).map((path) => new URL(path, site).href)
  expect(expected.length).toBeGreaterThan(100)
  // The worker took over with the app shell; the large files (Monaco, the tokenizer) follow.
  await expect
    .poll(async () => (await offlineReady(page, site.pathname)).urls.sort(), { timeout: 90_000 })
    .toEqual(expected.sort())

  expect(await probes(page, context, otherOrigin)).toEqual({
    pageUncached: 'HTTP 404',
    pageCrossOrigin: 'answered',
    worker: 'HTTP 200',
  })
  await context.setOffline(true)
  expect(await probes(page, context, otherOrigin)).toEqual({
    pageUncached: 'network error',
    pageCrossOrigin: 'network error',
    worker: 'network error',
  })

  // From here on, every file of the site must come from the worker.
  const served: string[] = []
  const notFromWorker: string[] = []
  page.on('response', (response) => {
    const url = new URL(response.url())
    if (url.origin !== site.origin || url.pathname.endsWith(NOT_IN_BUILD)) return
    served.push(url.pathname)
    if (!response.fromServiceWorker()) notFromWorker.push(url.pathname)
  })

  await app.reload()
  await expect(app.flows.current()).toContainText(title)
  expect(await app.canvas.nodes.count()).toBeGreaterThan(1)

  // Monaco and its language worker, loaded lazily for the first time while offline.
  await app.canvas.select('stats')
  await expect(app.inspector.codeEditor()).toBeVisible({ timeout: 30_000 })
  await expect(app.inspector.codeEditor().locator('.view-lines')).toContainText('const lines')
  await expect.poll(() => served.some((path) => /\/assets\/ts\.worker-[^/]+\.js$/.test(path))).toBe(true)

  // QuickJS (wasm in a worker) runs the transform.
  await app.run.start()
  await app.run.finished(45_000)
  await app.run.expectStatus('stats', 'success')
  await app.run.expectStatus('report', 'success')

  // The research agent's HTTP tools read data/meetup/*.json from the site.
  await app.templates.open()
  await app.templates.openTemplate('research-agent')
  await app.run.start()
  await app.run.finished(45_000)
  await app.run.expectStatus('agent', 'success')
  await app.run.expectStatus('answer', 'success')
  expect(served).toEqual(expect.arrayContaining([`${site.pathname}data/meetup/cities.json`]))

  // A catalogue that was never loaded online.
  await app.setLanguage('zh-CN')
  await expect(page.getByRole('button', { name: '示例', exact: true })).toBeVisible()

  expect(served.length).toBeGreaterThan(10)
  expect(notFromWorker, 'site files that did not come from the service worker offline').toEqual([])
  await expect(app.errorBanner).toHaveCount(0)
})
