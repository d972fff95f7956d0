/**
 * Every edit of the open flow. Each public action is one undo step (or joins the open burst /
 * gesture, see history.ts); selection, viewport and measured sizes are never in the history.
 */
import type { StoreApi } from 'zustand'
import type { TemporalState } from 'zundo'
import {
  keyedRecord,
  ownValue,
  type FlowDocument,
  type FlowEdge,
  type FlowNode,
  type PinnedOutput,
  type Viewport,
  type XY,
} from '../engine/index.ts'
import type { FlowState, HistoryState } from './flowStore.ts'
import type { RunLimits } from '../engine/cost/ledger.ts'
import type { HistoryControl } from './history.ts'
import { cloneNodes, moveNodes, removeElements, updateNode } from './graphOps.ts'
import { checkConnection, type ConnectionRequest, type ConnectResult } from './connect.ts'
import { nextEdgeId, nextNodeId } from './ids.ts'
import { configAfterConnect } from '../nodes/wiring.ts'
import { nodeCatalog } from '../nodes/registry.ts'
import { edgesAfterPortChange } from './portEdges.ts'
import { defaultSizeOf, nestOnDrop } from './loopNesting.ts'
import {
  applyEdgeChangesToState,
  applyNodeChangesToState,
  gestureOf,
  type EdgeChangeLike,
  type NodeChangeLike,
} from './changes.ts'

/** The target's new config when drawing this connection fills a reference in (nodes/wiring.ts). */
function fillOnConnect(
  nodes: readonly FlowNode[],
  source: FlowNode,
  targetId: string,
): Record<string, unknown> | null {
  const target = nodes.find((n) => n.id === targetId)
  const config = target ? configAfterConnect(source, target) : null
  return config ? { ...config } : null
}

/**
 * What a view keeps of React Flow's node changes: selection and measured sizes, never a move,
 * a resize that sets a size, or a removal.
 */
function viewChanges(changes: readonly NodeChangeLike[]): NodeChangeLike[] {
  const kept: NodeChangeLike[] = []
  for (const c of changes) {
    if (c.type === 'select') kept.push(c)
    else if (c.type === 'dimensions' && c.dimensions)
      kept.push({ type: 'dimensions', id: c.id, dimensions: c.dimensions })
  }
  return kept
}

export interface NewNode {
  type: string
  position: XY
  label: string
  config: Record<string, unknown>
  size?: { width: number; height: number }
}

export interface FlowActions {
  /** Opens a document: replaces everything and clears the undo history. */
  load(doc: FlowDocument): void
  unload(): void
  rename(name: string): void
  /** The flow's "reuse unchanged results" setting for full runs (metadata.reuseUnchanged). */
  setReuseUnchanged(on: boolean): void
  /**
   * The flow's own whole-run limits (metadata.limits; they win over the settings' defaults);
   * none clears them. One undo step; typing with the same `groupKey` within the window is one.
   */
  setRunLimits(limits: RunLimits | undefined, groupKey?: string): void
  /** Adds one node, selects only it and returns its id (null while the flow is read-only). */
  addNode(node: NewNode): string | null
  /** Adds copies of `nodes` (fresh ids, internal edges kept), selects them, returns the new ids. */
  insertCopies(nodes: readonly FlowNode[], edges: readonly FlowEdge[], offset: XY): string[]
  duplicateSelection(offset: XY): string[]
  removeSelection(): void
  removeNodes(ids: readonly string[]): void
  setLabel(id: string, label: string): void
  /** Sets one top-level config key; typing into the same key within the window is one step. */
  setConfigField(id: string, key: string, value: unknown, groupKey?: string): void
  /** Pins an output in place of running the node (engine/reuse.ts), or unpins it (undefined). */
  setPinned(id: string, pinned: PinnedOutput | undefined): void
  connect(request: ConnectionRequest): ConnectResult
  setPositions(positions: ReadonlyMap<string, XY>): void
  /** After a drag: nodes dropped inside a loop join its body, dragged out of it leave (loopNesting.ts). */
  dropNodes(ids: readonly string[]): void
  onNodesChange(changes: readonly NodeChangeLike[]): void
  onEdgesChange(changes: readonly EdgeChangeLike[]): void
  setViewport(viewport: Viewport): void
  select(nodeIds: Iterable<string>, edgeIds?: Iterable<string>): void
  /** Makes the flow a view (a past run is open) or editable again; see FlowState.readOnly. */
  setReadOnly(readOnly: boolean): void
  undo(): void
  redo(): void
}

export interface ActionDeps {
  set: (partial: Partial<FlowState>) => void
  get: () => FlowState
  history: HistoryControl
  temporal: () => StoreApi<TemporalState<HistoryState>>
}

export function createFlowActions({ set, get, history, temporal }: ActionDeps): FlowActions {
  const edit = (groupKey: string | undefined, recipe: (s: FlowState) => Partial<FlowState> | null): void => {
    history.record(groupKey, () => {
      const patch = recipe(get())
      if (patch !== null) set(patch)
    })
  }
  // A view cannot write: document edits stop here, whichever control asked for them.
  const locked = (): boolean => get().readOnly
  // Undo/redo put back the metadata of that step whole; of it only the limits are history, so
  // the name, dates and switches as they are now stay (they were never undoable).
  const travel = (move: () => void): void => {
    const before = get().metadata
    move()
    const after = get().metadata
    if (before === null || after === null || after === before) return
    const { limits: _now, ...rest } = before
    temporal().getState().pause()
    set({ metadata: after.limits === undefined ? rest : { ...rest, limits: after.limits } })
    temporal().getState().resume()
  }
  const pruneSelection = (): void => {
    const { nodes, edges, selectedNodeIds, selectedEdgeIds } = get()
    const nodeIds = new Set(nodes.map((n) => n.id))
    const edgeIds = new Set(edges.map((e) => e.id))
    set({
      selectedNodeIds: new Set([...selectedNodeIds].filter((id) => nodeIds.has(id))),
      selectedEdgeIds: new Set([...selectedEdgeIds].filter((id) => edgeIds.has(id))),
    })
  }
  const actions: FlowActions = {
    load(doc) {
      history.reset()
      temporal().getState().pause()
      set({
        flowId: doc.metadata.id,
        metadata: doc.metadata,
        nodes: doc.nodes,
        edges: doc.edges,
        viewport: doc.viewport,
        selectedNodeIds: new Set(),
        selectedEdgeIds: new Set(),
        measured: keyedRecord(),
      })
      temporal().getState().resume()
      temporal().getState().clear()
    },
    unload() {
      history.reset()
      temporal().getState().pause()
      set({
        flowId: null,
        metadata: null,
        nodes: [],
        edges: [],
        selectedNodeIds: new Set(),
        selectedEdgeIds: new Set(),
        measured: keyedRecord(),
      })
      temporal().getState().resume()
      temporal().getState().clear()
    },
    rename(name) {
      if (locked()) return
      const { metadata } = get()
      if (metadata !== null && metadata.name !== name) set({ metadata: { ...metadata, name } })
    },
    setReuseUnchanged(on) {
      if (locked()) return
      const { metadata } = get()
      if (metadata === null || (metadata.reuseUnchanged === true) === on) return
      const { reuseUnchanged: _old, ...rest } = metadata
      set({ metadata: on ? { ...rest, reuseUnchanged: true } : rest })
    },
    setRunLimits(limits, groupKey) {
      if (locked()) return
      const { metadata } = get()
      if (metadata === null) return
      const next: RunLimits = {}
      if (limits?.maxRunTokens !== undefined) next.maxRunTokens = limits.maxRunTokens
      if (limits?.maxRunCostUsd !== undefined) next.maxRunCostUsd = limits.maxRunCostUsd
      const old = metadata.limits
      if (old?.maxRunTokens === next.maxRunTokens && old?.maxRunCostUsd === next.maxRunCostUsd) return
      const { limits: _old, ...rest } = metadata
      const bounded = next.maxRunTokens !== undefined || next.maxRunCostUsd !== undefined
      edit(groupKey, () => ({ metadata: bounded ? { ...rest, limits: next } : rest }))
    },
    addNode(input) {
      if (locked()) return null
      const id = nextNodeId(input.type, new Set(get().nodes.map((n) => n.id)))
      const node: FlowNode = {
        id,
        type: input.type,
        position: { ...input.position },
        data: { label: input.label, config: input.config },
      }
      if (input.size) node.size = { ...input.size }
      edit(undefined, (s) => ({ nodes: [...s.nodes, node] }))
      set({ selectedNodeIds: new Set([id]), selectedEdgeIds: new Set() })
      return id
    },
    insertCopies(nodes, edges, offset) {
      if (nodes.length === 0 || locked()) return []
      const s = get()
      const copy = cloneNodes(
        nodes,
        edges,
        s.nodes.map((n) => n.id),
        s.edges.map((e) => e.id),
        offset,
      )
      edit(undefined, (cur) => ({
        nodes: [...cur.nodes, ...copy.nodes],
        edges: [...cur.edges, ...copy.edges],
      }))
      const ids = copy.nodes.map((n) => n.id)
      set({ selectedNodeIds: new Set(ids), selectedEdgeIds: new Set(copy.edges.map((e) => e.id)) })
      return ids
    },
    duplicateSelection(offset) {
      const s = get()
      const picked = s.nodes.filter((n) => s.selectedNodeIds.has(n.id))
      return actions.insertCopies(picked, s.edges, offset)
    },
    removeSelection() {
      if (locked()) return
      edit(undefined, (s) => {
        const next = removeElements(s, s.selectedNodeIds, s.selectedEdgeIds)
        return next.nodes === s.nodes && next.edges === s.edges ? null : next
      })
      pruneSelection()
    },
    removeNodes(ids) {
      if (ids.length === 0 || locked()) return
      edit(undefined, (cur) => removeElements(cur, new Set(ids), new Set()))
      pruneSelection()
    },
    setLabel(id, label) {
      if (locked()) return
      edit(`label:${id}`, (s) => {
        const nodes = updateNode(s.nodes, id, (n) =>
          n.data.label === label ? n : { ...n, data: { ...n.data, label } },
        )
        return nodes === s.nodes ? null : { nodes }
      })
    },
    setConfigField(id, key, value, groupKey) {
      if (locked()) return
      edit(groupKey ?? `config:${id}:${key}`, (s) => {
        const nodes = updateNode(s.nodes, id, (n) =>
          Object.is(n.data.config[key], value)
            ? n
            : { ...n, data: { ...n.data, config: { ...n.data.config, [key]: value } } },
        )
        if (nodes === s.nodes) return null
        // A renamed or removed output (a condition's case) takes its edges along in this step.
        const before = s.nodes.find((n) => n.id === id)
        const after = nodes.find((n) => n.id === id)
        const edges =
          before && after
            ? edgesAfterPortChange(
                s.edges,
                id,
                nodeCatalog.ports(before).outputs,
                nodeCatalog.ports(after).outputs,
              )
            : s.edges
        return edges === s.edges ? { nodes } : { nodes, edges }
      })
    },
    setPinned(id, pinned) {
      if (locked()) return
      edit(undefined, (s) => {
        const nodes = updateNode(s.nodes, id, (n) => {
          if (pinned === undefined && n.pinned === undefined) return n
          const { pinned: _old, ...rest } = n
          return pinned === undefined ? rest : { ...rest, pinned }
        })
        return nodes === s.nodes ? null : { nodes }
      })
    },
    connect(request) {
      if (locked()) return { ok: false, reason: 'READ_ONLY' }
      const s = get()
      const refusal = checkConnection(new Set(s.nodes.map((n) => n.id)), s.edges, request)
      if (refusal !== null) return { ok: false, reason: refusal }
      const edge: FlowEdge = {
        id: nextEdgeId(request.source, request.target, new Set(s.edges.map((e) => e.id))),
        source: request.source,
        target: request.target,
        sourceHandle: request.sourceHandle ?? null,
        targetHandle: request.targetHandle ?? null,
      }
      edit(undefined, (cur) => {
        const source = cur.nodes.find((n) => n.id === edge.source)
        const config = source ? fillOnConnect(cur.nodes, source, edge.target) : null
        const nodes = config
          ? updateNode(cur.nodes, edge.target, (n) => ({ ...n, data: { ...n.data, config } }))
          : cur.nodes
        return { edges: [...cur.edges, edge], nodes }
      })
      return { ok: true, edgeId: edge.id }
    },
    setPositions(positions) {
      if (locked()) return
      edit(undefined, (s) => {
        const nodes = moveNodes(s.nodes, positions)
        return nodes === s.nodes ? null : { nodes }
      })
    },
    dropNodes(ids) {
      if (locked()) return
      edit(undefined, (s) => {
        const sizeOf = (node: FlowNode) => node.size ?? ownValue(s.measured, node.id) ?? defaultSizeOf(node)
        const isContainer = (node: FlowNode) => nodeCatalog.get(node.type)?.engine.container === true
        return nestOnDrop(s.nodes, s.edges, ids, { isContainer, sizeOf })
      })
    },
    onNodesChange(changes) {
      if (locked()) {
        edit(undefined, (s) => applyNodeChangesToState(s, viewChanges(changes)))
        return
      }
      const gesture = gestureOf(changes)
      if (gesture.begins) history.beginGesture()
      edit(undefined, (s) => applyNodeChangesToState(s, changes))
      if (gesture.ends) history.endGesture()
    },
    onEdgesChange(changes) {
      if (locked()) {
        edit(undefined, (s) =>
          applyEdgeChangesToState(
            s,
            changes.filter((c) => c.type === 'select'),
          ),
        )
        return
      }
      edit(undefined, (s) => applyEdgeChangesToState(s, changes))
    },
    setViewport(viewport) {
      const v = get().viewport
      if (v.x !== viewport.x || v.y !== viewport.y || v.zoom !== viewport.zoom)
        set({ viewport: { ...viewport } })
    },
    select(nodeIds, edgeIds = []) {
      set({ selectedNodeIds: new Set(nodeIds), selectedEdgeIds: new Set(edgeIds) })
    },
    setReadOnly(readOnly) {
      if (get().readOnly === readOnly) return
      // An open typing burst or drag must not continue into (or out of) the view.
      history.reset()
      set({ readOnly })
    },
    undo() {
      if (locked()) return
      history.reset()
      travel(() => temporal().getState().undo())
      pruneSelection()
    },
    redo() {
      if (locked()) return
      history.reset()
      travel(() => temporal().getState().redo())
      pruneSelection()
    },
  }
  return actions
}
