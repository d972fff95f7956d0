/**
 * Keeps a run's record in IndexedDB as the run goes (issue 19, item 5), so a reload or a crash
 * mid-run leaves an `interrupted` run with everything that finished. It writes when the run
 * starts, when a node of the flow ends and when a run pauses on an approval, never per streamed
 * token, and at most one write at a time: node ends that arrive while a write is under way are folded into one write after it.
 *
 * A node end's write waits one task: the last node's end is followed at once by the run's end,
 * whose final record the run service saves anyway, so that write (a whole record, the costliest
 * of a one-node run) is never made. Node ends in one task fold into one write the same way.
 */
import type { RunEvent } from '../../engine/index.ts'
import type { RunRecord } from '../../storage/rows.ts'
import type { RunRecorder } from './runRecorder.ts'

/** Runs `callback` in a later task (a timer by default). */
export type Defer = (callback: () => void) => void

const nextTimer: Defer = (callback) => {
  setTimeout(callback, 0)
}

export class IncrementalRecord {
  private writing: Promise<void> = Promise.resolve()
  private busy = false
  private dirty = false
  private deferred = false
  private closed = false
  /** How many writes were started (tests and the bench read it). */
  writes = 0

  constructor(
    private readonly recorder: RunRecorder,
    private readonly save: (record: RunRecord) => Promise<void>,
    private readonly defer: Defer = nextTimer,
  ) {}

  /**
   * Call after the recorder took `event`: a run start or a node end asks for a write, and so does
   * a pause on an approval (wherever it is), so a reload then finds what the paused node did.
   */
  seen(event: RunEvent): void {
    if (this.closed) return
    // A pause on an approval writes at once, wherever it is (the paused node may be nested).
    if (event.type === 'approvalRequest') {
      this.dirty = true
      this.pump()
      return
    }
    if (event.nesting !== undefined) return
    switch (event.type) {
      case 'runStart':
        this.dirty = true
        this.pump()
        return
      case 'nodeFinish':
      case 'nodeError':
        this.dirty = true
        if (this.busy || this.deferred) return
        this.deferred = true
        this.defer(() => {
          this.deferred = false
          this.pump()
        })
        return
      case 'runFinish':
        // The final record follows from the run service: a snapshot now would only repeat it.
        this.closed = true
        return
      default:
        return
    }
  }

  /**
   * Stops writing and waits for the write under way (the final record is saved after it). A run
   * that ended without its `runFinish` (the engine threw) has no final record: a node end still
   * waiting for its write is written now, so History keeps every node that finished.
   */
  async close(): Promise<void> {
    if (!this.closed && this.dirty) {
      await this.writing
      this.pump()
    }
    this.closed = true
    await this.writing
  }

  private pump(): void {
    if (this.busy || !this.dirty || this.closed) return
    const record = this.recorder.snapshot()
    if (!record) return
    this.busy = true
    this.dirty = false
    this.writes++
    // A failed write here is not reported: the final save reports its own failure.
    this.writing = this.save(record)
      .catch(() => undefined)
      .finally(() => {
        this.busy = false
        this.pump()
      })
  }
}
