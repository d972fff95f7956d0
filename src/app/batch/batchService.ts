/**
 * The batch screen's service: a data file scanned in the data worker, its columns mapped to the
 * open flow's Input keys, then one run per row through the shared pool (src/batch/pool.ts) at the
 * chosen concurrency. Rows stream from the worker a page at a time; results go into the batch
 * store in place and are announced at most once per BATCH_PROGRESS_INTERVAL_MS; each row's run
 * record is written in bulk to `batchRuns` (bounded), where "open" finds it.
 */
import { BATCH_CONCURRENCY_RANGE, BATCH_PROGRESS_INTERVAL_MS, BATCH_RUN_RECORDS_MAX } from '../../defaults.ts'
import {
  keyedRecord,
  SharedRunBudget,
  toFlowError,
  type FlowDocument,
  type NodeRegistry,
} from '../../engine/run.ts'
import { autoMap, rowInputs } from '../../batch/mapping.ts'
import { runBatchPool } from '../../batch/pool.ts'
import {
  estimateLeft,
  outputNodeIds,
  resultsCsv,
  resultsJsonl,
  type BatchTotals,
  type RowResult,
} from '../../batch/result.ts'
import { formatOf, type DataRow } from '../../batch/rows.ts'
import { collectCalledFlows, createFlowLookup, describeFlow } from '../../nodes/flowLookup.ts'
import { nodeCatalog } from '../../nodes/registry.ts'
import type { AppSettings } from '../../settings/schema.ts'
import { secretValues, splitSecrets } from '../../storage/secrets.ts'
import type { BatchRunRow } from '../../storage/repositories/batchRuns.ts'
import { selectDocument, type FlowStore } from '../../store/flowStore.ts'
import { EMPTY_ESTIMATE, type BatchProgress, type BatchStore } from '../../store/batchStore.ts'
import type { BatchService, RunService } from '../../ui/services.ts'
import { RunResources, type KeyAccess, type RunHost } from '../runs/RunResources.ts'
import { runRefusal, type Translate } from '../runs/runRefusal.ts'
import { defaultRunId } from '../runs/runService.ts'
import type { DataClient } from './dataClient.ts'
import { RecordWriter } from './recordWriter.ts'
import { runOneRow, type RowRunSetup } from './rowRunner.ts'

export interface BatchStorage {
  clear(flowId: string): Promise<void>
  write(rows: BatchRunRow[], replace: string[], scrub: readonly string[]): Promise<void>
}

export interface BatchServiceDeps {
  store: BatchStore
  flows: FlowStore
  registry: NodeRegistry
  settings(): AppSettings
  flush(): Promise<void>
  host: RunHost
  keys?: KeyAccess
  storage: BatchStorage
  data(): DataClient
  run(): RunService | undefined
  loadFlow?(id: string): Promise<FlowDocument | undefined>
  download(fileName: string, text: string, type: string): void
  translate: Translate
  newRunId?(): string
  /** Records kept per flow; BATCH_RUN_RECORDS_MAX by default. */
  recordsMax?: number
}

function clampConcurrency(value: number): number {
  const { min, max } = BATCH_CONCURRENCY_RANGE
  return Number.isFinite(value) ? Math.min(max, Math.max(min, Math.round(value))) : min
}

export interface AppBatchService extends BatchService {
  /** Resolves once no batch is running. */
  whenIdle(): Promise<void>
  dispose(): void
}

export function createBatchService(deps: BatchServiceDeps): AppBatchService {
  const store = deps.store
  const resources = new RunResources(deps.host, deps.settings, deps.keys)
  const newRunId = deps.newRunId ?? defaultRunId
  let file: File | null = null
  let controller: AbortController | null = null
  let current: Promise<void> = Promise.resolve()
  let timer: ReturnType<typeof setTimeout> | undefined
  let progress: BatchProgress | null = null

  const get = () => store.getState()
  const fail = (message: string): void => store.setState({ error: message })

  /** Announces what changed since the last announcement, at most once per interval. */
  const announce = (now = false): void => {
    const publish = () => {
      timer = undefined
      store.setState((s) => ({ version: s.version + 1, ...(progress ? { progress: { ...progress } } : {}) }))
    }
    if (now) {
      if (timer !== undefined) clearTimeout(timer)
      publish()
      return
    }
    timer ??= setTimeout(publish, BATCH_PROGRESS_INTERVAL_MS)
  }

  /** The open flow and its Input keys (the mapping's targets). */
  function openFlow(): { doc: FlowDocument; inputKeys: string[] } | undefined {
    const doc = selectDocument(deps.flows.getState())
    if (doc === null) return undefined
    return { doc, inputKeys: [...describeFlow(doc, nodeCatalog).inputKeys] }
  }

  async function chooseFile(chosen: File): Promise<void> {
    if (controller) return
    const flow = openFlow()
    const head = await chosen.slice(0, 64).text()
    const format = formatOf(chosen.name, head)
    file = chosen
    store.setState({ phase: 'scanning', error: null, progress: null })
    try {
      const scan = await deps.data().scan(chosen, format)
      if (file !== chosen) return
      const inputKeys = flow?.inputKeys ?? []
      store.setState((s) => ({
        phase: 'ready',
        flowId: flow?.doc.metadata.id ?? null,
        file: {
          name: chosen.name,
          format,
          sizeBytes: chosen.size,
          columns: scan.columns,
          rows: scan.count,
          problems: scan.problems,
        },
        inputKeys,
        mapping: autoMap(inputKeys, scan.columns),
        results: [],
        runIds: [],
        running: new Set(),
        version: s.version + 1,
      }))
    } catch (error) {
      file = null
      store.setState({ phase: 'empty', file: null, error: toFlowError(error).message })
    }
  }

  /** What every row's run shares, or undefined (with the reason shown) when the flow cannot run. */
  async function setup(signal: AbortSignal): Promise<RowRunSetup | undefined> {
    await deps.flush().catch(() => undefined)
    const flow = openFlow()
    if (!flow) {
      fail(deps.translate('batch:noFlow'))
      return undefined
    }
    const { doc } = flow
    const load = deps.loadFlow
    const called = load
      ? await collectCalledFlows(doc, deps.registry, (id) => load(id).catch(() => undefined))
      : []
    const flows = createFlowLookup(called, nodeCatalog)
    const refusal = runRefusal(doc, deps.registry, deps.translate, flows)
    if (refusal) {
      fail(refusal.message)
      return undefined
    }
    const needs: FlowDocument = { ...doc, nodes: [...doc.nodes, ...called.flatMap((f) => f.nodes)] }
    if (!(await resources.unlock())) {
      fail(deps.translate('batch:locked'))
      return undefined
    }
    return {
      doc,
      needs,
      registry: deps.registry,
      flows,
      resources,
      outputNodes: outputNodeIds(doc, (type) => nodeCatalog.role(type) === 'flowOutput'),
      secrets: secretValues(splitSecrets(deps.settings()).secrets),
      signal,
      newRunId,
    }
  }

  async function execute(stop: AbortController, only: number[] | undefined): Promise<void> {
    const state = get()
    const chosen = file
    if (!chosen || !state.file) return
    const shared = await setup(stop.signal)
    if (!shared || stop.signal.aborted) return
    const flowId = shared.doc.metadata.id
    const mapping = state.mapping
    const scrub = shared.secrets
    if (!only) {
      // A new batch replaces the flow's last one: its rows' records go.
      await deps.storage.clear(flowId).catch((error: unknown) => fail(toFlowError(error).message))
      store.setState((s) => ({ results: [], runIds: [], running: new Set(), version: s.version + 1 }))
    }
    const writer = new RecordWriter(
      { write: (rows, replace) => deps.storage.write(rows, replace, scrub) },
      only ? Number.POSITIVE_INFINITY : (deps.recordsMax ?? BATCH_RUN_RECORDS_MAX),
      (message) => fail(deps.translate('batch:recordsNotSaved', { reason: message })),
    )
    const total = only ? only.length : state.file.rows
    const started = Date.now()
    progress = { done: 0, failed: 0, total, tokens: 0, costUsd: 0, priced: 0, estimate: EMPTY_ESTIMATE }
    store.setState({ phase: 'running', error: null, flowId, progress: { ...progress } })
    const s = get()
    const rows = deps.data().rows(chosen, state.file.format, only)
    // One whole-run budget for the batch as a whole (flow-control.md): every row charges it.
    const budget = new SharedRunBudget()
    const runRow = async (row: DataRow): Promise<RowResult> => {
      s.running.add(row.index)
      announce()
      try {
        const { result, record } = await runOneRow(shared, row.index, rowInputs(row.values, mapping), budget)
        if (record) {
          const before = s.runIds[row.index]
          if (writer.add({ ...record, row: row.index }, before)) s.runIds[row.index] = record.id
          else s.runIds[row.index] = undefined
        }
        return result
      } finally {
        s.running.delete(row.index)
      }
    }
    const onResult = (result: RowResult, totals: BatchTotals): void => {
      s.results[result.row] = result
      progress = { ...totals, total, estimate: estimateLeft(totals, total, Date.now() - started) }
      announce()
    }
    try {
      const outcome = await runBatchPool({
        rows,
        concurrency: get().concurrency,
        runRow,
        onResult,
        signal: stop.signal,
        budget,
      })
      if (progress && outcome.endedEarly !== undefined) {
        const spent = budget.snapshot()
        progress = {
          ...progress,
          endedEarly: outcome.endedEarly,
          ...(outcome.budgetSpent
            ? { budget: { tokens: spent?.tokens ?? 0, costUsd: spent?.costUsd ?? null, ...budget.limits } }
            : {}),
        }
      }
    } catch (error) {
      fail(toFlowError(error).message)
    } finally {
      await rows.return?.(undefined)
      await writer.close()
    }
  }

  function start(only?: number[]): void {
    if (controller || !file) return
    const stop = new AbortController()
    controller = stop
    current = execute(stop, only)
      .catch((error: unknown) => fail(toFlowError(error).message))
      .finally(() => {
        controller = null
        const after = get()
        store.setState({ phase: after.file ? (after.progress ? 'done' : 'ready') : 'empty' })
        announce(true)
      })
  }

  function failedRows(): number[] {
    const out: number[] = []
    get().results.forEach((r, i) => {
      if (r && r.status !== 'success') out.push(i)
    })
    return out
  }

  return {
    open: () => store.setState({ open: true }),
    close: () => store.setState({ open: false }),
    chooseFile,
    setMapping(inputKey, column) {
      store.setState((s) => {
        const mapping = keyedRecord(s.mapping)
        mapping[inputKey] = column
        return { mapping }
      })
    },
    setConcurrency: (value) => store.setState({ concurrency: clampConcurrency(value) }),
    run: () => start(),
    stop: () => controller?.abort(),
    rerunFailed() {
      const rows = failedRows()
      if (rows.length > 0) start(rows)
    },
    exportResults(format) {
      const results = get().results.filter((r): r is RowResult => r !== undefined)
      const base = (get().file?.name ?? 'batch').replace(/\.[^.]*$/, '')
      if (format === 'csv') deps.download(`${base}.results.csv`, resultsCsv(results), 'text/csv')
      else deps.download(`${base}.results.jsonl`, resultsJsonl(results), 'application/x-ndjson')
    },
    async openRow(row) {
      const state = get()
      const runId = state.runIds[row]
      if (runId === undefined) {
        fail(deps.translate('batch:notKept', { row }))
        return
      }
      if (deps.flows.getState().flowId !== state.flowId) {
        fail(deps.translate('batch:otherFlow'))
        return
      }
      store.setState({ open: false })
      await deps.run()?.openRun?.(runId)
    },
    whenIdle: () => current,
    dispose() {
      controller?.abort()
      if (timer !== undefined) clearTimeout(timer)
      resources.dispose()
    },
  }
}
