import { describe, expect, it } from 'vitest'
import { encode } from 'gpt-tokenizer/encoding/o200k_base'
import { TOKEN_ESTIMATE_FALLBACK_CHARS_PER_TOKEN } from '../../src/defaults.ts'
import { loadTokenCounter, type TokenCounter } from '../../src/providers/tokens.ts'
import {
  createWorkerTokenEstimator,
  type TokenWorkerEvents,
  type TokenWorkerFactory,
} from '../../src/providers/tokenWorkerClient.ts'
import { createTokenWorkerLoop } from '../../src/providers/tokenWorkerLoop.ts'
import type { CountTokensMessage, TokenWorkerMessage } from '../../src/providers/tokenWorkerProtocol.ts'

const official = (text: string) => encode(text, { disallowedSpecial: new Set() }).length
const later = () => new Promise((resolve) => setTimeout(resolve, 0))

/**
 * A worker in this thread running the real worker loop: messages cross with structuredClone and
 * a macrotask, as they would between threads.
 */
function fakeWorker(load: () => Promise<TokenCounter> = loadTokenCounter) {
  const sent: CountTokensMessage[] = []
  let events: TokenWorkerEvents | undefined
  let terminated = false
  const spawn: TokenWorkerFactory = (e) => {
    events = e
    const handle = createTokenWorkerLoop((message: TokenWorkerMessage) => {
      const copy = structuredClone(message)
      setTimeout(() => !terminated && e.message(copy), 0)
    }, load)
    return {
      post(message) {
        sent.push(message)
        const copy = structuredClone(message)
        setTimeout(() => !terminated && handle(copy), 0)
      },
      terminate: () => void (terminated = true),
    }
  }
  return {
    spawn,
    sent,
    get events() {
      return events as TokenWorkerEvents
    },
    get terminated() {
      return terminated
    },
  }
}

function estimator(spawn: TokenWorkerFactory, fallback: () => Promise<TokenCounter> = loadTokenCounter) {
  const reasons: string[] = []
  const made = createWorkerTokenEstimator({ spawn, fallback, onFallback: (r) => reasons.push(r) })
  return { ...made, reasons, mode: () => made.mode }
}

const REPLY = Array.from({ length: 20_000 }, (_, i) => (i % 12 === 11 ? `t${i}\n` : `t${i} `)).join('')

describe('the worker-backed token estimator', () => {
  it("answers with gpt-tokenizer's o200k_base counts", async () => {
    const worker = fakeWorker()
    const e = estimator(worker.spawn)
    const texts = [
      'hello world',
      'before <|endoftext|> after',
      '你好，世界 🌍',
      '{"q":"x"}\n\n  indented',
      REPLY,
    ]
    const counts = await Promise.all(texts.map(e.estimate))
    expect(counts).toEqual(texts.map(official))
    expect(e.mode()).toBe('worker')
    expect(e.reasons).toEqual([])
  })

  it('sends the counts asked in one tick as one message, and later ones in the next', async () => {
    const worker = fakeWorker()
    const e = estimator(worker.spawn)
    await Promise.all([e.estimate('a b'), e.estimate('c d'), e.estimate('e f')])
    await e.estimate('g h')
    expect(worker.sent.map((m) => m.texts)).toEqual([['a b', 'c d', 'e f'], ['g h']])
    expect(new Set(worker.sent.map((m) => m.id)).size).toBe(2)
  })

  it('starts its worker with the first count, once, not when it is made', async () => {
    const worker = fakeWorker()
    let spawned = 0
    const e = estimator((events) => {
      spawned += 1
      return worker.spawn(events)
    })
    await later()
    expect(spawned).toBe(0)
    expect(await e.estimate('')).toBe(0)
    expect(spawned).toBe(0)
    expect(await Promise.all([e.estimate('a b'), e.estimate('c d')])).toEqual([2, 2])
    expect(await e.estimate('e f')).toBe(2)
    expect(spawned).toBe(1)
    expect(e.mode()).toBe('worker')
  })

  it('answers an empty text with zero without asking the worker', async () => {
    const worker = fakeWorker()
    const e = estimator(worker.spawn)
    expect(await e.estimate('')).toBe(0)
    expect(worker.sent).toEqual([])
  })

  it('counts in this thread, with the reason told once, when no worker can be started', async () => {
    const e = estimator(() => {
      throw new Error('Worker is not defined')
    })
    expect(await Promise.all([e.estimate('hello world'), e.estimate(REPLY)])).toEqual([2, official(REPLY)])
    expect(e.mode()).toBe('in-thread')
    expect(e.reasons).toHaveLength(1)
    expect(e.reasons[0]).toMatch(/no token worker could be started: .*Worker is not defined/)
  })

  it('answers counts already sent in this thread when the worker crashes', async () => {
    const worker = fakeWorker(() => new Promise<TokenCounter>(() => undefined))
    const e = estimator(worker.spawn)
    const waiting = e.estimate('hello world')
    await later()
    expect(worker.sent).toHaveLength(1)
    worker.events.failure('script error')
    expect(await waiting).toBe(2)
    expect(worker.terminated).toBe(true)
    expect(e.reasons).toEqual(['the token worker failed: script error'])
    expect(await e.estimate('hello world')).toBe(2)
    expect(worker.sent).toHaveLength(1)
  })

  it('falls back when the worker cannot load the encoding', async () => {
    const worker = fakeWorker(() => Promise.reject(new Error('chunk missing')))
    const e = estimator(worker.spawn)
    expect(await e.estimate('hello world')).toBe(2)
    expect(e.reasons).toEqual(['the token worker could not load the tokenizer: chunk missing'])
  })

  it('falls back when the worker does not load in time', async () => {
    const worker = fakeWorker(() => new Promise<TokenCounter>(() => undefined))
    const reasons: string[] = []
    const e = createWorkerTokenEstimator({
      spawn: worker.spawn,
      fallback: loadTokenCounter,
      onFallback: (r) => reasons.push(r),
      startTimeoutMs: 10,
    })
    expect(await e.estimate('hello world')).toBe(2)
    expect(reasons).toEqual(['the token worker did not load the tokenizer in time'])
  })

  it('falls back on a message it cannot read', async () => {
    const worker = fakeWorker(() => new Promise<TokenCounter>(() => undefined))
    const e = estimator(worker.spawn)
    const waiting = e.estimate('hello world')
    await later()
    worker.events.message({ type: 'counts', id: 1, counts: ['two'] })
    expect(await waiting).toBe(2)
    expect(e.reasons).toEqual(['the token worker sent an unreadable message'])
  })

  it('counts characters when even the in-thread tokenizer cannot load, so a run still ends', async () => {
    const e = estimator(
      () => {
        throw new Error('no workers')
      },
      () => Promise.reject(new Error('offline')),
    )
    expect(await e.estimate('x'.repeat(40))).toBe(40 / TOKEN_ESTIMATE_FALLBACK_CHARS_PER_TOKEN)
    expect(e.reasons[1]).toMatch(/did not load either .*offline.*counting characters/)
  })

  it('stops the worker on dispose and still answers what was waiting', async () => {
    const worker = fakeWorker(() => new Promise<TokenCounter>(() => undefined))
    const e = estimator(worker.spawn)
    const waiting = e.estimate('hello world')
    await later()
    e.dispose()
    expect(await waiting).toBe(2)
    expect(worker.terminated).toBe(true)
    expect(e.reasons).toEqual([])
  })

  it('starts no worker for a count after dispose, and still answers it', async () => {
    let spawned = 0
    const e = estimator((events) => {
      spawned += 1
      return fakeWorker().spawn(events)
    })
    e.dispose()
    expect(await e.estimate('hello world')).toBe(2)
    expect(spawned).toBe(0)
    expect(e.mode()).toBe('in-thread')
  })
})

describe('the token worker loop', () => {
  it('says ready once the encoding loaded, answers by id and ignores malformed requests', async () => {
    const posted: TokenWorkerMessage[] = []
    const handle = createTokenWorkerLoop((m) => posted.push(m), loadTokenCounter)
    handle({ type: 'count', id: 7, texts: ['hello world', ''] })
    handle({ type: 'count', id: 8, texts: [42] })
    handle('count')
    await later()
    expect(posted).toEqual([{ type: 'ready' }, { type: 'counts', id: 7, counts: [2, 0] }])
  })
})
