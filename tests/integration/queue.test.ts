/**
 * Workers on a real Redis (issue 22): every test starts its own redis-server and its own
 * `wardflow worker` processes, puts runs on the queue with `wardflow enqueue --wait`, and
 * checks from Redis itself that each job's result is stored once, whatever happened to the
 * workers or to Redis meanwhile. Stalled jobs are checked every 500 ms (--stalled-interval,
 * --lock-duration) instead of the default 30 s, so a dead worker's jobs come back in time.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { RedisServer } from './support/redisServer.ts'
import {
  enqueueAndWait,
  everyRowOnce,
  QueueView,
  rowsFile,
  slowScript,
  WorkerProcess,
} from './support/queueCli.ts'

const FAST_RECOVERY = ['--stalled-interval', '500', '--lock-duration', '1000']

let redis: RedisServer
let dir: string
let view: QueueView
const workers: WorkerProcess[] = []

async function startWorkers(count: number, args: string[]): Promise<WorkerProcess[]> {
  const started = await Promise.all(
    Array.from({ length: count }, () => WorkerProcess.start(['--redis', redis.url, ...args])),
  )
  workers.push(...started)
  return started
}

beforeEach(async () => {
  redis = await RedisServer.start()
  dir = await mkdtemp(join(tmpdir(), 'wardflow-queue-'))
  view = new QueueView(redis.url, redis.client())
})

afterEach(async () => {
  for (const worker of workers.splice(0)) worker.kill()
  await view.close()
  await redis.stop()
  await rm(dir, { recursive: true, force: true })
})

describe('wardflow worker on a real Redis', () => {
  it('runs 200 jobs over 2 worker processes and stores each result exactly once', async () => {
    const script = await slowScript(dir, 3, 2)
    const [a, b] = await startWorkers(2, ['--script', script, '--concurrency', '8'])
    const waited = await enqueueAndWait(redis.url, await rowsFile(dir, 200))
    expect(waited.code, waited.stderr).toBe(0)
    expect(everyRowOnce(waited.results, 200)).toBe(true)
    expect(waited.results[7]?.outputs).toEqual({
      answer: 'abcdef',
      asked: 'Answer in a plain tone: question 7',
    })
    expect(await view.storedResults()).toBe(200)
    const completed = await view.jobs('completed')
    expect(completed).toHaveLength(200)
    // Each job stored its result the one time it ran; both workers took a share.
    expect(completed.every((job) => job.returnvalue === 'stored')).toBe(true)
    const byA = completed.filter((job) => job.processedBy === a?.name).length
    const byB = completed.filter((job) => job.processedBy === b?.name).length
    expect(byA + byB).toBe(200)
    expect(Math.min(byA, byB)).toBeGreaterThan(0)
  })

  it('loses nothing when a worker is killed with SIGKILL in the middle of its jobs', async () => {
    // 12 runs of about 1.5 s each; the victim holds 2 of them when it dies.
    const script = await slowScript(dir, 16, 100)
    const args = ['--script', script, '--concurrency', '2', ...FAST_RECOVERY]
    const [victim, rescuer] = await startWorkers(2, args)
    const waiting = enqueueAndWait(redis.url, await rowsFile(dir, 12))
    const held = await view.activeOn(victim as WorkerProcess, 2, 20_000)
    victim?.child.kill('SIGKILL')
    expect((await victim?.exit)?.signal).toBe('SIGKILL')
    const waited = await waiting
    expect(waited.code, waited.stderr).toBe(0)
    expect(everyRowOnce(waited.results, 12)).toBe(true)
    expect(await view.storedResults()).toBe(12)
    // The jobs the victim held went back to the queue and the rescuer ran them again.
    const completed = await view.jobs('completed')
    for (const job of held) {
      const done = completed.find((c) => c.id === job.id)
      expect(done?.processedBy).toBe(rescuer?.name)
      expect(done?.returnvalue).toBe('stored')
    }
    expect(completed.filter((job) => job.returnvalue === 'stored')).toHaveLength(12)
  })

  it('on SIGTERM finishes its running jobs, takes no new one and exits 0', async () => {
    const script = await slowScript(dir, 16, 100)
    const [leaving] = await startWorkers(1, ['--script', script, '--concurrency', '2'])
    const waiting = enqueueAndWait(redis.url, await rowsFile(dir, 6))
    const held = await view.activeOn(leaving as WorkerProcess, 2, 20_000)
    leaving?.child.kill('SIGTERM')
    expect((await leaving?.exit)?.code).toBe(0)
    expect(leaving?.stderr).toContain('SIGTERM: finishing 2 running jobs')
    // What it held is finished and stored; the rest waits for another worker.
    const completed = await view.jobs('completed')
    expect(completed.map((job) => job.id).sort()).toEqual(held.map((job) => job.id).sort())
    expect(completed.every((job) => job.processedBy === leaving?.name)).toBe(true)
    expect(await view.storedResults()).toBe(2)
    expect(await view.jobs('waiting')).toHaveLength(4)
    await startWorkers(1, ['--script', script, '--concurrency', '4'])
    const waited = await waiting
    expect(waited.code, waited.stderr).toBe(0)
    expect(everyRowOnce(waited.results, 6)).toBe(true)
    expect(await view.storedResults()).toBe(6)
  })

  it('on SIGTERM with no grace left hands its running jobs back to the queue', async () => {
    // Runs of about 3 s: a worker that finished them would still be busy when it exits.
    const script = await slowScript(dir, 16, 200)
    const [leaving] = await startWorkers(1, [
      '--script',
      script,
      '--concurrency',
      '2',
      '--shutdown-grace',
      '0',
    ])
    const waiting = enqueueAndWait(redis.url, await rowsFile(dir, 2))
    const held = await view.activeOn(leaving as WorkerProcess, 2, 20_000)
    const signalled = Date.now()
    leaving?.child.kill('SIGTERM')
    expect((await leaving?.exit)?.code).toBe(0)
    expect(Date.now() - signalled).toBeLessThan(2_500)
    expect(await view.storedResults()).toBe(0)
    expect((await view.jobs('waiting')).map((job) => job.id).sort()).toEqual(held.map((job) => job.id).sort())
    const [next] = await startWorkers(1, ['--script', script, '--concurrency', '2'])
    const waited = await waiting
    expect(waited.code, waited.stderr).toBe(0)
    expect(everyRowOnce(waited.results, 2)).toBe(true)
    const completed = await view.jobs('completed')
    expect(completed.every((job) => job.processedBy === next?.name && job.returnvalue === 'stored')).toBe(
      true,
    )
  })

  it('keeps going when Redis restarts under the workers: they reconnect and every job completes', async () => {
    const script = await slowScript(dir, 4, 100)
    await startWorkers(2, ['--script', script, '--concurrency', '4', ...FAST_RECOVERY])
    const client = redis.client()
    const waiting = enqueueAndWait(redis.url, await rowsFile(dir, 40))
    // Down once some results are stored and more are running.
    const deadline = Date.now() + 20_000
    while ((await view.storedResults()) < 5 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20))
    await redis.restart(1_000)
    const waited = await waiting
    expect(waited.code, waited.stderr).toBe(0)
    expect(everyRowOnce(waited.results, 40)).toBe(true)
    expect(await view.storedResults()).toBe(40)
    expect(await client.ping()).toBe('PONG')
    for (const worker of workers) expect(worker.child.exitCode).toBeNull()
  })
})
