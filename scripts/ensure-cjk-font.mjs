// Makes sure fontconfig knows a Chinese font, for the zh-CN screenshot (without one, Chromium
// draws the Chinese UI as empty boxes). As root it installs Debian's fonts-wqy-microhei;
// otherwise it says exactly what to install. Used by `npm run screenshots`.
import { execFileSync, execSync } from 'node:child_process'

const PACKAGE = 'fonts-wqy-microhei'

function hasChineseFont() {
  try {
    return execFileSync('fc-list', [':lang=zh'], { encoding: 'utf8' }).trim() !== ''
  } catch {
    // No fontconfig at all: no font either.
    return false
  }
}

if (hasChineseFont()) process.exit(0)

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0
if (!isRoot) {
  console.error(
    `No Chinese font (fc-list :lang=zh is empty), so the zh-CN screenshot would show boxes. Install one with:\n  sudo apt-get update && sudo apt-get install -y ${PACKAGE}`,
  )
  process.exit(1)
}
console.log(`No Chinese font found; installing Debian's ${PACKAGE}...`)
execSync(`apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${PACKAGE}`, {
  stdio: 'inherit',
})
if (!hasChineseFont()) {
  console.error(`apt-get finished but fc-list :lang=zh still lists no font.`)
  process.exit(1)
}
