/**
 * What "Connect to…" offers for a source node: every other node's input port, in canvas order,
 * once per output port of the source (a condition offers each case), each with the reason the
 * store would refuse it (a loop, already connected), so the list can say so before a choice.
 * The handle ids are those the node body draws (PortHandles), so a keyboard connection is the
 * same edge a drag makes.
 */
import type { FlowEdge, FlowNode, PortSpec } from '../../engine/index.ts'
import type { NodeLike } from '../../nodes/catalog.ts'
import { nodeCatalog } from '../../nodes/registry.ts'
import { checkConnection, type ConnectRefusal } from '../../store/connect.ts'

export interface ConnectTarget {
  nodeId: string
  /** The target's input port. */
  handle: string
  /** The source's output port the edge leaves from. */
  sourceHandle: string
  /** That output port, when the source has more than one (its label is worth showing). */
  sourcePort?: PortSpec
  label: string
  type: string
  refusal: ConnectRefusal | null
}

/** Whether the node has an output to connect from. */
export function canConnectFrom(node: NodeLike | undefined): boolean {
  return node !== undefined && nodeCatalog.ports(node).outputs.length > 0
}

export function connectTargets(
  sourceId: string,
  nodes: readonly FlowNode[],
  edges: readonly FlowEdge[],
): ConnectTarget[] {
  const ids = new Set(nodes.map((n) => n.id))
  const source = nodes.find((n) => n.id === sourceId)
  const outputs = source ? nodeCatalog.ports(source).outputs : []
  const out: ConnectTarget[] = []
  for (const port of outputs) {
    for (const n of nodes) {
      if (n.id === sourceId) continue
      for (const input of nodeCatalog.ports(n).inputs) {
        const request = { source: sourceId, sourceHandle: port.id, target: n.id, targetHandle: input.id }
        out.push({
          nodeId: n.id,
          handle: input.id,
          sourceHandle: port.id,
          ...(outputs.length > 1 ? { sourcePort: port } : {}),
          label: n.data.label,
          type: n.type,
          refusal: checkConnection(ids, edges, request),
        })
      }
    }
  }
  return out
}
