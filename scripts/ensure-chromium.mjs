// Makes sure Debian's Chromium is there for Playwright (it cannot download its own browser here).
// As root it installs the packages; otherwise it says exactly what to install.
import { existsSync } from 'node:fs'
import { execSync } from 'node:child_process'

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
if (existsSync(chromium)) process.exit(0)

const packages = 'chromium fonts-liberation'
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0
if (!isRoot) {
  console.error(
    `Chromium is missing at ${chromium}. Install it with:\n  sudo apt-get update && sudo apt-get install -y ${packages}\nor set CHROMIUM_PATH to a Chromium binary.`,
  )
  process.exit(1)
}
console.log(`Chromium not found at ${chromium}; installing Debian's ${packages}...`)
execSync(`apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${packages}`, {
  stdio: 'inherit',
})
if (!existsSync(chromium)) {
  console.error(`apt-get finished but ${chromium} is still missing.`)
  process.exit(1)
}
