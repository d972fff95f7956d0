/**
 * A loop body node's iteration records in the run store: one per place in the loops around it
 * (the loop segments of its events' `nesting`, nested loops included), with its inputs, output,
 * error and its own console lines, which the iteration picker browses. Records are keyed by every
 * enclosing loop's index, so inner 0 of outer 1 is not inner 0 of outer 0. Only the newest
 * LOOP_STORED_ITERATIONS_MAX records of a node are kept (outer loops' indexes first); older ones
 * are counted in `iterationsNotKept`, so a forEach over 10,000 items holds a hundred records, not
 * ten thousand. Pure.
 */
import { LOOP_ITERATION_CONSOLE_MAX_CHARS, LOOP_STORED_ITERATIONS_MAX } from '../defaults.ts'
import { canvasPlace, type NestingSegment } from '../engine/index.ts'
import type { ConsoleLine, ConsoleLineKind, NodeRunState, NodeRunStatus } from './runStoreReducer.ts'

/** One iteration of a loop body node: its inputs, output or error, and what it printed. */
export interface IterationRecord {
  /** The innermost loop's index (from 0). */
  iteration: number
  /** The loops around the node, outermost first, each with its iteration (events.ts `nesting`). */
  loops: readonly NestingSegment[]
  /** Every enclosing loop's index, outermost first (one entry for a loop on the canvas). */
  chain: readonly number[]
  /** `chain` joined by dots: what the picker selects by ("2", or "1.0" in a loop in a loop). */
  key: string
  status: NodeRunStatus
  inputs?: Readonly<Record<string, unknown>>
  output?: Readonly<Record<string, unknown>>
  error?: { code: string; message: string }
  skipReason?: string
  durationMs?: number
  /** This iteration's console: streamed text, guard alerts, its error or skip line. */
  lines?: readonly ConsoleLine[]
  /** Characters in `lines`; past LOOP_ITERATION_CONSOLE_MAX_CHARS the rest is left out (`cut`). */
  chars?: number
  cut?: boolean
}

/** Where an event happened, as the store reads it: its type and nesting (engine events.ts). */
export interface BodyEvent {
  type: string
  nesting?: readonly NestingSegment[]
}

/** The loop segments around a node of this canvas (those before any sub-flow call). */
export function canvasLoops(nesting: readonly NestingSegment[] | undefined): readonly NestingSegment[] {
  if (nesting === undefined) return []
  return canvasPlace({ nodeId: '', nesting }).loops.filter((s) => s.kind === 'loop')
}

/** What an event adds to its iteration's console, if anything. */
export type IterationText =
  | {
      kind: ConsoleLineKind
      text: string
      merge: boolean
      layer?: ConsoleLine['layer']
      level?: ConsoleLine['level']
    }
  | undefined

function compareChains(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? -1) - (b[i] ?? -1)
    if (d !== 0) return d
  }
  return 0
}

function withConsole(record: IterationRecord, add: IterationText): IterationRecord {
  if (!add || add.text === '' || record.cut) return record
  const chars = record.chars ?? 0
  const room = LOOP_ITERATION_CONSOLE_MAX_CHARS - chars
  const text = add.text.length > room ? add.text.slice(0, Math.max(0, room)) : add.text
  const cut = text.length < add.text.length
  const lines = record.lines ?? []
  const last = lines[lines.length - 1]
  const line: ConsoleLine = { kind: add.kind, text }
  if (add.layer) line.layer = add.layer
  if (add.level) line.level = add.level
  const next =
    add.merge && last && last.kind === add.kind && add.kind !== 'guard'
      ? [...lines.slice(0, -1), { ...last, text: last.text + text }]
      : [...lines, line]
  return { ...record, lines: next, chars: chars + text.length, ...(cut ? { cut: true } : {}) }
}

/**
 * `state` with `event`'s iteration record updated by `patch` and `add` (events outside a body:
 * as is). Records stay sorted by `chain`. `max` is the number of records kept (LOOP_STORED_ITERATIONS_MAX).
 */
export function withIteration(
  state: NodeRunState,
  event: BodyEvent,
  patch: Partial<IterationRecord>,
  add?: IterationText,
  max: number = LOOP_STORED_ITERATIONS_MAX,
): NodeRunState {
  const loops = canvasLoops(event.nesting)
  if (loops.length === 0) return state
  const chain = loops.map((s) => s.iteration ?? 0)
  const list = state.iterations ?? []
  // Records stay sorted by chain; events nearly always concern one of the newest, so search back.
  let at = list.length
  while (at > 0 && compareChains((list[at - 1] as IterationRecord).chain, chain) > 0) at--
  const found = at > 0 && compareChains((list[at - 1] as IterationRecord).chain, chain) === 0
  if (!found && list.length >= max && at === 0) {
    // Older than every record kept while full: left out, counted once (at its start).
    if (event.type !== 'nodeStart') return state
    return { ...state, iterationsNotKept: (state.iterationsNotKept ?? 0) + 1 }
  }
  const before: IterationRecord = found
    ? (list[at - 1] as IterationRecord)
    : { iteration: chain[chain.length - 1] as number, loops, chain, key: chain.join('.'), status: 'queued' }
  const record = withConsole({ ...before, ...patch }, add)
  const next = [...list]
  if (found) next[at - 1] = record
  else next.splice(at, 0, record)
  let dropped = 0
  while (next.length > max) {
    next.shift()
    dropped++
  }
  return {
    ...state,
    iterations: next,
    ...(dropped > 0 ? { iterationsNotKept: (state.iterationsNotKept ?? 0) + dropped } : {}),
  }
}

/** The loop a body node's records belong to (its innermost enclosing loop), if any. */
export function loopOfRecords(records: readonly IterationRecord[] | undefined): string | undefined {
  return records?.[0]?.loops.at(-1)?.nodeId
}

/** The record of `key` among `records`, if kept. */
export function iterationOf(
  records: readonly IterationRecord[] | undefined,
  key: string | undefined,
): IterationRecord | undefined {
  if (key === undefined || !records) return undefined
  return records.find((r) => r.key === key)
}

/** How a person counts an iteration: from 1, outer loops first ("3", or "2.1" in a loop in a loop). */
export function iterationLabel(key: string): string {
  return key
    .split('.')
    .map((i) => String(Number(i) + 1))
    .join('.')
}
