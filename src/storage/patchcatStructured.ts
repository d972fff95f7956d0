/**
 * PatchCat's structured-output settings on an LLM or Agent node -> Wardflow's `output` config
 * (`{ schema, repairAttempts }`). PatchCat keeps the JSON Schema under one of a few names (an
 * object, or its JSON text) and its self-healing retries beside it; each spelling it has used is
 * read here, so the type table in patchcat.ts stays one line per type.
 */
import { STRUCTURED_REPAIR_ATTEMPTS_RANGE } from '../defaults.ts'
import { isPlainObject } from './restore/index.ts'
import type { PatchCatData } from './patchcatNodes.ts'

const SCHEMA_KEYS = ['outputSchema', 'jsonSchema', 'responseSchema', 'schema'] as const
const RETRY_KEYS = ['repairAttempts', 'maxRepairs', 'selfHealRetries', 'maxRetries', 'retries'] as const

function asSchema(value: unknown): Record<string, unknown> | undefined {
  if (isPlainObject(value)) return value
  if (typeof value !== 'string' || value.trim() === '') return undefined
  try {
    const parsed: unknown = JSON.parse(value)
    return isPlainObject(parsed) ? parsed : undefined
  } catch {
    return undefined
  }
}

/**
 * `response_format: { type: 'json_schema', json_schema: { schema } }`, OpenAI's own shape, or
 * PatchCat's engine spelling `responseFormat: { jsonSchema: { name, schema } }`.
 */
function fromResponseFormat(value: unknown): Record<string, unknown> | undefined {
  if (!isPlainObject(value)) return undefined
  const named = value['json_schema'] ?? value['jsonSchema']
  const inner = isPlainObject(named) ? named : value
  return asSchema(inner['schema'])
}

/** Reads the schema (and its retries) wherever PatchCat put it; undefined for a text node. */
export function mapStructuredOutput(d: PatchCatData): Record<string, unknown> | undefined {
  const nested = d.take('structuredOutput')
  const block = isPlainObject(nested) ? nested : undefined
  if (block && block['enabled'] === false) return undefined
  let schema: Record<string, unknown> | undefined
  for (const key of SCHEMA_KEYS) {
    schema ??= asSchema(block ? block[key] : undefined) ?? asSchema(d.take(key, ['config']))
  }
  schema ??= fromResponseFormat(d.take('responseFormat', ['config']) ?? d.take('response_format', ['config']))
  if (!schema) return undefined
  let attempts: number | undefined
  for (const key of RETRY_KEYS) {
    const raw = block?.[key] ?? (attempts === undefined ? d.take(key, ['config']) : undefined)
    if (attempts === undefined && typeof raw === 'number' && Number.isInteger(raw)) attempts = raw
  }
  const { min, max } = STRUCTURED_REPAIR_ATTEMPTS_RANGE
  return attempts === undefined
    ? { schema }
    : { schema, repairAttempts: Math.min(max, Math.max(min, attempts)) }
}
