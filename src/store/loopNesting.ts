/**
 * Loop bodies on the canvas: a node dropped inside a container (a `loop`) joins its body
 * (`parentId`, position relative to the container); dragged out of it, it leaves. Containers
 * grow to hold their body. A container dropped into another joins its body too (a loop in a
 * loop), taking its own body along; it never joins its own body or one inside it. Edges that would
 * cross a body are removed, as import would refuse them (storage/restore/bodies.ts): a body is
 * wired to its own nodes only. Pure.
 */
import { LOOP_BODY_PADDING_PX, NODE_HEIGHT_PX, NODE_WIDTH_PX } from '../defaults.ts'
import type { FlowEdge, FlowNode, XY } from '../engine/index.ts'

type Size = { width: number; height: number }

export interface NestingParts {
  isContainer(node: FlowNode): boolean
  /** The size React Flow measured, else the node's own. */
  sizeOf(node: FlowNode): Size
}

/** The node's position on the canvas itself (positions of body nodes are relative). */
function absolute(node: FlowNode, byId: ReadonlyMap<string, FlowNode>, depth = 0): XY {
  const parent = node.parentId === undefined ? undefined : byId.get(node.parentId)
  if (!parent || depth > byId.size) return node.position
  const at = absolute(parent, byId, depth + 1)
  return { x: at.x + node.position.x, y: at.y + node.position.y }
}

export function defaultSizeOf(node: FlowNode): Size {
  return node.size ?? { width: NODE_WIDTH_PX, height: NODE_HEIGHT_PX }
}

/** The containers `node` sits in, innermost first (bounded: a refused cycle of parents ends). */
function ancestorsOf(node: FlowNode, byId: ReadonlyMap<string, FlowNode>): string[] {
  const out: string[] = []
  let at = node.parentId === undefined ? undefined : byId.get(node.parentId)
  while (at && out.length <= byId.size) {
    out.push(at.id)
    at = at.parentId === undefined ? undefined : byId.get(at.parentId)
  }
  return out
}

/** The document after dropping `ids`; null when nothing changes. */
export function nestOnDrop(
  nodes: readonly FlowNode[],
  edges: readonly FlowEdge[],
  ids: readonly string[],
  parts: NestingParts,
): { nodes: FlowNode[]; edges: FlowEdge[] } | null {
  const byId = new Map(nodes.map((n) => [n.id, n]))
  const moved = new Map<string, FlowNode>()
  for (const id of ids) {
    const node = byId.get(id)
    if (!node) continue
    // A node dragged together with a container it is in moves with it and keeps its place.
    if (ancestorsOf(node, byId).some((a) => ids.includes(a))) continue
    const at = absolute(node, byId)
    const size = parts.sizeOf(node)
    const center = { x: at.x + size.width / 2, y: at.y + size.height / 2 }
    // The innermost container under the node's centre; never itself nor one in its own body.
    let host: FlowNode | undefined
    let hostDepth = -1
    for (const c of nodes) {
      if (c.id === node.id || !parts.isContainer(c)) continue
      const chain = ancestorsOf(c, byId)
      if (chain.includes(node.id)) continue
      const cAt = absolute(c, byId)
      const cSize = parts.sizeOf(c)
      const inside =
        center.x >= cAt.x &&
        center.x <= cAt.x + cSize.width &&
        center.y >= cAt.y &&
        center.y <= cAt.y + cSize.height
      if (inside && chain.length >= hostDepth) {
        host = c
        hostDepth = chain.length
      }
    }
    if (host?.id === node.parentId) continue
    const { parentId: _old, ...rest } = node
    if (host === undefined) moved.set(id, { ...rest, position: at })
    else {
      const hostAt = absolute(host, byId)
      moved.set(id, { ...rest, parentId: host.id, position: { x: at.x - hostAt.x, y: at.y - hostAt.y } })
    }
  }
  let next = nodes.map((n) => moved.get(n.id) ?? n)
  next = grown(next, parts)
  if (moved.size === 0 && next.every((n, i) => n === nodes[i])) return null
  const after = new Map(next.map((n) => [n.id, n]))
  const kept = edges.filter((e) => after.get(e.source)?.parentId === after.get(e.target)?.parentId)
  return { nodes: next, edges: kept.length === edges.length ? [...edges] : kept }
}

/**
 * Each container at least as large as its body plus padding (it never shrinks by itself). A loop
 * in a loop that grew makes its outer one grow too: repeated until nothing changes, at most once
 * per level of nesting.
 */
function grown(nodes: FlowNode[], parts: NestingParts): FlowNode[] {
  let current = nodes
  for (let pass = 0; pass <= nodes.length; pass++) {
    const next = grownOnce(current, parts)
    if (next.every((n, i) => n === current[i])) return next
    current = next
  }
  return current
}

function grownOnce(nodes: FlowNode[], parts: NestingParts): FlowNode[] {
  return nodes.map((c) => {
    if (!parts.isContainer(c)) return c
    const size = parts.sizeOf(c)
    let { width, height } = size
    for (const n of nodes) {
      if (n.parentId !== c.id) continue
      const s = parts.sizeOf(n)
      width = Math.max(width, n.position.x + s.width + LOOP_BODY_PADDING_PX)
      height = Math.max(height, n.position.y + s.height + LOOP_BODY_PADDING_PX)
    }
    return width === size.width && height === size.height && c.size ? c : { ...c, size: { width, height } }
  })
}
