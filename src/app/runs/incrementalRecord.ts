/**
 * Keeps a run's record in IndexedDB as the run goes (issue 19, item 5), so a reload or a crash
 * mid-run leaves an `interrupted` run with everything that finished. It writes when the run
 * starts, when a node of the flow ends and when a run pauses on an approval, never per streamed token, and at most one write at a
 * time: node ends that arrive while a write is under way are folded into one write after it.
 */
import type { RunEvent } from '../../engine/index.ts'
import type { RunRecord } from '../../storage/rows.ts'
import type { RunRecorder } from './runRecorder.ts'

/** The flow's own events that ask for a write (an approval request asks wherever it is). */
const WRITE_AT: ReadonlySet<RunEvent['type']> = new Set(['runStart', 'nodeFinish', 'nodeError'])

export class IncrementalRecord {
  private writing: Promise<void> = Promise.resolve()
  private busy = false
  private dirty = false
  private closed = false
  /** How many writes were started (tests and the bench read it). */
  writes = 0

  constructor(
    private readonly recorder: RunRecorder,
    private readonly save: (record: RunRecord) => Promise<void>,
  ) {}

  /**
   * Call after the recorder took `event`: a run start or a node end asks for a write, and so does
   * a pause on an approval (wherever it is), so a reload then finds what the paused node did.
   */
  seen(event: RunEvent): void {
    if (this.closed) return
    if (event.type !== 'approvalRequest' && (event.nesting !== undefined || !WRITE_AT.has(event.type))) return
    this.dirty = true
    this.pump()
  }

  /** Stops writing and waits for the write under way (the final record is saved after it). */
  async close(): Promise<void> {
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
