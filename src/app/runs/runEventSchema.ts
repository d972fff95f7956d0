/**
 * Run events read back from IndexedDB are data from an earlier session (perhaps an older
 * version of the app): each is validated before a past run is replayed, and what does not
 * validate is left out instead of breaking the view.
 */
import { z } from 'zod'
import { LOOP_DETECTORS, type RunEvent } from '../../engine/index.ts'
import { keyedRecordSchema } from '../../storage/keyedSchema.ts'

// `path`: node events from inside a sub-flow or a loop body (kept, or a replay would draw them on
// the canvas); `iteration`/`iterations`: a loop body's (without them a replay took a body's events
// for a sub-flow's).
const base = {
  runId: z.string(),
  at: z.number(),
  path: z.array(z.string()).optional(),
  iteration: z.number().int().nonnegative().optional(),
  iterations: z.array(z.number().int().nonnegative()).optional(),
}
const usage = z.object({
  prompt: z.number(),
  completion: z.number(),
  total: z.number(),
  estimated: z.boolean(),
})
// Inputs are keyed by node id and outputs by field name: every key is kept (`__proto__` too).
const record = keyedRecordSchema(z.unknown())

const runEventSchema = z.discriminatedUnion('type', [
  z.object({ ...base, type: z.literal('runStart'), flowId: z.string(), nodeIds: z.array(z.string()) }),
  z.object({ ...base, type: z.literal('nodeStart'), nodeId: z.string(), inputs: record }),
  z.object({
    ...base,
    type: z.literal('nodeChunk'),
    nodeId: z.string(),
    text: z.string(),
    channel: z.enum(['output', 'reasoning', 'log']),
  }),
  z.object({
    ...base,
    type: z.literal('guard'),
    nodeId: z.string(),
    layer: z.enum(['budget', 'loop', 'watchdog', 'iterations']),
    level: z.enum(['hint', 'trip']),
    detector: z.enum(LOOP_DETECTORS).optional(),
    tool: z.string().optional(),
    count: z.number().optional(),
    total: z.number().optional(),
    budget: z.number().optional(),
    phase: z.enum(['before-call', 'after-call']).optional(),
    message: z.string(),
  }),
  z.object({
    ...base,
    type: z.literal('nodeFinish'),
    nodeId: z.string(),
    status: z.enum(['success', 'stopped']),
    output: record,
    durationMs: z.number(),
    usage: usage.optional(),
    cached: z
      .object({ reason: z.enum(['pinned', 'reused', 'unchanged']), fromRunId: z.string().optional() })
      .optional(),
    notTaken: z.array(z.string()).optional(),
    cacheKey: z.string().optional(),
  }),
  z.object({
    ...base,
    type: z.literal('nodeError'),
    nodeId: z.string(),
    code: z.string(),
    message: z.string(),
    durationMs: z.number(),
    details: z.object({ raw: z.string() }).optional(),
  }),
  z.object({
    ...base,
    type: z.literal('nodeSkipped'),
    nodeId: z.string(),
    reason: z.string(),
    message: z.string().optional(),
    failedNodeId: z.string().optional(),
    stopped: z.literal(true).optional(),
  }),
  z.object({
    ...base,
    type: z.literal('runFinish'),
    status: z.enum(['success', 'error', 'cancelled']),
    usage,
    durationMs: z.number(),
  }),
])

/** The stored events that are valid run events, in order. */
export function parseStoredEvents(events: readonly unknown[]): RunEvent[] {
  const out: RunEvent[] = []
  for (const event of events) {
    const parsed = runEventSchema.safeParse(event)
    if (parsed.success) out.push(parsed.data as RunEvent)
  }
  return out
}
