/**
 * How much room a node's console has: a console opens below its node's body, and must never
 * cover another node. Nodes placed by hand can sit closer than the console's box (auto-layout
 * reserves the full box, `canvas/layout.ts`), so the box takes the room there is, and docks when
 * that is too little to read (NODE_CONSOLE_MIN_BOX_PX). The flow is not changed for it: moving
 * a person's nodes out of the way during a run would rearrange, and save, what they placed.
 */
import {
  NODE_CONSOLE_BOX_PX,
  NODE_CONSOLE_CLEARANCE_PX,
  NODE_CONSOLE_MIN_BOX_PX,
  NODE_CONSOLE_TOGGLE_PX,
} from '../../defaults.ts'
import { ownValue, type FlowNode } from '../../engine/index.ts'
import type { Size } from '../../store/flowStore.ts'
import { useFlowStore } from '../../store/flowStore.ts'
import { nominalSize } from '../canvas/newNode.ts'

const byIdCache = new WeakMap<readonly FlowNode[], Map<string, FlowNode>>()

function byId(nodes: readonly FlowNode[]): Map<string, FlowNode> {
  let map = byIdCache.get(nodes)
  if (!map) {
    map = new Map(nodes.map((n) => [n.id, n]))
    byIdCache.set(nodes, map)
  }
  return map
}

function widthOf(node: FlowNode, measured: Readonly<Record<string, Size>>): number {
  return (node.size ?? ownValue(measured, node.id) ?? nominalSize(node.type)).width
}

/**
 * The distance, in flow pixels, from the top of node `id` down to the top of the nearest other
 * node that is level with or below it and shares some of its width; Infinity when none does.
 * A node whose top is above this one's is not counted: its body already overlaps this node
 * (placed so by hand), or it lies above it, where its own console takes the room between them.
 * Only top edges and widths are read, never heights, which a console changes.
 */
export function roomBelowPx(
  nodes: readonly FlowNode[],
  measured: Readonly<Record<string, Size>>,
  id: string,
): number {
  const self = byId(nodes).get(id)
  if (!self) return Infinity
  const left = self.position.x
  const right = left + widthOf(self, measured)
  const top = self.position.y
  let room = Infinity
  for (const other of nodes) {
    if (other === self) continue
    const y = other.position.y
    if (y < top || y - top >= room) continue
    const x = other.position.x
    if (x < right && left < x + widthOf(other, measured)) room = y - top
  }
  return room
}

/**
 * The console box's height for a node whose console starts `headPx` below its top with `roomPx`
 * below that top (roomBelowPx), or null when there is too little room: the console docks.
 */
export function consoleBoxPx(roomPx: number, headPx: number): number | null {
  const fits = roomPx - headPx - NODE_CONSOLE_TOGGLE_PX - NODE_CONSOLE_CLEARANCE_PX
  if (fits >= NODE_CONSOLE_BOX_PX) return NODE_CONSOLE_BOX_PX
  return fits >= NODE_CONSOLE_MIN_BOX_PX ? Math.floor(fits) : null
}

/**
 * roomBelowPx of a node, followed as nodes move; Infinity while `watch` is false (a node with no
 * console to place reads nothing, so dragging one node does not run this for every node).
 */
export function useRoomBelowPx(id: string, watch: boolean): number {
  return useFlowStore((s) => (watch ? roomBelowPx(s.nodes, s.measured, id) : Infinity))
}
