/**
 * Keeps edges on a node's output handles when a config edit changes its ports (a condition's
 * cases): a port renamed in place (same position, new id) takes its edges along; a port that is
 * gone drops its edges. Done inside the config edit, so it is the same undo step.
 */
import type { FlowEdge, PortSpec } from '../engine/index.ts'

/** Old id -> new id for ports renamed in place; null for ports removed. */
export function portChanges(
  before: readonly PortSpec[],
  after: readonly PortSpec[],
): ReadonlyMap<string, string | null> {
  const changes = new Map<string, string | null>()
  const afterIds = new Set(after.map((p) => p.id))
  const beforeIds = new Set(before.map((p) => p.id))
  const sameCount = before.length === after.length
  before.forEach((port, index) => {
    if (afterIds.has(port.id)) return
    const inPlace = after[index]
    // Same number of ports and a new id where this one was: the person renamed it.
    changes.set(port.id, sameCount && inPlace && !beforeIds.has(inPlace.id) ? inPlace.id : null)
  })
  return changes
}

/** `edges` with the edges leaving `nodeId` re-pointed or dropped; the same array when none changed. */
export function edgesAfterPortChange(
  edges: FlowEdge[],
  nodeId: string,
  before: readonly PortSpec[],
  after: readonly PortSpec[],
): FlowEdge[] {
  const changes = portChanges(before, after)
  if (changes.size === 0) return edges
  let changed = false
  const out: FlowEdge[] = []
  for (const edge of edges) {
    const handle = edge.source === nodeId ? edge.sourceHandle : null
    if (handle === null || handle === undefined || !changes.has(handle)) {
      out.push(edge)
      continue
    }
    changed = true
    const next = changes.get(handle)
    if (next) out.push({ ...edge, sourceHandle: next })
  }
  return changed ? out : edges
}
