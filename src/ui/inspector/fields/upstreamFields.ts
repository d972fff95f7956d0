/**
 * The `{{node.field}}` references a node can read from upstream, for the inspector's pickers and
 * autocomplete: each upstream node's declared outputs, the fields of a structured output's schema
 * (`{{llm.data.intent}}`), and, where no schema says, the fields its last run's values had.
 * Pure, so the lists are unit-tested without a DOM.
 */
import { INSPECTOR_REF_MAX_DEPTH, INSPECTOR_REF_MAX_PER_NODE } from '../../../defaults.ts'
import {
  schemaAt,
  schemaFields,
  type FlowEdge,
  type FlowNode,
  type OutputLookup,
} from '../../../engine/index.ts'
import { engineRegistry } from '../../../nodes/registry.ts'

export interface UpstreamGroup {
  nodeId: string
  label: string
  refs: string[]
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function segment(key: string): string {
  return /^\d+$/.test(key) ? `[${key}]` : `.${key}`
}

/** Paths into a schema's listed fields, depth-first, the first item standing for a list. */
function schemaPaths(schema: unknown, prefix: string, depth: number, out: string[]): void {
  if (depth >= INSPECTOR_REF_MAX_DEPTH || out.length >= INSPECTOR_REF_MAX_PER_NODE) return
  const items = isRecord(schema) ? schemaAt(schema, [0]) : undefined
  if (isRecord(schema) && (schema['type'] === 'array' || schema['items'] !== undefined) && items) {
    out.push(`${prefix}[0]`)
    schemaPaths(items, `${prefix}[0]`, depth + 1, out)
    return
  }
  for (const key of schemaFields(schema)) {
    const path = `${prefix}${segment(key)}`
    out.push(path)
    schemaPaths(schemaAt(schema, [key]), path, depth + 1, out)
  }
}

/** Paths into a value a run produced (objects only, the first item of a list). */
function valuePaths(value: unknown, prefix: string, depth: number, out: string[]): void {
  if (depth >= INSPECTOR_REF_MAX_DEPTH || out.length >= INSPECTOR_REF_MAX_PER_NODE) return
  if (Array.isArray(value)) {
    if (value.length === 0 || (!isRecord(value[0]) && !Array.isArray(value[0]))) return
    out.push(`${prefix}[0]`)
    valuePaths(value[0], `${prefix}[0]`, depth + 1, out)
    return
  }
  if (!isRecord(value)) return
  for (const [key, child] of Object.entries(value)) {
    const path = `${prefix}${segment(key)}`
    out.push(path)
    valuePaths(child, path, depth + 1, out)
  }
}

/** Every reference one node offers: its outputs and what is known inside them. */
export function nodeRefs(node: FlowNode, lastOutput?: Readonly<Record<string, unknown>>): string[] {
  const type = engineRegistry.get(node.type)
  const parsed = type?.parseConfig(node.data.config)
  if (!type || !parsed?.ok) return []
  const fields = type.outputs(parsed.value) ?? (lastOutput ? Object.keys(lastOutput) : [])
  const schemas = type.fieldSchemas?.(parsed.value) ?? {}
  const out: string[] = []
  for (const field of fields) {
    const base = `${node.id}.${field}`
    out.push(base)
    if (field === 'usage') continue
    if (Object.hasOwn(schemas, field)) schemaPaths(schemas[field], base, 0, out)
    else if (lastOutput && Object.hasOwn(lastOutput, field)) valuePaths(lastOutput[field], base, 0, out)
  }
  return out.map((path) => `{{${path}}}`)
}

/** The groups of every node upstream of `nodeId` (nearest first), with what each offers. */
export function upstreamRefs(
  nodeId: string,
  nodes: readonly FlowNode[],
  edges: readonly FlowEdge[],
  lastOutputs: OutputLookup = () => undefined,
): UpstreamGroup[] {
  const byId = new Map(nodes.map((n) => [n.id, n]))
  const seen = new Set<string>([nodeId])
  const queue = [nodeId]
  const out: UpstreamGroup[] = []
  while (queue.length > 0) {
    const current = queue.shift() as string
    for (const edge of edges) {
      if (edge.target !== current || seen.has(edge.source)) continue
      seen.add(edge.source)
      queue.push(edge.source)
      const node = byId.get(edge.source)
      const refs = node ? nodeRefs(node, lastOutputs(node.id)) : []
      if (!node || refs.length === 0) continue
      out.push({ nodeId: node.id, label: node.data.label || node.id, refs })
    }
  }
  return out
}

/** The partial reference the caret is in (`{{llm.da` before it), or undefined. */
export function openReference(text: string, caret: number): { start: number; typed: string } | undefined {
  const before = text.slice(0, caret)
  const start = before.lastIndexOf('{{')
  if (start < 0) return undefined
  const typed = before.slice(start + 2)
  if (typed.includes('}}') || /[\s|]/.test(typed.trimStart())) return undefined
  return { start, typed: typed.trimStart() }
}

/** The references matching what was typed after `{{`, best first (prefix, then contains). */
export function matchingRefs(groups: readonly UpstreamGroup[], typed: string, limit: number): string[] {
  const all = groups.flatMap((g) => g.refs)
  const needle = typed.toLowerCase()
  const inner = (ref: string): string => ref.slice(2, -2).toLowerCase()
  const prefix = all.filter((ref) => inner(ref).startsWith(needle))
  const contains = all.filter((ref) => !inner(ref).startsWith(needle) && inner(ref).includes(needle))
  return [...prefix, ...contains].slice(0, limit)
}

export interface LineCompletion {
  /** 0-based offsets in the line: the `{{` the reference starts at, and where the replace ends. */
  start: number
  end: number
  /** What the person has typed from the `{{` up to the caret, as written. */
  typed: string
  refs: string[]
}

/**
 * The references to offer at a caret in one line of an editor (Monaco asks per line; a
 * reference never spans lines). The replace covers a `}}` right after the caret, so picking a
 * reference inside `{{…}}` written earlier does not leave a second pair of braces.
 */
export function lineCompletion(
  groups: readonly UpstreamGroup[],
  line: string,
  caret: number,
  limit: number,
): LineCompletion | undefined {
  const open = openReference(line, caret)
  if (!open) return undefined
  const refs = matchingRefs(groups, open.typed, limit)
  if (refs.length === 0) return undefined
  const end = line.startsWith('}}', caret) ? caret + 2 : caret
  return { start: open.start, end, typed: line.slice(open.start, caret), refs }
}
