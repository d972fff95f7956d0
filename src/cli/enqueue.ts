/**
 * `wardflow enqueue <flow> --redis <url> [--data rows.jsonl] [--wait] [--out results.jsonl]`:
 * puts one run job per row (or one job for the --input values) on the BullMQ queue. Job id = run
 * id (`run_<batch>_<row>`). With --wait it blocks until every result is stored and prints them
 * in row order, in `batch --out`'s line shape; exit 1 when a row failed. Without --wait it
 * prints one `{ "row", "jobId" }` line per job and exits 0.
 */
import { randomBytes } from 'node:crypto'
import { createWriteStream, openAsBlob } from 'node:fs'
import { basename } from 'node:path'
import { Queue } from 'bullmq'
import { Redis } from 'ioredis'
import { ENQUEUE_ADD_BULK_JOBS, ENQUEUE_WAIT_POLL_MS, QUEUE_KEEP_FINISHED_JOBS } from '../defaults.ts'
import { columnInputs } from '../batch/mapping.ts'
import { notRunRow, resultLine, type RowResult } from '../batch/result.ts'
import { formatOf, readRows, type DataRow } from '../batch/rows.ts'
import { InOrder } from './batch.ts'
import { BadInput, loadWorkflowText, readText } from './load.ts'
import type { RunIo } from './main.ts'
import type { EnqueueOptions } from './manyArgs.ts'
import { ResultStore, type JobData } from './queueStore.ts'
import { redisOptions } from './worker.ts'
import { jsonLine } from './terminalText.ts'

async function rowsOf(options: EnqueueOptions): Promise<DataRow[]> {
  if (options.data === undefined) return [{ index: 0, values: {} }]
  let source: ReadableStream<Uint8Array>
  try {
    source = (await openAsBlob(options.data)).stream()
  } catch (error) {
    throw new BadInput(`cannot read the data file ${options.data}: ${String(error)}`)
  }
  const rows: DataRow[] = []
  for await (const page of readRows(source, { format: formatOf(options.data) })) rows.push(...page)
  return rows
}

export async function enqueueCommand(options: EnqueueOptions, io: RunIo): Promise<number> {
  // The flow is checked here, so a bad file is exit 2 before anything is queued; the text
  // checked is the text queued.
  const flow = await readText(options.file, 'workflow file')
  loadWorkflowText(flow, options.file)
  const rows = await rowsOf(options)
  const batch = `${Date.now().toString(36)}${randomBytes(4).toString('hex')}`
  const queue = new Queue<JobData>(options.queue, { connection: { url: options.redis, ...redisOptions } })
  const redis = new Redis(options.redis, redisOptions)
  const store = new ResultStore(redis, options.queue)
  const out = options.out === undefined ? undefined : createWriteStream(options.out, { encoding: 'utf8' })
  const write = (line: string): void => {
    if (out) out.write(line)
    else io.out.write(line)
  }
  const ordered = new InOrder((result) => write(`${resultLine(result)}\n`))
  let failed = 0
  const settle = (result: RowResult): void => {
    if (result.status !== 'success') failed++
    ordered.push(result)
  }
  try {
    const jobs = rows
      .filter((row) => row.problem === undefined)
      .map((row) => ({
        name: 'run',
        data: {
          flow,
          name: basename(options.file),
          inputs: { ...options.inputs, ...columnInputs(row.values) },
          row: row.index,
          batch,
          resultTtlS: options.resultTtlS,
        },
        opts: {
          jobId: `run_${batch}_${row.index}`,
          removeOnComplete: { count: QUEUE_KEEP_FINISHED_JOBS },
          removeOnFail: { count: QUEUE_KEEP_FINISHED_JOBS },
        },
      }))
    for (let i = 0; i < jobs.length; i += ENQUEUE_ADD_BULK_JOBS)
      await queue.addBulk(jobs.slice(i, i + ENQUEUE_ADD_BULK_JOBS))
    // Unreadable rows are never queued: their result is their problem.
    for (const row of rows) if (row.problem !== undefined) settle(notRunRow(row.index, 'error', row.problem))
    if (!options.wait) {
      for (const job of jobs) io.out.write(jsonLine({ row: job.data.row, jobId: job.opts.jobId }))
      io.err.write(`wardflow: queued ${jobs.length} runs on "${options.queue}" (batch ${batch})\n`)
      return 0
    }
    io.err.write(`wardflow: queued ${jobs.length} runs on "${options.queue}", waiting for their results\n`)
    let left = jobs.length
    const interrupted = new AbortController()
    const onSigint = (): void => interrupted.abort()
    process.once('SIGINT', onSigint)
    try {
      while (left > 0 && !interrupted.signal.aborted) {
        const id = await store.nextDone(batch, ENQUEUE_WAIT_POLL_MS / 1000)
        if (id === null) continue
        const result = await store.get(id)
        if (result === undefined) continue
        left--
        settle(result)
      }
    } finally {
      process.removeListener('SIGINT', onSigint)
    }
    if (interrupted.signal.aborted) {
      io.err.write(`wardflow: stopped waiting; ${left} runs are still queued (batch ${batch})\n`)
      return 130
    }
    io.err.write(`wardflow: ${rows.length - failed} of ${rows.length} runs succeeded\n`)
    return failed === 0 ? 0 : 1
  } finally {
    if (out) await new Promise<void>((resolve) => out.end(resolve))
    await queue.close()
    redis.disconnect()
  }
}
