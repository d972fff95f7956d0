/**
 * The `output` config of model nodes (LLM, Agent): a JSON Schema the reply must fit, and how
 * many times a reply that does not fit is asked for again (docs/workflow-format.md).
 */
import { z } from '../zodMini.ts'
import { STRUCTURED_REPAIR_ATTEMPTS, STRUCTURED_REPAIR_ATTEMPTS_RANGE } from '../defaults.ts'
import type { ConfigIssue, OutputSpec } from '../engine/index.ts'
import { rangedNumber } from './shared.ts'

export const outputSpecSchema = z.object({
  /** A JSON Schema (draft 2020-12) of the data the reply must be. */
  schema: z.record(z.string(), z.unknown()),
  repairAttempts: z._default(rangedNumber(STRUCTURED_REPAIR_ATTEMPTS_RANGE), STRUCTURED_REPAIR_ATTEMPTS),
})

export type OutputConfig = z.infer<typeof outputSpecSchema>

/** The output fields a structured node adds to its usual ones. */
export const STRUCTURED_FIELDS = ['data', 'attempts'] as const

/** The spec the engine runs with, or undefined when the node returns text. */
export function outputSpecOf(output: OutputConfig | undefined): OutputSpec | undefined {
  if (!output) return undefined
  return { schema: output.schema, repairAttempts: output.repairAttempts }
}

/** JSON Schemas of the output fields whose shape is known: `data` is the schema's. */
export function structuredFieldSchemas(
  output: OutputConfig | undefined,
): Readonly<Record<string, unknown>> | undefined {
  return output ? { data: output.schema } : undefined
}

/** Problems a schema has that the validator would refuse at run time; caught before the run. */
export function outputIssues(output: OutputConfig | undefined): ConfigIssue[] {
  if (!output) return []
  const type = output.schema['type']
  const known = ['object', 'array', 'string', 'number', 'integer', 'boolean', 'null']
  const types = Array.isArray(type) ? type : type === undefined ? [] : [type]
  const unknown = types.find((t) => typeof t !== 'string' || !known.includes(t))
  if (unknown === undefined) return []
  return [
    {
      path: 'output.schema',
      message: `The output schema's type ${JSON.stringify(unknown)} is not a JSON Schema type.`,
      key: 'nodes:issues.outputSchemaType',
      params: { type: String(JSON.stringify(unknown)) },
    },
  ]
}
