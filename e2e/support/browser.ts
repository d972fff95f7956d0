/** The browser both Playwright configs use: Debian's Chromium (Playwright cannot download its own here). */
import { devices } from '@playwright/test'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

export const debianChromium = {
  ...devices['Desktop Chrome'],
  viewport: { width: 1400, height: 900 },
  launchOptions: {
    executablePath: CHROMIUM,
    args: [
      // Debian's wrapper fails to add this itself in containers (see docs/stack notes).
      '--disable-dev-shm-usage',
      '--disable-gpu',
      // No background calls to Google services: the pages spec checks that nothing leaves.
      '--disable-background-networking',
      '--disable-component-update',
    ],
  },
}
