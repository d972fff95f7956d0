import { describe, expect, it } from 'vitest'
import { FlowError, type Clock } from '../../src/engine/index.ts'
import { sendRequest } from '../../src/providers/transport.ts'
import { realClock } from './helpers.ts'

const target = { label: 'Mock', model: 'm', url: 'http://127.0.0.1:1/v1/chat/completions' }

/**
 * A fetch whose reply sends one piece and then nothing, and which ignores the request's signal
 * (as a fetch polyfill or a proxy may): only the reader's own cancel can end a pending read.
 */
function stallingFetch(): { fetch: typeof fetch; cancelled: () => boolean } {
  let cancelled = false
  const fetchFn: typeof fetch = async () =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('data: {"x":1}\n\n'))
        },
        cancel() {
          cancelled = true
        },
      }),
      { status: 200, headers: { 'content-type': 'text/event-stream' } },
    )
  return { fetch: fetchFn, cancelled: () => cancelled }
}

async function readUntilError(
  iterable: AsyncIterable<string>,
): Promise<{ pieces: string[]; error: unknown }> {
  const pieces: string[] = []
  try {
    for await (const piece of iterable) pieces.push(piece)
  } catch (error) {
    return { pieces, error }
  }
  return { pieces, error: undefined }
}

/**
 * A clock whose timers fire a millisecond early, as Node's may against Date.now(): a sleep
 * over 1 ms ends 1 ms short, and every other 1 ms sleep ends with the clock unmoved.
 */
function earlyTimersClock(): Clock {
  let now = 0
  let shortSleeps = 0
  return {
    now: () => now,
    sleep: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(new DOMException('Aborted', 'AbortError'))
        if (ms > 1) now += ms - 1
        else if (++shortSleeps % 2 === 0) now += ms
        setTimeout(resolve, 0)
      }),
  }
}

describe('reading a streamed body that stalls', () => {
  it('Stop ends a pending read at once with CANCELLED, and cancels the body', async () => {
    const stalling = stallingFetch()
    const stop = new AbortController()
    const deps = { fetch: stalling.fetch, clock: realClock, requestTimeoutMs: 0, callDeadlineMs: 0 }
    const call = await sendRequest(deps, target, () => ({ method: 'POST' }), stop.signal)
    const started = Date.now()
    setTimeout(() => stop.abort(), 50)
    const { pieces, error } = await readUntilError(call.text())
    call.close()
    expect(pieces.join('')).toBe('data: {"x":1}\n\n')
    expect(error).toBeInstanceOf(FlowError)
    expect((error as FlowError).code).toBe('CANCELLED')
    expect(Date.now() - started).toBeLessThan(1_000)
    expect(stalling.cancelled()).toBe(true)
  })

  it('a server silent past the idle timeout ends the read with PROVIDER_NETWORK, not as a finished reply', async () => {
    const stalling = stallingFetch()
    const deps = { fetch: stalling.fetch, clock: realClock, requestTimeoutMs: 100 }
    const call = await sendRequest(deps, target, () => ({ method: 'POST' }), new AbortController().signal)
    const { error } = await readUntilError(call.text())
    call.close()
    expect(error).toBeInstanceOf(FlowError)
    expect((error as FlowError).code).toBe('PROVIDER_NETWORK')
    expect((error as FlowError).message).toMatch(/sent nothing for/)
    expect(stalling.cancelled()).toBe(true)
  })

  it('times out even when a timer fires before the clock has moved on', async () => {
    const stalling = stallingFetch()
    const deps = { fetch: stalling.fetch, clock: earlyTimersClock(), requestTimeoutMs: 100 }
    const call = await sendRequest(deps, target, () => ({ method: 'POST' }), new AbortController().signal)
    const { error } = await readUntilError(call.text())
    call.close()
    expect((error as FlowError).code).toBe('PROVIDER_NETWORK')
    expect(stalling.cancelled()).toBe(true)
  })
})
