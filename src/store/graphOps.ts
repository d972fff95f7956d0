/**
 * Pure edits of a flow's nodes and edges. The store wraps each in one undoable step; keeping
 * them pure makes paste remapping and duplication easy to test without a store.
 */
import type { FlowEdge, FlowNode, XY } from '../engine/index.ts'
import { nextEdgeId, nextNodeId } from './ids.ts'

export interface Graph {
  nodes: FlowNode[]
  edges: FlowEdge[]
}

/** Removes nodes and edges; edges touching a removed node go too. Same arrays when nothing changes. */
export function removeElements(
  graph: Graph,
  nodeIds: ReadonlySet<string>,
  edgeIds: ReadonlySet<string>,
): Graph {
  if (nodeIds.size === 0 && edgeIds.size === 0) return graph
  // A loop's body goes with it (a body node without its loop would have no place on the canvas).
  if (graph.nodes.some((n) => n.parentId !== undefined && nodeIds.has(n.parentId))) {
    const all = new Set(nodeIds)
    for (let grew = true; grew;) {
      grew = false
      for (const n of graph.nodes)
        if (n.parentId !== undefined && all.has(n.parentId) && !all.has(n.id))
          grew = all.add(n.id) !== undefined
    }
    nodeIds = all
  }
  const nodes = nodeIds.size === 0 ? graph.nodes : graph.nodes.filter((n) => !nodeIds.has(n.id))
  const edges = graph.edges.filter(
    (e) => !edgeIds.has(e.id) && !nodeIds.has(e.source) && !nodeIds.has(e.target),
  )
  return {
    nodes: nodes.length === graph.nodes.length ? graph.nodes : nodes,
    edges: edges.length === graph.edges.length ? graph.edges : edges,
  }
}

const REF_PATTERN = /\{\{(\s*)([A-Za-z0-9_-]+)(?=\s*(?:[.|[]|\}\}))/g

/** Rewrites `{{oldId...}}` references inside every string of `value` to the new ids. */
export function remapRefs<T>(value: T, idMap: ReadonlyMap<string, string>): T {
  if (idMap.size === 0) return value
  const visit = (v: unknown): unknown => {
    if (typeof v === 'string') {
      return v.includes('{{')
        ? v.replace(REF_PATTERN, (whole, space: string, id: string) => {
            const mapped = idMap.get(id)
            return mapped === undefined ? whole : `{{${space}${mapped}`
          })
        : v
    }
    if (Array.isArray(v)) return v.map(visit)
    if (v !== null && typeof v === 'object') {
      // fromEntries defines own properties: a `__proto__` key stays a key, not a prototype.
      return Object.fromEntries(Object.entries(v).map(([k, inner]) => [k, visit(inner)]))
    }
    return v
  }
  return visit(value) as T
}

export interface CloneResult {
  nodes: FlowNode[]
  edges: FlowEdge[]
  /** Old id -> new id. */
  idMap: Map<string, string>
}

/**
 * Copies `nodes` into a graph whose ids are `takenNodeIds`: fresh ids, positions moved by
 * `offset`, only edges whose two ends are both copied, and `{{ref}}`s between copied nodes
 * rewritten to the new ids (node tools of an Agent too, via `nodeId` strings).
 */
export function cloneNodes(
  nodes: readonly FlowNode[],
  edges: readonly FlowEdge[],
  takenNodeIds: Iterable<string>,
  takenEdgeIds: Iterable<string>,
  offset: XY,
): CloneResult {
  const taken = new Set(takenNodeIds)
  const idMap = new Map<string, string>()
  for (const node of nodes) {
    if (!idMap.has(node.id)) idMap.set(node.id, nextNodeId(node.type, taken))
  }
  const copies = nodes.map((node): FlowNode => {
    const copy: FlowNode = {
      id: idMap.get(node.id) ?? node.id,
      type: node.type,
      position: { x: node.position.x + offset.x, y: node.position.y + offset.y },
      data: { label: node.data.label, config: remapNodeIdFields(remapRefs(node.data.config, idMap), idMap) },
    }
    if (node.size) copy.size = { ...node.size }
    return copy
  })
  const edgeTaken = new Set(takenEdgeIds)
  const edgeCopies: FlowEdge[] = []
  for (const edge of edges) {
    const source = idMap.get(edge.source)
    const target = idMap.get(edge.target)
    if (source === undefined || target === undefined) continue
    edgeCopies.push({
      id: nextEdgeId(source, target, edgeTaken),
      source,
      target,
      sourceHandle: edge.sourceHandle ?? null,
      targetHandle: edge.targetHandle ?? null,
    })
  }
  return { nodes: copies, edges: edgeCopies, idMap }
}

/** Agent tools of kind `node` name another node by id; copied together, they follow it. */
function remapNodeIdFields(
  config: Record<string, unknown>,
  idMap: ReadonlyMap<string, string>,
): Record<string, unknown> {
  const tools = config['tools']
  if (!Array.isArray(tools)) return config
  const mapped = tools.map((tool: unknown) => {
    if (tool === null || typeof tool !== 'object') return tool
    const nodeId = (tool as Record<string, unknown>)['nodeId']
    if (typeof nodeId !== 'string') return tool
    const next = idMap.get(nodeId)
    return next === undefined ? tool : { ...tool, nodeId: next }
  })
  return { ...config, tools: mapped }
}

/** Moves nodes to new positions; untouched nodes keep their identity (React Flow skips them). */
export function moveNodes(nodes: FlowNode[], positions: ReadonlyMap<string, XY>): FlowNode[] {
  let changed = false
  const next = nodes.map((node) => {
    const p = positions.get(node.id)
    if (p === undefined || (p.x === node.position.x && p.y === node.position.y)) return node
    changed = true
    return { ...node, position: { x: p.x, y: p.y } }
  })
  return changed ? next : nodes
}

/** Replaces one node through `update`; the same array when the node is missing or unchanged. */
export function updateNode(nodes: FlowNode[], id: string, update: (node: FlowNode) => FlowNode): FlowNode[] {
  const index = nodes.findIndex((n) => n.id === id)
  if (index < 0) return nodes
  const current = nodes[index] as FlowNode
  const next = update(current)
  if (next === current) return nodes
  const copy = nodes.slice()
  copy[index] = next
  return copy
}
