/**
 * Reads OpenAI-compatible replies: streamed chunks (tool calls assembled across chunks by index,
 * usage from whichever chunk carries it, reasoning kept apart) and whole JSON replies.
 */
import { z } from 'zod'
import { FlowError, type ChatChunk, type ChatResult, type ToolCall } from '../engine/index.ts'
import { badResponseError, charCount, type CallTarget } from './errors.ts'
import { parseEventData } from './sse.ts'

const usageSchema = z
  .object({
    prompt_tokens: z.number().nullish(),
    completion_tokens: z.number().nullish(),
    prompt_tokens_details: z.object({ cached_tokens: z.number().nullish() }).nullish(),
    completion_tokens_details: z.object({ reasoning_tokens: z.number().nullish() }).nullish(),
  })
  .nullish()

const toolDeltaSchema = z.object({
  index: z.number().int().nullish(),
  id: z.string().nullish(),
  function: z.object({ name: z.string().nullish(), arguments: z.string().nullish() }).nullish(),
})

const chunkSchema = z.object({
  model: z.string().nullish(),
  choices: z
    .array(
      z.object({
        delta: z
          .object({
            content: z.string().nullish(),
            reasoning_content: z.string().nullish(),
            reasoning: z.string().nullish(),
            tool_calls: z.array(toolDeltaSchema).nullish(),
          })
          .nullish(),
        finish_reason: z.string().nullish(),
      }),
    )
    .nullish(),
  usage: usageSchema,
  error: z.unknown().optional(),
})

// Some servers send arguments as an object instead of the JSON text OpenAI specifies.
const argumentsSchema = z.union([z.string(), z.record(z.string(), z.unknown())]).nullish()

const replySchema = z.object({
  model: z.string().nullish(),
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z.string().nullish(),
          reasoning_content: z.string().nullish(),
          reasoning: z.string().nullish(),
          tool_calls: z
            .array(
              z.object({
                id: z.string().nullish(),
                function: z.object({ name: z.string(), arguments: argumentsSchema }),
              }),
            )
            .nullish(),
        }),
        finish_reason: z.string().nullish(),
      }),
    )
    .min(1),
  usage: usageSchema,
})

function toUsage(usage: z.infer<typeof usageSchema>): ChatResult['usage'] {
  if (usage?.prompt_tokens == null || usage.completion_tokens == null) return undefined
  const out: NonNullable<ChatResult['usage']> = {
    prompt: usage.prompt_tokens,
    completion: usage.completion_tokens,
  }
  // Cached and reasoning counts only when reported: they change the price, not the totals.
  const cached = usage.prompt_tokens_details?.cached_tokens
  const reasoning = usage.completion_tokens_details?.reasoning_tokens
  if (cached != null && cached > 0) out.cachedPrompt = cached
  if (reasoning != null && reasoning > 0) out.reasoning = reasoning
  return out
}

/** An error object some servers put inside the stream instead of an HTTP status. */
function streamError(error: unknown, target: CallTarget): FlowError {
  const message =
    typeof error === 'string'
      ? error
      : typeof error === 'object' && error !== null && 'message' in error
        ? String((error as { message: unknown }).message)
        : JSON.stringify(error)
  return new FlowError(
    'PROVIDER_SERVER',
    `${target.label} reported an error in the middle of the reply: ${message}`,
    {
      details: { provider: target.label },
    },
  )
}

/** How much of the first line that is not a chunk an error quotes. */
const MALFORMED_QUOTE_CHARS = 80

interface Slot {
  id: string
  name: string
  arguments: string
}

/** Accumulates one streamed reply. Feed each SSE `data` string to `push`. */
export class OpenAiStream {
  private text = ''
  private reasoning = ''
  private readonly slots: Slot[] = []
  private readonly slotByIndex = new Map<number, Slot>()
  private usage: ChatResult['usage']
  private finishReason = ''
  private model: string
  private understood = 0
  /** Lines that were not a chunk: counted, never kept (a hostile server may send millions). */
  private malformed = 0
  private firstMalformed = ''
  done = false

  constructor(
    private readonly target: CallTarget,
    requestedModel: string,
    private readonly idPrefix: string,
  ) {
    this.model = requestedModel
  }

  /** What the reply has shown so far (reasoning, then text), for messages that count it. */
  get shownText(): string {
    return this.reasoning + this.text
  }

  /** Returns the text/reasoning deltas this message carried. */
  push(data: string): ChatChunk[] {
    if (data.trim() === '[DONE]') {
      this.done = true
      return []
    }
    const parsed = parseEventData(chunkSchema, data)
    if (parsed === undefined) {
      // One garbled line (a proxy's comment, a keep-alive) is skipped; `finish` decides whether
      // the reply as a whole was understood.
      if (this.malformed === 0) this.firstMalformed = data.slice(0, MALFORMED_QUOTE_CHARS)
      this.malformed += 1
      return []
    }
    if (parsed.error !== undefined && parsed.error !== null) throw streamError(parsed.error, this.target)
    this.understood += 1
    if (parsed.model) this.model = parsed.model
    const usage = toUsage(parsed.usage)
    if (usage) this.usage = usage
    const out: ChatChunk[] = []
    for (const choice of parsed.choices ?? []) {
      if (choice.finish_reason) this.finishReason = choice.finish_reason
      const delta = choice.delta
      if (!delta) continue
      const reasoning = delta.reasoning_content ?? delta.reasoning
      if (reasoning) {
        this.reasoning += reasoning
        out.push({ type: 'reasoning', text: reasoning })
      }
      if (delta.content) {
        this.text += delta.content
        out.push({ type: 'text', text: delta.content })
      }
      for (const call of delta.tool_calls ?? []) this.addToolDelta(call)
    }
    return out
  }

  private addToolDelta(delta: z.infer<typeof toolDeltaSchema>): void {
    const slot = this.slotFor(delta)
    if (delta.id) slot.id = delta.id
    const name = delta.function?.name
    // Some servers repeat the full name in every delta; others (rarely) split it.
    if (name && name !== slot.name) slot.name += name
    if (delta.function?.arguments) slot.arguments += delta.function.arguments
  }

  private slotFor(delta: z.infer<typeof toolDeltaSchema>): Slot {
    if (delta.index != null) {
      const known = this.slotByIndex.get(delta.index)
      // Some servers reuse index 0 for every call: a different id then starts a new call.
      if (known && !(delta.id && known.id !== '' && known.id !== delta.id)) return known
      return this.newSlot(delta.index)
    }
    // No index at all: match by id, else continue the last call.
    const byId = delta.id ? this.slots.find((slot) => slot.id === delta.id) : undefined
    if (byId) return byId
    const last = this.slots.at(-1)
    return !delta.id && last ? last : this.newSlot(undefined)
  }

  private newSlot(index: number | undefined): Slot {
    const slot = { id: '', name: '', arguments: '' }
    this.slots.push(slot)
    if (index !== undefined) this.slotByIndex.set(index, slot)
    return slot
  }

  /** The final result; throws when the stream ended before the reply was complete. */
  finish(): ChatResult {
    if (this.understood === 0) {
      throw badResponseError(
        this.target,
        this.malformed === 0
          ? 'the stream held no reply'
          : `the stream is not JSON (${this.malformed} lines; first line: ${this.firstMalformed})`,
      )
    }
    if (!this.done && this.finishReason === '') {
      throw new FlowError(
        'PROVIDER_NETWORK',
        `The connection to ${this.target.label} closed before the reply finished (after ${charCount(this.shownText)} characters). Run the node again.`,
        { details: { provider: this.target.label } },
      )
    }
    const toolCalls = this.slots
      .filter((slot) => slot.name !== '')
      .map((slot, i): ToolCall => ({
        id: slot.id || `${this.idPrefix}${i}`,
        name: slot.name,
        arguments: slot.arguments,
      }))
    return {
      text: this.text,
      reasoning: this.reasoning,
      toolCalls,
      usage: this.usage,
      finishReason: this.finishReason || (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
      model: this.model,
    }
  }
}

/** Reads a whole (non-streaming) reply. */
export function parseOpenAiReply(
  json: unknown,
  target: CallTarget,
  requestedModel: string,
  idPrefix: string,
): ChatResult {
  const parsed = replySchema.safeParse(json)
  if (!parsed.success) {
    const error = (json as { error?: unknown } | null)?.error
    if (error !== undefined && error !== null) throw streamError(error, target)
    throw badResponseError(target, 'the JSON reply has no choices[0].message', parsed.error)
  }
  const choice = parsed.data.choices[0]
  if (choice === undefined) throw badResponseError(target, 'the JSON reply has no choices')
  const calls = choice.message.tool_calls ?? []
  const toolCalls = calls.map((call, i): ToolCall => ({
    id: call.id || `${idPrefix}${i}`,
    name: call.function.name,
    arguments:
      typeof call.function.arguments === 'string'
        ? call.function.arguments
        : JSON.stringify(call.function.arguments ?? {}),
  }))
  return {
    text: choice.message.content ?? '',
    reasoning: choice.message.reasoning_content ?? choice.message.reasoning ?? '',
    toolCalls,
    usage: toUsage(parsed.data.usage),
    finishReason: choice.finish_reason || (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
    model: parsed.data.model || requestedModel,
  }
}
