// `node scripts/screenshots.mjs`: makes the user guide's screenshots (docs/screenshots/*.png)
// from the production build in Debian's Chromium at 1400x900, so they stay current. It drives
// the app like a person (templates, palette, inspector, runs, settings, language) through the
// same data-testids the e2e suite uses, and writes docs/screenshots/hero.png for the README.
// Options: --only name1,name2 (file names without .png), --rebuild.
import { execFileSync } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { chromium } from '@playwright/test'
import { appBuild } from '../bench/browser/build.mjs'
import { serveStatic } from '../bench/browser/server.mjs'

const OUT = 'docs/screenshots'
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const argv = process.argv.slice(2)
const onlyAt = argv.indexOf('--only')
const ONLY = onlyAt >= 0 ? (argv[onlyAt + 1] ?? '').split(',') : null

async function freshPage(browser, url, locale = 'en-US') {
  // No service worker: the pictures show the app, not its offline copy downloading alongside.
  const context = await browser.newContext({
    viewport: { width: 1400, height: 900 },
    locale,
    serviceWorkers: 'block',
  })
  const page = await context.newPage()
  await page.goto(url)
  await page.getByTestId('flow-list-item').first().waitFor()
  return { context, page }
}

async function shoot(page, name) {
  // Hover nothing and let transitions settle, so the pictures are stable.
  await page.mouse.move(1399, 899)
  await page.waitForTimeout(400)
  await page.screenshot({ path: `${OUT}/${name}.png` })
  console.log(`wrote ${OUT}/${name}.png`)
}

async function openTemplate(page, id) {
  await page.getByRole('button', { name: 'Templates', exact: true }).click()
  const gallery = page.getByTestId('template-gallery')
  await gallery.locator(`[data-testid="template-item"][data-template-id="${id}"]`).getByRole('button').click()
  await gallery.waitFor({ state: 'hidden' })
  await page.getByTestId('flow-node').first().waitFor()
  await page.waitForTimeout(300)
}

const node = (page, id) => page.locator(`[data-testid="flow-node"][data-node-id="${id}"]`)

/** Every screenshot: its file name and how to get the app there. */
const SHOTS = {
  async templates(page) {
    await page.getByRole('button', { name: 'Templates', exact: true }).click()
    await page.getByTestId('template-gallery').getByTestId('template-item').first().waitFor()
    await shoot(page, 'templates')
  },
  async canvas(page) {
    await openTemplate(page, 'llm-chain')
    await shoot(page, 'canvas')
  },
  async palette(page) {
    await openTemplate(page, 'js-transform')
    const surface = page.getByRole('application')
    const box = await surface.boundingBox()
    await page
      .getByTestId('palette-item-http')
      .dragTo(surface, { targetPosition: { x: box.width * 0.3, y: box.height * 0.72 } })
    await page.locator('[data-testid="flow-node"][data-node-type="http"]').waitFor()
    await shoot(page, 'palette')
  },
  async inspector(page) {
    await openTemplate(page, 'llm-chain')
    await node(page, 'draft').click({ position: { x: 40, y: 12 } })
    await page.getByTestId('node-inspector').waitFor()
    await page.waitForTimeout(600)
    await shoot(page, 'inspector')
  },
  async run(page) {
    await openTemplate(page, 'llm-chain')
    await page.getByTestId('run-flow').click()
    // Mid-run: the critique streams while the draft is done and the polish waits.
    const critique = node(page, 'critique')
    await critique.locator('[data-testid="node-console"]').waitFor()
    await page.waitForFunction(
      () =>
        (document.querySelector('[data-node-id="critique"] [data-testid="node-console"]')?.textContent ?? '')
          .length > 120,
    )
    await page.screenshot({ path: `${OUT}/run.png` })
    console.log(`wrote ${OUT}/run.png`)
  },
  async 'stuck-agent'(page) {
    await page.getByRole('button', { name: 'See the loop breaker' }).click()
    await node(page, 'agent').waitFor()
    await page.getByTestId('run-flow').click()
    await node(page, 'agent').locator('[data-testid="guard-alert"][data-level="trip"]').waitFor()
    await page.getByTestId('run-flow').and(page.locator(':enabled')).waitFor({ timeout: 30_000 })
    // The agent selected (its run details in the inspector), its console scrolled to the trip.
    await node(page, 'agent').click({ position: { x: 60, y: 12 } })
    await page.getByTestId('node-inspector').waitFor()
    await page.waitForTimeout(500)
    await node(page, 'agent')
      .locator('[data-testid="guard-alert"][data-level="trip"]')
      .scrollIntoViewIfNeeded()
    await shoot(page, 'stuck-agent')
    await page.screenshot({ path: `${OUT}/hero.png` })
    console.log(`wrote ${OUT}/hero.png`)
  },
  async 'settings-providers'(page) {
    await page.getByTestId('open-settings').click()
    const dialog = page.getByTestId('settings-dialog')
    await dialog.getByRole('tab', { name: 'Providers', exact: true }).click()
    await dialog.getByRole('button', { name: 'Add provider' }).click()
    const form = page.getByTestId('provider-form')
    await form.getByTestId('provider-id').fill('ollama')
    await form.getByTestId('provider-label').fill('Local Ollama')
    await form.getByLabel('Kind', { exact: true }).selectOption('openai')
    await form.getByTestId('provider-base-url').fill('http://127.0.0.1:11434/v1')
    await form.getByTestId('provider-model').fill('llama3.1')
    await shoot(page, 'settings-providers')
  },
  async 'settings-protection'(page) {
    await page.getByTestId('open-settings').click()
    const dialog = page.getByTestId('settings-dialog')
    await dialog.getByRole('tab', { name: 'Runtime protection', exact: true }).click()
    await shoot(page, 'settings-protection')
  },
  async 'zh-CN'(page) {
    await page.getByTestId('language-select').selectOption('zh-CN')
    await page.locator('html[lang="zh-CN"]').waitFor()
    await page.getByRole('button', { name: '模板', exact: true }).click()
    const gallery = page.getByTestId('template-gallery')
    await gallery
      .locator('[data-testid="template-item"][data-template-id="stuck-agent"]')
      .getByRole('button')
      .click()
    await gallery.waitFor({ state: 'hidden' })
    await page.getByTestId('run-flow').click()
    await node(page, 'agent').locator('[data-testid="guard-alert"][data-level="trip"]').waitFor()
    await page.getByTestId('run-flow').and(page.locator(':enabled')).waitFor({ timeout: 30_000 })
    await shoot(page, 'zh-CN')
  },
}

/** True when fontconfig knows a Chinese font (else the zh-CN picture shows empty boxes). */
function hasChineseFont() {
  try {
    return execFileSync('fc-list', [':lang=zh'], { encoding: 'utf8' }).trim() !== ''
  } catch {
    return false
  }
}

async function main() {
  mkdirSync(OUT, { recursive: true })
  if ((!ONLY || ONLY.includes('zh-CN')) && !hasChineseFont()) {
    console.error(
      'No Chinese font for the zh-CN screenshot: `npm run screenshots` installs one as root, or run `sudo apt-get install -y fonts-wqy-microhei`.',
    )
    process.exit(1)
  }
  const dir = appBuild({ rebuild: argv.includes('--rebuild') })
  const server = await serveStatic(dir)
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--disable-dev-shm-usage'] })
  let failed = 0
  try {
    for (const [name, take] of Object.entries(SHOTS)) {
      if (ONLY && !ONLY.includes(name)) continue
      const { context, page } = await freshPage(browser, server.url)
      try {
        await take(page)
      } catch (error) {
        failed += 1
        console.error(`${name}: ${error instanceof Error ? error.message : String(error)}`)
      } finally {
        await context.close()
      }
    }
  } finally {
    await browser.close()
    await server.close()
  }
  process.exit(failed === 0 ? 0 : 1)
}

void main()
