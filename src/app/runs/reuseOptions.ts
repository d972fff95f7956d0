/**
 * What a run reuses (issue 19): for "run from here" / "run this node", the outputs of the run it
 * starts from; for every run, a cache of the flow's recorded results by key, consulted for full
 * runs only when the flow says `reuseUnchanged` (and always below the node a run starts from).
 * Keys are recorded on every run, so a later run can reuse what this one computed.
 */
import {
  planFromHere,
  planRun,
  type FlowDocument,
  type FromHereMode,
  type NodeRegistry,
  type PreviousResult,
  type PreviousRun,
  type ResultCache,
  type ReusedOutput,
  type RunOptions,
} from '../../engine/run.ts'
import type { RunRecord } from '../../storage/rows.ts'
import { parseStoredEvents } from './runEventSchema.ts'

/** A run from a node: which node, how, and the run it continues (absent: the latest). */
export interface FromHereRequest {
  nodeId: string
  mode: FromHereMode
  fromRunId?: string
}

/** The results `record` holds for the flow's own nodes (not those inside sub-flows or loops). */
export function previousRunOf(record: RunRecord): PreviousRun {
  const results = new Map<string, PreviousResult>()
  for (const event of parseStoredEvents(record.events)) {
    if (event.type !== 'nodeFinish' || event.nesting !== undefined) continue
    results.set(event.nodeId, {
      output: event.output,
      ...(event.notTaken ? { notTaken: event.notTaken } : {}),
    })
  }
  return { runId: record.id, results }
}

/** The results of `records` (newest first) by cache key; the newest run's result wins. */
export function resultCacheOf(records: readonly RunRecord[], enabled: boolean): ResultCache {
  if (!enabled) return { lookup: () => undefined }
  const byKey = new Map<string, ReusedOutput>()
  for (const record of records) {
    for (const event of parseStoredEvents(record.events)) {
      if (event.type !== 'nodeFinish' || event.nesting !== undefined || !event.cacheKey) continue
      if (event.status !== 'success' || byKey.has(event.cacheKey)) continue
      // A reused result names the run that computed it, not the one that reused it.
      const fromRunId = event.cached?.fromRunId ?? record.id
      byKey.set(event.cacheKey, {
        output: event.output,
        ...(event.notTaken ? { notTaken: event.notTaken } : {}),
        reason: 'unchanged',
        fromRunId,
      })
    }
  }
  return { lookup: (key) => byKey.get(key) }
}

export interface RunOptionsRequest {
  doc: FlowDocument
  registry: NodeRegistry
  /** The flow's recorded runs, newest first. */
  records: readonly RunRecord[]
  from?: FromHereRequest
}

/** The run's options and the run it continues (recorded as the new run's parent). */
export function runOptionsFor(request: RunOptionsRequest): { options: RunOptions; parentRunId?: string } {
  const { doc, registry, records, from } = request
  if (!from) return { options: { cache: resultCacheOf(records, doc.metadata.reuseUnchanged === true) } }
  const base = records.find((r) => r.id === from.fromRunId) ?? records[0]
  const previous: PreviousRun = base ? previousRunOf(base) : { runId: '', results: new Map() }
  const plan = planFromHere(doc, planRun(doc, registry).graph, from.nodeId, previous, from.mode)
  const options: RunOptions = { ...plan, cache: resultCacheOf(records, true) }
  return base ? { options, parentRunId: base.id } : { options }
}
