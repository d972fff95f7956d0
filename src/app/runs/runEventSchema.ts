/**
 * Run events read back from IndexedDB are data from an earlier session (perhaps an older
 * version of the app): each is validated before a past run is replayed, and what does not
 * validate is left out instead of breaking the view.
 */
import { z } from 'zod'
import { LOOP_DETECTORS, type RunEvent } from '../../engine/index.ts'
import { keyedRecordSchema } from '../../storage/keyedSchema.ts'

// `path` and `nesting`: node events from inside a sub-flow or a loop body (kept, or a replay
// would draw them on the canvas as the flow's own nodes).
const nestingSegment = z.object({
  nodeId: z.string(),
  kind: z.enum(['loop', 'subflow']),
  iteration: z.number().optional(),
})
const base = {
  runId: z.string(),
  at: z.number(),
  path: z.array(z.string()).optional(),
  nesting: z.array(nestingSegment).optional(),
}
const usage = z.object({
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
const toolCall = z.object({ id: z.string(), name: z.string(), arguments: z.string() })
const chatMessage = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: z.string() }),
  z.object({ role: z.literal('user'), content: z.string() }),
  z.object({ role: z.literal('assistant'), content: z.string(), toolCalls: z.array(toolCall).optional() }),
  z.object({ role: z.literal('tool'), toolCallId: z.string(), name: z.string(), content: z.string() }),
])
// A JSON Schema (tool parameters, a structured reply's schema): kept as it was, every key.
const jsonObject = keyedRecordSchema(z.unknown())
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
    scope: z.literal('run').optional(),
    unit: z.enum(['tokens', 'usd']).optional(),
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
    type: z.literal('modelCall'),
    nodeId: z.string(),
    startedAt: z.number(),
    provider: z.string(),
    model: z.string(),
    responseModel: z.string().optional(),
    usage: z
      .object({
        prompt: z.number(),
        completion: z.number(),
        cachedPrompt: z.number().optional(),
        reasoning: z.number().optional(),
      })
      .optional(),
    estimatedUsage: z.object({ prompt: z.number(), completion: z.number() }).optional(),
    finishReason: z.string().optional(),
    error: z.string().optional(),
    request: z.object({
      messages: z.array(chatMessage),
      tools: z.array(z.string()).optional(),
      temperature: z.number().optional(),
      maxTokens: z.number().optional(),
    }),
    reply: z.object({ text: z.string(), toolCalls: z.array(toolCall) }).optional(),
    // What a cassette needs (engine/events.ts ModelCallReplay); absent in older records.
    replay: z
      .object({
        providerId: z.string(),
        tools: z
          .array(z.object({ name: z.string(), description: z.string(), parameters: jsonObject }))
          .optional(),
        toolChoice: z.enum(['auto', 'none']).optional(),
        responseFormat: z.object({ name: z.string(), schema: jsonObject, strict: z.boolean() }).optional(),
        structuredOutput: z.enum(['native', 'prompt']).optional(),
        reasoning: z.string().optional(),
      })
      .optional(),
  }),
  z.object({
    ...base,
    type: z.literal('toolCall'),
    nodeId: z.string(),
    startedAt: z.number(),
    tool: z.string(),
    callId: z.string(),
    arguments: z.string(),
    result: z.string().optional(),
    error: z.string().optional(),
  }),
  z.object({
    ...base,
    type: z.literal('runFinish'),
    status: z.enum(['success', 'error', 'cancelled', 'stopped']),
    stopReason: z.optional(z.literal('budget')),
    usage,
    durationMs: z.number(),
  }),
])

const legacyPlace = z.object({
  path: z.array(z.string()),
  iteration: z.number().optional(),
  iterations: z.array(z.number()).optional(),
})

/**
 * Records saved before events carried `nesting` placed a loop body's events with `path` (the
 * loops' ids), `iteration` (the innermost one's index) and, in a loop inside a loop, `iterations`
 * (every enclosing loop's index, outermost first), and a sub-flow's with `path` alone. They are
 * read into today's shape; records older than `iterations` did not keep outer loops' indexes
 * (read as 0).
 */
export function upgradeLegacyPlace(event: unknown): unknown {
  if (typeof event !== 'object' || event === null || 'nesting' in event) return event
  const old = legacyPlace.safeParse(event)
  if (!old.success) return event
  const { path, iteration, iterations } = old.data
  const { iteration: _gone, iterations: _chain, path: _path, ...rest } = event as Record<string, unknown>
  if (iteration === undefined)
    return { ...rest, path, nesting: path.map((nodeId) => ({ nodeId, kind: 'subflow' as const })) }
  const last = path.length - 1
  const chain = iterations?.length === path.length ? iterations : undefined
  return {
    ...rest,
    nesting: path.map((nodeId, i) => ({
      nodeId,
      kind: 'loop' as const,
      iteration: chain ? (chain[i] as number) : i === last ? iteration : 0,
    })),
  }
}

/** The stored events that are valid run events, in order. */
export function parseStoredEvents(events: readonly unknown[]): RunEvent[] {
  const out: RunEvent[] = []
  for (const event of events) {
    const parsed = runEventSchema.safeParse(upgradeLegacyPlace(event))
    if (parsed.success) out.push(parsed.data as RunEvent)
  }
  return out
}
