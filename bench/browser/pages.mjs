// Opening the two pages the bench compares: the production app and the bare React Flow page,
// each in a fresh browser context (empty IndexedDB, empty cache) with the probes installed.
import { installProbes } from './probes.mjs'

export const VIEWPORT = { width: 1400, height: 900 }

export async function newPage(browser) {
  // No service worker: after load it downloads the whole site (~20 MB) for offline use, which
  // would add to the requests and the CPU the bench measures (the offline copy is e2e-tested).
  const context = await browser.newContext({ viewport: VIEWPORT, locale: 'en-US', serviceWorkers: 'block' })
  const page = await context.newPage()
  await page.addInitScript(installProbes)
  const errors = []
  page.on('pageerror', (e) => errors.push(String(e)))
  return { context, page, errors }
}

/** The app, loaded and ready: storage open, the first flow shown. */
export async function openApp(browser, url) {
  const opened = await newPage(browser)
  await opened.page.goto(url)
  await opened.page.locator('.react-flow__renderer').waitFor()
  await opened.page.getByTestId('flow-list-item').first().waitFor()
  return opened
}

/** The bare page with its canvas sized like the app's. */
export async function openBare(browser, url, pane) {
  const opened = await newPage(browser)
  await opened.page.goto(`${url}bare.html?w=${Math.round(pane.width)}&h=${Math.round(pane.height)}`)
  await opened.page.locator('.react-flow__renderer').waitFor()
  return opened
}

/** The import file input of each page. */
export function fileInput(page, kind) {
  return page.locator(kind === 'app' ? '#import-workflow-input' : '#open')
}

export async function paneSize(page) {
  return page.evaluate(() => {
    const r = document.querySelector('.react-flow').getBoundingClientRect()
    return { width: r.width, height: r.height }
  })
}
