/**
 * A scripted LLM provider for tests: plays a list of replies in order, streams each reply's
 * reasoning and text in small chunks (optionally with clock sleeps between them, so aborts can
 * land mid-stream), and records every request it saw. It is its own ProviderResolver, so it can
 * be dropped straight into a RunContext.
 */
import {
  FlowError,
  type ChatChunk,
  type ChatRequest,
  type ChatResult,
  type Clock,
  type LlmProvider,
  type ProviderRequest,
  type ProviderResolver,
  type ToolCall,
} from '../../src/engine/index.ts'

export interface ScriptedReply {
  text?: string
  reasoning?: string
  /** `id` defaults to `call_<reply>_<index>`. */
  toolCalls?: Array<Omit<ToolCall, 'id'> & { id?: string }>
  /** Omit (or null) to make the caller estimate usage, as with a provider that reports none. */
  usage?: { prompt: number; completion: number } | null
  finishReason?: string
  model?: string
  /** Throw this instead of replying (after `delayMs`). */
  error?: FlowError
  /** Overrides the provider's chunk size for this reply. */
  chunkSize?: number
  /** Sleep on the clock before each chunk (needs `clock`). */
  delayMs?: number
}

/** A reply, or a function computing one from the request (may wait on anything). */
export type ScriptStep =
  ScriptedReply | ((request: ChatRequest, callIndex: number) => ScriptedReply | Promise<ScriptedReply>)

export interface ScriptedProviderOptions {
  id?: string
  /** Characters per streamed text chunk; default 4. */
  chunkSize?: number
  /** Needed for `delayMs`. */
  clock?: Clock
  /** Default sleep before each chunk. */
  delayMs?: number
  /** After the last step: repeat it (default) or fail with DEMO_SCRIPT_ENDED. */
  then?: 'repeat-last' | 'stop'
  /** When set, `resolve` refuses any other provider id with PROVIDER_MISSING. */
  knownIds?: readonly string[]
  /** 'native': it honours ChatRequest.responseFormat (default: the schema goes in the prompt). */
  structuredOutput?: 'native' | 'prompt'
}

function cancelled(): FlowError {
  return new FlowError('CANCELLED', 'The run was stopped.')
}

function splitChunks(text: string, size: number): string[] {
  const parts: string[] = []
  for (let i = 0; i < text.length; i += size) parts.push(text.slice(i, i + size))
  return parts
}

export class ScriptedProvider implements LlmProvider, ProviderResolver {
  readonly id: string
  readonly structuredOutput: 'native' | 'prompt' | undefined
  /** Every chat request, in call order. */
  readonly requests: ChatRequest[] = []
  /** Every resolve request, in call order. */
  readonly resolved: ProviderRequest[] = []
  private readonly steps: ScriptStep[]
  private readonly options: ScriptedProviderOptions
  private calls = 0

  constructor(steps: ScriptStep[], options: ScriptedProviderOptions = {}) {
    this.steps = steps
    this.options = options
    this.id = options.id ?? 'scripted'
    this.structuredOutput = options.structuredOutput
  }

  /** How many chat calls have started. */
  get callCount(): number {
    return this.calls
  }

  async resolve(request: ProviderRequest): Promise<LlmProvider> {
    this.resolved.push(request)
    const known = this.options.knownIds
    if (known && request.providerId !== undefined && !known.includes(request.providerId)) {
      throw new FlowError('PROVIDER_MISSING', `No provider named "${request.providerId}".`, {
        nodeId: request.nodeId,
      })
    }
    return this
  }

  async *chat(request: ChatRequest, signal: AbortSignal): AsyncIterable<ChatChunk> {
    const index = this.calls++
    this.requests.push(structuredClone(request))
    if (signal.aborted) throw cancelled()
    const step = this.pick(index)
    const reply = typeof step === 'function' ? await step(request, index) : step
    const delayMs = reply.delayMs ?? this.options.delayMs ?? 0
    const size = reply.chunkSize ?? this.options.chunkSize ?? 4
    const pause = async (): Promise<void> => {
      if (delayMs > 0 && this.options.clock) {
        try {
          await this.options.clock.sleep(delayMs, signal)
        } catch {
          throw cancelled()
        }
      }
      if (signal.aborted) throw cancelled()
    }
    if (reply.error) {
      await pause()
      throw reply.error
    }
    for (const part of splitChunks(reply.reasoning ?? '', size)) {
      await pause()
      yield { type: 'reasoning', text: part }
    }
    for (const part of splitChunks(reply.text ?? '', size)) {
      await pause()
      yield { type: 'text', text: part }
    }
    await pause()
    const result: ChatResult = {
      text: reply.text ?? '',
      reasoning: reply.reasoning ?? '',
      toolCalls: (reply.toolCalls ?? []).map((call, i) => ({ ...call, id: call.id ?? `call_${index}_${i}` })),
      finishReason: reply.finishReason ?? ((reply.toolCalls?.length ?? 0) > 0 ? 'tool_calls' : 'stop'),
      model: reply.model ?? request.model,
    }
    if (reply.usage) result.usage = reply.usage
    yield { type: 'done', result }
  }

  private pick(index: number): ScriptStep {
    const step = this.steps[index]
    if (step !== undefined) return step
    const last = this.steps[this.steps.length - 1]
    if (this.options.then === 'stop' || last === undefined) {
      throw new FlowError('DEMO_SCRIPT_ENDED', `The script has no reply number ${index + 1}.`)
    }
    return last
  }
}

/** Shorthand: `scriptedProvider([{ text: 'hi' }], { clock })`. */
export function scriptedProvider(steps: ScriptStep[], options?: ScriptedProviderOptions): ScriptedProvider {
  return new ScriptedProvider(steps, options)
}
