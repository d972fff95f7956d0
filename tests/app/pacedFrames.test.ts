import { describe, expect, it } from 'vitest'
import type { FrameScheduler } from '../../src/app/runs/eventBatcher.ts'
import { pacedFrames, type PacingHost } from '../../src/app/runs/pacedFrames.ts'
import { RUN_BATCH_MIN_INTERVAL_MS } from '../../src/defaults.ts'

const FRAME_MS = 1000 / 60

/**
 * A manual page: a clock, timers and 60 Hz frames. `advance(ms)` moves the clock, firing timers
 * when due and running frame callbacks at every frame boundary it passes.
 */
function manualPage() {
  let now = 0
  let nextFrameAt = FRAME_MS
  let id = 1
  const frameCallbacks = new Map<number, () => void>()
  const timers = new Map<number, { at: number; callback: () => void }>()
  let emptyFrameRequests = 0
  const frames: FrameScheduler = {
    request(callback) {
      frameCallbacks.set(id, callback)
      return id++
    },
    cancel: (handle) => void frameCallbacks.delete(handle),
  }
  const host: PacingHost = {
    now: () => now,
    setTimer(callback, ms) {
      timers.set(id, { at: now + ms, callback })
      return id++
    },
    clearTimer: (handle) => void timers.delete(handle),
  }
  const runFrame = (): void => {
    const due = [...frameCallbacks.values()]
    frameCallbacks.clear()
    for (const callback of due) callback()
    // A callback that only asked for another frame made this frame an empty one.
    if (due.length > 0 && frameCallbacks.size === due.length) emptyFrameRequests += 1
  }
  const advance = (ms: number): void => {
    const end = now + ms
    for (;;) {
      const timer = [...timers.entries()].sort((a, b) => a[1].at - b[1].at)[0]
      const nextEvent = Math.min(timer ? timer[1].at : Infinity, nextFrameAt)
      if (nextEvent > end) break
      now = nextEvent
      if (timer && timer[1].at === nextEvent) {
        timers.delete(timer[0])
        timer[1].callback()
      } else {
        nextFrameAt += FRAME_MS
        runFrame()
      }
    }
    now = end
  }
  return {
    frames,
    host,
    advance,
    now: () => now,
    timersWaiting: () => timers.size,
    framesWaiting: () => frameCallbacks.size,
    emptyFrames: () => emptyFrameRequests,
  }
}

describe('pacedFrames', () => {
  it('calls back in the next frame the first time', () => {
    const page = manualPage()
    const paced = pacedFrames(page.frames, 28, page.host)
    const calls: number[] = []
    paced.request(() => calls.push(page.now()))
    expect(page.timersWaiting()).toBe(0)
    page.advance(FRAME_MS)
    expect(calls).toEqual([FRAME_MS])
  })

  it('a request made right after a callback waits on a timer, then comes in the first frame past the interval', () => {
    const page = manualPage()
    const paced = pacedFrames(page.frames, RUN_BATCH_MIN_INTERVAL_MS, page.host)
    const calls: number[] = []
    // A batch is asked for every time one was applied, as while a reply streams.
    const ask = (): void => {
      paced.request(() => {
        calls.push(page.now())
        ask()
      })
    }
    ask()
    page.advance(1000)
    const gaps = calls.slice(1).map((t, i) => t - (calls[i] as number))
    // The shipped pace lands on every fourth 60 Hz frame: 15 calls a second, never closer than
    // the interval, and never a frame later than needed.
    const framesPerCall = Math.ceil((RUN_BATCH_MIN_INTERVAL_MS - 1) / FRAME_MS)
    expect(framesPerCall).toBe(4)
    expect(calls.length).toBeGreaterThanOrEqual(14)
    expect(calls.length).toBeLessThanOrEqual(16)
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(RUN_BATCH_MIN_INTERVAL_MS - 1)
    for (const gap of gaps) expect(gap).toBeLessThan(framesPerCall * FRAME_MS + 1)
    // While waiting it sat on a timer, not on frame after frame.
    expect(page.emptyFrames()).toBe(0)
  })

  it('after a quiet spell the next request is served in the next frame, with no timer', () => {
    const page = manualPage()
    const paced = pacedFrames(page.frames, 28, page.host)
    let calls = 0
    paced.request(() => (calls += 1))
    page.advance(FRAME_MS)
    page.advance(500)
    paced.request(() => (calls += 1))
    expect(page.timersWaiting()).toBe(0)
    expect(page.framesWaiting()).toBe(1)
    page.advance(FRAME_MS)
    expect(calls).toBe(2)
  })

  it('cancel drops a request waiting on its timer or on its frame', () => {
    const page = manualPage()
    const paced = pacedFrames(page.frames, 28, page.host)
    let calls = 0
    paced.request(() => (calls += 1))
    page.advance(FRAME_MS)
    const onTimer = paced.request(() => (calls += 1))
    expect(page.timersWaiting()).toBe(1)
    paced.cancel(onTimer)
    expect(page.timersWaiting()).toBe(0)
    page.advance(28)
    const onFrame = paced.request(() => (calls += 1))
    page.advance(1)
    paced.cancel(onFrame)
    expect(page.framesWaiting()).toBe(0)
    page.advance(200)
    expect(calls).toBe(1)
  })
})
