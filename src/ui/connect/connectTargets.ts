/**
 * What "Connect to…" offers for a source node: every other node's input handle, in canvas
 * order, each with the reason the store would refuse it (a loop, already connected), so the
 * list can say so before a choice. The handle ids are those the node body draws (FlowNodeView:
 * `out` and `in`), so a keyboard connection is the same edge a drag makes.
 */
import type { FlowEdge, FlowNode } from '../../engine/index.ts'
import { getNodeDefinition } from '../../nodes/registry.ts'
import { checkConnection, type ConnectRefusal } from '../../store/connect.ts'

export const SOURCE_HANDLE = 'out'
export const TARGET_HANDLE = 'in'

export interface ConnectTarget {
  nodeId: string
  handle: string
  label: string
  type: string
  refusal: ConnectRefusal | null
}

/** A node type's handles; an unknown type keeps both, as its body does. */
function handlesOf(type: string): { input: boolean; output: boolean } {
  return getNodeDefinition(type)?.handles ?? { input: true, output: true }
}

/** Whether the node has an output to connect from. */
export function canConnectFrom(node: FlowNode | undefined): boolean {
  return node !== undefined && handlesOf(node.type).output
}

export function connectTargets(
  sourceId: string,
  nodes: readonly FlowNode[],
  edges: readonly FlowEdge[],
): ConnectTarget[] {
  const ids = new Set(nodes.map((n) => n.id))
  return nodes
    .filter((n) => n.id !== sourceId && handlesOf(n.type).input)
    .map((n) => ({
      nodeId: n.id,
      handle: TARGET_HANDLE,
      label: n.data.label,
      type: n.type,
      refusal: checkConnection(ids, edges, { source: sourceId, target: n.id }),
    }))
}
