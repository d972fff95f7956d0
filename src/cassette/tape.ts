/**
 * Record and replay at the ports: a Recorder wraps the run's provider resolver and fetch and
 * writes down every call; a Player stands in for both and answers from a cassette, so the engine
 * runs unchanged and never knows. Calls are matched by key (key.ts); the same request asked
 * again takes the next recorded reply for it, in the order the recording asked them.
 */
import {
  FlowError,
  toFlowError,
  type ChatChunk,
  type ChatRequest,
  type FetchLike,
  type LlmProvider,
  type ProviderResolver,
} from '../engine/index.ts'
import {
  CASSETTE_FORMAT,
  CASSETTE_VERSION,
  type Cassette,
  type CassetteCall,
  type HttpCall,
  type ModelCall,
  type RunExpectation,
} from './format.ts'
import { canonicalJson, firstDifference, httpRequestKey, modelRequestKey } from './key.ts'

const errorOf = (error: unknown): { code: string; message: string } => {
  const flow = toFlowError(error)
  return { code: flow.code, message: flow.message }
}

/** Writes down every model and HTTP call of the runs that use its ports. */
export class Recorder {
  private readonly calls: CassetteCall[] = []

  providers(inner: ProviderResolver): ProviderResolver {
    return {
      resolve: async (request) => {
        const provider = await inner.resolve(request)
        return this.provider(provider, request.providerId)
      },
    }
  }

  private provider(inner: LlmProvider, providerId: string | undefined): LlmProvider {
    const calls = this.calls
    async function* chat(request: ChatRequest, signal: AbortSignal): AsyncIterable<ChatChunk> {
      // The slot is taken when the call starts, so repeated requests keep the order they were asked.
      const call: ModelCall = {
        kind: 'model',
        request: modelRequestKey(providerId, request),
        chunks: [],
        ...(inner.structuredOutput ? { structuredOutput: inner.structuredOutput } : {}),
      }
      calls.push(call)
      try {
        for await (const chunk of inner.chat(request, signal)) {
          call.chunks.push(chunk)
          yield chunk
        }
      } catch (error) {
        call.error = errorOf(error)
        throw error
      }
    }
    return {
      id: inner.id,
      ...(inner.structuredOutput ? { structuredOutput: inner.structuredOutput } : {}),
      chat,
    }
  }

  fetch(inner: FetchLike): FetchLike {
    return async (input, init) => {
      const call: HttpCall = { kind: 'http', request: httpRequestKey(input, init) }
      this.calls.push(call)
      let response: Response
      try {
        response = await inner(input, init)
      } catch (error) {
        call.error = errorOf(error)
        throw error
      }
      const body = await response.text()
      const contentType = response.headers.get('content-type') ?? undefined
      call.response = {
        status: response.status,
        statusText: response.statusText,
        ...(contentType === undefined ? {} : { contentType }),
        body,
      }
      return replyOf(call.response)
    }
  }

  cassette(inputs: Readonly<Record<string, string>>, expected?: RunExpectation): Cassette {
    return {
      format: CASSETTE_FORMAT,
      version: CASSETTE_VERSION,
      inputs: { ...inputs },
      calls: this.calls,
      ...(expected === undefined ? {} : { expected }),
    }
  }
}

const NO_BODY_STATUSES = new Set([101, 204, 205, 304])

function replyOf(recorded: NonNullable<HttpCall['response']>): Response {
  return new Response(NO_BODY_STATUSES.has(recorded.status) ? null : recorded.body, {
    status: recorded.status,
    statusText: recorded.statusText,
    headers: recorded.contentType === undefined ? {} : { 'content-type': recorded.contentType },
  })
}

/** Answers model and HTTP calls from a cassette; never touches the network. */
export class Player {
  private readonly queues = new Map<string, CassetteCall[]>()
  private readonly used = new Map<string, number>()

  /** @param name the cassette's file name, which every miss names. */
  constructor(
    private readonly tape: Cassette,
    private readonly name: string,
  ) {
    for (const call of tape.calls) {
      const key = `${call.kind} ${canonicalJson(call.request)}`
      const queue = this.queues.get(key)
      if (queue) queue.push(call)
      else this.queues.set(key, [call])
    }
  }

  private take(kind: CassetteCall['kind'], request: unknown, what: string): CassetteCall {
    const key = `${kind} ${canonicalJson(request)}`
    const queue = this.queues.get(key)
    const index = this.used.get(key) ?? 0
    if (queue !== undefined && index < queue.length) {
      this.used.set(key, index + 1)
      return queue[index] as CassetteCall
    }
    if (queue !== undefined) {
      throw new FlowError(
        'REPLAY_MISSING',
        `the cassette ${this.name} holds ${queue.length} ${what} like this one and the run asked for one more: record the run again with --record.`,
      )
    }
    const closest = this.closest(kind, request)
    const hint = closest === null ? '' : ` Closest recorded ${what}: ${closest}.`
    throw new FlowError(
      'REPLAY_MISSING',
      `the cassette ${this.name} holds no ${what} for this request.${hint} Record the run again with --record.`,
    )
  }

  /** The first difference to the recorded call of this kind that differs the least (by path). */
  private closest(kind: CassetteCall['kind'], request: unknown): string | null {
    let best: string | null = null
    for (const call of this.tape.calls) {
      if (call.kind !== kind) continue
      const diff = firstDifference(call.request, request)
      // A difference deeper in the request means more of it matched.
      if (diff !== null && (best === null || depth(diff) > depth(best))) best = diff
    }
    return best
  }

  providers(): ProviderResolver {
    return {
      resolve: (request) => Promise.resolve(this.provider(request.providerId)),
    }
  }

  private provider(providerId: string | undefined): LlmProvider {
    // Replay takes structured output as the recorded provider did, so the request is the same.
    const recorded = this.tape.calls.find(
      (call): call is ModelCall => call.kind === 'model' && call.request.provider === (providerId ?? ''),
    )
    const chat = async function* (this: Player, request: ChatRequest): AsyncIterable<ChatChunk> {
      const call = this.take('model', modelRequestKey(providerId, request), 'model reply') as ModelCall
      let done = false
      for (const chunk of call.chunks) {
        if (chunk.type === 'done') done = true
        yield chunk
      }
      if (call.error) throw new FlowError(call.error.code as FlowError['code'], call.error.message)
      if (!done)
        throw new FlowError(
          'PROVIDER_BAD_RESPONSE',
          `the recorded reply in ${this.name} ended before it finished.`,
        )
    }.bind(this)
    return { id: providerId ?? 'replay', structuredOutput: recorded?.structuredOutput ?? 'prompt', chat }
  }

  fetch(): FetchLike {
    return (input, init) => {
      try {
        const call = this.take('http', httpRequestKey(input, init), 'HTTP reply') as HttpCall
        if (call.error) throw new FlowError(call.error.code as FlowError['code'], call.error.message)
        return Promise.resolve(replyOf(call.response ?? { status: 200, statusText: '', body: '' }))
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)))
      }
    }
  }
}

const depth = (diff: string): number => (diff.split(':')[0] ?? '').split(/[.[]/).length
