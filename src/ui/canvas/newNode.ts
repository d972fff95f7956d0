/** Builds a fresh node of a palette type: its definition's default config and translated name. */
import type { TFunction } from 'i18next'
import {
  NODE_HEIGHT_PX,
  NODE_WIDTH_PX,
  NOTE_DEFAULT_HEIGHT_PX,
  NOTE_DEFAULT_WIDTH_PX,
  PASTE_OFFSET_PX,
  SNAP_GRID_PX,
} from '../../defaults.ts'
import type { FlowNode, XY } from '../../engine/index.ts'
import { getNodeDefinition } from '../../nodes/registry.ts'
import type { NewNode } from '../../store/flowActions.ts'
import { NOTE_TYPE } from '../../store/rfAdapter.ts'

export function nominalSize(type: string): { width: number; height: number } {
  return type === NOTE_TYPE
    ? { width: NOTE_DEFAULT_WIDTH_PX, height: NOTE_DEFAULT_HEIGHT_PX }
    : { width: NODE_WIDTH_PX, height: NODE_HEIGHT_PX }
}

export function snap(p: XY, enabled: boolean): XY {
  if (!enabled) return p
  return {
    x: Math.round(p.x / SNAP_GRID_PX) * SNAP_GRID_PX,
    y: Math.round(p.y / SNAP_GRID_PX) * SNAP_GRID_PX,
  }
}

/** A node of `type` whose centre is at `center` (flow coordinates); null for an unknown type. */
export function newNodeAt(type: string, center: XY, t: TFunction, snapToGrid: boolean): NewNode | null {
  const definition = getNodeDefinition(type)
  if (!definition) return null
  const size = nominalSize(type)
  const node: NewNode = {
    type,
    position: snap({ x: center.x - size.width / 2, y: center.y - size.height / 2 }, snapToGrid),
    label: t(definition.labelKey),
    config: definition.defaultConfig() as Record<string, unknown>,
  }
  if (type === NOTE_TYPE) node.size = size
  return node
}

/** Moves `position` along the diagonal until no node sits exactly there (repeated clicks fan out). */
export function freeSpot(position: XY, nodes: readonly FlowNode[]): XY {
  const taken = new Set(nodes.map((n) => `${Math.round(n.position.x)}:${Math.round(n.position.y)}`))
  let p = position
  for (let i = 0; i < nodes.length && taken.has(`${Math.round(p.x)}:${Math.round(p.y)}`); i += 1) {
    p = { x: p.x + PASTE_OFFSET_PX, y: p.y + PASTE_OFFSET_PX }
  }
  return p
}
