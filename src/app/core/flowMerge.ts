/**
 * Three-way merge of one flow edited in two tabs (issue 16, item 4): `base` is the stored
 * version both started from, `mine` this tab's document, `theirs` what the other tab saved.
 * Nodes and edges merge by id: a side that left an element as it was in `base` takes the other
 * side's version (changed, added or removed). An element both sides changed differently is a
 * conflict: this tab's version is kept and its id listed, so the caller can keep the other
 * version too (as a copy) and say so.
 *
 * Node ids are readable counters (`template_1`), so two tabs that each added a Template node
 * both called it `template_1`: a node both sides added under one id is not a conflict but two
 * nodes, and the other tab's gets a fresh id (its new edges follow).
 */
import type { FlowDocument, FlowEdge, FlowNode } from '../../engine/index.ts'
import { PASTE_OFFSET_PX } from '../../defaults.ts'
import { nextNodeId } from '../../store/ids.ts'

export interface MergeResult {
  doc: FlowDocument
  /** Ids of nodes and edges both tabs changed differently (this tab's version was kept). */
  conflicts: string[]
}

/** Flow documents are plain JSON, so equal text is equal content. */
function same(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b)
}

function byId<T extends { id: string }>(items: readonly T[]): Map<string, T> {
  return new Map(items.map((item) => [item.id, item]))
}

function mergeList<T extends { id: string }>(
  base: readonly T[],
  mine: readonly T[],
  theirs: readonly T[],
  conflicts: string[],
): T[] {
  const b = byId(base)
  const m = byId(mine)
  const t = byId(theirs)
  // This tab's order first, then what only the other tab has.
  const ids = [...m.keys(), ...[...t.keys()].filter((id) => !m.has(id))]
  const out: T[] = []
  for (const id of ids) {
    const inBase = b.get(id)
    const inMine = m.get(id)
    const inTheirs = t.get(id)
    let pick: T | undefined
    if (same(inMine, inTheirs) || same(inTheirs, inBase)) pick = inMine
    else if (same(inMine, inBase)) pick = inTheirs
    else {
      conflicts.push(id)
      pick = inMine ?? inTheirs
    }
    if (pick !== undefined) out.push(pick)
  }
  return out
}

/**
 * Gives the other tab's nodes that were added under an id this tab also added a fresh id (and
 * moves them by PASTE_OFFSET_PX, as two nodes added at the view's centre would hide each
 * other). Equal content is no proof of one node: two Template nodes dropped at the centre are
 * equal. Only independent additions are absent from the base both versions were edited from.
 */
function renameClashes(base: FlowDocument, mine: FlowDocument, theirs: FlowDocument): FlowDocument {
  const baseIds = new Set(base.nodes.map((n) => n.id))
  const mineIds = new Set(mine.nodes.map((n) => n.id))
  const taken = new Set([...baseIds, ...mineIds, ...theirs.nodes.map((n) => n.id)])
  const renamed = new Map<string, string>()
  for (const node of theirs.nodes) {
    if (!baseIds.has(node.id) && mineIds.has(node.id)) renamed.set(node.id, nextNodeId(node.type, taken))
  }
  if (renamed.size === 0) return theirs
  const to = (id: string): string => renamed.get(id) ?? id
  const moved = (n: FlowNode): FlowNode => ({
    ...n,
    id: to(n.id),
    position: { x: n.position.x + PASTE_OFFSET_PX, y: n.position.y + PASTE_OFFSET_PX },
  })
  return {
    ...theirs,
    nodes: theirs.nodes.map((n) => (renamed.has(n.id) ? moved(n) : n)),
    edges: theirs.edges.map((e) =>
      renamed.has(e.source) || renamed.has(e.target)
        ? { ...e, id: `${e.id}_${to(e.source)}_${to(e.target)}`, source: to(e.source), target: to(e.target) }
        : e,
    ),
  }
}

/** Metadata without the flow's settings, which the merge picks side by side (see mergeFlows). */
function withoutFlowSettings(metadata: FlowDocument['metadata']): FlowDocument['metadata'] {
  const { limits: _limits, reuseUnchanged: _reuse, ...rest } = metadata
  return rest
}

export function mergeFlows(base: FlowDocument, mine: FlowDocument, given: FlowDocument): MergeResult {
  const conflicts: string[] = []
  const theirs = renameClashes(base, mine, given)
  const nodes = mergeList<FlowNode>(base.nodes, mine.nodes, theirs.nodes, conflicts)
  const nodeIds = new Set(nodes.map((n) => n.id))
  // An edge whose end was removed on the other side goes with it.
  const edges = mergeList<FlowEdge>(base.edges, mine.edges, theirs.edges, conflicts).filter(
    (e) => nodeIds.has(e.source) && nodeIds.has(e.target),
  )
  const pickMeta = <K extends 'name' | 'description' | 'tags' | 'limits' | 'reuseUnchanged'>(
    key: K,
  ): FlowDocument['metadata'][K] =>
    same(mine.metadata[key], base.metadata[key]) ? theirs.metadata[key] : mine.metadata[key]
  // The flow's settings merge like its name: the side that changed one wins (absent stays absent).
  const limits = pickMeta('limits')
  const reuseUnchanged = pickMeta('reuseUnchanged')
  return {
    doc: {
      // The viewport is where this tab looks: not the other tab's business.
      viewport: mine.viewport,
      metadata: {
        ...withoutFlowSettings(mine.metadata),
        name: pickMeta('name'),
        description: pickMeta('description'),
        tags: pickMeta('tags'),
        ...(limits === undefined ? {} : { limits }),
        ...(reuseUnchanged === undefined ? {} : { reuseUnchanged }),
      },
      nodes,
      edges,
    },
    conflicts,
  }
}
