/**
 * Runs a batch: rows pulled from a stream, up to `concurrency` at once, each result handed on as
 * it ends (in the order rows end; `row` says which). Pure and shared by the browser and the CLI:
 * what one row's run is (`runRow`) is the caller's. Rows are pulled only when a slot is free, so a
 * batch of any size holds `concurrency` rows plus one page of the reader at most.
 *
 * The batch's budget and Stop end it the same way: no more rows start and every row not started
 * is reported `skipped` with the reason. The budget is one ledger that every row's run charges
 * (engine/cost/sharedBudget.ts, handed to the runs by the caller): the call that crosses it stops
 * the rows running (they end `stopped`); Stop aborts them through the caller's signal.
 */
import { BatchTotals, notRunRow, type RowResult } from './result.ts'
import type { DataRow } from './rows.ts'

/** What the pool reads of the batch's shared budget (engine SharedRunBudget fits it). */
export interface BatchBudget {
  /** True once a row's call crossed the batch's limit: start no new row. */
  readonly spent: boolean
  /** Why, for the rows skipped and the batch's end (English, like the engine's guard lines). */
  reason(): string
}

export interface BatchPoolOptions {
  rows: AsyncIterator<DataRow[], unknown> | Iterator<DataRow[], unknown>
  concurrency: number
  /** One row's run; a row with a `problem` never gets here (it is an error row). */
  runRow(row: DataRow): Promise<RowResult>
  /** Each row's result, as it ends. */
  onResult(result: RowResult, totals: BatchTotals): void
  signal?: AbortSignal
  /** The budget the rows' runs share; absent: rows are bounded only one by one, if at all. */
  budget?: BatchBudget
}

export interface BatchOutcome {
  totals: BatchTotals
  /** Why the batch ended early: `stopped` (signal) or the budget's reason; undefined: every row ran. */
  endedEarly?: string
  /** True when the shared budget ended it (the rows running stopped, the rest skipped). */
  budgetSpent?: true
}

export async function runBatchPool(options: BatchPoolOptions): Promise<BatchOutcome> {
  const totals = new BatchTotals()
  const budget = options.budget
  const concurrency = Math.max(1, Math.floor(options.concurrency))
  let page: DataRow[] = []
  let at = 0
  let exhausted = false
  let endedEarly: string | undefined
  let pulling: Promise<void> | undefined

  const finish = (result: RowResult): void => {
    totals.add(result)
    options.onResult(result, totals)
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

  let budgetSpent = false
  const stopped = (): boolean => {
    if (endedEarly !== undefined) return true
    if (options.signal?.aborted) endedEarly = 'stopped'
    else if (budget?.spent) {
      endedEarly = budget.reason()
      budgetSpent = true
    }
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
  // Rows never started once the batch ended early (the last row's run may have spent the budget).
  if (stopped()) {
    for (;;) {
      const row = await nextRow()
      if (row === undefined) break
      finish(notRunRow(row.index, 'skipped', skipText(endedEarly)))
    }
  }
  return {
    totals,
    ...(endedEarly === undefined ? {} : { endedEarly }),
    ...(budgetSpent ? { budgetSpent: true as const } : {}),
  }
}

function skipText(reason: string | undefined): string {
  return reason === 'stopped' || reason === undefined ? 'The batch was stopped before this row ran.' : reason
}
