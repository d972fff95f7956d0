/** Whether a new edge may join two nodes: self-loops, duplicates and cycles are refused. */
import { wouldCreateCycle, type FlowEdge } from '../engine/index.ts'

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
  if (edges.some((e) => e.source === c.source && e.target === c.target)) return 'DUPLICATE'
  const nodes = [...nodeIds].map((id) => ({ id }))
  if (wouldCreateCycle({ nodes, edges }, c.source, c.target)) return 'CYCLE'
  return null
}
