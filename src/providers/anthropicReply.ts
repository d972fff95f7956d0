/**
 * Reads Anthropic Messages API replies: the streamed events (message_start, content_block_*,
 * message_delta, message_stop, error) and whole JSON replies.
 */
import { z } from 'zod'
import {
  FlowError,
  type ChatChunk,
  type ChatResult,
  type ReportedUsage,
  type ToolCall,
} from '../engine/index.ts'
import { badResponseError, charCount, type CallTarget } from './errors.ts'
import { parseEventData } from './sse.ts'
import { WRAPPED_VALUE_KEY, type StructuredTool } from './anthropicRequest.ts'

/** The structured tool's input as the reply text: the data, unwrapped when it was wrapped. */
export function structuredText(input: unknown, tool: StructuredTool): string {
  if (!tool.wrapped) return JSON.stringify(input ?? {})
  const value =
    typeof input === 'object' && input !== null
      ? (input as Record<string, unknown>)[WRAPPED_VALUE_KEY]
      : undefined
  return JSON.stringify(value ?? null)
}

const usageSchema = z
  .object({
    input_tokens: z.number().nullish(),
    output_tokens: z.number().nullish(),
    cache_creation_input_tokens: z.number().nullish(),
    cache_read_input_tokens: z.number().nullish(),
  })
  .nullish()

const blockSchema = z.object({
  type: z.string(),
  text: z.string().nullish(),
  thinking: z.string().nullish(),
  id: z.string().nullish(),
  name: z.string().nullish(),
  input: z.unknown().optional(),
})

const eventSchema = z.object({
  type: z.string(),
  index: z.number().int().nullish(),
  message: z.object({ model: z.string().nullish(), usage: usageSchema }).nullish(),
  content_block: blockSchema.nullish(),
  delta: z
    .object({
      type: z.string().nullish(),
      text: z.string().nullish(),
      thinking: z.string().nullish(),
      partial_json: z.string().nullish(),
      stop_reason: z.string().nullish(),
    })
    .nullish(),
  usage: usageSchema,
  error: z.object({ type: z.string().nullish(), message: z.string().nullish() }).nullish(),
})

const replySchema = z.object({
  model: z.string().nullish(),
  content: z.array(blockSchema),
  stop_reason: z.string().nullish(),
  usage: usageSchema,
})

/** Anthropic's stop reasons in the OpenAI vocabulary the rest of Wardflow uses. */
export function normalizeStopReason(reason: string | null | undefined, hasToolCalls: boolean): string {
  switch (reason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop'
    case 'tool_use':
      return 'tool_calls'
    case 'max_tokens':
      return 'length'
    case null:
    case undefined:
    case '':
      return hasToolCalls ? 'tool_calls' : 'stop'
    default:
      return reason
  }
}

function promptTokens(usage: z.infer<typeof usageSchema>): number | undefined {
  if (usage?.input_tokens == null) return undefined
  return usage.input_tokens + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0)
}

/** Cache reads are part of the prompt count and priced lower, so they are kept when reported. */
function withCached(usage: ReportedUsage, cached: number | null | undefined): ReportedUsage {
  return cached != null && cached > 0 ? { ...usage, cachedPrompt: cached } : usage
}

/** An `error` event: overloaded and api errors are server trouble, the rest a refused request. */
function eventError(error: { type?: string | null; message?: string | null }, target: CallTarget): FlowError {
  const type = error.type ?? 'error'
  const code =
    type === 'overloaded_error' || type === 'api_error' ? 'PROVIDER_SERVER' : 'PROVIDER_BAD_REQUEST'
  return new FlowError(
    code,
    `${target.label} reported ${type} in the middle of the reply: ${error.message ?? ''}`,
    {
      details: { provider: target.label, type },
    },
  )
}

interface Block {
  kind: 'text' | 'tool' | 'other'
  id: string
  name: string
  json: string
}

/** Accumulates one streamed reply. Feed each SSE `data` string to `push`. */
export class AnthropicStream {
  private text = ''
  private reasoning = ''
  private readonly blocks = new Map<number, Block>()
  private prompt: number | undefined
  private cachedPrompt: number | undefined
  private completion: number | undefined
  private stopReason: string | null | undefined
  private model: string
  private understood = 0
  private firstMalformed: string | undefined
  done = false

  constructor(
    private readonly target: CallTarget,
    requestedModel: string,
    /** With structured output: the forced tool, whose input is the reply. */
    private readonly structured?: StructuredTool,
  ) {
    this.model = requestedModel
  }

  /** What the reply has shown so far (thinking, then text), for messages that count it. */
  get shownText(): string {
    return this.reasoning + this.text
  }

  push(data: string): ChatChunk[] {
    const event = parseEventData(eventSchema, data)
    if (event === undefined) {
      // Kept as a short quote, never whole: a hostile server may send one huge line.
      this.firstMalformed ??= data.slice(0, 80)
      return []
    }
    this.understood += 1
    const index = event.index ?? 0
    switch (event.type) {
      case 'message_start':
        if (event.message?.model) this.model = event.message.model
        this.prompt = promptTokens(event.message?.usage) ?? this.prompt
        this.cachedPrompt = event.message?.usage?.cache_read_input_tokens ?? this.cachedPrompt
        this.completion = event.message?.usage?.output_tokens ?? this.completion
        return []
      case 'content_block_start': {
        const block = event.content_block
        const kind = block?.type === 'tool_use' ? 'tool' : block?.type === 'text' ? 'text' : 'other'
        this.blocks.set(index, { kind, id: block?.id ?? '', name: block?.name ?? '', json: '' })
        return this.textOf(block?.text, block?.thinking)
      }
      case 'content_block_delta': {
        const delta = event.delta
        if (delta?.type === 'input_json_delta') {
          const block = this.blocks.get(index)
          const part = delta.partial_json ?? ''
          if (block) block.json += part
          // The structured answer streams as its JSON, so the console shows it as it comes (a
          // wrapped value shows inside its wrapper; the result unwraps it).
          if (block && this.structured && block.name === this.structured.name && part !== '')
            return [{ type: 'text', text: part }]
          return []
        }
        return this.textOf(delta?.text, delta?.thinking)
      }
      case 'message_delta':
        if (event.delta?.stop_reason) this.stopReason = event.delta.stop_reason
        this.completion = event.usage?.output_tokens ?? this.completion
        this.prompt = promptTokens(event.usage) ?? this.prompt
        this.cachedPrompt = event.usage?.cache_read_input_tokens ?? this.cachedPrompt
        return []
      case 'message_stop':
        this.done = true
        return []
      case 'error':
        throw eventError(event.error ?? {}, this.target)
      default:
        // ping, content_block_stop and future event types carry nothing we need.
        return []
    }
  }

  private textOf(text: string | null | undefined, thinking: string | null | undefined): ChatChunk[] {
    const out: ChatChunk[] = []
    if (thinking) {
      this.reasoning += thinking
      out.push({ type: 'reasoning', text: thinking })
    }
    if (text) {
      this.text += text
      out.push({ type: 'text', text })
    }
    return out
  }

  finish(): ChatResult {
    if (this.understood === 0) {
      const first = this.firstMalformed
      throw badResponseError(
        this.target,
        first === undefined
          ? 'the stream held no reply'
          : `the stream is not JSON (first line: ${first.slice(0, 80)})`,
      )
    }
    if (!this.done && this.stopReason == null) {
      throw new FlowError(
        'PROVIDER_NETWORK',
        `The connection to ${this.target.label} closed before the reply finished (after ${charCount(this.shownText)} characters). Run the node again.`,
        { details: { provider: this.target.label } },
      )
    }
    const structured = this.structured
    const answer = structured
      ? [...this.blocks.values()].find((b) => b.kind === 'tool' && b.name === structured.name)
      : undefined
    if (answer && structured) this.text = structuredText(parseInput(answer.json), structured)
    const toolCalls: ToolCall[] = [...this.blocks.entries()]
      .sort(([a], [b]) => a - b)
      .filter(([, block]) => block.kind === 'tool' && block !== answer)
      .map(([, block]) => ({
        id: block.id,
        name: block.name,
        arguments: block.json === '' ? '{}' : block.json,
      }))
    return {
      text: this.text,
      reasoning: this.reasoning,
      toolCalls,
      usage:
        this.prompt === undefined || this.completion === undefined
          ? undefined
          : withCached({ prompt: this.prompt, completion: this.completion }, this.cachedPrompt),
      finishReason: answer ? 'stop' : normalizeStopReason(this.stopReason, toolCalls.length > 0),
      model: this.model,
    }
  }
}

/** A streamed tool input; text that is not JSON stays text, for the schema check to name. */
function parseInput(json: string): unknown {
  try {
    return JSON.parse(json === '' ? '{}' : json) as unknown
  } catch {
    return json
  }
}

/** Reads a whole (non-streaming) reply. */
export function parseAnthropicReply(
  json: unknown,
  target: CallTarget,
  requestedModel: string,
  structured?: StructuredTool,
): ChatResult {
  const parsed = replySchema.safeParse(json)
  if (!parsed.success) throw badResponseError(target, 'the JSON reply has no content array', parsed.error)
  let text = ''
  let reasoning = ''
  const toolCalls: ToolCall[] = []
  for (const block of parsed.data.content) {
    if (block.type === 'text') text += block.text ?? ''
    else if (block.type === 'thinking') reasoning += block.thinking ?? ''
    else if (block.type === 'tool_use' && structured && block.name === structured.name) {
      text = structuredText(block.input, structured)
    } else if (block.type === 'tool_use') {
      toolCalls.push({
        id: block.id ?? '',
        name: block.name ?? '',
        arguments: JSON.stringify(block.input ?? {}),
      })
    }
  }
  const usage = parsed.data.usage
  const prompt = promptTokens(usage)
  return {
    text,
    reasoning,
    toolCalls,
    usage:
      prompt === undefined || usage?.output_tokens == null
        ? undefined
        : withCached({ prompt, completion: usage.output_tokens }, usage.cache_read_input_tokens),
    finishReason: structured ? 'stop' : normalizeStopReason(parsed.data.stop_reason, toolCalls.length > 0),
    model: parsed.data.model || requestedModel,
  }
}
