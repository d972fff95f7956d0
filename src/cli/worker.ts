/**
 * `wardflow worker --redis <url> [--concurrency N] [--queue NAME]` and every flag of `run` but
 * the file: takes run jobs from a BullMQ queue and stores each result once (queueStore.ts).
 * Job id = run id. A job whose worker dies goes back to the queue at the next stalled-job check
 * (`--stalled-interval`, `--lock-duration`); SIGTERM finishes the running jobs within
 * `--shutdown-grace` and hands the rest back to the queue; a second SIGTERM or Ctrl-C hands them
 * back at once. Keys come from this worker's environment and flags only, never from a job.
 */
import { createHash } from 'node:crypto'
import { hostname } from 'node:os'
import { Worker, WaitingError, type Job } from 'bullmq'
import { Redis } from 'ioredis'
import { WORKER_FLOWS_CACHED, WORKER_MAX_STALLED_COUNT } from '../defaults.ts'
import { notRunRow } from '../batch/result.ts'
import { BadInput, loadWorkflowText, type LoadedWorkflow } from './load.ts'
import type { RunIo } from './main.ts'
import type { WorkerOptions } from './manyArgs.ts'
import { ResultStore, type JobData } from './queueStore.ts'
import { runRow } from './batch.ts'
import { openTape } from './tapeFile.ts'
import { oneLine } from './terminalText.ts'

/** ioredis options for BullMQ: commands wait for a reconnect instead of failing (Redis restarting). */
export const redisOptions = { maxRetriesPerRequest: null, enableReadyCheck: true } as const

/** Parsed flows by the hash of their text: a batch's jobs carry the same flow. */
class FlowCache {
  private readonly flows = new Map<string, LoadedWorkflow>()

  get(data: JobData): LoadedWorkflow {
    const hash = createHash('sha256').update(data.flow).digest('hex')
    let loaded = this.flows.get(hash)
    if (loaded === undefined) {
      loaded = loadWorkflowText(data.flow, data.name)
      if (this.flows.size >= WORKER_FLOWS_CACHED) this.flows.delete(this.flows.keys().next().value as string)
      this.flows.set(hash, loaded)
    }
    return loaded
  }
}

interface Running {
  controller: AbortController
  handBack: boolean
}

export async function workerCommand(options: WorkerOptions, io: RunIo): Promise<number> {
  const connection = { url: options.redis, ...redisOptions }
  const redis = new Redis(options.redis, redisOptions)
  const store = new ResultStore(redis, options.queue)
  const flows = new FlowCache()
  const running = new Map<string, Running>()
  // One tape for every job: a worker may replay a cassette (CI of a queue setup, the benches).
  const tape = await openTape(options.run)
  let lastError = ''
  const complain = (error: unknown): void => {
    const text = error instanceof Error ? error.message : String(error)
    if (text !== lastError) io.err.write(`wardflow: worker: ${oneLine(text)}\n`)
    lastError = text
  }
  redis.on('error', complain)

  const process1 = async (job: Job<JobData>, token?: string): Promise<string> => {
    const id = job.id as string
    const data = job.data
    // Counted from the moment BullMQ hands the job over, so SIGTERM's count is what is active.
    const entry: Running = { controller: new AbortController(), handBack: false }
    running.set(id, entry)
    try {
      // Delivered again after its worker died having stored the result: nothing to run.
      if (await store.has(id)) return 'stored before'
      let loaded: LoadedWorkflow
      try {
        loaded = flows.get(data)
      } catch (error) {
        const reason = error instanceof BadInput ? error.message : String(error)
        await store.storeOnce(id, data.batch, notRunRow(data.row, 'error', reason), data.resultTtlS)
        return 'bad flow'
      }
      const result = await runRow(options.run, loaded, data.row, data.inputs, io, {
        tape,
        runId: id,
        signal: entry.controller.signal,
      })
      if (entry.handBack) {
        // Shutting down: the job goes back to the queue for another worker, with no result.
        await job.moveToWait(token)
        throw new WaitingError()
      }
      await store.storeOnce(id, data.batch, result, data.resultTtlS ?? options.resultTtlS)
      return 'stored'
    } finally {
      running.delete(id)
    }
  }

  const worker = new Worker<JobData, string>(options.queue, process1, {
    connection,
    // Stored on every job it takes (job.processedBy): which machine and process ran a run.
    name: `${hostname()}:${process.pid}`,
    concurrency: options.concurrency,
    stalledInterval: options.stalledIntervalMs,
    lockDuration: options.lockDurationMs,
    maxStalledCount: WORKER_MAX_STALLED_COUNT,
    autorun: false,
  })
  worker.on('error', complain)
  // A job that failed for good (stalled too often) still gets a result, so `--wait` ends.
  worker.on('failed', (job, error) => {
    if (job === undefined || error instanceof WaitingError || error.name === 'WaitingError') return
    const data = job.data
    void store
      .storeOnce(job.id as string, data.batch, notRunRow(data.row, 'error', error.message), data.resultTtlS)
      .catch(complain)
  })

  const stopped = new Promise<number>((resolve) => {
    let stopping = false
    const handBackAll = (): void => {
      for (const entry of running.values()) {
        entry.handBack = true
        entry.controller.abort()
      }
    }
    const stop = (signal: string): void => {
      if (stopping) {
        handBackAll()
        return
      }
      stopping = true
      io.err.write(
        `wardflow: worker: ${signal}: finishing ${running.size} running jobs (up to ${options.shutdownGraceMs} ms), taking no new ones\n`,
      )
      const grace = setTimeout(handBackAll, options.shutdownGraceMs)
      void worker
        .close()
        .catch(complain)
        .finally(() => {
          clearTimeout(grace)
          redis.disconnect()
          io.err.write('wardflow: worker: stopped\n')
          resolve(0)
        })
    }
    process.on('SIGTERM', () => stop('SIGTERM'))
    process.on('SIGINT', () => stop('SIGINT'))
  })

  await worker.waitUntilReady()
  io.err.write(
    `wardflow: worker ready on queue "${options.queue}" (concurrency ${options.concurrency}, pid ${process.pid})\n`,
  )
  void worker.run().catch(complain)
  return stopped
}
