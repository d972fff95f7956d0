/**
 * Model calls and tool calls as events (`modelCall`, `toolCall`), so a run's record and its
 * trace (engine/trace) say when each call started and ended, what it asked and what came back.
 * `observeProvider` wraps the provider an LLM or Agent node resolved: the stream is passed on
 * as it comes, and one event goes out once it ended (reply, failure or stop). Pure: the time
 * comes from the run's clock.
 */
import { FlowError } from './errors.ts'
import type { GuardAlert, ModelCallEvent, ModelCallReplay, ToolCallEvent, UnstampedEvent } from './events.ts'
import type { RunBudget } from './cost/runBudget.ts'
import type { ChatChunk, ChatRequest, ChatResult, Clock, LlmProvider } from './ports.ts'

type Unstamped<E> = Omit<E, 'runId' | 'at'>
export type ModelCallRecord = Omit<Unstamped<ModelCallEvent>, 'nodeId'>
export type ToolCallRecord = Omit<Unstamped<ToolCallEvent>, 'nodeId'>

/** Where a node's call events go (NodeExecution.emit.call). */
export type CallSink = (event: ModelCallRecord | ToolCallRecord) => void

/** The run's budget, asked before each call; a refusal is reported through the node's `guard`. */
export interface CallGate {
  budget: RunBudget
  guard: (alert: GuardAlert) => void
}

function codeOf(error: unknown): string {
  return error instanceof FlowError ? error.code : 'ERROR'
}

function requestOf(request: ChatRequest): ModelCallRecord['request'] {
  const out: ModelCallRecord['request'] = { messages: request.messages.slice() }
  if (request.tools && request.tools.length > 0) out.tools = request.tools.map((tool) => tool.name)
  if (request.temperature !== undefined) out.temperature = request.temperature
  if (request.maxTokens !== undefined) out.maxTokens = request.maxTokens
  return out
}

function replayOf(
  providerId: string,
  provider: LlmProvider,
  request: ChatRequest,
  reasoning: string,
): ModelCallReplay {
  const out: ModelCallReplay = { providerId }
  if (request.tools && request.tools.length > 0) out.tools = request.tools.slice()
  if (request.toolChoice !== undefined) out.toolChoice = request.toolChoice
  if (request.responseFormat !== undefined) out.responseFormat = request.responseFormat
  if (provider.structuredOutput !== undefined) out.structuredOutput = provider.structuredOutput
  if (reasoning !== '') out.reasoning = reasoning
  return out
}

interface Observed {
  provider: LlmProvider
  providerId: string
  clock: Clock
  sink: CallSink | undefined
  gate: CallGate | undefined
}

async function* observed(
  { provider, providerId, clock, sink, gate }: Observed,
  request: ChatRequest,
  signal: AbortSignal,
): AsyncGenerator<ChatChunk> {
  const startedAt = clock.now()
  const base = { type: 'modelCall' as const, startedAt, provider: provider.id, model: request.model }
  let result: ChatResult | undefined
  let text = ''
  let reasoning = ''
  let error: string | undefined
  try {
    // A call the run's budget cannot afford is never made (it throws RUN_BUDGET).
    await gate?.budget.beforeCall(provider.id, request, gate.guard)
    for await (const chunk of provider.chat(request, signal)) {
      if (chunk.type === 'done') result = chunk.result
      else if (chunk.type === 'text') text += chunk.text
      else reasoning += chunk.text
      yield chunk
    }
  } catch (thrown) {
    error = codeOf(thrown)
    throw thrown
  } finally {
    // A reader that stops early (the degenerate-text guard cut the reply) ends the stream here.
    const event: ModelCallRecord = { ...base, request: requestOf(request) }
    if (result) {
      event.replay = replayOf(providerId, provider, request, result.reasoning)
      event.responseModel = result.model
      event.finishReason = result.finishReason
      if (result.usage) event.usage = { ...result.usage }
      event.reply = { text: result.text, toolCalls: result.toolCalls }
    } else {
      event.replay = replayOf(providerId, provider, request, reasoning)
      event.reply = { text, toolCalls: [] }
      event.error = error ?? (signal.aborted ? 'CANCELLED' : 'INCOMPLETE')
    }
    // A refused call (RUN_BUDGET) was never made: nothing to count. Only a token limit needs the
    // tokenizer's count (a cost of estimated tokens would be a guess, so it stays unpriced).
    if (!event.usage && gate?.budget.countsTokens() && error !== 'RUN_BUDGET') {
      const estimated = await gate.budget.estimateCall(request, event.reply?.text ?? '')
      if (estimated) event.estimatedUsage = estimated
    }
    sink?.(event)
  }
}

/**
 * `provider`, reporting each call it makes through `sink`, each call first asking the run's
 * budget (`gate`: from `ctx.runBudget` and the node's `emit.guard`; see gateOf). `providerId` is
 * the id the node names ('' for the default), which a cassette keys the call on.
 */
export function observeProvider(
  provider: LlmProvider,
  clock: Clock,
  sink: CallSink | undefined,
  gate?: CallGate,
  providerId = '',
): LlmProvider {
  if (!sink && !gate) return provider
  const parts: Observed = { provider, providerId, clock, sink, gate }
  const wrapped: LlmProvider = {
    id: provider.id,
    chat: (request, signal) => observed(parts, request, signal),
  }
  if (provider.structuredOutput) return { ...wrapped, structuredOutput: provider.structuredOutput }
  return wrapped
}

/** The call gate of a node: the run's budget (when the run has one) and the node's guard line. */
export function gateOf(
  budget: RunBudget | undefined,
  guard: (alert: GuardAlert) => void,
): CallGate | undefined {
  return budget ? { budget, guard } : undefined
}

/** Runs one tool call and reports it through `sink` once it ended (result or failure). */
export async function observeToolCall(
  call: { id: string; name: string; arguments: string },
  clock: Clock,
  sink: CallSink | undefined,
  run: () => Promise<string>,
): Promise<string> {
  if (!sink) return run()
  const startedAt = clock.now()
  const base = {
    type: 'toolCall' as const,
    startedAt,
    tool: call.name,
    callId: call.id,
    arguments: call.arguments,
  }
  try {
    const result = await run()
    sink({ ...base, result })
    return result
  } catch (thrown) {
    sink({ ...base, error: codeOf(thrown) })
    throw thrown
  }
}

/** A node's call record as the event the runner stamps. */
export function callEvent(nodeId: string, record: ModelCallRecord | ToolCallRecord): UnstampedEvent {
  return { ...record, nodeId } as UnstampedEvent
}
