/**
 * Undo grouping on top of zundo. zundo records one step per store write; a person thinks in
 * gestures: one typing burst in one field, one node drag, one resize. `record` merges a write
 * into the previous step when it continues the same burst; a gesture merges every write between
 * its first real change and its end.
 */
import type { StoreApi } from 'zustand'
import type { TemporalState } from 'zundo'
import { UNDO_GROUP_WINDOW_MS } from '../defaults.ts'

export interface HistoryControl {
  /** Applies `apply`; merges it into the previous step when `groupKey` continues a burst. */
  record(groupKey: string | undefined, apply: () => void): void
  /** The next recorded change opens a step that every change until `endGesture` joins. */
  beginGesture(): void
  endGesture(): void
  isInGesture(): boolean
  /** Forgets the open burst (after undo/redo or loading another flow). */
  reset(): void
}

interface OpenBurst {
  key: string
  at: number
  depth: number
}

/** `temporal` is a getter because the store that owns the history is created after this. */
export function createHistoryControl<T>(
  temporal: () => StoreApi<TemporalState<T>>,
  now: () => number,
): HistoryControl {
  let burst: OpenBurst | null = null
  let gesture: 'idle' | 'armed' | 'active' = 'idle'
  const depth = (): number => temporal().getState().pastStates.length

  const untracked = (apply: () => void): void => {
    temporal().getState().pause()
    try {
      apply()
    } finally {
      temporal().getState().resume()
    }
  }

  return {
    record(groupKey, apply) {
      if (gesture === 'active') {
        untracked(apply)
        return
      }
      if (gesture === 'armed') {
        const before = depth()
        apply()
        if (depth() > before) gesture = 'active'
        burst = null
        return
      }
      const at = now()
      const continues =
        groupKey !== undefined &&
        burst !== null &&
        burst.key === groupKey &&
        at - burst.at <= UNDO_GROUP_WINDOW_MS &&
        burst.depth === depth()
      const before = depth()
      if (continues) untracked(apply)
      else apply()
      // A write that adds no step (a node re-measured as its summary grows, a selection change)
      // must not split the typing burst around it; one that adds a step ends the burst.
      if (groupKey !== undefined) burst = { key: groupKey, at, depth: depth() }
      else if (depth() !== before) burst = null
    },
    beginGesture() {
      if (gesture === 'idle') gesture = 'armed'
      burst = null
    },
    endGesture() {
      gesture = 'idle'
    },
    isInGesture() {
      return gesture !== 'idle'
    },
    reset() {
      burst = null
      gesture = 'idle'
    },
  }
}
