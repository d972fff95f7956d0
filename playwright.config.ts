import { defineConfig } from '@playwright/test'
import { debianChromium } from './e2e/support/browser.ts'

const BASE = process.env.BASE ?? '/'
const PORT = Number(process.env.E2E_PORT ?? 4173)
import { MOCK_PORTS } from './e2e/support/mockModel.ts'

/**
 * The production build (`vite build` -> dist/) served by `vite preview`, plus the mock model
 * server. The GitHub Pages build under a sub-path has its own config (playwright.pages.config.ts),
 * which also runs templates.spec.ts (every template, served from the sub-path) and
 * offline.spec.ts (the service worker's offline copy of that build).
 */
export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  testIgnore: ['**/pages.spec.ts', '**/templates.spec.ts', '**/offline.spec.ts'],
  outputDir: 'test-results/e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}${BASE}`,
    headless: true,
    trace: 'retain-on-failure',
    acceptDownloads: true,
  },
  projects: [{ name: 'debian-chromium', use: debianChromium }],
  webServer: [
    {
      command: `npx vite preview --host 127.0.0.1 --port ${PORT} --strictPort`,
      url: `http://127.0.0.1:${PORT}${BASE}`,
      reuseExistingServer: !process.env.CI,
      timeout: 60_000,
    },
    // One local OpenAI-compatible mock per spec that scripts replies (e2e/support/mockModel.ts):
    // specs run in parallel workers, and a shared mock would hand one spec's replies to another.
    ...Object.values(MOCK_PORTS).map((port) => ({
      command: `npx tsx tests/support/mockOpenAiServer.ts --port ${port}`,
      url: `http://127.0.0.1:${port}/`,
      // Never share a mock: its scripted replies belong to this run's tests (a second run on
      // the same machine must pick another E2E_MOCK_PORT instead of stealing replies).
      reuseExistingServer: false,
      timeout: 60_000,
    })),
  ],
})
