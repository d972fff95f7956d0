/**
 * The offline demo provider: plays a demo script (one reply per call) or, without a script,
 * answers every call with a short deterministic text that says it is the demo, so every flow
 * runs without a key or a network.
 */
import { DEMO_CHUNK_SIZE_CHARS, DEMO_DELAY_MS, DEMO_ECHO_MAX_CHARS } from '../defaults.ts'
import {
  FlowError,
  type ChatChunk,
  type ChatRequest,
  type ChatResult,
  type Clock,
  type LlmProvider,
} from '../engine/index.ts'
import { sampleOf } from './demoData.ts'
import type { DemoReply, DemoScript } from './demoScript.ts'
import { cancelledError } from './errors.ts'

export interface DemoProviderOptions {
  /** Provider id reported to the engine; defaults to "demo". */
  id?: string
  clock: Clock
  /** The script to play; without one, the generic demo reply answers every call. */
  script?: DemoScript
}

function lastUserText(request: ChatRequest): string {
  return [...request.messages].reverse().find((message) => message.role === 'user')?.content ?? ''
}

/** The generic reply: names the demo provider and quotes the last user message. */
export function genericDemoText(request: ChatRequest): string {
  const prompt = lastUserText(request).replace(/\s+/g, ' ').trim()
  const advice = 'Add a provider with an API key in Settings to get real answers.'
  if (prompt === '')
    return `[Demo provider] This is the offline demo provider; no model was called. ${advice}`
  const chars = Array.from(prompt)
  const quote =
    chars.length > DEMO_ECHO_MAX_CHARS ? `${chars.slice(0, DEMO_ECHO_MAX_CHARS).join('')}…` : prompt
  const words = prompt.split(' ').length
  return `[Demo provider] This is the offline demo provider; no model was called. Your message (${words} ${
    words === 1 ? 'word' : 'words'
  }) was: "${quote}". ${advice}`
}

/** Splits by code points so a chunk never cuts an emoji or other surrogate pair in half. */
function chunksOf(text: string, size: number): string[] {
  const chars = Array.from(text)
  const out: string[] = []
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''))
  return out
}

class DemoProvider implements LlmProvider {
  readonly id: string
  /** Without a script it answers a schema with data built from the schema (demoData.ts). */
  readonly structuredOutput = 'native'
  private calls = 0

  constructor(private readonly options: DemoProviderOptions) {
    this.id = options.id ?? 'demo'
  }

  private nextReply(request: ChatRequest): { reply: DemoReply; repeated: boolean } {
    const script = this.options.script
    if (!script) {
      const format = request.responseFormat
      const text = format ? JSON.stringify(sampleOf(format.schema), null, 2) : genericDemoText(request)
      return { reply: { text, toolCalls: [] }, repeated: false }
    }
    const prompt = lastUserText(request)
    const matched = script.replies.find((r) => r.when !== undefined && prompt.includes(r.when))
    if (matched) return { reply: matched, repeated: false }
    const ordered = script.replies.filter((r) => r.when === undefined)
    if (ordered.length === 0)
      return { reply: { text: genericDemoText(request), toolCalls: [] }, repeated: false }
    const index = this.calls
    this.calls += 1
    const reply = ordered[index]
    if (reply) return { reply, repeated: false }
    const last = ordered.at(-1)
    if (script.then === 'repeat-last' && last) return { reply: last, repeated: true }
    throw new FlowError(
      'DEMO_SCRIPT_ENDED',
      `The demo script has no reply left: it has ${script.replies.length} ${
        script.replies.length === 1 ? 'reply' : 'replies'
      } and ends with "stop", and this is call ${index + 1}.`,
      { details: { replies: script.replies.length, call: index + 1 } },
    )
  }

  private async pause(ms: number, signal: AbortSignal): Promise<void> {
    if (signal.aborted) throw cancelledError(signal.reason)
    if (ms <= 0) return
    try {
      await this.options.clock.sleep(ms, signal)
    } catch (error) {
      throw cancelledError(error)
    }
  }

  async *chat(request: ChatRequest, signal: AbortSignal): AsyncGenerator<ChatChunk> {
    if (signal.aborted) throw cancelledError(signal.reason)
    const callNumber = this.calls + 1
    const { reply, repeated } = this.nextReply(request)
    const stream = request.stream ?? true
    const size = stream ? (reply.chunkSize ?? DEMO_CHUNK_SIZE_CHARS) : Number.MAX_SAFE_INTEGER
    const delayMs = stream ? (reply.delayMs ?? DEMO_DELAY_MS) : 0
    let first = true
    const parts: Array<{ type: 'text' | 'reasoning'; text: string }> = [
      ...chunksOf(reply.reasoning ?? '', size).map((text) => ({ type: 'reasoning' as const, text })),
      ...chunksOf(reply.text, size).map((text) => ({ type: 'text' as const, text })),
    ]
    for (const part of parts) {
      if (!first) await this.pause(delayMs, signal)
      first = false
      yield part
    }
    if (signal.aborted) throw cancelledError(signal.reason)
    // A repeated reply gets fresh ids: every call id in a conversation must stay unique.
    const toolCalls = reply.toolCalls.map((call, i) => ({
      id:
        call.id === undefined
          ? `call_demo_${callNumber}_${i}`
          : repeated
            ? `${call.id}_${callNumber}`
            : call.id,
      name: call.name,
      arguments: call.arguments,
    }))
    const result: ChatResult = {
      text: reply.text,
      reasoning: reply.reasoning ?? '',
      toolCalls,
      usage: reply.usage ? { prompt: reply.usage.prompt, completion: reply.usage.completion } : undefined,
      finishReason: reply.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
      model: request.model.trim() === '' ? 'demo' : request.model,
    }
    yield { type: 'done', result }
  }
}

/** Creates a demo provider. Its reply index is per instance: make one per node run. */
export function createDemoProvider(options: DemoProviderOptions): LlmProvider {
  return new DemoProvider(options)
}
