/**
 * `wardflow batch <flow> --data rows.csv|rows.jsonl [--concurrency N] [--out results.jsonl]`:
 * one run per row (the row's columns set Input values by key), up to N at once, with every flag
 * of `run`. `--out` gets one line per row in row order (src/batch/result.ts); a terminal gets a
 * progress bar on stderr. The whole-run budget (`--max-run-tokens`, `--max-run-cost-usd`, the
 * flow's `metadata.limits`) bounds the batch as a whole: one ledger for every row's run; its trip
 * stops the rows running (`stopped`) and skips the rest (`skipped`). Exit 0 every row succeeded,
 * 1 a row failed or the budget stopped the batch, 2 bad input.
 */
import { createWriteStream, openAsBlob } from 'node:fs'
import { stat } from 'node:fs/promises'
import { columnInputs } from '../batch/mapping.ts'
import { runBatchPool } from '../batch/pool.ts'
import { outputNodeIds, resultLine, RowResultCollector, type RowResult } from '../batch/result.ts'
import { formatOf, readRows, scanRows } from '../batch/rows.ts'
import { nodeCatalog } from '../nodes/registry.ts'
import { SharedRunBudget } from '../engine/run.ts'
import { loadWorkflow, BadInput, type LoadedWorkflow } from './load.ts'
import { run, type RunHooks, type RunIo } from './main.ts'
import type { RunOptions } from './args.ts'
import type { BatchOptions } from './manyArgs.ts'
import { Progress } from './progress.ts'
import { openTape } from './tapeFile.ts'
import { oneLine } from './terminalText.ts'

/** Runs one row's run and folds its events into the row's result (also used by the worker). */
export async function runRow(
  options: RunOptions,
  loaded: LoadedWorkflow,
  row: number,
  inputs: Record<string, string>,
  io: RunIo,
  extra: Pick<RunHooks, 'tape' | 'runId' | 'signal' | 'sharedBudget'> = {},
): Promise<RowResult> {
  const collector = new RowResultCollector(
    row,
    outputNodeIds(loaded.doc, (type) => nodeCatalog.role(type) === 'flowOutput'),
  )
  try {
    await run({ ...options, inputs: { ...options.inputs, ...inputs } }, io, {
      loaded,
      onEvent: (event) => collector.push(event),
      ...extra,
    })
  } catch (error) {
    return collector.result(error instanceof Error ? error.message : String(error))
  }
  return collector.result()
}

/** Writes results in row order as they end out of order (a row waits for the rows before it). */
export class InOrder {
  private next = 0
  private readonly held = new Map<number, RowResult>()

  constructor(private readonly write: (result: RowResult) => void) {}

  push(result: RowResult): void {
    this.held.set(result.row, result)
    for (let r = this.held.get(this.next); r !== undefined; r = this.held.get(this.next)) {
      this.held.delete(this.next++)
      this.write(r)
    }
  }
}

async function dataSource(path: string): Promise<ReadableStream<Uint8Array>> {
  try {
    const info = await stat(path)
    if (!info.isFile()) throw new BadInput(`cannot read the data file ${path}: it is not a file`)
    return (await openAsBlob(path)).stream()
  } catch (error) {
    if (error instanceof BadInput) throw error
    const code = (error as { code?: unknown }).code
    throw new BadInput(
      `cannot read the data file ${path}: ${code === 'ENOENT' ? 'no such file' : String(error)}`,
    )
  }
}

export async function batchCommand(options: BatchOptions, io: RunIo, stderrIsTty: boolean): Promise<number> {
  const loaded = await loadWorkflow(options.run.file)
  for (const warning of loaded.warnings) io.err.write(`wardflow: warning: ${oneLine(warning)}\n`)
  const format = formatOf(options.data)
  // A first pass counts the rows (for the bar) and finds an unreadable file before any run.
  const scan = await scanRows(await dataSource(options.data), format).catch((error: unknown) => {
    throw new BadInput(
      `cannot read the data file ${options.data}: ${error instanceof Error ? error.message : String(error)}`,
    )
  })
  // One tape for every row: a batch replays from (or records into) one cassette.
  const tape = await openTape(options.run)
  const out = options.out === undefined ? undefined : createWriteStream(options.out, { encoding: 'utf8' })
  const progress = stderrIsTty ? new Progress(scan.count, (text) => io.err.write(text)) : undefined
  // Without --out the lines go to stdout, so a batch pipes into jq like `run --json`.
  const ordered = new InOrder((result) =>
    out ? out.write(`${resultLine(result)}\n`) : io.out.write(`${resultLine(result)}\n`),
  )
  const controller = new AbortController()
  const onSigint = (): void => controller.abort()
  process.once('SIGINT', onSigint)
  let failed = 0
  // One ledger for the batch as a whole (flow-control.md): each row's run joins it.
  const budget = new SharedRunBudget()
  let stoppedBy: string | undefined
  try {
    const rows = readRows(await dataSource(options.data), { format })
    const outcome = await runBatchPool({
      rows,
      concurrency: options.concurrency,
      signal: controller.signal,
      budget,
      runRow: (row) =>
        runRow(options.run, loaded, row.index, columnInputs(row.values), io, {
          tape,
          signal: controller.signal,
          sharedBudget: budget,
        }),
      onResult: (result, totals) => {
        if (result.status !== 'success') failed++
        ordered.push(result)
        progress?.update(totals.done, totals.failed)
      },
    })
    if (outcome.budgetSpent) stoppedBy = outcome.endedEarly
  } finally {
    process.removeListener('SIGINT', onSigint)
    progress?.end()
    if (out) await new Promise<void>((resolve) => out.end(resolve))
  }
  await tape.save(options.run.inputs)
  if (stoppedBy !== undefined) io.err.write(`wardflow: batch stopped: ${stoppedBy}\n`)
  io.err.write(`wardflow: ${scan.count - failed} of ${scan.count} rows succeeded\n`)
  if (controller.signal.aborted) return 130
  return failed === 0 && stoppedBy === undefined ? 0 : 1
}
