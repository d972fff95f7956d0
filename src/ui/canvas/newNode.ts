/** Builds a fresh node of a palette type: its definition's default config and translated name. */
import type { TFunction } from 'i18next'
import { NODE_HEIGHT_PX, NODE_WIDTH_PX, PASTE_OFFSET_PX, SNAP_GRID_PX } from '../../defaults.ts'
import { ownValue, type FlowNode, type XY } from '../../engine/index.ts'
import { getNodeDefinition } from '../../nodes/registry.ts'
import type { NewNode } from '../../store/flowActions.ts'

export function nominalSize(type: string): { width: number; height: number } {
  return getNodeDefinition(type)?.defaultSize ?? { width: NODE_WIDTH_PX, height: NODE_HEIGHT_PX }
}

export function snap(p: XY, enabled: boolean): XY {
  if (!enabled) return p
  return {
    x: Math.round(p.x / SNAP_GRID_PX) * SNAP_GRID_PX,
    y: Math.round(p.y / SNAP_GRID_PX) * SNAP_GRID_PX,
  }
}

/** The default config with its readable texts (e.g. an Agent's system prompt) in the UI's language. */
function localizedDefaults(
  config: Record<string, unknown>,
  keys: Readonly<Record<string, string>> | undefined,
  t: TFunction,
): Record<string, unknown> {
  if (!keys) return config
  const out = { ...config }
  for (const [field, key] of Object.entries(keys)) {
    const fallback = out[field]
    if (typeof fallback === 'string') out[field] = t(key, { defaultValue: fallback })
  }
  return out
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
    config: localizedDefaults(
      definition.defaultConfig() as Record<string, unknown>,
      definition.defaultTextKeys,
      t,
    ),
  }
  // A node sized by hand (a note) starts with its size stored.
  if (definition.defaultSize) node.size = size
  return node
}

/** The box a node covers, from its stored, measured or nominal size. */
export function nodeBox(
  node: FlowNode,
  measured: Readonly<Record<string, { width: number; height: number }>>,
) {
  const size = node.size ?? ownValue(measured, node.id) ?? nominalSize(node.type)
  return { x: node.position.x, y: node.position.y, width: size.width, height: size.height }
}

/**
 * Moves a new node of `type` at `position` down the diagonal until it overlaps no other node,
 * so repeated clicks fan out instead of stacking. Bounded: a node is at most a few steps tall,
 * so a few steps per existing node always suffice to clear them all.
 */
export function freeSpot(
  position: XY,
  type: string,
  nodes: readonly FlowNode[],
  measured: Readonly<Record<string, { width: number; height: number }>> = {},
): XY {
  const size = nominalSize(type)
  const boxes = nodes.map((n) => nodeBox(n, measured))
  const overlaps = (p: XY): boolean =>
    boxes.some(
      (b) => p.x < b.x + b.width && p.x + size.width > b.x && p.y < b.y + b.height && p.y + size.height > b.y,
    )
  let p = position
  const maxSteps = (nodes.length + 1) * Math.ceil(NODE_HEIGHT_PX / PASTE_OFFSET_PX + 1)
  for (let i = 0; i < maxSteps && overlaps(p); i += 1) {
    p = { x: p.x + PASTE_OFFSET_PX, y: p.y + PASTE_OFFSET_PX }
  }
  return overlaps(p) ? position : p
}
