/**
 * The batch screen's state (loads with the batch area, never at the page's start). Row results
 * live in one array that is written in place and announced by `version`, at most once per
 * BATCH_PROGRESS_INTERVAL_MS: a 10,000-row batch does not copy 10,000 results per row that ends,
 * and the virtualised table reads only the rows it draws.
 */
import { createStore, useStore } from 'zustand'
import { BATCH_CONCURRENCY } from '../defaults.ts'
import type { InputMapping } from '../batch/mapping.ts'
import type { BatchEstimate, RowResult } from '../batch/result.ts'
import type { DataFormat } from '../batch/rows.ts'

export type BatchPhase = 'empty' | 'scanning' | 'ready' | 'running' | 'done'

/** A row as the table shows it: not run yet, running, or its result. */
export type BatchRowState = RowResult['status'] | 'pending' | 'running'

export interface BatchFile {
  name: string
  format: DataFormat
  sizeBytes: number
  columns: string[]
  rows: number
  problems: number
}

export interface BatchProgress {
  done: number
  failed: number
  /** Rows this run (all rows, or the failed ones of a re-run). */
  total: number
  tokens: number
  costUsd: number
  /** Rows whose cost was known. */
  priced: number
  estimate: BatchEstimate
  /** Why the batch ended early ('stopped' or the budget's reason, in English for the CLI). */
  endedEarly?: string
  /** The batch's budget when it stopped the batch: what was spent of each limit (the UI words it). */
  budget?: BatchBudgetSpent
}

export interface BatchBudgetSpent {
  tokens: number
  /** null: unpriced calls, the cost is unknown. */
  costUsd: number | null
  maxRunTokens?: number
  maxRunCostUsd?: number
}

export interface BatchState {
  open: boolean
  phase: BatchPhase
  flowId: string | null
  file: BatchFile | null
  inputKeys: string[]
  mapping: InputMapping
  concurrency: number
  onlyFailures: boolean
  progress: BatchProgress | null
  /** By row: its result once it ran (`undefined` before). Written in place; see `version`. */
  results: Array<RowResult | undefined>
  /** By row: the id of its stored run record. */
  runIds: Array<string | undefined>
  /** Rows running now. */
  running: Set<number>
  /** Bumped whenever `results`, `runIds` or `running` changed. */
  version: number
  error: string | null
}

export const EMPTY_ESTIMATE: BatchEstimate = { msLeft: null, tokensLeft: null, costLeftUsd: null }

export function initialBatchState(concurrency: number): BatchState {
  return {
    open: false,
    phase: 'empty',
    flowId: null,
    file: null,
    inputKeys: [],
    mapping: {},
    concurrency,
    onlyFailures: false,
    progress: null,
    results: [],
    runIds: [],
    running: new Set(),
    version: 0,
    error: null,
  }
}

export type BatchStore = ReturnType<typeof createBatchStore>

export function createBatchStore(concurrency: number) {
  return createStore<BatchState>()(() => initialBatchState(concurrency))
}

/** The state of row `index` for the table. */
export function rowState(state: BatchState, index: number): BatchRowState {
  if (state.running.has(index)) return 'running'
  return state.results[index]?.status ?? 'pending'
}

/** The rows the table lists: all, or those that did not succeed (after they ran). */
export function listedRows(state: BatchState): number[] {
  const count = state.file?.rows ?? 0
  const out: number[] = []
  for (let i = 0; i < count; i++) {
    if (!state.onlyFailures) out.push(i)
    else {
      const status = state.results[i]?.status
      if (status !== undefined && status !== 'success') out.push(i)
    }
  }
  return out
}

/** The batch screen's one store (the service writes it, the screen reads it). */
export const batchStore: BatchStore = createBatchStore(BATCH_CONCURRENCY)

export function useBatch<T>(pick: (s: BatchState) => T): T {
  return useStore(batchStore, pick)
}
