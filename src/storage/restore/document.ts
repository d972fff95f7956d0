/**
 * Validate + migrate one flow document. Two modes:
 * - strict (imports): one problem is enough to refuse the document, each with its JSON path;
 * - lenient (loading what is stored): repairs in memory without dropping data (a broken node
 *   becomes a placeholder keeping its JSON; an invalid config is kept for preflight to report),
 *   and refuses only what cannot be read at all, leaving the stored row untouched.
 */
import { FLOW_MAX_EDGES, FLOW_MAX_NODES, IMPORT_MAX_JSON_DEPTH, IMPORT_MAX_PROBLEMS } from '../../defaults.ts'
import { UNSUPPORTED_TYPE, type FlowDocument, type FlowEdge, type FlowNode } from '../../engine/index.ts'
import { bodyProblems } from './bodies.ts'
import { foldDuplicateEdges, graphProblems } from './graph.ts'
import { handleProblems, portsByNode } from './handles.ts'
import { CURRENT_DOC_SCHEMA_VERSION, migrateDocument } from './migrations.ts'
import { defaultNodeLookup, restoreConfig, unsupportedNode, type NodeLookup } from './nodes.ts'
import { NoteLog } from './noteLog.ts'
import {
  documentSchema,
  edgeSchema,
  isPlainObject,
  joinPath,
  jsonDepth,
  metadataSchema,
  nodeSchema,
  viewportSchema,
  zodProblems,
  type ImportProblem,
  type KeyedNote,
} from './schema.ts'

export interface RestoreOptions {
  mode: 'strict' | 'lenient'
  /** Shape version of the input; the current one when omitted. */
  schemaVersion?: number
  lookup?: NodeLookup
  /** Lenient mode: identity to fall back on when the stored metadata is unreadable. */
  fallback?: { id: string; name: string; updatedAt: string }
  /** Prefix for problem paths (e.g. '' for a workflow file, whose nodes are at `nodes[i]`). */
  pathPrefix?: string
}

export type RestoreResult =
  | { ok: true; doc: FlowDocument; notes: string[]; migrated: string[]; keyedNotes?: KeyedNote[] }
  | { ok: false; problems: ImportProblem[] }

/** Keeps a problem list readable: the first IMPORT_MAX_PROBLEMS, then a count of the rest. */
export function capProblems(problems: ImportProblem[]): ImportProblem[] {
  if (problems.length <= IMPORT_MAX_PROBLEMS) return problems
  const rest = problems.length - IMPORT_MAX_PROBLEMS
  return [
    ...problems.slice(0, IMPORT_MAX_PROBLEMS),
    {
      path: '',
      message: `...and ${rest} more problems.`,
      key: 'issues:importProblem.more',
      params: { count: rest },
    },
  ]
}

function fail(problems: ImportProblem[]): RestoreResult {
  return { ok: false, problems: capProblems(problems) }
}

/** Validates and migrates `raw` into a current FlowDocument. Never throws. */
export function restoreDocument(raw: unknown, options: RestoreOptions): RestoreResult {
  const lookup = options.lookup ?? defaultNodeLookup
  const prefix = options.pathPrefix ?? ''
  const strict = options.mode === 'strict'
  if (jsonDepth(raw, IMPORT_MAX_JSON_DEPTH) > IMPORT_MAX_JSON_DEPTH) {
    return fail([
      {
        path: prefix,
        message: `The flow nests deeper than ${IMPORT_MAX_JSON_DEPTH} levels, which no real flow does.`,
        key: 'issues:importProblem.doc.tooDeep',
        params: { max: IMPORT_MAX_JSON_DEPTH },
      },
    ])
  }
  const migration = migrateDocument(raw, options.schemaVersion ?? CURRENT_DOC_SCHEMA_VERSION)
  if (!migration.ok) {
    const { message, key, params } = migration
    return fail([{ path: prefix, message, ...(key === undefined ? {} : { key, params }) }])
  }
  const doc = migration.doc
  if (!isPlainObject(doc))
    return fail([
      { path: prefix, message: 'A flow must be a JSON object.', key: 'issues:importProblem.doc.notObject' },
    ])
  if (!Array.isArray(doc.nodes))
    return fail([
      {
        path: joinPath(prefix, 'nodes'),
        message: 'A flow needs a "nodes" list.',
        key: 'issues:importProblem.doc.noNodes',
      },
    ])
  if (strict && doc.nodes.length > FLOW_MAX_NODES) {
    const message = `The flow has ${doc.nodes.length} nodes; Wardflow opens at most ${FLOW_MAX_NODES}.`
    const params = { count: doc.nodes.length, max: FLOW_MAX_NODES }
    return fail([
      { path: joinPath(prefix, 'nodes'), message, key: 'issues:importProblem.tooManyNodes', params },
    ])
  }

  const problems: ImportProblem[] = []
  const notes = new NoteLog()
  let metadata: FlowDocument['metadata'] | undefined
  let viewport: FlowDocument['viewport'] = { x: 0, y: 0, zoom: 1 }
  if (strict) {
    const envelope = documentSchema.safeParse(doc)
    if (!envelope.success) problems.push(...zodProblems(envelope.error, prefix))
    else ({ metadata, viewport } = envelope.data)
  } else {
    const meta = metadataSchema.safeParse(doc.metadata)
    if (meta.success) metadata = meta.data
    else {
      const fb = options.fallback ?? { id: 'restored', name: '', updatedAt: new Date(0).toISOString() }
      metadata = {
        id: fb.id,
        name: fb.name,
        description: '',
        tags: [],
        createdAt: fb.updatedAt,
        updatedAt: fb.updatedAt,
      }
      notes.add(
        'The flow name and dates were unreadable and were rebuilt from the saved list entry.',
        'issues:importNote.restore.metadataRebuilt',
      )
    }
    const view = viewportSchema.safeParse(doc.viewport)
    if (view.success) viewport = view.data
    else if (doc.viewport !== undefined)
      notes.add(
        'The saved zoom and position were unreadable and were reset.',
        'issues:importNote.restore.viewportReset',
      )
  }

  const nodes: FlowNode[] = []
  doc.nodes.forEach((rawNode: unknown, i) => {
    const at = joinPath(prefix, `nodes[${i}]`)
    const node = restoreNode(rawNode, i, at, strict, lookup, problems, notes)
    if (node !== undefined) nodes.push(node)
  })

  const parsedEdges: FlowEdge[] = []
  const rawEdges: unknown[] = Array.isArray(doc.edges) ? doc.edges : []
  if (!strict && doc.edges !== undefined && !Array.isArray(doc.edges))
    notes.add(
      'The saved connections were unreadable and were left out.',
      'issues:importNote.restore.edgesUnreadable',
    )
  rawEdges.forEach((rawEdge, k) => {
    const parsed = edgeSchema.safeParse(rawEdge)
    if (parsed.success) parsedEdges.push(stripUndefined(parsed.data))
    else if (strict) problems.push(...zodProblems(parsed.error, joinPath(prefix, `edges[${k}]`)))
    else {
      const [index, json] = [k + 1, safeJson(rawEdge)]
      notes.add(
        `Connection ${index} was unreadable and was left out: ${json}`,
        'issues:importNote.restore.edgeUnreadable',
        {
          index,
          json,
        },
      )
    }
  })

  const folding = foldDuplicateEdges(parsedEdges)
  const { folded } = folding
  let edges = folding.edges
  if (folded > 0) {
    // Two keys (one connection left, or several): each plural of `count` (the copies) reads right.
    const key = edges.length === 1 ? 'issues:importNote.foldedKeptOne' : 'issues:importNote.foldedKeptMany'
    notes.add(foldedNote(folded, edges.length), key, { count: folded, kept: edges.length })
  }
  if (strict && edges.length > FLOW_MAX_EDGES) {
    const message = `The flow has ${edges.length} connections${folded > 0 ? ' (duplicates folded)' : ''}; Wardflow opens at most ${FLOW_MAX_EDGES}.`
    problems.push({
      path: joinPath(prefix, 'edges'),
      message,
      key: folded > 0 ? 'issues:importProblem.tooManyEdgesFolded' : 'issues:importProblem.tooManyEdges',
      params: { count: edges.length, max: FLOW_MAX_EDGES },
    })
  }

  if (problems.length === 0) {
    const wrongHandles = handleProblems(edges, portsByNode(nodes, lookup))
    if (strict)
      problems.push(...wrongHandles.map(({ index: _, ...p }) => ({ ...p, path: joinPath(prefix, p.path) })))
    else if (wrongHandles.length > 0) {
      // A saved flow still opens: the wire that names a handle its node lost is left out, said so.
      const dropped = new Set(wrongHandles.map((p) => p.index))
      for (const p of wrongHandles)
        notes.add(`${p.message} The connection was left out.`, 'issues:importNote.restore.handleDropped', {
          problem: p.message,
        })
      edges = edges.filter((_, k) => !dropped.has(k))
    }
  }
  if (problems.length === 0) {
    const graph = [...graphProblems(nodes, edges), ...bodyProblems(nodes, edges, lookup)].map((p) => ({
      ...p,
      path: joinPath(prefix, p.path),
    }))
    if (strict) problems.push(...graph)
    else
      for (const p of graph)
        notes.add(`${p.path}: ${p.message}`, 'issues:importNote.restore.graphProblem', {
          path: p.path,
          problem: p.message,
        })
  }
  if (problems.length > 0 || metadata === undefined) return fail(problems)
  return {
    ok: true,
    doc: { metadata, viewport, nodes, edges },
    notes: notes.texts,
    migrated: migration.applied,
    ...(notes.keyed.length > 0 ? { keyedNotes: notes.keyed } : {}),
  }
}

function foldedNote(folded: number, kept: number): string {
  const copies = folded === 1 ? '1 duplicate connection' : `${folded} duplicate connections`
  return `${copies} (the same two nodes and handles joined again) ${folded === 1 ? 'was' : 'were'} folded into the one already there; ${kept} ${kept === 1 ? 'connection remains' : 'connections remain'}.`
}

function restoreNode(
  rawNode: unknown,
  index: number,
  at: string,
  strict: boolean,
  lookup: NodeLookup,
  problems: ImportProblem[],
  notes: NoteLog,
): FlowNode | undefined {
  const parsed = nodeSchema.safeParse(rawNode)
  if (!parsed.success) {
    if (strict) {
      problems.push(...zodProblems(parsed.error, at))
      return undefined
    }
    const rec = isPlainObject(rawNode) ? rawNode : {}
    const id = typeof rec.id === 'string' && rec.id !== '' ? rec.id : `restored_${index + 1}`
    const pos =
      isPlainObject(rec.position) && typeof rec.position.x === 'number' && typeof rec.position.y === 'number'
    const node = JSON.stringify(id)
    notes.add(
      `Node ${node} was damaged; it is kept as an unsupported placeholder with its saved JSON.`,
      'issues:importNote.restore.damaged',
      { node },
    )
    const type = typeof rec.type === 'string' ? rec.type : 'unknown'
    const position = pos ? (rec.position as { x: number; y: number }) : { x: 0, y: 0 }
    return unsupportedNode(id, type, rawNode, position, id, lookup)
  }
  const node: FlowNode = stripUndefined({
    ...parsed.data,
    data: { label: parsed.data.data.label, config: parsed.data.data.config },
  })
  const revived = reviveKnownPlaceholder(node, lookup)
  if (revived !== undefined) {
    const [id, type] = [JSON.stringify(node.id), JSON.stringify(revived.type)]
    notes.add(
      `Node ${id} was a placeholder for type ${type}, which Wardflow now runs; it is restored.`,
      'issues:importNote.restore.revived',
      { node: id, type },
    )
    return revived
  }
  const definition = lookup(node.type)
  if (definition === undefined) {
    const [id, type] = [JSON.stringify(node.id), JSON.stringify(node.type)]
    notes.add(
      `Node ${id} has type ${type}, which Wardflow cannot run; it is kept as a placeholder.`,
      'issues:importNote.restore.unknownType',
      { node: id, type },
    )
    return {
      ...unsupportedNode(node.id, node.type, rawNode, node.position, node.data.label, lookup),
      ...sizeOf(node),
    }
  }
  const config = restoreConfig(definition, node.data.config)
  if (!config.ok) {
    if (strict) {
      for (const issue of config.issues)
        problems.push({ ...issue, path: joinPath(`${at}.data.config`, issue.path) })
      return undefined
    }
    const [id, issues] = [
      JSON.stringify(node.id),
      config.issues.map((i) => `${i.path || '(settings)'}: ${i.message}`).join('; '),
    ]
    notes.add(
      `Node ${id} has settings that need fixing: ${issues}`,
      'issues:importNote.restore.needsFixing',
      {
        node: id,
        issues,
      },
    )
    return node
  }
  if (config.migratedFrom !== undefined && node.type !== UNSUPPORTED_TYPE) {
    const id = JSON.stringify(node.id)
    notes.add(
      `Node ${id}: settings updated from version ${config.migratedFrom} to ${definition.configVersion}.`,
      'issues:importNote.restore.settingsUpdated',
      { node: id, from: config.migratedFrom, to: definition.configVersion },
    )
  }
  return { ...node, data: { label: node.data.label, config: config.config } }
}

/**
 * A placeholder whose original is a Wardflow node of a type this build knows (saved while that
 * type was missing) turns back into that node, so nothing stays degraded for good.
 */
function reviveKnownPlaceholder(node: FlowNode, lookup: NodeLookup): FlowNode | undefined {
  if (node.type !== UNSUPPORTED_TYPE) return undefined
  const { originalType, original } = node.data.config
  if (typeof originalType !== 'string' || originalType === UNSUPPORTED_TYPE) return undefined
  const definition = lookup(originalType)
  const parsed = nodeSchema.safeParse(original)
  if (
    definition === undefined ||
    !parsed.success ||
    parsed.data.id !== node.id ||
    parsed.data.type !== originalType
  )
    return undefined
  const config = restoreConfig(definition, parsed.data.data.config)
  if (!config.ok) return undefined
  // Only when nothing is lost: another format's node of the same type name (PatchCat's
  // `condition`, with `conditions` and `variable`) parses as an empty config and stays a placeholder.
  if (!Object.keys(parsed.data.data.config).every((key) => Object.hasOwn(config.config, key)))
    return undefined
  return stripUndefined({
    ...parsed.data,
    position: node.position,
    data: { label: parsed.data.data.label, config: config.config },
  })
}

/** What a placeholder keeps of the node it stands for besides its JSON: its size and its body. */
function sizeOf(node: FlowNode): Partial<FlowNode> {
  return {
    ...(node.size === undefined ? {} : { size: node.size }),
    ...(node.parentId === undefined ? {} : { parentId: node.parentId }),
  }
}

/** Drops keys whose value is undefined, so documents compare and serialise cleanly. */
function stripUndefined<T extends object>(value: T): T {
  const out: Record<string, unknown> = {}
  for (const [key, v] of Object.entries(value)) if (v !== undefined) out[key] = v
  return out as T
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value)?.slice(0, 200) ?? String(value)
  } catch {
    return String(value)
  }
}
