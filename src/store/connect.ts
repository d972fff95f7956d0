/** Whether a new edge may join two nodes: self-loops, duplicates and cycles are refused. */
import type { FlowEdge } from '../engine/index.ts'

export interface ConnectionRequest {
  source: string
  target: string
  sourceHandle?: string | null
  targetHandle?: string | null
}

export type ConnectRefusal = 'SELF_LOOP' | 'CYCLE' | 'DUPLICATE' | 'MISSING_NODE'

export type ConnectResult = { ok: true; edgeId: string } | { ok: false; reason: ConnectRefusal }

/** True when `target` already reaches `source`, so source -> target would close a loop. */
export function reaches(edges: readonly FlowEdge[], from: string, to: string): boolean {
  const out = new Map<string, string[]>()
  for (const e of edges) {
    const list = out.get(e.source)
    if (list) list.push(e.target)
    else out.set(e.source, [e.target])
  }
  const seen = new Set<string>([from])
  const stack = [from]
  while (stack.length > 0) {
    const id = stack.pop() as string
    if (id === to) return true
    for (const next of out.get(id) ?? []) {
      if (!seen.has(next)) {
        seen.add(next)
        stack.push(next)
      }
    }
  }
  return false
}

export function checkConnection(
  nodeIds: ReadonlySet<string>,
  edges: readonly FlowEdge[],
  c: ConnectionRequest,
): ConnectRefusal | null {
  if (c.source === c.target) return 'SELF_LOOP'
  if (!nodeIds.has(c.source) || !nodeIds.has(c.target)) return 'MISSING_NODE'
  if (edges.some((e) => e.source === c.source && e.target === c.target)) return 'DUPLICATE'
  if (reaches(edges, c.target, c.source)) return 'CYCLE'
  return null
}
