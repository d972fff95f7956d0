/**
 * The path a run took, read from the run's node states (so a past run replayed from its events
 * shows the same picture as the live one): which edges carried a value, and why a node that was
 * not taken was not (the condition upstream and the case it chose instead).
 */
import { ownValue, type FlowEdge, type FlowNode } from '../engine/index.ts'
import { getNodeDefinition } from '../nodes/registry.ts'
import type { NodeRunState } from './runStoreReducer.ts'

type RunNodes = Readonly<Record<string, NodeRunState>>

interface GraphIndex {
  byId: ReadonlyMap<string, FlowNode>
  /** Each node's incoming edges, in the order of `edges`. */
  into: ReadonlyMap<string, readonly FlowEdge[]>
}

/**
 * The index of a flow's nodes and edges, built once per pair of arrays (the store replaces them
 * on every change, never mutates them). A run of a 2,000-node flow asks for 400 not-taken
 * reasons in one batch; building a map of every node and scanning every edge for each of them
 * was a task of ~110 ms on the page (bench: the control-flow run).
 */
const indexes = new WeakMap<readonly FlowEdge[], { nodes: readonly FlowNode[]; index: GraphIndex }>()

function graphIndex(nodes: readonly FlowNode[], edges: readonly FlowEdge[]): GraphIndex {
  const hit = indexes.get(edges)
  if (hit && hit.nodes === nodes) return hit.index
  const into = new Map<string, FlowEdge[]>()
  for (const edge of edges) {
    const list = into.get(edge.target)
    if (list) list.push(edge)
    else into.set(edge.target, [edge])
  }
  const index = { byId: new Map(nodes.map((n) => [n.id, n])), into }
  indexes.set(edges, { nodes, index })
  return index
}

/** The handles `node`'s finished run carried a value on; undefined: all of them. */
function takenHandles(
  node: FlowNode | undefined,
  state: NodeRunState | undefined,
): readonly string[] | undefined {
  if (!node || !state?.output) return undefined
  return getNodeDefinition(node.type)?.takenOutputs?.(state.output)
}

/** Whether `edge` carried a value in the run: its source finished and chose the edge's handle. */
export function edgeTaken(edge: FlowEdge, byId: ReadonlyMap<string, FlowNode>, runNodes: RunNodes): boolean {
  const state = ownValue(runNodes, edge.source)
  if (state?.status !== 'success') return false
  const taken = takenHandles(byId.get(edge.source), state)
  if (taken === undefined) return true
  return edge.sourceHandle != null && taken.includes(edge.sourceHandle)
}

/** Ids of the edges that carried a value; empty when nothing ran. */
export function takenEdgeIds(
  nodes: readonly FlowNode[],
  edges: readonly FlowEdge[],
  runNodes: RunNodes,
): Set<string> {
  const { byId } = graphIndex(nodes, edges)
  const out = new Set<string>()
  for (const edge of edges) if (edgeTaken(edge, byId, runNodes)) out.add(edge.id)
  return out
}

/** The node that chose another branch than the one leading to `nodeId`, and what it chose. */
export interface NotTakenCause {
  nodeId: string
  /** The handle it took (a case id, or `else`). */
  chose: string
}

/** Walks up from a not-taken node to the first node upstream that chose another handle. */
export function notTakenCause(
  nodeId: string,
  nodes: readonly FlowNode[],
  edges: readonly FlowEdge[],
  runNodes: RunNodes,
): NotTakenCause | undefined {
  const { byId, into } = graphIndex(nodes, edges)
  const seen = new Set<string>([nodeId])
  const queue = [nodeId]
  for (let next = 0; next < queue.length; next += 1) {
    const current = queue[next] as string
    for (const edge of into.get(current) ?? []) {
      if (seen.has(edge.source)) continue
      const state = ownValue(runNodes, edge.source)
      const taken = takenHandles(byId.get(edge.source), state)
      if (state?.status === 'success' && taken !== undefined && !edgeTaken(edge, byId, runNodes))
        return { nodeId: edge.source, chose: taken[0] ?? '' }
      if (state?.status === 'skipped') {
        seen.add(edge.source)
        queue.push(edge.source)
      }
    }
  }
  return undefined
}
