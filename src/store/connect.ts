/**
 * Whether a new edge may join two nodes: self-loops, duplicates and cycles are refused. A
 * duplicate is the same source port to the same target port: two edges may join the same pair
 * of nodes when their handles differ (two cases of a condition leading to one node).
 */
import { edgeKey, wouldCreateCycle, type FlowEdge } from '../engine/index.ts'

export interface ConnectionRequest {
  source: string
  target: string
  sourceHandle?: string | null
  targetHandle?: string | null
}

/** READ_ONLY: a past run is open, the flow is a view. */
export type ConnectRefusal = 'SELF_LOOP' | 'CYCLE' | 'DUPLICATE' | 'MISSING_NODE' | 'READ_ONLY'

export type ConnectResult = { ok: true; edgeId: string } | { ok: false; reason: ConnectRefusal }

export function checkConnection(
  nodeIds: ReadonlySet<string>,
  edges: readonly FlowEdge[],
  c: ConnectionRequest,
): ConnectRefusal | null {
  if (c.source === c.target) return 'SELF_LOOP'
  if (!nodeIds.has(c.source) || !nodeIds.has(c.target)) return 'MISSING_NODE'
  const key = edgeKey(c)
  if (edges.some((e) => edgeKey(e) === key)) return 'DUPLICATE'
  const nodes = [...nodeIds].map((id) => ({ id }))
  if (wouldCreateCycle({ nodes, edges }, c.source, c.target)) return 'CYCLE'
  return null
}
