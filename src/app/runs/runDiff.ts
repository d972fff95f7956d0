/**
 * What differs between the flow a past run ran (its record's snapshot) and the live flow (issue
 * 19, item 4): nodes added, removed, and changed (type, label, config fields, pin), connections
 * added and removed. Config values compare as canonical JSON, so key order never counts.
 */
import { canonicalText, type FlowDocument, type FlowEdge, type FlowNode } from '../../engine/run.ts'

export interface NodeRef {
  id: string
  type: string
  label: string
}

export interface ChangedNode extends NodeRef {
  /** What changed: `type`, `label`, `pinned`, `parent`, or `config.<field>` per config field. */
  changes: string[]
}

export interface FlowDiff {
  added: NodeRef[]
  removed: NodeRef[]
  changed: ChangedNode[]
  edgesAdded: number
  edgesRemoved: number
}

const refOf = (node: FlowNode): NodeRef => ({ id: node.id, type: node.type, label: node.data.label })

function configChanges(past: FlowNode, live: FlowNode): string[] {
  const a = (past.data.config ?? {}) as Record<string, unknown>
  const b = (live.data.config ?? {}) as Record<string, unknown>
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()
  return keys.filter((k) => canonicalText(a[k]) !== canonicalText(b[k])).map((k) => `config.${k}`)
}

function nodeChanges(past: FlowNode, live: FlowNode): string[] {
  const changes: string[] = []
  if (past.type !== live.type) changes.push('type')
  if (past.data.label !== live.data.label) changes.push('label')
  if ((past.parentId ?? '') !== (live.parentId ?? '')) changes.push('parent')
  if (canonicalText(past.pinned ?? null) !== canonicalText(live.pinned ?? null)) changes.push('pinned')
  return [...changes, ...configChanges(past, live)]
}

const edgeKey = (e: FlowEdge): string =>
  JSON.stringify([e.source, e.sourceHandle ?? '', e.target, e.targetHandle ?? ''])

/** The differences from `past` to `live`, in the live flow's node order (removed: the past's). */
export function diffFlows(
  past: Pick<FlowDocument, 'nodes' | 'edges'>,
  live: Pick<FlowDocument, 'nodes' | 'edges'>,
): FlowDiff {
  const before = new Map(past.nodes.map((n) => [n.id, n]))
  const after = new Map(live.nodes.map((n) => [n.id, n]))
  const added: NodeRef[] = []
  const changed: ChangedNode[] = []
  for (const node of live.nodes) {
    const old = before.get(node.id)
    if (!old) {
      added.push(refOf(node))
      continue
    }
    const changes = nodeChanges(old, node)
    if (changes.length > 0) changed.push({ ...refOf(node), changes })
  }
  const removed = past.nodes.filter((n) => !after.has(n.id)).map(refOf)
  const oldEdges = new Set(past.edges.map(edgeKey))
  const newEdges = new Set(live.edges.map(edgeKey))
  return {
    added,
    removed,
    changed,
    edgesAdded: [...newEdges].filter((k) => !oldEdges.has(k)).length,
    edgesRemoved: [...oldEdges].filter((k) => !newEdges.has(k)).length,
  }
}

/** True when the two flows are the same as far as a run can tell. */
export function isSameFlow(diff: FlowDiff): boolean {
  return (
    diff.added.length === 0 &&
    diff.removed.length === 0 &&
    diff.changed.length === 0 &&
    diff.edgesAdded === 0 &&
    diff.edgesRemoved === 0
  )
}
