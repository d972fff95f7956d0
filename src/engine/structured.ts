/**
 * Structured output (docs/workflow-format.md "Structured output"): a model node with
 * `output.schema` returns data. The request asks for it natively where the provider can, else
 * the schema goes into the prompt; the reply is parsed and checked by the host's validator; a
 * reply that does not fit is asked for again with the problems, up to `repairAttempts` times.
 */
import { STRUCTURED_MAX_PROBLEMS, STRUCTURED_RAW_PREVIEW_CHARS } from '../defaults.ts'
import { FlowError } from './errors.ts'
import { addUsage, type Usage } from './events.ts'
import type { ChatMessage, ChatRequest, ResponseFormat, SchemaValidator } from './ports.ts'

/** The name the schema is sent under (OpenAI's json_schema.name, Anthropic's forced tool). */
export const STRUCTURED_OUTPUT_NAME = 'structured_output'

export interface OutputSpec {
  schema: Record<string, unknown>
  repairAttempts: number
}

export interface StructuredReply {
  /** The validated value. */
  data: unknown
  /** The raw text of the reply that fitted. */
  response: string
  usage: Usage
  /** Model calls it took, the first included. */
  attempts: number
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * True when OpenAI's strict mode accepts `schema`: every object lists all its properties as
 * required and forbids others. Strict on any other schema is a 400, so it is only asked then.
 */
export function strictCompatible(schema: unknown, depth = 0): boolean {
  if (depth > 32 || !isRecord(schema)) return typeof schema !== 'object'
  if (schema.type === 'object' || isRecord(schema.properties)) {
    const properties = isRecord(schema.properties) ? schema.properties : {}
    const required = Array.isArray(schema.required) ? schema.required : []
    if (schema.additionalProperties !== false) return false
    if (!Object.keys(properties).every((key) => required.includes(key))) return false
  }
  return Object.values(schema).every((child) =>
    Array.isArray(child)
      ? child.every((c) => strictCompatible(c, depth + 1))
      : strictCompatible(child, depth + 1),
  )
}

export function responseFormatOf(schema: Record<string, unknown>): ResponseFormat {
  return { name: STRUCTURED_OUTPUT_NAME, schema, strict: strictCompatible(schema) }
}

/** The instruction for providers that cannot ask natively (and for the Agent's tool loop). */
export function schemaInstruction(schema: Record<string, unknown>): string {
  return (
    'Reply with only a JSON value (no prose, no code fence) that fits this JSON Schema:\n' +
    JSON.stringify(schema)
  )
}

/** Adds the schema instruction to the system prompt, or as one when there is none. */
export function withSchemaInstruction(
  messages: readonly ChatMessage[],
  schema: Record<string, unknown>,
): ChatMessage[] {
  const instruction = schemaInstruction(schema)
  const out = [...messages]
  const index = out.findIndex((m) => m.role === 'system')
  const system = index >= 0 ? out[index] : undefined
  if (system && system.role === 'system') {
    out[index] = { role: 'system', content: `${system.content}\n\n${instruction}` }
  } else {
    out.unshift({ role: 'system', content: instruction })
  }
  return out
}

/** The request of the first attempt: native format when the provider has it, else the prompt. */
export function structuredRequest(request: ChatRequest, spec: OutputSpec, native: boolean): ChatRequest {
  return native
    ? { ...request, responseFormat: responseFormatOf(spec.schema) }
    : { ...request, messages: withSchemaInstruction(request.messages, spec.schema) }
}

type Parsed = { ok: true; value: unknown } | { ok: false; problem: string }

/** Parses a reply as JSON; a reply wrapped in a ```json fence (models do that) is unwrapped. */
export function parseJsonReply(text: string): Parsed {
  const trimmed = text.trim()
  const fenced = /^```[A-Za-z]*\s*\n([\s\S]*?)\n?```$/.exec(trimmed)
  const body = fenced?.[1] ?? trimmed
  if (body === '') return { ok: false, problem: 'the reply is empty, not JSON' }
  try {
    return { ok: true, value: JSON.parse(body) as unknown }
  } catch (error) {
    return {
      ok: false,
      problem: `the reply is not JSON (${error instanceof Error ? error.message : String(error)})`,
    }
  }
}

/** What the model is told when its reply did not fit. */
export function repairText(problems: readonly string[]): string {
  return (
    'Your reply does not fit the required JSON Schema:\n' +
    problems.map((p) => `- ${p}`).join('\n') +
    '\nReply again with only the corrected JSON value.'
  )
}

export interface StructuredParams {
  spec: OutputSpec
  /** The request of the first attempt (see structuredRequest). */
  request: ChatRequest
  /** One model call; streams its text into the console itself. */
  call(request: ChatRequest): Promise<{ text: string; usage: Usage }>
  /** A reply already obtained for the first attempt (the Agent's loop answer). */
  first?: { text: string; usage: Usage }
  validator: SchemaValidator
  nodeId: string
  /** A line in the node console between attempts. */
  log(text: string): void
}

async function problemsOf(text: string, schema: unknown, validator: SchemaValidator) {
  const parsed = parseJsonReply(text)
  if (!parsed.ok) return { problems: [parsed.problem], value: undefined }
  const problems = await validator.validate({
    value: parsed.value,
    schema,
    root: 'data',
    maxProblems: STRUCTURED_MAX_PROBLEMS,
    lenient: false,
  })
  return { problems, value: parsed.value }
}

/**
 * Calls (or takes `first`), checks, and asks again with the problems until a reply fits or
 * `repairAttempts` repairs are spent; then throws STRUCTURED_OUTPUT_INVALID with the last
 * problems in the message and the raw text in `details.raw`.
 */
export async function structuredReply(p: StructuredParams): Promise<StructuredReply> {
  let request = p.request
  let usage: Usage | undefined
  let text = ''
  let problems: string[] = []
  const total = p.spec.repairAttempts + 1
  for (let attempt = 1; attempt <= total; attempt++) {
    const reply = attempt === 1 && p.first ? p.first : await p.call(request)
    usage = usage === undefined ? reply.usage : addUsage(usage, reply.usage)
    text = reply.text
    const checked = await problemsOf(text, p.spec.schema, p.validator)
    problems = checked.problems
    if (problems.length === 0) return { data: checked.value, response: text, usage, attempts: attempt }
    if (attempt < total) {
      p.log(`\nAttempt ${attempt} does not fit the schema (${problems.join('; ')}); asking again.\n`)
      const history: ChatMessage[] = [
        ...request.messages,
        { role: 'assistant', content: text },
        { role: 'user', content: repairText(problems) },
      ]
      request = { ...request, messages: history }
    }
  }
  const preview =
    text.length > STRUCTURED_RAW_PREVIEW_CHARS ? `${text.slice(0, STRUCTURED_RAW_PREVIEW_CHARS)}…` : text
  throw new FlowError(
    'STRUCTURED_OUTPUT_INVALID',
    `The reply does not fit the output schema after ${total} ${total === 1 ? 'attempt' : 'attempts'}: ${problems.join('; ')}. Last reply: ${JSON.stringify(preview)}`,
    { nodeId: p.nodeId, details: { raw: text, problems: problems.join('\n'), attempts: total } },
  )
}
