/**
 * The page-start JavaScript budget (a project rule): the production build, opened in a fresh
 * context with no interaction, fetches at most INITIAL_JS_MAX_KB of JS, counted as the sum of
 * each JS response's gzip size (zlib default level, as bench/browser/bundle.mjs and a static
 * host compress) until the app is ready and the network has been idle. Prints the figure and
 * the chunks so a failure says what grew.
 */
import { gzipSync } from 'node:zlib'
import { expect, test } from './support/fixtures.ts'

/**
 * The project rule (BRIEF, docs/benchmarks.md): at most 250 KB (of 1,000 bytes) of gzip JS at start;
 * bench/browser/bundle.mjs holds the same bound (e2e imports nothing from src/).
 */
const INITIAL_JS_MAX_KB = 250
/** Bytes in a KB, as bench/browser/bundle.mjs counts them. */
const KB = 1000
/** Quiet time after network idle, so chunks a start-up effect imports late are counted too. */
const SETTLE_MS = 1000

test('the JavaScript fetched while the app starts stays within the gzip budget', async ({ app, page }) => {
  const pending: Promise<[string, number]>[] = []
  // The start catalogues are JSON data (src/i18n/startNamespaces.ts): not in the JS budget, but
  // printed beside it so the whole start's weight stays visible.
  const data: Promise<number>[] = []
  page.on('response', (response) => {
    const path = new URL(response.url()).pathname
    if (/\.json$/.test(path)) data.push(response.body().then((body) => gzipSync(body).length))
    if (!/\.m?js$/.test(path)) return
    pending.push(response.body().then((body) => [path, gzipSync(body).length]))
  })
  await app.open()
  await page.waitForLoadState('networkidle')
  await page.waitForTimeout(SETTLE_MS)
  const chunks = await Promise.all(pending)
  const totalKb = chunks.reduce((sum, [, bytes]) => sum + bytes, 0) / KB
  const list = chunks
    .sort((a, b) => b[1] - a[1])
    .map(([path, bytes]) => `  ${(bytes / KB).toFixed(1).padStart(7)} KB  ${path}`)
    .join('\n')
  const dataKb = (await Promise.all(data)).reduce((sum, bytes) => sum + bytes, 0) / KB
  console.log(
    `initial JS: ${totalKb.toFixed(1)} KB gzip (budget ${INITIAL_JS_MAX_KB} KB); JSON data beside it: ${dataKb.toFixed(1)} KB gzip\n${list}`,
  )
  expect(chunks.length, 'the start fetched JavaScript').toBeGreaterThan(0)
  expect(totalKb, `initial JS gzip KB:\n${list}`).toBeLessThanOrEqual(INITIAL_JS_MAX_KB)
})
