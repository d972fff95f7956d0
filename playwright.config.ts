import { defineConfig, devices } from '@playwright/test'

// Debian's Chromium: Playwright cannot download its own browser on these machines.
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const BASE = process.env.BASE ?? '/'
const PORT = Number(process.env.E2E_PORT ?? 4173)

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  use: { baseURL: `http://127.0.0.1:${PORT}${BASE}`, headless: true, trace: 'retain-on-failure' },
  projects: [
    {
      name: 'debian-chromium',
      use: {
        ...devices['Desktop Chrome'],
        viewport: { width: 1400, height: 900 },
        launchOptions: {
          executablePath: CHROMIUM,
          args: ['--disable-dev-shm-usage', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
        },
      },
    },
  ],
  webServer: {
    command: `npx vite preview --host 127.0.0.1 --port ${PORT} --strictPort`,
    url: `http://127.0.0.1:${PORT}${BASE}`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
})
