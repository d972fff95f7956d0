/**
 * Runs a drawing at most once per `minIntervalMs`, always inside an animation frame: a request
 * that comes too soon is put off to the first frame after the interval, and requests made while
 * one is waiting add nothing (the drawing reads the newest state when it runs).
 */

/** What the throttle needs from the page; tests pass a manual clock and frame queue. */
export interface ThrottleHost {
  now(): number
  requestFrame(callback: () => void): number
  cancelFrame(handle: number): void
}

const pageHost: ThrottleHost = {
  now: () => performance.now(),
  requestFrame: (callback) => requestAnimationFrame(() => callback()),
  cancelFrame: (handle) => cancelAnimationFrame(handle),
}

export interface DrawThrottle {
  /** Draw now when the interval has passed (the caller is in a frame), else in a later frame. */
  request(): void
  /** Drops a waiting drawing (unmount). */
  cancel(): void
}

export function createDrawThrottle(
  draw: () => void,
  minIntervalMs: number,
  host: ThrottleHost = pageHost,
): DrawThrottle {
  let last = Number.NEGATIVE_INFINITY
  let waiting: number | undefined

  const drawIfDue = (): boolean => {
    const now = host.now()
    if (now - last < minIntervalMs) return false
    last = now
    draw()
    return true
  }
  const inLaterFrame = (): void => {
    waiting = undefined
    if (!drawIfDue()) waiting = host.requestFrame(inLaterFrame)
  }

  return {
    request() {
      if (waiting !== undefined) return
      if (!drawIfDue()) waiting = host.requestFrame(inLaterFrame)
    },
    cancel() {
      if (waiting !== undefined) host.cancelFrame(waiting)
      waiting = undefined
    },
  }
}
