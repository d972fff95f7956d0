/**
 * The queue commands as the tests use them: `wardflow worker` as real child processes (so one
 * can be killed with SIGKILL or stopped with SIGTERM), `wardflow enqueue --wait` in this process
 * through the CLI's main(), and a look at what BullMQ and the result store hold.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { Queue, type Job } from 'bullmq'
import type { Redis } from 'ioredis'
import { main } from '../../../src/cli/main.ts'
import type { RowResult } from '../../../src/batch/result.ts'
import { ROOT } from '../../support/wardflowCli.ts'

/** The flow every job runs: Input -> Template -> LLM -> Output, its model the demo provider. */
export const FLOW = join(ROOT, 'tests/fixtures/cli/hello.wardflow.json')
/** How long a worker may take to start (ms): node, tsx and BullMQ on a loaded machine. */
const START_TIMEOUT_MS = 30_000

/**
 * A demo script whose one reply streams in `chunks` pieces `delayMs` apart: a latency-bound
 * model call of about (chunks - 1) x delayMs, spent waiting, not computing.
 */
export async function slowScript(dir: string, chunks: number, delayMs: number): Promise<string> {
  const text = 'abcdefghijklmnopqrstuvwxyz'.repeat(4).slice(0, chunks * 2)
  const file = join(dir, `slow-${chunks}x${delayMs}.demo-script.json`)
  const script = {
    format: 'wardflow.demo-script',
    version: 1,
    replies: [{ text, chunkSize: 2, delayMs, usage: { prompt: 10, completion: chunks } }],
    then: 'repeat-last',
  }
  await writeFile(file, JSON.stringify(script))
  return file
}

/** `rows` JSONL rows, each its own question (so every job's inputs differ). */
export async function rowsFile(dir: string, rows: number): Promise<string> {
  const file = join(dir, `rows-${rows}.jsonl`)
  const lines = Array.from({ length: rows }, (_, i) => JSON.stringify({ question: `question ${i}` }))
  await writeFile(file, `${lines.join('\n')}\n`)
  return file
}

export class WorkerProcess {
  stderr = ''
  readonly exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  private constructor(readonly child: ChildProcess) {
    child.stderr?.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()))
    this.exit = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })))
  }

  get pid(): number {
    return this.child.pid as number
  }

  /** The worker's name in BullMQ (`job.processedBy`): host:pid, as worker.ts names it. */
  get name(): string {
    return `${hostname()}:${this.pid}`
  }

  static async start(args: string[]): Promise<WorkerProcess> {
    const child = spawn(process.execPath, ['bin/wardflow.mjs', 'worker', ...args], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    const worker = new WorkerProcess(child)
    await worker.waitFor('worker ready', START_TIMEOUT_MS)
    return worker
  }

  /** Resolves once stderr says `text`; rejects when the process ends first or time runs out. */
  waitFor(text: string, timeoutMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setInterval(() => {
        if (this.stderr.includes(text)) done(undefined)
        else if (this.child.exitCode !== null || this.child.signalCode !== null)
          done(new Error(`worker ended before "${text}":\n${this.stderr}`))
        else if (Date.now() > deadline) done(new Error(`no "${text}" in ${timeoutMs} ms:\n${this.stderr}`))
      }, 20)
      const deadline = Date.now() + timeoutMs
      const done = (error: Error | undefined): void => {
        clearInterval(timer)
        if (error) reject(error)
        else resolve()
      }
    })
  }

  /** Ends the process unless it ended (afterEach). */
  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL')
  }
}

export interface Waited {
  code: number
  results: RowResult[]
  stderr: string
}

/** `wardflow enqueue FLOW --redis URL --data ROWS --wait`, in this process. */
export async function enqueueAndWait(redisUrl: string, data: string, extra: string[] = []): Promise<Waited> {
  const stdout = new PassThrough()
  const stderr = new PassThrough()
  let out = ''
  let err = ''
  stdout.on('data', (c: Buffer) => (out += c.toString()))
  stderr.on('data', (c: Buffer) => (err += c.toString()))
  const code = await main(['enqueue', FLOW, '--redis', redisUrl, '--data', data, '--wait', ...extra], {
    stdout,
    stderr,
    env: {},
  })
  const results = out
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as RowResult)
  return { code, results, stderr: err }
}

/** The queue as a test looks at it (closed with close()). */
export class QueueView {
  private readonly queue: Queue

  constructor(
    redisUrl: string,
    private readonly redis: Redis,
    readonly name = 'wardflow',
  ) {
    this.queue = new Queue(name, { connection: { url: redisUrl, maxRetriesPerRequest: null } })
    this.queue.on('error', () => {})
  }

  /** How many results the store holds (one key per job). */
  async storedResults(): Promise<number> {
    let count = 0
    let cursor = '0'
    do {
      const [next, keys] = await this.redis.scan(
        cursor,
        'MATCH',
        `wardflow:${this.name}:result:*`,
        'COUNT',
        1000,
      )
      cursor = next
      count += keys.length
    } while (cursor !== '0')
    return count
  }

  jobs(state: 'active' | 'completed' | 'waiting'): Promise<Job[]> {
    return this.queue.getJobs([state])
  }

  /** Resolves with the active jobs `worker` holds once it holds `count` of them, polling. */
  async activeOn(worker: WorkerProcess, count: number, timeoutMs: number): Promise<Job[]> {
    const deadline = Date.now() + timeoutMs
    while (Date.now() < deadline) {
      const held = (await this.jobs('active')).filter((job) => job.processedBy === worker.name)
      if (held.length >= count) return held
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    throw new Error(`worker ${worker.pid} took no job in ${timeoutMs} ms:\n${worker.stderr}`)
  }

  counts(): Promise<Record<string, number>> {
    return this.queue.getJobCounts()
  }

  close(): Promise<void> {
    return this.queue.close()
  }
}

/** Rows 0..n-1 each once, in order, all succeeded. */
export function everyRowOnce(results: RowResult[], n: number): boolean {
  return results.length === n && results.every((r, i) => r.row === i && r.status === 'success')
}
