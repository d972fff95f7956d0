/**
 * The demo provider's structured answer: a value built from the schema alone, deterministic, so
 * an offline flow whose templates read `{{llm.data.field}}` runs and shows something real.
 */
import { DEMO_SAMPLE_MAX_DEPTH } from '../defaults.ts'

type Schema = Record<string, unknown>

function isRecord(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function firstType(schema: Schema): string | undefined {
  const type = schema['type']
  if (typeof type === 'string') return type
  if (Array.isArray(type)) return type.find((t): t is string => typeof t === 'string' && t !== 'null')
  if (isRecord(schema['properties'])) return 'object'
  if (schema['items'] !== undefined || schema['prefixItems'] !== undefined) return 'array'
  return undefined
}

function sampleString(schema: Schema, name: string): string {
  const min = typeof schema['minLength'] === 'number' ? schema['minLength'] : 0
  const max = typeof schema['maxLength'] === 'number' ? schema['maxLength'] : Number.POSITIVE_INFINITY
  const base = `demo ${name}`.trim()
  const padded = base.length >= min ? base : base.padEnd(min, '.')
  return padded.slice(0, Math.max(min, Math.min(max, padded.length)))
}

function sampleNumber(schema: Schema, integer: boolean): number {
  const min = typeof schema['minimum'] === 'number' ? schema['minimum'] : undefined
  const exMin = typeof schema['exclusiveMinimum'] === 'number' ? schema['exclusiveMinimum'] : undefined
  const max = typeof schema['maximum'] === 'number' ? schema['maximum'] : undefined
  let value = min ?? (exMin !== undefined ? exMin + 1 : 0)
  if (max !== undefined && value > max) value = max
  return integer ? Math.ceil(value) : value
}

/** A value fitting the common parts of `schema` (types, enums, const, required, bounds). */
export function sampleOf(schema: unknown, name = '', depth = 0): unknown {
  if (!isRecord(schema) || depth > DEMO_SAMPLE_MAX_DEPTH) return null
  if ('const' in schema) return schema['const']
  const options = schema['enum']
  if (Array.isArray(options) && options.length > 0) return options[0]
  for (const key of ['anyOf', 'oneOf'] as const) {
    const parts = schema[key]
    if (Array.isArray(parts) && parts.length > 0) return sampleOf(parts[0], name, depth + 1)
  }
  switch (firstType(schema)) {
    case 'object': {
      const properties = isRecord(schema['properties']) ? schema['properties'] : {}
      return Object.fromEntries(
        Object.entries(properties).map(([key, sub]) => [key, sampleOf(sub, key, depth + 1)]),
      )
    }
    case 'array': {
      const prefix = Array.isArray(schema['prefixItems']) ? schema['prefixItems'] : []
      const min = typeof schema['minItems'] === 'number' ? schema['minItems'] : 1
      const max = typeof schema['maxItems'] === 'number' ? schema['maxItems'] : min
      const count = Math.max(prefix.length, Math.min(Math.max(min, 1), max))
      return Array.from({ length: count }, (_, i) =>
        sampleOf(i < prefix.length ? prefix[i] : schema['items'], name, depth + 1),
      )
    }
    case 'string':
      return sampleString(schema, name)
    case 'integer':
      return sampleNumber(schema, true)
    case 'number':
      return sampleNumber(schema, false)
    case 'boolean':
      return true
    default:
      return null
  }
}
