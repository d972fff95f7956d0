/** Small helpers shared by the provider tests. */
import type { ChatChunk, ChatResult, Clock, LlmProvider, ChatRequest } from '../../src/engine/index.ts'
import { FlowError } from '../../src/engine/index.ts'
import type { ProviderSettings } from '../../src/settings/schema.ts'

/** The real clock: Date.now and abortable timers. */
export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(new DOMException('Aborted', 'AbortError'))
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort)
        resolve()
      }, ms)
      const onAbort = () => {
        clearTimeout(timer)
        reject(new DOMException('Aborted', 'AbortError'))
      }
      signal?.addEventListener('abort', onAbort, { once: true })
    }),
}

/** A clock that records every sleep and returns at once (time stands still). */
export function recordingClock(): Clock & { sleeps: number[] } {
  const sleeps: number[] = []
  return {
    sleeps,
    now: () => 1_700_000_000_000,
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw new DOMException('Aborted', 'AbortError')
      sleeps.push(ms)
    },
  }
}

export function settings(overrides: Partial<ProviderSettings> = {}): ProviderSettings {
  return {
    id: 'mock',
    label: 'Mock AI',
    kind: 'openai',
    baseUrl: '',
    model: 'mock-model',
    models: [],
    apiKey: '',
    stream: true,
    headers: [],
    ...overrides,
  }
}

export function userRequest(text: string, extra: Partial<ChatRequest> = {}): ChatRequest {
  return { model: '', messages: [{ role: 'user', content: text }], ...extra }
}

export interface Collected {
  chunks: Array<Exclude<ChatChunk, { type: 'done' }>>
  result: ChatResult
  text: string
  reasoning: string
}

/** Runs one call to the end; fails when the last chunk is not `done`. */
export async function collect(
  provider: LlmProvider,
  request: ChatRequest,
  signal: AbortSignal = new AbortController().signal,
): Promise<Collected> {
  const chunks: Collected['chunks'] = []
  let result: ChatResult | undefined
  for await (const chunk of provider.chat(request, signal)) {
    if (result) throw new Error('a chunk came after done')
    if (chunk.type === 'done') result = chunk.result
    else chunks.push(chunk)
  }
  if (!result) throw new Error('the call ended without a done chunk')
  const join = (type: string) =>
    chunks
      .filter((c) => c.type === type)
      .map((c) => c.text)
      .join('')
  return { chunks, result, text: join('text'), reasoning: join('reasoning') }
}

/** The FlowError a promise rejects with (fails the test when it resolves or throws another type). */
export async function flowError(promise: Promise<unknown>): Promise<FlowError> {
  try {
    await promise
  } catch (error) {
    if (error instanceof FlowError) return error
    throw new Error(`expected a FlowError, got ${String(error)}`, { cause: error })
  }
  throw new Error('expected a FlowError, but the call succeeded')
}
