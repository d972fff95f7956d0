/**
 * `{{nodeId.path}}` and `{{nodeId.path | "fallback"}}` templates. Resolution is a lookup in
 * upstream outputs, never evaluation: a path is dot keys and `[0]` indices, each step reads an
 * own property only, and `__proto__`, `prototype` and `constructor` are refused outright in a
 * path. The node id before the path is any valid id (`constructor` too): the run looks it up in
 * a Map of outputs, never as a property.
 */
import {
  TEMPLATE_MAX_DEPTH,
  TEMPLATE_PARSE_CACHE_ENTRIES,
  TEMPLATE_PARSE_CACHE_MAX_TEXT_CHARS,
} from '../defaults.ts'
import { FlowError } from './errors.ts'

export type PathSegment = string | number

/** One `{{...}}` reference found in a template string. */
export interface TemplateRef {
  /** The whole `{{...}}` text. */
  raw: string
  nodeId: string
  path: PathSegment[]
  /** The fallback text, unescaped; undefined when the reference has none. */
  fallback?: string
  /** Offsets of `raw` inside the template. */
  start: number
  end: number
  /** Set when the reference can never resolve: a refused segment or a path that is too deep. */
  problem?: 'forbidden-segment' | 'too-deep'
}

/** Path segments that would reach into the prototype chain; refused anywhere in a path. */
export const FORBIDDEN_SEGMENTS: ReadonlySet<string> = new Set(['__proto__', 'prototype', 'constructor'])

/**
 * The reference name under which a node run as a tool (Agent `node` tools) sees the caller's
 * arguments: `{{args.city}}`.
 */
export const TOOL_ARGS_REF = 'args'

/** Keys a node may use for output fields (Input/Output values) so that `{{id.key}}` can reach them. */
export const FIELD_KEY_PATTERN = /^[^\s.[\]{}()|"'\\]{1,128}$/

/** True when `key` can be an output field name (matches FIELD_KEY_PATTERN and is not refused). */
export function isValidFieldKey(key: string): boolean {
  return FIELD_KEY_PATTERN.test(key) && !FORBIDDEN_SEGMENTS.has(key)
}

const REF_PATTERN =
  /\{\{\s*([A-Za-z0-9_-]{1,64})((?:\.[^\s.[\]{}()|"'\\]+|\[\d+\])*)\s*(?:\|\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')\s*)?\}\}/g
const SEGMENT_PATTERN = /\.([^\s.[\]{}()|"'\\]+)|\[(\d+)\]/g

function parsePath(text: string): PathSegment[] {
  const path: PathSegment[] = []
  for (const match of text.matchAll(SEGMENT_PATTERN)) {
    if (match[1] !== undefined) path.push(match[1])
    else path.push(Number(match[2]))
  }
  return path
}

function unquote(quoted: string): string {
  return quoted.slice(1, -1).replace(/\\(.)/g, '$1')
}

/** Finds every well-formed reference in `text`, in order. Text that does not parse stays literal. */
export function extractRefs(text: string): TemplateRef[] {
  if (!text.includes('{{')) return []
  const refs: TemplateRef[] = []
  for (const match of text.matchAll(REF_PATTERN)) {
    const path = parsePath(match[2] ?? '')
    const ref: TemplateRef = {
      raw: match[0],
      nodeId: match[1] as string,
      path,
      start: match.index,
      end: match.index + match[0].length,
    }
    if (match[3] !== undefined) ref.fallback = unquote(match[3])
    const refused = (s: PathSegment): boolean => typeof s === 'string' && FORBIDDEN_SEGMENTS.has(s)
    if (path.some(refused)) ref.problem = 'forbidden-segment'
    else if (path.length > TEMPLATE_MAX_DEPTH) ref.problem = 'too-deep'
    refs.push(ref)
  }
  return refs
}

/** The result of following a path: `found` is false when any step is missing. */
export type LookupResult = { found: true; value: unknown } | { found: false }

/** Follows `path` through own properties and array indices only. */
export function lookupPath(root: unknown, path: readonly PathSegment[]): LookupResult {
  let value = root
  for (const segment of path) {
    if (typeof segment === 'string' && FORBIDDEN_SEGMENTS.has(segment)) return { found: false }
    if (Array.isArray(value)) {
      const index = typeof segment === 'number' ? segment : /^\d+$/.test(segment) ? Number(segment) : -1
      if (index < 0 || index >= value.length) return { found: false }
      value = value[index]
    } else if (typeof value === 'object' && value !== null) {
      const key = String(segment)
      if (!Object.hasOwn(value, key)) return { found: false }
      value = (value as Record<string, unknown>)[key]
    } else {
      return { found: false }
    }
  }
  return { found: true, value }
}

/** How a looked-up value becomes text: strings as they are, objects and arrays as JSON text. */
export function valueToText(value: unknown): string {
  if (value === undefined || value === null) return ''
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value)
  try {
    return JSON.stringify(value) ?? ''
  } catch {
    // Cyclic or otherwise unserialisable values cannot come from JSON outputs; be safe anyway.
    return String(value)
  }
}

/** Gives the outputs of a node by id, or undefined when the node is not visible from here. */
export type OutputLookup = (nodeId: string) => Readonly<Record<string, unknown>> | undefined

/** The size cap of one resolved field (RuntimeProtection.templateMaxChars) and the field's name. */
export interface RenderLimit {
  /** Config path of the field, for the message: `prompt`, `headers[0].value`, `values.answer`. */
  field: string
  maxChars: number
}

function tooLarge(chars: number, limit: RenderLimit, nodeId: string | undefined): FlowError {
  const where =
    nodeId === undefined ? `The field "${limit.field}"` : `The field "${limit.field}" of "${nodeId}"`
  return new FlowError(
    'TEMPLATE_TOO_LARGE',
    `${where} would be ${chars.toLocaleString('en-US')} characters once its references are filled in, ` +
      `over the limit of ${limit.maxChars.toLocaleString('en-US')} (Settings > Runtime protection > ` +
      'Largest filled-in field). Reference less text, or raise the limit.',
    { nodeId, details: { field: limit.field, chars, limit: limit.maxChars } },
  )
}

/** The text one reference becomes: its value, else its fallback, else ''. */
function refValue(ref: TemplateRef, lookup: OutputLookup): string {
  const outputs = ref.problem === 'too-deep' ? undefined : lookup(ref.nodeId)
  const result: LookupResult = outputs === undefined ? { found: false } : lookupPath(outputs, ref.path)
  const found = result.found ? valueToText(result.value) : ''
  return found === '' ? (ref.fallback ?? '') : found
}

/**
 * Parsed references of short template texts, reused across renders (a condition's rules, a
 * loop body's prompt render the same texts again and again). Read-only to its one reader,
 * renderTemplate; extractRefs still returns fresh arrays to everyone else.
 */
const parsedRefs = new Map<string, readonly TemplateRef[]>()

function refsOf(text: string): readonly TemplateRef[] {
  if (text.length > TEMPLATE_PARSE_CACHE_MAX_TEXT_CHARS) return extractRefs(text)
  let refs = parsedRefs.get(text)
  if (refs === undefined) {
    refs = extractRefs(text)
    if (parsedRefs.size >= TEMPLATE_PARSE_CACHE_ENTRIES) parsedRefs.clear()
    parsedRefs.set(text, refs)
  }
  return refs
}

/**
 * Replaces every reference in `text`. A missing value (unknown node, missing path, null or
 * empty string) becomes the fallback, or '' without one. A refused segment throws
 * REF_FORBIDDEN_SEGMENT so a crafted template fails loudly instead of quietly reading nothing.
 *
 * With a `limit`, a result longer than `limit.maxChars` throws TEMPLATE_TOO_LARGE before any
 * text is joined: the pieces' lengths are summed first, so a 1 MB value referenced 100 times
 * costs a hundred additions, not a 100 MB string (which froze the tab for a minute). Each
 * distinct reference is looked up and turned into text once per call.
 */
export function renderTemplate(
  text: string,
  lookup: OutputLookup,
  nodeId?: string,
  limit?: RenderLimit,
): string {
  const maxChars = limit?.maxChars ?? Number.POSITIVE_INFINITY
  const refs = refsOf(text)
  if (refs.length === 0) {
    if (limit && text.length > maxChars) throw tooLarge(text.length, limit, nodeId)
    return text
  }
  const only = refs.length === 1 ? refs[0] : undefined
  // The whole text is one reference (`{{ticket.category}}`, a condition rule's usual value):
  // no pieces to join, and no map of values to keep.
  if (only !== undefined && only.start === 0 && only.end === text.length && only.problem === undefined) {
    const value = refValue(only, lookup)
    if (limit && value.length > maxChars) throw tooLarge(value.length, limit, nodeId)
    return value
  }
  const pieces: string[] = []
  const values = new Map<string, string>()
  let total = 0
  let last = 0
  for (const ref of refs) {
    if (ref.problem === 'forbidden-segment') {
      throw new FlowError(
        'REF_FORBIDDEN_SEGMENT',
        `The reference ${ref.raw} uses a refused name (__proto__, prototype or constructor).`,
        {
          nodeId,
          details: { ref: ref.raw },
        },
      )
    }
    let value = values.get(ref.raw)
    if (value === undefined) {
      value = refValue(ref, lookup)
      values.set(ref.raw, value)
    }
    pieces.push(text.slice(last, ref.start), value)
    total += ref.start - last + value.length
    last = ref.end
  }
  total += text.length - last
  if (limit && total > maxChars) throw tooLarge(total, limit, nodeId)
  pieces.push(text.slice(last))
  return pieces.join('')
}

/** Formats a path back into `a.b[0]` form, for messages. */
export function formatRefPath(nodeId: string, path: readonly PathSegment[]): string {
  return nodeId + path.map((s) => (typeof s === 'number' ? `[${s}]` : `.${s}`)).join('')
}
