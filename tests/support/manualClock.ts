/**
 * A Clock whose time only moves when a test says so. `advance(ms)` fires every sleep whose
 * deadline falls inside the window, in deadline order, letting the promise chains that follow
 * each wake-up run (and register new sleeps) before the next one fires. That is what lets a test
 * prove "node B started at t=50 while C still slept" without real timers.
 */
import type { Clock } from '../../src/engine/index.ts'

interface Sleeper {
  wakeAt: number
  seq: number
  resolve: () => void
  reject: (error: unknown) => void
  cleanup: () => void
}

/** Lets pending promise callbacks run: a real macrotask turn drains every queued microtask. */
export function flushMicrotasks(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0))
}

function abortError(signal: AbortSignal): unknown {
  const reason: unknown = signal.reason
  if (reason instanceof Error && reason.name === 'AbortError') return reason
  return new DOMException('The operation was aborted.', 'AbortError')
}

export class ManualClock implements Clock {
  private time: number
  private seq = 0
  private sleepers: Sleeper[] = []

  constructor(startMs = 1_700_000_000_000) {
    this.time = startMs
  }

  now(): number {
    return this.time
  }

  /** How many sleeps are waiting to be woken. */
  get pendingSleeps(): number {
    return this.sleepers.length
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(abortError(signal))
    return new Promise<void>((resolve, reject) => {
      const sleeper: Sleeper = {
        wakeAt: this.time + Math.max(0, ms),
        seq: this.seq++,
        resolve,
        reject,
        cleanup: () => undefined,
      }
      if (signal) {
        const onAbort = (): void => {
          this.remove(sleeper)
          reject(abortError(signal))
        }
        signal.addEventListener('abort', onAbort, { once: true })
        sleeper.cleanup = () => signal.removeEventListener('abort', onAbort)
      }
      this.sleepers.push(sleeper)
    })
  }

  /**
   * Moves time forward by `ms`, waking sleepers in deadline order. Microtasks are flushed after
   * each wake-up so work started by it can schedule its own sleeps inside the same window.
   */
  async advance(ms: number): Promise<void> {
    const target = this.time + ms
    await flushMicrotasks()
    for (;;) {
      const next = this.nextSleeper()
      if (!next || next.wakeAt > target) break
      this.time = next.wakeAt
      this.remove(next)
      next.cleanup()
      next.resolve()
      await flushMicrotasks()
    }
    this.time = target
    await flushMicrotasks()
  }

  /** Advances until no sleeper is left (bounded, so a sleeping loop cannot hang a test). */
  async runAll(maxSteps = 10_000): Promise<void> {
    await flushMicrotasks()
    for (let step = 0; step < maxSteps; step++) {
      const next = this.nextSleeper()
      if (!next) return
      await this.advance(next.wakeAt - this.time)
    }
    throw new Error(`ManualClock.runAll: still sleeping after ${maxSteps} steps`)
  }

  /** Waits (in real microtask turns) until at least `count` sleeps are pending. */
  async waitForSleepers(count: number, maxTurns = 1_000): Promise<void> {
    for (let turn = 0; turn < maxTurns; turn++) {
      if (this.sleepers.length >= count) return
      await flushMicrotasks()
    }
    throw new Error(`ManualClock.waitForSleepers: expected ${count}, have ${this.sleepers.length}`)
  }

  private nextSleeper(): Sleeper | undefined {
    let best: Sleeper | undefined
    for (const s of this.sleepers) {
      if (!best || s.wakeAt < best.wakeAt || (s.wakeAt === best.wakeAt && s.seq < best.seq)) best = s
    }
    return best
  }

  private remove(sleeper: Sleeper): void {
    this.sleepers = this.sleepers.filter((s) => s !== sleeper)
  }
}
