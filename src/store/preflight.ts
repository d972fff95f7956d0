/**
 * The live problems list. Preflight runs PREFLIGHT_DEBOUNCE_MS after the last edit, and not at
 * all when only positions changed (a drag never triggers it): the result depends on ids, types,
 * configs and edges only.
 */
import { createStore, useStore } from 'zustand'
import { PREFLIGHT_DEBOUNCE_MS } from '../defaults.ts'
import {
  preflight,
  type FlowDocument,
  type FlowNode,
  type NodeRegistry,
  type Problem,
} from '../engine/index.ts'
import { selectDocument, type FlowStore } from './flowStore.ts'

export interface ProblemsState {
  problems: readonly Problem[]
  /** The flow these problems belong to. */
  flowId: string | null
}

export const problemsStore = createStore<ProblemsState>()(() => ({ problems: [], flowId: null }))

export function useProblems(): readonly Problem[] {
  return useStore(problemsStore, (s) => s.problems)
}

/** What preflight reads of one node: its position is deliberately absent. */
function sameForPreflight(a: readonly FlowNode[], b: readonly FlowNode[]): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i += 1) {
    const x = a[i] as FlowNode
    const y = b[i] as FlowNode
    if (x !== y && (x.id !== y.id || x.type !== y.type || x.data !== y.data)) return false
  }
  return true
}

export interface PreflightWatcherOptions {
  delayMs?: number
  /** Replaces the engine's preflight in tests. */
  check?: (doc: FlowDocument, registry: NodeRegistry) => Problem[]
}

/** Keeps problemsStore in step with `flows`. Returns a stop function. */
export function watchPreflight(
  flows: FlowStore,
  registry: NodeRegistry,
  options: PreflightWatcherOptions = {},
): () => void {
  const delay = options.delayMs ?? PREFLIGHT_DEBOUNCE_MS
  const check = options.check ?? preflight
  let timer: ReturnType<typeof setTimeout> | null = null
  let lastNodes: readonly FlowNode[] | null = null
  let lastEdges: unknown = null
  let lastFlowId: string | null = null

  const compute = (): void => {
    timer = null
    const state = flows.getState()
    const doc = selectDocument(state)
    if (doc === null) {
      problemsStore.setState({ problems: [], flowId: null })
      return
    }
    const unchanged =
      state.flowId === lastFlowId &&
      state.edges === lastEdges &&
      lastNodes !== null &&
      sameForPreflight(lastNodes, state.nodes)
    lastNodes = state.nodes
    lastEdges = state.edges
    lastFlowId = state.flowId
    if (unchanged) return
    problemsStore.setState({ problems: check(doc, registry), flowId: state.flowId })
  }

  const unsubscribe = flows.subscribe((state, previous) => {
    if (state.nodes === previous.nodes && state.edges === previous.edges && state.flowId === previous.flowId)
      return
    if (state.flowId !== previous.flowId) {
      // A newly opened flow shows its problems at once.
      if (timer !== null) clearTimeout(timer)
      compute()
      return
    }
    if (timer !== null) clearTimeout(timer)
    timer = setTimeout(compute, delay)
  })
  compute()
  return () => {
    unsubscribe()
    if (timer !== null) clearTimeout(timer)
  }
}
