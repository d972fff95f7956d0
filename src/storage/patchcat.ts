/**
 * PatchCat workflows -> Wardflow flows (workflow-format.md, "Importing PatchCat workflows").
 * Both envelopes: templates `{ version, metadata, viewport, nodes, edges }` and saved workflows
 * `{ id, name, nodes, edges, ... }`. Types Wardflow lacks become `unsupported` placeholders that
 * keep the node's JSON; references are rewritten to Wardflow's output names; every field that is
 * not carried over is named in the notes.
 */
import { FLOW_MAX_NODES, NODE_ID_PATTERN } from '../defaults.ts'
import type { FlowDocument, FlowNode } from '../engine/index.ts'
import { mapCode, mapHttp, type RefRewriter } from './patchcatCodeHttp.ts'
import {
  PatchCatData,
  mapAgent,
  mapInput,
  mapLlm,
  mapOutput,
  mapPrompt,
  PlaceholderReason,
} from './patchcatNodes.ts'
import {
  aggregatorOutputKey,
  mapAggregator,
  mapCondition,
  mapLoop,
  mapSubflow,
  type FlowMapped,
  type HandleMap,
  type ImportNotes,
} from './patchcatFlow.ts'
import { mapKnowledge } from './patchcatKnowledge.ts'
import { loopBodies } from './patchcatLoopBodies.ts'
import { referenceRewriter, rewriteStrings, patchCatEdges, patchCatMetadata } from './patchcatParts.ts'
import {
  capProblems,
  defaultNodeLookup,
  graphProblems,
  isPlainObject,
  NoteLog,
  restoreConfig,
  unsupportedNode,
  type ImportProblem,
  type KeyedNote,
  type NodeLookup,
} from './restore/index.ts'

/** PatchCat type -> Wardflow type, for the types Wardflow runs. */
const TYPE_MAP: Readonly<Record<string, string>> = {
  input: 'input',
  prompt: 'template',
  llm: 'llm',
  agent: 'agent',
  code: 'code',
  http: 'http',
  output: 'output',
  condition: 'condition',
  aggregator: 'merge',
  loop: 'loop',
  // PatchCat's palette writes `sub-workflow`, its engine switches on `sub_workflow`.
  'sub-workflow': 'subflow',
  sub_workflow: 'subflow',
  knowledge: 'knowledge',
}

/** True for JSON that is a PatchCat workflow rather than a Wardflow file. */
export function looksLikePatchCat(file: Record<string, unknown>): boolean {
  if (!Array.isArray(file.nodes) || 'format' in file) return false
  if (typeof file.version === 'string') return true
  if (typeof file.id === 'string' && typeof file.name === 'string' && !isPlainObject(file.metadata))
    return true
  return file.nodes.some(
    (n: unknown) =>
      isPlainObject(n) && (n.type === 'prompt' || (isPlainObject(n.data) && isPlainObject(n.data.inputs))),
  )
}

/** Unique Wardflow ids for PatchCat ids (which may hold characters Wardflow refuses). */
function assignIds(rawIds: string[], notes: NoteLog): string[] {
  const used = new Set<string>()
  return rawIds.map((raw, i) => {
    let id = NODE_ID_PATTERN.test(raw) ? raw : raw.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64)
    if (id === '' || used.has(id)) id = `node_${i + 1}`
    while (used.has(id)) id = `${id.slice(0, 56)}_${i + 1}`
    if (id !== raw) {
      const [from, to] = [JSON.stringify(raw), JSON.stringify(id)]
      notes.add(
        `Node id ${from} became ${to}; references to it were updated.`,
        'issues:importNote.patchcat.idChanged',
        { from, to },
      )
    }
    used.add(id)
    return id
  })
}

type ImportResult =
  | { ok: true; doc: FlowDocument; source: 'patchcat'; notes: string[]; keyedNotes: KeyedNote[] }
  | { ok: false; problems: ImportProblem[] }

/** Converts a parsed PatchCat workflow. Never throws; refuses only what cannot make a flow. */
export function importPatchCat(
  file: Record<string, unknown>,
  lookup: NodeLookup = defaultNodeLookup,
): ImportResult {
  const notes = new NoteLog()
  const problems: ImportProblem[] = []
  const rawNodes: unknown[] = Array.isArray(file.nodes) ? file.nodes : []
  if (rawNodes.length > FLOW_MAX_NODES) {
    return {
      ok: false,
      problems: [
        {
          path: 'nodes',
          message: `The file has ${rawNodes.length} nodes; Wardflow opens at most ${FLOW_MAX_NODES}.`,
          key: 'issues:importProblem.patchcat.tooManyNodes',
          params: { count: rawNodes.length, max: FLOW_MAX_NODES },
        },
      ],
    }
  }
  rawNodes.forEach((n, i) => {
    if (!isPlainObject(n))
      problems.push({
        path: `nodes[${i}]`,
        message: 'A node must be an object.',
        key: 'issues:importProblem.patchcat.nodeNotObject',
      })
    else {
      if (typeof n.id !== 'string' || n.id === '')
        problems.push({
          path: `nodes[${i}].id`,
          message: 'A node needs an id (text).',
          key: 'issues:importProblem.patchcat.nodeId',
        })
      if (typeof n.type !== 'string' || n.type === '')
        problems.push({
          path: `nodes[${i}].type`,
          message: 'A node needs a type (text).',
          key: 'issues:importProblem.patchcat.nodeType',
        })
    }
  })
  if (file.edges !== undefined && !Array.isArray(file.edges))
    problems.push({
      path: 'edges',
      message: '"edges" must be a list.',
      key: 'issues:importProblem.patchcat.edgesList',
    })
  if (problems.length > 0) return { ok: false, problems: capProblems(problems) }

  const nodesIn = rawNodes as Array<Record<string, unknown> & { id: string; type: string }>
  const ids = assignIds(
    nodesIn.map((n) => n.id),
    notes,
  )
  const idMap = new Map<string, string>()
  const kinds = new Map<string, string>()
  nodesIn.forEach((n, i) => {
    if (!idMap.has(n.id)) idMap.set(n.id, ids[i] as string)
    kinds.set(ids[i] as string, n.type)
  })

  const { metadata, viewport } = patchCatMetadata(file, notes)
  // References: node ids that changed, and output names that changed.
  const rewrites = { count: 0 }
  // An aggregator's `result` and `output` were its value under `outputKey` too.
  const fieldRenames = new Map<string, Record<string, string>>()
  nodesIn.forEach((n, i) => {
    if (n.type !== 'aggregator') return
    const key = aggregatorOutputKey(n.data)
    const renames = Object.fromEntries(['result', 'output'].filter((f) => f !== key).map((f) => [f, key]))
    fieldRenames.set(ids[i] as string, renames)
  })
  const rename = referenceRewriter(idMap, kinds, rewrites, fieldRenames)
  const rawEdges: unknown[] = Array.isArray(file.edges) ? file.edges : []
  const handles = new Map<string, HandleMap>()
  const context: ConvertContext = {
    idMap,
    lookup,
    notes,
    rewrite: rename,
    handles,
    sourceTypes: (rawId) =>
      rawEdges.flatMap((e) =>
        isPlainObject(e) && e.target === rawId && typeof e.source === 'string'
          ? nodesIn.filter((n) => n.id === e.source).map((n) => n.type)
          : [],
      ),
  }
  const counts = new Map<string, number>()
  const nodes: FlowNode[] = nodesIn.map((raw, i) => {
    const node = convertNode(raw, ids[i] as string, context)
    const key = node.type === 'unsupported' ? `unsupported (${raw.type})` : node.type
    counts.set(key, (counts.get(key) ?? 0) + 1)
    return node
  })

  const rewritten = nodes.map((node) =>
    node.type === 'unsupported'
      ? node
      : {
          ...node,
          data: { ...node.data, config: rewriteStrings(node.data.config, rename) as Record<string, unknown> },
        },
  )
  if (rewrites.count > 0) {
    const what =
      rewrites.count === 1 ? 'References in 1 field were' : `References in ${rewrites.count} fields were`
    // The examples are a value, not catalogue text: i18next would read their braces as its own.
    const examples = '{{x.promptText}} -> {{x.text}}, {{x.data}} -> {{x.body}}'
    notes.add(
      `${what} rewritten to Wardflow names (${examples}, renamed ids).`,
      'issues:importNote.patchcat.refsRewritten',
      { count: rewrites.count, examples },
    )
  }
  const described = nodesIn.filter(
    (n) => isPlainObject(n.data) && typeof n.data.description === 'string' && n.data.description !== '',
  )
  if (described.length > 0) {
    const list = described.map((n) => idMap.get(n.id) ?? n.id).join(', ')
    notes.add(
      `Node descriptions are not carried over (Wardflow nodes have a title only): ${list}.`,
      'issues:importNote.patchcat.descriptions',
      { nodes: list },
    )
  }

  const bodies = loopBodies(nodesIn, ids, rewritten, context)
  const { edges, origins } = patchCatEdges(rawEdges, idMap, bodies, { notes }, handles)
  // Problem paths point into the file: edge indices are mapped back past the edges left out.
  const graph = graphProblems(bodies, edges).map((p) => ({
    ...p,
    path: p.path.replace(/^edges\[(\d+)\]/, (_m, i: string) => `edges[${origins[Number(i)] ?? i}]`),
  }))
  if (graph.length > 0) return { ok: false, problems: capProblems(graph) }
  const summary = [...counts].map(([type, n]) => `${type} x${n}`).join(', ')
  notes.addFirst(
    `Imported from PatchCat: ${bodies.length} nodes (${summary}) and ${edges.length} connections.`,
    'issues:importNote.patchcat.summary',
    { nodes: bodies.length, summary, edges: edges.length },
  )
  const doc: FlowDocument = { metadata, viewport, nodes: bodies, edges }
  return { ok: true, doc, source: 'patchcat', notes: notes.texts, keyedNotes: notes.keyed }
}

interface ConvertContext extends ImportNotes {
  idMap: ReadonlyMap<string, string>
  lookup: NodeLookup
  rewrite: RefRewriter
  /** Filled with the source handles of converted conditions, by Wardflow node id. */
  handles: Map<string, HandleMap>
  /** The PatchCat types of the nodes with an edge into a PatchCat node, in edge order. */
  sourceTypes(rawId: string): string[]
}

/** Runs the mapper of a PatchCat type Wardflow has. */
function mapConfig(raw: { id: string; type: string }, d: PatchCatData, ctx: ConvertContext): FlowMapped {
  switch (raw.type) {
    case 'input':
      return { config: mapInput(d) }
    case 'output':
      return { config: mapOutput(d) }
    case 'prompt':
      return { config: mapPrompt(d) }
    case 'llm':
      return { config: mapLlm(d) }
    case 'agent':
      return { config: mapAgent(d, ctx.idMap) }
    case 'code': {
      const code = mapCode(d, ctx.rewrite)
      return code instanceof PlaceholderReason ? { reason: code } : { config: code }
    }
    case 'condition':
      return mapCondition(d, ctx)
    case 'aggregator':
      return mapAggregator(d, ctx.sourceTypes(raw.id), ctx)
    case 'loop':
      return mapLoop(d, ctx)
    case 'sub-workflow':
    case 'sub_workflow':
      return mapSubflow(d, ctx)
    case 'knowledge':
      return mapKnowledge(d, ctx)
    default:
      return { config: mapHttp(d) }
  }
}

function convertNode(
  raw: Record<string, unknown> & { id: string; type: string },
  id: string,
  ctx: ConvertContext,
): FlowNode {
  const { lookup, notes } = ctx
  const data = isPlainObject(raw.data) ? raw.data : {}
  const label =
    typeof data.label === 'string' ? data.label : typeof raw.label === 'string' ? raw.label : raw.id
  const pos = isPlainObject(raw.position) ? raw.position : {}
  const position =
    typeof pos.x === 'number' && typeof pos.y === 'number' && Number.isFinite(pos.x) && Number.isFinite(pos.y)
      ? { x: pos.x, y: pos.y }
      : { x: 0, y: 0 }
  if (position.x === 0 && position.y === 0 && !isPlainObject(raw.position))
    notes.add(`${id}: no position in the file; placed at 0,0.`, 'issues:importNote.patchcat.noPosition', {
      node: id,
    })
  const placeholder = (why: PlaceholderReason): FlowNode => {
    const from = JSON.stringify(raw.type)
    notes.add(
      `${id}: PatchCat type ${from} ${why.text}; kept as an unsupported placeholder with its original JSON (preflight lists it and Run is refused until it is replaced).`,
      why.key,
      why.wordsWholeNote ? { node: id, ...why.params } : { node: id, type: from, ...why.params },
    )
    return unsupportedNode(id, raw.type, raw, position, label, lookup)
  }
  const type = TYPE_MAP[raw.type]
  const definition = type === undefined ? undefined : lookup(type)
  if (type === undefined)
    return placeholder(
      new PlaceholderReason(
        'has no Wardflow equivalent',
        'issues:importNote.patchcat.placeholder.noEquivalent',
      ),
    )
  if (definition === undefined) {
    const to = JSON.stringify(type)
    return placeholder(
      new PlaceholderReason(
        `maps to ${to}, which this build of Wardflow does not include`,
        'issues:importNote.patchcat.placeholder.notInBuild',
        { to },
      ),
    )
  }

  const d = new PatchCatData(data, notes, id)
  const result = mapConfig(raw, d, ctx)
  if ('reason' in result) return placeholder(result.reason)
  if ('unsupported' in result)
    return placeholder(
      new PlaceholderReason(
        `cannot run here (${result.unsupported})`,
        `issues:importNote.patchcat.${result.key ?? 'placeholder.cannotRun'}`,
        result.key === undefined ? { reason: result.unsupported } : (result.params ?? {}),
        result.key !== undefined,
      ),
    )
  const mapped = result.config
  if (result.handles !== undefined) ctx.handles.set(id, result.handles)
  const restored = restoreConfig(definition, mapped)
  if (!restored.ok) {
    // The issues are the settings checker's own words: a detail kept as it is, in English.
    const why = restored.issues.map((issue) => `${issue.path || 'settings'}: ${issue.message}`).join('; ')
    return placeholder(
      new PlaceholderReason(
        `could not be converted (${why})`,
        'issues:importNote.patchcat.placeholder.notConverted',
        {
          why,
        },
      ),
    )
  }
  const dropped = Object.keys(mapped).filter((k) => !Object.hasOwn(restored.config, k))
  const left = [...d.leftovers(), ...dropped.map((k) => `config.${k}`)]
  const extra = Object.keys(data).filter((k) => !['label', 'config', 'inputs', 'description'].includes(k))
  left.push(...extra)
  if (left.length > 0) {
    const fields = left.join(', ')
    notes.add(
      `${id}: not carried over (no Wardflow equivalent): ${fields}.`,
      'issues:importNote.patchcat.leftOver',
      { node: id, fields },
    )
  }
  return { id, type: definition.type, position, data: { label, config: restored.config } }
}
