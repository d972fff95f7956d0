import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createOpenAiCompatibleProvider } from '../../src/providers/openaiCompatible.ts'
import type { ChatMessage } from '../../src/engine/index.ts'
import { startMockOpenAiServer, type MockOpenAiServer } from '../support/mockOpenAiServer.ts'
import { collect, flowError, realClock, recordingClock, settings, userRequest } from './helpers.ts'

let mock: MockOpenAiServer

beforeAll(async () => {
  mock = await startMockOpenAiServer()
})
afterAll(() => mock.close())
beforeEach(() => {
  mock.requests.length = 0
  mock.setScript([])
})

function provider(overrides: Parameters<typeof settings>[0] = {}) {
  return createOpenAiCompatibleProvider(settings({ baseUrl: mock.baseUrl, ...overrides }), {
    fetch: (input, init) => fetch(input, init),
    clock: realClock,
  })
}

function lastBody(): Record<string, unknown> {
  return mock.requests.at(-1)?.body as Record<string, unknown>
}

describe('OpenAI-compatible provider, streaming', () => {
  it('streams text chunk by chunk and reports usage from the last chunk', async () => {
    mock.setScript([{ chunks: ['Hel', 'lo, ', 'world'], usage: { prompt: 11, completion: 3 } }])
    const { chunks, result } = await collect(provider(), userRequest('hi'))
    expect(chunks).toEqual([
      { type: 'text', text: 'Hel' },
      { type: 'text', text: 'lo, ' },
      { type: 'text', text: 'world' },
    ])
    expect(result).toMatchObject({
      text: 'Hello, world',
      toolCalls: [],
      finishReason: 'stop',
      model: 'mock-model',
    })
    expect(result.usage).toEqual({ prompt: 11, completion: 3 })
    expect(lastBody()).toMatchObject({
      model: 'mock-model',
      stream: true,
      stream_options: { include_usage: true },
    })
  })

  it('leaves usage undefined when the server reports none', async () => {
    mock.setScript([{ text: 'no usage here', usage: null }])
    const { result } = await collect(provider(), userRequest('hi'))
    expect(result.text).toBe('no usage here')
    expect(result.usage).toBeUndefined()
  })

  it('takes the last usage when a server repeats it on every chunk', async () => {
    mock.setScript([{ text: 'a b c', usage: { prompt: 5, completion: 3 }, usageEveryChunk: true }])
    const { result } = await collect(provider(), userRequest('hi'))
    expect(result.usage).toEqual({ prompt: 5, completion: 3 })
  })

  it('assembles tool calls split across chunks by index', async () => {
    mock.setScript([
      {
        text: 'Looking.',
        toolCalls: [
          {
            id: 'call_a',
            name: 'lookup',
            arguments: '{"q":"pending orders"}',
            argumentChunks: ['{"q":', '"pending', ' orders"}'],
          },
          { id: 'call_b', name: 'count', arguments: '{"n":2}' },
        ],
      },
    ])
    const { result } = await collect(provider(), userRequest('hi'))
    expect(result.toolCalls).toEqual([
      { id: 'call_a', name: 'lookup', arguments: '{"q":"pending orders"}' },
      { id: 'call_b', name: 'count', arguments: '{"n":2}' },
    ])
    expect(result.finishReason).toBe('tool_calls')
    expect(result.text).toBe('Looking.')
  })

  it('sends tools as functions and the conversation in the wire format', async () => {
    const messages: ChatMessage[] = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Find orders' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'lookup', arguments: '{"q":"x"}' }] },
      { role: 'tool', toolCallId: 'c1', name: 'lookup', content: '[]' },
    ]
    const tools = [
      { name: 'lookup', description: 'Finds things', parameters: { type: 'object', properties: {} } },
    ]
    await collect(provider(), { model: 'other-model', messages, tools, temperature: 0.2, maxTokens: 50 })
    expect(lastBody()).toMatchObject({
      model: 'other-model',
      temperature: 0.2,
      max_tokens: 50,
      tools: [
        {
          type: 'function',
          function: { name: 'lookup', description: 'Finds things', parameters: { type: 'object' } },
        },
      ],
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Find orders' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'lookup', arguments: '{"q":"x"}' } }],
        },
        { role: 'tool', tool_call_id: 'c1', content: '[]' },
      ],
    })
  })

  it("omits tools entirely when toolChoice is 'none'", async () => {
    const tools = [{ name: 'lookup', description: 'd', parameters: {} }]
    await collect(provider(), userRequest('final answer please', { tools, toolChoice: 'none' }))
    expect(lastBody()).not.toHaveProperty('tools')
    expect(lastBody()).not.toHaveProperty('tool_choice')
  })

  it('yields reasoning_content and reasoning deltas on the reasoning channel', async () => {
    mock.setScript([
      { reasoning: ['Think', 'ing…'], text: 'Answer' },
      { reasoning: ['Ollama style'], reasoningField: 'reasoning', text: 'Done' },
    ])
    const first = await collect(provider(), userRequest('q'))
    expect(first.chunks.slice(0, 2)).toEqual([
      { type: 'reasoning', text: 'Think' },
      { type: 'reasoning', text: 'ing…' },
    ])
    expect(first.result).toMatchObject({ reasoning: 'Thinking…', text: 'Answer' })
    const second = await collect(provider(), userRequest('q'))
    expect(second.reasoning).toBe('Ollama style')
    expect(second.text).toBe('Done')
  })

  it('skips a malformed line and keeps the rest of the reply', async () => {
    mock.setScript([{ chunks: ['one ', 'two'], malformedLine: true }])
    const { result } = await collect(provider(), userRequest('q'))
    expect(result.text).toBe('one two')
    expect(result.finishReason).toBe('stop')
  })

  it('reports a connection dropped mid-stream as PROVIDER_NETWORK after the text it got', async () => {
    mock.setScript([{ chunks: ['partial ', 'answer ', 'never ', 'finished'], dropAfterChunks: 3 }])
    const seen: string[] = []
    const error = await flowError(
      (async () => {
        for await (const chunk of provider().chat(userRequest('q'), new AbortController().signal)) {
          if (chunk.type === 'text') seen.push(chunk.text)
        }
      })(),
    )
    expect(error.code).toBe('PROVIDER_NETWORK')
    expect(error.message).toMatch(/dropped in the middle of the reply/)
    expect(seen).toEqual(['partial ', 'answer '])
    // Bytes were delivered, so the call is never retried behind the person's back.
    expect(mock.requests).toHaveLength(1)
  })

  it('fails clearly when the stream ends without [DONE] or a finish reason', async () => {
    mock.setScript([{ text: 'cut short', noDone: true, finishReason: null }])
    const error = await flowError(collect(provider(), userRequest('q')))
    expect(error.code).toBe('PROVIDER_NETWORK')
    expect(error.message).toMatch(/closed before the reply finished/)
  })

  it('accepts a stream that ends without [DONE] when it sent a finish reason', async () => {
    mock.setScript([{ text: 'complete', noDone: true }])
    const { result } = await collect(provider(), userRequest('q'))
    expect(result.text).toBe('complete')
  })

  it('turns an error object inside the stream into PROVIDER_SERVER', async () => {
    mock.setScript([{ text: 'so far', streamError: 'model crashed' }])
    const error = await flowError(collect(provider(), userRequest('q')))
    expect(error.code).toBe('PROVIDER_SERVER')
    expect(error.message).toContain('model crashed')
  })

  it('stops at once with CANCELLED when aborted mid-stream', async () => {
    mock.setScript([{ chunks: ['a', 'b', 'c', 'd', 'e', 'f'], delayMs: 400 }])
    const controller = new AbortController()
    let abortedAt = 0
    const error = await flowError(
      (async () => {
        for await (const chunk of provider().chat(userRequest('q'), controller.signal)) {
          if (chunk.type === 'text') {
            abortedAt = Date.now()
            controller.abort()
          }
        }
      })(),
    )
    expect(error.code).toBe('CANCELLED')
    // The next chunk is 400 ms away: the abort must not wait for it.
    expect(Date.now() - abortedAt).toBeLessThan(200)
  })

  it('refuses to start when the signal is already aborted', async () => {
    const controller = new AbortController()
    controller.abort()
    const error = await flowError(collect(provider(), userRequest('q'), controller.signal))
    expect(error.code).toBe('CANCELLED')
    expect(mock.requests).toHaveLength(0)
  })

  it('gives up with PROVIDER_NETWORK when the server goes silent longer than the idle timeout', async () => {
    mock.setScript([{ chunks: ['slow', 'er'], delayMs: 1_000 }])
    const slow = createOpenAiCompatibleProvider(settings({ baseUrl: mock.baseUrl }), {
      fetch,
      clock: realClock,
      requestTimeoutMs: 150,
    })
    const error = await flowError(collect(slow, userRequest('q')))
    expect(error.code).toBe('PROVIDER_NETWORK')
    expect(error.message).toMatch(/sent nothing for/)
  })
})

describe('OpenAI-compatible provider, request details', () => {
  it('sends the bearer key and extra headers, and no Authorization without a key', async () => {
    await collect(
      provider({
        apiKey: 'sk-test',
        headers: [
          { key: 'X-Team', value: 'blue' },
          { key: '', value: 'x' },
        ],
      }),
      userRequest('q'),
    )
    expect(mock.requests.at(-1)?.headers).toMatchObject({ authorization: 'Bearer sk-test', 'x-team': 'blue' })
    await collect(provider({ apiKey: '' }), userRequest('q'))
    expect(mock.requests.at(-1)?.headers).not.toHaveProperty('authorization')
  })

  it('calls the injected fetch unbound, as a browser window.fetch requires', async () => {
    function browserLikeFetch(this: unknown, input: string, init?: RequestInit): Promise<Response> {
      if (this !== undefined && this !== globalThis) throw new TypeError('Illegal invocation')
      return fetch(input, init)
    }
    const p = createOpenAiCompatibleProvider(settings({ baseUrl: mock.baseUrl }), {
      fetch: browserLikeFetch,
      clock: realClock,
    })
    expect((await collect(p, userRequest('bound?'))).result.text).toBe('Echo: bound?')
  })

  it("falls back to the provider's default model when the request names none", async () => {
    await collect(provider({ model: 'mock-model-large' }), userRequest('q', { model: '' }))
    expect(lastBody().model).toBe('mock-model-large')
  })

  it('refuses a call with no model and no base URL, with what to fix', async () => {
    const noModel = await flowError(collect(provider({ model: '' }), userRequest('q')))
    expect(noModel.code).toBe('PROVIDER_BAD_REQUEST')
    expect(noModel.message).toMatch(/No model is set/)
    const noUrl = await flowError(collect(provider({ baseUrl: ' ' }), userRequest('q')))
    expect(noUrl.message).toMatch(/has no base URL/)
  })

  it('reads a non-streaming JSON reply when the stream switch is off', async () => {
    mock.setScript([
      {
        text: 'whole',
        toolCalls: [{ id: 't1', name: 'lookup', arguments: '{}' }],
        usage: { prompt: 3, completion: 4 },
      },
    ])
    const { chunks, result } = await collect(provider({ stream: false }), userRequest('q'))
    expect(lastBody().stream).toBe(false)
    expect(lastBody()).not.toHaveProperty('stream_options')
    expect(chunks).toEqual([{ type: 'text', text: 'whole' }])
    expect(result).toMatchObject({
      text: 'whole',
      usage: { prompt: 3, completion: 4 },
      finishReason: 'tool_calls',
    })
    expect(result.toolCalls).toEqual([{ id: 't1', name: 'lookup', arguments: '{}' }])
  })

  it('lets request.stream override the provider switch', async () => {
    await collect(provider({ stream: true }), userRequest('q', { stream: false }))
    expect(lastBody().stream).toBe(false)
  })

  it('understands a server that answers a streaming request with plain JSON', async () => {
    mock.setScript([{ text: 'json anyway', json: true, reasoning: ['why'] }])
    const { result, reasoning } = await collect(provider(), userRequest('q'))
    expect(result.text).toBe('json anyway')
    expect(reasoning).toBe('why')
  })

  it('re-sends with max_completion_tokens when the server refuses max_tokens', async () => {
    mock.setScript([
      {
        status: 400,
        error:
          "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
      },
      { text: 'ok' },
    ])
    const { result } = await collect(provider(), userRequest('q', { maxTokens: 64 }))
    expect(result.text).toBe('ok')
    expect(mock.requests).toHaveLength(2)
    expect(lastBody()).toMatchObject({ max_completion_tokens: 64 })
    expect(lastBody()).not.toHaveProperty('max_tokens')
  })
})

describe('OpenAI-compatible provider, strict ordering (as OpenAI)', () => {
  let strict: MockOpenAiServer
  beforeAll(async () => {
    strict = await startMockOpenAiServer({ strict: true })
  })
  afterAll(() => strict.close())

  const strictProvider = () =>
    createOpenAiCompatibleProvider(settings({ baseUrl: strict.baseUrl }), { fetch, clock: realClock })
  const call = { id: 'c1', name: 'lookup', arguments: '{}' }

  it('rejects a user message between tool_calls and the tool results with PROVIDER_BAD_REQUEST', async () => {
    const messages: ChatMessage[] = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: '', toolCalls: [call] },
      { role: 'user', content: '[System Hint: ...]' },
      { role: 'tool', toolCallId: 'c1', name: 'lookup', content: '[]' },
    ]
    const error = await flowError(collect(strictProvider(), { model: '', messages }))
    expect(error.code).toBe('PROVIDER_BAD_REQUEST')
    expect(error.message).toContain("must be followed by tool messages responding to each 'tool_call_id'")
    expect(error.message).toContain('c1')
  })

  it('rejects a tool result whose id matches no call', async () => {
    const messages: ChatMessage[] = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: '', toolCalls: [call] },
      { role: 'tool', toolCallId: 'zzz', name: 'lookup', content: '[]' },
    ]
    const error = await flowError(collect(strictProvider(), { model: '', messages }))
    expect(error.message).toContain("messages with role 'tool' must be a response")
  })

  it('accepts tool results right after their call and a hint after the results', async () => {
    const messages: ChatMessage[] = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: '', toolCalls: [call, { ...call, id: 'c2' }] },
      { role: 'tool', toolCallId: 'c1', name: 'lookup', content: '[]' },
      { role: 'tool', toolCallId: 'c2', name: 'lookup', content: '[]' },
      { role: 'user', content: '[System Hint: ...]' },
    ]
    const { result } = await collect(strictProvider(), { model: '', messages })
    expect(result.text).toBe('Echo: [System Hint: ...]')
  })
})

describe('OpenAI-compatible provider, failures and retries', () => {
  function retrying() {
    const clock = recordingClock()
    const p = createOpenAiCompatibleProvider(settings({ baseUrl: mock.baseUrl, label: 'Mock AI' }), {
      fetch,
      clock,
      requestTimeoutMs: 0,
      callDeadlineMs: 0,
    })
    return { clock, p }
  }

  it('honours Retry-After in seconds on 429, then succeeds', async () => {
    mock.setScript([{ status: 429, headers: { 'retry-after': '2' } }, { text: 'after wait' }])
    const { clock, p } = retrying()
    const { result } = await collect(p, userRequest('q'))
    expect(result.text).toBe('after wait')
    expect(clock.sleeps).toEqual([2_000])
    expect(mock.requests).toHaveLength(2)
  })

  it('honours Retry-After given as an HTTP date', async () => {
    const clock = recordingClock()
    const at = new Date(clock.now() + 5_000).toUTCString()
    mock.setScript([{ status: 429, headers: { 'retry-after': at } }, { text: 'ok' }])
    const p = createOpenAiCompatibleProvider(settings({ baseUrl: mock.baseUrl }), {
      fetch,
      clock,
      requestTimeoutMs: 0,
      callDeadlineMs: 0,
    })
    await collect(p, userRequest('q'))
    expect(clock.sleeps).toHaveLength(1)
    expect(clock.sleeps[0]).toBeGreaterThan(3_000)
    expect(clock.sleeps[0]).toBeLessThanOrEqual(5_000)
  })

  it('waits a real (short) Retry-After with the real clock', async () => {
    mock.setScript([{ status: 429, headers: { 'retry-after': '0.2' } }, { text: 'ok' }])
    const started = Date.now()
    await collect(provider(), userRequest('q'))
    expect(Date.now() - started).toBeGreaterThanOrEqual(190)
  })

  it('stops waiting for a retry at once when aborted', async () => {
    mock.setScript([{ status: 429, headers: { 'retry-after': '30' } }, { text: 'never' }])
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 50)
    const started = Date.now()
    const error = await flowError(collect(provider(), userRequest('q'), controller.signal))
    expect(error.code).toBe('CANCELLED')
    expect(Date.now() - started).toBeLessThan(1_000)
    expect(mock.requests).toHaveLength(1)
  })

  it('backs off exponentially on 5xx, then succeeds', async () => {
    mock.setScript([{ status: 500 }, { status: 503 }, { text: 'recovered' }])
    const { clock, p } = retrying()
    const { result } = await collect(p, userRequest('q'))
    expect(result.text).toBe('recovered')
    expect(clock.sleeps).toEqual([500, 1_000])
  })

  it('gives up with PROVIDER_SERVER after the last retry', async () => {
    mock.setScript([{ status: 502, error: 'bad gateway' }], 'repeat-last')
    const { clock, p } = retrying()
    const error = await flowError(collect(p, userRequest('q')))
    expect(error.code).toBe('PROVIDER_SERVER')
    expect(error.message).toContain('bad gateway')
    expect(mock.requests).toHaveLength(4)
    expect(clock.sleeps).toEqual([500, 1_000, 2_000])
  })

  it('gives up with PROVIDER_RATE_LIMIT after the last retry', async () => {
    mock.setScript([{ status: 429 }], 'repeat-last')
    const { p } = retrying()
    const error = await flowError(collect(p, userRequest('q')))
    expect(error.code).toBe('PROVIDER_RATE_LIMIT')
    expect(error.message).toMatch(/rate limiting/)
  })

  it('reports a Retry-After longer than it waits instead of waiting', async () => {
    mock.setScript([{ status: 429, headers: { 'retry-after': '3600' } }, { text: 'never' }])
    const { clock, p } = retrying()
    const error = await flowError(collect(p, userRequest('q')))
    expect(error.code).toBe('PROVIDER_RATE_LIMIT')
    expect(error.message).toContain('3600 s')
    expect(clock.sleeps).toEqual([])
    expect(mock.requests).toHaveLength(1)
  })

  it('maps 401 to PROVIDER_AUTH without retrying', async () => {
    const guarded = await startMockOpenAiServer({ apiKey: 'right' })
    try {
      const p = createOpenAiCompatibleProvider(settings({ baseUrl: guarded.baseUrl, apiKey: 'wrong' }), {
        fetch,
        clock: realClock,
      })
      const error = await flowError(collect(p, userRequest('q')))
      expect(error.code).toBe('PROVIDER_AUTH')
      expect(error.message).toContain('the API key was refused; check it in Settings')
      expect(guarded.requests).toHaveLength(1)
    } finally {
      await guarded.close()
    }
  })

  it('maps 404 to PROVIDER_MODEL_NOT_FOUND naming the model', async () => {
    const picky = await startMockOpenAiServer({ rejectUnknownModels: true })
    try {
      const p = createOpenAiCompatibleProvider(settings({ baseUrl: picky.baseUrl }), {
        fetch,
        clock: realClock,
      })
      const error = await flowError(collect(p, userRequest('q', { model: 'gpt-nope' })))
      expect(error.code).toBe('PROVIDER_MODEL_NOT_FOUND')
      expect(error.message).toContain('"gpt-nope"')
      expect(error.message).toContain('does not exist')
    } finally {
      await picky.close()
    }
  })

  it('maps other 4xx to PROVIDER_BAD_REQUEST with the server message', async () => {
    mock.setScript([{ status: 400, error: 'messages[0].content is too long' }])
    const error = await flowError(collect(provider(), userRequest('q')))
    expect(error.code).toBe('PROVIDER_BAD_REQUEST')
    expect(error.message).toContain('messages[0].content is too long')
  })

  it('explains an unreachable server as PROVIDER_NETWORK', async () => {
    const gone = await startMockOpenAiServer()
    const baseUrl = gone.baseUrl
    await gone.close()
    const p = createOpenAiCompatibleProvider(settings({ baseUrl }), { fetch, clock: realClock })
    const error = await flowError(collect(p, userRequest('q')))
    expect(error.code).toBe('PROVIDER_NETWORK')
    expect(error.message).toMatch(/Could not reach Mock AI/)
    expect(error.message).toMatch(/CORS/)
  })

  it('tells Ollama users to set OLLAMA_ORIGINS when the browser blocks the call', async () => {
    const blocked = async () => {
      throw new TypeError('Failed to fetch')
    }
    const p = createOpenAiCompatibleProvider(
      settings({ baseUrl: 'http://localhost:11434/v1', label: 'Ollama' }),
      {
        fetch: blocked,
        clock: realClock,
      },
    )
    const error = await flowError(collect(p, userRequest('q')))
    expect(error.code).toBe('PROVIDER_NETWORK')
    expect(error.message).toContain('OLLAMA_ORIGINS')
  })
})
