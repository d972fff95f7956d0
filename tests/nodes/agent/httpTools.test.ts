/** Agent http tools against a real local HTTP server, with real fetch and real timers. */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { defaultProtection, runFlow, type RunEvent } from '../../../src/engine/run.ts'
import { engineRegistry } from '../../../src/nodes/registry.ts'
import { systemClock } from '../../../src/platform/systemClock.ts'
import { collect, flow, ofType, testContext } from '../../support/flowBuilders.ts'
import { listen, readRequest, type Listening } from '../../support/mockHttp.ts'
import { scriptedProvider } from '../../support/scriptedProvider.ts'
import { outputOf } from '../runNodes.ts'

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void
const routes = new Map<string, Handler>()
const seen: Array<{ method: string; url: string; headers: IncomingMessage['headers']; body: string }> = []
let server: Listening

beforeAll(async () => {
  server = await listen(async (req, res) => {
    const recorded = await readRequest(req)
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: recorded.rawBody })
    const handler = routes.get(new URL(req.url ?? '/', 'http://x').pathname)
    if (handler) handler(req, res, recorded.rawBody)
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('no such route')
  })
})
afterAll(() => server.close())
beforeEach(() => {
  routes.clear()
  seen.length = 0
})

const params = {
  type: 'object',
  properties: { city: { type: 'string' }, days: { type: 'integer' } },
  required: ['city'],
}

async function runTool(tool: Record<string, unknown>, args: unknown, protection = defaultProtection()) {
  const provider = scriptedProvider([
    { toolCalls: [{ name: 'weather', arguments: JSON.stringify(args) }] },
    { text: 'done' },
  ])
  const { ctx } = testContext({ provider, fetch: (input, init) => fetch(input, init), protection })
  ctx.clock = systemClock
  const doc = flow()
    .node('in', 'input', { values: { token: 'tok-123' } })
    .node('agent', 'agent', {
      prompt: 'Weather?',
      tools: [{ name: 'weather', parameters: params, kind: 'http', ...tool }],
    })
    .edge('in', 'agent')
    .build()
  const events: RunEvent[] = await collect(runFlow(doc, engineRegistry, ctx))
  const calls = outputOf(events, 'agent')?.['toolCalls'] as Array<{ observation: string }> | undefined
  return { events, observation: calls?.[0]?.observation ?? '' }
}

describe('agent http tools', () => {
  it('POSTs the arguments as a JSON body with templated headers and returns the response text', async () => {
    routes.set('/weather', (_req, res, body) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(`{"echo":${body}}`),
    )
    const { observation } = await runTool(
      { url: `${server.url}/weather`, headers: [{ key: 'Authorization', value: 'Bearer {{in.token}}' }] },
      { city: 'Oslo', days: 2 },
    )
    expect(observation).toBe('{"echo":{"city":"Oslo","days":2}}')
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/weather' })
    expect(seen[0]?.headers['content-type']).toBe('application/json')
    expect(seen[0]?.headers['authorization']).toBe('Bearer tok-123')
  })

  it('sends GET arguments as query parameters', async () => {
    routes.set('/weather', (req, res) =>
      res.writeHead(200).end(`query ${new URL(req.url ?? '', 'http://x').search}`),
    )
    const { observation } = await runTool(
      { url: `${server.url}/weather`, method: 'GET' },
      { city: 'São Paulo', days: 3 },
    )
    expect(observation).toBe('query ?city=S%C3%A3o+Paulo&days=3')
    expect(seen[0]?.body).toBe('')
  })

  it('turns an error status into an error observation with the start of the body', async () => {
    routes.set('/weather', (_req, res) =>
      res.writeHead(503, { 'content-type': 'text/plain' }).end('upstream down'),
    )
    const { observation } = await runTool({ url: `${server.url}/weather` }, { city: 'Oslo' })
    expect(observation).toBe(
      'Observation: Error executing tool "weather": HTTP 503 Service Unavailable: upstream down',
    )
  })

  it('stops a request that outlives the tool timeout and raises a watchdog alert', async () => {
    routes.set('/weather', () => undefined) // never answers
    const started = Date.now()
    const { events, observation } = await runTool(
      { url: `${server.url}/weather` },
      { city: 'Oslo' },
      { ...defaultProtection(), toolTimeoutMs: 300 },
    )
    expect(Date.now() - started).toBeLessThan(5_000)
    expect(observation).toMatch(
      /^Observation: Error executing tool "weather": No response from http:\/\/127\.0\.0\.1:\d+ within 300 ms\.$/,
    )
    expect(ofType(events, 'guard')[0]).toMatchObject({ layer: 'watchdog', level: 'trip', tool: 'weather' })
    expect(outputOf(events, 'agent')).toMatchObject({ stopReason: 'answer', response: 'done' })
  })

  it('refuses a URL that is not http(s) without sending anything', async () => {
    const { observation } = await runTool({ url: 'file:///etc/passwd' }, { city: 'Oslo' })
    expect(observation).toContain('Only http:// and https:// URLs can be requested')
    expect(seen).toHaveLength(0)
  })

  it('reports a server that cannot be reached', async () => {
    const closed = await listen(async () => undefined)
    const url = `${closed.url}/weather`
    await closed.close()
    const { observation } = await runTool({ url }, { city: 'Oslo' })
    expect(observation).toMatch(
      /^Observation: Error executing tool "weather": Could not reach http:\/\/127\.0\.0\.1:\d+/,
    )
  })
})
