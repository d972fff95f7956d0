/**
 * Runs a batch: rows pulled from a stream, up to `concurrency` at once, each result handed on as
 * it ends (in the order rows end; `row` says which). Pure and shared by the browser and the CLI:
 * what one row's run is (`runRow`) is the caller's. Rows are pulled only when a slot is free, so a
 * batch of any size holds `concurrency` rows plus one page of the reader at most.
 *
 * The batch's budget (BatchLimits, over the whole batch) and Stop end it the same way: no more
 * rows start, the rows running finish (Stop also aborts them through the caller's signal), and
 * every row not started is reported `skipped` with the reason.
 */
import { BatchTotals, notRunRow, overBudget, type BatchLimits, type RowResult } from './result.ts'
import type { DataRow } from './rows.ts'

export interface BatchPoolOptions {
  rows: AsyncIterator<DataRow[], unknown> | Iterator<DataRow[], unknown>
  concurrency: number
  /** One row's run; a row with a `problem` never gets here (it is an error row). */
  runRow(row: DataRow): Promise<RowResult>
  /** Each row's result, as it ends. */
  onResult(result: RowResult, totals: BatchTotals): void
  signal?: AbortSignal
  limits?: BatchLimits
}

export interface BatchOutcome {
  totals: BatchTotals
  /** Why the batch ended early: `stopped` (signal) or the budget's reason; undefined: every row ran. */
  endedEarly?: string
}

export async function runBatchPool(options: BatchPoolOptions): Promise<BatchOutcome> {
  const totals = new BatchTotals()
  const limits = options.limits ?? {}
  const concurrency = Math.max(1, Math.floor(options.concurrency))
  let page: DataRow[] = []
  let at = 0
  let exhausted = false
  let endedEarly: string | undefined
  let pulling: Promise<void> | undefined

  const finish = (result: RowResult): void => {
    totals.add(result)
    options.onResult(result, totals)
    if (endedEarly === undefined) endedEarly = overBudget(totals, limits)
  }

  const pull = async (): Promise<void> => {
    const next = await options.rows.next()
    if (next.done) exhausted = true
    else {
      page = next.value
      at = 0
    }
  }

  /** The next row, pulling a page when the last one is used up (one pull at a time). */
  const nextRow = async (): Promise<DataRow | undefined> => {
    for (;;) {
      if (at < page.length) return page[at++]
      if (exhausted) return undefined
      pulling ??= pull().finally(() => {
        pulling = undefined
      })
      await pulling
    }
  }

  const stopped = (): boolean => {
    if (options.signal?.aborted && endedEarly === undefined) endedEarly = 'stopped'
    return endedEarly !== undefined
  }

  const worker = async (): Promise<void> => {
    for (;;) {
      if (stopped()) return
      const row = await nextRow()
      if (row === undefined) return
      if (stopped()) {
        finish(notRunRow(row.index, 'skipped', skipText(endedEarly)))
        return
      }
      if (row.problem !== undefined) {
        finish(notRunRow(row.index, 'error', row.problem))
        continue
      }
      let result: RowResult
      try {
        result = await options.runRow(row)
      } catch (error) {
        result = notRunRow(row.index, 'error', error instanceof Error ? error.message : String(error))
      }
      finish(result)
    }
  }

  await Promise.all(Array.from({ length: concurrency }, () => worker()))
  // Rows never started once the batch ended early.
  if (endedEarly !== undefined) {
    for (;;) {
      const row = await nextRow()
      if (row === undefined) break
      finish(notRunRow(row.index, 'skipped', skipText(endedEarly)))
    }
  }
  return { totals, ...(endedEarly === undefined ? {} : { endedEarly }) }
}

function skipText(reason: string | undefined): string {
  return reason === 'stopped' || reason === undefined ? 'The batch was stopped before this row ran.' : reason
}
