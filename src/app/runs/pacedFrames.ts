/**
 * A frame scheduler that calls back at most once per `minIntervalMs`, always in an animation
 * frame. While it is too early it waits on a timer, not frame after frame: a frame whose callback
 * does nothing still costs the page a lifecycle update (style, hit test, commit), and a model
 * streaming hundreds of tokens a second would otherwise ask for every frame there is.
 *
 * The run service paces its event batches with it, so a streaming reply writes the store (and
 * renders what selects it) about 15 times a second instead of 60, and asks for no frame it
 * does not use.
 */
import { RUN_BATCH_FRAME_TOLERANCE_MS } from '../../defaults.ts'
import type { FrameScheduler } from './eventBatcher.ts'

/** The clock and timer the pacing needs; tests pass manual ones. */
export interface PacingHost {
  now(): number
  setTimer(callback: () => void, ms: number): number
  clearTimer(handle: number): void
}

const pageHost: PacingHost = {
  now: () => performance.now(),
  setTimer: (callback, ms) => setTimeout(callback, ms) as unknown as number,
  clearTimer: (handle) => clearTimeout(handle),
}

interface Pending {
  timer?: number
  frame?: number
}

export function pacedFrames(
  frames: FrameScheduler,
  minIntervalMs: number,
  host: PacingHost = pageHost,
): FrameScheduler {
  let last = Number.NEGATIVE_INFINITY
  let nextHandle = 1
  const pending = new Map<number, Pending>()

  const request = (callback: () => void): number => {
    const handle = nextHandle++
    const entry: Pending = {}
    pending.set(handle, entry)
    // A timer until the callback is due, then the next frame: at 60 Hz an interval between three
    // and four frames (RUN_BATCH_MIN_INTERVAL_MS) ends before the fourth frame after the last
    // callback, so that is the frame it comes in.
    const schedule = (): void => {
      const wait = last + minIntervalMs - host.now()
      if (wait > RUN_BATCH_FRAME_TOLERANCE_MS) {
        entry.timer = host.setTimer(() => {
          entry.timer = undefined
          entry.frame = frames.request(inFrame)
        }, wait)
      } else {
        entry.frame = frames.request(inFrame)
      }
    }
    const inFrame = (): void => {
      entry.frame = undefined
      const now = host.now()
      if (now - last < minIntervalMs - RUN_BATCH_FRAME_TOLERANCE_MS) return schedule()
      pending.delete(handle)
      last = now
      callback()
    }
    schedule()
    return handle
  }

  const cancel = (handle: number): void => {
    const entry = pending.get(handle)
    if (!entry) return
    pending.delete(handle)
    if (entry.timer !== undefined) host.clearTimer(entry.timer)
    if (entry.frame !== undefined) frames.cancel(entry.frame)
  }

  return { request, cancel }
}
