/**
 * Where queue results live: one Redis string per job, `wardflow:<queue>:result:
 * <job id>`, written once (SET NX in a Lua script, so a job delivered twice, after a worker died
 * mid-run, keeps its first stored result) with a TTL, and the job id pushed once on its batch's
 * done list, which `enqueue --wait` blocks on. Jobs carry the flow's text, its inputs and where
 * the result goes; never a key (a worker takes its keys from its own environment).
 */
import type { Redis } from 'ioredis'
import type { RowResult } from '../batch/result.ts'

/** What one queue job carries. */
export interface JobData {
  /** The workflow file's text (sub-flows it carries included). */
  flow: string
  /** The file's name, for messages. */
  name: string
  inputs: Record<string, string>
  /** The row of the batch (from 0); 0 for a single run. */
  row: number
  batch: string
  /** Seconds the result is kept. */
  resultTtlS: number
}

/** SET NX EX, then the done list once: 1 when this call stored the result, 0 when one was there. */
const STORE_ONCE = `
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'EX', ARGV[2]) then
  redis.call('RPUSH', KEYS[2], ARGV[3])
  redis.call('EXPIRE', KEYS[2], ARGV[2])
  return 1
end
return 0
`

const resultKey = (queue: string, jobId: string): string => `wardflow:${queue}:result:${jobId}`
const doneKey = (queue: string, batch: string): string => `wardflow:${queue}:done:${batch}`

export class ResultStore {
  constructor(
    private readonly redis: Redis,
    private readonly queue: string,
  ) {}

  /** Stores the job's result unless one is stored already; true when this call stored it. */
  async storeOnce(jobId: string, batch: string, result: RowResult, ttlS: number): Promise<boolean> {
    const stored = await this.redis.eval(
      STORE_ONCE,
      2,
      resultKey(this.queue, jobId),
      doneKey(this.queue, batch),
      JSON.stringify(result),
      String(ttlS),
      jobId,
    )
    return stored === 1
  }

  async has(jobId: string): Promise<boolean> {
    return (await this.redis.exists(resultKey(this.queue, jobId))) === 1
  }

  async get(jobId: string): Promise<RowResult | undefined> {
    const text = await this.redis.get(resultKey(this.queue, jobId))
    return text === null ? undefined : (JSON.parse(text) as RowResult)
  }

  /** The next job id of `batch` whose result was stored, waiting up to `timeoutS` (null: none yet). */
  async nextDone(batch: string, timeoutS: number): Promise<string | null> {
    const popped = await this.redis.blpop(doneKey(this.queue, batch), timeoutS)
    return popped === null ? null : popped[1]
  }
}
