/** Run history: saved as a run goes (at node ends) and when it ends, the last N kept per flow. */
import { z } from 'zod'
import { Dexie } from 'dexie'
import { scrubSecrets } from '../../engine/index.ts'
import type { WardflowDb } from '../db.ts'
import { guard } from '../errors.ts'
import { keyedRecordSchema } from '../keyedSchema.ts'
import type { RunRecord } from '../rows.ts'
import { readRunHistoryLimit } from './settings.ts'

const usageSchema = z.object({
  prompt: z.number(),
  completion: z.number(),
  total: z.number(),
  estimated: z.boolean(),
  // Optional: records saved before cost counting have none of them.
  cachedPromptTokens: z.number().optional(),
  reasoningTokens: z.number().optional(),
  costUsd: z.number().nullable().optional(),
  unpricedCalls: z.number().optional(),
})

export const runRecordSchema = z.object({
  id: z.string().min(1),
  flowId: z.string().min(1),
  startedAt: z.number(),
  finishedAt: z.number(),
  status: z.enum(['success', 'error', 'cancelled', 'stopped', 'interrupted']),
  // Keyed by input names and node ids, which may be any name (`__proto__` too).
  inputs: keyedRecordSchema(z.string()),
  outputs: keyedRecordSchema(keyedRecordSchema(z.unknown())),
  events: z.array(z.unknown()),
  usage: usageSchema,
  timings: keyedRecordSchema(z.object({ startedAt: z.number(), durationMs: z.number() })),
  iterationsNotKept: keyedRecordSchema(z.number().int().nonnegative()).optional(),
  reused: keyedRecordSchema(
    z.object({ reason: z.enum(['pinned', 'reused', 'unchanged']), fromRunId: z.string().optional() }),
  ).optional(),
  parentRunId: z.string().optional(),
  // Read back through the flow restore when it is used (app/runs/runDiff.ts, runFork.ts).
  flow: z.unknown().optional(),
  forkedFrom: z
    .object({ runId: z.string(), flowId: z.string(), flowName: z.string(), startedAt: z.number() })
    .optional(),
})

export interface SaveRunOptions {
  /** Runs kept for this flow; read from settings (runHistoryPerFlow) when omitted. */
  keep?: number
  /** Secret values (e.g. secretValues(keys)) that must not be stored: replaced by "[redacted]". */
  scrub?: readonly string[]
}

interface ChunkLike {
  type: 'nodeChunk'
  runId?: unknown
  nodeId?: unknown
  channel?: unknown
  text: string
  /** Where the node ran (engine events.ts); older records: `path`, `iteration`, `iterations`. */
  nesting?: unknown
  path?: unknown
  iteration?: unknown
  iterations?: unknown
}

/**
 * Two chunks of one stream come from the same place (a sub-flow's `q` is not the canvas's `q`, and
 * two iterations of one loop body node never share a chunk).
 */
function samePlace(a: ChunkLike, b: ChunkLike): boolean {
  return placeOf(a) === placeOf(b)
}

function placeOf(event: ChunkLike): string {
  return JSON.stringify([event.nesting, event.path, event.iteration, event.iterations]) ?? ''
}

function isChunk(event: unknown): event is ChunkLike {
  return (
    typeof event === 'object' &&
    event !== null &&
    (event as ChunkLike).type === 'nodeChunk' &&
    typeof (event as ChunkLike).text === 'string'
  )
}

/** Merges consecutive chunks of one node and channel: the text is kept, the record gets far smaller. */
export function compactEvents(events: readonly unknown[]): unknown[] {
  const out: unknown[] = []
  for (const event of events) {
    const last = out[out.length - 1]
    if (
      isChunk(event) &&
      isChunk(last) &&
      last.nodeId === event.nodeId &&
      last.channel === event.channel &&
      last.runId === event.runId &&
      samePlace(last, event)
    ) {
      out[out.length - 1] = { ...last, text: last.text + event.text }
    } else out.push(event)
  }
  return out
}

/** Scrubbing lives with the run events it applies to; storage scrubs a record once more. */
export { scrubSecrets }

/** A run record as storage keeps it: consecutive chunks merged, secrets scrubbed once more. */
export function storableRun<T extends RunRecord>(run: T, scrub: readonly string[] = []): T {
  return scrubSecrets({ ...run, events: compactEvents(run.events) }, scrub)
}

/**
 * Saves a finished run and drops the oldest runs of its flow beyond the limit, in one
 * transaction: if the save fails, nothing is dropped. Returns how many old runs went.
 */
export async function saveRun(
  db: WardflowDb,
  run: RunRecord,
  options: SaveRunOptions = {},
): Promise<{ removed: number }> {
  const keep = options.keep ?? (await readRunHistoryLimit(db))
  const record = storableRun(run, options.scrub)
  return guard('saving the run', () =>
    db.transaction('rw', db.runs, async () => {
      await db.runs.put(record)
      const keys = await db.runs
        .where('[flowId+startedAt]')
        .between([run.flowId, Dexie.minKey], [run.flowId, Dexie.maxKey])
        .primaryKeys()
      const excess = keys.length - Math.max(1, keep)
      if (excess <= 0) return { removed: 0 }
      await db.runs.bulkDelete(keys.slice(0, excess))
      return { removed: excess }
    }),
  )
}

/** A stored row as a run record, or undefined when it does not pass the schema. */
export function validRunRecord(row: unknown): RunRecord | undefined {
  const parsed = runRecordSchema.safeParse(row)
  return parsed.success ? parsed.data : undefined
}

/** A flow's runs, newest first (rows that fail validation are left out). */
export function listRuns(db: WardflowDb, flowId: string): Promise<RunRecord[]> {
  return guard('listing runs', async () => {
    const rows = await db.runs
      .where('[flowId+startedAt]')
      .between([flowId, Dexie.minKey], [flowId, Dexie.maxKey])
      .reverse()
      .toArray()
    return rows.flatMap((row) => validRunRecord(row) ?? [])
  })
}

export async function getRun(db: WardflowDb, id: string): Promise<RunRecord | undefined> {
  return validRunRecord(await guard('loading a run', () => db.runs.get(id)))
}

/** Deletes the runs of one flow, or every run when `flowId` is omitted. Returns how many. */
export function clearRuns(db: WardflowDb, flowId?: string): Promise<number> {
  return guard('clearing run history', async () => {
    if (flowId === undefined) {
      const count = await db.runs.count()
      await db.runs.clear()
      return count
    }
    return db.runs.where('flowId').equals(flowId).delete()
  })
}
