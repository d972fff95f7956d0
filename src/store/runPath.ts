/**
 * The path a run took, read from the run's node states (so a past run replayed from its events
 * shows the same picture as the live one): which edges carried a value, and why a node that was
 * not taken was not (the condition upstream and the case it chose instead).
 */
import { ownValue, type FlowEdge, type FlowNode } from '../engine/index.ts'
import { getNodeDefinition } from '../nodes/registry.ts'
import type { NodeRunState } from './runStoreReducer.ts'

type RunNodes = Readonly<Record<string, NodeRunState>>

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
  const byId = new Map(nodes.map((n) => [n.id, n]))
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
  const byId = new Map(nodes.map((n) => [n.id, n]))
  const seen = new Set<string>([nodeId])
  const queue = [nodeId]
  while (queue.length > 0) {
    const current = queue.shift() as string
    for (const edge of edges) {
      if (edge.target !== current || seen.has(edge.source)) continue
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
