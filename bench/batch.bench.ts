/**
 * Batch bench (`npx tsx bench/batch.bench.ts`, part of `npm run bench`; issue 22): ratios in one
 * run on a latency-bound flow, the integration tests' hello flow (Input -> Template -> LLM ->
 * Output) on the demo provider with a script whose reply streams in 11 chunks 20 ms apart (about
 * 200 ms of waiting per row, as a model call is). In-process: the real CLI `wardflow batch` (the
 * batch pool + runRow) at --concurrency 8 against 1: throughput >= 5x. With Redis (Debian's
 * redis-server, started as the integration tests start it: tests/integration/support): real
 * `wardflow worker` processes and `wardflow enqueue --wait`: 2 workers (concurrency 1 each)
 * >= 1.7x one worker, and the queue's overhead per job (one worker against the in-process batch
 * at concurrency 1, same rows; the enqueue command's own start and its wait for results
 * included, spread over the jobs) <= 5 ms; without redis-server a SKIP line. Wall time: the rows
 * wait, they do not compute. Exits non-zero when a target fails.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { execSync } from 'node:child_process'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { main } from '../src/cli/main.ts'
import { RedisServer } from '../tests/integration/support/redisServer.ts'
import {
  enqueueAndWait,
  FLOW,
  rowsFile,
  slowScript,
  WorkerProcess,
} from '../tests/integration/support/queueCli.ts'

const ROWS = 16
const CHUNKS = 11
const DELAY_MS = 20
const rowWaitMs = (CHUNKS - 1) * DELAY_MS

const dir = await mkdtemp(join(tmpdir(), 'wardflow-bench-batch-'))
const script = await slowScript(dir, CHUNKS, DELAY_MS)
const data = await rowsFile(dir, ROWS)

/** `wardflow batch` in this process; wall ms of the whole batch. */
async function batch(concurrency: number): Promise<number> {
  const stdout = new PassThrough().resume()
  const stderr = new PassThrough().resume()
  const start = performance.now()
  const code = await main(
    ['batch', FLOW, '--data', data, '--concurrency', String(concurrency), '--script', script],
    { stdout, stderr, env: {} },
  )
  const ms = performance.now() - start
  if (code !== 0) throw new Error(`wardflow batch exited ${code}`)
  return ms
}

const rows: string[][] = [['measure', 'wall', 'ratio / baseline', 'target', 'result']]
let failed = false
function row(measure: string, wall: string, ratio: string, target: string, pass: boolean | null): void {
  rows.push([measure, wall, ratio, target, pass === null ? 'SKIP' : pass ? 'PASS' : 'FAIL'])
  if (pass === false) failed = true
}

try {
  await batch(2) // warm-up: modules, JIT
  const one = await batch(1)
  const eight = await batch(8)
  const speedup = one / eight
  row(
    `batch of ${ROWS} rows, --concurrency 8`,
    `${eight.toFixed(0)} ms`,
    `x${speedup.toFixed(2)} of --concurrency 1 (${one.toFixed(0)} ms)`,
    '>= 5x',
    speedup >= 5,
  )

  let redisPresent = true
  try {
    execSync(`${process.env.REDIS_SERVER ?? 'redis-server'} --version`, { stdio: 'ignore' })
  } catch {
    redisPresent = false
  }
  if (!redisPresent) {
    row('queue: 2 workers against 1', '-', 'redis-server not installed', '>= 1.7x', null)
    row('queue: overhead per job against in-process', '-', 'redis-server not installed', '<= 5 ms', null)
  } else {
    const redis = await RedisServer.start()
    const workers: WorkerProcess[] = []
    const args = ['--redis', redis.url, '--concurrency', '1', '--script', script]
    try {
      const timed = async (): Promise<number> => {
        const start = performance.now()
        const waited = await enqueueAndWait(redis.url, data)
        if (waited.code !== 0 || waited.results.length !== ROWS) throw new Error(`enqueue: ${waited.stderr}`)
        return performance.now() - start
      }
      workers.push(await WorkerProcess.start(args))
      await timed() // warm-up of the worker
      const oneWorker = await timed()
      workers.push(await WorkerProcess.start(args))
      await timed()
      const twoWorkers = await timed()
      const ratio = oneWorker / twoWorkers
      row(
        `queue: ${ROWS} jobs, 2 workers (concurrency 1 each)`,
        `${twoWorkers.toFixed(0)} ms`,
        `x${ratio.toFixed(2)} of 1 worker (${oneWorker.toFixed(0)} ms)`,
        '>= 1.7x',
        ratio >= 1.7,
      )
      const overhead = (oneWorker - one) / ROWS
      row(
        'queue: overhead per job, 1 worker against in-process batch at concurrency 1',
        `${overhead.toFixed(2)} ms`,
        `mean of ${ROWS} jobs: (${oneWorker.toFixed(0)} - ${one.toFixed(0)}) ms / ${ROWS}`,
        '<= 5 ms',
        overhead <= 5,
      )
    } finally {
      for (const w of workers) w.kill()
      await Promise.all(workers.map((w) => w.exit))
      await redis.stop()
    }
  }
} finally {
  await rm(dir, { recursive: true, force: true })
}

const widths = (rows[0] as string[]).map((_, col) => Math.max(...rows.map((r) => (r[col] as string).length)))
for (const line of rows)
  console.log(
    line
      .map((cell, col) => cell.padEnd(widths[col] as number))
      .join('  ')
      .trimEnd(),
  )
console.log(
  `(one run each after a warm-up; each row's model call waits ~${rowWaitMs} ms (demo script, ${CHUNKS} chunks ` +
    `${DELAY_MS} ms apart); wall time; load average ${loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')}; Node ${process.version})`,
)
process.exit(failed ? 1 : 0)
