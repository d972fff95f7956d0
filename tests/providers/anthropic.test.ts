import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createAnthropicProvider } from '../../src/providers/anthropic.ts'
import { toAnthropicMessages } from '../../src/providers/anthropicRequest.ts'
import { ANTHROPIC_API_VERSION, ANTHROPIC_MAX_TOKENS } from '../../src/defaults.ts'
import type { ChatMessage, ToolSpec } from '../../src/engine/index.ts'
import { startMockAnthropicServer, type MockAnthropicServer } from '../support/mockAnthropicServer.ts'
import { collect, flowError, realClock, recordingClock, settings, userRequest } from './helpers.ts'

let mock: MockAnthropicServer

beforeAll(async () => {
  mock = await startMockAnthropicServer({ apiKey: 'ant-key' })
})
afterAll(() => mock.close())
beforeEach(() => {
  mock.requests.length = 0
  mock.setScript([])
})

function provider(overrides: Parameters<typeof settings>[0] = {}) {
  return createAnthropicProvider(
    settings({
      kind: 'anthropic',
      label: 'Claude',
      baseUrl: mock.url,
      apiKey: 'ant-key',
      model: 'claude-mock',
      ...overrides,
    }),
    { fetch, clock: realClock },
  )
}

const lookup: ToolSpec = {
  name: 'lookup',
  description: 'Finds',
  parameters: { type: 'object', properties: { q: { type: 'string' } } },
}

describe('Anthropic provider', () => {
  it('streams text, sends the required headers and a separate system prompt, and reports usage', async () => {
    mock.setScript([{ text: ['Hello', ' there'], usage: { input: 42, output: 7 } }])
    const messages: ChatMessage[] = [
      { role: 'system', content: 'Be kind.' },
      { role: 'user', content: 'hi' },
    ]
    const { chunks, result } = await collect(provider(), { model: '', messages })
    expect(chunks).toEqual([
      { type: 'text', text: 'Hello' },
      { type: 'text', text: ' there' },
    ])
    expect(result).toMatchObject({
      text: 'Hello there',
      finishReason: 'stop',
      usage: { prompt: 42, completion: 7 },
    })
    const request = mock.requests.at(-1)
    expect(request?.path).toBe('/v1/messages')
    expect(request?.headers).toMatchObject({
      'x-api-key': 'ant-key',
      'anthropic-version': ANTHROPIC_API_VERSION,
      'anthropic-dangerous-direct-browser-access': 'true',
    })
    expect(request?.headers).not.toHaveProperty('authorization')
    expect(request?.body).toMatchObject({
      model: 'claude-mock',
      system: 'Be kind.',
      max_tokens: ANTHROPIC_MAX_TOKENS,
      stream: true,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
    })
  })

  it('accepts a base URL that already ends in /v1', async () => {
    await collect(provider({ baseUrl: `${mock.url}/v1/` }), userRequest('q'))
    expect(mock.requests.at(-1)?.path).toBe('/v1/messages')
  })

  it('assembles tool_use input from input_json_delta pieces', async () => {
    mock.setScript([
      {
        text: ['Let me check.'],
        toolUses: [
          { id: 'toolu_1', name: 'lookup', jsonChunks: ['{"q": "pen', 'ding"}'] },
          { id: 'toolu_2', name: 'ping', jsonChunks: [] },
        ],
      },
    ])
    const { result } = await collect(provider(), userRequest('q', { tools: [lookup] }))
    expect(result.toolCalls).toEqual([
      { id: 'toolu_1', name: 'lookup', arguments: '{"q": "pending"}' },
      { id: 'toolu_2', name: 'ping', arguments: '{}' },
    ])
    expect(result.finishReason).toBe('tool_calls')
    expect(mock.requests.at(-1)?.body).toMatchObject({
      tools: [{ name: 'lookup', description: 'Finds', input_schema: lookup.parameters }],
    })
  })

  it('merges consecutive tool results into one user message that the API accepts', async () => {
    const messages: ChatMessage[] = [
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: 'Checking both.',
        toolCalls: [
          { id: 'toolu_1', name: 'lookup', arguments: '{"q":"a"}' },
          { id: 'toolu_2', name: 'lookup', arguments: '{"q":"b"}' },
        ],
      },
      { role: 'tool', toolCallId: 'toolu_1', name: 'lookup', content: '[]' },
      { role: 'tool', toolCallId: 'toolu_2', name: 'lookup', content: '[1]' },
      { role: 'user', content: '[System Hint: ...]' },
    ]
    const { result } = await collect(provider(), { model: '', messages, tools: [lookup] })
    expect(result.text).toBe('Echo: [System Hint: ...]')
    const body = mock.requests.at(-1)?.body as { messages: unknown[] }
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking both.' },
          { type: 'tool_use', id: 'toolu_1', name: 'lookup', input: { q: 'a' } },
          { type: 'tool_use', id: 'toolu_2', name: 'lookup', input: { q: 'b' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: '[]' },
          { type: 'tool_result', tool_use_id: 'toolu_2', content: '[1]' },
          { type: 'text', text: '[System Hint: ...]' },
        ],
      },
    ])
  })

  it("keeps tools but forbids calls with tool_choice none when toolChoice is 'none'", async () => {
    await collect(provider(), userRequest('q', { tools: [lookup], toolChoice: 'none' }))
    expect(mock.requests.at(-1)?.body).toMatchObject({
      tool_choice: { type: 'none' },
      tools: [{ name: 'lookup' }],
    })
  })

  it('writes tool history as text when the call sends no tools, so the API accepts it', async () => {
    const messages: ChatMessage[] = [
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'toolu_1', name: 'lookup', arguments: '{"q":"a"}' }],
      },
      { role: 'tool', toolCallId: 'toolu_1', name: 'lookup', content: 'nothing found' },
    ]
    const { result } = await collect(provider(), { model: '', messages })
    expect(result.text).toContain('[result of tool lookup] nothing found')
  })

  it('yields thinking deltas on the reasoning channel', async () => {
    mock.setScript([{ thinking: ['Hmm', '...'], text: ['Yes'] }])
    const { chunks, result } = await collect(provider(), userRequest('q'))
    expect(chunks[0]).toEqual({ type: 'reasoning', text: 'Hmm' })
    expect(result).toMatchObject({ reasoning: 'Hmm...', text: 'Yes' })
  })

  it('reads a non-streaming reply', async () => {
    mock.setScript([
      {
        text: ['Whole'],
        toolUses: [{ id: 'toolu_9', name: 'lookup', jsonChunks: ['{"q":1}'] }],
        usage: { input: 3, output: 2 },
      },
    ])
    const { result } = await collect(provider({ stream: false }), userRequest('q', { tools: [lookup] }))
    expect(mock.requests.at(-1)?.body).toMatchObject({ stream: false })
    expect(result).toMatchObject({
      text: 'Whole',
      usage: { prompt: 3, completion: 2 },
      finishReason: 'tool_calls',
    })
    expect(result.toolCalls).toEqual([{ id: 'toolu_9', name: 'lookup', arguments: '{"q":1}' }])
  })

  it('leaves usage undefined when none is reported', async () => {
    mock.setScript([{ text: ['x'], usage: null }])
    expect((await collect(provider(), userRequest('q'))).result.usage).toBeUndefined()
  })

  it('caps the temperature at what Anthropic accepts', async () => {
    await collect(provider(), userRequest('q', { temperature: 1.6, maxTokens: 99 }))
    expect(mock.requests.at(-1)?.body).toMatchObject({ temperature: 1, max_tokens: 99 })
  })

  it('turns an error event mid-stream into PROVIDER_SERVER', async () => {
    mock.setScript([{ text: ['partial'], errorEvent: true }])
    const error = await flowError(collect(provider(), userRequest('q')))
    expect(error.code).toBe('PROVIDER_SERVER')
    expect(error.message).toContain('overloaded_error')
  })

  it('reports a dropped stream as PROVIDER_NETWORK', async () => {
    mock.setScript([{ text: ['a', 'b', 'c', 'd'], dropAfterEvents: 5 }])
    const error = await flowError(collect(provider(), userRequest('q')))
    expect(error.code).toBe('PROVIDER_NETWORK')
  })

  it('maps a refused key to PROVIDER_AUTH', async () => {
    const error = await flowError(collect(provider({ apiKey: 'wrong' }), userRequest('q')))
    expect(error.code).toBe('PROVIDER_AUTH')
    expect(error.message).toContain('check it in Settings')
  })

  it('retries an overloaded (529) server, then succeeds', async () => {
    mock.setScript([
      { status: 529, error: { type: 'overloaded_error', message: 'Overloaded' } },
      { text: ['fine'] },
    ])
    const clock = recordingClock()
    const p = createAnthropicProvider(
      settings({ kind: 'anthropic', baseUrl: mock.url, apiKey: 'ant-key', model: 'claude-mock' }),
      { fetch, clock, requestTimeoutMs: 0, callDeadlineMs: 0 },
    )
    const { result } = await collect(p, userRequest('q'))
    expect(result.text).toBe('fine')
    expect(clock.sleeps).toEqual([500])
  })

  it('maps a 400 to PROVIDER_BAD_REQUEST with the API message', async () => {
    mock.setScript([{ status: 400, error: { type: 'invalid_request_error', message: 'prompt is too long' } }])
    const error = await flowError(collect(provider(), userRequest('q')))
    expect(error.code).toBe('PROVIDER_BAD_REQUEST')
    expect(error.message).toContain('prompt is too long')
  })
})

describe('toAnthropicMessages', () => {
  it('puts tool results first in their user message even when a text came before them', () => {
    const { messages } = toAnthropicMessages(
      [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: '', toolCalls: [{ id: 't', name: 'f', arguments: 'not json' }] },
        { role: 'user', content: 'hint' },
        { role: 'tool', toolCallId: 't', name: 'f', content: 'r' },
      ],
      true,
    )
    expect(messages[1]?.content).toEqual([
      { type: 'tool_use', id: 't', name: 'f', input: { raw_arguments: 'not json' } },
    ])
    expect(messages[2]?.content.map((block) => block.type)).toEqual(['tool_result', 'text'])
  })

  it('drops empty text blocks and joins several system prompts', () => {
    const { system, messages } = toAnthropicMessages(
      [
        { role: 'system', content: 'A' },
        { role: 'system', content: 'B' },
        { role: 'user', content: 'q' },
        { role: 'assistant', content: '' },
        { role: 'user', content: 'again' },
      ],
      false,
    )
    expect(system).toBe('A\n\nB')
    expect(messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'q' },
          { type: 'text', text: 'again' },
        ],
      },
    ])
  })
})
