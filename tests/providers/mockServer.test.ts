import { spawn } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createOpenAiCompatibleProvider } from '../../src/providers/openaiCompatible.ts'
import type { ChatMessage } from '../../src/engine/index.ts'
import { startMockOpenAiServer, strictViolation, type MockOpenAiServer } from '../support/mockOpenAiServer.ts'
import { collect, realClock, settings, userRequest } from './helpers.ts'

let mock: MockOpenAiServer
beforeAll(async () => {
  mock = await startMockOpenAiServer({ strict: true })
})
afterAll(() => mock.close())

const provider = () =>
  createOpenAiCompatibleProvider(settings({ baseUrl: mock.baseUrl }), { fetch, clock: realClock })

describe('mock OpenAI server, default echo script', () => {
  it('calls the first tool once with schema-shaped arguments, then reports its result', async () => {
    const tools = [
      {
        name: 'search',
        description: 'Searches',
        parameters: { type: 'object', properties: { query: { type: 'string' }, limit: { type: 'integer' } } },
      },
    ]
    const first = await collect(provider(), userRequest('pending orders', { tools }))
    const call = first.result.toolCalls[0]
    expect(call?.name).toBe('search')
    expect(JSON.parse(call?.arguments ?? '')).toEqual({ query: 'pending orders', limit: 1 })
    const messages: ChatMessage[] = [
      { role: 'user', content: 'pending orders' },
      { role: 'assistant', content: '', toolCalls: first.result.toolCalls },
      { role: 'tool', toolCallId: call?.id ?? '', name: 'search', content: '[]' },
    ]
    const second = await collect(provider(), { model: '', messages, tools })
    expect(second.result.text).toBe('Echo: tool search returned: []')
    expect(second.result.toolCalls).toEqual([])
  })
})

describe('mock OpenAI server, control endpoints and CORS', () => {
  it('queues replies posted to /__mock/script and lists recorded requests', async () => {
    await fetch(`${mock.url}/__mock/reset`, { method: 'POST' })
    const posted = await fetch(`${mock.url}/__mock/script`, {
      method: 'POST',
      body: JSON.stringify({ replies: [{ text: 'scripted over HTTP' }] }),
    })
    expect(await posted.json()).toMatchObject({ ok: true, queued: 1 })
    expect((await collect(provider(), userRequest('q'))).result.text).toBe('scripted over HTTP')
    const recorded = (await (await fetch(`${mock.url}/__mock/requests`)).json()) as Array<{ path: string }>
    expect(recorded.map((r) => r.path)).toEqual(['/v1/chat/completions'])
  })

  it('answers a CORS preflight allowing the headers the browser asks for', async () => {
    const response = await fetch(`${mock.baseUrl}/chat/completions`, {
      method: 'OPTIONS',
      headers: {
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization, content-type',
      },
    })
    expect(response.status).toBe(204)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(response.headers.get('access-control-allow-headers')).toContain('authorization')
  })
})

describe('strictViolation', () => {
  const call = (id: string) => ({ id, type: 'function', function: { name: 'f', arguments: '{}' } })

  it('flags a tool_calls message whose ids do not all get results', () => {
    const body = {
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: null, tool_calls: [call('a'), call('b')] },
        { role: 'tool', tool_call_id: 'a', content: 'r' },
      ],
    }
    expect(strictViolation(body)).toMatch(/did not have response messages: b/)
  })

  it('flags a duplicate result, tool_choice without tools, and an empty tools array', () => {
    const duplicate = {
      messages: [
        { role: 'assistant', content: null, tool_calls: [call('a')] },
        { role: 'tool', tool_call_id: 'a', content: 'r' },
        { role: 'tool', tool_call_id: 'a', content: 'r' },
      ],
    }
    expect(strictViolation(duplicate)).toMatch(/must be a response to a preceeding message/)
    expect(strictViolation({ messages: [{ role: 'user', content: 'q' }], tool_choice: 'auto' })).toMatch(
      /tool_choice/,
    )
    expect(strictViolation({ messages: [{ role: 'user', content: 'q' }], tools: [] })).toMatch(/empty array/)
  })

  it('accepts a well-ordered conversation', () => {
    const body = {
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: null, tool_calls: [call('a'), call('b')] },
        { role: 'tool', tool_call_id: 'b', content: 'r' },
        { role: 'tool', tool_call_id: 'a', content: 'r' },
        { role: 'user', content: 'hint' },
      ],
    }
    expect(strictViolation(body)).toBeUndefined()
  })
})

describe('mock OpenAI server, standalone CLI', () => {
  it('starts with npx tsx, prints its URL and serves the echo script', async () => {
    const child = spawn(
      'npx',
      ['tsx', 'tests/support/mockOpenAiServer.ts', '--port', '0', '--delay-ms', '0'],
      {
        cwd: process.cwd(),
        stdio: ['ignore', 'pipe', 'pipe'],
        // Its own process group, so the whole npx -> tsx -> node chain can be stopped together.
        detached: true,
      },
    )
    const exited = new Promise((resolve) => child.once('exit', resolve))
    try {
      const baseUrl = await new Promise<string>((resolve, reject) => {
        let out = ''
        child.stdout.on('data', (data: Buffer) => {
          out += data.toString()
          const match = /(http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(out)
          if (match?.[1]) resolve(match[1])
        })
        child.once('exit', (code) => reject(new Error(`exited with ${code}`)))
      })
      const cli = createOpenAiCompatibleProvider(settings({ baseUrl }), { fetch, clock: realClock })
      expect((await collect(cli, userRequest('from the CLI'))).result.text).toBe('Echo: from the CLI')
    } finally {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM')
      await exited
    }
  })
})
