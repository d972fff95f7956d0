/**
 * The agent loop through the real provider adapters against the local mock servers, which answer
 * HTTP 400 for conversations the real APIs refuse (the OpenAI mock in strict mode; the Anthropic
 * mock always). A hint, a trip with skipped calls and the tools-disabled finalize call must all
 * produce conversations both accept.
 */
import { createSchemaValidator } from '../../../src/platform/schemaValidator.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  resolveAgentProtection,
  runAgentLoop,
  type AgentTool,
  type GuardAlert,
  type LlmProvider,
} from '../../../src/engine/run.ts'
import { createAnthropicProvider } from '../../../src/providers/anthropic.ts'
import { createOpenAiCompatibleProvider } from '../../../src/providers/openaiCompatible.ts'
import { systemClock } from '../../../src/platform/systemClock.ts'
import { startMockAnthropicServer, type MockAnthropicServer } from '../../support/mockAnthropicServer.ts'
import { startMockOpenAiServer, type MockOpenAiServer } from '../../support/mockOpenAiServer.ts'
import { settings } from '../../providers/helpers.ts'

let openai: MockOpenAiServer
let anthropic: MockAnthropicServer
beforeAll(async () => {
  openai = await startMockOpenAiServer({ strict: true })
  anthropic = await startMockAnthropicServer()
})
afterAll(async () => {
  await openai.close()
  await anthropic.close()
})

const tools: AgentTool[] = [
  {
    spec: { name: 'query_db', description: 'Query orders', parameters: { type: 'object' } },
    timeoutMs: 30_000,
    run: async () => '[]',
  },
  {
    spec: { name: 'count', description: 'Count orders', parameters: { type: 'object' } },
    timeoutMs: 30_000,
    run: async () => '0',
  },
]

async function runWith(provider: LlmProvider) {
  const alerts: GuardAlert[] = []
  const result = await runAgentLoop({
    provider,
    model: '',
    systemPrompt: 'You are careful.',
    prompt: 'How many orders are pending?',
    tools,
    protection: resolveAgentProtection({}),
    clock: systemClock,
    estimateTokens: async (text) => Math.ceil(text.length / 4),
    validator: createSchemaValidator(),
    signal: new AbortController().signal,
    emit: { chunk: () => undefined, guard: (alert) => alerts.push(alert) },
  })
  return { result, alerts }
}

const Q = '{"status":"pending"}'

describe('agent loop against strict provider servers', () => {
  it('OpenAI-compatible: hint, trip, skipped calls and finalize are all accepted', async () => {
    openai.setScript([
      {
        toolCalls: [
          { id: 'c1', name: 'query_db', arguments: Q },
          { id: 'c2', name: 'query_db', arguments: Q },
        ],
      },
      {
        toolCalls: [
          { id: 'c3', name: 'query_db', arguments: Q },
          { id: 'c4', name: 'count', arguments: '{}' },
        ],
      },
      { text: 'No pending orders.' },
    ])
    const provider = createOpenAiCompatibleProvider(settings({ baseUrl: openai.baseUrl }), {
      fetch,
      clock: systemClock,
    })
    const { result, alerts } = await runWith(provider)
    const chats = openai.requests.filter((r) => r.path.endsWith('/chat/completions'))
    expect(chats).toHaveLength(3)
    expect(result).toMatchObject({ stopReason: 'deadlock', response: 'No pending orders.' })
    expect(alerts.map((a) => a.level)).toEqual(['hint', 'trip'])
    const finalize = chats[2]?.body as {
      tools?: unknown
      tool_choice?: unknown
      messages: Array<{ role: string }>
    }
    expect(finalize.tools).toBeUndefined()
    expect(finalize.tool_choice).toBeUndefined()
    // assistant(c1,c2), tool, tool, user hint, assistant(c3,c4), tool, tool, user (finalize)
    expect(finalize.messages.slice(2).map((m) => m.role)).toEqual([
      'assistant',
      'tool',
      'tool',
      'user',
      'assistant',
      'tool',
      'tool',
      'user',
    ])
  })

  it('Anthropic: the same conversation passes its tool_use/tool_result checks', async () => {
    const use = (id: string, name: string, json: string) => ({ id, name, jsonChunks: [json] })
    anthropic.setScript([
      { toolUses: [use('t1', 'query_db', Q), use('t2', 'query_db', Q)] },
      { toolUses: [use('t3', 'query_db', Q), use('t4', 'count', '{}')] },
      { text: ['No pending orders.'] },
    ])
    const provider = createAnthropicProvider(
      settings({
        id: 'claude',
        kind: 'anthropic',
        baseUrl: anthropic.url,
        model: 'claude-mock-2',
        apiKey: 'k',
      }),
      { fetch, clock: systemClock },
    )
    const { result } = await runWith(provider)
    const calls = anthropic.requests.filter((r) => r.path === '/v1/messages')
    expect(calls).toHaveLength(3)
    expect(result).toMatchObject({ stopReason: 'deadlock', response: 'No pending orders.' })
  })
})
