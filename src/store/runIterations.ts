/**
 * A loop body node's iterations in the run store: one record per place in the loops around it
 * (nested loops included), kept in iteration order, outer loops first.
 */
import type { NestingSegment } from '../engine/index.ts'
import type { NodeRunState, NodeRunStatus } from './runStoreReducer.ts'

/** One iteration of a loop body node: its inputs, output or error. */
export interface IterationRecord {
  /** The innermost loop's index. */
  iteration: number
  /** The loops around the node, outermost first, each with its iteration. */
  loops: readonly NestingSegment[]
  status: NodeRunStatus
  inputs?: Readonly<Record<string, unknown>>
  output?: Readonly<Record<string, unknown>>
  error?: { code: string; message: string }
  skipReason?: string
  durationMs?: number
}

/** Orders two loop positions: outer loops' iterations first, then inner ones'. */
function compareLoops(a: readonly NestingSegment[], b: readonly NestingSegment[]): number {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i += 1) {
    const d = ((a[i] as NestingSegment).iteration ?? 0) - ((b[i] as NestingSegment).iteration ?? 0)
    if (d !== 0) return d
  }
  return a.length - b.length
}

/** `state` with its record of the event's iteration updated by `patch` (events outside a body: as is). */
export function withIteration(
  state: NodeRunState,
  loops: readonly NestingSegment[],
  patch: Partial<IterationRecord>,
): NodeRunState {
  if (loops.length === 0) return state
  const list = [...(state.iterations ?? [])]
  // Binary search: iterations mostly arrive in order, and a big forEach has thousands of them.
  let lo = 0
  let hi = list.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (compareLoops((list[mid] as IterationRecord).loops, loops) < 0) lo = mid + 1
    else hi = mid
  }
  const found = list[lo]
  if (found && compareLoops(found.loops, loops) === 0) list[lo] = { ...found, ...patch }
  else {
    const iteration = (loops[loops.length - 1] as NestingSegment).iteration ?? 0
    list.splice(lo, 0, { iteration, loops, status: 'queued', ...patch })
  }
  return { ...state, iterations: list }
}
