import { defineConfig } from '@playwright/test'
import { debianChromium } from './e2e/support/browser.ts'

/**
 * The GitHub Pages build (`npm run build:pages` -> dist-pages/, base /wardflow/) served by a
 * plain static server under /wardflow/ with no index.html fallback, as Pages serves it.
 * `npm run e2e` builds it first; run alone: `npm run build:pages && npx playwright test -c
 * playwright.pages.config.ts`.
 */
const PORT = Number(process.env.E2E_PAGES_PORT ?? 4174)
const SUB_PATH = process.env.E2E_PAGES_BASE ?? '/wardflow/'
const DIR = process.env.PAGES_OUT_DIR ?? 'dist-pages'

export default defineConfig({
  testDir: 'e2e',
  testMatch: ['**/pages.spec.ts', '**/templates.spec.ts', '**/offline.spec.ts'],
  outputDir: 'test-results/pages',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}${SUB_PATH}`,
    headless: true,
    trace: 'retain-on-failure',
  },
  projects: [{ name: 'pages-sub-path', use: debianChromium }],
  webServer: {
    command: `node scripts/serve-static.mjs --dir ${DIR} --base ${SUB_PATH} --port ${PORT}`,
    url: `http://127.0.0.1:${PORT}${SUB_PATH}`,
    reuseExistingServer: !process.env.CI,
    timeout: 30_000,
  },
})
