/**
 * Auto-layout, left to right, with dagre. dagre is imported on demand so it stays out of the
 * first-paint bundle. Returns top-left positions; the caller applies them as one undo step.
 */
import {
  LAYOUT_NODE_SEP_PX,
  LAYOUT_RANK_SEP_PX,
  NODE_BODY_HEIGHT_PX,
  NODE_CONSOLE_BOX_PX,
  NODE_CONSOLE_TOGGLE_PX,
} from '../../defaults.ts'
import { isAnnotation } from '../../store/rfAdapter.ts'
import { ownValue, type FlowEdge, type FlowNode, type XY } from '../../engine/index.ts'
import type { Size } from '../../store/flowStore.ts'
import { nominalSize } from './newNode.ts'

/**
 * The room a node takes in the layout: a node that runs gets its console's fixed box below its
 * body (reserved whether or not a run has filled it yet), so no console covers the node under it.
 */
function layoutSize(node: FlowNode, measured: Readonly<Record<string, Size>>): Size {
  const size = node.size ?? ownValue(measured, node.id) ?? nominalSize(node.type)
  if (isAnnotation(node.type) || node.size) return size
  const withConsole = NODE_BODY_HEIGHT_PX + NODE_CONSOLE_TOGGLE_PX + NODE_CONSOLE_BOX_PX
  return { width: size.width, height: Math.max(size.height, withConsole) }
}

export async function layoutLeftToRight(
  nodes: readonly FlowNode[],
  edges: readonly FlowEdge[],
  measured: Readonly<Record<string, Size>>,
): Promise<Map<string, XY>> {
  const { default: dagre } = await import('@dagrejs/dagre')
  const graph = new dagre.graphlib.Graph()
  graph.setGraph({
    rankdir: 'LR',
    ranksep: LAYOUT_RANK_SEP_PX,
    nodesep: LAYOUT_NODE_SEP_PX,
    marginx: 0,
    marginy: 0,
  })
  graph.setDefaultEdgeLabel(() => ({}))
  const sizes = new Map<string, Size>()
  for (const node of nodes) {
    const size = layoutSize(node, measured)
    sizes.set(node.id, size)
    graph.setNode(node.id, { width: size.width, height: size.height })
  }
  for (const edge of edges) {
    if (sizes.has(edge.source) && sizes.has(edge.target)) graph.setEdge(edge.source, edge.target)
  }
  dagre.layout(graph)
  // Keep the layout where the flow already was, so the view does not jump far away.
  const minX = Math.min(...nodes.map((n) => n.position.x))
  const minY = Math.min(...nodes.map((n) => n.position.y))
  let laidMinX = Infinity
  let laidMinY = Infinity
  const centres = new Map<string, XY>()
  for (const node of nodes) {
    const laid = graph.node(node.id) as { x: number; y: number } | undefined
    const size = sizes.get(node.id)
    if (!laid || !size) continue
    const topLeft = { x: laid.x - size.width / 2, y: laid.y - size.height / 2 }
    centres.set(node.id, topLeft)
    laidMinX = Math.min(laidMinX, topLeft.x)
    laidMinY = Math.min(laidMinY, topLeft.y)
  }
  const out = new Map<string, XY>()
  for (const [id, p] of centres)
    out.set(id, { x: Math.round(p.x - laidMinX + minX), y: Math.round(p.y - laidMinY + minY) })
  return out
}
