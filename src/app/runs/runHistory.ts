/**
 * Run history for the run service: the storage runs repository behind a small interface (so
 * the service is tested against real IndexedDB through fake-indexeddb, or a stand-in), plus
 * the shapes the run panel lists and the replay that re-opens a past run.
 */
import { keyedRecord, type ModelCallEvent, type RunEvent } from '../../engine/index.ts'
import type { WardflowDb } from '../../storage/db.ts'
import { getRun, listRuns, saveRun } from '../../storage/repositories/runs.ts'
import type { RunRecord } from '../../storage/rows.ts'
import { nodeStateOf, type HistoryStatus, type RunHistoryItem } from '../../store/runStore.ts'
import { replayRunEvents, type ReduceOptions, type RunView } from '../../store/runStoreReducer.ts'
import { NOTHING_SPENT, withRunFinished } from '../../store/runSpent.ts'
import { parseStoredEvents } from './runEventSchema.ts'

export interface SaveRunRequest {
  /** Runs kept for this flow (settings.runHistoryPerFlow). */
  keep: number
  /** Secret values that must never be stored: replaced before the write. */
  scrub: readonly string[]
}

export interface RunsRepository {
  save(record: RunRecord, request: SaveRunRequest): Promise<void>
  /** Newest first. */
  list(flowId: string): Promise<RunRecord[]>
  get(id: string): Promise<RunRecord | undefined>
}

/** The storage runs repository of `db` (which may still be opening). */
export function dexieRunsRepository(db: WardflowDb | (() => Promise<WardflowDb>)): RunsRepository {
  const open = (): Promise<WardflowDb> => (typeof db === 'function' ? db() : Promise.resolve(db))
  return {
    save: async (record, { keep, scrub }) => {
      await saveRun(await open(), record, { keep, scrub })
    },
    list: async (flowId) => listRuns(await open(), flowId),
    get: async (id) => getRun(await open(), id),
  }
}

/**
 * History's word for a record's outcome (ui-contract: `success`, `error`, `stopped`,
 * `interrupted`): records keep a stopped run as `cancelled`, the engine's word, and older ones
 * may hold anything else of their time, read as what it meant.
 */
export function historyStatusOf(status: string): HistoryStatus {
  switch (status) {
    case 'success':
    case 'error':
    case 'interrupted':
    case 'stopped':
      return status
    case 'cancelled':
      return 'stopped'
    default:
      return 'error'
  }
}

/** The list entry of a saved run. */
export function historyItem(record: RunRecord): RunHistoryItem {
  return {
    id: record.id,
    flowId: record.flowId,
    startedAt: record.startedAt,
    finishedAt: record.finishedAt,
    status: historyStatusOf(record.status),
    durationMs: Math.max(0, record.finishedAt - record.startedAt),
    usage: { ...record.usage },
    ...(record.forkedFrom ? { forkedFrom: { ...record.forkedFrom } } : {}),
  }
}

/** What the canvas showed when `record` ended, rebuilt from its saved events. */
export function replayRecord(record: RunRecord, options: ReduceOptions = {}): RunView {
  const events: RunEvent[] = parseStoredEvents(record.events)
  const view = replayRunEvents(events, options)
  // A record whose events were damaged still knows its outcome: show that much.
  const run = view.run ?? {
    runId: record.id,
    flowId: record.flowId,
    status: record.status,
    startedAt: record.startedAt,
    total: Object.keys(record.timings).length,
    done: Object.keys(record.timings).length,
    usage: record.usage,
    spent: withRunFinished(NOTHING_SPENT, record.usage),
    failures: [],
  }
  // A run cut short by a reload has no end event: its record says so, and the nodes it left
  // running or waiting show as stopped, not as running forever.
  const interrupted = record.status === 'interrupted'
  const nodes = interrupted ? settleInterrupted(view.nodes) : view.nodes
  return {
    nodes: withNotKept(nodes, record.iterationsNotKept),
    run: {
      ...run,
      ...(interrupted || run.status === 'running' ? { status: record.status } : {}),
      finishedAt: run.finishedAt ?? record.finishedAt,
      durationMs: run.durationMs ?? Math.max(0, record.finishedAt - record.startedAt),
    },
  }
}

/** Each loop's count of iterations the record left out, on the loop's own state (the picker says so). */
function withNotKept(nodes: RunView['nodes'], notKept: RunRecord['iterationsNotKept']): RunView['nodes'] {
  if (!notKept || Object.keys(notKept).length === 0) return nodes
  const out = keyedRecord(nodes)
  for (const [loopId, count] of Object.entries(notKept))
    out[loopId] = { ...nodeStateOf(out, loopId), iterationsNotKept: count }
  return out
}

function settleInterrupted(nodes: RunView['nodes']): RunView['nodes'] {
  const out = keyedRecord(nodes)
  for (const [id, state] of Object.entries(nodes))
    if (state.status === 'running' || state.status === 'queued') out[id] = { ...state, status: 'stopped' }
  return out
}

/** The model calls node `nodeId` of the flow itself made in `record` (not those in its sub-flows). */
export function modelCallsOf(record: RunRecord, nodeId: string): ModelCallEvent[] {
  return (record.events as RunEvent[]).filter(
    (e): e is ModelCallEvent => e.type === 'modelCall' && e.nodeId === nodeId && !e.path?.length,
  )
}
