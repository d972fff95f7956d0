// `npm run bench`: runs every benchmark in bench/ in turn and writes their tables to
// docs/benchmarks.md. Node benches run through tsx; browser benches drive the production build in
// Debian's Chromium. Each bench prints medians and ratios and exits non-zero when a target fails.
import { spawnSync } from 'node:child_process'
import { existsSync, writeFileSync } from 'node:fs'

const only = process.argv.slice(2)
const benches = [
  { name: 'engine', cmd: ['npx', 'tsx', 'bench/engine.bench.ts'] },
  { name: 'guard', cmd: ['npx', 'tsx', 'bench/guard.bench.ts'] },
  { name: 'sandbox', cmd: ['npx', 'tsx', 'bench/sandbox.bench.ts'] },
  { name: 'import-export', cmd: ['npx', 'tsx', 'bench/importExport.bench.ts'] },
  { name: 'browser', cmd: ['node', 'bench/browser/run.mjs'], needsBuild: true },
].filter((b) => only.length === 0 || only.includes(b.name))

let failed = 0
const sections = []
for (const bench of benches) {
  const file = bench.cmd[bench.cmd.length - 1]
  if (!existsSync(file)) {
    console.log(`\n## ${bench.name}: skipped (${file} missing)`)
    continue
  }
  console.log(`\n## ${bench.name}`)
  const run = spawnSync(bench.cmd[0], bench.cmd.slice(1), {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  process.stdout.write(run.stdout)
  if (run.status !== 0) failed++
  sections.push(
    `## ${bench.name}${run.status === 0 ? '' : ' (FAILED)'}\n\n\`\`\`\n${run.stdout.trim()}\n\`\`\`\n`,
  )
}

if (only.length === 0) {
  const header = `# Benchmarks\n\nWritten by \`npm run bench\` on ${new Date().toISOString()} (${process.platform}, Node ${process.version}). These 2-core machines are noisy, so every target is a ratio against a baseline measured in the same run, or a generous absolute bound.\n\n`
  writeFileSync('docs/benchmarks.md', header + sections.join('\n'))
  console.log('\nWrote docs/benchmarks.md')
}
process.exit(failed === 0 ? 0 : 1)
