/**
 * The page's side of the token worker: an engine TokenEstimator whose counts are made in a
 * worker. The worker starts with the first count, not before: loading its table takes a core for
 * ~0.3 s, which at a run's start competed with the page drawing it, and a server that reports
 * usage never needs it. The price is that the page's first count waits for that load (at the end
 * of a reply without usage, or before the first call of an Agent with a token budget).
 *
 * Counts asked in the same tick travel in one message. If the worker cannot start, fails to load
 * its encoding, crashes or sends something unreadable, counting moves to this thread (the reason
 * is reported once) and every count still waiting is answered there: a run never fails or hangs
 * because of the worker. Should even the in-thread tokenizer fail to load, counts fall back to a
 * rough characters-per-token figure (usage is marked estimated either way).
 */
import { z } from 'zod'
import { TOKEN_ESTIMATE_FALLBACK_CHARS_PER_TOKEN, TOKEN_WORKER_START_TIMEOUT_MS } from '../defaults.ts'
import type { TokenEstimator } from '../engine/index.ts'
import type { TokenCounter } from './tokens.ts'
import type { WorkerPort, WorkerPortEvents } from '../platform/workerPort.ts'
import type { CountTokensMessage, TokenWorkerMessage } from './tokenWorkerProtocol.ts'

/** What the worker sends is checked before it can settle a count. */
const tokenWorkerMessageSchema: z.ZodType<TokenWorkerMessage> = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('loadFailed'), message: z.string() }),
  z.object({ type: z.literal('counts'), id: z.number(), counts: z.array(z.number().int().nonnegative()) }),
  z.object({ type: z.literal('countFailed'), id: z.number(), message: z.string() }),
])

/** A started worker, seen through the two things the estimator does with it. */
export type TokenWorkerPort = WorkerPort<CountTokensMessage>

/** What the worker reports; `failure` covers load errors, crashes and unreadable messages. */
export type TokenWorkerEvents = WorkerPortEvents

/** Starts the worker (may throw, e.g. where there are no Web Workers). */
export type TokenWorkerFactory = (events: TokenWorkerEvents) => TokenWorkerPort

export interface WorkerTokenEstimatorOptions {
  spawn: TokenWorkerFactory
  /** Loads the tokenizer into this thread, used only once the worker has failed. */
  fallback: () => Promise<TokenCounter>
  /** Told once why counting left the worker (the browser logs it). */
  onFallback?: (reason: string) => void
  startTimeoutMs?: number
}

export interface WorkerTokenEstimator {
  estimate: TokenEstimator
  /** 'worker' until a failure, then 'in-thread'. */
  readonly mode: 'worker' | 'in-thread'
  /** Ends the worker; counts still waiting are answered in-thread. */
  dispose(): void
}

interface Waiting {
  text: string
  resolve(count: number): void
}

const rough: TokenCounter = (text) => Math.ceil(text.length / TOKEN_ESTIMATE_FALLBACK_CHARS_PER_TOKEN)

/** Creates the estimator; its worker starts with the first count. */
export function createWorkerTokenEstimator(options: WorkerTokenEstimatorOptions): WorkerTokenEstimator {
  const { spawn, fallback, onFallback } = options
  let port: TokenWorkerPort | undefined
  let failed: string | undefined
  let local: Promise<TokenCounter> | undefined
  let nextId = 1
  let batch: Waiting[] = []
  const inFlight = new Map<number, Waiting[]>()
  let startTimer: ReturnType<typeof setTimeout> | undefined

  const localCounter = (): Promise<TokenCounter> =>
    (local ??= fallback().catch((error: unknown) => {
      onFallback?.(`the tokenizer did not load either (${String(error)}); counting characters instead`)
      return rough
    }))

  const countHere = (waiting: readonly Waiting[]): void => {
    if (waiting.length === 0) return
    void localCounter().then((count) => {
      for (const w of waiting) w.resolve(count(w.text))
    })
  }

  const fail = (reason: string, report = true): void => {
    if (failed !== undefined) return
    failed = reason
    clearTimeout(startTimer)
    port?.terminate()
    port = undefined
    if (report) onFallback?.(reason)
    const waiting = [...inFlight.values()].flat()
    inFlight.clear()
    countHere(waiting)
  }

  const settle = (id: number, counts: readonly number[]): void => {
    const waiting = inFlight.get(id)
    if (!waiting) return
    inFlight.delete(id)
    // A reply of the wrong length cannot be matched to its texts: count those here.
    if (counts.length !== waiting.length) return countHere(waiting)
    waiting.forEach((w, i) => w.resolve(counts[i] as number))
  }

  const events: TokenWorkerEvents = {
    message(data) {
      if (failed !== undefined) return
      const parsed = tokenWorkerMessageSchema.safeParse(data)
      if (!parsed.success) return fail('the token worker sent an unreadable message')
      const message = parsed.data
      if (message.type === 'ready') clearTimeout(startTimer)
      else if (message.type === 'loadFailed')
        fail(`the token worker could not load the tokenizer: ${message.message}`)
      else if (message.type === 'countFailed') fail(`the token worker failed to count: ${message.message}`)
      else settle(message.id, message.counts)
    },
    failure: (reason) => fail(`the token worker failed: ${reason}`),
  }

  const send = (): void => {
    const waiting = batch
    batch = []
    if (failed !== undefined || !port) return countHere(waiting)
    const id = nextId++
    inFlight.set(id, waiting)
    try {
      port.post({ type: 'count', id, texts: waiting.map((w) => w.text) })
    } catch (error) {
      fail(`the token worker refused a message: ${String(error)}`)
    }
  }

  let started = false
  const start = (): void => {
    started = true
    try {
      port = spawn(events)
      startTimer = setTimeout(
        () => fail('the token worker did not load the tokenizer in time'),
        options.startTimeoutMs ?? TOKEN_WORKER_START_TIMEOUT_MS,
      )
    } catch (error) {
      fail(`no token worker could be started: ${String(error)}`)
    }
  }

  return {
    estimate: (text) =>
      new Promise<number>((resolve) => {
        // An empty text is zero tokens; no need to ask anyone.
        if (text === '') return resolve(0)
        // After a failure or dispose counts are made here: no worker to start (or to leak).
        if (!started && failed === undefined) start()
        if (batch.length === 0) queueMicrotask(send)
        batch.push({ text, resolve })
      }),
    get mode() {
      return failed === undefined ? 'worker' : 'in-thread'
    },
    dispose: () => fail('the token worker was disposed', false),
  }
}
