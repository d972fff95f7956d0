/**
 * Loop bodies of a PatchCat import: which converted nodes sit inside a converted loop.
 */
import type { FlowNode } from '../engine/index.ts'
import { keyedNote, type ImportNotes } from './patchcatFlow.ts'

/**
 * Nodes PatchCat (React Flow) placed inside a loop (`parentId`, or the older `parentNode`) become
 * its body: Wardflow's `parentId`. A loop without a body gets a note: PatchCat's loop only
 * listed its items.
 */
export function loopBodies(
  nodesIn: ReadonlyArray<Record<string, unknown> & { id: string }>,
  ids: readonly string[],
  nodes: readonly FlowNode[],
  { idMap, notes }: { idMap: ReadonlyMap<string, string> } & ImportNotes,
): FlowNode[] {
  const loops = new Set(nodes.filter((n) => n.type === 'loop').map((n) => n.id))
  const withBody = new Set<string>()
  const out = nodes.map((node, i) => {
    const raw = nodesIn[i]
    const parentRaw = raw?.parentId ?? raw?.parentNode
    if (typeof parentRaw !== 'string') return node
    const parent = idMap.get(parentRaw)
    if (parent === undefined || !loops.has(parent)) {
      const [at, container] = [ids[i] ?? node.id, JSON.stringify(parentRaw)]
      notes.add(
        `${at}: it sat inside ${container}, which is not a loop here; it was placed on the canvas itself.`,
        'issues:importNote.patchcat.notInLoop',
        { node: at, parent: container },
      )
      return node
    }
    withBody.add(parent)
    return { ...node, parentId: parent }
  })
  for (const loop of loops)
    if (!withBody.has(loop))
      keyedNote(
        { notes },
        `${loop}: PatchCat's loop has no steps inside it; drag the steps to repeat for each item into the loop.`,
        'loopNoBody',
        { node: loop },
      )
  return out
}
