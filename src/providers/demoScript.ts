/**
 * The `wardflow.demo-script` v1 format (docs/workflow-format.md): replies the offline demo
 * provider plays, one per model call.
 */
import { z } from 'zod'
import { FlowError } from '../engine/index.ts'

const demoToolCallSchema = z.strictObject({
  id: z.string().min(1).optional(),
  name: z.string().min(1),
  /** The raw argument string a model would send; an object is accepted and written as JSON. */
  arguments: z
    .union([z.string(), z.record(z.string(), z.unknown())])
    .transform((value) => (typeof value === 'string' ? value : JSON.stringify(value))),
})

const demoReplySchema = z.strictObject({
  /**
   * Answers only a call whose last user message contains this text (e.g. the item a loop's body
   * is summarising), wherever it is in the list; replies without `when` play in order for the rest.
   */
  when: z.string().min(1).optional(),
  text: z.string().default(''),
  reasoning: z.string().optional(),
  toolCalls: z.array(demoToolCallSchema).default([]),
  usage: z.strictObject({ prompt: z.number().int().min(0), completion: z.number().int().min(0) }).optional(),
  finishReason: z.string().min(1).optional(),
  chunkSize: z.number().int().min(1).optional(),
  delayMs: z.number().int().min(0).optional(),
})

export const demoScriptSchema = z.strictObject({
  format: z.literal('wardflow.demo-script'),
  version: z.literal(1),
  name: z.string().optional(),
  description: z.string().optional(),
  replies: z.array(demoReplySchema).min(1),
  then: z.enum(['repeat-last', 'stop']).default('repeat-last'),
})

export type DemoScript = z.infer<typeof demoScriptSchema>
export type DemoReply = z.infer<typeof demoReplySchema>

/** `replies[1].toolCalls[0].name` style path; '' for the whole document. */
export function jsonPath(path: ReadonlyArray<PropertyKey>): string {
  let out = ''
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`
    else out += out === '' ? String(segment) : `.${String(segment)}`
  }
  return out
}

/**
 * Validates an unknown JSON value as a demo script. Throws INVALID_CONFIG naming the JSON path
 * of each problem, e.g. `Invalid demo script: replies[0].toolCalls[0].name: expected string`.
 */
export function parseDemoScript(json: unknown): DemoScript {
  const result = demoScriptSchema.safeParse(json)
  if (result.success) return result.data
  const issues = result.error.issues.map((issue) => {
    const path = jsonPath(issue.path)
    return `${path === '' ? '(top level)' : path}: ${issue.message}`
  })
  const first = result.error.issues[0]
  throw new FlowError('INVALID_CONFIG', `Invalid demo script: ${issues.join('; ')}`, {
    details: { path: first ? jsonPath(first.path) : '' },
  })
}
