/**
 * What a hostile model server can no longer do: keep a call open forever with keep-alive
 * comments or empty chunks, grow memory with one endless line or error body, or have its
 * garbage kept. Real HTTP against a local server whose behaviour each test sets.
 */
import { createServer, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PROVIDER_ERROR_BODY_READ_MAX_BYTES, PROVIDER_SSE_LINE_MAX_CHARS } from '../../src/defaults.ts'
import { createOpenAiCompatibleProvider } from '../../src/providers/openaiCompatible.ts'
import type { TransportDeps } from '../../src/providers/transport.ts'
import { collect, flowError, realClock, settings, userRequest } from './helpers.ts'

type Behaviour = (res: ServerResponse) => void
let behaviour: Behaviour = (res) => res.end()
let server: Server
let baseUrl = ''
/** Bytes the server managed to hand to the socket for the last reply. */
let written = 0

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume()
    req.on('end', () => behaviour(res))
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
})
afterAll(() => new Promise<void>((done) => server.close(() => done())))

const delta = (content: string) => `data: ${JSON.stringify({ choices: [{ delta: { content } }] })}\n\n`

/** Writes `piece` every `everyMs` until the client goes away (or `stopAfterMs`, then `end`). */
function every(
  res: ServerResponse,
  everyMs: number,
  piece: () => string,
  stopAfterMs = 5_000,
  end = '',
): void {
  if (!res.headersSent) res.writeHead(200, { 'content-type': 'text/event-stream' })
  const started = Date.now()
  const timer = setInterval(() => {
    if (res.destroyed) return clearInterval(timer)
    if (Date.now() - started > stopAfterMs) {
      clearInterval(timer)
      res.end(end)
      return
    }
    res.write(piece())
  }, everyMs)
  res.on('close', () => clearInterval(timer))
}

function provider(deps: Partial<TransportDeps> = {}) {
  return createOpenAiCompatibleProvider(settings({ baseUrl, label: 'Hostile' }), {
    fetch: (input, init) => fetch(input, init),
    clock: realClock,
    ...deps,
  })
}

describe('a model server cannot hold a call open', { timeout: 20_000 }, () => {
  it('keep-alive comments do not reset the idle watchdog', async () => {
    // Comments only for 3 s, then a reply: the idle timeout (300 ms) must end the call first.
    behaviour = (res) => every(res, 40, () => ': keep-alive\n\n', 3_000, `${delta('late')}data: [DONE]\n\n`)
    const started = Date.now()
    const error = await flowError(collect(provider({ requestTimeoutMs: 300 }), userRequest('q')))
    expect(error.code).toBe('PROVIDER_NETWORK')
    expect(error.message).toMatch(/sent nothing for/)
    expect(Date.now() - started).toBeLessThan(2_500)
  })

  it('an overall deadline ends a call that streams empty chunks forever', async () => {
    behaviour = (res) => every(res, 20, () => delta(''), 10_000)
    const started = Date.now()
    const error = await flowError(collect(provider({ callDeadlineMs: 400 }), userRequest('q')))
    expect(error.code).toBe('PROVIDER_NETWORK')
    expect(error.message).toMatch(/did not finish its reply within/)
    expect(error.details).toMatchObject({ deadlineMs: 400 })
    expect(Date.now() - started).toBeLessThan(3_000)
  })
})

describe('a model server cannot exhaust memory', { timeout: 20_000 }, () => {
  it('refuses an SSE line longer than the cap, clearly', async () => {
    const piece = 'x'.repeat(64 * 1024)
    behaviour = (res) => {
      written = 0
      every(res, 1, () => {
        written += piece.length
        return written === piece.length ? `data: ${piece}` : piece
      })
    }
    const error = await flowError(collect(provider(), userRequest('q')))
    expect(error.code).toBe('PROVIDER_BAD_RESPONSE')
    expect(error.message).toMatch(/a line longer than 1 M characters/)
    expect(written).toBeLessThan(PROVIDER_SSE_LINE_MAX_CHARS * 4)
  })

  it('reads only the start of an error body and still quotes its message', async () => {
    behaviour = (res) => {
      res.writeHead(401, { 'content-type': 'text/plain' })
      res.write('bad key '.padEnd(PROVIDER_ERROR_BODY_READ_MAX_BYTES * 2, 'z'))
      written = 0
      every(res, 1, () => {
        written += 1
        return 'z'.repeat(64 * 1024)
      })
    }
    const error = await flowError(collect(provider(), userRequest('q')))
    expect(error.code).toBe('PROVIDER_AUTH')
    expect(error.message).toContain('The server said: bad key zzz')
    // The body was cancelled: the server could not go on writing for its 5 s.
    await new Promise((done) => setTimeout(done, 200))
    expect(written).toBeLessThan(100)
  })

  it('counts lines that are not JSON instead of keeping them', async () => {
    behaviour = (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.end('data: <garbage one>\n\ndata: two\n\ndata: three\n\n')
    }
    const error = await flowError(collect(provider(), userRequest('q')))
    expect(error.message).toMatch(/not JSON \(3 lines; first line: <garbage one>\)/)
  })

  it('counts the characters of a cut-off reply as a person does, not the bytes sent', async () => {
    behaviour = (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write(delta('Héllo 🎉🎉 '))
      res.write(delta('wor'))
      setTimeout(() => res.destroy(), 50)
    }
    const error = await flowError(collect(provider(), userRequest('q')))
    expect(error.message).toMatch(/dropped in the middle of the reply.*, after 12 characters\./)
  })
})
