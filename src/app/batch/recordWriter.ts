/**
 * Writes a batch's row runs to IndexedDB in bulk: one transaction per BATCH_RECORD_WRITE_ROWS
 * records or per BATCH_RECORD_WRITE_MAX_WAIT_MS, one write at a time, and no more than `room`
 * records in all (BATCH_RUN_RECORDS_MAX per flow). A failed write is reported once; the batch
 * goes on (its results do not depend on the records).
 */
import { BATCH_RECORD_WRITE_MAX_WAIT_MS, BATCH_RECORD_WRITE_ROWS } from '../../defaults.ts'
import type { BatchRunRow } from '../../storage/repositories/batchRuns.ts'

export interface RecordSink {
  write(rows: BatchRunRow[], replace: string[]): Promise<void>
}

export class RecordWriter {
  private queue: BatchRunRow[] = []
  private replace: string[] = []
  private writing: Promise<void> = Promise.resolve()
  private timer: ReturnType<typeof setTimeout> | undefined
  private failed = false

  constructor(
    private readonly sink: RecordSink,
    private room: number,
    private readonly onFailure: (message: string) => void,
  ) {}

  /** Queues a row's record (replacing the run id it had before); false when there is no room left. */
  add(row: BatchRunRow, replaces?: string): boolean {
    if (replaces !== undefined) {
      this.replace.push(replaces)
      this.room++
    }
    if (this.room <= 0) return false
    this.room--
    this.queue.push(row)
    if (this.queue.length >= BATCH_RECORD_WRITE_ROWS) this.flush()
    else this.timer ??= setTimeout(() => this.flush(), BATCH_RECORD_WRITE_MAX_WAIT_MS)
    return true
  }

  flush(): void {
    if (this.timer !== undefined) clearTimeout(this.timer)
    this.timer = undefined
    if (this.queue.length === 0 && this.replace.length === 0) return
    const rows = this.queue
    const replace = this.replace
    this.queue = []
    this.replace = []
    this.writing = this.writing.then(() =>
      this.sink.write(rows, replace).catch((error: unknown) => {
        if (this.failed) return
        this.failed = true
        this.onFailure(error instanceof Error ? error.message : String(error))
      }),
    )
  }

  /** Resolves once every queued record is written (or failed). */
  close(): Promise<void> {
    this.flush()
    return this.writing
  }
}
