import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PROVIDER_STREAM_PIECE_CHARS, PROVIDER_STREAM_SLICE_MS } from '../../src/defaults.ts'
import type { Clock } from '../../src/engine/index.ts'
import { createOpenAiCompatibleProvider } from '../../src/providers/openaiCompatible.ts'
import { sendRequest } from '../../src/providers/transport.ts'
import { startMockOpenAiServer, type MockOpenAiServer } from '../support/mockOpenAiServer.ts'
import { collect, realClock, settings, userRequest } from './helpers.ts'

/** A thread that is always busy: every reading of the clock finds `stepMs` more gone by. */
function busyClock(stepMs: number): Clock & { sleeps: number[] } {
  let time = 1_700_000_000_000
  const sleeps: number[] = []
  return {
    sleeps,
    now: () => (time += stepMs),
    sleep: async (ms) => {
      sleeps.push(ms)
    },
  }
}

/** A 200 response whose whole body is already there: one read returns all of it. */
function bufferedFetch(text: string): typeof fetch {
  return async () =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(text))
          controller.close()
        },
      }),
      { status: 200, headers: { 'content-type': 'text/event-stream' } },
    )
}

const target = { label: 'Mock', model: 'm', url: 'http://127.0.0.1:1/v1/chat/completions' }

async function readAll(text: string, clock: Clock): Promise<string[]> {
  const deps = { fetch: bufferedFetch(text), clock, requestTimeoutMs: 0, callDeadlineMs: 0 }
  const call = await sendRequest(deps, target, () => ({ method: 'POST' }), new AbortController().signal)
  const pieces: string[] = []
  try {
    for await (const piece of call.text()) pieces.push(piece)
  } finally {
    call.close()
  }
  return pieces
}

describe('reading a reply that arrives faster than it is handled', () => {
  const body = 'data: {"x":"0123456789"}\n\n'.repeat(2_000)

  it('hands one large read on in pieces, losing and reordering nothing', async () => {
    const pieces = await readAll(body, busyClock(0))
    expect(pieces.length).toBeGreaterThan(1)
    for (const piece of pieces) expect(piece.length).toBeLessThanOrEqual(PROVIDER_STREAM_PIECE_CHARS)
    expect(pieces.join('')).toBe(body)
  })

  it('gives the thread a turn (a 0 ms sleep) once the stream kept it busy for a slice', async () => {
    const clock = busyClock(PROVIDER_STREAM_SLICE_MS / 2)
    const pieces = await readAll(body, clock)
    const turns = clock.sleeps.filter((ms) => ms === 0).length
    expect(turns).toBeGreaterThan(0)
    // At most one turn per piece: the stream never sleeps twice in a row.
    expect(turns).toBeLessThanOrEqual(pieces.length)
  })

  it('never sleeps while the thread is not busy (time stands still)', async () => {
    const clock = busyClock(0)
    await readAll(body, clock)
    expect(clock.sleeps).toEqual([])
  })
})

describe('20,000 streamed tokens from a real server', () => {
  let mock: MockOpenAiServer
  beforeAll(async () => {
    mock = await startMockOpenAiServer()
  })
  afterAll(() => mock.close())

  it('arrive complete and in order while the reader yields to the event loop', async () => {
    const chunks = Array.from({ length: 20_000 }, (_, i) => `t${i} `)
    mock.setScript([{ chunks, usage: { prompt: 5, completion: chunks.length } }])
    const provider = createOpenAiCompatibleProvider(settings({ baseUrl: mock.baseUrl }), {
      fetch,
      clock: realClock,
    })
    let timerTurns = 0
    const ticker = setInterval(() => (timerTurns += 1), 1)
    try {
      const { text, result } = await collect(provider, userRequest('write'))
      expect(text).toBe(chunks.join(''))
      expect(result.usage?.completion).toBe(chunks.length)
    } finally {
      clearInterval(ticker)
    }
    // Timers ran while the text was handled: the stream did not hold the thread throughout.
    expect(timerTurns).toBeGreaterThan(0)
  })
})
