/**
 * Structured output as each provider asks for it natively, checked on the request body a local
 * mock server received: OpenAI-compatible response_format, Ollama's format, Anthropic's forced
 * tool; and the demo provider's offline data.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { responseFormatOf, type ResponseFormat } from '../../src/engine/run.ts'
import { createAnthropicProvider } from '../../src/providers/anthropic.ts'
import { createDemoProvider } from '../../src/providers/demo.ts'
import { createOpenAiCompatibleProvider } from '../../src/providers/openaiCompatible.ts'
import { createSchemaValidator } from '../../src/platform/schemaValidator.ts'
import { startMockAnthropicServer, type MockAnthropicServer } from '../support/mockAnthropicServer.ts'
import { startMockOpenAiServer, type MockOpenAiServer } from '../support/mockOpenAiServer.ts'
import { collect, realClock, settings, userRequest } from './helpers.ts'

const ticket = {
  type: 'object',
  properties: {
    intent: { type: 'string', enum: ['refund', 'question'] },
    urgency: { type: 'integer', minimum: 1, maximum: 5 },
  },
  required: ['intent', 'urgency'],
  additionalProperties: false,
}
const format: ResponseFormat = responseFormatOf(ticket)

let openai: MockOpenAiServer
let anthropic: MockAnthropicServer

beforeAll(async () => {
  openai = await startMockOpenAiServer()
  anthropic = await startMockAnthropicServer({ apiKey: 'ant-key' })
})
afterAll(async () => {
  await openai.close()
  await anthropic.close()
})
beforeEach(() => {
  openai.requests.length = 0
  openai.setScript([])
  anthropic.requests.length = 0
  anthropic.setScript([])
})

const body = (requests: Array<{ body: unknown }>, at = -1) => requests.at(at)?.body as Record<string, unknown>

function openAi(baseUrl = openai.baseUrl, fetchVia: typeof fetch = fetch) {
  return createOpenAiCompatibleProvider(settings({ baseUrl }), { fetch: fetchVia, clock: realClock })
}

describe('OpenAI-compatible structured output', () => {
  it('sends response_format json_schema with the name, the schema and strict, and streams the JSON text', async () => {
    openai.setScript([{ chunks: ['{"intent":', '"refund",', '"urgency":4}'] }])
    const { chunks, result } = await collect(openAi(), userRequest('Refund me!', { responseFormat: format }))
    expect(body(openai.requests).response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'structured_output', schema: ticket, strict: true },
    })
    expect(body(openai.requests).format).toBeUndefined()
    expect(chunks.map((c) => c.text)).toEqual(['{"intent":', '"refund",', '"urgency":4}'])
    expect(JSON.parse(result.text)).toEqual({ intent: 'refund', urgency: 4 })
  })

  it('asks strict only of a schema strict mode accepts', async () => {
    openai.setScript([{ text: '{}' }])
    const loose = { type: 'object', properties: { a: { type: 'string' } } }
    await collect(openAi(), userRequest('x', { responseFormat: responseFormatOf(loose) }))
    expect(body(openai.requests).response_format).toMatchObject({ json_schema: { strict: false } })
  })

  it('puts the schema into the prompt when the server refuses response_format', async () => {
    openai.setScript([
      { status: 400, error: 'Unrecognized request argument supplied: response_format' },
      { text: '{"intent":"question","urgency":1}' },
    ])
    const { result } = await collect(openAi(), userRequest('Hi', { responseFormat: format }))
    expect(openai.requests).toHaveLength(2)
    const retried = body(openai.requests, 1)
    expect(retried.response_format).toBeUndefined()
    const messages = retried.messages as Array<{ role: string; content: string }>
    expect(messages[0]?.role).toBe('system')
    expect(messages[0]?.content).toContain(JSON.stringify(ticket))
    expect(result.text).toBe('{"intent":"question","urgency":1}')
  })

  it('adds Ollama’s format field for an Ollama server', async () => {
    openai.setScript([{ text: '{"intent":"refund","urgency":2}' }])
    // An address that names Ollama, routed to the local mock.
    const base = openai.baseUrl.replace(/\/v1$/, '/ollama/v1')
    const via: typeof fetch = (input, init) => fetch(String(input).replace('/ollama/v1', '/v1'), init)
    await collect(openAi(base, via), userRequest('x', { responseFormat: format }))
    expect(body(openai.requests).format).toEqual(ticket)
    expect(body(openai.requests).response_format).toMatchObject({ type: 'json_schema' })
  })

  it('sends no response_format without a schema', async () => {
    openai.setScript([{ text: 'plain' }])
    await collect(openAi(), userRequest('x'))
    expect(body(openai.requests).response_format).toBeUndefined()
  })
})

function claude() {
  return createAnthropicProvider(
    settings({ kind: 'anthropic', baseUrl: anthropic.url, apiKey: 'ant-key', model: 'claude-mock' }),
    { fetch, clock: realClock },
  )
}

describe('Anthropic structured output', () => {
  it('forces one tool whose input schema is the schema, and streams its input as the reply text', async () => {
    anthropic.setScript([
      {
        toolUses: [
          { id: 'tu_1', name: 'structured_output', jsonChunks: ['{"intent":"ref', 'und","urgency":5}'] },
        ],
        stopReason: 'tool_use',
      },
    ])
    const { chunks, result } = await collect(claude(), userRequest('Refund!', { responseFormat: format }))
    const sent = body(anthropic.requests)
    expect(sent.tool_choice).toEqual({ type: 'tool', name: 'structured_output' })
    expect(sent.tools).toEqual([expect.objectContaining({ name: 'structured_output', input_schema: ticket })])
    expect(chunks.map((c) => c.text).join('')).toBe('{"intent":"refund","urgency":5}')
    expect(JSON.parse(result.text)).toEqual({ intent: 'refund', urgency: 5 })
    expect(result.toolCalls).toEqual([])
    expect(result.finishReason).toBe('stop')
  })

  it('wraps a schema that is not an object (a tool input must be one) and unwraps the answer', async () => {
    const list = { type: 'array', items: { type: 'string' } }
    anthropic.setScript([
      { toolUses: [{ id: 'tu_1', name: 'structured_output', jsonChunks: ['{"value":["a","b"]}'] }] },
    ])
    const { result } = await collect(claude(), userRequest('x', { responseFormat: responseFormatOf(list) }))
    expect((body(anthropic.requests).tools as Array<{ input_schema: unknown }>)[0]?.input_schema).toEqual({
      type: 'object',
      properties: { value: list },
      required: ['value'],
    })
    expect(JSON.parse(result.text)).toEqual(['a', 'b'])
  })
})

describe('demo provider structured output', () => {
  it('answers a schema offline with data that fits it', async () => {
    const demo = createDemoProvider({ clock: realClock })
    const { result } = await collect(demo, userRequest('x', { responseFormat: format }))
    const data: unknown = JSON.parse(result.text)
    expect(data).toEqual({ intent: 'refund', urgency: 1 })
    const problems = await createSchemaValidator().validate({
      value: data,
      schema: ticket,
      root: 'data',
      maxProblems: 5,
      lenient: false,
    })
    expect(problems).toEqual([])
  })
})
