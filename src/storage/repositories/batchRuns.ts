/**
 * The row runs of batches (Dexie v5 `batchRuns`): every row's run record, so any row's run can be
 * opened on the canvas, kept apart from Run history so a 10,000-row batch neither floods the
 * History tab nor pushes the person's own runs out of its limit. Bounded: a flow keeps the rows
 * of its latest batch only (a new batch clears the last one), at most BATCH_RUN_RECORDS_MAX rows,
 * written in bulk (one transaction per BATCH_RECORD_WRITE_ROWS rows, not one per row).
 */
import type { WardflowDb } from '../db.ts'
import { guard } from '../errors.ts'
import type { RunRecord } from '../rows.ts'
import { storableRun, validRunRecord } from './runs.ts'

/** A row's run record with the row it ran (from 0). */
export type BatchRunRow = RunRecord & { row: number }

/** Drops every stored row run of `flowId` (a new batch of the flow starts). Returns how many. */
export function clearBatchRuns(db: WardflowDb, flowId: string): Promise<number> {
  return guard('clearing batch runs', () => db.batchRuns.where('flowId').equals(flowId).delete())
}

/**
 * Stores row runs in one transaction, secrets scrubbed and chunks merged; `replace` lists the run
 * ids these rows had before (a re-run of failed rows), which go in the same transaction.
 */
export function saveBatchRuns(
  db: WardflowDb,
  rows: readonly BatchRunRow[],
  options: { scrub?: readonly string[]; replace?: readonly string[] } = {},
): Promise<void> {
  const clean = rows.map((r) => storableRun(r, options.scrub))
  return guard('saving batch runs', () =>
    db.transaction('rw', db.batchRuns, async () => {
      if (options.replace && options.replace.length > 0) await db.batchRuns.bulkDelete([...options.replace])
      await db.batchRuns.bulkPut(clean)
    }),
  )
}

/** One row run as a run record (validated like Run history's), or undefined. */
export async function getBatchRun(db: WardflowDb, id: string): Promise<RunRecord | undefined> {
  return validRunRecord(await guard('loading a batch run', () => db.batchRuns.get(id)))
}
