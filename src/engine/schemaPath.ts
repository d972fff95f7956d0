/**
 * Follows a `{{node.data.a.b}}` path through the JSON Schema of `data`, so preflight can refuse a
 * reference to a field the schema does not have and the inspector can offer the fields it has.
 * Where the schema leaves the shape open (no `properties`, additional properties allowed, a
 * `$ref`), anything goes: only a field a closed object does not list is refused.
 */
import type { PathSegment } from './templates.ts'

type Schema = Record<string, unknown>

function isRecord(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The alternatives a value of `schema` may take: the schema itself and its anyOf/oneOf/allOf parts. */
function branches(schema: Schema): Schema[] {
  const out: Schema[] = [schema]
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const parts = schema[key]
    if (Array.isArray(parts)) for (const part of parts) if (isRecord(part)) out.push(...branches(part))
  }
  return out
}

/** The property names `schema` lists (all branches), in order, without repeats. */
export function schemaFields(schema: unknown): string[] {
  if (!isRecord(schema)) return []
  const names = new Set<string>()
  for (const branch of branches(schema)) {
    if (isRecord(branch['properties'])) for (const key of Object.keys(branch['properties'])) names.add(key)
  }
  return [...names]
}

function isOpen(schema: Schema): boolean {
  const extra = schema['additionalProperties']
  return extra === true || isRecord(extra) || isRecord(schema['patternProperties']) || '$ref' in schema
}

type Step = { kind: 'into'; schema: Schema } | { kind: 'open' } | { kind: 'missing'; known: string[] }

function step(schema: Schema, segment: PathSegment): Step {
  const all = branches(schema)
  if (typeof segment === 'number' || /^\d+$/.test(segment)) {
    const index = Number(segment)
    for (const branch of all) {
      const prefix = branch['prefixItems']
      if (Array.isArray(prefix) && isRecord(prefix[index])) return { kind: 'into', schema: prefix[index] }
      if (isRecord(branch['items'])) return { kind: 'into', schema: branch['items'] }
    }
    return { kind: 'open' }
  }
  for (const branch of all) {
    const properties = branch['properties']
    if (isRecord(properties) && Object.hasOwn(properties, segment)) {
      const sub = properties[segment]
      return isRecord(sub) ? { kind: 'into', schema: sub } : { kind: 'open' }
    }
  }
  const listed = all.some((b) => isRecord(b['properties']))
  if (!listed || all.some(isOpen)) return { kind: 'open' }
  return { kind: 'missing', known: schemaFields(schema) }
}

/** Where `path` leaves `schema`: the field it names that the schema does not have. */
export interface SchemaPathMiss {
  /** The missing field's name. */
  field: string
  /** The fields the schema has at that place. */
  known: string[]
  /** The steps before it, for messages (`items[0]`). */
  before: PathSegment[]
}

export function missingSchemaField(
  schema: unknown,
  path: readonly PathSegment[],
): SchemaPathMiss | undefined {
  let current = schema
  for (let i = 0; i < path.length; i++) {
    if (!isRecord(current)) return undefined
    const segment = path[i] as PathSegment
    const next = step(current, segment)
    if (next.kind === 'open') return undefined
    if (next.kind === 'missing')
      return { field: String(segment), known: next.known, before: path.slice(0, i) }
    current = next.schema
  }
  return undefined
}

/** The JSON Schema at `path` inside `schema`, when the path stays in listed fields. */
export function schemaAt(schema: unknown, path: readonly PathSegment[]): Schema | undefined {
  let current = schema
  for (const segment of path) {
    if (!isRecord(current)) return undefined
    const next = step(current, segment)
    if (next.kind !== 'into') return undefined
    current = next.schema
  }
  return isRecord(current) ? current : undefined
}
