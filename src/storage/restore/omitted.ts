/**
 * Fills in what a hand-written workflow file may leave out, before the strict check of an import
 * (or of `npx wardflow run`): the flow's id and name, node positions and edge ids. Exported files
 * always carry them, but a person writing a flow by hand, or a tool generating one, need not care
 * where nodes sit on a canvas. Only absent fields are filled: a field that is present with the
 * wrong type is still reported, since that is more likely a mistake than an omission.
 */
import {
  FLOW_MAX_NODES,
  LAYOUT_NODE_SEP_PX,
  LAYOUT_RANK_SEP_PX,
  NODE_HEIGHT_PX,
  NODE_WIDTH_PX,
} from '../../defaults.ts'
import { buildGraph, topologicalSort } from '../../engine/index.ts'
import { NoteLog } from './noteLog.ts'
import { isPlainObject, type KeyedNote } from './schema.ts'

export const UNTITLED_FLOW_NAME = 'Untitled flow'
const OMITTED_FLOW_ID = 'flow'
/** Column and row pitch of nodes placed here: a node's width or two headers' height, plus a gap. */
const COLUMN_PX = NODE_WIDTH_PX + LAYOUT_RANK_SEP_PX
const ROW_PX = 2 * NODE_HEIGHT_PX + LAYOUT_NODE_SEP_PX

export interface FilledFile {
  file: Record<string, unknown>
  /** One sentence per kind of thing filled in, for the import's notes. */
  notes: string[]
  /** The catalogue keys of those sentences (the UI words them in its language). */
  keyedNotes: KeyedNote[]
}

/** Returns a copy of `file` with the omitted fields filled in; `file` itself is not changed. */
export function fillOmitted(file: Record<string, unknown>): FilledFile {
  const notes = new NoteLog()
  const out: Record<string, unknown> = { ...file }

  if (out.metadata === undefined || isPlainObject(out.metadata)) {
    const metadata: Record<string, unknown> = { ...(out.metadata as Record<string, unknown> | undefined) }
    if (metadata.id === undefined) metadata.id = OMITTED_FLOW_ID
    if (metadata.name === undefined) {
      metadata.name = UNTITLED_FLOW_NAME
      notes.add(
        `The file gives the flow no name; it is called "${UNTITLED_FLOW_NAME}".`,
        'issues:importNote.restore.noName',
        {
          name: UNTITLED_FLOW_NAME,
        },
      )
    }
    out.metadata = metadata
  }

  if (Array.isArray(out.edges)) {
    const used = new Set(out.edges.map((e) => (isPlainObject(e) ? e.id : undefined)))
    let named = 0
    out.edges = out.edges.map((edge: unknown, k) => {
      if (!isPlainObject(edge) || edge.id !== undefined) return edge
      let id = `edge-${k + 1}`
      for (let n = 2; used.has(id); n += 1) id = `edge-${k + 1}-${n}`
      used.add(id)
      named += 1
      return { ...edge, id }
    })
    if (named > 0)
      notes.add(`${count(named, 'connection')} had no id and got one.`, 'issues:importNote.restore.edgeIds', {
        count: named,
      })
  }

  // Sizes first: a file over the node limit is refused by the check that follows with the size
  // message, so it is not laid out (a 150,000-node file used to fail with a stack overflow here).
  if (Array.isArray(out.nodes) && out.nodes.length <= FLOW_MAX_NODES) {
    const unplaced = out.nodes.filter((n) => isPlainObject(n) && n.position === undefined).length
    if (unplaced > 0) {
      const place = layoutByDepth(out.nodes, Array.isArray(out.edges) ? out.edges : [])
      out.nodes = out.nodes.map((node: unknown, i) =>
        isPlainObject(node) && node.position === undefined ? { ...node, position: place(i) } : node,
      )
      notes.add(
        `${count(unplaced, 'node')} had no position and ${unplaced === 1 ? 'was' : 'were'} placed left to right in the order of the connections.`,
        'issues:importNote.restore.positions',
        { count: unplaced },
      )
    }
  }
  return { file: out, notes: notes.texts, keyedNotes: notes.keyed }
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`
}

/**
 * Positions by depth: a node's column is the length of the longest chain of connections leading
 * to it, its row its place among the nodes of that column. Nodes in a cycle (refused later
 * anyway) or with unreadable ids go to the first column.
 */
function layoutByDepth(nodes: unknown[], edges: unknown[]): (index: number) => { x: number; y: number } {
  const ids = nodes.map((n) => (isPlainObject(n) && typeof n.id === 'string' ? n.id : undefined))
  const graph = buildGraph({
    nodes: ids.filter((id) => id !== undefined).map((id) => ({ id })),
    edges: edges.filter(
      (e): e is { source: string; target: string } =>
        isPlainObject(e) && typeof e.source === 'string' && typeof e.target === 'string',
    ),
  })
  const depth = new Map<string, number>()
  for (const id of topologicalSort(graph).order) {
    // A loop, not Math.max(...parents): a node with 100,000 parents overflows the stack.
    let column = 0
    for (const parent of graph.parents.get(id) ?? []) column = Math.max(column, (depth.get(parent) ?? 0) + 1)
    depth.set(id, column)
  }
  const rows = new Map<number, number>()
  const positions = ids.map((id) => {
    const column = id === undefined ? 0 : (depth.get(id) ?? 0)
    const row = rows.get(column) ?? 0
    rows.set(column, row + 1)
    return { x: column * COLUMN_PX, y: row * ROW_PX }
  })
  return (index) => positions[index] ?? { x: 0, y: 0 }
}
