/**
 * Flow document -> React Flow nodes and edges. React Flow re-renders only node objects whose
 * identity changed, so these selectors cache one object per document node and rebuild it only
 * when that node, its selection or its measured size changed: dragging one node of 500 creates
 * one new object per frame, not 500.
 */
import { Position, type Edge, type Node, type NodeHandle } from '@xyflow/react'
import { NODE_HANDLE_SIZE_PX, NODE_HEIGHT_PX, NODE_WIDTH_PX } from '../defaults.ts'
import { ownValue, type FlowEdge, type FlowNode } from '../engine/index.ts'
import { nodeCatalog } from '../nodes/registry.ts'
import type { FlowState, Size } from './flowStore.ts'

export type WardNodeData = { node: FlowNode }
export type WardRfNode = Node<WardNodeData, 'wardflow' | 'note'>
export type WardRfEdge = Edge

/** Annotations (notes) are drawn by the sticky-note body; everything else uses the generic body. */
export function isAnnotation(type: string): boolean {
  return nodeCatalog.role(type) === 'annotation'
}

interface CachedNode {
  rf: WardRfNode
  selected: boolean
  measured: Size | undefined
}

/**
 * Where a body's handles sit at `size`: one per declared port (FlowNodeView's PortHandles draws
 * them from the same `nodeCatalog.ports`), on the left and right edges.
 */
export function nominalHandles(node: FlowNode, size: Size): NodeHandle[] {
  const ports = nodeCatalog.ports(node)
  const half = NODE_HANDLE_SIZE_PX / 2
  // Spread as PortHandles draws them: port i of n at (i + 1) / (n + 1) of the height.
  const side = (list: readonly { id: string }[], type: 'source' | 'target'): NodeHandle[] =>
    list.map((port, index) => ({
      id: port.id,
      type,
      position: type === 'target' ? Position.Left : Position.Right,
      x: type === 'target' ? -half : size.width - half,
      y: (size.height * (index + 1)) / (list.length + 1) - half,
      width: NODE_HANDLE_SIZE_PX,
      height: NODE_HANDLE_SIZE_PX,
    }))
  return [...side(ports.inputs, 'target'), ...side(ports.outputs, 'source')]
}

function buildNode(node: FlowNode, selected: boolean, measured: Size | undefined): WardRfNode {
  const rf: WardRfNode = {
    id: node.id,
    type: isAnnotation(node.type) ? 'note' : 'wardflow',
    position: node.position,
    data: { node },
    selected,
  }
  // Body nodes of a loop: React Flow places them relative to their parent and moves them with it.
  if (node.parentId !== undefined) rf.parentId = node.parentId
  if (measured) rf.measured = measured
  else {
    // Until React Flow measured it: fitView and visible-only rendering need a size.
    rf.initialWidth = NODE_WIDTH_PX
    rf.initialHeight = NODE_HEIGHT_PX
    // And handles: React Flow draws every node it knows no handles of once, off-screen ones
    // too, only to measure them (all 5,000 bodies of a 5,000-node flow, most of its open). With
    // these, edges to a node not drawn yet end where its handles will be; once drawn, the node
    // is measured, `measured` is set and React Flow's own handle measurement is used.
    rf.handles = nominalHandles(node, node.size ?? { width: NODE_WIDTH_PX, height: NODE_HEIGHT_PX })
  }
  if (node.size) {
    rf.width = node.size.width
    rf.height = node.size.height
  }
  return rf
}

/** React Flow wants a parent before its children; keeps every other order as it is. */
export function parentsFirst(nodes: WardRfNode[]): WardRfNode[] {
  if (!nodes.some((n) => n.parentId !== undefined)) return nodes
  const byId = new Map(nodes.map((n) => [n.id, n]))
  const placed = new Set<string>()
  const out: WardRfNode[] = []
  const place = (n: WardRfNode, depth: number): void => {
    if (placed.has(n.id)) return
    const parent = n.parentId === undefined ? undefined : byId.get(n.parentId)
    // The depth bound keeps a (refused) cycle of parents from recursing forever.
    if (parent && depth < nodes.length) place(parent, depth + 1)
    placed.add(n.id)
    out.push(n)
  }
  for (const n of nodes) place(n, 0)
  return out
}

/** A memoised selector: same array while nodes, selection and measured sizes are the same. */
export function createRfNodesSelector(): (state: FlowState) => WardRfNode[] {
  const cache = new WeakMap<FlowNode, CachedNode>()
  let lastNodes: FlowNode[] | null = null
  let lastSelected: ReadonlySet<string> | null = null
  let lastMeasured: FlowState['measured'] | null = null
  let last: WardRfNode[] = []
  return (state) => {
    if (
      state.nodes === lastNodes &&
      state.selectedNodeIds === lastSelected &&
      state.measured === lastMeasured
    )
      return last
    lastNodes = state.nodes
    lastSelected = state.selectedNodeIds
    lastMeasured = state.measured
    last = state.nodes.map((node) => {
      const selected = state.selectedNodeIds.has(node.id)
      const measured = ownValue(state.measured, node.id)
      const hit = cache.get(node)
      if (hit && hit.selected === selected && hit.measured === measured) return hit.rf
      const rf = buildNode(node, selected, measured)
      cache.set(node, { rf, selected, measured })
      return rf
    })
    last = parentsFirst(last)
    return last
  }
}

export function createRfEdgesSelector(): (state: FlowState) => WardRfEdge[] {
  const cache = new WeakMap<FlowEdge, { rf: WardRfEdge; selected: boolean }>()
  let lastEdges: FlowEdge[] | null = null
  let lastSelected: ReadonlySet<string> | null = null
  let last: WardRfEdge[] = []
  return (state) => {
    if (state.edges === lastEdges && state.selectedEdgeIds === lastSelected) return last
    lastEdges = state.edges
    lastSelected = state.selectedEdgeIds
    // A placeholder keeps its imported wires' handle names but draws only `in` and `out`.
    const placeholders = new Set(
      state.nodes.filter((n) => nodeCatalog.role(n.type) === 'placeholder').map((n) => n.id),
    )
    last = state.edges.map((edge) => {
      const selected = state.selectedEdgeIds.has(edge.id)
      const hit = cache.get(edge)
      if (hit && hit.selected === selected) return hit.rf
      const rf: WardRfEdge = {
        id: edge.id,
        source: edge.source,
        target: edge.target,
        // Restore refuses (import) or leaves out (a saved flow) an edge naming a handle its node
        // lacks, so these ids are ones the body draws; none means the node's only port.
        sourceHandle: placeholders.has(edge.source) ? null : (edge.sourceHandle ?? null),
        targetHandle: placeholders.has(edge.target) ? null : (edge.targetHandle ?? null),
        selected,
      }
      cache.set(edge, { rf, selected })
      return rf
    })
    return last
  }
}
