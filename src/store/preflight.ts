/**
 * The live problems list. Preflight runs PREFLIGHT_DEBOUNCE_MS after the last edit, and not at
 * all when only positions changed (a drag never triggers it): the result depends on ids, types,
 * configs and edges only. The flows the open flow's Sub-flow nodes call are read (`loadCalled`)
 * whenever the flow opens or the set of called flows changes, so a circle of calls, a missing or
 * too deep called flow shows as you build, not only when Run is pressed.
 */
import { createStore, useStore } from 'zustand'
import { PREFLIGHT_DEBOUNCE_MS } from '../defaults.ts'
import {
  calledFlows,
  preflight,
  type FlowDocument,
  type FlowLookup,
  type FlowNode,
  type NodeRegistry,
  type PreflightOptions,
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
  check?: (doc: FlowDocument, registry: NodeRegistry, options?: PreflightOptions) => Problem[]
  /**
   * Reads the flows `doc` calls, directly or through others (the app: from the saved flows, as a
   * run does). Absent: the sub-flow checks are left to the run.
   */
  loadCalled?: (doc: FlowDocument) => Promise<FlowLookup>
}

/**
 * Which flows `doc` calls directly, as a key: the called flows are read again when it changes.
 * Null when it calls none (nothing to read: most flows, and the page's start).
 */
function callsKey(doc: FlowDocument, registry: NodeRegistry): string | null {
  const ids = calledFlows(doc, registry).map((c) => c.flowId)
  return ids.length === 0 ? null : JSON.stringify([doc.metadata.id, [...new Set(ids)].sort()])
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
  // The called flows last read, for the calls key they were read for; and the read under way.
  let called: { key: string; flows: FlowLookup } | null = null
  let reading: string | null = null
  let stopped = false

  const readCalled = (doc: FlowDocument, key: string): void => {
    const load = options.loadCalled
    if (!load || reading === key) return
    reading = key
    load(doc).then(
      (flows) => {
        if (stopped || reading !== key) return
        reading = null
        called = { key, flows }
        compute(true)
      },
      () => {
        // Unreadable storage: the run's own check still refuses what preflight cannot see.
        if (reading === key) reading = null
      },
    )
  }

  const compute = (force = false): void => {
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
    if (unchanged && !force) return
    let lookup: FlowLookup | undefined
    if (options.loadCalled) {
      const key = callsKey(doc, registry)
      if (key === null) reading = null
      else if (called?.key === key) lookup = called.flows
      else readCalled(doc, key)
    }
    const problems = lookup ? check(doc, registry, { flows: lookup }) : check(doc, registry)
    problemsStore.setState({ problems, flowId: state.flowId })
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
    stopped = true
    unsubscribe()
    if (timer !== null) clearTimeout(timer)
  }
}
