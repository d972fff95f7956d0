/**
 * What a run shows on the canvas: each node's status and console. Kept apart from the flow
 * store so streaming never touches the document, its undo history or autosave. The run
 * service (app/) writes here in animation-frame batches; node bodies read one node each.
 */
import { createStore, useStore } from 'zustand'
import { CONSOLE_MAX_CHARS } from '../defaults.ts'
import type { GuardLayer, GuardLevel } from '../engine/index.ts'

export type NodeRunStatus = 'idle' | 'queued' | 'running' | 'success' | 'error' | 'skipped' | 'stopped'

export type ConsoleLineKind = 'output' | 'reasoning' | 'log' | 'guard' | 'error' | 'info'

/** One console segment. Streamed chunks of one kind merge into one segment; shown as text only. */
export interface ConsoleLine {
  kind: ConsoleLineKind
  text: string
  /** For `guard` lines. */
  layer?: GuardLayer
  level?: GuardLevel
}

export interface NodeRunState {
  status: NodeRunStatus
  consoleLines: readonly ConsoleLine[]
  /** A short note on the node header, e.g. "1.2 s · 340 tok". */
  badge?: string
}

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
  reset(): void
}

export interface RunStoreState {
  nodes: Readonly<Record<string, NodeRunState>>
  actions: RunStoreActions
}

export const IDLE_RUN_STATE: NodeRunState = Object.freeze({
  status: 'idle',
  consoleLines: Object.freeze([]),
}) as NodeRunState

/** Drops the oldest text so one node's console never holds more than CONSOLE_MAX_CHARS. */
function capLines(lines: ConsoleLine[]): ConsoleLine[] {
  let total = 0
  for (const l of lines) total += l.text.length
  if (total <= CONSOLE_MAX_CHARS) return lines
  const out = lines.slice()
  while (total > CONSOLE_MAX_CHARS && out.length > 1) total -= (out.shift() as ConsoleLine).text.length
  const first = out[0]
  if (first && total > CONSOLE_MAX_CHARS)
    out[0] = { ...first, text: first.text.slice(total - CONSOLE_MAX_CHARS) }
  return out
}

export function withText(state: NodeRunState, kind: ConsoleLineKind, text: string): NodeRunState {
  const lines = state.consoleLines
  const last = lines[lines.length - 1]
  const next =
    last && last.kind === kind && kind !== 'guard'
      ? [...lines.slice(0, -1), { ...last, text: last.text + text }]
      : [...lines, { kind, text }]
  return { ...state, consoleLines: capLines(next) }
}

export function withLine(state: NodeRunState, line: ConsoleLine): NodeRunState {
  return { ...state, consoleLines: capLines([...state.consoleLines, line]) }
}

export function createRunStore() {
  return createStore<RunStoreState>()((set, get) => {
    const update = (nodeId: string, f: (s: NodeRunState) => NodeRunState): void => {
      const nodes = get().nodes
      set({ nodes: { ...nodes, [nodeId]: f(nodes[nodeId] ?? IDLE_RUN_STATE) } })
    }
    return {
      nodes: {},
      actions: {
        setStatus: (nodeId, status) => update(nodeId, (s) => (s.status === status ? s : { ...s, status })),
        setStatuses: (statuses) => {
          const nodes = { ...get().nodes }
          for (const [id, status] of Object.entries(statuses))
            nodes[id] = { ...(nodes[id] ?? IDLE_RUN_STATE), status }
          set({ nodes })
        },
        appendText: (nodeId, kind, text) => update(nodeId, (s) => withText(s, kind, text)),
        appendLine: (nodeId, line) => update(nodeId, (s) => withLine(s, line)),
        setBadge: (nodeId, badge) => update(nodeId, (s) => ({ ...s, badge })),
        batch: (f) => {
          const draft = { ...get().nodes }
          f(draft)
          set({ nodes: draft })
        },
        reset: () => set({ nodes: {} }),
      },
    }
  })
}

export type RunStore = ReturnType<typeof createRunStore>

/** The app's one run store. */
export const runStore: RunStore = createRunStore()

/** One node's run state; idle until a run touches it. Re-renders only when that node changes. */
export function useNodeRunState(nodeId: string): NodeRunState {
  return useStore(runStore, (s) => s.nodes[nodeId] ?? IDLE_RUN_STATE)
}

export function useNodeRunStatus(nodeId: string): NodeRunStatus {
  return useStore(runStore, (s) => s.nodes[nodeId]?.status ?? 'idle')
}

export function useRunActions(): RunStoreActions {
  return useStore(runStore, (s) => s.actions)
}
