/**
 * Which loop-body events a run record keeps: those of the newest LOOP_STORED_ITERATIONS_MAX
 * iterations of each loop at each place (per enclosing iteration and sub-flow call: events.ts
 * `nesting`). When a loop starts one
 * more, the events of its oldest kept iteration are dropped and counted per loop id, and later
 * events of a dropped iteration (still running under concurrency) are left out too. So a forEach
 * over 10,000 items records a hundred iterations' events, not ten thousand, while the loop's own
 * events (and its `results`, every item) are kept whole.
 */
import { LOOP_STORED_ITERATIONS_MAX } from '../../defaults.ts'
import { nestingKey, type RunEvent } from '../../engine/index.ts'

interface LoopWindow {
  loopId: string
  /** Kept iterations, oldest first (a Map keeps insertion order): key -> the events' keys. */
  kept: Map<string, number[]>
}

export class IterationWindow {
  private readonly loops = new Map<string, LoopWindow>()
  /** Loops nested in a kept iteration, dropped with it. */
  private readonly nested = new Map<string, string[]>()
  private readonly dropped = new Set<string>()
  private readonly notKept = new Map<string, number>()

  constructor(
    /** Deletes the kept event of that key (the recorder's store). */
    private readonly forget: (seq: number) => void,
    private readonly max: number = LOOP_STORED_ITERATIONS_MAX,
  ) {}

  /**
   * Files a body event under its iterations (one per enclosing loop) and returns true to keep
   * it, false to leave it out; events outside loop bodies are always kept.
   */
  admit(event: RunEvent, seq: number): boolean {
    const levels = loopLevels(event)
    if (levels.length === 0) return true
    if (levels.some((l) => this.dropped.has(l.key))) return false
    levels.forEach((level, j) => {
      let loop = this.loops.get(level.loopKey)
      if (!loop) {
        loop = { loopId: level.loopId, kept: new Map() }
        this.loops.set(level.loopKey, loop)
        const outer = levels[j - 1]
        if (outer) this.nested.set(outer.key, [...(this.nested.get(outer.key) ?? []), level.loopKey])
      }
      let seqs = loop.kept.get(level.key)
      if (!seqs) {
        seqs = []
        loop.kept.set(level.key, seqs)
        if (loop.kept.size > this.max) this.dropOldest(loop)
      }
      seqs.push(seq)
    })
    return true
  }

  /** Iterations left out, by loop id (empty when none were). */
  counts(): Record<string, number> {
    return Object.fromEntries(this.notKept)
  }

  private dropOldest(loop: LoopWindow): void {
    const oldest = loop.kept.keys().next().value
    if (oldest === undefined) return
    for (const seq of loop.kept.get(oldest) ?? []) this.forget(seq)
    loop.kept.delete(oldest)
    this.dropped.add(oldest)
    this.notKept.set(loop.loopId, (this.notKept.get(loop.loopId) ?? 0) + 1)
    this.dropNested(oldest)
  }

  /** The windows of loops inside a dropped iteration: their events went with it. */
  private dropNested(key: string): void {
    for (const loopKey of this.nested.get(key) ?? []) {
      const loop = this.loops.get(loopKey)
      this.loops.delete(loopKey)
      for (const inner of loop?.kept.keys() ?? []) this.dropNested(inner)
    }
    this.nested.delete(key)
  }
}

interface Level {
  loopId: string
  /** The loop at its place: every container around it (iterations included) and its id. */
  loopKey: string
  /** One iteration of that loop. */
  key: string
}

/** One level per loop segment of the event's nesting, outermost first (none outside bodies). */
function loopLevels(event: RunEvent): Level[] {
  const nesting = event.nesting
  if (nesting === undefined) return []
  const levels: Level[] = []
  nesting.forEach((segment, j) => {
    if (segment.kind !== 'loop') return
    const loopKey = `${nestingKey(nesting.slice(0, j))}${segment.nodeId}`
    levels.push({ loopId: segment.nodeId, loopKey, key: `${loopKey}|${segment.iteration ?? 0}` })
  })
  return levels
}
