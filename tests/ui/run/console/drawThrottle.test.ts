import { describe, expect, it } from 'vitest'
import { createDrawThrottle, type ThrottleHost } from '../../../../src/ui/run/console/drawThrottle.ts'

/** A manual clock and frame queue: `frame()` advances the clock one 60 Hz frame and runs the callbacks. */
function manualHost() {
  let now = 0
  let next = 1
  const callbacks = new Map<number, () => void>()
  const host: ThrottleHost = {
    now: () => now,
    requestFrame(callback) {
      callbacks.set(next, callback)
      return next++
    },
    cancelFrame: (handle) => void callbacks.delete(handle),
  }
  const frame = (): void => {
    now += 1000 / 60
    const due = [...callbacks.values()]
    callbacks.clear()
    for (const callback of due) callback()
  }
  return { host, frame, waiting: () => callbacks.size }
}

describe('createDrawThrottle', () => {
  it('draws at once when the interval has passed, then at most every second 60 Hz frame', () => {
    const { host, frame } = manualHost()
    let draws = 0
    const throttle = createDrawThrottle(() => (draws += 1), 28, host)
    throttle.request()
    expect(draws).toBe(1)
    // A batch arrives every frame, as while a reply streams.
    for (let i = 0; i < 60; i += 1) {
      frame()
      throttle.request()
    }
    expect(draws).toBeGreaterThanOrEqual(30)
    expect(draws).toBeLessThanOrEqual(31)
  })

  it('a request that comes too soon draws in a later frame, once, however many requests came', () => {
    const { host, frame, waiting } = manualHost()
    let draws = 0
    const throttle = createDrawThrottle(() => (draws += 1), 28, host)
    throttle.request()
    throttle.request()
    throttle.request()
    expect(draws).toBe(1)
    expect(waiting()).toBe(1)
    frame() // 16.7 ms: still too soon, waits another frame
    expect(draws).toBe(1)
    frame() // 33.3 ms
    expect(draws).toBe(2)
    expect(waiting()).toBe(0)
  })

  it('cancel drops the waiting drawing', () => {
    const { host, frame, waiting } = manualHost()
    let draws = 0
    const throttle = createDrawThrottle(() => (draws += 1), 28, host)
    throttle.request()
    throttle.request()
    throttle.cancel()
    expect(waiting()).toBe(0)
    frame()
    frame()
    expect(draws).toBe(1)
  })
})
