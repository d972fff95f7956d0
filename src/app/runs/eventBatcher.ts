/**
 * Collects run events and hands them on in an animation frame, so a model streaming hundreds
 * of tokens a second costs one store write (one render) per batch, not one per token. Streamed
 * text of one node and channel is merged while it waits. The run service paces the frames
 * (pacedFrames.ts: at most one batch per RUN_BATCH_MIN_INTERVAL_MS).
 */
import { nodeStreamKey, type NodeChunkEvent, type RunEvent } from '../../engine/index.ts'

/** When to apply a batch: animation frames (paced) in the app, a manual queue in tests. */
export interface FrameScheduler {
  request(callback: () => void): number
  cancel(handle: number): void
}

/** The next animation frame; a short timer where there is none (Node, workers). */
export const animationFrames: FrameScheduler =
  typeof requestAnimationFrame === 'function'
    ? {
        request: (callback) => requestAnimationFrame(() => callback()),
        cancel: (handle) => cancelAnimationFrame(handle),
      }
    : {
        request: (callback) => setTimeout(callback, 0) as unknown as number,
        cancel: (handle) => clearTimeout(handle),
      }

export interface EventBatcher {
  push(event: RunEvent): void
  /** Applies what is waiting now (the run ended, or the caller needs the store current). */
  flush(): void
  /** Drops what is waiting and cancels the frame. */
  dispose(): void
  /** Events waiting for the next frame (after merging). */
  readonly pending: number
}

/**
 * Creates a batcher that calls `apply` at most once per scheduled frame with the events waiting.
 * Events are never mutated: merged chunks are copies.
 */
export function createEventBatcher(
  apply: (events: RunEvent[]) => void,
  frames: FrameScheduler = animationFrames,
): EventBatcher {
  let queue: RunEvent[] = []
  // Index in `queue` of each node stream's last event, while that event is a chunk we may extend
  // (by node and place: a sub-flow's node `q` is not the canvas's `q`, see nesting.ts).
  let openChunk = new Map<string, number>()
  let handle: number | undefined

  const run = (): void => {
    handle = undefined
    const events = queue
    queue = []
    openChunk = new Map()
    if (events.length > 0) apply(events)
  }

  return {
    push(event) {
      if (event.type === 'nodeChunk') {
        const key = nodeStreamKey(event)
        const at = openChunk.get(key)
        const last = at === undefined ? undefined : (queue[at] as NodeChunkEvent)
        if (last && at !== undefined && last.channel === event.channel) {
          queue[at] = { ...last, text: last.text + event.text }
        } else {
          openChunk.set(key, queue.length)
          queue.push(event)
        }
      } else {
        if ('nodeId' in event) openChunk.delete(nodeStreamKey(event))
        queue.push(event)
      }
      handle ??= frames.request(run)
    },
    flush() {
      if (handle !== undefined) frames.cancel(handle)
      run()
    },
    dispose() {
      if (handle !== undefined) frames.cancel(handle)
      handle = undefined
      queue = []
      openChunk = new Map()
    },
    get pending() {
      return queue.length
    },
  }
}
