// `npm run bench`: runs every benchmark in bench/ in turn and writes their tables to
// docs/benchmarks.md, keeping the page's hand-kept section (scripts/benchPage.mjs). Node benches run through tsx; browser benches drive the production build in
// Debian's Chromium. Each bench prints medians and ratios and exits non-zero when a target fails.
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { benchmarksPage } from './benchPage.mjs'

const only = process.argv.slice(2)
const benches = [
  { name: 'engine', cmd: ['npx', 'tsx', 'bench/engine.bench.ts'] },
  { name: 'loop', cmd: ['npx', 'tsx', 'bench/loop.bench.ts'] },
  { name: 'guard', cmd: ['npx', 'tsx', 'bench/guard.bench.ts'] },
  { name: 'text-loop', cmd: ['npx', 'tsx', 'bench/textLoop.bench.ts'] },
  { name: 'condition', cmd: ['npx', 'tsx', 'bench/condition.bench.ts'] },
  { name: 'run-from-here', cmd: ['npx', 'tsx', 'bench/runFromHere.bench.ts'] },
  { name: 'structured', cmd: ['npx', 'tsx', 'bench/structured.bench.ts'] },
  { name: 'knowledge', cmd: ['npx', 'tsx', 'bench/knowledge.bench.ts'] },
  { name: 'sandbox', cmd: ['npx', 'tsx', 'bench/sandbox.bench.ts'] },
  { name: 'import-export', cmd: ['npx', 'tsx', 'bench/importExport.bench.ts'] },
  { name: 'ledger', cmd: ['npx', 'tsx', 'bench/ledger.bench.ts'] },
  { name: 'trace-export', cmd: ['npx', 'tsx', 'bench/traceExport.bench.ts'] },
  { name: 'mcp', cmd: ['npx', 'tsx', 'bench/mcp.bench.ts'] },
  { name: 'batch', cmd: ['npx', 'tsx', 'bench/batch.bench.ts'] },
  // Through Vitest (it needs Vite's transforms of the page's modules): the table comes back in a
  // file, apart from Vitest's own report.
  {
    name: 'record-as-you-go',
    cmd: ['npx', 'vitest', 'run', '-c', 'bench/vitest.config.ts', 'bench/recordAsYouGo.vbench.ts'],
    tableFile: true,
  },
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
  const tableFile = bench.tableFile
    ? join(tmpdir(), `wardflow-bench-${bench.name}-${process.pid}.txt`)
    : undefined
  const run = spawnSync(bench.cmd[0], bench.cmd.slice(1), {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    env: tableFile ? { ...process.env, BENCH_TABLE_FILE: tableFile } : process.env,
  })
  process.stdout.write(run.stdout)
  if (run.status !== 0) failed++
  const text = tableFile && existsSync(tableFile) ? readFileSync(tableFile, 'utf8') : run.stdout
  if (tableFile) rmSync(tableFile, { force: true })
  sections.push({ name: bench.name, ok: run.status === 0, text })
}

if (only.length === 0) {
  const page = 'docs/benchmarks.md'
  const previous = existsSync(page) ? readFileSync(page, 'utf8') : ''
  const writtenAt = new Date().toISOString()
  writeFileSync(
    page,
    benchmarksPage({ writtenAt, platform: process.platform, node: process.version, sections, previous }),
  )
  console.log('\nWrote docs/benchmarks.md')
}
process.exit(failed === 0 ? 0 : 1)
