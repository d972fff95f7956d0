/**
 * Turns React Flow's change lists into store patches. Positions, sizes and removals touch the
 * document; selection and measured sizes do not (they never enter the undo history).
 */
import type { EdgeChange, NodeChange } from '@xyflow/react'
import { keyedRecord, ownValue, type FlowNode, type XY } from '../engine/index.ts'
import type { FlowState, Size } from './flowStore.ts'
import { moveNodes, removeElements } from './graphOps.ts'

export type NodeChangeLike = NodeChange
export type EdgeChangeLike = EdgeChange

/** Whether a batch starts or ends a drag or a resize: each gesture is one undo step. */
export function gestureOf(changes: readonly NodeChangeLike[]): { begins: boolean; ends: boolean } {
  let begins = false
  let ends = false
  for (const c of changes) {
    if (c.type === 'position' && c.dragging !== undefined) {
      if (c.dragging) begins = true
      else ends = true
    } else if (c.type === 'dimensions' && c.resizing !== undefined) {
      if (c.resizing) begins = true
      else ends = true
    }
  }
  return { begins, ends }
}

function toggled(
  current: ReadonlySet<string>,
  changes: ReadonlyArray<{ id: string; selected: boolean }>,
): ReadonlySet<string> {
  let next: Set<string> | null = null
  for (const c of changes) {
    if (current.has(c.id) === c.selected) continue
    next ??= new Set(current)
    if (c.selected) next.add(c.id)
    else next.delete(c.id)
  }
  return next ?? current
}

export function applyNodeChangesToState(
  state: FlowState,
  changes: readonly NodeChangeLike[],
): Partial<FlowState> | null {
  const positions = new Map<string, XY>()
  const sizes = new Map<string, Size>()
  const measured = keyedRecord<Size>()
  let measuredChanged = false
  const selects: Array<{ id: string; selected: boolean }> = []
  const removed = new Set<string>()
  for (const c of changes) {
    if (c.type === 'position' && c.position) positions.set(c.id, c.position)
    else if (c.type === 'dimensions' && c.dimensions) {
      const prev = ownValue(state.measured, c.id)
      if (!prev || prev.width !== c.dimensions.width || prev.height !== c.dimensions.height) {
        measured[c.id] = { width: c.dimensions.width, height: c.dimensions.height }
        measuredChanged = true
      }
      if (c.resizing !== undefined || c.setAttributes) sizes.set(c.id, c.dimensions)
    } else if (c.type === 'select') selects.push(c)
    else if (c.type === 'remove') removed.add(c.id)
  }
  const patch: Partial<FlowState> = {}
  let nodes = moveNodes(state.nodes, positions)
  if (sizes.size > 0) nodes = resizeNodes(nodes, sizes)
  let edges = state.edges
  if (removed.size > 0) ({ nodes, edges } = removeElements({ nodes, edges }, removed, new Set()))
  if (nodes !== state.nodes) patch.nodes = nodes
  if (edges !== state.edges) patch.edges = edges
  if (measuredChanged) patch.measured = Object.assign(keyedRecord(state.measured), measured)
  const selected = toggled(state.selectedNodeIds, selects)
  if (selected !== state.selectedNodeIds) patch.selectedNodeIds = selected
  return Object.keys(patch).length === 0 ? null : patch
}

function resizeNodes(nodes: FlowNode[], sizes: ReadonlyMap<string, Size>): FlowNode[] {
  let changed = false
  const next = nodes.map((node) => {
    const size = sizes.get(node.id)
    if (
      size === undefined ||
      (node.size && node.size.width === size.width && node.size.height === size.height)
    )
      return node
    changed = true
    return { ...node, size: { width: Math.round(size.width), height: Math.round(size.height) } }
  })
  return changed ? next : nodes
}

export function applyEdgeChangesToState(
  state: FlowState,
  changes: readonly EdgeChangeLike[],
): Partial<FlowState> | null {
  const selects: Array<{ id: string; selected: boolean }> = []
  const removed = new Set<string>()
  for (const c of changes) {
    if (c.type === 'select') selects.push(c)
    else if (c.type === 'remove') removed.add(c.id)
  }
  const patch: Partial<FlowState> = {}
  if (removed.size > 0) {
    const next = removeElements(state, new Set(), removed)
    if (next.edges !== state.edges) patch.edges = next.edges
  }
  const selected = toggled(state.selectedEdgeIds, selects)
  if (selected !== state.selectedEdgeIds) patch.selectedEdgeIds = selected
  return Object.keys(patch).length === 0 ? null : patch
}
