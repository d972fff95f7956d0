/**
 * The workflow file (`*.wardflow.json`, format `wardflow.workflow` v2, workflow-format.md):
 * export without secrets, import with every problem reported at its JSON path. PatchCat files
 * are recognised and converted (patchcat.ts). Import never throws and never writes anything.
 */
import type { FlowDocument, FlowNode, PinnedOutput } from '../engine/index.ts'
import { readJsonText } from './jsonText.ts'
import { importPatchCat, looksLikePatchCat } from './patchcat.ts'
import { redactSecrets } from './redact.ts'
import { fillOmitted } from './restore/omitted.ts'
import { parseSubflows } from './workflowSubflows.ts'
import {
  capProblems,
  isPlainObject,
  restoreDocument,
  type ImportProblem,
  type KeyedNote,
  type NodeLookup,
} from './restore/index.ts'

export const WORKFLOW_FORMAT = 'wardflow.workflow'
export const WORKFLOW_FILE_VERSION = 2
export const SETTINGS_FORMAT = 'wardflow.settings'

export type ParseWorkflowResult =
  | {
      ok: true
      doc: FlowDocument
      /** The flows the file carries for its Sub-flow nodes (version 2); [] for other files. */
      subflows: FlowDocument[]
      source: 'wardflow' | 'patchcat'
      notes: string[]
      /** Catalogue keys of the notes that have one (the UI words those in its language). */
      keyedNotes?: KeyedNote[]
    }
  | { ok: false; problems: ImportProblem[] }

export interface WorkflowExport {
  text: string
  /** JSON paths of values that looked like secrets and were emptied (e.g. `nodes[3].data.config.headers[0].value`). */
  redacted: string[]
}

const NO_HEADER_NOTE = 'The file has no "format" header; it was read as a Wardflow flow.'

function exportNode(node: FlowNode, at: string, redacted: string[]): Record<string, unknown> {
  const clean = redactSecrets(node.data.config, `${at}.data.config`, 'careful')
  redacted.push(...clean.redacted.map((r) => r.path))
  return {
    id: node.id,
    type: node.type,
    position: { x: node.position.x, y: node.position.y },
    data: { label: node.data.label, config: clean.value },
    ...(node.size === undefined ? {} : { size: { width: node.size.width, height: node.size.height } }),
    ...(node.parentId === undefined ? {} : { parentId: node.parentId }),
    ...(node.pinned === undefined ? {} : { pinned: exportPin(node.pinned, `${at}.pinned.output`, redacted) }),
  }
}

/** A pinned output as the file holds it (values that look like secrets emptied, as in configs). */
function exportPin(pin: PinnedOutput, at: string, redacted: string[]): PinnedOutput {
  const clean = redactSecrets(pin.output, at, 'careful')
  redacted.push(...clean.redacted.map((r) => r.path))
  const output = clean.value as Record<string, unknown>
  return { output, ...(pin.notTaken?.length ? { notTaken: [...pin.notTaken] } : {}) }
}

/** A flow as the file holds it: `prefix` is its JSON path ('' for the main flow). */
function exportDoc(doc: FlowDocument, prefix: string, redacted: string[]): Record<string, unknown> {
  const { metadata: m, viewport: v } = doc
  return {
    metadata: {
      id: m.id,
      name: m.name,
      description: m.description,
      tags: [...m.tags],
      createdAt: m.createdAt,
      updatedAt: m.updatedAt,
      ...(m.reuseUnchanged === undefined ? {} : { reuseUnchanged: m.reuseUnchanged }),
      // The flow's own run budget travels with it: a file run elsewhere is bounded the same way.
      ...(m.limits === undefined ? {} : { limits: { ...m.limits } }),
    },
    viewport: { x: v.x, y: v.y, zoom: v.zoom },
    nodes: doc.nodes.map((node, i) => exportNode(node, `${prefix}nodes[${i}]`, redacted)),
    edges: doc.edges.map((e) => ({
      id: e.id,
      source: e.source,
      target: e.target,
      ...(e.sourceHandle === undefined ? {} : { sourceHandle: e.sourceHandle }),
      ...(e.targetHandle === undefined ? {} : { targetHandle: e.targetHandle }),
    })),
  }
}

/**
 * The workflow file of `doc` and the paths of anything secret-looking that was left out.
 * `subflows` are the flows it calls (directly or through others), carried so the file runs
 * anywhere; the key is written only when there are some.
 */
export function exportWorkflow(doc: FlowDocument, subflows: readonly FlowDocument[] = []): WorkflowExport {
  const redacted: string[] = []
  const file = {
    format: WORKFLOW_FORMAT,
    version: WORKFLOW_FILE_VERSION,
    ...exportDoc(doc, '', redacted),
    ...(subflows.length === 0
      ? {}
      : { subflows: subflows.map((sub, i) => exportDoc(sub, `subflows[${i}].`, redacted)) }),
  }
  return { text: `${JSON.stringify(file, null, 2)}\n`, redacted }
}

/** Pretty JSON of the workflow file; never contains a secret (see exportWorkflow). */
export function exportWorkflowText(doc: FlowDocument, subflows: readonly FlowDocument[] = []): string {
  return exportWorkflow(doc, subflows).text
}

/** `<name>.wardflow.json` with characters file systems refuse replaced. */
export function workflowFileName(name: string): string {
  const base = [...name]
    .map((ch) => (ch.charCodeAt(0) < 0x20 || '\\/:*?"<>|'.includes(ch) ? '-' : ch))
    .join('')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 100)
  return `${base === '' || /^\.+$/.test(base) ? 'workflow' : base}.wardflow.json`
}

export interface ParseWorkflowOptions {
  lookup?: NodeLookup
}

/**
 * Reads a workflow file (Wardflow or PatchCat). Refused files come back with every problem and
 * its JSON path (`nodes[2].data.config.temperature`). Never throws.
 */
export function parseWorkflowText(text: string, options: ParseWorkflowOptions = {}): ParseWorkflowResult {
  try {
    return parse(text, options)
  } catch (error) {
    // Defensive: a bug or an engine limit must still come back as a refusal, not a crash.
    const reason = error instanceof Error ? error.message : String(error)
    return { ok: false, problems: [{ path: '', message: `The file could not be read: ${reason}` }] }
  }
}

function parse(text: string, options: ParseWorkflowOptions): ParseWorkflowResult {
  const json = readJsonText(text, 'workflow file')
  if (!json.ok) return json
  const file = json.value
  if (!isPlainObject(file)) {
    return {
      ok: false,
      problems: [
        {
          path: '',
          message:
            'A workflow file is a JSON object with "format", "nodes" and "edges"; this file is not an object.',
          key: 'issues:importProblem.notObject',
        },
      ],
    }
  }
  if ('format' in file) return parseWardflow(file, options)
  if (looksLikePatchCat(file)) {
    const converted = importPatchCat(file, options.lookup)
    return converted.ok ? { ...converted, subflows: [] } : converted
  }
  if (isPlainObject(file.metadata) && Array.isArray(file.nodes)) {
    const filled = fillOmitted(file)
    const restored = restoreDocument(filled.file, { mode: 'strict', lookup: options.lookup })
    if (!restored.ok) return restored
    const carried = parseSubflows(file, options.lookup)
    if (!carried.ok) return { ok: false, problems: capProblems(carried.problems) }
    return {
      ok: true,
      doc: restored.doc,
      subflows: carried.subflows,
      source: 'wardflow',
      notes: [NO_HEADER_NOTE, ...filled.notes, ...restored.notes],
      keyedNotes: [
        { text: NO_HEADER_NOTE, key: 'issues:importNote.noHeader' },
        ...filled.keyedNotes,
        ...(restored.keyedNotes ?? []),
      ],
    }
  }
  return {
    ok: false,
    problems: [
      {
        path: 'format',
        message: `This is not a workflow file: expected "format": "${WORKFLOW_FORMAT}" or a PatchCat workflow with "nodes".`,
        key: 'issues:importProblem.notWorkflow',
        params: { format: WORKFLOW_FORMAT },
      },
    ],
  }
}

function parseWardflow(file: Record<string, unknown>, options: ParseWorkflowOptions): ParseWorkflowResult {
  const problems: ImportProblem[] = []
  if (file.format !== WORKFLOW_FORMAT) {
    const hint = file.format === SETTINGS_FORMAT ? ' This is a settings file: import it under Settings.' : ''
    problems.push({
      path: 'format',
      message: `Expected "${WORKFLOW_FORMAT}", found ${JSON.stringify(file.format)}.${hint}`,
      key:
        file.format === SETTINGS_FORMAT
          ? 'issues:importProblem.settingsFile'
          : 'issues:importProblem.wrongFormat',
      params: { format: WORKFLOW_FORMAT, found: JSON.stringify(file.format) ?? '' },
    })
  } else if (typeof file.version !== 'number' || !Number.isInteger(file.version) || file.version < 1) {
    problems.push({
      path: 'version',
      message: `Expected version ${WORKFLOW_FILE_VERSION}, found ${JSON.stringify(file.version) ?? 'nothing'}.`,
      key: 'issues:importProblem.wrongVersion',
      params: { version: WORKFLOW_FILE_VERSION, found: JSON.stringify(file.version) ?? '—' },
    })
  } else if (file.version > WORKFLOW_FILE_VERSION) {
    problems.push({
      path: 'version',
      message: `This file was written by a newer Wardflow (format version ${file.version}; this app reads version ${WORKFLOW_FILE_VERSION}). Update Wardflow to import it.`,
      key: 'issues:importProblem.newerVersion',
      params: { found: file.version, version: WORKFLOW_FILE_VERSION },
    })
  }
  if (problems.length > 0) return { ok: false, problems }
  const current = migrateWorkflowFile(file)
  const filled = fillOmitted(current)
  const restored = restoreDocument(filled.file, { mode: 'strict', lookup: options.lookup })
  const carried = parseSubflows(current, options.lookup)
  if (!restored.ok || !carried.ok) {
    const all = [...(restored.ok ? [] : restored.problems), ...(carried.ok ? [] : carried.problems)]
    return { ok: false, problems: capProblems(all) }
  }
  const keyedNotes = [...filled.keyedNotes, ...(restored.keyedNotes ?? [])]
  return {
    ok: true,
    doc: restored.doc,
    subflows: carried.subflows,
    source: 'wardflow',
    notes: [...filled.notes, ...restored.notes, ...carried.notes],
    ...(keyedNotes.length === 0 ? {} : { keyedNotes }),
  }
}

/**
 * Brings a workflow file of an older format version to the current one, step by step. Version
 * 1 -> 2 added `subflows` (the flows a file carries for its Sub-flow nodes): a version 1 file
 * carries none, and every other field means what it meant, so it is kept as it is.
 */
export function migrateWorkflowFile(file: Record<string, unknown>): Record<string, unknown> {
  let out = file
  if (out.version === 1) out = { ...out, version: 2, subflows: [] }
  return out
}

/** An imported flow as a new flow: fresh id, created and updated `now`. Nothing else changes. */
export function asNewFlow(doc: FlowDocument, newId: string, now: string): FlowDocument {
  return structuredClone({ ...doc, metadata: { ...doc.metadata, id: newId, createdAt: now, updatedAt: now } })
}
