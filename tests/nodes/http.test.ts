import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { HTTP_MAX_RESPONSE_BYTES } from '../../src/defaults.ts'
import { runFlow, type RunEvent } from '../../src/engine/run.ts'
import { engineRegistry } from '../../src/nodes/registry.ts'
import { retryAfterMs } from '../../src/nodes/http/response.ts'
import { systemClock } from '../../src/platform/systemClock.ts'
import { flow, ofType, testContext } from '../support/flowBuilders.ts'
import { ManualClock } from '../support/manualClock.ts'
import { consoleOf, outputOf } from './runNodes.ts'

interface Seen {
  method: string
  url: string
  headers: IncomingMessage['headers']
  body: string
}

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void
const routes = new Map<string, Handler>()
const seen: Seen[] = []
let server: Server
let base = ''

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = ''
    req.on('data', (c: Buffer) => (body += c.toString()))
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body })
      const path = new URL(req.url ?? '/', 'http://x').pathname
      const handler = routes.get(path)
      if (handler) handler(req, res, body)
      else res.writeHead(404, { 'content-type': 'text/plain' }).end('no such route')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

beforeEach(() => {
  routes.clear()
  seen.length = 0
})

function httpFlow(config: Record<string, unknown>) {
  return flow()
    .node('in', 'input', { values: { id: '42', token: 'secret-token', city: 'São Paulo', verb: 'post' } })
    .node('h', 'http', config)
    .edge('in', 'h')
    .build()
}

/** Runs with real fetch; the manual clock only drives retry sleeps (advanced by `drive`). */
async function run(
  config: Record<string, unknown>,
  drive?: (clock: ManualClock) => Promise<void>,
  clock = new ManualClock(),
) {
  const { ctx, controller } = testContext({ clock, fetch: (input, init) => fetch(input, init) })
  const events: RunEvent[] = []
  const done = (async () => {
    for await (const e of runFlow(httpFlow(config), engineRegistry, ctx)) events.push(e)
  })()
  if (drive) await drive(clock)
  await done
  return { events, controller, error: ofType(events, 'nodeError')[0], output: outputOf(events, 'h') }
}

describe('http node', () => {
  it('sends templated method, URL, query, headers and body, and parses a JSON reply', async () => {
    routes.set('/items/42', (_req, res) =>
      res
        .writeHead(201, { 'content-type': 'application/json; charset=utf-8' })
        .end('{"made":true,"n":[1,2]}'),
    )
    const { output, events } = await run({
      method: '{{in.verb}}',
      url: `${base}/items/{{in.id}}`,
      query: [
        { key: 'city', value: '{{in.city}}' },
        { key: '', value: 'ignored' },
      ],
      headers: [{ key: 'Authorization', value: 'Bearer {{in.token}}' }],
      body: '{"id": "{{in.id}}"}',
    })
    expect(seen[0]).toMatchObject({
      method: 'POST',
      url: '/items/42?city=S%C3%A3o+Paulo',
      body: '{"id": "42"}',
    })
    expect(seen[0]?.headers['authorization']).toBe('Bearer secret-token')
    expect(output).toMatchObject({ status: 201, ok: true, body: { made: true, n: [1, 2] } })
    expect((output?.['headers'] as Record<string, string>)['content-type']).toContain('application/json')
    expect(consoleOf(events, 'h', 'log')).toContain(`POST ${base}/items/42?city=S%C3%A3o+Paulo`)
  })

  it('returns other content types as text', async () => {
    routes.set('/page', (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<b>hi</b>'))
    const { output } = await run({ url: `${base}/page` })
    expect(output?.['body']).toBe('<b>hi</b>')
  })

  it('retries a 429 after the Retry-After the server asked for, then succeeds', async () => {
    let calls = 0
    routes.set('/busy', (_req, res) => {
      calls++
      if (calls === 1)
        res.writeHead(429, { 'retry-after': '3', 'content-type': 'text/plain' }).end('slow down')
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":1}')
    })
    const clock = new ManualClock()
    const t0 = clock.now()
    const { output, events } = await run(
      { url: `${base}/busy`, retries: 2 },
      async (c) => {
        await c.waitForSleepers(1)
        expect(calls).toBe(1)
        await c.advance(2999)
        expect(calls).toBe(1)
        await c.advance(1)
      },
      clock,
    )
    expect(calls).toBe(2)
    expect(output).toMatchObject({ status: 200, body: { ok: 1 } })
    expect(consoleOf(events, 'h', 'log')).toContain('Retrying in 3000 ms (1 of 2)')
    expect(ofType(events, 'nodeFinish')[1]?.at).toBe(t0 + 3000)
  })

  it('backs off exponentially on 5xx and fails with the status once retries run out', async () => {
    routes.set('/down', (_req, res) =>
      res.writeHead(503, { 'content-type': 'text/plain' }).end('maintenance'),
    )
    const clock = new ManualClock()
    const { error } = await run(
      { url: `${base}/down`, retries: 2 },
      async (c) => {
        await c.waitForSleepers(1)
        await c.advance(500)
        await c.waitForSleepers(1)
        await c.advance(1000)
      },
      clock,
    )
    expect(seen).toHaveLength(3)
    expect(error).toMatchObject({
      code: 'HTTP_STATUS',
      message: expect.stringContaining('503 Service Unavailable: maintenance'),
    })
  })

  it('fails a 404 at once with the status and what the server said', async () => {
    const { error } = await run({ url: `${base}/missing`, retries: 3 })
    expect(seen).toHaveLength(1)
    expect(error).toMatchObject({
      code: 'HTTP_STATUS',
      message: expect.stringContaining('404 Not Found: no such route'),
    })
  })

  it('reports an error status with a huge body by its status, reading only the start of the body', async () => {
    let written = 0
    routes.set('/huge-error', (_req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' })
      const piece = 'x'.repeat(64 * 1024)
      const more = (): void => {
        while (!res.destroyed && written < HTTP_MAX_RESPONSE_BYTES * 4) {
          written += piece.length
          if (!res.write(written === piece.length ? `overloaded ${piece}` : piece))
            return void res.once('drain', more)
        }
        res.end()
      }
      more()
    })
    const { error } = await run({ url: `${base}/huge-error`, retries: 0 })
    expect(error).toMatchObject({
      code: 'HTTP_STATUS',
      message: expect.stringContaining('500 Internal Server Error: overloaded xxx'),
    })
    expect(written).toBeLessThan(HTTP_MAX_RESPONSE_BYTES)
  })

  it('gives up with HTTP_TIMEOUT when the server does not answer in time', async () => {
    routes.set('/never', () => undefined)
    const started = Date.now()
    const { error } = await run({ url: `${base}/never`, timeoutMs: 1000, retries: 0 })
    expect(error).toMatchObject({ code: 'HTTP_TIMEOUT', message: expect.stringContaining('1000 ms') })
    expect(Date.now() - started).toBeLessThan(5000)
  })

  it('refuses a response larger than the cap while streaming it, with a clear error', async () => {
    routes.set('/huge', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' })
      const block = 'x'.repeat(64 * 1024)
      let sent = 0
      const pump = (): void => {
        while (sent <= HTTP_MAX_RESPONSE_BYTES && !res.destroyed) {
          sent += block.length
          if (!res.write(block)) return void res.once('drain', pump)
        }
        res.end()
      }
      pump()
    })
    const { error } = await run({ url: `${base}/huge` })
    expect(error).toMatchObject({
      code: 'HTTP_TOO_LARGE',
      message: expect.stringContaining('larger than 5 MB'),
    })
  })

  it('refuses a declared Content-Length over the cap before reading', async () => {
    routes.set('/declared', (_req, res) => {
      res.writeHead(200, {
        'content-type': 'text/plain',
        'content-length': String(HTTP_MAX_RESPONSE_BYTES + 1),
      })
      res.write('x')
    })
    const { error } = await run({ url: `${base}/declared` })
    expect(error?.code).toBe('HTTP_TOO_LARGE')
  })

  it('only requests http and https URLs', async () => {
    for (const url of ['file:///etc/passwd', 'ftp://example.com/x', 'javascript:alert(1)', 'not a url']) {
      const { error } = await run({ url })
      expect(error?.code).toBe('HTTP_BAD_URL')
    }
    expect(seen).toHaveLength(0)
  })

  it('explains a network failure instead of only reporting it', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise((resolve) => closed.close(resolve))
    const { error } = await run({ url: `http://127.0.0.1:${port}/`, retries: 0 })
    expect(error).toMatchObject({ code: 'HTTP_NETWORK', message: expect.stringContaining('CORS') })
  })

  it('aborts the request in flight when the run is stopped', async () => {
    routes.set('/slow', () => undefined)
    const made = testContext({ fetch: (i, init) => fetch(i, init) })
    const { controller } = made
    const ctx = { ...made.ctx, clock: systemClock }
    const events: RunEvent[] = []
    const done = (async () => {
      for await (const e of runFlow(httpFlow({ url: `${base}/slow` }), engineRegistry, ctx)) events.push(e)
    })()
    while (seen.length === 0) await new Promise((r) => setTimeout(r, 5))
    controller.abort()
    await done
    expect(events.at(-1)).toMatchObject({ type: 'runFinish', status: 'cancelled' })
  })
})

describe('retryAfterMs', () => {
  it('reads delta-seconds and HTTP dates', () => {
    expect(retryAfterMs('2', 0)).toBe(2000)
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6000)
    expect(retryAfterMs('soon', 0)).toBeUndefined()
    expect(retryAfterMs(null, 0)).toBeUndefined()
  })
})
