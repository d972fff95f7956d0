// Production builds for the browser bench: the app (dist/ when it is newer than every source,
// else a fresh `vite build` into a temp folder) and the bare React Flow page (temp folder).
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

/** Where the temp builds go; WARDFLOW_BENCH_TMP keeps benches of two checkouts on one machine apart. */
export const BENCH_TMP = process.env.WARDFLOW_BENCH_TMP ?? '/tmp/wardflow-bench'

function newestMtime(paths) {
  let newest = 0
  const visit = (path) => {
    if (!existsSync(path)) return
    const info = statSync(path)
    if (info.isDirectory()) for (const entry of readdirSync(path)) visit(join(path, entry))
    else newest = Math.max(newest, info.mtimeMs)
  }
  for (const p of paths) visit(p)
  return newest
}

function viteBuild(args, env = {}) {
  const run = spawnSync('npx', ['vite', 'build', ...args], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  if (run.status !== 0) throw new Error(`vite build ${args.join(' ')} failed:\n${run.stdout}\n${run.stderr}`)
}

const APP_SOURCES = ['src', 'public', 'index.html', 'vite.config.ts', 'package-lock.json']

/** The folder with the app's production build (base '/'). */
export function appBuild({ rebuild = false } = {}) {
  const sources = newestMtime(APP_SOURCES)
  const fresh = (dir) =>
    existsSync(join(dir, 'index.html')) && statSync(join(dir, 'index.html')).mtimeMs > sources
  if (!rebuild && !process.env.BASE && fresh('dist')) return 'dist'
  const out = join(BENCH_TMP, 'app')
  if (!rebuild && fresh(out)) return out
  console.error('building the app (vite build) ...')
  viteBuild(['--outDir', out, '--emptyOutDir', '--logLevel', 'warn'], { BASE: '/' })
  return out
}

/** The folder with the bench's own pages (bare React Flow, sandbox runner). */
export function bareBuild() {
  const out = join(BENCH_TMP, 'bare')
  const sources = newestMtime([
    'bench/browser/bare.tsx',
    'bench/browser/bare.html',
    'bench/browser/sandbox.html',
    'bench/browser/sandboxPage.ts',
    'bench/browser/vite.config.ts',
    'src/sandbox',
    'package-lock.json',
  ])
  const built = join(out, 'sandbox.html')
  if (existsSync(built) && statSync(built).mtimeMs > sources) return out
  console.error('building the bench pages (bare React Flow, sandbox runner) ...')
  viteBuild(['--config', 'bench/browser/vite.config.ts'], { OUT_DIR: out })
  return out
}
