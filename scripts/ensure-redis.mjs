// Makes sure a redis-server binary is there for the queue integration tests (tests/integration/):
// each test starts its own server. As root it installs Debian's redis-server; otherwise it says
// exactly what to install. REDIS_SERVER may name another binary.
import { execSync } from 'node:child_process'

const binary = process.env.REDIS_SERVER ?? 'redis-server'

function present() {
  try {
    execSync(`${binary} --version`, { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

if (present()) process.exit(0)

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0
if (!isRoot) {
  console.error(
    `${binary} is missing. Install it with:\n  sudo apt-get update && sudo apt-get install -y redis-server\nor set REDIS_SERVER to a redis-server binary.`,
  )
  process.exit(1)
}
console.log(`${binary} not found; installing Debian's redis-server...`)
// Only the binary is wanted: the package's own service is not started (no init system in CI
// containers; the tests start their own servers on ports of their own).
execSync(
  'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends redis-server',
  { stdio: 'inherit' },
)
if (!present()) {
  console.error(`apt-get finished but ${binary} is still missing.`)
  process.exit(1)
}
