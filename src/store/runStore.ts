/**
 * What a run shows on the canvas: each node's status and console, the run's progress, the run
 * history of the open flow, and whether a past run is being looked at. Kept apart from the flow
 * store so streaming never touches the document, its undo history or autosave. The run
 * service (app/) writes here in animation-frame batches; node bodies read one node each.
 */
import { createStore, useStore } from 'zustand'
import { useShallow } from 'zustand/react/shallow'
import type { RunEvent, Usage } from '../engine/index.ts'
import { keyedRecord } from '../engine/index.ts'
import { nodeStateOf } from './runState.ts'
import type {
  ConsoleLine,
  ConsoleLineKind,
  NodeRunState,
  NodeRunStatus,
  ReduceOptions,
  RunSummary,
} from './runStoreReducer.ts'

export { textAddedSince } from './consoleText.ts'
export { IDLE_RUN_STATE, nodeStateOf } from './runState.ts'

/**
 * What folds events into node states: runStoreReducer.ts, which the run area installs when it
 * loads (app/runs/runService.ts). The reducer, its console bookkeeping and loop iteration records
 * are code the page needs only once a run or a past run is shown, so they stay out of its start;
 * before that there is nothing to fold.
 */
export type RunReducer = Pick<
  typeof import('./runStoreReducer.ts'),
  'reduceRunEvents' | 'withLine' | 'withText' | 'withoutKeptConsoles'
>

let reducer: RunReducer | null = null

export function installRunReducer(installed: RunReducer): void {
  reducer = installed
}

function runReducer(): RunReducer {
  if (!reducer) throw new Error('Run events arrived before the run area installed the reducer.')
  return reducer
}
export type {
  BadgeLabeller,
  LineLabeller,
  ConsoleLine,
  ConsoleLineKind,
  NodeAlert,
  NodeRunState,
  NodeRunStatus,
  RunFailure,
  RunOutcome,
  ReduceOptions,
  RunSummary,
  RunView,
} from './runStoreReducer.ts'

/**
 * `idle`: nothing running; `preparing`: saving, checking and loading before the first event;
 * `running`: events are streaming; `saving`: the run ended and its record is being written.
 */
export type RunPhase = 'idle' | 'preparing' | 'running' | 'saving'

/**
 * A run's outcome as History names it (ui-contract `run-history-item` `data-status`): a run that
 * was stopped is `stopped`, whatever word its record keeps (`cancelled`, the engine's).
 */
export type HistoryStatus = 'success' | 'error' | 'stopped' | 'interrupted'

/** The run a history entry was forked from (another flow's run, issue 19). */
export interface HistoryParent {
  runId: string
  flowId: string
  flowName: string
  startedAt: number
}

/** One entry of the run history list (the record itself stays in storage). */
export interface RunHistoryItem {
  id: string
  flowId: string
  startedAt: number
  finishedAt: number
  status: HistoryStatus
  durationMs: number
  usage: Usage
  /** The run this one forked from, when it did. */
  forkedFrom?: HistoryParent
}

/** What the canvas shows: the live run, or a saved one re-opened read-only. */
export type RunViewMode = { mode: 'live' } | { mode: 'past'; runId: string; startedAt: number }

export interface RunStoreActions {
  setStatus(nodeId: string, status: NodeRunStatus): void
  /** Sets many statuses in one update (queueing every node at run start). */
  setStatuses(statuses: Readonly<Record<string, NodeRunStatus>>): void
  /** Appends streamed text, merged into the last segment when it has the same kind. */
  appendText(nodeId: string, kind: ConsoleLineKind, text: string): void
  appendLine(nodeId: string, line: ConsoleLine): void
  setBadge(nodeId: string, badge: string | undefined): void
  /** Applies many node updates in one store write (one render per animation frame). */
  batch(update: (draft: Record<string, NodeRunState>) => void): void
  /** Applies a batch of engine events in ONE store write. */
  applyEvents(events: readonly RunEvent[], options?: ReduceOptions): void
  setPhase(phase: RunPhase): void
  /** Clears statuses, consoles and the run summary (and leaves a past run). */
  reset(): void
  /**
   * Drops every console box kept for text to come (NodeRunState.consoleKept): after a run that
   * ended without its nodes' end events (the engine threw), no empty box stays.
   */
  releaseKeptConsoles(): void
  setHistory(flowId: string | null, items: readonly RunHistoryItem[]): void
  /** Shows a saved run instead of the live one; the live view is kept to come back to. */
  showPast(
    item: Pick<RunHistoryItem, 'id' | 'startedAt'>,
    nodes: Record<string, NodeRunState>,
    run: RunSummary | null,
  ): void
  /** Back to the live run (or the idle canvas) after looking at a past run. */
  showLive(): void
  /**
   * Shows one iteration of a loop (its IterationRecord key) in the picker and in its body nodes'
   * consoles; undefined: back to following the latest. Cleared by a new run or view.
   */
  pickIteration(loopId: string, key: string | undefined): void
}

export interface RunStoreState {
  nodes: Readonly<Record<string, NodeRunState>>
  run: RunSummary | null
  phase: RunPhase
  view: RunViewMode
  /** The live nodes and run while a past run is shown. */
  live: { nodes: Readonly<Record<string, NodeRunState>>; run: RunSummary | null } | null
  history: readonly RunHistoryItem[]
  /** The flow `history` belongs to. */
  historyFlowId: string | null
  /** The iteration picked per loop id (IterationRecord.key); absent: the latest. */
  iterationPicks: Readonly<Record<string, string>>
  actions: RunStoreActions
}

const LIVE: RunViewMode = Object.freeze({ mode: 'live' }) as RunViewMode
const NO_PICKS: Readonly<Record<string, string>> = Object.freeze(keyedRecord<string>())

export function createRunStore() {
  return createStore<RunStoreState>()((set, get) => {
    const update = (nodeId: string, f: (s: NodeRunState) => NodeRunState): void => {
      const nodes = keyedRecord(get().nodes)
      nodes[nodeId] = f(nodeStateOf(nodes, nodeId))
      set({ nodes })
    }
    return {
      nodes: keyedRecord(),
      run: null,
      phase: 'idle',
      view: LIVE,
      live: null,
      history: [],
      historyFlowId: null,
      iterationPicks: NO_PICKS,
      actions: {
        setStatus: (nodeId, status) => update(nodeId, (s) => (s.status === status ? s : { ...s, status })),
        setStatuses: (statuses) => {
          const nodes = keyedRecord(get().nodes)
          for (const [id, status] of Object.entries(statuses))
            nodes[id] = { ...nodeStateOf(nodes, id), status }
          set({ nodes })
        },
        appendText: (nodeId, kind, text) => update(nodeId, (s) => runReducer().withText(s, kind, text)),
        appendLine: (nodeId, line) => update(nodeId, (s) => runReducer().withLine(s, line)),
        setBadge: (nodeId, badge) => update(nodeId, (s) => ({ ...s, badge })),
        batch: (f) => {
          const draft = keyedRecord(get().nodes)
          f(draft)
          set({ nodes: draft })
        },
        applyEvents: (events, options) => {
          if (events.length === 0) return
          const state = get()
          // While a past run is shown, the live run keeps updating behind it.
          if (state.live) {
            set({ live: runReducer().reduceRunEvents(state.live, events, options) })
            return
          }
          const view = runReducer().reduceRunEvents({ nodes: state.nodes, run: state.run }, events, options)
          // A new run's iterations are not the last run's: pickers follow the latest again.
          const fresh = events.some((e) => e.type === 'runStart')
          set(fresh ? { ...view, iterationPicks: NO_PICKS } : view)
        },
        setPhase: (phase) => {
          if (get().phase !== phase) set({ phase })
        },
        reset: () =>
          set({ nodes: keyedRecord(), run: null, view: LIVE, live: null, iterationPicks: NO_PICKS }),
        releaseKeptConsoles: () => {
          const state = get()
          if (state.live) {
            const nodes = runReducer().withoutKeptConsoles(state.live.nodes)
            if (nodes !== state.live.nodes) set({ live: { ...state.live, nodes } })
            return
          }
          const nodes = runReducer().withoutKeptConsoles(state.nodes)
          if (nodes !== state.nodes) set({ nodes })
        },
        setHistory: (historyFlowId, history) => set({ historyFlowId, history }),
        showPast: (item, nodes, run) => {
          const state = get()
          const live = state.live ?? { nodes: state.nodes, run: state.run }
          set({
            nodes,
            run,
            live,
            view: { mode: 'past', runId: item.id, startedAt: item.startedAt },
            iterationPicks: NO_PICKS,
          })
        },
        showLive: () => {
          const live = get().live
          if (!live) return
          set({ nodes: live.nodes, run: live.run, live: null, view: LIVE, iterationPicks: NO_PICKS })
        },
        pickIteration: (loopId, key) => {
          const picks = keyedRecord(get().iterationPicks)
          if (key === undefined) delete picks[loopId]
          else picks[loopId] = key
          set({ iterationPicks: picks })
        },
      },
    }
  })
}

export type RunStore = ReturnType<typeof createRunStore>

/** The app's one run store. */
export const runStore: RunStore = createRunStore()

/**
 * A node's run state without its console text: what node headers and the inspector's details
 * show. Its fields do not change while text streams, so those views do not render per frame; the
 * console itself is drawn outside React (subscribeNodeConsole).
 */
export interface NodeRunFacts extends Omit<NodeRunState, 'consoleLines' | 'consoleChars' | 'consoleDropped'> {
  /** The console holds at least one line. */
  hasConsole: boolean
}

function factsOf(state: NodeRunState): NodeRunFacts {
  const { consoleLines, consoleChars: _chars, consoleDropped: _dropped, ...facts } = state
  return { ...facts, hasConsole: consoleLines.length > 0 }
}

/** One node's run state without its console text; re-renders only when one of its fields changes. */
export function useNodeRunFacts(nodeId: string): NodeRunFacts {
  return useStore(
    runStore,
    useShallow((s) => factsOf(nodeStateOf(s.nodes, nodeId))),
  )
}

/**
 * Calls `listener` with the node's state whenever its console changes (and never for other
 * changes), outside React: a console appends text in the animation frame the batch arrives in,
 * without rendering any component. Returns the unsubscribe function.
 */
export function subscribeNodeConsole(
  nodeId: string,
  listener: (state: NodeRunState) => void,
  store: RunStore = runStore,
): () => void {
  let lines = nodeStateOf(store.getState().nodes, nodeId).consoleLines
  return store.subscribe((s) => {
    const state = nodeStateOf(s.nodes, nodeId)
    if (state.consoleLines === lines) return
    lines = state.consoleLines
    listener(state)
  })
}

/** The node's state now (for a console's first drawing). */
export function nodeRunStateNow(nodeId: string, store: RunStore = runStore): NodeRunState {
  return nodeStateOf(store.getState().nodes, nodeId)
}

export function useNodeRunStatus(nodeId: string): NodeRunStatus {
  return useStore(runStore, (s) => nodeStateOf(s.nodes, nodeId).status)
}

export function useRunActions(): RunStoreActions {
  return useStore(runStore, (s) => s.actions)
}

/** Any slice of the run store, e.g. `useRunStore((s) => s.phase)`. */
export function useRunStore<T>(selector: (state: RunStoreState) => T): T {
  return useStore(runStore, selector)
}

/** True from the click on Run until the run's record is saved: Run is disabled, Stop enabled. */
export function isRunActive(phase: RunPhase): boolean {
  return phase === 'preparing' || phase === 'running'
}
