/** PatchCat envelope pieces: metadata and viewport, edges and their handles, string rewriting. */
import { IMPORT_MAX_JSON_DEPTH } from '../defaults.ts'
import {
  UNSUPPORTED_TYPE,
  extractRefs,
  type FlowDocument,
  type FlowEdge,
  type FlowNode,
} from '../engine/index.ts'
import { EPOCH_ISO } from './restore/schema.ts'
import { isPlainObject, type NoteLog } from './restore/index.ts'
import { keyedNote, type HandleMap, type ImportNotes } from './patchcatFlow.ts'

/** The handle ids of Wardflow's single input and output handles. */
export const SOURCE_HANDLE = 'out'
export const TARGET_HANDLE = 'in'

function iso(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) {
    const date = new Date(value)
    return Number.isNaN(date.getTime()) ? undefined : date.toISOString()
  }
  if (typeof value === 'string' && value !== '' && !Number.isNaN(Date.parse(value))) return value
  return undefined
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : ''
}

function shortJson(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 80 ? `${text.slice(0, 77)}...` : text
}

const META_KEYS = ['id', 'name', 'description', 'tags', 'createdAt', 'updatedAt']
const ENVELOPE_KEYS = ['version', 'metadata', 'viewport', 'nodes', 'edges']

/** Metadata and viewport from either PatchCat envelope; the rest is named in `notes`. */
export function patchCatMetadata(
  file: Record<string, unknown>,
  notes: NoteLog,
): Pick<FlowDocument, 'metadata' | 'viewport'> {
  const nested = isPlainObject(file.metadata)
  const meta = nested ? (file.metadata as Record<string, unknown>) : file
  const createdAt = iso(meta.createdAt) ?? EPOCH_ISO
  const metadata: FlowDocument['metadata'] = {
    id: typeof meta.id === 'string' && meta.id !== '' ? meta.id : 'patchcat-import',
    name: typeof meta.name === 'string' && meta.name.trim() !== '' ? meta.name : 'Imported PatchCat workflow',
    description: typeof meta.description === 'string' ? meta.description : '',
    tags: Array.isArray(meta.tags)
      ? meta.tags.filter((t: unknown): t is string => typeof t === 'string')
      : [],
    createdAt,
    updatedAt: iso(meta.updatedAt) ?? createdAt,
  }
  const dropped: string[] = []
  for (const [key, value] of Object.entries(meta)) {
    if (!META_KEYS.includes(key) && !(nested ? [] : ENVELOPE_KEYS).includes(key))
      dropped.push(`${nested ? 'metadata.' : ''}${key} (${shortJson(value)})`)
  }
  if (nested)
    for (const [key, value] of Object.entries(file))
      if (!ENVELOPE_KEYS.includes(key)) dropped.push(`${key} (${shortJson(value)})`)
  const badTags = Array.isArray(meta.tags) ? meta.tags.filter((t: unknown) => typeof t !== 'string') : []
  const fields = dropped.join(', ')
  if (badTags.length > 0) {
    // Tags are worded apart from the other fields, so the UI can translate "tags that are not text".
    const tags = shortJson(badTags)
    const rest = fields === '' ? '' : `, ${fields}`
    notes.add(
      `Not carried over from the file: tags that are not text (${tags})${rest}.`,
      fields === '' ? 'issues:importNote.patchcat.fileTags' : 'issues:importNote.patchcat.fileTagsAndFields',
      { tags, fields },
    )
  } else if (fields !== '')
    notes.add(`Not carried over from the file: ${fields}.`, 'issues:importNote.patchcat.fileFields', {
      fields,
    })
  const v = isPlainObject(file.viewport) ? file.viewport : {}
  const viewport =
    typeof v.x === 'number' &&
    typeof v.y === 'number' &&
    typeof v.zoom === 'number' &&
    v.zoom > 0 &&
    [v.x, v.y, v.zoom].every(Number.isFinite)
      ? { x: v.x, y: v.y, zoom: v.zoom }
      : { x: 0, y: 0, zoom: 1 }
  return { metadata, viewport }
}

const EDGE_KEYS = ['id', 'source', 'target', 'sourceHandle', 'targetHandle']

/**
 * PatchCat edges -> Wardflow edges. Handles on Wardflow nodes become Wardflow's own ids; on
 * placeholders they are kept (they carry meaning, e.g. a condition's case id). A converted
 * condition's edges follow `handles` (case ids, `default` -> `else`); one PatchCat handle that
 * became two cases gets one edge per case. Edges that cannot exist (unknown node, self-loop, a
 * condition edge from no case) are left out with a note.
 */
export function patchCatEdges(
  rawEdges: unknown[],
  idMap: ReadonlyMap<string, string>,
  nodes: readonly FlowNode[],
  into: ImportNotes,
  handles: ReadonlyMap<string, HandleMap> = new Map(),
): { edges: FlowEdge[]; origins: number[] } {
  const { notes } = into
  const origins: number[] = []
  const dropped: string[] = []
  const typeOf = new Map(nodes.map((n) => [n.id, n.type]))
  const usedIds = new Set<string>()
  const extras = new Map<string, number>()
  const edges: FlowEdge[] = []
  const joined = new Set<string>()
  rawEdges.forEach((raw, k) => {
    if (!isPlainObject(raw)) {
      const json = shortJson(raw)
      notes.add(
        `edges[${k}] is not an object and was left out: ${json}.`,
        'issues:importNote.patchcat.edgeNotObject',
        {
          edge: `edges[${k}]`,
          json,
        },
      )
      return
    }
    const source = typeof raw.source === 'string' ? idMap.get(raw.source) : undefined
    const target = typeof raw.target === 'string' ? idMap.get(raw.target) : undefined
    if (source === undefined || target === undefined) {
      const [id, from, to] = [shortJson(raw.id), shortJson(raw.source), shortJson(raw.target)]
      notes.add(
        `edges[${k}] (${id}) joins ${from} to ${to}, which are not both in the file; it was left out.`,
        'issues:importNote.patchcat.edgeEnds',
        { edge: `edges[${k}]`, id, from, to },
      )
      return
    }
    if (source === target) {
      const id = shortJson(raw.id)
      notes.add(
        `edges[${k}] (${id}) connects ${source} to itself, which a flow cannot do; it was left out.`,
        'issues:importNote.patchcat.edgeSelfLoop',
        { edge: `edges[${k}]`, id, node: source },
      )
      return
    }
    const cases = handles.get(source)
    let caseHandles = cases === undefined ? undefined : cases.get(text(raw.sourceHandle))
    if (cases !== undefined && text(raw.sourceHandle) === '') {
      // PatchCat followed an edge without a handle whichever branch was taken: so does one edge per case.
      caseHandles = [...new Set([...cases.values()].flat())]
      keyedNote(
        into,
        `edges[${k}] (${shortJson(raw.id)}) leaves condition ${source} from no case, so PatchCat always followed it; it now leaves from every case and from else.`,
        'edgeEveryCase',
        { edge: text(raw.id), node: source },
      )
    }
    if (cases !== undefined && caseHandles === undefined) {
      keyedNote(
        into,
        `edges[${k}] (${shortJson(raw.id)}) leaves condition ${source} from ${shortJson(raw.sourceHandle ?? null)}, which is none of its cases nor its default; it was left out.`,
        'edgeNoCase',
        { edge: text(raw.id), node: source, handle: text(raw.sourceHandle) },
      )
      return
    }
    const sourceHandles: ReadonlyArray<string | undefined> = caseHandles ?? [
      handle(raw.sourceHandle, typeOf.get(source), SOURCE_HANDLE, `edges[${k}].sourceHandle`, dropped),
    ]
    const targetHandle = handle(
      raw.targetHandle,
      typeOf.get(target),
      TARGET_HANDLE,
      `edges[${k}].targetHandle`,
      dropped,
    )
    for (const [n, sourceHandle] of sourceHandles.entries()) {
      // A condition's edge from every case can repeat one from a case: one connection is enough.
      const join = JSON.stringify([source, sourceHandle, target, targetHandle])
      if (cases !== undefined && joined.has(join)) continue
      joined.add(join)
      let id = typeof raw.id === 'string' && raw.id !== '' ? raw.id : `e${k + 1}`
      if (n > 0) id = `${id}_${sourceHandle ?? n}`
      while (usedIds.has(id)) id = `${id}_${k + 1}`
      usedIds.add(id)
      const edge: FlowEdge = { id, source, target }
      if (sourceHandle !== undefined) edge.sourceHandle = sourceHandle
      if (targetHandle !== undefined) edge.targetHandle = targetHandle
      edges.push(edge)
      origins.push(k)
    }
    for (const key of Object.keys(raw))
      if (!EDGE_KEYS.includes(key)) extras.set(key, (extras.get(key) ?? 0) + 1)
  })
  if (dropped.length > 0) {
    const handles = dropped.join(', ')
    notes.add(
      `Handles Wardflow nodes do not have were dropped (each Wardflow node has one input and one output handle): ${handles}.`,
      'issues:importNote.patchcat.handles',
      { handles },
    )
  }
  if (extras.size > 0) {
    const list = [...extras].map(([key, n]) => `${key} (${n} edge${n === 1 ? '' : 's'})`).join(', ')
    notes.add(`Edge display settings not carried over: ${list}.`, 'issues:importNote.patchcat.edgeDisplay', {
      fields: list,
    })
  }
  return { edges, origins }
}

function handle(
  value: unknown,
  nodeType: string | undefined,
  wardflowId: string,
  path: string,
  dropped: string[],
): string | undefined {
  if (typeof value !== 'string' || value === '') return undefined
  if (nodeType === UNSUPPORTED_TYPE || value === wardflowId) return value
  dropped.push(`${path} ${JSON.stringify(value)}`)
  return undefined
}

/** Applies `fn` to every string inside a JSON value (depth-bounded). */
export function rewriteStrings(value: unknown, fn: (text: string) => string, depth = 0): unknown {
  if (typeof value === 'string') return fn(value)
  if (typeof value !== 'object' || value === null || depth > IMPORT_MAX_JSON_DEPTH) return value
  if (Array.isArray(value)) return value.map((item: unknown) => rewriteStrings(item, fn, depth + 1))
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, rewriteStrings(item, fn, depth + 1)]),
  )
}

/** Output names that changed: `{{x.promptText}}` -> `{{x.text}}`, `{{x.data}}` -> `{{x.body}}`, `{{x.stdout}}` -> `{{x.logs}}`. */
const OUTPUT_RENAMES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  prompt: { promptText: 'text' },
  http: { data: 'body' },
  code: { stdout: 'logs' },
  condition: { activeBranch: 'case' },
  loop: { totalItems: 'count' },
}

const REF_HEAD = /^\{\{(\s*)([A-Za-z0-9_-]{1,64})\.([^\s.[\]{}|"'\\]+)/

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/**
 * Rewrites references: first renamed node ids (PatchCat ids like `prompt.brief`, which a
 * reference cannot even be parsed around), then the output fields Wardflow names differently.
 */
export function referenceRewriter(
  idMap: ReadonlyMap<string, string>,
  kinds: ReadonlyMap<string, string>,
  counter: { count: number },
  /** Renames of one node's fields (an aggregator's `result` -> its `outputKey`), by Wardflow id. */
  nodeRenames: ReadonlyMap<string, Readonly<Record<string, string>>> = new Map(),
): (text: string) => string {
  const renamed = [...idMap].filter(([from, to]) => from !== to).sort((a, b) => b[0].length - a[0].length)
  const newIds = new Map(renamed)
  const idPattern =
    renamed.length === 0
      ? undefined
      : new RegExp(`(\\{\\{\\s*)(${renamed.map(([from]) => escapeRegExp(from)).join('|')})(?=[.\\s}|[])`, 'g')
  return (text) => {
    if (!text.includes('{{')) return text
    const withIds =
      idPattern === undefined
        ? text
        : text.replace(idPattern, (_m, head: string, id: string) => `${head}${newIds.get(id) ?? id}`)
    let out = ''
    let at = 0
    for (const ref of extractRefs(withIds)) {
      const renames = nodeRenames.get(ref.nodeId) ?? OUTPUT_RENAMES[kinds.get(ref.nodeId) ?? ''] ?? {}
      const raw = ref.raw.replace(REF_HEAD, (whole: string, space: string, id: string, field: string) =>
        Object.hasOwn(renames, field) ? `{{${space}${id}.${renames[field] ?? field}` : whole,
      )
      out += withIds.slice(at, ref.start) + raw
      at = ref.end
    }
    const result = out + withIds.slice(at)
    if (result !== text) counter.count += 1
    return result
  }
}
