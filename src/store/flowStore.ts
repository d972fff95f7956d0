/**
 * The open flow: its document (nodes, edges, viewport, metadata) plus what the canvas needs
 * around it (selection, measured sizes). Nodes, edges and the flow's run limits are in the undo
 * history (zundo); every edit is an action here, so undo/redo and autosave see all of them.
 */
import { createStore, type StoreApi } from 'zustand'
import { useStore } from 'zustand'
import { temporal, type TemporalState } from 'zundo'
import { UNDO_HISTORY_LIMIT } from '../defaults.ts'
import {
  keyedRecord,
  type FlowDocument,
  type FlowEdge,
  type FlowMetadata,
  type FlowNode,
  type Viewport,
} from '../engine/index.ts'
import { createHistoryControl, type HistoryControl } from './history.ts'
import { createFlowActions, type FlowActions } from './flowActions.ts'

export interface Size {
  width: number
  height: number
}

export interface FlowState {
  flowId: string | null
  metadata: FlowMetadata | null
  nodes: FlowNode[]
  edges: FlowEdge[]
  viewport: Viewport
  selectedNodeIds: ReadonlySet<string>
  selectedEdgeIds: ReadonlySet<string>
  /** Sizes React Flow measured; kept so re-created node objects are not measured again. */
  measured: Readonly<Record<string, Size>>
  /**
   * A past run is shown (the History tab): the flow is a view. Every action that would change
   * the document does nothing; selection, the viewport and measured sizes still follow.
   */
  readOnly: boolean
  actions: FlowActions
}

/**
 * The part of the state that undo/redo restores. The metadata rides along only for its `limits`
 * (its name, dates and switches are not undone): see `travel` in flowActions.ts.
 */
export type HistoryState = Pick<FlowState, 'nodes' | 'edges' | 'metadata'>

export type FlowStore = StoreApi<FlowState> & { temporal: StoreApi<TemporalState<HistoryState>> }

export interface FlowStoreOptions {
  /** Milliseconds clock for undo grouping; tests pass a manual one. */
  now?: () => number
}

export const EMPTY_VIEWPORT: Viewport = { x: 0, y: 0, zoom: 1 }
const EMPTY_SET: ReadonlySet<string> = new Set()

export function createFlowStore(options: FlowStoreOptions = {}): FlowStore {
  const now = options.now ?? (() => Date.now())
  // The history and the actions reach the store through getters: it does not exist yet.
  const temporalApi = (): FlowStore['temporal'] => store.temporal
  const history: HistoryControl = createHistoryControl(temporalApi, now)
  const store = createStore<FlowState>()(
    temporal(
      (set, get) => ({
        flowId: null,
        metadata: null,
        nodes: [],
        edges: [],
        viewport: EMPTY_VIEWPORT,
        selectedNodeIds: EMPTY_SET,
        selectedEdgeIds: EMPTY_SET,
        measured: keyedRecord(),
        readOnly: false,
        actions: createFlowActions({
          set,
          get,
          history,
          temporal: temporalApi,
        }),
      }),
      {
        partialize: (state): HistoryState => ({
          nodes: state.nodes,
          edges: state.edges,
          metadata: state.metadata,
        }),
        // Autosave rewrites `updatedAt` after each save: only a change of the limits is a step.
        equality: (a, b) =>
          a.nodes === b.nodes && a.edges === b.edges && a.metadata?.limits === b.metadata?.limits,
        limit: UNDO_HISTORY_LIMIT,
      },
    ),
  ) as unknown as FlowStore
  return store
}

/** The document as storage keeps it; null when no flow is open. */
export function selectDocument(state: FlowState): FlowDocument | null {
  if (state.metadata === null) return null
  return { metadata: state.metadata, viewport: state.viewport, nodes: state.nodes, edges: state.edges }
}

/** The app's one open-flow store. */
export const flowStore: FlowStore = createFlowStore()

export function useFlowStore<T>(selector: (state: FlowState) => T): T {
  return useStore(flowStore, selector)
}

export function useFlowActions(): FlowActions {
  return useStore(flowStore, (s) => s.actions)
}

/** True while the flow is a view (a past run is open): the UI offers no edits. */
export function useReadOnly(): boolean {
  return useStore(flowStore, (s) => s.readOnly)
}

export function useCanUndo(): boolean {
  const readOnly = useReadOnly()
  return useStore(flowStore.temporal, (s) => s.pastStates.length > 0) && !readOnly
}

export function useCanRedo(): boolean {
  const readOnly = useReadOnly()
  return useStore(flowStore.temporal, (s) => s.futureStates.length > 0) && !readOnly
}
