// `npm run build:pages`: the GitHub Pages build. Pages serves the site from /<repo>/ with no
// fallback to index.html, so the build uses that sub-path as its base (BASE, default /wardflow/).
import { spawnSync } from 'node:child_process'

const base = process.env.BASE ?? `/${process.env.GITHUB_REPOSITORY?.split('/')[1] ?? 'wardflow'}/`
const outDir = process.env.PAGES_OUT_DIR ?? 'dist-pages'
console.log(`Building for GitHub Pages with base ${base} into ${outDir}/`)
const run = spawnSync('npx', ['vite', 'build', '--base', base, '--outDir', outDir], { stdio: 'inherit' })
process.exit(run.status ?? 1)
