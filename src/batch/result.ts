/**
 * One row's result in a batch, and the files a batch writes: pure, shared by the browser's batch
 * screen (results table, export) and the CLI (`wardflow batch --out`, `enqueue --wait`). The line
 * shape is the contract's (flow-control.md "CLI"): `{ "row", "status", "outputs", "usage",
 * "error"? }`, `outputs` the values of the flow's Output nodes merged by key.
 */
import Papa from 'papaparse'
import {
  addUsage,
  emptyUsage,
  keyedRecord,
  type FlowDocument,
  type RunEvent,
  type Usage,
} from '../engine/index.ts'

/** How a row ended: its run's status, or `skipped` (never run: the batch was stopped or over budget). */
export type RowStatus = 'success' | 'error' | 'cancelled' | 'stopped' | 'skipped'

/** Usage with the run's cost when the model's price is known (`null`: some call was unpriced). */
export type RowUsage = Usage & { costUsd?: number | null }

export interface RowResult {
  row: number
  status: RowStatus
  outputs: Record<string, unknown>
  usage: RowUsage
  error?: string
}

/** Which nodes' outputs are the flow's: its Output nodes, else the nodes nothing reads from (as the CLI prints). */
export function outputNodeIds(doc: FlowDocument, isOutput: (type: string) => boolean): string[] {
  const outputs = doc.nodes.filter((n) => isOutput(n.type)).map((n) => n.id)
  if (outputs.length > 0) return outputs
  const sources = new Set(doc.edges.map((e) => e.source))
  return doc.nodes.filter((n) => !sources.has(n.id)).map((n) => n.id)
}

function readCost(usage: unknown): number | null | undefined {
  if (typeof usage !== 'object' || usage === null || !('costUsd' in usage)) return undefined
  const cost = (usage as { costUsd?: unknown }).costUsd
  return typeof cost === 'number' && Number.isFinite(cost) ? cost : cost === null ? null : undefined
}

function rowUsage(usage: Usage, cost: number | null | undefined): RowUsage {
  const out: RowUsage = {
    prompt: usage.prompt,
    completion: usage.completion,
    total: usage.total,
    estimated: usage.estimated,
  }
  if (cost !== undefined) out.costUsd = cost
  return out
}

/**
 * Folds one row's run events into its result. Events of nested nodes (loop bodies, sub-flows)
 * are not the flow's outputs; the first failure of a node of the flow is the row's error.
 */
export class RowResultCollector {
  private readonly wanted: Set<string>
  private readonly byNode = new Map<string, Record<string, unknown>>()
  private usage: Usage = emptyUsage()
  private cost: number | null | undefined
  private status: RowStatus | undefined
  private error: string | undefined

  constructor(
    private readonly row: number,
    outputNodes: readonly string[],
  ) {
    this.wanted = new Set(outputNodes)
  }

  push(event: RunEvent): void {
    if (event.nesting !== undefined || ('path' in event && event.path !== undefined)) return
    switch (event.type) {
      case 'nodeFinish':
        if (this.wanted.has(event.nodeId)) this.byNode.set(event.nodeId, event.output)
        if (event.usage && this.status === undefined) this.usage = addUsage(this.usage, event.usage)
        break
      case 'nodeError':
        this.error ??= `${event.nodeId}: ${event.message}`
        break
      case 'runFinish': {
        const status = event.status as string
        this.status =
          status === 'success' || status === 'cancelled' || status === 'stopped' ? status : 'error'
        this.usage = event.usage
        this.cost = readCost(event.usage)
        break
      }
      default:
        break
    }
  }

  /** The row's result; a run without its end event (the engine threw) is an error. */
  result(thrown?: string): RowResult {
    const outputs = keyedRecord<unknown>()
    // Output nodes in flow order; a later node's key wins, as merging their values by key does.
    for (const id of this.wanted) {
      const output = this.byNode.get(id)
      if (output) for (const key of Object.keys(output)) outputs[key] = output[key]
    }
    const status: RowStatus = thrown !== undefined ? 'error' : (this.status ?? 'error')
    const error =
      thrown ??
      this.error ??
      (status === 'success'
        ? undefined
        : status === 'error'
          ? 'The run ended without finishing.'
          : `The run was ${status}.`)
    return {
      row: this.row,
      status,
      outputs,
      usage: rowUsage(this.usage, this.cost),
      ...(error === undefined ? {} : { error }),
    }
  }
}

/** The result of a row that did not run: unreadable (its problem) or skipped. */
export function notRunRow(row: number, status: 'error' | 'skipped', error: string): RowResult {
  return { row, status, outputs: keyedRecord(), usage: emptyUsage(), error }
}

/** One line of `--out` / the JSONL export, keys in the contract's order. */
export function resultLine(result: RowResult): string {
  const line: Record<string, unknown> = {
    row: result.row,
    status: result.status,
    outputs: result.outputs,
    usage: result.usage,
  }
  if (result.error !== undefined) line.error = result.error
  return JSON.stringify(line)
}

/** Results as JSONL, in row order, one line each with a final newline. */
export function resultsJsonl(results: Iterable<RowResult>): string {
  const lines: string[] = []
  for (const r of sortedByRow(results)) lines.push(resultLine(r))
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`
}

function sortedByRow(results: Iterable<RowResult>): RowResult[] {
  return [...results].sort((a, b) => a.row - b.row)
}

/** Every output key of the results, in first-seen order (the CSV's output columns). */
export function outputKeysOf(results: Iterable<RowResult>): string[] {
  const keys = new Set<string>()
  for (const r of results) for (const key of Object.keys(r.outputs)) keys.add(key)
  return [...keys]
}

function cellText(value: unknown): string {
  if (value === undefined || value === null) return ''
  return typeof value === 'string' ? value : JSON.stringify(value)
}

/**
 * Results as CSV (papaparse quotes what needs it): row, status, one column per output key
 * (`output.<key>`), tokens, cost and error. Cells that a spreadsheet would run as a formula
 * (`=`, `+`, `-`, `@` first) are escaped: a model's reply is not a formula.
 */
export function resultsCsv(results: Iterable<RowResult>): string {
  const sorted = sortedByRow(results)
  const keys = outputKeysOf(sorted)
  const fields = [
    'row',
    'status',
    ...keys.map((k) => `output.${k}`),
    'prompt_tokens',
    'completion_tokens',
    'total_tokens',
    'cost_usd',
    'error',
  ]
  const data = sorted.map((r) => [
    String(r.row),
    r.status,
    ...keys.map((k) => cellText(Object.hasOwn(r.outputs, k) ? r.outputs[k] : undefined)),
    String(r.usage.prompt),
    String(r.usage.completion),
    String(r.usage.total),
    typeof r.usage.costUsd === 'number' ? String(r.usage.costUsd) : '',
    r.error ?? '',
  ])
  return `${Papa.unparse({ fields, data }, { escapeFormulae: true, newline: '\n' })}\n`
}

/** Running totals of a batch: what the progress line, the estimate and the batch budget read. */
export class BatchTotals {
  done = 0
  failed = 0
  tokens = 0
  costUsd = 0
  /** Rows whose cost is known (the estimate of cost left extrapolates from them). */
  priced = 0

  add(result: RowResult): void {
    this.done++
    if (result.status !== 'success') this.failed++
    this.tokens += result.usage.total
    if (typeof result.usage.costUsd === 'number') {
      this.costUsd += result.usage.costUsd
      this.priced++
    }
  }
}

export interface BatchEstimate {
  /** Time left at the pace so far; null before the first row ended. */
  msLeft: number | null
  tokensLeft: number | null
  /** Cost left; null when no row had a known cost. */
  costLeftUsd: number | null
}

/** What is left of a batch of `total` rows at the pace and the spend per row so far. */
export function estimateLeft(totals: BatchTotals, total: number, elapsedMs: number): BatchEstimate {
  const left = Math.max(0, total - totals.done)
  if (totals.done === 0) return { msLeft: null, tokensLeft: null, costLeftUsd: null }
  return {
    msLeft: (elapsedMs / totals.done) * left,
    tokensLeft: Math.round((totals.tokens / totals.done) * left),
    costLeftUsd: totals.priced === 0 ? null : (totals.costUsd / totals.priced) * left,
  }
}
